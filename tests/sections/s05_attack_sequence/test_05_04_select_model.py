"""Select Model (05.04, 06.02): the controlling player chooses whenever the candidates are not
interchangeable (profile, wounds remaining, wargear, leader role, or position), for attacks,
mortal wounds and hazard rolls alike; standing policies answer without asking."""

from __future__ import annotations

import pytest

from tests.builders import Decisions, assert_destroyed, attack
from w40k.core.errors import MalformedChoice
from w40k.rules.allocation import AllocationPolicy, policy_answer
from w40k.rules.decisions import DecisionKind, DecisionRequest, Player
from w40k.rules.primitives import ModelState, interchangeable


def _squad(*, fist: bool = True, positions: bool = False) -> tuple[ModelState, ...]:
    return tuple(ModelState(
        name, W=1, T=4, Sv=3, keywords=("INFANTRY",),
        wargear=("power fist",) if (fist and name == "Sergeant") else ("boltgun",),
        position=(float(k * 3), 0.0) if positions else None)
        for k, name in enumerate(("Trooper 1", "Trooper 2", "Sergeant")))


def _pick(name: str) -> object:
    return lambda r: r.options[list(r.labels).index(name)]


def test_a_power_fist_sergeant_among_bolter_troopers_is_the_defenders_choice() -> None:
    # R05.04-b: the defender selects the model of the current group; models with different
    # wargear are not interchangeable, so the defender is asked and may choose the sergeant.
    d = Decisions({DecisionKind.SELECT_MODEL: _pick("Trooper 2")})
    result = attack("Gun A1 BS3+ S4 AP0 D1", _squad(), {"hit": [4], "wound": [4], "save": [1]},
                    decider=d)
    assert DecisionKind.SELECT_MODEL in d.kinds()
    asked = next(r for r in d.asked if r.kind is DecisionKind.SELECT_MODEL)
    assert asked.player == Player.DEFENDER and asked.rule == "R05.04-b"
    assert_destroyed(result, "Trooper 2")


def test_identical_models_in_different_places_are_the_defenders_choice() -> None:
    # R05.04-b: same profile and wargear but different positions: asked.
    d = Decisions({DecisionKind.SELECT_MODEL: _pick("Sergeant")})
    result = attack("Gun A1 BS3+ S4 AP0 D1", _squad(fist=False, positions=True),
                    {"hit": [4], "wound": [4], "save": [1]}, decider=d)
    assert d.kinds() == [DecisionKind.SELECT_MODEL]
    assert_destroyed(result, "Sergeant")


def test_identical_models_with_no_known_position_are_not_asked_about() -> None:
    # R05.04-b: interchangeable candidates: nothing to choose, the first listed takes it.
    d = Decisions()
    result = attack("Gun A1 BS3+ S4 AP0 D1", _squad(fist=False),
                    {"hit": [4], "wound": [4], "save": [1]}, decider=d)
    assert d.kinds() == []
    assert_destroyed(result, "Trooper 1")


def test_mortal_wounds_let_the_defender_choose_among_models_with_different_wargear() -> None:
    # R06.02-a: "any non-CHARACTER model" is the controlling player's choice when the
    # candidates differ (here in wargear): [DEVASTATING WOUNDS] mortal wounds.
    d = Decisions({DecisionKind.SELECT_MODEL: _pick("Sergeant")})
    result = attack("Gun A1 BS3+ S4 AP0 D1 [DEVASTATING WOUNDS]", _squad(),
                    {"hit": [4], "wound": [6]}, decider=d)
    asked = [r for r in d.asked if r.kind is DecisionKind.SELECT_MODEL]
    assert [r.rule for r in asked] == ["R06.02-a"]
    assert_destroyed(result, "Sergeant")


def test_hazard_mortal_wounds_let_the_attacker_choose_among_models_in_different_places() -> None:
    # R06.02-a / R06.03-c: the attacking player selects among its own models.
    shooters = tuple(ModelState(f"Shooter {k}", W=1, position=(float(k), 0.0)) for k in (1, 2))
    d = Decisions({DecisionKind.SELECT_MODEL: _pick("Shooter 2")})
    result = attack("Gun A1 BS3+ S4 AP0 D1 [HAZARDOUS]", "Boy T4 Sv7 W1",
                    {"hit": [1], "hazard": [1]}, attacker=shooters, decider=d)
    asked = [r for r in d.asked if r.kind is DecisionKind.SELECT_MODEL]
    assert [(r.player, r.rule) for r in asked] == [(Player.ATTACKER, "R06.02-a")]
    assert_destroyed(result, "Shooter 2", attacker=True)


def test_interchangeable_is_one_rule_over_profile_wounds_wargear_leader_and_position() -> None:
    # R05.04-b / R06.02-a: each difference makes the candidates a choice.
    base = ModelState("A", W=2, T=4, Sv=3)
    assert interchangeable([base, ModelState("B", W=2, T=4, Sv=3)])
    for other in (ModelState("B", W=2, T=5, Sv=3), base.losing(1),
                  ModelState("B", W=2, T=4, Sv=3, wargear=("power fist",)),
                  ModelState("B", W=2, T=4, Sv=3, leader=True),
                  ModelState("B", W=2, T=4, Sv=3, position=(1.0, 1.0))):
        assert not interchangeable([base, other]), other


def _select(options: tuple[int, ...] | tuple[str, ...]) -> DecisionRequest:
    return DecisionRequest(DecisionKind.SELECT_MODEL, Player.DEFENDER, "R05.04-b", "?",
                           options, options[0])


def test_a_standing_closest_first_policy_picks_the_nearest_candidate_ties_by_order() -> None:
    # R05.04-b: a standing allocation policy answers Select Model without asking.
    squad = _squad(fist=False, positions=True)  # x = 0, 3, 6
    assert policy_answer("closest_first", _select((0, 1, 2)), squad, (5.0, 0.0)) == 2
    assert policy_answer("closest_first", _select((0, 1)), squad, (1.5, 0.0)) == 0  # tie
    assert policy_answer(AllocationPolicy.LISTED, _select((1, 2)), squad) == 1
    # in a game the options are model ids (names)
    assert policy_answer("closest_first", _select(("Trooper 1", "Sergeant")), squad,
                         (9.0, 0.0)) == "Sergeant"
    with pytest.raises(MalformedChoice):
        policy_answer("nearest", _select((0, 1)), squad, (0.0, 0.0))
