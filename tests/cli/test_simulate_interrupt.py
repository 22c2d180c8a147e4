"""`w40k simulate` under Ctrl-C (docs/simulate.md): the games finished so far are kept,
written and summarised, and the worker processes end at once."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from w40k.agents.play import GameOutcome, play_games
from w40k.cli.battle import battle_position
from w40k.cli.main import app
from w40k.cli.simulate_results import read_results

runner = CliRunner()


def _outcome(i: int) -> GameOutcome:
    return GameOutcome(index=i, seed=1 + i, players=("red", "blue"), first="red",
                       vp=(10 + i, 5), winner="red", rounds=5, decisions=100,
                       record_sha256=f"{i:064x}", stopped=None, cpu_s=0.1)


def test_ctrl_c_keeps_writes_and_summarises_the_games_finished_so_far(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from w40k.cli import simulate

    def interrupted(position: Any, todo: Any, *, on_outcome: Any, **_: Any) -> None:
        on_outcome(_outcome(0))
        on_outcome(_outcome(1))
        raise KeyboardInterrupt  # Ctrl-C while the third game is played

    monkeypatch.setattr(simulate, "play_games", interrupted)
    out = tmp_path / "results.jsonl"
    res = runner.invoke(app, ["simulate", "--red", "space_marines", "--blue", "boyz",
                              "--games", "5", "-j", "1", "--results", str(out)])
    assert res.exit_code == 130, res.output
    assert "interrupted: 2 of 5 games finished; they are kept and summarised" in res.output
    assert "2 games; 2 ended" in res.output and "red (heuristic) wins: 2 of 2" in res.output
    head, kept = read_results([out])
    assert [o.index for o in kept] == [0, 1] and head["agents"] == ["heuristic", "heuristic"]


def test_ctrl_c_before_any_game_finished_writes_no_results_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from w40k.cli import simulate

    def interrupted(*_: Any, **__: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(simulate, "play_games", interrupted)
    out = tmp_path / "results.jsonl"
    res = runner.invoke(app, ["simulate", "--red", "space_marines", "--blue", "boyz",
                              "--games", "3", "--results", str(out)])
    assert res.exit_code == 130
    assert "interrupted: 0 of 3 games finished" in res.output and not out.exists()


_MARKS: list[Path] = []
"""Where the test below's agents leave their marks (inherited by forked workers)."""


class _Slow:
    """Game 0's players wait until game 1 has begun, then stop their game; game 1's players
    mark that they began and then sleep long before marking that they finished."""

    def __init__(self, seed: int) -> None:
        self.seed = seed  # game S's players have seeds 2 S + 1 and 2 S + 2

    def choose(self, game: Any, request: Any) -> Any:
        began, finished = _MARKS
        if self.seed in (3, 4):  # game 0 (seed 1)
            for _ in range(3000):
                if began.exists():
                    break
                time.sleep(0.01)
            raise ZeroDivisionError("game 0 stops here")
        began.touch()
        time.sleep(20)
        finished.touch()
        raise ZeroDivisionError("game 1 stops here")


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="the workers inherit the test's agent by fork")
def test_an_interrupt_ends_the_worker_processes_and_their_games_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from w40k.agents import play

    _MARKS[:] = [tmp_path / "began", tmp_path / "finished"]
    monkeypatch.setitem(play.AGENTS, "random", _Slow)
    seen: list[int] = []

    def ctrl_c(o: GameOutcome) -> None:
        seen.append(o.index)
        raise KeyboardInterrupt  # as Ctrl-C arriving once game 0 is in

    with pytest.raises(KeyboardInterrupt):
        play_games(battle_position("space_marines", "boyz", None, None), range(4), seed=1,
                   agents=("random", "random"), workers=2, on_outcome=ctrl_c)
    assert seen == [0] and _MARKS[0].exists()
    assert not _MARKS[1].exists()  # game 1's worker was ended, not waited for
    assert multiprocessing.active_children() == []
