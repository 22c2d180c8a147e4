"""The single-chain fast path (every living target model alike) agrees with the general path.

``exact_distribution(setup)`` takes :func:`~w40k.math.exact.single_chain` when the target's
living models differ only by name and wounds lost; ``fast=False`` resolves every state alone
through the general path. Seeded batteries compare the two to 1e-12 (R05.04-a..g, R06.02-e,
24.10), the chain it walks is compared with the primitives' allocation and mortal-wound chains,
it declines where the models are not alike, and mutated variants are caught."""

from __future__ import annotations

import dataclasses
import math
import random

import numpy as np
import pytest

from tests.math.math_helpers import disagreements, dist_counts, models, weapon
from tests.math.test_fast_paths import differences
from w40k.math import build_setup, exact_distribution
from w40k.math import exact as exact_mod
from w40k.math.chain import Chain, allocation_chain, mortal_chain
from w40k.math.distributions import Dist
from w40k.math.exact import alike_chain, single_chain
from w40k.math.montecarlo import _chain_walk, binom_table, simulate
from w40k.math.setup import AttackSetup
from w40k.rules.attack_profile import AttackContext, Reroll, WeaponEntry
from w40k.rules.primitives import ModelState

ABILITIES = [
    "SUSTAINED HITS 1",
    "SUSTAINED HITS 2",
    "LETHAL HITS",
    "DEVASTATING WOUNDS",
    "PRECISION",
    "TWIN-LINKED",
    "HAZARDOUS",
    "TORRENT",
    "ANTI-INFANTRY 4+",
    "MELTA 2",
]


def _alike_unit(rng: random.Random) -> tuple[ModelState, ...]:
    """1-8 alike models, some of them wounded or destroyed already."""
    w = rng.choice([1, 1, 2, 2, 3, 4, 6])
    unit = models(
        rng.randint(1, 8),
        "t",
        W=w,
        T=rng.randint(2, 10),
        Sv=rng.choice([2, 3, 4, 5, 6, 7]),
        InSv=rng.choice([None, None, 4, 5]),
        fnp=rng.choice([None, None, 5, 6]),
        keywords=rng.choice([(), ("INFANTRY",)]),
    )
    out = []
    for m in unit:
        if rng.random() < 0.25:
            m = dataclasses.replace(m, wounds_lost=rng.randint(1, w))  # wounded or destroyed
        out.append(m)
    if all(m.destroyed for m in out):
        out[-1] = dataclasses.replace(out[-1], wounds_lost=0)
    return tuple(out)


def _random_volley(rng: random.Random) -> AttackSetup:
    entries = [
        WeaponEntry(
            weapon(
                f"w{k}",
                A=rng.choice([1, 2, 3, "D3", "D6", "2D6"]),
                skill=rng.choice([2, 3, 4, 5]),
                S=rng.randint(2, 12),
                AP=rng.choice([0, -1, -2, -3]),
                D=rng.choice([1, 2, 3, "D3", "D6", "D6+1"]),
                abilities=rng.sample(ABILITIES, rng.randint(0, 3)),
            ),
            rng.randint(1, 4),
        )
        for k in range(rng.randint(1, 3))
    ]
    ctx = AttackContext(
        lethal_hits_auto=rng.random() < 0.7,
        reroll_hits=rng.choice(list(Reroll)),
        reroll_wounds=rng.choice(list(Reroll)),
        half_range=rng.random() < 0.3,
        cover=rng.random() < 0.3,
    )
    attacker = models(rng.randint(1, 5), "a", W=rng.choice([1, 2]), T=4, Sv=3)
    return build_setup(entries, _alike_unit(rng), ctx, attacker)


@pytest.mark.parametrize("seed", range(150))
def test_single_chain_matches_the_general_path_on_random_volleys(seed: int) -> None:
    # R05.04-a..g, R06.02-e, R24.10-b: one to three pools (sustained, lethal, devastating,
    # precision, torrent, anti, melta, random A and D, re-rolls) into alike models, some
    # already wounded or destroyed, with and without Feel No Pain.
    setup = _random_volley(random.Random(seed))
    assert single_chain(setup) is not None, "the battery must exercise the fast path"
    assert differences(exact_distribution(setup), exact_distribution(setup, fast=False)) == []


def test_case_d_prime_matches_the_general_path() -> None:
    # The benchmark's case D': case D's volley into 6 Intercessors (no Captain).
    plasma = weapon("plasma", S=8, AP=-3, D="D3", abilities=["HAZARDOUS"])
    bolter = weapon("bolter", A=2, S=4, AP=0, D=1, abilities=["SUSTAINED HITS 1"])
    las = weapon(
        "lascannon", A="D3", S=9, AP=-3, D="D6+1", abilities=["PRECISION", "DEVASTATING WOUNDS"]
    )
    setup = build_setup(
        [WeaponEntry(plasma, 2), WeaponEntry(bolter, 5), WeaponEntry(las, 1)],
        models(6, "Intercessor", W=2, T=4, Sv=3, keywords=("INFANTRY",)),
        AttackContext(),
        models(5, "Plasma marine", W=2, T=4, Sv=3),
    )
    assert single_chain(setup) is not None
    assert differences(exact_distribution(setup), exact_distribution(setup, fast=False)) == []


