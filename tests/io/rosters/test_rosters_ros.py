"""BattleScribe `.ros` / `.rosz` rosters: what is read from each unit, and the engine army."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from w40k.core.abilities import DeadlyDemise, FeelNoPain, Leader
from w40k.io.army import load_army
from w40k.io.rosters import detect_format, read_roster, to_army
from w40k.io.rosters.model import Roster, RosterUnit

DATA = Path(__file__).parent / "data"


def unit(r: Roster, name: str) -> RosterUnit:
    return next(u for u in r.units if u.name == name)


@pytest.fixture(scope="module")
def ros() -> Roster:
    return read_roster(DATA / "strike_force.ros")


def test_roster_name_faction_and_total_points_come_from_the_roster(ros: Roster) -> None:
    assert (ros.name, ros.faction, ros.points, ros.format) == (
        "Test Strike Force", "Adeptus Astartes", 320, "ros")
    assert [u.name for u in ros.units] == [
        "Intercessor Squad", "Captain", "Rhino", "Assault Intercessor Squad"]


def test_configuration_selections_are_not_units_and_detachment_rules_are_army_rules(
        ros: Roster) -> None:
    assert "Battle Size" not in [u.name for u in ros.units]
    assert ros.army_rules == ("Oath of Moment", "Combat Doctrines")


def test_unit_points_sum_the_unit_and_every_cost_under_it(ros: Roster) -> None:
    # The unit's own cost is 0; its models carry 20 + 60; the Captain's enhancement adds 10.
    assert unit(ros, "Intercessor Squad").points == 80
    assert unit(ros, "Captain").points == 90


def test_a_unit_with_two_model_types_keeps_each_profile(ros: Roster) -> None:
    sgt, marines = unit(ros, "Intercessor Squad").models
    assert (sgt.name, sgt.count, sgt.Ld) == ("Intercessor Sergeant", 1, 6)
    assert (marines.name, marines.count, marines.Ld) == ("Intercessor", 4, 7)
    assert (marines.M, marines.T, marines.Sv, marines.W, marines.OC) == (6, 4, 3, 2, 2)
    assert marines.keywords == ("Battleline", "Infantry", "Adeptus Astartes")


def test_a_multi_profile_weapon_keeps_every_profile(ros: Roster) -> None:
    sgt = unit(ros, "Intercessor Squad").models[0]
    plasma = [w for w in sgt.weapons if w.name.startswith("Plasma")]
    assert [(w.name, w.S, w.AP, w.D, w.abilities) for w in plasma] == [
        ("Plasma pistol - standard", 7, -2, "1", ("Pistol",)),
        ("Plasma pistol - supercharge", 8, -3, "2", ("Hazardous", "Pistol"))]


def test_weapon_counts_are_the_groups_total(ros: Roster) -> None:
    marines = unit(ros, "Intercessor Squad").models[1]
    (rifle,) = marines.weapons
    assert (rifle.name, rifle.count, rifle.range, rifle.A, rifle.skill) == (
        "Bolt rifle", 4, 24, "2", 3)


def test_invulnerable_save_ability_text_sets_insv(ros: Roster) -> None:
    cap = unit(ros, "Captain").models[0]
    assert cap.InSv == 4
    assert "Invulnerable Save" in [a.name for a in cap.abilities]


def test_feel_no_pain_rule_is_applied_not_listed(ros: Roster) -> None:
    squad = unit(ros, "Assault Intercessor Squad")
    (model,) = squad.models
    assert [a.applied for a in model.abilities] == ["Feel No Pain 6+"]
    assert squad.not_applied == ()


def test_unknown_abilities_are_kept_as_text_in_not_applied(ros: Roster) -> None:
    # Oath of Moment and Objective Secured are in the ability catalog: applied
    assert unit(ros, "Intercessor Squad").not_applied == (
        "Plasma pistol - supercharge (other profile of Plasma pistol)",)
    assert unit(ros, "Captain").not_applied == ("Rites of Battle", "Artificer Armour")
    # An unknown weapon keyword (SUSTAINED HITS with a dice X) and the transport capacity.
    assert unit(ros, "Rhino").not_applied == ("Transport", "Sustained Hits D3")


def test_leader_association_and_embarked_association_are_read(ros: Roster) -> None:
    assert unit(ros, "Captain").leader_of == "Intercessor Squad"
    assert unit(ros, "Assault Intercessor Squad").embarked_in == "Rhino"
    assert unit(ros, "Intercessor Squad").leader_of is None


def test_engine_army_attaches_the_leader_and_keeps_points_and_not_applied() -> None:
    army = load_army(DATA / "strike_force.ros")
    assert army.points == 320
    squad = army.unit_containing("Captain")
    assert squad.name == "Intercessor Squad"
    (captain,) = squad.attached
    assert captain.points == 90
    assert captain.not_applied == ("Rites of Battle", "Artificer Armour")  # Oath: applied
    assert captain.models[0].profile.InSv == 4
    assert any(isinstance(a, Leader) for a in captain.models[0].profile.abilities)
    # 19.01: the bodyguard's and the leader's models make one unit.
    assert len(squad.all_models) == 6


def test_engine_army_fires_the_first_profile_of_a_multi_profile_weapon() -> None:
    army = load_army(DATA / "strike_force.ros")
    sgt = army.unit("Intercessor Squad").models[0]
    assert sgt.weapon_names() == ("Power fist", "Plasma pistol - standard")


def test_engine_army_spreads_weapons_and_applies_core_abilities() -> None:
    army = load_army(DATA / "strike_force.ros")
    squad = army.unit("Assault Intercessor Squad")
    assert [m.name for m in squad.models] == [f"Assault Intercessor {i}" for i in range(1, 6)]
    assert all(m.weapon_names() == ("Astartes chainsword",) for m in squad.models)
    assert squad.models[0].profile.fnp == 6
    assert squad.embarked_in == "Rhino"
    rhino = army.unit("Rhino").models[0].profile
    assert [type(a) for a in rhino.abilities] == [DeadlyDemise]
    assert FeelNoPain not in [type(a) for a in rhino.abilities]


def test_rosz_reads_the_one_ros_inside_whatever_its_name() -> None:
    r = read_roster(DATA / "strike_force.rosz")
    assert r.format == "rosz"
    assert r.source.endswith("Test  Strike Force.ros")
    assert [u.name for u in r.units] == [u.name for u in read_roster(
        DATA / "strike_force.ros").units]


def test_format_is_detected_from_content_not_suffix(tmp_path: Path) -> None:
    renamed = tmp_path / "list.txt"
    shutil.copy(DATA / "strike_force.ros", renamed)
    assert detect_format(renamed) == "ros"
    zipped = tmp_path / "list.bin"
    shutil.copy(DATA / "strike_force.rosz", zipped)
    assert detect_format(zipped) == "rosz"
    assert detect_format(DATA / "waaagh.json") == "newrecruit-json"
    assert detect_format(DATA / "strike_force_app.txt") == "app-text"
    assert detect_format(DATA / "waaagh_nr.txt") == "newrecruit-text"
    assert detect_format(DATA / "orks_sheets.yaml") == "army"


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    text = (DATA / "strike_force.ros").read_text(encoding="utf-8")
    assert old in text
    out = tmp_path / "v.ros"
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


def test_a_conditional_invulnerable_save_is_not_applied(tmp_path: Path) -> None:
    path = _variant(tmp_path, "This model has a 4+ invulnerable save.",
                    "This model has a 4+ invulnerable save against ranged attacks.")
    r = read_roster(path)
    assert unit(r, "Captain").models[0].InSv is None
    assert "Invulnerable Save" in unit(r, "Captain").not_applied


def test_ap_without_its_sign_is_read_negative_with_a_warning(tmp_path: Path) -> None:
    path = _variant(tmp_path, '<characteristic name="AP" typeId="41a0-1301-112a-e2f2">-2<',
                    '<characteristic name="AP" typeId="41a0-1301-112a-e2f2">2<')
    r = read_roster(path)
    fist = unit(r, "Intercessor Squad").models[0].weapons[0]
    assert fist.AP == -2
    assert any("AP '2' has no sign" in w for w in r.warnings)


def test_a_model_without_a_stat_line_is_shown_but_refused_by_the_engine(tmp_path: Path) -> None:
    path = _variant(tmp_path, '<characteristic name="T" typeId="d29d-cf75-fc2d-34a4">9<',
                    '<characteristic name="T" typeId="d29d-cf75-fc2d-34a4"><')
    r = read_roster(path)
    assert unit(r, "Rhino").models[0].T is None
    with pytest.raises(Exception, match=r"v\.ros: unit 'Rhino': model 'Rhino': T: the roster "
                                        r"gives no T"):
        to_army(r)
