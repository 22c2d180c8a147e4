"""24 weapon abilities in the attack sequence, with the BS/hit rules of 10.06, 10.07, 13.08,
17.03 and 22.05 that the same pool profile applies."""

from __future__ import annotations

import pytest

from tests.builders import (
    Decisions,
    RecordingDice,
    assert_counts,
    assert_destroyed,
    assert_wounds_lost,
    attack,
    model_after,
)
from w40k.core.abilities import SustainedHits
from w40k.rules.attack_profile import Reroll
from w40k.rules.decisions import DecisionKind

BIG = "Ogryn T20 Sv- W30"
INFANTRY = "5x Guard T3 Sv5+ W1 INFANTRY"


# --- 24.01 / 24.02 ---------------------------------------------------------------------------


def test_a_keyword_qualified_ability_applies_only_against_those_keywords() -> None:
    # R24.01-a: [LETHAL HITS: VEHICLE] vs INFANTRY -> the critical hit still rolls to wound
    r = attack("Gun A1 BS3+ S3 AP0 D1 [LETHAL HITS: VEHICLE]", INFANTRY,
               {"hit": [6], "wound": [1]})
    assert_counts(r, critical_hits=1, wounds=0)
    # ... and against a VEHICLE it wounds automatically
    r = attack("Gun A1 BS3+ S3 AP0 D1 [LETHAL HITS: VEHICLE]", "Tank T10 Sv3+ W10 VEHICLE",
               {"hit": [6], "save": [6]})
    assert_counts(r, wounds=1)
    # [SUSTAINED HITS 1: INFANTRY/BEASTS] vs BEASTS applies
    r = attack("Gun A1 BS3+ S1 AP0 D1 [SUSTAINED HITS 1: INFANTRY/BEASTS]",
               "Hound T20 Sv- W30 BEASTS", {"hit": [6], "wound": [1, 1]})
    assert_counts(r, hits=2)


def test_duplicated_abilities_do_not_stack_and_the_attacker_picks_one() -> None:
    # R24.02-a: [SUSTAINED HITS 1] and [SUSTAINED HITS 2] -> X = 2 only (default), not 3
    gun = "Gun A1 BS3+ S1 AP0 D1 [SUSTAINED HITS 1] [SUSTAINED HITS 2]"
    d = Decisions()
    r = attack(gun, BIG, {"hit": [6], "wound": [1, 1, 1]}, decider=d)
    assert_counts(r, hits=3)
    ask = d.asked[0]
    assert (ask.kind, ask.player, ask.rule) == (DecisionKind.DUPLICATE_ABILITY, "attacker",
                                                "R24.02-a")
    # choosing [SUSTAINED HITS 1] gives 1 extra hit
    d = Decisions({DecisionKind.DUPLICATE_ABILITY: str(SustainedHits(x=1))})
    r = attack(gun, BIG, {"hit": [6], "wound": [1, 1]}, decider=d)
    assert_counts(r, hits=2)


@pytest.mark.parametrize(("pick", "crits"), [(0, 0), (1, 1)])
def test_two_anti_abilities_are_duplicates_and_only_the_chosen_one_applies(
        pick: int, crits: int) -> None:
    # R24.02-b: [ANTI-VEHICLE 4+] and [ANTI-INFANTRY 2+] vs a unit with both keywords: a wound
    # roll of 3 is critical only under the chosen [ANTI-INFANTRY 2+]
    d = Decisions({DecisionKind.DUPLICATE_ABILITY: lambda req: req.options[pick]})
    r = attack("Gun A1 BS3+ S1 AP0 D1 [ANTI-VEHICLE 4+] [ANTI-INFANTRY 2+]",
               "Walker T20 Sv- W30 VEHICLE INFANTRY", {"hit": [3], "wound": [3],
               "save": [6] * crits}, decider=d)
    assert_counts(r, critical_wounds=crits)


# --- 24.03 [ANTI] ----------------------------------------------------------------------------


