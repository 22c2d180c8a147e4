"""04.03 Resolve Attacks: gathering identical attacks into pools, pool order, lost attacks."""

from __future__ import annotations

from dataclasses import replace

from tests.builders import RecordingDice, assert_counts, attack, weapon

BOLTGUN = '2x Boltgun 24" A2 BS3+ S4 AP0 D1'
PISTOL = 'Bolt pistol 12" A1 BS3+ S4 AP0 D1'
HEAVY_BOLTER = 'Heavy bolter 36" A3 BS4+ S5 AP-1 D2'
BLUE = "5x Blue T3 Sv3+ InSv5+ W1"


def test_identical_attacks_of_different_weapons_form_one_pool() -> None:
    # R04.03-b / R05.05-a: 2 boltguns (A2) and a bolt pistol (A1) -> one pool of 5 dice
    r = attack([BOLTGUN, PISTOL], BLUE, {"hit": [1] * 5})
    assert [(p.name, p.attacks) for p in r.pools] == [("Boltgun", 5)]


def test_weapons_with_different_characteristics_form_separate_pools() -> None:
    # R04.03-b/c: the heavy bolter (BS4+ S5 AP-1 D2) is a pool of its own
    r = attack([BOLTGUN, PISTOL, HEAVY_BOLTER], BLUE, {"hit": [1] * 8})
    assert [(p.name, p.attacks) for p in r.pools] == [("Boltgun", 5), ("Heavy bolter", 3)]


def test_a_different_ability_makes_attacks_not_identical() -> None:
    # R04.03-c: a boltgun with [SUSTAINED HITS 1] and a plain boltgun -> two pools
    r = attack(['Boltgun 24" A2 BS3+ S4 AP0 D1 [SUSTAINED HITS 1]',
                'Boltgun 24" A2 BS3+ S4 AP0 D1'], BLUE, {"hit": [1] * 4})
    assert [p.attacks for p in r.pools] == [2, 2]


def test_an_identical_weapon_listed_later_joins_the_first_pool() -> None:
    # R04.03-b: "if other weapons make identical attacks ... gather those dice as well"
    r = attack([BOLTGUN, HEAVY_BOLTER, PISTOL], BLUE, {"hit": [1] * 8})
    assert [(p.name, p.attacks) for p in r.pools] == [("Boltgun", 5), ("Heavy bolter", 3)]


def test_the_attacker_chooses_the_order_of_the_pools() -> None:
    # R04.03-d (Example 2): heavy bolters (6 dice) first, then boltguns (14), plasma pistol (1)
    weapons = ['2x Heavy bolter 36" A3 BS4+ S5 AP-1 D2', '7x Boltgun 24" A2 BS3+ S4 AP0 D1',
               'Plasma pistol 12" A1 BS3+ S8 AP-3 D2 [PISTOL]']
    src = RecordingDice({"hit": [1] * 21})
    r = attack(weapons, "10x Seraphim T3 Sv3+ InSv5+ W1", source=src)
    assert [(p.name, p.attacks) for p in r.pools] == [
        ("Heavy bolter", 6), ("Boltgun", 14), ("Plasma pistol", 1)]


def test_each_pool_is_fully_resolved_before_the_next_is_gathered() -> None:
    # R04.03-a/f, R05-a: pool 1's hit, wound and save dice all come before pool 2's
    src = RecordingDice({"hit": [3, 4, 1, 1], "wound": [4, 4], "save": [6, 6]})
    attack([PISTOL, HEAVY_BOLTER], "5x Target T4 Sv3+ W3", source=src)
    assert src.log == ["hit", "wound", "save", "hit", "hit", "hit", "wound", "save"]


def test_attacks_are_lost_once_the_target_unit_is_destroyed() -> None:
    # R05.04-g / 04.03: the first pool destroys the unit; the second gathers no dice
    r = attack([BOLTGUN, HEAVY_BOLTER], "2x Grot T2 Sv- W1",
               {"hit": [3, 3, 1, 1], "wound": [3, 3], "save": [1, 1]})
    assert len(r.pools) == 1
    assert_counts(r, models_destroyed=2, wounds_lost=2)


def test_a_weapon_entry_with_no_models_makes_no_attacks() -> None:
    # R04.02-e: a weapon that makes no attacks gathers 0 dice
    r = attack([replace(weapon(BOLTGUN), count=0), HEAVY_BOLTER], BLUE, {"hit": [1, 1, 1]})
    assert [p.name for p in r.pools] == ["Heavy bolter"]
