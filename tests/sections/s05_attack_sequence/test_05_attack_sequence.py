"""05 Attack Sequence: hit, wound and save rolls, allocation groups and orders, damage, and
the rulebook's worked examples (05.05)."""

from __future__ import annotations

import re

import pytest

from tests.builders import (
    Decisions,
    RecordingDice,
    assert_counts,
    assert_destroyed,
    assert_wounds_lost,
    attack,
    models,
)
from w40k.core.errors import IllegalChoice
from w40k.rules.attack_profile import Ruleset
from w40k.rules.decisions import DecisionKind, DecisionRequest
from w40k.rules.primitives import (
    default_order,
    make_groups,
    order_violation,
    wound_threshold,
)

BIG = "Ogryn T20 Sv- W30"  # a target that never dies and never saves


# --- 05: the sequence ------------------------------------------------------------------------


def test_each_step_rolls_all_its_dice_before_the_next_step() -> None:
    # R05-a: 5 hit dice in one batch, then the 4 wound rolls, then the 3 save rolls
    src = RecordingDice({"hit": [3, 4, 5, 6, 2], "wound": [3, 4, 2, 6], "save": [2, 4, 5]})
    attack(['2x Boltgun 24" A2 BS3+ S4 AP0 D1', 'Bolt pistol A1 BS3+ S4 AP0 D1'],
           "5x Blue T3 Sv3+ InSv5+ W1", source=src)
    assert src.log == ["hit"] * 5 + ["wound"] * 4 + ["save"] * 3


def test_a_critical_hit_without_lethal_hits_rolls_to_wound_like_any_hit() -> None:
    # R05-b: critical hits are still hits and critical wounds still wounds
    r = attack("Gun A1 BS3+ S4 AP0 D1", BIG, {"hit": [6], "wound": [6], "save": [1]})
    assert_counts(r, hits=1, critical_hits=1, wounds=1, critical_wounds=1, unsaved=1)


# --- 05.01 Hit rolls -------------------------------------------------------------------------


def test_hit_outcomes_are_checked_one_fails_six_critical_then_skill() -> None:
    # R05.01-a: BS 3+ with [1, 3, 6] -> 2 hits, 1 critical
    r = attack("Gun A3 BS3+ S1 AP0 D1", BIG, {"hit": [1, 3, 6], "wound": [1, 1]})
    assert_counts(r, hits=2, critical_hits=1)


def test_an_unmodified_one_fails_even_against_a_one_plus_skill() -> None:
    # R05.01-b: BS 2+ improved by plunging fire to 1+, dice [1, 2] -> 1 hit
    r = attack("Gun A2 BS2+ S1 AP0 D1", BIG, {"hit": [1, 2], "wound": [1]}, plunging_fire=True)
    assert_counts(r, hits=1)


def test_an_unmodified_six_is_a_critical_hit_even_when_skill_is_worse_than_six() -> None:
    # R05.01-c: BS 6+ worsened by cover to 7+, dice [5, 6] -> 1 critical hit
    r = attack("Gun A2 BS6+ S1 AP0 D1", BIG, {"hit": [5, 6], "wound": [1]}, cover=True)
    assert_counts(r, hits=1, critical_hits=1)


def test_a_hit_roll_modified_to_six_is_not_critical() -> None:
    # R05.01-d: [HEAVY] +1, BS 4+, dice [3, 5] -> 2 hits, 0 critical
    r = attack("Cannon A2 BS4+ S1 AP0 D1 [HEAVY]", BIG, {"hit": [3, 5], "wound": [1, 1]},
               remained_stationary=True)
    assert_counts(r, hits=2, critical_hits=0)


def test_a_minus_one_hit_modifier_turns_a_success_into_a_failure() -> None:
    # R05.01-e: shooting an engaged VEHICLE (-1), BS 3+, dice [3, 6] -> 1 critical hit only
    r = attack("Gun A2 BS3+ S1 AP0 D1", "Tank T20 Sv- W30 VEHICLE", {"hit": [3, 6], "wound": [1]},
               target_engaged=True)
    assert_counts(r, hits=1, critical_hits=1)


