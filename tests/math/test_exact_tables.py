"""The exact computation's kept tables (``exact_tables.unit_tables``, ``kept_joint``) change no
answer.

What depends only on a target's models (allocation chains, Toughness, one-event matrices) and
on a pool (the joint law of wounds needing saves and devastating wounds) is kept across calls.
Every answer must be the very floats a cold computation gives, whatever was asked before and
in whatever order; the kept arrays are read-only; a replaced ``transitions`` function (a test's
mutant) is never answered from the real one's entries; ``clear_caches`` forgets them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.math.math_helpers import models, weapon
from w40k.math import build_setup, clear_caches, exact_distribution, exact_tables
from w40k.math import exact as exact_mod
from w40k.math.chain import Chain
from w40k.math.setup import AttackSetup
from w40k.rules.attack_profile import WeaponEntry
from w40k.rules.primitives import ModelState


def _setups() -> list[AttackSetup]:
    """Attacks that take every path (closed form, single chain, general path with mixed
    groups, several pools, devastating wounds) on units asked about more than once."""
    rng = random.Random(11)
    mixed = (
        ModelState("sarge", W=2, T=4, Sv=3, wounds_lost=1, keywords=("INFANTRY",)),
        *models(4, "marine", W=2, T=4, Sv=3),
        ModelState("captain", W=5, T=4, Sv=2, InSv=4, keywords=("INFANTRY", "CHARACTER")),
    )
    units = [models(5, W=1, T=3, Sv=5), models(3, W=3, T=5, Sv=3, fnp=5), mixed]
    guns = [
        weapon("bolt", A=2, S=4, AP=0, D=1),
        weapon("plasma", A=1, S=8, AP=-3, D=2),
        weapon("dev", A=3, S=5, AP=-1, D="D3", abilities=["DEVASTATING WOUNDS"]),
        weapon("storm", A="D6", S=4, AP=-1, D=1, abilities=["SUSTAINED HITS 1"]),
    ]
    out = []
    for _ in range(24):
        target = rng.choice(units)
        picked = rng.sample(guns, rng.randint(1, 3))
        out.append(build_setup([WeaponEntry(w, rng.randint(1, 4)) for w in picked], target))
    return out


def test_kept_tables_give_the_cold_answers_in_any_order() -> None:
    # R05.04-a..g, R06.02-e: the kept tables are pure functions of their keys.
    setups = _setups()
    cold = []
    for s in setups:
        clear_caches()
        cold.append(exact_distribution(s))
    clear_caches()
    assert [exact_distribution(s) for s in setups] == cold
    order = list(range(len(setups)))
    random.Random(3).shuffle(order)
    warm = {i: exact_distribution(setups[i]) for i in order}
    assert [warm[i] for i in range(len(setups))] == cold
    general = [exact_distribution(s, fast=False) for s in setups]
    clear_caches()
    assert [exact_distribution(s, fast=False) for s in reversed(setups)][::-1] == general


def test_kept_arrays_are_read_only() -> None:
    clear_caches()
    setups = _setups()
    for s in setups:
        exact_distribution(s)
    arrays = [a for s in setups for pair in exact_tables.unit_tables(s.target).trans.values()
              for a in pair]
    pool = setups[0].pools[0]
    arrays.append(exact_tables.kept_joint(exact_mod.pool_outcomes, pool, setups[0].gathered[0], 4,
                                   setups[0].lethal_auto))
    assert arrays
    for a in arrays:
        with pytest.raises(ValueError):
            a[(0,) * a.ndim] = 0.5
    clear_caches()
    assert exact_tables.unit_tables.cache_info().currsize == 0
    assert exact_tables.kept_joint.cache_info().currsize == 0


def test_a_replaced_transitions_function_is_not_answered_from_the_kept_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # R05.04-f: damage spilling to the next model is wrong; with the right answers kept, the
    # spilling mutant still gets its own (wrong) answer, and the right one comes back after.
    dev = weapon("d", A=3, S=5, AP=-1, D="D3", abilities=["DEVASTATING WOUNDS"])
    target = (*models(3, "t", W=3, T=4, Sv=4), ModelState("t 4", W=3, T=4, Sv=4, wounds_lost=2))
    setup = build_setup([WeaponEntry(dev, 3)], target)
    right = exact_distribution(setup)
    right_general = exact_distribution(setup, fast=False)

    def spilling(chain: Chain, loss: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        n = chain.size
        spill = np.zeros((n, n))
        for pos, (j, _) in enumerate(chain.entries()):
            for lost, p in enumerate(loss[j]):
                spill[pos, min(pos + lost, n - 1)] += p
        spill[n - 1, n - 1] = 1.0
        return spill, np.zeros((n, n))

    monkeypatch.setattr(exact_mod, "transitions", spilling)
    assert exact_distribution(setup) != right
    assert exact_distribution(setup, fast=False) != right_general
    monkeypatch.undo()
    assert exact_distribution(setup) == right
    assert exact_distribution(setup, fast=False) == right_general


def test_kept_save_runs_continue_shorter_ones_with_the_cold_answers() -> None:
    # R05.03-f, R05.04-a..h: the save step's rows x T^j (one-block and alike units) and the
    # step powers (a unit mixing saves: several face blocks) are kept per unit and grown when
    # a later question rolls more saves; every answer must be the cold one, whichever number
    # of attacks came first.
    mixed = (
        *models(4, "marine", W=2, T=4, Sv=3),
        ModelState("captain", W=5, T=4, Sv=2, InSv=4, keywords=("INFANTRY", "CHARACTER")),
    )
    alike = models(4, W=3, T=5, Sv=4, fnp=6)
    gun = weapon("gun", A=2, S=5, AP=-1, D="D3")
    setups = [build_setup([WeaponEntry(gun, n)], unit)
              for unit in (mixed, alike, models(6, W=2, T=4, Sv=3)) for n in (1, 6, 3, 9)]
    cold = []
    for s in setups:
        clear_caches()
        cold.append((exact_distribution(s), exact_distribution(s, fast=False)))
    for order in (list(range(len(setups))), list(reversed(range(len(setups))))):
        clear_caches()
        warm = {i: (exact_distribution(setups[i]), exact_distribution(setups[i], fast=False))
                for i in order}
        assert [warm[i] for i in range(len(setups))] == cold
    kept = [a for s in setups for pair in exact_tables.unit_tables(s.target).runs.values()
            for a in pair]
    kept += [a for s in setups for a in exact_tables.unit_tables(s.target).steps.values()]
    assert kept
    for a in kept:
        with pytest.raises(ValueError):
            a[(0,) * a.ndim] = 0.5
    clear_caches()
    assert exact_tables.unit_tables.cache_info().currsize == 0


def test_large_step_powers_are_not_kept_and_change_no_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # R05.03-f, R05.04-a..h: a unit mixing saves (a Captain's 4++ among 3+ models) takes the
    # multi-block save step; its step powers are kept only up to POWERS_KEPT_BYTES (memory
    # bound), and one computed afresh for every question gives the same answers.
    mixed = (
        *models(4, "marine", W=2, T=4, Sv=3),
        ModelState("captain", W=5, T=4, Sv=2, InSv=4, keywords=("INFANTRY", "CHARACTER")),
    )
    gun = weapon("gun", A=2, S=5, AP=-1, D="D3")
    setups = [build_setup([WeaponEntry(gun, n)], mixed) for n in (1, 6, 3, 9)]
    clear_caches()
    kept = [exact_distribution(s) for s in setups]
    plans = exact_tables.unit_tables(setups[0].target).saves.values()
    assert any(p is not None for plan in plans for p in plan.powers)
    clear_caches()
    monkeypatch.setattr(exact_mod, "POWERS_KEPT_BYTES", 0)
    fresh = [exact_distribution(s) for s in setups]
    assert fresh == kept
    plans = exact_tables.unit_tables(setups[0].target).saves.values()
    assert plans and all(p is None for plan in plans for p in plan.powers)
    clear_caches()
