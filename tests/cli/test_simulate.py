"""`w40k simulate` (docs/simulate.md): many battles, win rates with 95 % intervals, results
files that shards of one batch combine from, and clear refusals of bad options and files."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from w40k.agents.play import GameOutcome, play_game, play_games
from w40k.agents.win_rates import summarise, wilson
from w40k.cli.battle import battle_position
from w40k.cli.main import app

runner = CliRunner()

SMALL = ["--red", "space_marines", "--blue", "boyz"]
"""Small armies (7 models against 10): a game takes about 0.1 s."""


def _small() -> dict[str, Any]:
    return battle_position("space_marines", "boyz", None, None)


def _same(o: GameOutcome) -> GameOutcome:
    return dataclasses.replace(o, cpu_s=0.0)  # CPU time is the one field that may differ


def test_game_i_of_a_batch_is_w40k_battle_with_seed_plus_i(tmp_path: Path) -> None:
    res = runner.invoke(app, ["battle", *SMALL, "--seed", "4", "--agents", "greedy,heuristic",
                              "--out", str(tmp_path), "-q"])
    assert res.exit_code == 0, res.output
    digest = hashlib.sha256((tmp_path / "record.json").read_bytes()).hexdigest()
    outcome = play_games(_small(), [1], seed=3, agents=("greedy", "heuristic"))[0]
    assert (outcome.index, outcome.seed, outcome.record_sha256) == (1, 4, digest)
    record = json.loads((tmp_path / "record.json").read_text(encoding="utf-8"))
    end = next(e for e in record["events"] if e["event"] == "battle_end")
    assert dict(zip(outcome.players, outcome.vp, strict=True)) == end["vp"]
    assert outcome.winner == end["winner"] and outcome.stopped is None


def test_the_outcomes_do_not_depend_on_the_number_of_worker_processes() -> None:
    pos = _small()
    alone = play_games(pos, range(3), seed=10, workers=1)
    pooled = play_games(pos, range(3), seed=10, workers=2)
    assert [_same(o) for o in alone] == [_same(o) for o in pooled]
    assert [o.index for o in pooled] == [0, 1, 2] and [o.seed for o in pooled] == [10, 11, 12]
    assert len({o.record_sha256 for o in alone}) == 3  # three different games


def test_wilson_interval_matches_the_published_values() -> None:
    # 5 of 10 and 0 of 4 at 95 %: the Wilson score interval's textbook values
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 4) == pytest.approx((0.0, 0.4899), abs=1e-4)
    assert wilson(4, 4) == pytest.approx((0.5101, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def _outcome(seed: int, vp: tuple[int, int], winner: str | None, first: str = "red",
             stopped: str | None = None) -> GameOutcome:
    return GameOutcome(index=seed, seed=seed, players=("red", "blue"), first=first, vp=vp,
                       winner=winner, rounds=5, decisions=100, record_sha256="0" * 64,
                       stopped=stopped, cpu_s=1.0)


def test_summary_counts_wins_draws_and_excludes_stopped_games() -> None:
    s = summarise([_outcome(1, (50, 30), "red"), _outcome(2, (20, 40), "blue", "blue"),
                   _outcome(3, (30, 30), None), _outcome(4, (0, 0), None, "", "stopped")])
    assert (s.games, s.ended, s.stopped) == (4, 3, 1)
    assert [w.count for w in s.wins] == [1, 1] and s.draws.count == 1
    assert s.wins[0].rate == pytest.approx(1 / 3)
    assert (s.wins[0].low, s.wins[0].high) == pytest.approx(wilson(1, 3))
    assert s.vp[0].mean == pytest.approx(100 / 3) and s.vp_margin.mean == 0.0
    assert (s.first_turn_wins.count, s.first_turn_wins.rate) == (2, 1.0)
    with pytest.raises(ValueError, match="no games"):
        summarise([])


def test_shards_combine_into_the_whole_batch(tmp_path: Path) -> None:
    parts = []
    for i in (0, 1):
        path = tmp_path / f"part{i}.jsonl"
        res = runner.invoke(app, ["simulate", *SMALL, "--games", "4", "--seed", "7",
                                  "--workers", "1", "--shard", f"{i}/2", "--results",
                                  str(path), "--json"])
        assert res.exit_code == 0, res.output
        parts.append(path)
    whole = tmp_path / "whole.jsonl"
    res = runner.invoke(app, ["simulate", *SMALL, "--games", "4", "--seed", "7", "--workers",
                              "1", "--results", str(whole), "--json"])
    assert res.exit_code == 0, res.output
    combined = runner.invoke(app, ["simulate", "--json", "--combine", str(parts[0]),
                                   "--combine", str(parts[1])])
    assert combined.exit_code == 0, combined.output
    again = runner.invoke(app, ["simulate", "--json", "--combine", str(whole)])

    def summary(text: str) -> dict[str, Any]:
        data = json.loads(text[text.index("{"):text.rindex("}") + 1])
        data.pop("cpu_s_mean")
        return dict(data)

    assert summary(combined.stdout) == summary(again.stdout)
    assert summary(combined.stdout)["games"] == 4
    lines = [json.loads(x) for x in whole.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["w40k_simulate"] == 1 and [g["seed"] for g in lines[1:]] == [7, 8, 9, 10]
    # the results file's outcome is the same game played alone
    alone = play_game(_small(), 9, ("heuristic", "heuristic"), 2)
    assert _same(GameOutcome.from_json(lines[3], "x")) == _same(alone)


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "0"], "--games: expected 1 to 1000000 games, got 0"),
    (["--workers", "-1"], "--workers: expected 0 to 256"),
    (["--shard", "2/2"], "--shard: expected 0 <= I < K"),
    (["--shard", "a/b"], "--shard: expected I/K"),
    (["--agents", "greedy"], "--agents: expected two of random, greedy, heuristic"),
    (["--combine", "x.jsonl", "--games", "3"], "--combine: --combine summarises results "
                                               "files; it does not take --games"),
    (["--results", "/nonexistent/r.jsonl"], "--results: the folder /nonexistent does not "
                                            "exist"),
])
def test_bad_options_are_refused_before_any_game(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["simulate", *SMALL, *args] if "--combine" not in args
                        else ["simulate", *args])
    assert res.exit_code == 2
    assert message in res.output
    assert "playing" not in res.output


def _results(tmp_path: Path, name: str, lines: list[Any]) -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_bad_results_files_are_refused_naming_the_file_and_line(tmp_path: Path) -> None:
    head = {"w40k_simulate": 1, "setup_sha256": "ab", "agents": ["greedy", "greedy"],
            "players": ["red", "blue"]}
    game = _outcome(3, (10, 5), "red").to_json()
    good = _results(tmp_path, "good.jsonl", [head, game])
    cases = [
        (_results(tmp_path, "other.jsonl", [{**head, "setup_sha256": "cd"},
                                            {**game, "seed": 4}]),
         "other.jsonl: line 1: setup_sha256 is 'cd'", [good]),
        (_results(tmp_path, "twice.jsonl", [head, game]),
         "twice.jsonl: line 2: the game of seed 3 is also in", [good]),
        (_results(tmp_path, "vp.jsonl", [head, {**game, "vp": [1]}]),
         "vp.jsonl: line 2: vp: expected two integers", []),
        (_results(tmp_path, "winner.jsonl", [head, {**game, "winner": "green"}]),
         "winner.jsonl: line 2: winner: expected one of the players", []),
        (_results(tmp_path, "nohead.jsonl", [game]),
         "nohead.jsonl: line 1: expected the header", []),
    ]
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(head) + "\n{not json\n", encoding="utf-8")
    cases.append((broken, "broken.jsonl: line 2: not a JSON line", []))
    for path, message, before in cases:
        args = ["simulate"]
        for p in [*before, path]:
            args += ["--combine", str(p)]
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (path, res.output)
        assert message in res.output, res.output
    res = runner.invoke(app, ["simulate", "--combine", str(good)])
    assert res.exit_code == 0 and "red (greedy) wins: 1 of 1" in res.output


def test_a_saved_game_is_refused_as_a_start_since_every_seed_would_play_it_alike(
        tmp_path: Path) -> None:
    from w40k.engine.game import Game
    from w40k.io.battle_setup import default_position

    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps(Game.new(default_position(), 1).save()), encoding="utf-8")
    res = runner.invoke(app, ["simulate", "--from", str(saved), "--games", "2"])
    assert res.exit_code == 2
    assert "--from: a saved game plays the same way under every seed" in res.output


def test_an_error_inside_one_game_stops_that_game_not_the_batch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from w40k.agents import play

    class Broken:
        def __init__(self, seed: int) -> None:
            self.seed = seed

        def choose(self, game: Any, request: Any) -> Any:
            raise ZeroDivisionError("a bug")

    monkeypatch.setitem(play.AGENTS, "random", Broken)  # type: ignore[arg-type]
    out = play_games(_small(), range(2), seed=1, agents=("random", "heuristic"))
    assert [o.stopped is not None for o in out] == [True, True]
    assert out[0].stopped is not None and out[0].stopped.endswith(
        "(declare_formations for red): a bug")  # blue (heuristic) declared first
    assert out[0].stopped.startswith(f"ZeroDivisionError at decision {out[0].decisions + 1} ")
    assert out[0].winner is None and summarise(out).stopped == 2
