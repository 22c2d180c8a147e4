"""The `w40k army FILE [--json]` contract (DESIGN.md "Interfaces") and `w40k battle` with
rosters."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from w40k.cli.main import app

runner = CliRunner()
DATA = Path(__file__).parents[1] / "io" / "rosters" / "data"

TOP = {"name", "faction", "points", "units"}
UNIT = {"name", "points", "leader_of", "embarked_in", "models", "not_applied"}
MODEL = {"name", "count", "M", "T", "Sv", "InSv", "W", "Ld", "OC", "keywords", "abilities",
         "weapons"}
WEAPON = {"name", "range", "A", "skill", "S", "AP", "D", "abilities"}


def army_json(*args: str) -> Any:
    result = runner.invoke(app, ["army", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("name", ["strike_force.ros", "strike_force.rosz", "waaagh.json",
                                  "strike_force_app.txt", "waaagh_nr.txt"])
def test_json_has_exactly_the_contract_keys_for_every_format(name: str) -> None:
    extra = ["-d", str(DATA / "orks_sheets.yaml")] if name == "waaagh_nr.txt" else []
    data = army_json(str(DATA / name), *extra)
    assert set(data) == TOP
    for u in data["units"]:
        assert set(u) == UNIT
        for m in u["models"]:
            assert set(m) == MODEL
            for w in m["weapons"]:
                assert set(w) == WEAPON
                assert w["A"] is None or isinstance(w["A"], str)
                assert w["D"] is None or isinstance(w["D"], str)


def test_json_values_follow_the_conventions() -> None:
    data = army_json(str(DATA / "strike_force.ros"))
    assert (data["name"], data["faction"], data["points"]) == (
        "Test Strike Force", "Adeptus Astartes", 320)
    squad, captain, _rhino, assault = data["units"]
    assert captain["leader_of"] == "Intercessor Squad"
    assert assault["embarked_in"] == "Rhino"
    sgt = squad["models"][0]
    assert (sgt["Sv"], sgt["Ld"], sgt["InSv"], sgt["M"]) == (3, 6, None, 6)
    fist, plasma, _super = sgt["weapons"]
    assert fist == {"name": "Power fist", "range": "Melee", "A": "3", "skill": 3, "S": 8,
                    "AP": -2, "D": "2", "abilities": []}
    assert (plasma["range"], plasma["abilities"]) == (12, ["Pistol"])
    assert captain["models"][0]["InSv"] == 4
    # Oath of Moment is in the ability catalog (engine/ability_catalog.py): applied
    assert captain["not_applied"] == ["Rites of Battle", "Artificer Armour"]


def test_json_gives_null_for_a_value_the_roster_does_not_give() -> None:
    data = army_json(str(DATA / "waaagh.json"))
    skorcha = data["units"][1]["models"][0]["weapons"][1]
    assert skorcha["skill"] is None


def test_plain_output_prints_what_a_player_checks() -> None:
    result = runner.invoke(app, ["army", str(DATA / "strike_force.ros")])
    assert result.exit_code == 0
    out = result.stdout
    assert "Captain (90 pts) [leader of Intercessor Squad]" in out
    assert "Assault Intercessor Squad (75 pts) [embarked in Rhino]" in out
    assert "  4x Intercessor: M 6\" T 4 Sv 3+ W 2 Ld 7+ OC 2" in out
    # Oath of Moment is in the ability catalog (engine/ability_catalog.py): applied
    assert "  not applied: Rites of Battle, Artificer Armour" in out


def test_the_projects_own_army_file_prints_in_the_same_shape(tmp_path: Path) -> None:
    path = tmp_path / "army.yaml"
    path.write_text("include: [space_marines]\narmy:\n  name: Strike\n  faction: ADEPTUS "
                    "ASTARTES\n  units:\n    - {datasheet: Intercessors, count: 5}\n"
                    "    - {datasheet: Captain, attached_to: Intercessors}\n",
                    encoding="utf-8")
    data = army_json(str(path))
    assert [(u["name"], u["leader_of"]) for u in data["units"]] == [
        ("Intercessors", None), ("Captain", "Intercessors")]
    assert data["units"][0]["not_applied"] == []  # Oath of Moment, Objective Secured: applied
    assert data["units"][1]["not_applied"] == ["Rites of Battle"]


def test_a_hostile_file_is_an_error_with_exit_code_2_and_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "two.rosz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("a.ros", "<roster/>")
        z.writestr("b.ros", "<roster/>")
    result = runner.invoke(app, ["army", str(path)])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"error: {path}: refused: the zip archive holds 2 files" in result.output
    assert "Traceback" not in result.output


def test_a_roster_the_engine_cannot_play_is_printed_then_refused(tmp_path: Path) -> None:
    text = (DATA / "strike_force.ros").read_text(encoding="utf-8").replace(
        '<characteristic name="W" typeId="750a-a2ec-90d3-21fe">10<',
        '<characteristic name="W" typeId="750a-a2ec-90d3-21fe"><')
    path = tmp_path / "x.ros"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["army", str(path)])
    assert result.exit_code == 2
    assert "1x Rhino: M 12\" T 9 Sv 3+ W - " in result.stdout
    assert "unit 'Rhino': model 'Rhino': W: the roster gives no W" in result.output


def test_battle_between_a_rosz_and_a_new_recruit_json_plays_to_the_end(tmp_path: Path) -> None:
    result = runner.invoke(app, ["battle", "--red", str(DATA / "strike_force.rosz"),
                                 "--blue", str(DATA / "waaagh.json"), "--quiet",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "decisions; VP" in result.stdout
    record = json.loads((tmp_path / "record.json").read_text(encoding="utf-8"))
    assert record["events"]
