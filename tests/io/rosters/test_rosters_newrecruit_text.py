"""New Recruit JSON, and app / New Recruit text exports matched against datasheet files."""

from __future__ import annotations

from pathlib import Path

import pytest

from w40k.core.errors import DataError
from w40k.io.army import load_army
from w40k.io.rosters import read_roster
from w40k.io.rosters.model import Roster, RosterUnit

DATA = Path(__file__).parent / "data"
ORKS = DATA / "orks_sheets.yaml"


def unit(r: Roster, name: str, nth: int = 0) -> RosterUnit:
    return [u for u in r.units if u.name == name][nth]


@pytest.fixture(scope="module")
def nr() -> Roster:
    return read_roster(DATA / "waaagh.json")


def test_new_recruit_json_reads_dollar_text_characteristics_and_missing_ones(nr: Roster) -> None:
    assert (nr.format, nr.name, nr.faction, nr.points) == (
        "newrecruit-json", "Test Waaagh", "Orks", 245)
    nob, boys = unit(nr, "Boyz").models
    assert (nob.name, nob.count, nob.W, nob.InSv) == ("Boss Nob", 1, 2, None)
    assert (boys.name, boys.count, boys.W) == ("Boy", 9, 1)


def test_new_recruit_json_leader_association_and_11e_insv(nr: Roster) -> None:
    boss = unit(nr, "Warboss")
    assert boss.leader_of == "Boyz"
    assert boss.models[0].InSv == 5


def test_new_recruit_json_conditional_fnp_and_negated_keyword_stay_text(nr: Roster) -> None:
    assert "Feel No Pain 5+*" in unit(nr, "Warboss").not_applied
    assert "LETHAL HITS: non-MONSTER/VEHICLE" in unit(nr, "Boyz").not_applied


def test_new_recruit_json_torrent_weapon_without_bs_and_multi_profile(nr: Roster) -> None:
    shoota, skorcha = unit(nr, "Warboss").models[0].weapons
    assert (shoota.name, skorcha.name, skorcha.skill, skorcha.A) == (
        "Kombi-weapon - shoota", "Kombi-weapon - skorcha", None, "D6")
    army = load_army(DATA / "waaagh.json")
    boss = army.unit("Warboss").models[0]
    assert boss.weapon_names() == ("Kombi-weapon - shoota",)


def test_app_text_attached_unit_block_enhancement_and_unknown_wargear() -> None:
    r = read_roster(DATA / "strike_force_app.txt")
    assert (r.format, r.name, r.faction, r.points) == (
        "app-text", "Text Strike Force", "Space Marines", 250)
    assert unit(r, "Captain").leader_of == "Intercessors"
    assert "Enhancement: Artificer Armour" in unit(r, "Captain").not_applied
    sgt, marines = unit(r, "Intercessors").models
    assert [(w.name, w.count) for w in marines.weapons] == [
        ("Bolt rifle", 4), ("Bolt pistol", 4), ("Close combat weapon", 4)]
    assert [w.name for w in sgt.weapons] == ["Bolt rifle", "Power fist"]
    lieutenant = unit(r, "Lieutenant")
    assert "Storm shield" in lieutenant.not_applied
    assert any("'Storm shield' is not a weapon" in w for w in r.warnings)


def test_new_recruit_text_matched_against_a_datasheet_file() -> None:
    r = read_roster(DATA / "waaagh_nr.txt", datasheets=[ORKS])
    assert (r.format, r.name, r.faction, r.points) == (
        "newrecruit-text", "Text Waaagh", "Orks", 245)
    boss = unit(r, "Warboss")
    assert boss.leader_of == "Boyz"
    assert (boss.models[0].InSv, boss.models[0].base_mm) == (5, 50.0)
    assert [(m.name, m.count) for m in unit(r, "Boyz", 1).models] == [("Boy", 10)]
    army = load_army(DATA / "waaagh_nr.txt", datasheets=[ORKS])
    # "Leading Boyz[1]": the first of the two Boyz units; the second is renamed for the engine.
    assert [u.name for u in army.units] == ["Boyz", "Boyz 2"]
    assert [c.name for c in army.units[0].attached] == ["Warboss"]


def test_text_export_can_be_matched_against_an_earlier_roster_import(tmp_path: Path) -> None:
    text = tmp_path / "list.txt"
    text.write_text("My list (85 Points)\n\nOTHER DATASHEETS\n\nRhino (75 Points)\n"
                    "  • 1x Storm bolter\n", encoding="utf-8")
    r = read_roster(text, datasheets=[DATA / "strike_force.ros"])
    (rhino,) = r.units
    assert (rhino.models[0].T, rhino.models[0].weapons[0].name) == (9, "Storm bolter")


def test_an_unknown_unit_name_suggests_close_datasheet_names(tmp_path: Path) -> None:
    text = tmp_path / "list.txt"
    text.write_text("My list (80 Points)\n\nBATTLELINE\n\nIntercesors (80 Points)\n"
                    "  • 5x Intercessor\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"list.txt: line 5: unit 'Intercesors': datasheet: "
                                        r"no datasheet named 'Intercesors' \(did you mean "
                                        r"'Intercessors'\?\)"):
        read_roster(text)