def test_hit_modifiers_are_not_capped_in_eleventh_edition() -> None:
    # R05.01-f / X002-n: a MONSTER in close-quarters shooting fires a non-[CLOSE-QUARTERS]
    # weapon at the engaged VEHICLE: -1 (10.06) and -1 (17.03) = -2. BS 3+ with [4, 5, 6]:
    # 4-2=2 fails, 5-2=3 hits, 6 is critical -> 2 hits
    dice = {"hit": [4, 5, 6], "wound": [1, 1]}
    r = attack("Cannon A3 BS3+ S1 AP0 D1", "Tank T20 Sv- W30 VEHICLE", dice,
               target_engaged=True, close_quarters_monster=True)
    assert_counts(r, hits=2)


def test_the_legacy_plus_minus_one_cap_is_a_ruleset_switch() -> None:
    # R05.01-f / X002-n / X004-a: under the legacy cap the -2 becomes -1 -> 3 hits
    dice = {"hit": [4, 5, 6], "wound": [1, 1, 1]}
    r = attack("Cannon A3 BS3+ S1 AP0 D1", "Tank T20 Sv- W30 VEHICLE", dice,
               target_engaged=True, close_quarters_monster=True,
               ruleset=Ruleset(hit_modifier_cap=1))
    assert_counts(r, hits=3)


def test_melee_attacks_compare_the_hit_roll_with_ws_one_die_per_attack() -> None:
    # X002-q/r, R02.04-a: a melee weapon's WS 4+ decides; one hit die per attack (A3 -> 3)
    src = RecordingDice({"hit": [4, 3, 6], "wound": [1, 1]})
    r = attack("Choppa Melee A3 WS4+ S4 AP-1 D1", BIG, source=src)
    assert_counts(r, hits=2, critical_hits=1)
    assert src.log.count("hit") == 3


def test_a_random_attacks_characteristic_is_rolled_per_weapon() -> None:
    # R02.04-b: two weapons with A D6 rolling [2] and [5] -> 7 attack dice in one pool
    r = attack("2x Launcher AD6 BS4+ S4 AP0 D1", BIG, {"attacks": [2, 5], "hit": [1] * 7})
    assert r.pools[0].attacks == 7


# --- 05.02 Wound rolls -----------------------------------------------------------------------


@pytest.mark.parametrize(("s", "t", "need"), [
    (8, 4, 2), (10, 5, 2),                      # R05.02-a
    (11, 6, 3), (4, 3, 3),                      # R05.02-b
    (4, 4, 4),                                  # R05.02-c
    (3, 5, 5), (4, 5, 5),                       # R05.02-d
    (2, 4, 6), (3, 6, 6), (3, 7, 6),            # R05.02-e
])
def test_the_wound_roll_needed_compares_strength_and_toughness(s: int, t: int, need: int) -> None:
    # R05.02-a..e
    assert wound_threshold(s, t) == need


@pytest.mark.parametrize(("s", "t", "faces", "wounds"), [
    (8, 4, [2], 1),        # R05.02-a
    (4, 3, [2, 3], 1),     # R05.02-b
    (4, 4, [3, 4], 1),     # R05.02-c
    (4, 5, [4, 5], 1),     # R05.02-d
    (3, 6, [5, 6], 1),     # R05.02-e
])
def test_wound_rolls_meet_the_required_result(s: int, t: int, faces: list[int],
                                              wounds: int) -> None:
    r = attack(f"Gun A{len(faces)} BS2+ S{s} AP0 D1", f"Brute T{t} Sv- W30",
               {"hit": [6] * len(faces), "wound": faces, "save": [6] * wounds})
    assert_counts(r, wounds=wounds)


def test_an_unmodified_one_fails_and_a_six_is_critical_whatever_s_and_t() -> None:
    # R05.02-f: S12 vs T3 with [1] -> fail; S1 vs T12 with [6] -> critical wound
    r = attack("Gun A1 BS3+ S12 AP0 D1", "Grot T3 Sv- W30", {"hit": [3], "wound": [1]})
    assert_counts(r, wounds=0)
    r = attack("Gun A1 BS3+ S1 AP0 D1", "Knight T12 Sv- W30", {"hit": [3], "wound": [6],
               "save": [6]})
    assert_counts(r, wounds=1, critical_wounds=1)


