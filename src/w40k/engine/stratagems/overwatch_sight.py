"""Fire Overwatch's sight search (R15.09-a: some model of the shooting unit sees some model of
the target): which candidate (shooter, enemy) unit pairs see each other, the batched sight
tests staged in rounds.

A unit pair sees the other when one model pair does (06.01), so most visible pairs are shown
by a few of their model pairs. The first rounds (:data:`ROUNDS`) stage, of every candidate
unit pair not yet shown seen, its next model pairs (of those no rule hides) in the order of
their centres' distance; a unit pair with a staged pair the batch proves seen is visible, and
its other model pairs are not staged. The last round stages every other model pair of the
other unit pairs (what ``Visibility.stage_many`` stages), and ``Visibility.unit_sees``
answers them as before (the same known answers, so the same searches). Every model pair's
staged answer is its own (``SightTables.stage_many``: whichever pairs share a batch), and the
rounds only decide which pairs are staged first, so every answer is the same as with every
pair staged at once; a pair left unstaged is staged when a later question asks its unit pair
(``SightTables.stage``), as for any unit pair the search never met.

This module reads ``SightTables``' kept raw answers and staged unit pairs and calls its batch
stage with masks of its own (the first rounds); it changes nothing there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from w40k.geometry.visibility import Visibility

ROUNDS = (4,)
"""The first round stages, of each candidate unit pair, its model pairs of rank 0-3 (the
nearest centres first); the last round every other model pair of the unit pairs not shown
seen. Of Fire Overwatch's candidate pairs (k = 5 greedy game seed 0 / 1000-point battle seed
1: 281 / 146 unit pairs, 234 / 82 visible), the first round shows 182 / 75 seen, and the
search stages 4070 / 1378 model pairs instead of 8205 / 2660. Batched model pairs in the
whole game (the listings included): 13423 -> 10155 (k = 5), 4352 -> 3541 (battle seed 1).
More rounds stage fewer pairs but cost a batch call each: (4, 16) 9497 / 3577 pairs in 93 /
56 calls against 92 / 48 calls (the base: 100 / 44)."""

STAGE_PAIRS = 256
"""The most model pairs one batched sight test stages at once (a larger unit pair alone)."""

Pair = tuple[int, int]
"""(observer unit, target unit): scene indices."""


def _batches(sizes: list[int]) -> Iterator[list[int]]:
    """Consecutive runs of the indices of ``sizes`` (model pairs to stage per unit pair)
    holding at most :data:`STAGE_PAIRS` model pairs (a larger unit pair alone)."""
    batch: list[int] = []
    n = 0
    for i, size in enumerate(sizes):
        if batch and n + size > STAGE_PAIRS:
            yield batch
            batch, n = [], 0
        batch.append(i)
        n += size
    if batch:
        yield batch


def _centres(vis: Visibility, u: int, kept: dict[int, np.ndarray]) -> np.ndarray:
    hit = kept.get(u)
    if hit is None:
        hit = kept[u] = np.array([(m.x, m.y) for m in vis.scene.units[u].models],
                                 dtype=np.float64).reshape(-1, 2)
    return hit


def _ranks(vis: Visibility, ou: int, tu: int, kept: dict[int, np.ndarray]) -> np.ndarray:
    """``out[om, tm]``: the model pair's rank among the unit pair's pairs no rule hides, the
    nearest centres first (ties in model order); -1 for a pair a rule hides (never staged)."""
    mask = vis._rule_mask(ou, tu)
    a, b = _centres(vis, ou, kept), _centres(vis, tu, kept)
    d = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
    order = np.argsort(np.where(mask, d, np.inf).ravel(), kind="stable")
    out = np.empty(order.shape, dtype=np.int64)
    out[order] = np.arange(len(order))
    out[~mask.ravel()] = -1
    return out.reshape(mask.shape)


def seen_pairs(vis: Visibility, pairs: list[Pair]) -> list[bool]:
    """For each (observer, target) unit pair, ``Visibility.unit_sees``: some model of the
    observer unit sees some model of the target unit (06.01 with 13.09 and 24.24), with the
    batched tests staged in rounds (the module's docstring)."""
    centres: dict[int, np.ndarray] = {}
    todo = [p for p in dict.fromkeys(pairs) if p not in vis._staged]
    ranks = [_ranks(vis, ou, tu, centres) for ou, tu in todo]
    raw = vis._raw_cache
    shown: set[Pair] = set()
    low = 0
    for high in ROUNDS:
        live = [i for i, p in enumerate(todo) if p not in shown]
        masks = [(ranks[i] >= low) & (ranks[i] < high) for i in live]  # low >= 0
        for idx in _batches([int(np.count_nonzero(m)) for m in masks]):
            kept: list[np.ndarray | None] = [masks[k] for k in idx]
            vis._batch_stage([todo[live[k]] for k in idx], kept)
        for i, mask in zip(live, masks, strict=True):
            ou, tu = todo[i]
            oms, tms = np.nonzero(mask)
            # a staged pair the batch decided (its raw sight kept) and seen: the unit pair is
            if any((ou, om, tu, tm) in raw and vis.visible(ou, om, tu, tm)
                   for om, tm in zip(oms.tolist(), tms.tolist(), strict=True)):
                shown.add((ou, tu))
        low = high
    # the last round: ``stage_many`` of the unit pairs not shown seen (each staged whole: its
    # model pairs not yet kept, those the batch left open in a first round again), in
    # batches of about STAGE_PAIRS model pairs not staged yet
    rest = [i for i, p in enumerate(todo) if p not in shown]
    sizes = [vis.staged_size(*todo[i]) - int(np.count_nonzero((ranks[i] >= 0) & (ranks[i] < low)))
             for i in rest]
    for idx in _batches(sizes):
        vis.stage_many([todo[rest[k]] for k in idx])
    return [p in shown or vis.unit_sees(*p) for p in pairs]
