"""Known answers of the exact distributions, worked out by hand in each test's comment."""

from __future__ import annotations

from math import comb, isclose

import pytest

import w40k.math.exact as exact_mod
from tests.math.math_helpers import models, weapon
from w40k.math import TooLarge, build_setup, distribution, exact_distribution
from w40k.math.api import clear_caches
from w40k.rules.attack_profile import AttackContext, WeaponEntry
from w40k.rules.primitives import ModelState

TOL = 1e-12


def close(a: float, b: float) -> bool:
    return isclose(a, b, rel_tol=TOL, abs_tol=TOL)


def test_case_a_destroys_five_thirds_of_a_model_on_average() -> None:
    # 10 attacks BS3+ (4/6 hit, R05.01-a), S4 vs T4 (4+: 3/6, R05.02-c), AP-1 vs Sv3+
    # (faces 1-3 fail, 3/6, R05.04-e), D1 vs W1: each attack destroys a model with chance
    # 1/6 independently, so the law is Binomial(10, 1/6) and the mean 10*(4/6)(3/6)(3/6) = 5/3.
    r = exact_distribution(
        build_setup([WeaponEntry(weapon(AP=-1), 10)], models(10, W=1, T=4, Sv=3))
    )
    assert r.method == "exact"
    assert close(r.mean_models_destroyed, 5 / 3)
    for k in range(11):
        assert close(r.models_destroyed.pmf[k], comb(10, k) * (1 / 6) ** k * (5 / 6) ** (10 - k))
    assert r.expected_damage_wasted == 0.0


def test_excess_damage_of_one_attack_is_lost_not_spilled() -> None:
    # R05.04-f: 1 [TORRENT] attack, S8 vs T4 wounds on 2+ (5/6), no save (Sv 7), D3 against
    # two W1 models: it destroys exactly one model with chance 5/6 and never two; the damage
    # wasted is 5/6 * E[D3 - 1] = 5/6 * (0 + 1 + 2)/3 = 5/6.
    r = exact_distribution(
        build_setup(
            [WeaponEntry(weapon(S=8, D="D3", abilities=["TORRENT"]), 1)], models(2, W=1, Sv=7)
        )
    )
    assert close(r.models_destroyed.pmf[0], 1 / 6)
    assert close(r.models_destroyed.pmf[1], 5 / 6)
    assert len(r.models_destroyed.pmf) == 2
    assert close(r.expected_damage_wasted, 5 / 6)


def test_devastating_wounds_damage_one_model_per_critical_wound() -> None:
    # R24.10-b: 1 [TORRENT] attack, [ANTI-INFANTRY 2+] makes faces 2-6 critical (5/6),
    # [DEVASTATING WOUNDS] D3 mortal wounds on W2 Intercessors: 1 MW (1/3) wounds one; 2 or 3
    # (2/3) destroy one and with 3 the last MW is lost. Destroyed: 0 w.p. 1/6 + 5/18 = 4/9,
    # 1 w.p. 5/9, never 2. Wounds lost {0: 1/6, 1: 5/18, 2: 5/9}; wasted 5/6 * 1/3 = 5/18.
    w = weapon(D="D3", abilities=["TORRENT", "ANTI-INFANTRY 2+", "DEVASTATING WOUNDS"])
    target = models(3, "Intercessor", W=2, Sv=3, keywords=("INFANTRY",))
    r = exact_distribution(build_setup([WeaponEntry(w, 1)], target))
    assert close(r.models_destroyed.pmf[0], 4 / 9)
    assert close(r.models_destroyed.pmf[1], 5 / 9)
    assert len(r.models_destroyed.pmf) == 2
    assert close(r.wounds_lost.pmf[0], 1 / 6)
    assert close(r.wounds_lost.pmf[1], 5 / 18)
    assert close(r.wounds_lost.pmf[2], 5 / 9)
    assert close(r.expected_damage_wasted, 5 / 18)


def test_devastating_mortal_wounds_go_to_the_wounded_model_first_and_stop_there() -> None:
    # R24.10-b with R06.02-a: one Intercessor already on 1 wound takes the first MW and dies;
    # the rest of that critical wound's MWs are lost: 1 destroyed w.p. 5/6, wasted
    # 5/6 * E[D3 - 1] = 5/6.
    w = weapon(D="D3", abilities=["TORRENT", "ANTI-INFANTRY 2+", "DEVASTATING WOUNDS"])
    target = list(models(3, "Intercessor", W=2, Sv=3, keywords=("INFANTRY",)))
    target[2] = target[2].losing(1)
    r = exact_distribution(build_setup([WeaponEntry(w, 1)], target))
    assert close(r.models_destroyed.pmf[1], 5 / 6)
    assert close(r.wounds_lost.pmf[1], 5 / 6)
    assert close(r.expected_damage_wasted, 5 / 6)


