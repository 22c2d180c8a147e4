"""Attached units (19) as data: forming them in the army file (19.01), their keywords (19.03)
and the model states the attack sequence reads (19.02)."""

from __future__ import annotations

import copy
from importlib import resources

import pytest
import yaml

from w40k.core.errors import DataError
from w40k.io.army import Army, Role, attach, builtin, make_unit, parse_file
from w40k.rules.primitives import attack_toughness, wound_threshold

ANCIENT = {
    # A made-up support unit for the tests (the shipped files have none).
    "name": "Ancient",
    "faction_keywords": ["ADEPTUS ASTARTES"],
    "keywords": ["INFANTRY", "CHARACTER", "IMPERIUM", "ANCIENT"],
    "abilities": ["Support", "Feel No Pain 6+"],
    "models": [
        {"name": "Ancient", "M": 6, "T": 4, "Sv": "3+", "W": 4, "Ld": "6+", "OC": 1,
         "base_mm": 40}
    ],
    "weapons": [{"name": "Bolt pistol", "range": 12, "A": 1, "BS": "3+", "S": 4, "AP": 0,
                 "D": 1, "abilities": ["PISTOL"]}],
    "composition": [{"model": "Ancient", "count": 1, "wargear": ["Bolt pistol"]}],
    "leader_of": ["Intercessors"],
}  # fmt: skip


def marines(*units: dict[str, object]) -> dict[str, object]:
    """The shipped Space Marines datasheets plus the Ancient, with an army of ``units``."""
    text = resources.files("w40k").joinpath("data", "space_marines.yaml").read_text()
    data = yaml.safe_load(text)
    data["datasheets"].append(copy.deepcopy(ANCIENT))
    data["army"] = {"name": "Test", "faction": "ADEPTUS ASTARTES", "units": list(units)}
    return data  # type: ignore[no-any-return]


def army_of(*units: dict[str, object]) -> Army:
    army = parse_file(marines(*units), source="sm.yaml").army
    assert army is not None
    return army


def error_of(*units: dict[str, object]) -> str:
    with pytest.raises(DataError) as info:
        parse_file(marines(*units), source="sm.yaml")
    return str(info.value)


def test_the_shipped_captain_leads_the_shipped_intercessors() -> None:
    # R19.01-a: an attached unit is a single unit: the Captain is not a unit of its own.
    army = builtin("space_marines").army
    assert army is not None
    assert [u.name for u in army.units] == ["Intercessors", "Lieutenant"]
    squad = army.units[0]
    assert [c.name for c in squad.attached] == ["Captain"]
    assert [m.name for m in squad.all_models] == [
        "Intercessor Sergeant",
        "Intercessor 1",
        "Intercessor 2",
        "Intercessor 3",
        "Intercessor 4",
        "Captain",
    ]
    assert army.unit_containing("Captain") is squad
    assert army.unit("Captain").datasheet.role is Role.LEADER


def test_a_leader_and_a_support_unit_can_both_lead_one_bodyguard() -> None:
    # R19.01-a: leader + support accepted; the leader is listed first.
    army = army_of(
        {"datasheet": "Intercessors"},
        {"datasheet": "Ancient", "attached_to": "Intercessors"},
        {"datasheet": "Captain", "attached_to": "Intercessors"},
    )
    assert [c.name for c in army.units[0].components] == ["Intercessors", "Captain", "Ancient"]
    assert army.units[0].starting_strength == 7


def test_two_leaders_cannot_lead_one_bodyguard() -> None:
    # R19.01-a
    assert error_of(
        {"datasheet": "Intercessors"},
        {"datasheet": "Captain", "attached_to": "Intercessors"},
        {"datasheet": "Lieutenant", "attached_to": "Intercessors"},
    ) == (
        "sm.yaml: army: unit 'Lieutenant': attached_to: 'Intercessors' already has a leader "
        "unit attached: each bodyguard unit can have only one leader unit and one support unit "
        "(19.01)"
    )


def test_two_leaders_can_lead_two_different_bodyguards() -> None:
    # R19.01-a
    army = army_of(
        {"datasheet": "Intercessors", "name": "Squad A"},
        {"datasheet": "Intercessors", "name": "Squad B"},
        {"datasheet": "Captain", "attached_to": "Squad A"},
        {"datasheet": "Lieutenant", "attached_to": "squad b"},
    )
    assert [[c.name for c in u.components] for u in army.units] == [
        ["Squad A", "Captain"],
        ["Squad B", "Lieutenant"],
    ]


def test_a_leader_can_only_lead_the_bodyguards_its_datasheet_lists() -> None:
    # R19.01-b: the Captain cannot lead another Captain's unit, nor the Lieutenant.
    assert error_of(
        {"datasheet": "Lieutenant"},
        {"datasheet": "Captain", "attached_to": "Lieutenant"},
    ) == (
        "sm.yaml: army: unit 'Captain': attached_to: 'Captain' cannot lead 'Lieutenant': its "
        "datasheet 'Captain' can lead only Intercessors (19.01)"
    )


def test_a_leader_can_only_lead_a_friendly_unit_of_its_army() -> None:
    # R19.01-b: 'friendly' -> a unit of the same army; any other name is unknown.
    assert error_of(
        {"datasheet": "Captain", "attached_to": "Boyz"},
    ) == (
        "sm.yaml: army: unit 'Captain': attached_to: no unit named 'Boyz' in this army (a "
        "leader or support unit can only lead a friendly unit of its own army, 19.01)"
    )


