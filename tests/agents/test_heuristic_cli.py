"""`w40k battle --agents heuristic,...`: the heuristic player is registered on the command line
and plays other armies than the default ones to the end."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from w40k.cli.battle import AGENTS
from w40k.cli.main import app

runner = CliRunner()
DATA = Path(__file__).parents[1] / "io" / "rosters" / "data"


def test_the_heuristic_player_is_listed_and_the_others_are_kept() -> None:
    assert {"random", "greedy", "heuristic"} <= set(AGENTS)


def test_two_heuristic_players_fight_a_battle_of_imported_rosters_that_replays(
        tmp_path: Path) -> None:
    result = runner.invoke(app, ["battle", "--red", str(DATA / "strike_force.rosz"),
                                 "--blue", str(DATA / "waaagh.json"), "--quiet", "--seed", "3",
                                 "--agents", "heuristic,heuristic", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "record.json").read_text(encoding="utf-8"))
    assert record["events"][-1]["event"] == "battle_end"
    again = runner.invoke(app, ["replay", str(tmp_path / "record.json")])
    assert again.exit_code == 0, again.output
    assert "event log identical" in again.stdout
