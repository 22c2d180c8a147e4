"""19.02 Attacking attached units (toughness) and 19.03 keywords of attached units."""

from __future__ import annotations

from tests.builders import Decisions, assert_counts, assert_destroyed, attack, models
from w40k.rules.decisions import DecisionKind
from w40k.rules.primitives import attack_toughness

ATTACHED = "Captain T5 Sv3+ InSv4+ W5 CHARACTER leader; 3x Intercessor T4 Sv3+ W2"


def test_attacks_use_the_highest_bodyguard_toughness_even_against_the_leader() -> None:
    # R19.02-a: leader T5 with Intercessors T4, S5 -> wounds on 3+ (S > T4) ...
    assert attack_toughness(models(ATTACHED)) == 4
    r = attack("Rifle A1 BS3+ S5 AP0 D2", ATTACHED, {"hit": [3], "wound": [3], "save": [1]})
    assert_counts(r, wounds=1)
    # ... also when [PRECISION] puts the attack on the Captain
    r = attack("Rifle A1 BS3+ S5 AP0 D2 [PRECISION]", ATTACHED,
               {"hit": [3], "wound": [3], "save": [1]})
    assert_counts(r, wounds=1, wounds_lost=2)
    assert_destroyed(r)  # the Captain took it: 3 wounds left, nobody dead


def test_a_tougher_bodyguard_raises_the_units_toughness_for_the_leader() -> None:
    # R19.02-a: a T4 leader with a T6 bodyguard: S5 needs 5+ against the whole unit
    unit = "Warlock T4 Sv4+ W3 CHARACTER leader; 2x Guardian T6 Sv2+ W3"
    r = attack("Rifle A1 BS3+ S5 AP0 D1", unit, {"hit": [3], "wound": [4]})
    assert_counts(r, wounds=0)


def test_with_only_leader_models_left_their_highest_toughness_is_used() -> None:
    # R19.02-b: bodyguards all dead, leader T5, S5 -> 4+: a 3 fails, a 4 wounds
    unit = "Captain T5 Sv3+ W5 CHARACTER leader; 3x Intercessor T4 Sv3+ W2 lost=2"
    assert attack_toughness(models(unit)) == 5
    r = attack("Rifle A2 BS3+ S5 AP0 D1", unit, {"hit": [3, 3], "wound": [3, 4], "save": [1]})
    assert_counts(r, wounds=1)


def test_toughness_is_taken_again_when_the_last_bodyguard_dies_between_pools() -> None:
    # R19.02-a/b: pool 1 kills the last Intercessor; pool 2 (S5) then faces T5 and needs 4+
    unit = "Captain T5 Sv3+ W5 CHARACTER leader; Intercessor T4 Sv3+ W2"
    r = attack(["Melta A1 BS3+ S8 AP-4 D2", "Rifle A1 BS3+ S5 AP0 D1"], unit,
               {"hit": [3, 3], "wound": [3, 3], "save": [1]})
    assert_destroyed(r, "Intercessor")
    assert r.pools[1].wounds == 0


def test_anti_uses_the_keywords_of_the_whole_attached_unit() -> None:
    # R19.03-a: a PSYKER leader in a non-psyker squad, [ANTI-PSYKER 4+]: an unmodified 4 is a
    # critical wound although the attack is allocated to a bodyguard model
    unit = "Librarian T4 Sv3+ W4 PSYKER CHARACTER leader; 3x Intercessor T4 Sv3+ W2 INFANTRY"
    d = Decisions()
    r = attack("Hexgun A1 BS3+ S2 AP0 D1 [ANTI-PSYKER 4+] [DEVASTATING WOUNDS]", unit,
               {"hit": [3], "wound": [4]}, decider=d)
    assert_counts(r, critical_wounds=1, mortal_wounds=1)
    assert_destroyed(r)  # the mortal wound went to an Intercessor (06.02-a), not the Librarian
    assert r.target[1].wounds_lost == 1 and r.target[0].wounds_lost == 0
    assert DecisionKind.PRECISION not in d.kinds()


def test_a_destroyed_leader_no_longer_lends_its_keywords_to_the_unit() -> None:
    # R19.03-a / Appendix (mixed keywords, RA-Destroyed-c): with the PSYKER leader already
    # destroyed, [ANTI-PSYKER 4+] no longer makes a 4 critical (S2 vs T4 needs 6+)
    unit = "Librarian T4 Sv3+ W4 lost=4 PSYKER CHARACTER leader; 3x Intercessor T4 Sv3+ W2"
    r = attack("Hexgun A1 BS3+ S2 AP0 D1 [ANTI-PSYKER 4+]", unit, {"hit": [3], "wound": [4]})
    assert_counts(r, wounds=0, critical_wounds=0)


def test_keywords_are_fixed_when_the_pools_are_gathered() -> None:
    # R19.03-a with R19.04-b: the PSYKER leader dies to pool 1; pool 2 of the same attacking
    # unit still counts the unit as PSYKER (an unmodified 4 is critical)
    unit = "Librarian T4 Sv3+ W1 PSYKER CHARACTER leader; 3x Intercessor T4 Sv3+ W2"
    r = attack(["Sniper A1 BS3+ S8 AP0 D1 [PRECISION]",
                "Hexgun A1 BS3+ S2 AP0 D1 [ANTI-PSYKER 4+]"], unit,
               {"hit": [3, 3], "wound": [3, 4], "save": [1, 6]})
    assert_destroyed(r, "Librarian")
    assert r.pools[1].critical_wounds == 1