def test_a_wound_roll_modified_to_six_is_not_critical() -> None:
    # R05.02-g: [LANCE] after charging, S4 vs T4, dice [3, 5] -> 2 wounds, 0 critical
    r = attack("Lance A2 WS3+ S4 AP0 D1 Melee [LANCE]", BIG.replace("T20", "T4"),
               {"hit": [3, 3], "wound": [3, 5], "save": [6, 6]}, charged=True)
    assert_counts(r, wounds=2, critical_wounds=0)


# --- 05.03 Save rolls: groups and allocation order -------------------------------------------


def test_groups_share_characteristics_not_remaining_wounds() -> None:
    # R05.03-a: Captain + 4 Intercessors (one wounded) + a Sergeant with the same profile
    unit = models("Captain T4 Sv3+ InSv4+ W5 CHARACTER; 3x Intercessor T4 Sv3+ W2; "
                  "Intercessor 4 T4 Sv3+ W2 lost=1; Sergeant T4 Sv3+ W2")
    groups = make_groups(unit)
    assert [(g.character, len(g.members)) for g in groups] == [(True, 1), (False, 5)]


def _order_by_names(*firsts: str) -> object:
    """A defender who wants the groups whose first model name starts with these, in order."""

    def pick(req: DecisionRequest) -> object:
        default = list(req.default)  # type: ignore[call-overload]

        def rank(i: int) -> tuple[int, int]:
            names = req.groups[i]
            named = next((k for k, f in enumerate(firsts) if names[0].startswith(f)), 99)
            return (named, default.index(i))

        return tuple(sorted(range(len(req.groups)), key=rank))

    return pick


SISTERS = ("Celestine T3 Sv2+ InSv4+ W6 CHARACTER leader; 2x Gemina T3 Sv2+ InSv4+ W1 leader; "
           "5x Seraphim T3 Sv3+ InSv5+ W1")


def test_a_wounded_non_character_group_must_be_first() -> None:
    # R05.03-b: unwounded Terminators and Seraphim with a wounded model -> Seraphim first
    target = ("2x Terminator T5 Sv2+ InSv4+ W3; Seraphim T3 Sv3+ InSv5+ W2 lost=1; "
              "2x Seraphim T3 Sv3+ InSv5+ W2; 2x Scout T4 Sv4+ W1")
    d = Decisions()
    r = attack("Gun A1 BS3+ S8 AP0 D1", target, {"hit": [3], "wound": [3], "save": [1]},
               decider=d)
    assert_destroyed(r, "Seraphim")
    assert all(o[0] == 1 for o in d.asked[0].options)  # type: ignore[index]
    with pytest.raises(IllegalChoice) as exc:
        attack("Gun A1 BS3+ S8 AP0 D1", target, {"hit": [3], "wound": [3], "save": [1]},
               decider=Decisions({DecisionKind.ALLOCATION_ORDER: (0, 1, 2)}), exact_dice=False)
    assert exc.value.rule == "R05.03-b"


def test_no_character_group_may_come_before_a_non_character_group() -> None:
    # R05.03-c: [Celestine, Geminae, Seraphim] -> rejected; Celestine must be last
    d = Decisions({DecisionKind.ALLOCATION_ORDER: _order_by_names("Celestine", "Gemina")})
    with pytest.raises(IllegalChoice) as exc:
        attack("Gun A1 BS3+ S8 AP0 D1", SISTERS, {"hit": [3], "wound": [3], "save": [1]},
               decider=d, exact_dice=False)
    assert exc.value.rule == "R05.03-c"
    groups = make_groups(models(SISTERS))
    assert all(o[-1] == 0 for o in d.asked[0].options)  # every legal order ends with her
    assert order_violation(groups, (0, 1, 2), models(SISTERS))[0] == "R05.03-c"  # type: ignore[index]


def test_wounded_character_groups_come_before_unwounded_ones() -> None:
    # R05.03-d: C1 unwounded, C2 wounded -> the order ends [.., C2, C1]
    unit = models("3x Guard T3 Sv5+ W1; C1 T4 Sv3+ W4 CHARACTER; C2 T4 Sv3+ W4 lost=1 CHARACTER")
    groups = make_groups(unit)
    assert [groups[i].label(unit) for i in default_order(groups, unit)] == [
        "Guard 1 (+2)", "C2", "C1"]
    violation = order_violation(groups, (0, 1, 2), unit)
    assert violation is not None and violation[0] == "R05.03-d"


