"""The excerpt files' points (checklist X000-X004) that restate or contradict an 11th-edition
rule, tested on the rule they name: what the engine does is the 11th reading, and where a
legacy fragment conflicts, the test shows the 11th answer (docs/rulings.md)."""

from __future__ import annotations

from tests.builders import RecordingDice, assert_counts, assert_destroyed, attack
from tests.sections.s06_other_concepts.test_06_01_visibility import unit, vis, wall

BIG = "10x Dummy T4 Sv- W10"
MM = 1 / 25.4


def test_sight_is_a_one_millimetre_line_through_a_slit() -> None:
    # X000-a: a 1.1 mm slit between two walls lets a 1 mm line through, a 0.9 mm slit does not
    def seen(width_mm: float) -> bool:
        h = width_mm * MM / 2
        v = vis([unit("Shooters", "A", (2, 10)), unit("Target", "B", (18, 10))],
                [wall("Low", 9.5, 0, 10.5, 10 - h), wall("High", 9.5, 10 + h, 10.5, 20)])
        return v.model_visible(("Shooters", 0), ("Target", 0))

    assert seen(1.1)
    assert not seen(0.9)


def test_sight_ignores_the_models_of_the_observers_and_the_targets_units() -> None:
    # X000-a: a model of the observer's own unit and one of the target's unit stand on the
    # line; a third unit's model in the same place blocks it
    v = vis([unit("Shooters", "A", (2, 10), (6, 10)), unit("Target", "B", (18, 10), (14, 10))])
    assert v.model_visible(("Shooters", 0), ("Target", 0))
    big = {"name": "Rock", "player": "C", "keywords": ["VEHICLE"],
           "models": [{"x": 10, "y": 10, "base_mm": 170, "height": 4}]}
    v = vis([unit("Shooters", "A", (2, 10)), unit("Target", "B", (18, 10)), big])
    assert not v.model_visible(("Shooters", 0), ("Target", 0))


def test_a_devastating_critical_takes_no_save_and_no_normal_damage() -> None:
    # X002-b (legacy 'normal damage and mortal wounds', not implemented) / X004-d: a D2
    # [DEVASTATING WOUNDS] critical wound inflicts 2 mortal wounds and nothing else: no save die
    # is rolled (every scripted die must be used, none is given for saves), nothing is unsaved
    r = attack("Gun A1 BS3+ S4 AP0 D2 [DEVASTATING WOUNDS]", "Marine T4 Sv3+ W10",
               {"hit": [3], "wound": [6]})
    assert_counts(r, critical_wounds=1, unsaved=0, mortal_wounds=2, wounds_lost=2)


def test_each_mortal_wound_is_one_damage_applied_one_at_a_time() -> None:
    # X002-f / X004-d: 3 failed hazard rolls are 3 mortal wounds of 1 damage each, so they
    # destroy 3 W1 models (3 damage on one model would destroy one)
    r = attack("3x Plasma A1 BS3+ S8 AP-3 D2 [HAZARDOUS]", BIG,
               {"hit": [1, 1, 1], "hazard": [1, 1, 1]}, attacker="3x Boy W1 INFANTRY")
    assert r.attacker_mortal_wounds == 3
    assert_destroyed(r, "Boy 1", "Boy 2", "Boy 3", attacker=True)


def test_a_damage_change_does_not_touch_hazard_mortal_wounds() -> None:
    # X004-d: [MELTA 2] at half range makes the attack's D 5, but the failed hazard roll
    # still inflicts 1 mortal wound (a lone INFANTRY model, 06.03)
    r = attack('Melta 12" A1 BS3+ S9 AP-4 D3 [MELTA 2] [HAZARDOUS]', BIG,
               {"hit": [1], "hazard": [1]}, attacker="Gunner W3 INFANTRY", half_range=True)
    assert r.attacker_mortal_wounds == 1
    assert r.attacker_wounds_lost == 1


def test_an_unmodified_six_always_hits_and_an_unmodified_one_always_fails() -> None:
    # X002-o / X004-b: BS 6+ at -1 to hit (an engaged VEHICLE target): the 6 still hits and is
    # critical, the 5 fails; BS 2+ at +1 ([HEAVY], stationary): the 1 still fails
    r = attack("Gun A2 BS6+ S1 AP0 D1", "Tank T20 Sv- W30 VEHICLE", {"hit": [5, 6], "wound": [1]},
               target_engaged=True)
    assert_counts(r, hits=1, critical_hits=1)
    r = attack("Cannon A2 BS2+ S1 AP0 D1 [HEAVY]", BIG, {"hit": [1, 2], "wound": [1]},
               remained_stationary=True)
    assert_counts(r, hits=1)


def test_one_hit_die_per_attack_and_automatic_hits_roll_none() -> None:
    # X002-r / X004-b: two models with A3 roll 6 hit dice; a [TORRENT] A3 weapon hits 3 times
    # with no hit die (automatic hits); ranged attacks compare with BS, melee ones with WS
    src = RecordingDice({"hit": [3, 3, 3, 2, 2, 2], "wound": [1, 1, 1]})
    r = attack("2x Rifle A3 BS3+ S4 AP0 D1", BIG, source=src)
    assert src.log.count("hit") == 6
    assert_counts(r, hits=3)
    src = RecordingDice({"wound": [1, 1, 1]})
    r = attack("Flamer A3 BS6+ S4 AP0 D1 [TORRENT]", BIG, source=src)
    assert "hit" not in src.log
    assert_counts(r, hits=3)
    r = attack("Choppa Melee A2 WS3+ S4 AP0 D1", BIG, {"hit": [3, 2], "wound": [1]})
    assert_counts(r, hits=1)


def test_mortal_wounds_carry_over_except_from_devastating_wounds() -> None:
    # X004-c (legacy: mortal wound damage is never lost) against 24.10: 4 hazard mortal wounds
    # on 2 W2 models destroy both (they carry over, 06.02); one D4 [DEVASTATING WOUNDS]
    # critical on the same 2 models destroys one and the other 2 are lost (R24.10-b)
    r = attack("4x Plasma A1 BS3+ S8 AP-3 D2 [HAZARDOUS]", BIG,
               {"hit": [1] * 4, "hazard": [1] * 4}, attacker="2x Marine W2 INFANTRY")
    assert r.attacker_models_destroyed == 2
    r = attack("Gun A1 BS3+ S4 AP0 D4 [DEVASTATING WOUNDS]", "2x Marine T4 Sv3+ W2",
               {"hit": [3], "wound": [6]})
    assert_counts(r, mortal_wounds=4, wounds_lost=2, models_destroyed=1)