def test_anti_makes_unmodified_rolls_of_y_plus_critical_wounds() -> None:
    # R24.03-a: [ANTI-VEHICLE 4+], S4 vs T12 VEHICLE, dice [4, 3] -> 1 critical wound
    r = attack("Krak A2 BS3+ S4 AP0 D1 [ANTI-VEHICLE 4+]", "Tank T12 Sv3+ W12 VEHICLE",
               {"hit": [3, 3], "wound": [4, 3], "save": [6]})
    assert_counts(r, wounds=1, critical_wounds=1)
    # without the keyword a 6 is needed
    r = attack("Krak A2 BS3+ S4 AP0 D1 [ANTI-VEHICLE 4+]", "Beast T12 Sv3+ W12 MONSTER",
               {"hit": [3, 3], "wound": [4, 5]})
    assert_counts(r, wounds=0)


def test_anti_still_fails_on_an_unmodified_one() -> None:
    # R24.03-b
    r = attack("Gun A1 BS3+ S4 AP0 D1 [ANTI-INFANTRY 2+]", INFANTRY, {"hit": [3], "wound": [1]})
    assert_counts(r, wounds=0)


# --- 24.05 [BLAST], 24.06 [CLEAVE], 24.30 [RAPID FIRE] ---------------------------------------


@pytest.mark.parametrize(("ability", "n", "dice"), [
    ("[BLAST]", 12, 5), ("[BLAST 2]", 12, 7), ("[BLAST]", 4, 3), ("[BLAST]", 10, 5)])
def test_blast_adds_dice_per_full_five_models(ability: str, n: int, dice: int) -> None:
    # R24.05-a
    r = attack(f"Frag A3 BS3+ S4 AP0 D1 {ability}", f"{n}x Boy T5 Sv6+ W1",
               {"hit": [1] * dice})
    assert r.pools[0].attacks == dice


def test_blast_counts_the_models_at_select_targets_not_after_earlier_pools() -> None:
    # R24.05-a: pool 1 kills 6 of 10 Boyz; the [BLAST] pool still gathers 3 + 2 dice
    r = attack(["6x Slugga A1 BS3+ S8 AP0 D1", "Frag A3 BS3+ S4 AP0 D1 [BLAST]"],
               "10x Boy T5 Sv6+ W1", {"hit": [3] * 6 + [1] * 5, "wound": [3] * 6,
                                      "save": [1] * 6})
    assert r.pools[1].attacks == 5
    r = attack("Frag A3 BS3+ S4 AP0 D1 [BLAST]", "4x Boy T5 Sv6+ W1", {"hit": [1] * 5},
               target_models_at_select=10)
    assert r.pools[0].attacks == 5


def test_cleave_adds_dice_per_five_models_only_with_a_single_target() -> None:
    # R24.06-a: [CLEAVE 1] A3 vs 16 models -> 6 dice; split over two units -> no bonus
    r = attack("Axe Melee A3 WS3+ S5 AP-1 D1 [CLEAVE 1]", "16x Boy T5 Sv6+ W1",
               {"hit": [1] * 6})
    assert r.pools[0].attacks == 6
    r = attack("Axe Melee A3 WS3+ S5 AP-1 D1 [CLEAVE 1]", "16x Boy T5 Sv6+ W1",
               {"hit": [1] * 3}, single_target=False)
    assert r.pools[0].attacks == 3


def test_rapid_fire_adds_x_dice_at_half_range() -> None:
    # R24.30-a: Shoota [RAPID FIRE 1] (18", A2): at half range 3 dice, otherwise 2
    gun = 'Shoota 18" A2 BS5+ S4 AP0 D1 [RAPID FIRE 1]'
    assert attack(gun, INFANTRY, {"hit": [1] * 3}, half_range=True).pools[0].attacks == 3
    assert attack(gun, INFANTRY, {"hit": [1] * 2}).pools[0].attacks == 2


# --- 24.10 [DEVASTATING WOUNDS] --------------------------------------------------------------


def test_devastating_critical_skips_the_save_and_follows_the_normal_damage() -> None:
    # R24.10-a: D2, wounds [6, 4] vs Sv 3+: the 4 takes a save (one save die), then the 6
    # inflicts 2 mortal wounds
    r = attack("Gun A2 BS3+ S4 AP0 D2 [DEVASTATING WOUNDS]", "Marine T4 Sv3+ W10",
               {"hit": [3, 3], "wound": [6, 4], "save": [3]})
    assert_counts(r, wounds=2, critical_wounds=1, unsaved=0, mortal_wounds=2, wounds_lost=2)


