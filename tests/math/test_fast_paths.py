"""The exact computation's fast paths agree with its general path (to float rounding).

Each fast path is compared with ``exact_distribution(setup, fast=False)`` on a seeded battery
of random attacks where it applies; a second battery checks that it declines where it does
not apply, and a mutation test shows that the comparison catches a wrong fast path."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from tests.math.math_helpers import models, weapon
from w40k.math import build_setup, exact_distribution
from w40k.math import exact as exact_mod
from w40k.math.api import clear_caches, distribution
from w40k.math.distributions import AttackDistribution, Dist
from w40k.math.exact import single_group_kills
from w40k.math.setup import AttackSetup
from w40k.rules.attack_profile import AttackContext, Reroll, WeaponEntry
from w40k.rules.primitives import ModelState

TOL = 1e-12
"""Largest difference allowed (absolute for probabilities, relative for the damage wasted)."""


def _dist_diff(a: Dist, b: Dist) -> float:
    n = max(len(a.pmf), len(b.pmf))
    pa = [*a.pmf, *[0.0] * (n - len(a.pmf))]
    pb = [*b.pmf, *[0.0] * (n - len(b.pmf))]
    return max(abs(x - y) for x, y in zip(pa, pb, strict=True))


def differences(a: AttackDistribution, b: AttackDistribution) -> list[str]:
    """Where two exact results differ by more than TOL (empty: they agree)."""
    out: list[str] = []
    for name in ("models_destroyed", "wounds_lost", "attacker_wounds_lost"):
        d = _dist_diff(getattr(a, name), getattr(b, name))
        if d > TOL:
            out.append(f"{name}: {d:.3g}")
    if _dist_diff(a.attacker_models_destroyed, b.attacker_models_destroyed) > TOL:
        out.append("attacker_models_destroyed")
    wa, wb = a.expected_damage_wasted, b.expected_damage_wasted
    if abs(wa - wb) > TOL * max(1.0, abs(wb)):
        out.append(f"waste {wa} vs {wb}")
    if (a.method, a.reason, a.target_models, a.attacker_models) != (
        b.method,
        b.reason,
        b.target_models,
        b.attacker_models,
    ):
        out.append("header fields")
    if len(a.groups) != len(b.groups):
        out.append("group count")
    else:
        for ga, gb in zip(a.groups, b.groups, strict=True):
            if (ga.label, ga.models, ga.character) != (gb.label, gb.models, gb.character):
                out.append(f"group {ga.label} vs {gb.label}")
            if _dist_diff(ga.models_destroyed, gb.models_destroyed) > TOL:
                out.append(f"group {ga.label} models destroyed")
    return out


def _random_applicable(rng: random.Random) -> AttackSetup:
    """A random attack the single-group fast path applies to."""
    abilities: list[str] = []
    if rng.random() < 0.15:
        abilities.append("TORRENT")
    if rng.random() < 0.15:
        abilities.append("LETHAL HITS")  # only with lethal_hits_auto=False below
    if rng.random() < 0.15:
        abilities.append("TWIN-LINKED")
    if rng.random() < 0.2:
        abilities.append("HAZARDOUS")
    if rng.random() < 0.15:
        abilities.append(f"ANTI-INFANTRY {rng.choice([2, 3, 4, 5])}+")
    a = rng.choice([1, 2, 3, 5, 10, 20, "D3", "D6", "2D6", "D6+1"])
    gun = weapon(
        "g",
        A=a,
        skill=rng.choice([2, 3, 4, 5, 6]),
        S=rng.randint(2, 12),
        AP=rng.choice([0, 0, -1, -2, -3, -4]),
        D=rng.choice([1, 1, 2, 3, 6]),
        abilities=abilities,
    )
    n_weapons = rng.randint(1, 6)
    n_models = rng.randint(1, 12)
    w = rng.choice([1, 1, 1, 2, 3])
    target = models(
        n_models,
        "t",
        W=w,
        T=rng.randint(2, 10),
        Sv=rng.choice([2, 3, 4, 5, 6, 7]),
        InSv=rng.choice([None, None, 4, 5]),
        fnp=rng.choice([None, None, 7]),
        keywords=("INFANTRY",) if rng.random() < 0.5 else (),
    )
    if w > 1:
        # Every model has exactly 1 wound left: the fast path still applies.
        target = tuple(dataclasses.replace(m, wounds_lost=w - 1) for m in target)
    ctx = AttackContext(
        lethal_hits_auto="LETHAL HITS" not in abilities,
        reroll_hits=rng.choice(list(Reroll)),
        reroll_wounds=rng.choice(list(Reroll)),
        cover=rng.random() < 0.3,
    )
    attacker = models(rng.randint(1, 5), "a", W=rng.choice([1, 2]), T=4, Sv=3)
    return build_setup([WeaponEntry(gun, n_weapons)], target, ctx, attacker)


@pytest.mark.parametrize("seed", range(120))
def test_single_group_fast_path_matches_general(seed: int) -> None:
    setup = _random_applicable(random.Random(seed))
    assert single_group_kills(setup) is not None, "the battery must exercise the fast path"
    fast = exact_distribution(setup)
    general = exact_distribution(setup, fast=False)
    assert differences(fast, general) == []


def _declined() -> list[AttackSetup]:
    plain = models(5, "t", W=1, T=4, Sv=3)
    g = weapon("g", A=2, S=4, AP=-1, D=1)
    cases: list[tuple[list[WeaponEntry], tuple[ModelState, ...]]] = [
        ([WeaponEntry(weapon("g", D="D3"), 4)], plain),  # random damage
        ([WeaponEntry(g, 4)], models(5, "t", W=1, T=4, Sv=3, fnp=5)),  # Feel No Pain
        ([WeaponEntry(g, 4)], models(5, "t", W=2, T=4, Sv=3)),  # 2 wounds left
        ([WeaponEntry(g, 4)], (*plain, *models(2, "u", W=1, T=4, Sv=4))),  # two groups
        ([WeaponEntry(weapon("g", abilities=["SUSTAINED HITS 1"]), 4)], plain),
        ([WeaponEntry(weapon("g", abilities=["LETHAL HITS"]), 4)], plain),  # auto-wounds
        ([WeaponEntry(weapon("g", abilities=["DEVASTATING WOUNDS"]), 4)], plain),
        ([WeaponEntry(g, 4), WeaponEntry(weapon("h", S=8), 1)], plain),  # two pools
        (
            [WeaponEntry(g, 4)],
            (
                ModelState("c", W=1, T=4, Sv=3, leader=True, keywords=("CHARACTER",)),
                *plain,
            ),
        ),  # a CHARACTER group
        (
            [WeaponEntry(g, 4)],
            (*plain, dataclasses.replace(plain[0], name="dead", wounds_lost=1)),
        ),  # a destroyed model
    ]
    return [build_setup(w, t) for w, t in cases]


@pytest.mark.parametrize("index", range(10))
def test_fast_path_declines_where_it_does_not_apply(index: int) -> None:
    setup = _declined()[index]
    assert single_group_kills(setup) is None
    # And the public result is the general path's.
    assert differences(exact_distribution(setup), exact_distribution(setup, fast=False)) == []


def test_known_answer_case_a() -> None:
    # 10 attacks BS3+ S4 AP-1 D1 vs T4 Sv3+: p = 2/3 * 1/2 * 1/2 = 1/6 per attack.
    setup = build_setup(
        [WeaponEntry(weapon("bolt rifle", S=4, AP=-1, D=1), 10)], models(10, "g", W=1, T=4, Sv=3)
    )
    got = exact_distribution(setup)
    for k, p in enumerate(got.models_destroyed.pmf):
        assert p == pytest.approx(math.comb(10, k) * (1 / 6) ** k * (5 / 6) ** (10 - k), 1e-13)
    assert got.mean_models_destroyed == pytest.approx(5 / 3, rel=1e-14)


def test_comparison_catches_a_wrong_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutations of the fast path (no cap at the unit's size folded back, damage wasted
    ignored) are detected by the same comparison."""
    setup = build_setup(
        [WeaponEntry(weapon("g", A=3, S=5, AP=-1, D=2), 4)], models(5, "t", W=1, T=4, Sv=4)
    )
    general = exact_distribution(setup, fast=False)
    real = single_group_kills

    def no_waste(s: AttackSetup) -> object:
        got = real(s)
        assert got is not None
        return got[0], 0, got[2]

    def uncapped(s: AttackSetup) -> object:
        got = real(s)
        assert got is not None
        kills = list(got[0])
        kills[-1] *= 0.5  # lose half the mass of "every model destroyed"
        return kills, got[1], got[2]

    for mutant in (no_waste, uncapped):
        monkeypatch.setattr(exact_mod, "single_group_kills", mutant)
        assert differences(exact_distribution(setup), general) != []
    monkeypatch.undo()
    assert differences(exact_distribution(setup), general) == []


