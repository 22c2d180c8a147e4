"""01.05 Dice and the re-roll rules of the legacy fragment 002 (X002-g..l)."""

from __future__ import annotations

import pytest

from tests.builders import RecordingDice, assert_counts, attack
from w40k.core.dice import DiceExpr, DieRoll, Modifier, Roller, ScriptedDice
from w40k.core.errors import DiceError, DiceExhausted
from w40k.rules.attack_profile import Reroll
from w40k.rules.primitives import Outcome, hazard_fails, hit_outcome

TARGET = "10x Dummy T4 Sv- W10"


def test_a_result_of_x_or_more_meets_an_x_plus_target() -> None:
    # R01.05-a: 3+ -> a 3 succeeds, a 2 fails
    assert hit_outcome(3, 0, 3) is Outcome.SUCCESS
    assert hit_outcome(2, 0, 3) is Outcome.FAIL
    r = attack("Gun A2 BS3+ S1 AP0 D1", TARGET, {"hit": [3, 2], "wound": [1]})
    assert_counts(r, hits=1)


def test_a_range_of_results_includes_both_ends() -> None:
    # R01.05-b: "1-2 fails" (hazard): a 2 fails and a 3 does not
    assert hazard_fails(2) and not hazard_fails(3)
    r = attack("2x Plasma A1 BS3+ S1 AP0 D1 [HAZARDOUS]", TARGET,
               {"hit": [1, 1], "hazard": [2, 3]}, attacker="2x Marine W2 INFANTRY")
    assert r.attacker_mortal_wounds == 1


def test_nd6_is_the_sum_of_n_dice() -> None:
    # R01.05-c: 2D6 rolling [3, 5] -> 8
    total, dice = Roller(ScriptedDice({"attacks": [3, 5]})).expr("attacks", DiceExpr.parse("2D6"))
    assert total == 8 and len(dice) == 2
    r = attack("Gun A2D6 BS3+ S1 AP0 D1", TARGET, {"attacks": [3, 5], "hit": [1] * 8})
    assert r.pools[0].attacks == 8