def test_devastating_mortal_wounds_damage_at_most_one_model_per_critical() -> None:
    # R24.10-b / X002-d: D3 critical vs Intercessors (W2) -> 1 dies, 1 mortal wound lost
    gun = "Gun A1 BS3+ S4 AP0 D3 [DEVASTATING WOUNDS]"
    r = attack(gun, "3x Intercessor T4 Sv3+ W2", {"hit": [3], "wound": [6]})
    assert_counts(r, mortal_wounds=3, wounds_lost=2, models_destroyed=1)
    # one Intercessor already on 1 wound: the first MW (forced onto it) kills it, 2 are lost
    r = attack(gun, "2x Intercessor T4 Sv3+ W2; Intercessor 3 T4 Sv3+ W2 lost=1",
               {"hit": [3], "wound": [6]})
    assert_destroyed(r, "Intercessor 3")
    assert_counts(r, wounds_lost=1)
    # a single W10 model loses 3
    r = attack(gun, "Knight T10 Sv3+ W10", {"hit": [3], "wound": [6]})
    assert_counts(r, wounds_lost=3)


def test_melta_increases_devastating_mortal_wounds_still_capped_to_one_model() -> None:
    # R24.10-c / X002-a: [MELTA 2] D3 at half range, critical wound -> 5 MW
    gun = 'Melta 12" A1 BS3+ S9 AP-4 D3 [MELTA 2] [DEVASTATING WOUNDS]'
    r = attack(gun, "Knight T10 Sv3+ W10", {"hit": [3], "wound": [6]}, half_range=True)
    assert_counts(r, mortal_wounds=5, wounds_lost=5)
    r = attack(gun, "3x Intercessor T4 Sv3+ W2", {"hit": [3], "wound": [6]}, half_range=True)
    assert_counts(r, mortal_wounds=5, wounds_lost=2, models_destroyed=1)


def test_a_random_damage_characteristic_is_rolled_for_devastating_wounds() -> None:
    # R24.10-d: D6 rolling [2] -> 2 mortal wounds
    r = attack("Gun A1 BS3+ S4 AP0 DD6 [DEVASTATING WOUNDS]", "Knight T10 Sv3+ W10",
               {"hit": [3], "wound": [6], "damage": [2]})
    assert_counts(r, mortal_wounds=2, wounds_lost=2)


def test_precision_does_not_steer_devastating_mortal_wounds() -> None:
    # R24.10-e: the mortal wounds follow 06.02 (non-CHARACTERs first), not the Precision group
    r = attack("Gun A1 BS3+ S4 AP0 D2 [PRECISION] [DEVASTATING WOUNDS]",
               "Captain T4 Sv3+ W5 CHARACTER leader; 2x Intercessor T4 Sv3+ W2",
               {"hit": [3], "wound": [6]})
    assert_wounds_lost(r, {"Captain": 0, "Intercessor 1": 2})


# --- 24.12 Feel No Pain ----------------------------------------------------------------------


def test_feel_no_pain_is_rolled_for_each_wound_that_would_be_lost() -> None:
    # R24.12-a: a D3 = 3 damage attack with FNP 5+ rolling [5, 2, 6] -> loses 1 wound
    r = attack("Gun A1 BS3+ S8 AP0 DD3", "Ghoul T5 Sv6+ W5 FNP5+",
               {"hit": [3], "wound": [3], "save": [1], "damage": [6], "fnp": [5, 2, 6]})
    assert_counts(r, wounds_lost=1)


def test_feel_no_pain_rolls_the_full_damage_even_beyond_the_remaining_wounds() -> None:
    # R24.12-a (docs/rulings.md): D3 on a W1 model: three FNP dice, one failure kills
    r = attack("Gun A1 BS3+ S8 AP0 D3", "Ghoul T5 Sv6+ W1 FNP5+",
               {"hit": [3], "wound": [3], "save": [1], "fnp": [5, 6, 2]})
    assert_counts(r, models_destroyed=1)
    r = attack("Gun A1 BS3+ S8 AP0 D3", "Ghoul T5 Sv6+ W1 FNP5+",
               {"hit": [3], "wound": [3], "save": [1], "fnp": [5, 6, 5]})
    assert_counts(r, models_destroyed=0)