def test_clear_caches_clears_the_per_die_tables() -> None:
    from w40k.math import stages

    distribution([WeaponEntry(weapon("g", D="D3"), 4)], models(3, "t", W=2, T=4, Sv=3, fnp=5))
    cached = (
        stages._hit_odds,
        stages._wound_odds,
        stages.inflicts_table,
        stages._loss_pmf_cached,
        stages._loss_array,
        stages._binomial_matrix,
    )
    assert all(c.cache_info().currsize > 0 for c in cached)
    clear_caches()
    assert all(c.cache_info().currsize == 0 for c in cached)


def _random_multi_pool(rng: random.Random) -> AttackSetup:
    """A random volley of several pools into a unit (possibly led by a CHARACTER)."""
    abilities = [
        "SUSTAINED HITS 1",
        "LETHAL HITS",
        "DEVASTATING WOUNDS",
        "PRECISION",
        "TWIN-LINKED",
        "HAZARDOUS",
    ]
    entries = [
        WeaponEntry(
            weapon(
                f"w{k}",
                A=rng.choice([1, 2, "D3"]),
                S=rng.randint(3, 10),
                AP=rng.choice([0, -1, -2, -3]),
                D=rng.choice([1, 2, "D3", 3]),
                abilities=rng.sample(abilities, rng.randint(0, 2)),
            ),
            rng.randint(1, 3),
        )
        for k in range(rng.randint(2, 3))
    ]
    target: list[ModelState] = []
    if rng.random() < 0.5:
        target.append(
            ModelState(
                "leader",
                W=rng.choice([3, 4]),
                T=4,
                Sv=2,
                InSv=4,
                fnp=rng.choice([None, 5]),
                leader=True,
                keywords=("CHARACTER", "INFANTRY"),
            )
        )
    target += models(
        rng.randint(1, 5),
        "b",
        W=rng.choice([1, 2, 3]),
        T=rng.choice([3, 4, 5]),
        Sv=rng.choice([2, 3, 4]),
        fnp=rng.choice([None, None, 6]),
    )
    return build_setup(entries, target, AttackContext(), models(2, "a", W=2, T=4, Sv=3))


