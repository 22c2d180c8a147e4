"""The exact computation's kept tables (:mod:`w40k.math.exact`): what the computations on one
unit's models share (one-event matrices, save plans, step matrices and runs of products), the
pool outcomes against a wound roll, and small index tables. Every entry is a pure function of
its key, read-only, and bounded; :func:`clear_exact_caches` forgets them all (cold timings).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

import numpy as np
import numpy.typing as npt

from w40k.math.chain import Chain
from w40k.math.setup import Gathered
from w40k.math.stages import FloatArray, IntArray, binomial_matrix
from w40k.rules.attack_profile import PoolProfile
from w40k.rules.primitives import AllocationGroup, ModelState, make_groups

State = tuple[int, ...]
"""Remaining wounds of every model of a unit."""


@dataclass
class UnitTables:
    """What the computations on one unit's models share (every entry is a pure function of
    the models and its key, so equal models share it; cleared by :func:`clear_exact_caches`)."""

    facts: dict[tuple[State, bool], tuple[Chain, int, list[State]]] = dataclasses.field(
        default_factory=dict
    )
    """:meth:`~w40k.math.exact._Engine.facts` per (state, [PRECISION])."""
    trans: dict[tuple[object, ...], tuple[FloatArray, FloatArray]] = dataclasses.field(
        default_factory=dict
    )
    """One-event matrices per (path, transitions function, chain order and start, damage):
    the function is part of the key, so a replaced one (a test's mutant) is never answered
    from another's entries. The arrays are read-only."""
    saves: dict[tuple[object, ...], SavePlan] = dataclasses.field(default_factory=dict)
    """The save step's face blocks and matrices (:class:`SavePlan`) per (transitions function,
    chain order and start, damage, AP): what does not depend on the pool's dice or the starting
    masses."""
    steps: dict[tuple[object, ...], FloatArray] = dataclasses.field(default_factory=dict)
    """:func:`~w40k.math.exact.single_chain`'s one-event step matrix ``[[T, W], [0, T]]`` per
    (transitions function, chain order and start, damage, Feel No Pain). Read-only."""
    runs: dict[tuple[object, ...], tuple[FloatArray, FloatArray]] = dataclasses.field(
        default_factory=dict
    )
    """Sequences of vectors ``x_j = x_{j-1} @ M`` (one damaging event after another) per
    (the matrix's key, the starting vectors' bytes): the rows 0..K of a longer sequence are
    the very rows a shorter one computes (:func:`grown`). Read-only."""


@dataclass
class SavePlan:
    """The save step's work (``exact._Engine._saves``) that depends only on the chain, the damage
    and the AP."""

    blocks: list[tuple[int, int]]
    """Blocks of consecutive faces judged alike at every chain position."""
    last: int
    """Index of the last block with a damaging face (-1: none)."""
    steps: list[FloatArray]
    """Per block up to ``last``: the one-block path's ``tb`` and ``wb`` (``last <= 0``), or
    each block's one-save step matrix ``[[tb, wb], [0, tb]]``. Read-only."""
    powers: list[FloatArray | None]
    """Per block of the multi-block path: the step matrix's powers 0..K computed so far
    (one after another, :func:`grown`). Read-only."""


POWERS_KEPT_BYTES = 64 * 1024
"""The largest step-matrix powers a :class:`SavePlan` keeps: a 1000-point battle's larger ones
(up to ~0.7 MB each, ~10 MB in all) would take ``w40k battle`` over its 100 MB memory target
for a few milliseconds of CPU; they are computed again when asked (the same products)."""

UNIT_TABLE_LIMIT = 4096
"""Most entries a table of :class:`UnitTables` keeps (emptied past it: memory stays bounded)."""


@lru_cache(maxsize=256)
def unit_tables(models: tuple[ModelState, ...]) -> UnitTables:
    """The shared tables of a unit's models."""
    return UnitTables()


@lru_cache(maxsize=4096)
def kept_joint(
    outcomes: object, pool: PoolProfile, gathered: Gathered, threshold: int, lethal_auto: bool
) -> FloatArray:
    """:func:`~w40k.math.stages.pool_outcomes` (passed as ``outcomes``: the key holds the
    function), kept: the same pool against the same wound roll recurs across targets. The
    array is read-only."""
    fn = cast(Callable[[PoolProfile, Gathered, int, bool], FloatArray], outcomes)
    got = fn(pool, gathered, threshold, lethal_auto)
    got.flags.writeable = False
    return got


def kept_transitions(
    unit: UnitTables, key: tuple[object, ...], loss: list[FloatArray], chain: Chain,
    fn: Callable[[Chain, list[FloatArray]], tuple[FloatArray, FloatArray]],
) -> tuple[FloatArray, FloatArray]:
    """:func:`~w40k.math.chain.transitions` of ``chain`` with the losses ``loss`` (which
    ``key`` determines for the unit), kept in ``unit``; ``fn`` is the caller's
    ``transitions`` (looked up at each call, and part of the key: a replaced one, a test's
    mutant, is never answered from another's entries)."""
    full = (fn, chain.order, chain.start, *key)
    got = unit.trans.get(full)
    if got is None:
        t, w = fn(chain, loss)
        t.flags.writeable = False
        w.flags.writeable = False
        if len(unit.trans) >= UNIT_TABLE_LIMIT:
            unit.trans.clear()
        got = unit.trans[full] = (t, w)
    return got


def grown(
    kept: FloatArray | None, first: FloatArray, step: FloatArray, kmax: int
) -> FloatArray:
    """The rows ``x_0 = first``, ``x_j = x_{j-1} @ step`` for j <= ``kmax`` (at least): ``kept``
    (the rows computed before, possibly fewer) continued one product at a time, the same
    products as computing them anew. Read-only; ``kept`` itself when it is long enough."""
    if kept is not None and kept.shape[0] > kmax:
        return kept
    rows = np.empty((kmax + 1, *first.shape))
    if kept is None:
        rows[0] = first
        done = 1
    else:
        done = kept.shape[0]
        rows[:done] = kept
    for j in range(done, kmax + 1):
        rows[j] = rows[j - 1] @ step
    rows.flags.writeable = False
    return rows


def clear_exact_caches() -> None:
    """Forget the per-unit tables and pool outcomes kept here (e.g. for cold timings)."""
    unit_tables.cache_clear()
    kept_joint.cache_clear()
    dead_at.cache_clear()
    diagonals.cache_clear()
    diagonal_coef.cache_clear()


@lru_cache(maxsize=1024)
def groups_of(models: tuple[ModelState, ...]) -> tuple[AllocationGroup, ...]:
    """:func:`~w40k.rules.primitives.make_groups` of a unit's models (kept per unit)."""
    return make_groups(models)


@lru_cache(maxsize=256)
def diagonals(kmax: int) -> tuple[IntArray, IntArray, npt.NDArray[np.bool_]]:
    """For the multi-block save step: ``kk[j, m] = j + m`` where ``inside`` (j + m <= kmax,
    else 0) and ``mm[0, m] = m``. Read-only."""
    ks = np.arange(kmax + 1)
    jj = ks[:, None]
    mm = ks[None, :]
    inside = jj + mm <= kmax
    kk = np.where(inside, jj + mm, 0)
    for a in (kk, mm, inside):
        a.flags.writeable = False
    return kk, mm, inside


@lru_cache(maxsize=1024)
def diagonal_coef(kmax: int, p: float) -> FloatArray:
    """``coef[j, m] = B[j + m, m]`` of ``binomial_matrix(kmax, p)`` where j + m <= kmax, else
    0. Read-only."""
    kk, mm, inside = diagonals(kmax)
    coef: FloatArray = np.where(inside, binomial_matrix(kmax, p)[kk, mm], 0.0)
    coef.flags.writeable = False
    return coef


@lru_cache(maxsize=1024)
def dead_at(start: tuple[int, ...]) -> IntArray:
    """Models destroyed at each position of a chain whose models have ``start`` wounds left
    (the position passes a model's last wound). Read-only."""
    size = sum(start) + 1
    dead: IntArray = np.searchsorted(np.cumsum(start), np.arange(size), side="right")
    dead.flags.writeable = False
    return dead