# --- 24.15 [HAZARDOUS] -----------------------------------------------------------------------


def test_one_hazard_roll_per_hazardous_weapon_selected() -> None:
    # R24.15-a: 3 plasma guns, hazard dice [1, 3, 2] -> 2 MW; 6 MW if every model is a
    # MONSTER/VEHICLE
    dice = {"hit": [1, 1, 1], "hazard": [1, 3, 2]}
    r = attack("3x Plasma A1 BS3+ S8 AP-3 D2 [HAZARDOUS]", BIG, dice,
               attacker="5x Marine W2 INFANTRY")
    assert r.attacker_mortal_wounds == 2
    r = attack("3x Plasma A1 BS3+ S8 AP-3 D2 [HAZARDOUS]", BIG, dice,
               attacker="3x Dread W8 VEHICLE")
    assert r.attacker_mortal_wounds == 6
    assert_wounds_lost(r, {"Dread 1": 6}, attacker=True)


# --- 24.16 [HEAVY] ---------------------------------------------------------------------------


def test_heavy_adds_one_to_hit_when_the_unit_stayed_put_in_its_shooting_phase() -> None:
    # R24.16-a: BS 4+ with [3]: +1 -> hit when stationary, not after moving or out of phase
    gun = "Cannon A1 BS4+ S1 AP0 D1 [HEAVY]"
    assert attack(gun, BIG, {"hit": [3], "wound": [1]}, remained_stationary=True).hits == 1
    assert attack(gun, BIG, {"hit": [3]}).hits == 0
    assert attack(gun, BIG, {"hit": [3]}, remained_stationary=True,
                  own_shooting_phase=False).hits == 0  # R15.09-c: Overwatch


# --- 24.18 [IGNORES COVER], 24.33 Stealth, 13.08 cover, 10.07 indirect ------------------------


def test_benefit_of_cover_worsens_bs_by_one_and_leaves_the_save_alone() -> None:
    # R13.08-b: BS 3+ becomes 4+: dice [3, 4] -> 1 hit; the save of 3 vs Sv 3+ is still made
    r = attack("Gun A2 BS3+ S4 AP0 D1", "5x Marine T4 Sv3+ W2 INFANTRY",
               {"hit": [3, 4], "wound": [4], "save": [3]}, cover=True)
    assert_counts(r, hits=1, unsaved=0)


def test_cover_does_not_apply_to_melee_attacks() -> None:
    # R13.08-c
    r = attack("Sword Melee A1 WS3+ S4 AP0 D1", BIG, {"hit": [3], "wound": [1]}, cover=True)
    assert_counts(r, hits=1)


def test_stealth_is_the_benefit_of_cover() -> None:
    # R24.33-a (the cover flag): BS 3+ -> 4+
    r = attack("Gun A2 BS3+ S1 AP0 D1", BIG, {"hit": [3, 4], "wound": [1]}, cover=True)
    assert_counts(r, hits=1)


def test_cover_does_not_stack_with_indirect_fire() -> None:
    # R13.08-d: a Stealth unit in ruins shot by indirect fire: BS 3+ -> 4+, not 6+
    r = attack("Mortar A2 BS3+ S1 AP0 D1 [INDIRECT FIRE]", BIG, {"hit": [4, 3], "wound": [1]},
               cover=True, indirect=True, remained_stationary=True)
    assert_counts(r, hits=1)


def test_ignores_cover_removes_every_source_of_cover() -> None:
    # R24.18-a: indirect [IGNORES COVER] vs a Stealth unit: BS 4+ stays 4+ (a worsened 5+
    # would miss the 4) and the 1-3 fail rule still applies (stationary, spotted): [3, 4, 6]
    # -> 2 hits
    r = attack("Mortar A3 BS4+ S1 AP0 D1 [INDIRECT FIRE] [IGNORES COVER]", BIG,
               {"hit": [3, 4, 6], "wound": [1, 1]}, cover=True, indirect=True,
               remained_stationary=True)
    assert_counts(r, hits=2)
    r = attack("Gun A2 BS3+ S1 AP0 D1 [IGNORES COVER]", BIG, {"hit": [3, 4], "wound": [1, 1]},
               cover=True)
    assert_counts(r, hits=2)