@pytest.mark.parametrize(("face", "d3"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_a_d3_is_a_d6_halved_rounding_up(face: int, d3: int) -> None:
    # R01.05-d
    assert DieRoll("damage", (face,), 3).unmodified == d3
    total, _ = Roller(ScriptedDice({"damage": [face]})).expr("damage", DiceExpr.parse("D3"))
    assert total == d3


def test_a_d3_damage_characteristic_uses_one_face_halved_rounding_up() -> None:
    # R01.05-d: a D3 damage roll of face 3 is 2 damage
    r = attack("Gun A1 BS3+ S8 AP0 DD3", "Brute T4 Sv- W6",
               {"hit": [4], "wound": [4], "save": [2], "damage": [3]})
    assert r.wounds_lost == 2


def test_the_constant_is_added_after_summing_the_dice() -> None:
    # R01.05-e: 2D6+3 rolling [2, 5] -> 10; D3+1 with a face of 5 -> 4
    roll = Roller(ScriptedDice({"other": [2, 5, 5]}))
    assert roll.expr("other", DiceExpr.parse("2D6+3"))[0] == 10
    assert roll.expr("other", DiceExpr.parse("D3+1"))[0] == 4
    r = attack("Gun AD3+1 BS3+ S1 AP0 D1", TARGET, {"attacks": [5], "hit": [1, 1, 1, 1]})
    assert r.pools[0].attacks == 4


def test_unmodified_means_after_re_rolls_and_before_modifiers() -> None:
    # X002-g: a wound roll re-rolled from 2 to 6 is a critical wound ...
    r = attack("Gun A1 BS3+ S4 AP0 D1 [TWIN-LINKED] [DEVASTATING WOUNDS]", "Marine T4 Sv3+ W2",
               {"hit": [3], "wound": [2, 6]})
    assert_counts(r, critical_wounds=1, mortal_wounds=1)
    # ... while a 5 made 6 by [LANCE] is not
    r = attack("Gun A1 BS3+ S4 AP0 D1 [LANCE] [DEVASTATING WOUNDS]", "Marine T4 Sv3+ W2",
               {"hit": [3], "wound": [5], "save": [1]}, charged=True)
    assert_counts(r, wounds=1, critical_wounds=0, mortal_wounds=0)


def test_a_die_is_never_re_rolled_twice() -> None:
    # X002-h: the re-roll of a failed hit fails again and is not re-rolled a second time
    roll = Roller(ScriptedDice({"hit": [1, 1, 1]}))
    once = roll.reroll(roll.die("hit"))
    with pytest.raises(DiceError):
        roll.reroll(once)
    r = attack("Gun A1 BS3+ S4 AP0 D1", TARGET, {"hit": [1, 2]}, reroll_hits=Reroll.FAILED)
    assert_counts(r, hits=0)


def test_twin_linked_with_a_wound_re_roll_ability_still_re_rolls_a_die_once() -> None:
    # X002-h / R15.02-e: two sources of wound re-rolls still give one re-roll per die
    r = attack("Gun A1 BS3+ S4 AP0 D1 [TWIN-LINKED]", TARGET, {"hit": [3], "wound": [2, 3]},
               reroll_wounds=Reroll.FAILED)
    assert_counts(r, wounds=0)


def test_re_rolls_happen_before_modifiers() -> None:
    # X002-i: with -1 to hit, "re-roll 1s" sees the unmodified 2 (made 1) and does not
    # re-roll it; the unmodified 1 is re-rolled
    r = attack("Gun A2 BS3+ S4 AP0 D1", "Tank T10 Sv- W20 VEHICLE", {"hit": [2, 1, 6],
               "wound": [1]}, reroll_hits=Reroll.ONES, target_engaged=True)
    assert_counts(r, hits=1, critical_hits=1)
    # a modified die is not re-rolled by the dice layer either
    roll = Roller(ScriptedDice({"hit": [2, 6]}))
    with pytest.raises(DiceError):
        roll.reroll(roll.die("hit").modified(Modifier("test", -1)))


def test_re_roll_ones_on_a_d3_re_rolls_d6_faces_of_one_and_two() -> None:
    # X002-j: a D3 with a face of 2 is a 1, so "re-roll 1s" re-rolls it
    for face, eligible in ((1, True), (2, True), (3, False)):
        assert (DieRoll("damage", (face,), 3).unmodified == 1) is eligible
    roll = Roller(ScriptedDice({"damage": [2, 5]}))
    again = roll.reroll(roll.die("damage", sides=3))
    assert again.rerolled and again.unmodified == 3


def test_re_roll_conditions_on_a_d3_use_the_halved_value() -> None:
    # X002-k: "re-roll results of 3" on a D3 -> the D6 faces 5 and 6
    assert [f for f in range(1, 7) if DieRoll("damage", (f,), 3).unmodified == 3] == [5, 6]


def test_re_roll_ones_re_rolls_only_the_ones() -> None:
    # X002-l: hits [1, 2, 1] -> two dice re-rolled (exactly two re-roll dice are used)
    r = attack("Gun A3 BS3+ S1 AP0 D1", TARGET, {"hit": [1, 2, 1, 3, 3], "wound": [1, 1]},
               reroll_hits=Reroll.ONES)
    assert_counts(r, hits=2)


def test_re_rolls_come_after_the_whole_batch_and_take_the_next_dice() -> None:
    # R05-a / DESIGN: hit dice [1, 1, 5] are rolled together; the two 1s are then re-rolled
    # with the next two faces (5, 5). Re-rolling each die at once would re-roll the first 1
    # into the second 1, and only 2 attacks would hit.
    src = RecordingDice({"hit": [1, 1, 5, 5, 5], "wound": [1, 1, 1]})
    r = attack("Gun A3 BS3+ S1 AP0 D1", TARGET, source=src, reroll_hits=Reroll.ONES)
    assert_counts(r, hits=3)
    assert src.log == ["hit"] * 5 + ["wound"] * 3


def test_running_out_of_scripted_dice_names_the_kind() -> None:
    # Referee mode: too few dice is an error naming the roll kind, never a silent roll
    with pytest.raises(DiceExhausted) as exc:
        attack("Gun A3 BS3+ S1 AP0 D1", TARGET, {"hit": [4, 4]})
    assert exc.value.kind == "hit"


@pytest.mark.parametrize("bad", [0, 7, True])
def test_a_scripted_face_must_be_one_to_six(bad: object) -> None:
    with pytest.raises(DiceError, match=r"dice.hit\[1\]"):
        ScriptedDice({"hit": [3, bad]})  # type: ignore[list-item]
