"""06.02 Mortal Wounds and 06.03 Hazard Rolls (with the 000 paraphrase's X000-d..j and RX-d;
X001-a: the 001 excerpt is the same text word for word, so these and the 06.01 tests are its tests).

Mortal wounds reach a unit here in the two ways the attack sequence makes them: failed hazard
rolls on the attacking unit (uncapped, 06.02 as written) and [DEVASTATING WOUNDS] on the target
(capped at one model per critical wound, 24.10)."""

from __future__ import annotations

from tests.builders import (
    Decisions,
    RecordingDice,
    assert_counts,
    assert_destroyed,
    assert_wounds_lost,
    attack,
    model_after,
)
from w40k.rules.decisions import DecisionKind

TARGET = "10x Dummy T4 Sv- W10"


def hazards(n: int, faces: list[int], attacker: str, *, fnp: list[int] | None = None,
            decider: Decisions | None = None) -> object:
    """``n`` [HAZARDOUS] weapons that all miss, then ``faces`` as their hazard rolls."""
    dice: dict[str, list[int]] = {"hit": [1] * n, "hazard": faces}
    if fnp is not None:
        dice["fnp"] = fnp
    return attack(f"{n}x Plasma A1 BS3+ S8 AP-3 D2 [HAZARDOUS]", TARGET, dice,
                  attacker=attacker, decider=decider)


# --- 06.02 Mortal wounds ---------------------------------------------------------------------


def test_mortal_wounds_go_to_wounded_non_characters_then_others_then_characters() -> None:
    # R06.02-a: 2 Boyz (W1), a Boss Nob (W2, 1 lost), a CHARACTER Warboss (W6, 2 lost), 4 MW:
    # MW1 -> Nob (destroyed); MW2, MW3 -> a Boy each; MW4 -> Warboss (the checklist says
    # "4 wounds left", but W6 with 2 lost and 1 more leaves 3)
    r = hazards(4, [1, 1, 2, 2], "2x Boy W1 INFANTRY; Boss Nob W2 lost=1 INFANTRY; "
                "Warboss W6 lost=2 INFANTRY CHARACTER")
    assert r.attacker_mortal_wounds == 4  # type: ignore[attr-defined]
    assert_destroyed(r, "Boy 1", "Boy 2", "Boss Nob", attacker=True)  # type: ignore[arg-type]
    assert model_after(r, "Warboss", attacker=True).remaining == 3  # type: ignore[arg-type]


def test_leftover_mortal_wounds_carry_on_to_the_next_model() -> None:
    # R06.02-b / X002-d/f: 5 MW on 3 W2 models -> 2, 2, 1
    r = hazards(5, [1] * 5, "3x Marine W2 INFANTRY")
    assert_wounds_lost(r, {"Marine 1": 2, "Marine 2": 2, "Marine 3": 1},  # type: ignore[arg-type]
                       attacker=True)


def test_mortal_wounds_beyond_the_last_model_are_lost() -> None:
    # R06.02-b: 8 MW on 3 W2 models -> 6 applied, 2 lost
    r = hazards(8, [1] * 8, "3x Marine W2 INFANTRY")
    assert r.attacker_mortal_wounds == 8  # type: ignore[attr-defined]
    assert r.attacker_wounds_lost == 6  # type: ignore[attr-defined]
    assert r.attacker_models_destroyed == 3  # type: ignore[attr-defined]


def test_no_save_is_made_against_mortal_wounds_but_feel_no_pain_is() -> None:
    # R06.02-c / X000-d / X002-e: Sv 2+, InSv 4+, FNP 5+, 3 MW with FNP [5, 1, 2] -> 2 lost
    r = hazards(3, [1, 1, 1], "Custodian T6 Sv2+ InSv4+ W6 FNP5+", fnp=[5, 1, 2])
    assert r.attacker_wounds_lost == 2  # type: ignore[attr-defined]


def test_devastating_mortal_wounds_take_no_save_but_feel_no_pain() -> None:
    # R06.02-c on the target: a D3 critical wound, FNP 5+ rolls [6, 1, 1] -> 2 wounds lost;
    # no save die is rolled (every scripted die is used, none given for saves)
    r = attack("Gun A1 BS3+ S4 AP0 D3 [DEVASTATING WOUNDS]", "Custodian T6 Sv2+ InSv4+ W6 FNP5+",
               {"hit": [3], "wound": [6], "fnp": [6, 1, 1]})
    assert_counts(r, mortal_wounds=3, wounds_lost=2, unsaved=0)


def test_a_character_takes_no_mortal_wound_while_a_bodyguard_model_lives() -> None:
    # R06.02-d / X000-e: 5 MW on 2 Intercessors (W2) + an attached Captain: 4 go to the
    # Intercessors, only the 5th to the Captain; no allocation order is asked for
    d = Decisions()
    r = hazards(5, [1] * 5, "2x Intercessor W2 INFANTRY; Captain W5 INFANTRY CHARACTER leader",
                decider=d)
    assert_wounds_lost(r, {"Intercessor 1": 2, "Intercessor 2": 2, "Captain": 1},  # type: ignore[arg-type]
                       attacker=True)
    assert DecisionKind.ALLOCATION_ORDER not in d.kinds()


def test_mortal_wounds_ignore_the_allocation_order() -> None:
    # R06.02-d: devastating mortal wounds go to a non-CHARACTER even when the defender's
    # (and Precision's) group would be the Captain
    r = attack("Gun A1 BS3+ S4 AP0 D2 [DEVASTATING WOUNDS] [PRECISION]",
               "Captain T4 Sv3+ W5 CHARACTER leader; 3x Intercessor T4 Sv3+ W2",
               {"hit": [3], "wound": [6]})
    assert_wounds_lost(r, {"Captain": 0, "Intercessor 1": 2})