def test_indirect_fire_gives_the_target_cover() -> None:
    # R10.07-b: BS 3+ becomes 4+ (stationary, spotted: the 1-3 rule lets the 4 through)
    r = attack("Mortar A2 BS3+ S1 AP0 D1 [INDIRECT FIRE]", BIG, {"hit": [4, 5], "wound": [1, 1]},
               indirect=True, remained_stationary=True)
    assert_counts(r, hits=2)
    r = attack("Mortar A1 BS4+ S1 AP0 D1 [INDIRECT FIRE]", BIG, {"hit": [4]},
               indirect=True, remained_stationary=True)
    assert_counts(r, hits=0)


def test_indirect_hit_rolls_cannot_be_re_rolled() -> None:
    # R10.07-c: a hit re-roll ability does nothing (no re-roll die is used)
    r = attack("Mortar A2 BS3+ S1 AP0 D1 [INDIRECT FIRE]", BIG, {"hit": [1, 2]},
               indirect=True, reroll_hits=Reroll.FAILED)
    assert_counts(r, hits=0)


def test_indirect_unmodified_one_to_five_fail_unless_stationary_and_spotted() -> None:
    # R10.07-d: unit moved, BS 3+ -> [4, 5, 6] give 1 hit (the 6)
    r = attack("Mortar A3 BS3+ S1 AP0 D1 [INDIRECT FIRE]", BIG, {"hit": [4, 5, 6],
               "wound": [1]}, indirect=True)
    assert_counts(r, hits=1)
    # stationary and the target spotted -> [3, 4, 6] give 2 hits
    r = attack("Mortar A3 BS3+ S1 AP0 D1 [INDIRECT FIRE]", BIG, {"hit": [3, 4, 6],
               "wound": [1, 1]}, indirect=True, remained_stationary=True)
    assert_counts(r, hits=2)
    # stationary but no friendly unit sees the target -> 1-5 fail
    r = attack("Mortar A3 BS3+ S1 AP0 D1 [INDIRECT FIRE]", BIG, {"hit": [3, 4, 6],
               "wound": [1]}, indirect=True, remained_stationary=True,
               target_visible_to_friendly=False)
    assert_counts(r, hits=1)


def test_an_indirect_fire_weapon_in_normal_shooting_has_no_indirect_penalties() -> None:
    # R10.07-f [AMBIG]: normal shooting at a visible target, BS 4+ with [4] -> hit
    r = attack("Mortar A1 BS4+ S1 AP0 D1 [INDIRECT FIRE]", BIG, {"hit": [4], "wound": [1]})
    assert_counts(r, hits=1)


# --- 10.06, 17.03, 22.05 ---------------------------------------------------------------------


def test_close_quarters_monster_takes_minus_one_except_cq_weapons_at_engaged_targets() -> None:
    # R10.06-c: the CQ flamer at the unit it is engaged with: no penalty; the cannon: -1
    r = attack("Flamer A1 BS3+ S1 AP0 D1 [CLOSE-QUARTERS]", BIG, {"hit": [3], "wound": [1]},
               close_quarters_monster=True, attacker_engaged_with_target=True)
    assert_counts(r, hits=1)
    r = attack("Cannon A1 BS3+ S1 AP0 D1", BIG, {"hit": [3]}, close_quarters_monster=True)
    assert_counts(r, hits=0)


def test_shooting_an_engaged_monster_or_vehicle_is_minus_one_to_hit() -> None:
    # R17.03-a: an unengaged unit shoots the engaged tank: BS 3+, [3] -> miss; the engaged
    # infantry's pistols at the same tank -> no penalty
    tank = "Tank T10 Sv3+ W12 VEHICLE"
    r = attack("Rifle A1 BS3+ S4 AP0 D1", tank, {"hit": [3]}, target_engaged=True)
    assert_counts(r, hits=0)
    r = attack("Pistol A1 BS3+ S4 AP0 D1 [PISTOL]", tank, {"hit": [3], "wound": [1]},
               target_engaged=True, attacker_engaged_with_target=True)
    assert_counts(r, hits=1)