def test_a_unit_without_leader_or_support_cannot_be_attached() -> None:
    # R19.01-a: only leader and support units lead bodyguard units.
    assert error_of(
        {"datasheet": "Intercessors", "name": "Squad A"},
        {"datasheet": "Intercessors", "name": "Squad B", "attached_to": "Squad A"},
    ) == (
        "sm.yaml: army: unit 'Squad B': attached_to: 'Squad B' has neither the Leader nor the "
        "Support ability, so it cannot lead a bodyguard unit (19.01)"
    )


def test_a_leader_cannot_lead_a_unit_that_is_itself_attached() -> None:
    # R19.01-a: attachments do not chain.
    assert error_of(
        {"datasheet": "Intercessors"},
        {"datasheet": "Captain", "attached_to": "Intercessors"},
        {"datasheet": "Lieutenant", "attached_to": "Captain"},
    ) == (
        "sm.yaml: army: unit 'Lieutenant': attached_to: 'Captain' is itself attached to "
        "'Intercessors': a unit can only lead a bodyguard unit, not a leader or support unit "
        "(19.01)"
    )


def test_leader_of_requires_the_leader_or_support_ability() -> None:
    data = marines({"datasheet": "Intercessors"})
    data["datasheets"][0]["leader_of"] = ["Intercessors"]  # type: ignore[index]
    with pytest.raises(DataError) as info:
        parse_file(data, source="sm.yaml")
    assert str(info.value) == (
        "sm.yaml: datasheet 'Intercessors': leader_of: only a unit with the Leader or Support "
        "ability can lead a bodyguard unit (19.01)"
    )


def test_attach_in_python_checks_the_same_rules() -> None:
    # R19.01-a, R19.01-b
    catalogue = builtin("space_marines").catalogue
    squad = make_unit(catalogue["Intercessors"])
    captain = make_unit(catalogue["Captain"])
    lieutenant = make_unit(catalogue["Lieutenant"])
    led = attach(squad, captain)
    assert led.attached == (captain,)
    with pytest.raises(DataError, match="already has a leader unit attached"):
        attach(squad, captain, lieutenant)
    with pytest.raises(DataError, match="already has units attached"):
        attach(led, lieutenant)


def test_an_attached_unit_has_every_keyword_its_models_keep_their_own() -> None:
    # R19.03-a: CHARACTER and CAPTAIN are the unit's; the Intercessors do not gain them.
    army = builtin("space_marines").army
    assert army is not None
    squad = army.units[0]
    assert "CHARACTER" in squad.keys and "CAPTAIN" in squad.keys
    states = {s.name: s for s in squad.to_model_states()}
    assert states["Captain"].is_character
    assert not states["Intercessor 1"].is_character
    assert "CAPTAIN" not in states["Intercessor Sergeant"].keys
    assert squad.keywords == (
        "ADEPTUS ASTARTES",
        "INFANTRY",
        "BATTLELINE",
        "GRENADES",
        "IMPERIUM",
        "TACTICUS",
        "INTERCESSORS",
        "CHARACTER",
        "CAPTAIN",
    )


def test_model_states_flag_leader_and_support_models_and_carry_their_saves() -> None:
    # R19.02-a: leader/support models are marked so the attack uses the bodyguard's T.
    army = army_of(
        {"datasheet": "Intercessors"},
        {"datasheet": "Captain", "attached_to": "Intercessors"},
        {"datasheet": "Ancient", "attached_to": "Intercessors"},
    )
    states = army.units[0].to_model_states()
    assert [(s.name, s.leader) for s in states][-3:] == [
        ("Intercessor 4", False),
        ("Captain", True),
        ("Ancient", True),
    ]
    captain, ancient = states[-2], states[-1]
    assert (captain.W, captain.T, captain.Sv, captain.InSv, captain.fnp) == (5, 4, 3, 4, None)
    # 24.12: Feel No Pain belongs to the models that have it, not to the whole unit.
    assert (ancient.fnp, states[0].fnp) == (6, None)


def test_an_attacked_attached_unit_uses_the_bodyguard_toughness() -> None:
    # R19.02-a, R19.02-b: a T5 leader with T4 Intercessors -> S5 wounds on 3+; once only the
    # leader is left, its own T5 -> 4+.
    data = marines(
        {"datasheet": "Intercessors"}, {"datasheet": "Captain", "attached_to": "Intercessors"}
    )
    data["datasheets"][1]["models"][0]["T"] = 5  # type: ignore[index]
    army = parse_file(data, source="sm.yaml").army
    assert army is not None
    states = army.units[0].to_model_states()
    assert wound_threshold(5, attack_toughness(states)) == 3
    alone = [s.losing(s.W) if not s.leader else s for s in states]
    assert wound_threshold(5, attack_toughness(alone)) == 4


def test_an_unattached_leader_is_a_plain_unit_of_one_model() -> None:
    army = builtin("space_marines").army
    assert army is not None
    lieutenant = army.units[1]
    assert (lieutenant.is_attached, lieutenant.starting_strength) == (False, 1)
    assert [s.leader for s in lieutenant.to_model_states()] == [False]