@pytest.mark.parametrize("seed", range(60))
def test_alike_chain_is_the_primitives_allocation_and_mortal_wound_chain(seed: int) -> None:
    # R05.04-b (a wounded model of the group first) and R06.02-a (a wounded model first):
    # from any state of an alike unit, both primitives' chains are the fast path's chain.
    rng = random.Random(5000 + seed)
    unit = _alike_unit(rng)
    if rng.random() < 0.3:
        unit = tuple(dataclasses.replace(m, keywords=("CHARACTER",)) for m in unit[:1])
    start = tuple(max(0, m.remaining) for m in unit)
    chain = alike_chain(unit, start)
    for precision in (False, True):
        assert allocation_chain(unit, start, precision) == chain
    assert mortal_chain(unit, start) == chain


def test_single_chain_declines_where_models_differ() -> None:
    g = WeaponEntry(weapon("g", A=2, S=4, AP=-1, D=1), 4)
    plain = models(4, "t", W=2, T=4, Sv=3)
    captain = ModelState("c", W=4, T=4, Sv=2, leader=True, keywords=("CHARACTER",))
    for target in (
        (*plain, dataclasses.replace(plain[0], name="fnp", fnp=5)),  # Feel No Pain differs
        (*plain, captain),  # a CHARACTER group
        (*plain, dataclasses.replace(plain[0], name="k", keywords=("INFANTRY",))),  # keywords
        (*plain, dataclasses.replace(plain[0], name="hidden", visible=False)),  # visibility
        models(2, "twin", W=3, T=4, Sv=3, keywords=("CHARACTER",)),  # 2 CHARACTER groups
    ):
        setup = build_setup([g], target)
        assert single_chain(setup) is None
        assert differences(exact_distribution(setup), exact_distribution(setup, fast=False)) == []


def test_comparison_catches_a_wrong_single_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    # Mutations: the chain taking fresh models before the wounded one (R05.04-b), and
    # devastating critical wounds spilling their damage like normal mortal wounds (R24.10-b:
    # at most one model each) are detected by the same comparison.
    wounded = (
        *models(3, "t", W=3, T=4, Sv=4),
        ModelState("t 4", W=3, T=4, Sv=4, wounds_lost=2),
    )
    # Random damage: the walk goes through the one-event matrices (fixed damage on the first
    # pool takes a one-path shortcut, compared with the general path in the battery above).
    dev = weapon("d", A=3, S=5, AP=-1, D="D3", abilities=["DEVASTATING WOUNDS"])
    setup = build_setup([WeaponEntry(dev, 3)], wounded)
    general = exact_distribution(setup, fast=False)
    assert differences(exact_distribution(setup), general) == []

    def fresh_first(ms: tuple[ModelState, ...], start: tuple[int, ...]) -> Chain:
        order = tuple(sorted((i for i, r in enumerate(start) if r > 0), key=lambda i: -start[i]))
        return Chain(order, tuple(start[i] for i in order), start)

    def spilling(chain: Chain, loss: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        n = chain.size
        spill = np.zeros((n, n))
        for pos, (j, _) in enumerate(chain.entries()):
            for lost, p in enumerate(loss[j]):
                spill[pos, min(pos + lost, n - 1)] += p
        spill[n - 1, n - 1] = 1.0
        return spill, np.zeros((n, n))

    monkeypatch.setattr(exact_mod, "alike_chain", fresh_first)
    assert differences(exact_distribution(setup), general) != []
    monkeypatch.undo()
    monkeypatch.setattr(exact_mod, "transitions", spilling)
    assert differences(exact_distribution(setup), general) != []
    monkeypatch.undo()
    assert differences(exact_distribution(setup), general) == []


@pytest.mark.parametrize("p", [0.0, 1.0 / 6.0, 0.5, 2.0 / 3.0, 1.0])
def test_the_table_binomial_sampler_draws_binomial_counts(p: float) -> None:
    # The Monte Carlo chain walk's sampler: per n, the counts follow Binomial(n, p) (a
    # chi-square-style check per outcome with the same bounds as the agreement tests).

    rng = np.random.default_rng(7)
    n = np.repeat(np.arange(0, 13), 20_000)
    got = binom_table(rng, n, p)
    for k in (0, 1, 5, 12):
        sample = got[n == k]
        values, freq = np.unique(sample, return_counts=True)
        counts = {int(v): int(c) for v, c in zip(values, freq, strict=True)}
        law = Dist.from_sequence(
            [math.comb(k, j) * p**j * (1 - p) ** (k - j) for j in range(k + 1)]
        )
        assert disagreements(f"n={k}", law, counts, len(sample)) == []


@pytest.mark.parametrize("seed", range(30))
def test_the_monte_carlo_chain_walk_agrees_with_the_exact_law(seed: int) -> None:
    # The simulation's chain walk (alike models) against the exact distribution: per-outcome
    # z and chi-square bounds of tests/math (fixed seeds, deterministic).
    setup = _random_volley(random.Random(7000 + seed))
    assert _chain_walk(setup, np.random.default_rng(0), 4) is not None
    trials = 20_000
    mc = simulate(setup, trials, seed=seed)
    exact = exact_distribution(setup)
    for name in ("models_destroyed", "wounds_lost"):
        counts = dist_counts(getattr(mc, name), trials)
        assert disagreements(name, getattr(exact, name), counts, trials) == []
    assert abs(mc.expected_damage_wasted - exact.expected_damage_wasted) <= 6 * max(
        mc.stderr_damage_wasted, 1e-9
    )