def test_plunging_fire_improves_bs_by_one_and_cancels_with_cover() -> None:
    # R22.05-a: BS 4+ -> 3+ ; R22.05-b: with cover, BS unchanged
    r = attack("Gun A1 BS4+ S1 AP0 D1", BIG, {"hit": [3], "wound": [1]}, plunging_fire=True)
    assert_counts(r, hits=1)
    r = attack("Gun A2 BS4+ S1 AP0 D1", BIG, {"hit": [3, 4], "wound": [1]}, plunging_fire=True,
               cover=True)
    assert_counts(r, hits=1)


def test_bs_changes_from_other_rules_combine_with_cover() -> None:
    # 13.08 / 22.05: a further BS worsening stacks with cover (BS 3+ -> 5+)
    from w40k.core.dice import Modifier

    r = attack("Gun A2 BS3+ S1 AP0 D1", BIG, {"hit": [4, 5], "wound": [1]}, cover=True,
               skill_changes=(Modifier("test", -1),))
    assert_counts(r, hits=1)


# --- 24.21 [LANCE] ---------------------------------------------------------------------------


def test_lance_adds_one_to_wound_after_a_charge() -> None:
    # R24.21-a: S4 vs T4 after charging, [3] -> 4 -> wound; without a charge -> fail
    lance = "Lance Melee A1 WS3+ S4 AP0 D1 [LANCE]"
    r = attack(lance, "Marine T4 Sv3+ W2", {"hit": [3], "wound": [3], "save": [6]}, charged=True)
    assert_counts(r, wounds=1)
    r = attack(lance, "Marine T4 Sv3+ W2", {"hit": [3], "wound": [3]})
    assert_counts(r, wounds=0)


# --- 24.23 [LETHAL HITS] ---------------------------------------------------------------------


def test_lethal_hits_may_wound_automatically_but_not_critically() -> None:
    # R24.23-a: Lethal + Devastating critical hit: the auto-wound is a normal wound and is saved
    gun = "Gun A1 BS3+ S4 AP0 D2 [LETHAL HITS] [DEVASTATING WOUNDS]"
    d = Decisions()
    r = attack(gun, "Marine T4 Sv3+ W5", {"hit": [6], "save": [4]}, decider=d)
    assert_counts(r, wounds=1, critical_wounds=0, mortal_wounds=0, unsaved=0)
    assert d.asked[0].kind is DecisionKind.LETHAL_HITS and d.asked[0].player == "attacker"
    # declining: a wound roll of 6 is a critical wound and inflicts mortal wounds
    d = Decisions({DecisionKind.LETHAL_HITS: False})
    r = attack(gun, "Marine T4 Sv3+ W5", {"hit": [6], "wound": [6]}, decider=d)
    assert_counts(r, critical_wounds=1, mortal_wounds=2, wounds_lost=2)
    # the scenario switch lethal_hits "roll" does the same
    r = attack(gun, "Marine T4 Sv3+ W5", {"hit": [6], "wound": [6]}, lethal_hits_auto=False)
    assert_counts(r, mortal_wounds=2)


def test_sustained_extra_hits_are_not_critical_so_do_not_wound_automatically() -> None:
    # R24.23-b: [SUSTAINED HITS 2] + [LETHAL HITS] critical -> 1 auto-wound + 2 wound rolls
    src = RecordingDice({"hit": [6], "wound": [1, 1], "save": [6]})
    r = attack("Gun A1 BS3+ S4 AP0 D1 [SUSTAINED HITS 2] [LETHAL HITS]", "Marine T4 Sv3+ W5",
               source=src)
    assert src.log.count("wound") == 2
    assert_counts(r, hits=3, wounds=1)


# --- 24.25 [MELTA] ---------------------------------------------------------------------------


def test_melta_adds_x_to_damage_at_half_range() -> None:
    # R24.25-a: D6 becomes D6+2 with [MELTA 2]: a damage roll of 1 inflicts 3
    gun = 'Melta 12" A1 BS3+ S9 AP-4 DD6 [MELTA 2]'
    dice = {"hit": [3], "wound": [5], "save": [1], "damage": [1]}
    assert attack(gun, "Knight T10 Sv3+ W10", dice, half_range=True).wounds_lost == 3
    assert attack(gun, "Knight T10 Sv3+ W10", dice).wounds_lost == 1


# --- 24.28 [PRECISION] -----------------------------------------------------------------------

ESCORTED = "Captain T4 Sv3+ W5 CHARACTER leader; 5x Intercessor T4 Sv3+ W2"