def test_normal_damage_is_resolved_before_the_mortal_wounds_of_the_same_dice() -> None:
    # R06.02-e / X000-h / X002-c: Veteran (Sv 2+, W1) is first in the order, Guard (Sv 6+)
    # second. Wounds [6, 4]; the 6 is a devastating critical. The save 3 is resolved first and
    # saved by the Veteran; then the mortal wound kills the Veteran. (Mortal wound first would
    # kill the Veteran and let the 3 fail against the Guard: two dead.)
    r = attack("Gun A2 BS3+ S4 AP0 D1 [DEVASTATING WOUNDS]", "Veteran T4 Sv2+ W1; 3x Guard T4 "
               "Sv6+ W1", {"hit": [3, 3], "wound": [6, 4], "save": [3]})
    assert_destroyed(r, "Veteran")
    rules = [e.rule for e in r.events]
    assert rules.index("06.02") > max(i for i, e in enumerate(r.events) if e.step == "save")


def test_a_model_wounded_by_normal_damage_takes_the_first_mortal_wound() -> None:
    # R06.02-e: 4 wounds, 1 devastating; the normal damage wounds Ork 1 (D1 on W2), so the
    # mortal wound must go to it
    r = attack("Gun A4 BS3+ S4 AP0 D1 [DEVASTATING WOUNDS]", "3x Ork T4 Sv4+ W2",
               {"hit": [3] * 4, "wound": [6, 4, 4, 4], "save": [1, 5, 5]})
    assert_destroyed(r, "Ork 1")
    assert_wounds_lost(r, {"Ork 2": 0, "Ork 3": 0})


# --- 06.03 Hazard rolls ----------------------------------------------------------------------


def test_a_hazard_roll_of_one_or_two_fails_and_three_plus_has_no_effect() -> None:
    # R06.03-a / X000-j: infantry [2] -> 1 MW; [3] -> nothing
    assert hazards(1, [2], "Marine W2 INFANTRY").attacker_mortal_wounds == 1  # type: ignore[attr-defined]
    assert hazards(1, [3], "Marine W2 INFANTRY").attacker_mortal_wounds == 0  # type: ignore[attr-defined]


def test_a_failed_hazard_roll_is_three_mortal_wounds_only_if_every_model_is_monster_or_vehicle(
) -> None:
    # R06.03-b / X000-g: a lone VEHICLE rolls [1] -> 3 MW; with an attached INFANTRY
    # character -> 1 MW
    assert hazards(1, [1], "Tank W12 VEHICLE").attacker_mortal_wounds == 3  # type: ignore[attr-defined]
    assert hazards(1, [1], "Dread W8 VEHICLE; Tech W4 INFANTRY CHARACTER leader"
                   ).attacker_mortal_wounds == 1  # type: ignore[attr-defined]


def test_several_hazard_rolls_are_rolled_together_then_resolved() -> None:
    # R06.03-c / X000-i: [1, 2, 6] -> 2 MW, then allocated by 06.02-a
    src = RecordingDice({"hit": [1, 1, 1], "hazard": [1, 2, 6]})
    r = attack("3x Plasma A1 BS3+ S8 AP-3 D2 [HAZARDOUS]", TARGET,
               attacker="Marine 1 W2 INFANTRY; Marine 2 W2 lost=1 INFANTRY", source=src)
    assert src.log[-3:] == ["hazard"] * 3
    assert r.attacker_mortal_wounds == 2
    assert_wounds_lost(r, {"Marine 1": 1, "Marine 2": 2}, attacker=True)


def test_hazard_rolls_come_after_all_attacks_and_do_not_cancel_them() -> None:
    # R06.03-d / X000-f / R24.15-a: the plasma pool and the boltgun pool are resolved, then
    # the hazard roll; its failure takes nothing back
    src = RecordingDice({"hit": [3, 3, 3], "wound": [3, 3, 3], "save": [1, 1, 1],
                         "hazard": [1]})
    r = attack(["Plasma A1 BS3+ S8 AP-3 D2 [HAZARDOUS]", "2x Boltgun A1 BS3+ S4 AP0 D1"],
               "5x Guard T3 Sv5+ W1", attacker="3x Marine W2 INFANTRY", source=src)
    assert src.log[-1] == "hazard" and "hazard" not in src.log[:-1]
    assert_counts(r, models_destroyed=3)
    assert r.attacker_mortal_wounds == 1


def test_hazard_rolls_are_made_even_when_the_target_died_before_the_weapon_fired() -> None:
    # R24.15-a: one hazard roll per [HAZARDOUS] weapon selected, whether or not it attacked
    r = attack(["Boltgun A1 BS3+ S4 AP0 D1", "Plasma A1 BS3+ S8 AP-3 D2 [HAZARDOUS]"],
               "Grot T2 Sv- W1", {"hit": [3], "wound": [3], "save": [1], "hazard": [2]},
               attacker="2x Marine W2 INFANTRY")
    assert len(r.pools) == 1 and r.hazard_rolls == (2,)
    assert r.attacker_mortal_wounds == 1


def test_hazard_mortal_wounds_follow_06_02_and_feel_no_pain() -> None:
    # RX-d: a failed hazard roll on a CHARACTER-led unit hits the bodyguard, and FNP rolls
    r = hazards(2, [1, 1], "Captain W5 CHARACTER leader FNP4+; Marine W2 FNP4+", fnp=[4, 1])
    assert_wounds_lost(r, {"Marine": 1, "Captain": 0}, attacker=True)  # type: ignore[arg-type]