def test_within_the_constraints_the_defender_orders_groups_freely() -> None:
    # R05.03-e (Example 2): Geminae before Seraphim or Seraphim before Geminae are both legal
    for first, dead in (("Gemina", "Gemina 1"), ("Seraphim", "Seraphim 1")):
        d = Decisions({DecisionKind.ALLOCATION_ORDER: _order_by_names(first)})
        r = attack("Gun A1 BS3+ S8 AP0 D1", SISTERS, {"hit": [3], "wound": [3], "save": [1]},
                   decider=d)
        assert_destroyed(r, dead)
        assert d.asked[0].player == "defender" and d.asked[0].rule == "R05.03-e"


def test_all_save_rolls_are_made_before_any_damage_is_allocated() -> None:
    # R05.03-f: 5 wounds -> 5 save dice drawn in one batch, then the damage rolls
    src = RecordingDice({"hit": [3] * 5, "wound": [3] * 5, "save": [1, 1, 6, 6, 6],
                         "damage": [2, 2]})
    attack("Gun A5 BS3+ S8 AP0 DD3", "5x Ork T4 Sv5+ W3", source=src)
    assert src.log[-7:] == ["save"] * 5 + ["damage"] * 2


def test_the_next_group_becomes_current_when_the_current_one_is_destroyed() -> None:
    # R05.03-g (Example 2): both Geminae die, then the Seraphim group is current
    d = Decisions({DecisionKind.ALLOCATION_ORDER: _order_by_names("Gemina")})
    r = attack("Gun A3 BS3+ S8 AP0 D1", SISTERS, {"hit": [3] * 3, "wound": [3] * 3,
               "save": [1, 1, 1]}, decider=d)
    assert_destroyed(r, "Gemina 1", "Gemina 2", "Seraphim 1")


def test_groups_and_order_are_made_again_for_each_pool() -> None:
    # R05.03-h: pool 1 (Seraphim first) wounds a W2 Seraphim; for pool 2 the defender wants the
    # Geminae first, but the now wounded Seraphim group must lead
    target = ("Celestine T3 Sv2+ InSv4+ W6 CHARACTER leader; 2x Gemina T3 Sv2+ InSv4+ W1 leader;"
              " 5x Seraphim T3 Sv3+ InSv5+ W2; 2x Scout T3 Sv4+ W1")
    weapons = ["Pistol A1 BS3+ S4 AP0 D1", "Rifle A1 BS3+ S5 AP0 D1"]
    dice = {"hit": [3, 3], "wound": [3, 3], "save": [1, 1]}

    def seraphim_then_geminae(req: DecisionRequest) -> object:
        pool = sum(1 for q in d.asked if q.kind is DecisionKind.ALLOCATION_ORDER)
        first = "Seraphim" if pool == 1 else "Gemina"
        return _order_by_names(first)(req)  # type: ignore[operator]

    d = Decisions({DecisionKind.ALLOCATION_ORDER: seraphim_then_geminae})
    with pytest.raises(IllegalChoice) as exc:
        attack(weapons, target, dice, exact_dice=False, decider=d)
    assert exc.value.rule == "R05.03-b"
    # every legal order for pool 2 starts with the wounded Seraphim group
    d = Decisions({DecisionKind.ALLOCATION_ORDER: _order_by_names("Seraphim")})
    r = attack(weapons, target, dice, decider=d)
    second = [q for q in d.asked if q.kind is DecisionKind.ALLOCATION_ORDER][1]
    assert len(second.options) > 1
    assert all(second.groups[o[0]][0].startswith("Seraphim")  # type: ignore[index]
               for o in second.options)
    assert_destroyed(r, "Seraphim 1")


# --- 05.04 Inflict damage --------------------------------------------------------------------