@pytest.mark.parametrize("seed", range(40))
def test_states_resolved_together_match_states_resolved_alone(seed: int) -> None:
    """Several pools: resolving the states on one allocation chain together (linear in their
    masses) gives what resolving each state alone gives."""
    setup = _random_multi_pool(random.Random(1000 + seed))
    assert len(setup.pools) >= 2
    together = exact_distribution(setup)
    alone = exact_distribution(setup, fast=False)
    assert differences(together, alone) == []


def test_case_d_volley_resolved_together_matches_alone() -> None:
    plasma = weapon("plasma", S=8, AP=-3, D="D3", abilities=["HAZARDOUS"])
    bolter = weapon("bolter", A=2, S=4, AP=0, D=1, abilities=["SUSTAINED HITS 1"])
    las = weapon(
        "lascannon", A="D3", S=9, AP=-3, D="D6+1", abilities=["PRECISION", "DEVASTATING WOUNDS"]
    )
    captain = ModelState(
        "Captain", W=5, T=4, Sv=2, InSv=4, fnp=5, leader=True, keywords=("CHARACTER", "INFANTRY")
    )
    setup = build_setup(
        [WeaponEntry(plasma, 2), WeaponEntry(bolter, 5), WeaponEntry(las, 1)],
        (captain, *models(5, "Intercessor", W=2, T=4, Sv=3, keywords=("INFANTRY",))),
        AttackContext(),
        models(5, "Plasma marine", W=2, T=4, Sv=3),
    )
    assert differences(exact_distribution(setup), exact_distribution(setup, fast=False)) == []
