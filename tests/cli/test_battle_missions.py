"""`w40k battle --mission FILE_OR_NAME` (docs/missions.md): a full battle on each shipped
mission, a mission file by path, the default (the 1000-point armies on flank-assault, the
players deploying), and the take-and-hold mission file playing the same game as the old
embedded skirmish position."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from w40k.agents import GreedyAgent
from w40k.cli.main import app
from w40k.engine.game import Game
from w40k.engine.requests import K
from w40k.io.battle_setup import DEFAULT_MISSION, default_armies, default_position
from w40k.io.missions import mission_position, shipped_mission

runner = CliRunner()

SMALL = ["--red", "space_marines", "--blue", "boyz"]
"""Small armies (7 models against 10): the shipped maps' tests play quickly."""


def battle(tmp_path: Path, *args: str, out: str = "out") -> tuple[Any, dict[str, Any]]:
    res = runner.invoke(app, ["battle", *args, "--seed", "2", "--out", str(tmp_path / out),
                              "-q"])
    assert res.exit_code == 0, res.output
    record = json.loads((tmp_path / out / "record.json").read_text(encoding="utf-8"))
    return res, record


@pytest.mark.parametrize("name", ["front-lines", "flank-assault", "corner-clash"])
def test_a_full_battle_runs_on_each_shipped_deployment_map(tmp_path: Path, name: str) -> None:
    res, record = battle(tmp_path, "--mission", name, *SMALL)
    assert record["mission"]["name"] == name
    assert record["events"][-1]["event"] == "battle_end"
    assert record["events"][-1]["round"] == 5
    firsts = [e for e in record["events"] if e["event"] == "first_turn"]
    assert len(firsts) == 1 and firsts[0]["decided_by"] == "roll-off"
    # the players deploy (R03.02-a): the mission's deploys_first (blue) sets up first
    deployed = [e for e in record["events"] if e["event"] == "deploy"]
    assert deployed and deployed[0]["unit"].startswith("blue.")
    assert "pre_battle" in record["setup"]
    assert "note: secondary" not in res.stderr  # its action is applied (16.01)
    # the result line gives VP in the position's order, as the log does, whoever went first
    assert re.search(r"decisions; VP red \d+, blue \d+; record", res.stdout), res.stdout
    check = runner.invoke(app, ["replay", str(tmp_path / "out" / "record.json")])
    assert check.exit_code == 0, check.output


def test_without_options_the_1000_point_armies_deploy_and_fight_on_flank_assault(
        tmp_path: Path) -> None:
    # issue 13: `w40k battle` plays the two 1000-point armies on the default mission, the
    # players declaring reserves and deploying (03.02), to the end of battle round 5
    res, record = battle(tmp_path)
    assert record["mission"]["name"] == "flank-assault"
    names = {u["name"] for u in record["setup"]["units"]}
    assert {"Rhino", "Stormtalon Gunship", "Trukk", "Stormboyz"} <= names
    assert "pre_battle" in record["setup"]
    events = record["events"]
    assert any(e["event"] == "deploy" for e in events)
    assert events[-1]["event"] == "battle_end" and events[-1]["round"] == 5
    assert any(e["event"] == "attack" for e in events)
    assert "not applied" not in res.stderr  # every ability of the default armies applies
    check = runner.invoke(app, ["replay", str(tmp_path / "out" / "record.json")])
    assert check.exit_code == 0, check.output


def test_take_and_hold_plays_the_old_embedded_skirmish_game() -> None:
    # The take-and-hold mission with the skirmish armies set up automatically is the old
    # default position: the same units, and the same game but for its first-turn event and
    # the rule named in score events.
    named = mission_position(*default_armies(), shipped_mission("take-and-hold"))
    default = default_position()
    default["mission"] = DEFAULT_MISSION
    assert named["units"] == default["units"]

    def play(pos: dict[str, Any]) -> list[dict[str, Any]]:
        game = Game.new(pos, 2)
        agents = {p.name: GreedyAgent(5 + i) for i, p in enumerate(game.state.players)}
        while (req := game.pending()) is not None:
            game.submit(agents[req.player].choose(game, req))
        return game.state.events

    def plain(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        drop = ("rule", "kind", "scorer")
        return [{k: v for k, v in e.items() if e["event"] != "score" or k not in drop}
                for e in events if e["event"] != "first_turn"]

    assert plain(play(named)) == plain(play(default))


def test_a_mission_file_is_taken_by_path(tmp_path: Path) -> None:
    path = tmp_path / "short.yaml"
    path.write_text("name: short\nrounds: 1\nscoring_from_round: 1\nlayout: crossroads\n"
                    "first_turn: blue\n", encoding="utf-8")
    _, record = battle(tmp_path, "--mission", str(path))
    assert record["mission"]["name"] == "short"
    assert [e["player"] for e in record["events"] if e["event"] == "turn_start"] == [
        "blue", "red"]
    assert len(record["setup"]["terrain"]["terrain"]) >= 10


def test_the_help_names_the_option_and_the_shipped_missions() -> None:
    res = runner.invoke(app, ["battle", "--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    assert "--mission" in res.output and "corner-clash" in res.output


def test_a_player_that_cannot_answer_stops_the_battle_with_an_error_line_not_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The pre-battle deploy proposer raises when no unit of a player fits its zone: the
    # command says so (exit 1) and keeps the record so far. (It also shows that the default
    # players are heuristic ones, issue 13: the patched heuristic player answers.)
    from w40k.agents import RandomAgent
    from w40k.cli import battle as cli_battle

    class Stuck(RandomAgent):
        def choose(self, game: Any, request: Any) -> Any:
            if request.player == "blue" and request.kind == K.DEPLOY:
                raise RuntimeError("no unit of blue fits in its deployment zone")
            return super().choose(game, request)

    monkeypatch.setitem(cli_battle.AGENTS, "heuristic", Stuck)
    res = runner.invoke(app, ["battle", "--seed", "2", "--out", str(tmp_path / "out"), "-q"])
    assert res.exit_code == 1
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "error: the battle stopped at decision" in res.stderr
    assert "no unit of blue fits in its deployment zone" in res.stderr
    record = json.loads((tmp_path / "out" / "record.json").read_text(encoding="utf-8"))
    assert record["choices"] and record["events"][-1]["event"] != "battle_end"