def test_save_results_are_resolved_from_lowest_to_highest() -> None:
    # R05.04-a: saves [3, 1]: the 1 kills the Gemina first; the 3 then fails against the
    # Seraphim (3-1=2 < 3+). In rolled order the 3 would be saved by the Gemina (2 >= 2+).
    d = Decisions({DecisionKind.ALLOCATION_ORDER: _order_by_names("Gemina")})
    r = attack("Gun A2 BS3+ S4 AP-1 D1", "Gemina T3 Sv2+ InSv4+ W1; 3x Seraphim T3 Sv3+ "
               "InSv5+ W1", {"hit": [3, 3], "wound": [4, 4], "save": [3, 1]}, decider=d)
    assert_destroyed(r, "Gemina", "Seraphim 1")
    saves = [e.text.split(" vs")[0] for e in r.events if re.match(r"save \d", e.text)]
    assert saves == ["save 1", "save 3"]


def test_saves_5_1_3_are_processed_1_3_5() -> None:
    # R05.04-a: the checklist's ordering case
    r = attack("Gun A3 BS3+ S8 AP0 D1", "5x Boy T4 Sv4+ W1", {"hit": [3] * 3, "wound": [3] * 3,
               "save": [5, 1, 3]})
    saves = [e.text.split(" vs")[0] for e in r.events if re.match(r"save \d", e.text)]
    assert saves == ["save 1", "save 3", "save 5"]


def test_a_save_is_allocated_to_a_wounded_model_of_the_group_first() -> None:
    # R05.04-b: three W2 models, #2 has 1 wound left -> the first failed save hits #2
    r = attack("Gun A1 BS3+ S8 AP0 D1", "Marine 1 T4 Sv3+ W2; Marine 2 T4 Sv3+ W2 lost=1; "
               "Marine 3 T4 Sv3+ W2", {"hit": [3], "wound": [3], "save": [1]})
    assert_destroyed(r, "Marine 2")
    assert_wounds_lost(r, {"Marine 1": 0, "Marine 3": 0})


def test_an_unmodified_save_of_one_always_inflicts_damage() -> None:
    # R05.04-c: Sv 2+ (and InSv 2+), AP 0, roll 1 -> damage
    r = attack("Gun A1 BS3+ S8 AP0 D1", "Custodian T6 Sv2+ InSv2+ W3",
               {"hit": [3], "wound": [3], "save": [1]})
    assert_counts(r, unsaved=1, wounds_lost=1)


def test_the_invulnerable_save_ignores_ap() -> None:
    # R05.04-d: InSv 4+, Sv 3+, AP -3: rolls [4, 5] saved by the InSv; [3] -> damage
    r = attack("Melta A3 BS3+ S8 AP-3 D1", "3x Terminator T5 Sv3+ InSv4+ W3",
               {"hit": [3] * 3, "wound": [3] * 3, "save": [4, 5, 3]})
    assert_counts(r, unsaved=1, wounds_lost=1)


def test_the_armour_save_applies_ap_first() -> None:
    # R05.04-e: Sv 3+, AP -1: a 3 becomes 2 -> damage; a 4 becomes 3 -> saved
    r = attack("Gun A2 BS3+ S8 AP-1 D1", "Marine T4 Sv3+ W5",
               {"hit": [3, 3], "wound": [3, 3], "save": [3, 4]})
    assert_counts(r, unsaved=1, wounds_lost=1)


def test_excess_damage_from_one_attack_is_lost() -> None:
    # R05.04-f: a D3 attack rolling 3 on a W1 model destroys it; 2 damage is wasted
    r = attack("Gun A1 BS3+ S8 AP0 DD3", "3x Guard T3 Sv5+ W1",
               {"hit": [3], "wound": [3], "save": [1], "damage": [6]})
    assert_counts(r, wounds_lost=1, models_destroyed=1)
    # R02.02-b: a W2 model with 1 wound left taking D3 is destroyed
    r = attack("Gun A1 BS3+ S8 AP0 D3", "Marine T4 Sv3+ W2 lost=1",
               {"hit": [3], "wound": [3], "save": [1]})
    assert_destroyed(r, "Marine")


def test_remaining_attacks_are_lost_once_the_unit_is_destroyed() -> None:
    # R05.04-g: a 2-model unit takes 5 failed saves: it dies after 2, 3 attacks are lost,
    # and no damage is rolled for them
    r = attack("Gun A5 BS3+ S8 AP0 DD3", "2x Guard T3 Sv5+ W1",
               {"hit": [3] * 5, "wound": [3] * 5, "save": [1] * 5, "damage": [1, 1]})
    assert_counts(r, wounds_lost=2, models_destroyed=2)


