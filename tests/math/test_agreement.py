"""Three-way agreement: the exact distribution, the vectorised simulation and the per-die
engine (``resolve_attack`` with seeded dice) describe the same law.

Every check is statistical with fixed seeds, so the tests are deterministic; the bounds
(math_helpers.Z_BOUND, CHI2_Z) make a false failure negligible (< 1e-4 over the battery).
A disagreement is a bug in one of the three. The last tests show the check failing on
deliberately wrong variants (damage spilling over, saves resolved highest first).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import w40k.math.exact as exact_mod
from tests.math.math_helpers import disagreements, dist_counts, models, random_case, weapon
from w40k.core.dice import SeededDice
from w40k.math import build_setup, exact_distribution, simulate
from w40k.math.chain import Chain
from w40k.math.stages import FloatArray
from w40k.rules.attack_profile import AttackContext, WeaponEntry
from w40k.rules.attack_sequence import AttackRequest, resolve_attack
from w40k.rules.primitives import ModelState

MC_TRIALS = 20_000
ENGINE_RUNS = 2000


def _mc_failures(seed: int, fast: bool) -> list[str]:
    entries, target, attacker, ctx = random_case(random.Random(seed))
    setup = build_setup(entries, target, ctx, attacker)
    ex = exact_distribution(setup)
    mc = simulate(setup, MC_TRIALS, seed=seed, fast=fast)
    fails = disagreements(
        "models destroyed",
        ex.models_destroyed,
        dist_counts(mc.models_destroyed, MC_TRIALS),
        MC_TRIALS,
    )
    fails += disagreements(
        "wounds lost", ex.wounds_lost, dist_counts(mc.wounds_lost, MC_TRIALS), MC_TRIALS
    )
    fails += disagreements(
        "attacker wounds lost",
        ex.attacker_wounds_lost,
        dist_counts(mc.attacker_wounds_lost, MC_TRIALS),
        MC_TRIALS,
    )
    for ge, gm in zip(ex.groups, mc.groups, strict=True):
        fails += disagreements(
            f"group {ge.label}",
            ge.models_destroyed,
            dist_counts(gm.models_destroyed, MC_TRIALS),
            MC_TRIALS,
        )
    se = mc.stderr_damage_wasted
    if abs(mc.expected_damage_wasted - ex.expected_damage_wasted) > 5.5 * se + 1e-9:
        fails.append(
            f"damage wasted exact {ex.expected_damage_wasted:.4f} "
            f"simulated {mc.expected_damage_wasted:.4f} +- {se:.4f}"
        )
    return fails


@pytest.mark.parametrize("seed", range(100))
def test_exact_and_simulation_agree_on_random_attacks(seed: int) -> None:
    # R05.04-a/h lowest first vs current group, R05.04-f no spill, R24.10-b cap, R06.02-e,
    # R24.12-a FNP per wound, R05.03-h groups per pool, R24.28-a precision, R06.03 hazard.
    assert _mc_failures(seed, fast=seed % 2 == 0) == []


@pytest.mark.parametrize("seed", range(1000, 1020))
def test_exact_and_the_per_die_engine_agree_on_random_attacks(seed: int) -> None:
    entries, target, attacker, ctx = random_case(random.Random(seed), max_pools=2)
    ex = exact_distribution(build_setup(entries, target, ctx, attacker))
    request = AttackRequest(entries, target, attacker, ctx)
    killed: Counter[int] = Counter()
    lost: Counter[int] = Counter()
    hazard: Counter[int] = Counter()
    for run in range(ENGINE_RUNS):
        res = resolve_attack(request, SeededDice(seed * 100_003 + run))
        killed[res.models_destroyed] += 1
        lost[res.wounds_lost] += 1
        hazard[res.attacker_wounds_lost] += 1
    fails = disagreements("models destroyed", ex.models_destroyed, killed, ENGINE_RUNS)
    fails += disagreements("wounds lost", ex.wounds_lost, lost, ENGINE_RUNS)
    fails += disagreements("attacker wounds lost", ex.attacker_wounds_lost, hazard, ENGINE_RUNS)
    assert fails == []


def test_exact_and_the_per_die_engine_agree_on_the_benchmark_volley() -> None:
    # A mixed volley into an attached unit (case D of benchmarks/bench_math.py), more runs.
    entries, target, attacker = _volley()
    ex = exact_distribution(build_setup(entries, target, AttackContext(), attacker))
    request = AttackRequest(entries, target, attacker)
    runs = 3000
    killed: Counter[int] = Counter()
    captain: Counter[int] = Counter()
    for run in range(runs):
        res = resolve_attack(request, SeededDice(run))
        killed[res.models_destroyed] += 1
        captain[int(res.target[0].destroyed)] += 1
    assert disagreements("models destroyed", ex.models_destroyed, killed, runs) == []
    assert disagreements("captain", ex.groups[0].models_destroyed, captain, runs) == []


def _volley() -> tuple[tuple[WeaponEntry, ...], tuple[ModelState, ...], tuple[ModelState, ...]]:
    entries = (
        WeaponEntry(weapon("plasma", S=8, AP=-3, D="D3", abilities=["HAZARDOUS"]), 2),
        WeaponEntry(weapon("bolter", A=2, S=4, D=1, abilities=["SUSTAINED HITS 1"]), 5),
        WeaponEntry(
            weapon(
                "lascannon",
                A="D3",
                S=9,
                AP=-3,
                D="D6+1",
                abilities=["PRECISION", "DEVASTATING WOUNDS"],
            ),
            1,
        ),
    )
    target = (
        ModelState(
            "Captain",
            W=5,
            T=4,
            Sv=2,
            InSv=4,
            keywords=("CHARACTER", "INFANTRY"),
            leader=True,
            fnp=5,
        ),
        *models(5, "Intercessor", W=2, T=4, Sv=3, keywords=("INFANTRY",)),
    )
    return entries, target, models(5, "Plasma marine", W=2, T=4, Sv=3)


# --- the check can fail ----------------------------------------------------------------------


def _spilling_transitions(chain: Chain, loss: list[FloatArray]) -> tuple[FloatArray, FloatArray]:
    """WRONG on purpose: excess damage carries on to the next model (10th-edition mortal
    wound style), instead of being lost (R05.04-f)."""
    n = chain.size
    t = np.zeros((n, n))
    for pos, (j, _) in enumerate(chain.entries()):
        for lost, p in enumerate(loss[j]):
            t[pos, min(pos + lost, n - 1)] += p
    t[n - 1, n - 1] = 1.0
    return t, np.zeros((n, n))


def test_the_agreement_check_fails_when_the_exact_computation_spills_damage(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # R05.04-f: 6 attacks, D3 against W1 models; a spill-over variant kills far too many.
    setup = build_setup([WeaponEntry(weapon(A=6, S=8, D="D3"), 1)], models(6, W=1, T=4, Sv=5))
    mc = simulate(setup, MC_TRIALS, seed=1)
    counts = dist_counts(mc.models_destroyed, MC_TRIALS)
    right = exact_distribution(setup)
    assert disagreements("right", right.models_destroyed, counts, MC_TRIALS) == []
    monkeypatch.setattr(exact_mod, "transitions", _spilling_transitions)
    wrong = exact_distribution(setup)
    assert wrong.mean_models_destroyed > right.mean_models_destroyed + 0.5
    assert disagreements("wrong", wrong.models_destroyed, counts, MC_TRIALS) != []


def _gemina(rng: random.Random, wounds: int, highest_first: bool) -> int:
    """A tiny die-by-die sampler of R05.04-h: 1 Gemina (Sv 2+, InSv 4+) then 2 Seraphim
    (Sv 3+, InSv 5+), W1, at AP -1; saves sorted lowest first (or, WRONG, highest first)."""
    saves = sorted((rng.randint(1, 6) for _ in range(wounds)), reverse=highest_first)
    groups = [[2, 4, 1], [3, 5, 2]]  # Sv, InSv, models left
    dead = 0
    g = 0
    for s in saves:
        if g == len(groups):
            break
        sv, insv, _ = groups[g]
        if s == 1 or (s < insv and s - 1 < sv):
            dead += 1
            groups[g][2] -= 1
            if groups[g][2] == 0:
                g += 1
    return dead


def test_the_agreement_check_fails_when_saves_are_resolved_highest_first() -> None:
    # R05.04-a/h: the exact law (lowest first against the current group) matches a die-by-die
    # sampler that sorts saves lowest first, and the check rejects it sorting highest first.
    # TORRENT: 3 hits; S8 vs T3 wounds on 2+.
    w = weapon(A=3, S=8, AP=-1, abilities=["TORRENT"])
    target = (
        ModelState("Gemina", W=1, T=3, Sv=2, InSv=4),
        *models(2, "Seraphim", W=1, T=3, Sv=3, InSv=5),
    )
    ex = exact_distribution(build_setup([WeaponEntry(w, 1)], target))
    n = 20_000

    def sample(highest_first: bool) -> Counter[int]:
        rng = random.Random(7)
        out: Counter[int] = Counter()
        for _ in range(n):
            wounds = sum(rng.randint(1, 6) >= 2 for _ in range(3))
            out[_gemina(rng, wounds, highest_first)] += 1
        return out

    assert disagreements("lowest first", ex.models_destroyed, sample(False), n) == []
    assert disagreements("highest first", ex.models_destroyed, sample(True), n) != []