def test_saves_are_resolved_lowest_first_against_the_current_group() -> None:
    # R05.04-a/h (Example 2 groups): 1 Gemina (W1, Sv2+, InSv4+) first, then 2 Seraphim (W1,
    # Sv3+, InSv5+); 2 [TORRENT] attacks, S8 vs T3 wound on 2+, AP-1. A save inflicts damage
    # on the Gemina on 1-2, on a Seraphim on 1-3.
    # Two wounds (25/36), saves s1 <= s2: s1 <= 2 kills the Gemina (20/36); then s2 vs the
    # Seraphim kills if s2 <= 3: P(min <= 2, max <= 3) = 9/36 - 1/36 = 8/36. If s1 >= 3 both
    # are saved by the Gemina. One wound (10/36): kills w.p. 2/6.
    # P(2) = 25/36 * 8/36 = 200/1296; P(1) = 25/36 * 12/36 + 10/36 * 2/6 = 420/1296;
    # mean = 820/1296. (The same 3 is saved by a Gemina but not by a Seraphim.)
    target = (
        ModelState("Gemina", W=1, T=3, Sv=2, InSv=4),
        *models(2, "Seraphim", W=1, T=3, Sv=3, InSv=5),
    )
    w = weapon(A=2, S=8, AP=-1, abilities=["TORRENT"])
    r = exact_distribution(build_setup([WeaponEntry(w, 1)], target))
    assert close(r.models_destroyed.pmf[2], 200 / 1296)
    assert close(r.models_destroyed.pmf[1], 420 / 1296)
    assert close(r.mean_models_destroyed, 820 / 1296)
    gemina, seraphim = r.groups
    assert close(gemina.models_destroyed.pmf[1], 25 / 36 * 20 / 36 + 10 / 36 * 2 / 6)
    assert close(seraphim.models_destroyed.pmf[1], 200 / 1296)


def test_feel_no_pain_is_rolled_for_each_wound() -> None:
    # R24.12-a: 1 [TORRENT] attack, 2+ to wound, no save, D3 on a W10 model with FNP 5+: each
    # of the D wounds is lost w.p. 2/3, so E[wounds lost] = 5/6 * 2 * 2/3 = 10/9.
    r = exact_distribution(
        build_setup(
            [WeaponEntry(weapon(S=8, D="D3", abilities=["TORRENT"]), 1)],
            [ModelState("Big", W=10, Sv=7, fnp=5)],
        )
    )
    assert close(r.mean_wounds_lost, 10 / 9)
    # 3 wounds lost needs D3 = 3 and three failed FNP rolls: 5/6 * 1/3 * (2/3)^3.
    assert close(r.wounds_lost.pmf[3], 5 / 6 * 1 / 3 * (2 / 3) ** 3)


def test_precision_makes_a_visible_character_the_current_group() -> None:
    # R24.28-a: 1 [TORRENT] [PRECISION] attack, 2+ to wound, no save, D1, vs 3 bodyguards and
    # a W1 CHARACTER: the character dies w.p. 5/6; without [PRECISION] (R05.03-c, CHARACTER
    # groups last) or when it is not visible (R24.28-b), never.
    boss = ModelState("Boss", W=1, Sv=7, keywords=("CHARACTER",), leader=True)
    target = (boss, *models(3, W=1, Sv=7))
    for abilities, visible, expected in (
        (["PRECISION"], True, 5 / 6),
        ([], True, 0.0),
        (["PRECISION"], False, 0.0),
    ):
        w = weapon(S=8, abilities=["TORRENT", *abilities])
        tgt = (
            ModelState("Boss", W=1, Sv=7, keywords=("CHARACTER",), leader=True, visible=visible),
            *target[1:],
        )
        r = exact_distribution(build_setup([WeaponEntry(w, 1)], tgt))
        boss_group = next(g for g in r.groups if g.character)
        assert close(boss_group.models_destroyed.p_at_least(1), expected)


def test_hazard_rolls_wound_the_attacker_after_the_attacks() -> None:
    # R06.03-a/b, R24.15-a: 3 [HAZARDOUS] weapons: each hazard roll fails on 1-2 (1/3). Three
    # W1 INFANTRY attackers lose Binomial(3, 1/3) wounds; a lone VEHICLE takes 3 MW per fail.
    w = weapon(abilities=["HAZARDOUS"])
    target = models(5, W=1, Sv=3)
    infantry = models(3, "a", W=1, keywords=("INFANTRY",))
    r = exact_distribution(build_setup([WeaponEntry(w, 3)], target, attacker=infantry))
    for k in range(4):
        assert close(r.attacker_wounds_lost.pmf[k], comb(3, k) * (1 / 3) ** k * (2 / 3) ** (3 - k))
    tank = [ModelState("Tank", W=12, keywords=("VEHICLE",))]
    r = exact_distribution(build_setup([WeaponEntry(w, 3)], target, attacker=tank))
    for k in range(4):
        assert close(
            r.attacker_wounds_lost.pmf[3 * k], comb(3, k) * (1 / 3) ** k * (2 / 3) ** (3 - k)
        )