def test_one_save_result_can_succeed_against_one_group_and_fail_against_the_next() -> None:
    # R05.04-h: Gemina (W1 Sv2+ InSv4+) then Seraphim (Sv3+ InSv5+), AP -1, saves [1, 3, 4]:
    # 1 kills the Gemina; 3 vs Seraphim: 2 < 3 and 3 < 5 -> damage; 4 -> 3 >= 3 saved
    d = Decisions({DecisionKind.ALLOCATION_ORDER: _order_by_names("Gemina")})
    target = "Gemina T3 Sv2+ InSv4+ W1; 3x Seraphim T3 Sv3+ InSv5+ W1"
    r = attack("Gun A3 BS3+ S4 AP-1 D1", target, {"hit": [3] * 3, "wound": [4] * 3,
               "save": [1, 3, 4]}, decider=d)
    assert_destroyed(r, "Gemina", "Seraphim 1")
    # the same 3 is saved by a Gemina (3-1=2 >= 2+)
    r = attack("Gun A1 BS3+ S4 AP-1 D1", target, {"hit": [3], "wound": [4], "save": [3]},
               decider=d)
    assert_counts(r, unsaved=0)


def test_the_save_uses_the_characteristics_of_the_group_receiving_the_attack() -> None:
    # R05.04-i: a mixed-Sv unit: the Sv 5+ group is first, so a 3 fails against it although
    # the Sv 2+ model would have saved it
    r = attack("Gun A1 BS3+ S8 AP0 D1", "3x Guard T3 Sv5+ W1; Veteran T3 Sv2+ W1",
               {"hit": [3], "wound": [3], "save": [3]})
    assert_destroyed(r, "Guard 1")


# --- 05.05 Worked examples -------------------------------------------------------------------


def test_example_1_boltguns_and_pistol_then_heavy_bolter() -> None:
    # R05.05-a: pool 1 hits [3,4,5,6,2] -> 4; wounds (3+) [3,4,2,6] -> 3; saves [2,4,5]: the 2
    # destroys a model, the 4 is saved by Sv 3+, the 5 by InSv 5+. Pool 2 hits [4,5,1] -> 2;
    # wounds [3,6] -> 2; saves [3,5]: 3-1=2 destroys a model, the 5 is saved by InSv.
    r = attack(['2x Boltgun 24" A2 BS3+ S4 AP0 D1', 'Bolt pistol 12" A1 BS3+ S4 AP0 D1',
                'Heavy bolter 36" A3 BS4+ S5 AP-1 D2'], "5x Blue T3 Sv3+ InSv5+ W1",
               {"hit": [3, 4, 5, 6, 2, 4, 5, 1], "wound": [3, 4, 2, 6, 3, 6],
                "save": [2, 4, 5, 3, 5]})
    p1, p2 = r.pools
    assert (p1.attacks, p1.hits, p1.wounds, p1.unsaved, p1.models_destroyed) == (5, 4, 3, 1, 1)
    assert (p2.attacks, p2.hits, p2.wounds, p2.unsaved, p2.models_destroyed) == (3, 2, 2, 1, 1)
    assert_counts(r, models_destroyed=2)


def test_example_2_is_resolved_by_the_rule_lowest_save_first() -> None:
    # R05.05-b [DATA]: saves [1,1,2,2,3] vs Geminae (W1) then Seraphim (Sv3+ InSv5+), AP -1:
    # the 1s kill both Geminae; 2, 2 and 3 (modified 1, 1, 2) each kill a Seraphim
    d = Decisions({DecisionKind.ALLOCATION_ORDER: _order_by_names("Gemina", "Seraphim")})
    r = attack('2x Heavy bolter 36" A3 BS4+ S5 AP-1 D2', SISTERS,
               {"hit": [4, 5, 6, 4, 5, 1], "wound": [3, 3, 3, 3, 3], "save": [1, 1, 2, 2, 3]},
               decider=d)
    assert_destroyed(r, "Gemina 1", "Gemina 2", "Seraphim 1", "Seraphim 2", "Seraphim 3")
    assert_wounds_lost(r, {"Celestine": 0})
