"""Damage chains: the order in which a unit's models take damage, from the rule primitives.

Within one pool the allocation order is fixed at the Allocation Order step (05.03) and the
model selected (05.04 Select Model: one that has lost wounds if possible) keeps being selected
until it is destroyed, because it is then the (first) wounded model of the current group. So
normal damage walks a fixed sequence of models: a *chain*. A position on the chain is the
number of wounds taken from it so far; one damaging event at position ``i`` on a model with
``r`` wounds left moves to ``i + min(lost, r)`` (excess damage is lost, R05.04-f). The same
holds for mortal wounds selected by 06.02 (a wounded non-CHARACTER first, ...), and for
[DEVASTATING WOUNDS] mortal wounds, which damage at most one model per critical wound (24.10).

The chain picks the first candidate the primitives offer; models the primitives treat alike
(same group, same Feel No Pain and Toughness role) are interchangeable, so the distribution
does not depend on that pick. Among candidates that differ (e.g. a group mixing models with and
without Feel No Pain) the first listed one is the documented default, as in the per-die engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from w40k.math.setup import models_at
from w40k.math.stages import FloatArray
from w40k.rules.primitives import (
    ModelState,
    default_order,
    group_model_candidates,
    make_groups,
    mortal_wound_candidates,
)


@dataclass(frozen=True, slots=True)
class Chain:
    """The models of a unit in the order they take damage, from one state."""

    order: tuple[int, ...]
    """Model indices in the order they are damaged."""
    start: tuple[int, ...]
    """Remaining wounds of each chain model at the chain's start."""
    base: tuple[int, ...]
    """Remaining wounds of every model of the unit at the chain's start."""

    @property
    def size(self) -> int:
        """Number of positions (the last one: every chain model destroyed)."""
        return sum(self.start) + 1

    def entries(self) -> tuple[tuple[int, int], ...]:
        """For each position but the last: (chain entry, remaining wounds of its model)."""
        out: list[tuple[int, int]] = []
        for j, r0 in enumerate(self.start):
            out.extend((j, r) for r in range(r0, 0, -1))
        return tuple(out)

    def vectors(self) -> list[tuple[int, ...]]:
        """The remaining wounds of every model at each chain position."""
        rem = list(self.base)
        out = [tuple(rem)]
        for i, r0 in zip(self.order, self.start, strict=True):
            for r in range(r0 - 1, -1, -1):
                rem[i] = r
                out.append(tuple(rem))
        return out

    def vector(self, pos: int) -> tuple[int, ...]:
        """The remaining wounds of every model at chain position ``pos``."""
        rem = list(self.base)
        left = pos
        for i, r0 in zip(self.order, self.start, strict=True):
            take = min(left, r0)
            rem[i] = r0 - take
            left -= take
            if left == 0:
                break
        return tuple(rem)


def allocation_chain(
    models: Sequence[ModelState],
    remaining: tuple[int, ...],
    precision: bool,
    now: Sequence[ModelState] | None = None,
) -> Chain:
    """05.03/05.04: groups and the default order re-created for this pool (R05.03-h); with
    [PRECISION] (24.28) the first CHARACTER group with a visible model is current first.
    ``now``: ``models_at(models, remaining)`` when the caller has it."""
    now = models_at(models, remaining) if now is None else now
    groups = make_groups(now)
    order = list(default_order(groups, now))
    if precision:
        # The per-die engine's default: the first CHARACTER group (05.03 Create Groups order)
        # with a visible model.
        for gi, g in enumerate(groups):
            if g.character and any(now[i].visible for i in g.alive(now)):
                order.remove(gi)
                order.insert(0, gi)
                break
    seq: list[int] = []
    cur = list(now)
    for gi in order:
        while cands := group_model_candidates(groups[gi], cur):
            i = cands[0]
            seq.append(i)
            cur[i] = cur[i].losing(cur[i].W)
    return Chain(tuple(seq), tuple(remaining[i] for i in seq), remaining)


def mortal_chain(models: Sequence[ModelState], remaining: tuple[int, ...]) -> Chain:
    """06.02 Select Model for each mortal wound: the order models take mortal wounds."""
    cur = list(models_at(models, remaining))
    seq: list[int] = []
    while cands := mortal_wound_candidates(cur):
        i = cands[0]
        seq.append(i)
        cur[i] = cur[i].losing(cur[i].W)
    return Chain(tuple(seq), tuple(remaining[i] for i in seq), remaining)


def transitions(chain: Chain, loss: Sequence[FloatArray]) -> tuple[FloatArray, FloatArray]:
    """The matrix ``T[i, j]`` of one damaging event moving position ``i`` to ``j`` and the
    matrix ``W[i, j]`` of the expected wasted wounds along that move.

    ``loss[j]`` is the pmf of wounds the event would remove from chain entry ``j``'s model
    (damage, then Feel No Pain). The last position (all destroyed) absorbs (R05.04-g)."""
    if loss and all(pmf is loss[0] for pmf in loss):
        return _shared_transitions(chain, loss[0])
    n = chain.size
    entries = chain.entries()
    lists = [pmf.tolist() for pmf in loss]
    rows: list[int] = [n - 1]
    cols: list[int] = [n - 1]
    vals: list[float] = [1.0]
    w_rows: list[int] = []
    w_cols: list[int] = []
    w_vals: list[float] = []
    # Plain Python on these short rows: numpy calls per position cost more than the sums.
    for pos, (j, r) in enumerate(entries):
        pmf = lists[j]
        for d in range(min(r, len(pmf))):
            if pmf[d]:
                rows.append(pos)
                cols.append(pos + d)
                vals.append(pmf[d])
        if len(pmf) > r:
            tail = pmf[r:]
            rows.append(pos)
            cols.append(pos + r)
            vals.append(sum(tail))
            w_rows.append(pos)
            w_cols.append(pos + r)
            w_vals.append(sum(k * x for k, x in enumerate(tail)))
    t = np.zeros((n, n))
    w = np.zeros((n, n))
    t[rows, cols] = vals
    w[w_rows, w_cols] = w_vals
    return t, w


def _shared_transitions(chain: Chain, loss: FloatArray) -> tuple[FloatArray, FloatArray]:
    """:func:`transitions` when every chain model has the same loss pmf (an alike unit): the
    same numbers, written one row pattern per remaining-wounds value at a time."""
    n = chain.size
    t = np.zeros((n, n))
    w = np.zeros((n, n))
    t[n - 1, n - 1] = 1.0
    pmf = loss.tolist()
    left = np.array([r for _, r in chain.entries()], dtype=np.int64)
    for r in sorted(set(left.tolist())):
        pos = np.nonzero(left == r)[0]
        for d in range(min(r, len(pmf))):
            if pmf[d]:
                t[pos, pos + d] = pmf[d]
        if len(pmf) > r:
            # R05.04-f: at most r wounds lost; the rest of the event's damage is wasted.
            tail = pmf[r:]
            t[pos, pos + r] = sum(tail)
            w[pos, pos + r] = sum(k * x for k, x in enumerate(tail))
    return t, w