def test_lethal_hits_auto_wound_is_not_a_critical_wound() -> None:
    # R24.23-a: skill 6+ so only a 6 hits, and it is critical; [LETHAL HITS] +
    # [DEVASTATING WOUNDS] D1 vs Sv2+ (only a 1 fails the save). Auto-wound (default): the
    # wound is saved on 2+, P(kill) = 1/6 * 1/6 = 1/36. Rolling instead: a 6 to wound is a
    # devastating critical (1/6) and a 4-5 (2/6) needs a failed save (1/6):
    # 1/6 * (1/6 + 2/6 * 1/6) = 1/27.
    w = weapon(skill=6, abilities=["LETHAL HITS", "DEVASTATING WOUNDS"])
    target = models(3, W=1, Sv=2)
    auto = exact_distribution(build_setup([WeaponEntry(w, 1)], target))
    rolled = exact_distribution(
        build_setup([WeaponEntry(w, 1)], target, AttackContext(lethal_hits_auto=False))
    )
    assert close(auto.mean_models_destroyed, 1 / 36)
    assert close(rolled.mean_models_destroyed, 1 / 27)


def test_sustained_hits_add_hits_on_a_critical_hit() -> None:
    # R24.36-a: skill 6+, [SUSTAINED HITS 2]: a 6 (1/6) gives 3 hits, each wounding on 2+
    # (5/6), no save, D1, W1 models: P(3 destroyed) = 1/6 * (5/6)^3.
    w = weapon(skill=6, S=8, abilities=["SUSTAINED HITS 2"])
    r = exact_distribution(build_setup([WeaponEntry(w, 1)], models(5, W=1, Sv=7)))
    assert close(r.models_destroyed.pmf[3], (1 / 6) * (5 / 6) ** 3)


def test_twin_linked_rerolls_a_failed_wound_roll() -> None:
    # R24.38-a: 1 [TORRENT] attack S4 vs T4 (4+): fails only if both rolls fail, 1 - 1/4.
    w = weapon(abilities=["TORRENT", "TWIN-LINKED"])
    r = exact_distribution(build_setup([WeaponEntry(w, 1)], models(2, W=1, Sv=7)))
    assert close(r.mean_models_destroyed, 3 / 4)


def test_a_second_pool_finds_the_model_the_first_one_wounded() -> None:
    # R05.03-h, R05.04-b: pool 1 (1 [TORRENT] attack, 2+ to wound, D1, no save) wounds one of
    # two W2 models w.p. 5/6; pool 2 (same, but D1 [LANCE] so not identical) must hit that
    # wounded model: P(1 destroyed) = (5/6)^2 and never 2.
    a = weapon("a", S=8, abilities=["TORRENT"])
    b = weapon("b", S=8, abilities=["TORRENT", "LANCE"])
    r = exact_distribution(
        build_setup([WeaponEntry(a, 1), WeaponEntry(b, 1)], models(2, W=2, Sv=7))
    )
    assert close(r.models_destroyed.pmf[1], 25 / 36)
    assert len(r.models_destroyed.pmf) == 2


def test_identical_weapons_are_gathered_into_one_pool() -> None:
    # R04.03-b: 2 boltguns (A2) and a bolt pistol (A1) with the same profile form one pool of
    # 5 dice, as the per-die engine gathers them.
    gun = weapon("boltgun", A=2)
    pistol = weapon("bolt pistol", A=1)
    setup = build_setup([WeaponEntry(gun, 2), WeaponEntry(pistol, 1)], models(5, W=1, Sv=3))
    assert len(setup.pools) == 1
    assert sum(a.bonus * n for a, n in setup.gathered[0]) == 5


def test_the_exact_computation_says_so_and_falls_back_past_its_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # docs/math.md: over MAX_WORK the exact computation raises TooLarge; the API then
    # simulates and reports method "simulation" with the reason, never a silent approximation.
    clear_caches()
    monkeypatch.setattr(exact_mod, "MAX_WORK", 10)
    entries = [WeaponEntry(weapon(AP=-1), 10)]
    target = models(10, W=1, T=4, Sv=3)
    with pytest.raises(TooLarge):
        exact_distribution(build_setup(entries, target))
    r = distribution(entries, target, trials=20_000)
    assert r.method == "simulation"
    assert "too large" in r.reason
    assert abs(r.mean_models_destroyed - 5 / 3) < 6 * r.stderr_mean_models_destroyed
    clear_caches()