def test_precision_makes_the_visible_character_group_current_until_it_dies() -> None:
    # R24.28-a: 4 failed saves, D2: the first three go to the Captain (W5: dies on the third),
    # the fourth to the declared order (an Intercessor)
    d = Decisions()
    r = attack("Sniper A4 BS3+ S8 AP0 D2 [PRECISION]", ESCORTED,
               {"hit": [3] * 4, "wound": [3] * 4, "save": [1] * 4}, decider=d)
    assert_destroyed(r, "Captain", "Intercessor 1")
    req = next(q for q in d.asked if q.kind is DecisionKind.PRECISION)
    assert (req.player, req.rule) == ("attacker", "R24.28-a")


def test_precision_is_the_attackers_choice_and_may_be_declined() -> None:
    # R24.28-a: "the active player can select": declining leaves the defender's order
    d = Decisions({DecisionKind.PRECISION: None})
    r = attack("Sniper A1 BS3+ S8 AP0 D2 [PRECISION]", ESCORTED,
               {"hit": [3], "wound": [3], "save": [1]}, decider=d)
    assert_destroyed(r, "Intercessor 1")


def test_precision_needs_a_character_visible_to_an_attacker() -> None:
    # R24.28-b: a Captain hidden from all attackers cannot be picked
    d = Decisions()
    r = attack("Sniper A1 BS3+ S8 AP0 D2 [PRECISION]", ESCORTED.replace("leader", "leader hidden"),
               {"hit": [3], "wound": [3], "save": [1]}, decider=d)
    assert_destroyed(r, "Intercessor 1")
    assert DecisionKind.PRECISION not in d.kinds()


# --- 24.29 [PSYCHIC] -------------------------------------------------------------------------


def test_psychic_ignores_the_harmful_modifiers_and_keeps_the_helpful_ones() -> None:
    # R24.29-a: BS 3+ with cover (-1 BS) and [HEAVY] (+1): keep +1, ignore cover -> a 2 hits
    gun = "Smite A1 BS3+ S1 AP0 D1 [PSYCHIC] [HEAVY]"
    r = attack(gun, BIG, {"hit": [2], "wound": [1]}, cover=True, remained_stationary=True)
    assert_counts(r, hits=1)
    r = attack(gun.replace("[PSYCHIC] ", ""), BIG, {"hit": [2]}, cover=True,
               remained_stationary=True)
    assert_counts(r, hits=0)


# --- 24.36 [SUSTAINED HITS], 24.37 [TORRENT], 24.38 [TWIN-LINKED] -----------------------------


def test_sustained_hits_adds_x_hits_per_critical_hit() -> None:
    # R24.36-a: [SUSTAINED HITS 2], dice [6, 4, 1], BS 4+ -> 1 + 2 + 1 = 4 hits
    r = attack("Gun A3 BS4+ S1 AP0 D1 [SUSTAINED HITS 2]", BIG,
               {"hit": [6, 4, 1], "wound": [1] * 4})
    assert_counts(r, hits=4, critical_hits=1)


def test_torrent_hits_automatically_with_no_critical_hits() -> None:
    # R24.37-a / X002-p: A3 [TORRENT] + [SUSTAINED HITS 1] -> exactly 3 hits, no hit dice;
    # cover and hit modifiers are irrelevant
    src = RecordingDice({"wound": [1, 1, 1]})
    r = attack("Flamer A3 BS3+ S1 AP0 D1 [TORRENT] [SUSTAINED HITS 1] [LETHAL HITS]", BIG,
               source=src, cover=True, target_engaged=True)
    assert_counts(r, hits=3, critical_hits=0, wounds=0)
    assert "hit" not in src.log


def test_twin_linked_re_rolls_the_wound_roll_and_the_re_roll_is_unmodified() -> None:
    # R24.38-a / X002-g: wound [2] re-rolled to [6] -> critical wound (Devastating Wounds)
    r = attack("Gun A1 BS3+ S4 AP0 D1 [TWIN-LINKED] [DEVASTATING WOUNDS]", "Marine T4 Sv3+ W2",
               {"hit": [3], "wound": [2, 6]})
    assert_counts(r, critical_wounds=1, mortal_wounds=1)
    assert model_after(r, "Marine").wounds_lost == 1
