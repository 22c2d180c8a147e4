"""Fire Overwatch's sight search (R15.09-a: some model of the shooting unit sees some model of
the target): which candidate (shooter, enemy) unit pairs see each other, the batched sight
tests staged in rounds.

A unit pair sees the other when one model pair does (06.01), so most visible pairs are shown
by a few of their model pairs. The first rounds (:data:`ROUNDS`) stage, of every candidate
unit pair not yet shown seen, its next model pairs (of those no rule hides) in the order of
:func:`_first_picks` (its nearest pair, the pairs of the units' side models, then the next
nearest: pass ow24; each target model's nearest observer model first before, ow22); a unit
pair with a staged pair the batch proves seen is visible, and
its other model pairs are not staged. The last round stages every other model pair of the
other unit pairs (what ``Visibility.stage_many`` stages, less the pairs a first round's batch
left open: batched already, pass ow21), and ``Visibility.unit_sees``
answers them as before (the same known answers, so the same searches). Every model pair's
staged answer is its own (``SightTables.stage_many``: whichever pairs share a batch), and the
rounds only decide which pairs are staged first, so every answer is the same as with every
pair staged at once; a pair left unstaged is staged when a later question asks its unit pair
(``SightTables.stage``), as for any unit pair the search never met.

Every round's batch spares the single-wall proof of a model pair whose unit pair has a pair
CLEAR in the same call (``SightTables._batch_stage``'s ``spared``, pass ow20): the unit pair
is seen whatever that pair's answer, so the pair is left unstaged like the first rounds'
other pairs (and its unit pair is not marked staged). k = 5 greedy game, seed 0: 1254 of the
3320 proofs the searches' batches would try (4239 model pairs batched).

This module reads ``SightTables``' kept raw answers and staged unit pairs, calls its batch
stage with masks of its own and marks staged the last round's unit pairs with no pair spared
(as ``stage_many`` does).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from w40k.geometry.visibility import Visibility

ROUNDS = (4,)
"""The first round stages, of each candidate unit pair, 4 of its model pairs
(:func:`_first_picks`); the last round every other model pair of the unit pairs not shown
seen.
With the nearest centres first (pass ow15), of Fire Overwatch's candidate pairs (k = 5
greedy game seed 0 / 1000-point battle seed 1: 281 / 146 unit pairs, 234 / 82 visible), the
first round showed 182 / 75 seen, and the search staged 4070 / 1378 model pairs instead of
8205 / 2660; each target model's nearest observer first (pass ow22): the searches batch
4141 -> 3865 model pairs at k = 5 seed 0, 4500 -> 3983 at seed 1, 1400 -> 1496 in the
battle. More rounds stage fewer pairs but cost a batch call each (a few M instructions):
(4, 16) batches 682 fewer pairs at k = 5 seed 0 in 8 more calls, +13 M instructions (ow22).
The nearest pair and the side models' (:func:`_spread`, pass ow24): 3865 -> 3552 at k = 5
seed 0, 3983 -> 3138 at seed 1, 3649 -> 2820 at seed 2, 1496 -> 1429 in the battle."""

STAGE_PAIRS = 1024
"""The most model pairs one batched sight test stages at once (a larger unit pair alone):
a bound on the batch's (edge x pair) arrays (~200 edges near the pairs: a few MB at most).
Each batch call costs ~2.5 M instructions whatever its size, so the fewer the better: every
search's last round of the k = 5 greedy game (seeds 0-1) and of the 1000-point battle (seed
1) is one call under this bound (256: 18 calls instead of 8 at k = 5 seed 0)."""

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


def _first_picks(vis: Visibility, pairs: list[Pair],
                 k: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """For each unit pair: the number of its model pairs no rule hides (its rule mask,
    :meth:`_rule_mask`: ``staged_size``) and the first round's picks of them (pass ow24):
    with at most ``k``, all of them; with more, :func:`_spread` of its ``k`` nearest (the
    centres' squared distance, ties in row-major order): the nearest, then the pairs of its
    :func:`_corners`, then the next nearest, ``k`` distinct pairs. Every unit pair of the
    search in one array (a run of its model pairs, row-major, each), sorted once by (run,
    distance; the pairs a rule hides last): a run's front is its nearest pairs, and its
    pairs no rule hides are its first ``size`` entries. Which pairs a round stages decides
    no answer (:func:`seen_pairs`); ow23's rank order (``_all_picks``, now the tests' reference in
    tests/engine/overwatch_ranks_reference.py) cost one sort and a rank matrix per observer unit."""
    kept: dict[int, np.ndarray] = {}
    masks = [vis._rule_mask(ou, tu) for ou, tu in pairs]
    out: list[tuple[int, list[tuple[int, int]]]] = [(0, [])] * len(pairs)
    live = [i for i, m in enumerate(masks) if m.size]
    if not live or k <= 0:
        return [(vis.staged_size(*p), []) for p in pairs]
    a_s = [_centres(vis, pairs[i][0], kept) for i in live]
    b_s = [_centres(vis, pairs[i][1], kept) for i in live]
    na = np.array([masks[i].shape[0] for i in live])
    nb = np.array([masks[i].shape[1] for i in live])
    length = na * nb
    start = np.cumsum(length) - length
    run = np.repeat(np.arange(len(live)), length)
    flat = np.arange(int(length.sum())) - start[run]
    width = nb[run]
    om, tm = flat // width, flat % width
    pa = np.concatenate(a_s)[(np.cumsum(na) - na)[run] + om]
    pb = np.concatenate(b_s)[(np.cumsum(nb) - nb)[run] + tm]
    d = ((pa - pb) ** 2).sum(axis=1)
    shown = np.concatenate([masks[i].ravel() for i in live])
    order = np.lexsort((np.where(shown, d, np.inf), run)).tolist()
    sizes = np.add.reduceat(shown.astype(np.int64), start).tolist()
    wide: list[int] = []
    for x, (i, s0, size, w) in enumerate(zip(live, start.tolist(), sizes, nb.tolist(),
                                             strict=True)):
        out[i] = (size, [divmod(f - s0, w) for f in order[s0:s0 + min(k, size)]])
        if size > k:
            wide.append(x)
    if wide:
        corners = _corners([a_s[x] for x in wide], [b_s[x] for x in wide],
                           [out[live[x]][1][0] for x in wide])
        for x, c in zip(wide, corners, strict=True):
            i = live[x]
            size, front = out[i]
            out[i] = (size, _spread(front, c, None if size == masks[i].size else masks[i], k))
    return out


def _corners(a_s: list[np.ndarray], b_s: list[np.ndarray],
             nearest: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """For each unit pair (observer model centres ``a_s[i]``, target model centres
    ``b_s[i]``, none empty; its nearest model pair ``nearest[i]``: observer model, target
    model): the observer models of least and greatest offset across the line of that pair's
    centres, and the target models of least and greatest offset across it (the first of
    ties). Pairs of these sides' models (pass ow24): where a wall hides the units' nearest
    model pairs from each other, a line round its end is likelier seen than the next nearest
    (k = 5 greedy games, seeds 0-4: of ~225 unit pairs the batch shows seen a game, the
    nearest four pairs showed 146-189, the nearest pair and these sides' 169-211). Only a
    heuristic: it decides which pairs a round stages, never an answer (:func:`seen_pairs`).
    Every unit pair of a search at once: two runs a unit pair (its observer models', then
    its target models') in one array, each run's least and greatest read off two stable
    sorts by (run, offset)."""
    runs = [r for a, b in zip(a_s, b_s, strict=True) for r in (a, b)]
    widths = np.array([len(r) for r in runs])
    pts = np.concatenate(runs)
    starts = np.cumsum(widths) - widths
    oms, tms = zip(*nearest, strict=True)
    v = pts[starts[1::2] + np.array(tms)] - pts[starts[0::2] + np.array(oms)]
    run = np.repeat(np.arange(len(runs)), widths)
    vx, vy = v[run // 2, 0], v[run // 2, 1]
    # the offset across (vx, vy) (turned a right angle: (-vy, vx)) of a point (x, y)
    off = -pts[:, 0] * vy + pts[:, 1] * vx
    # (stable sorts by run, then offset: the first of ties in model order)
    least = (np.lexsort((off, run))[starts] - starts).tolist()
    most = (np.lexsort((-off, run))[starts] - starts).tolist()
    return [(least[2 * i], most[2 * i], least[2 * i + 1], most[2 * i + 1])
            for i in range(len(nearest))]


def _spread(front: list[tuple[int, int]], corner: tuple[int, int, int, int],
            mask: np.ndarray | None, k: int) -> list[tuple[int, int]]:
    """A unit pair's first ``k`` picks: ``front`` (its pairs of rank below ``k``, all pairs
    no rule hides; ``k`` <= its size) in a new order: its nearest pair, then the pairs of
    ``corner`` (:func:`_corners`: each side's models, then across) that ``mask`` (its rule
    mask; None: it hides no pair) keeps, then the rest of ``front``, each pair once. ``k``
    distinct pairs no rule hides, as ``front``: a round stages as many pairs of the unit
    pair (only which)."""
    lo, hi, tlo, thi = corner
    out = front[:1]
    for q in ((lo, tlo), (hi, thi), (lo, thi), (hi, tlo), *front[1:]):
        if len(out) >= k:
            break
        if q not in out and (mask is None or mask[q]):
            out.append(q)
    return out


def seen_pairs(vis: Visibility, pairs: list[Pair]) -> list[bool]:
    """For each (observer, target) unit pair, ``Visibility.unit_sees``: some model of the
    observer unit sees some model of the target unit (06.01 with 13.09 and 24.24), with the
    batched tests staged in rounds (the module's docstring)."""
    todo = [p for p in dict.fromkeys(pairs) if p not in vis._staged]
    # each unit pair's size and its model pairs of the first rounds' ranks, in rank order
    picks = _first_picks(vis, todo, max(ROUNDS, default=0))
    shown: set[Pair] = set()
    asked = set(todo)
    # the model pairs a first round's batch left open, per unit pair as asked: not batched
    # again (their answer, count and relevance row are their own: kept by that batch)
    left: dict[Pair, list[tuple[int, int]]] = {}
    low = 0
    for high in ROUNDS:
        live = [i for i, p in enumerate(todo) if p not in shown]
        rows = [picks[i][1][low:high] for i in live]  # the pairs of rank low .. high - 1
        for idx in _batches([len(r) for r in rows]):
            kept: list[np.ndarray | None] = [_mask_of(vis, todo[live[k]], rows[k]) for k in idx]
            for a, am, b, bm in vis._batch_stage([todo[live[k]] for k in idx], kept, []):
                if (a, b) in asked:
                    left.setdefault((a, b), []).append((am, bm))
                if (b, a) in asked:
                    left.setdefault((b, a), []).append((bm, am))
        for i, row in zip(live, rows, strict=True):
            if _shown_at(vis, todo[i], row):
                shown.add(todo[i])
        low = high
    # the last round: every model pair no rule hides of the unit pairs not shown seen (its
    # model pairs not yet kept, those the batch left open in a first round again), in
    # batches of about STAGE_PAIRS model pairs not staged yet; a unit pair the batch shows
    # seen may have pairs spared (``_batch_stage``'s ``spared``): it is not marked staged, so
    # a later question stages them; every other unit pair is staged whole (``stage_many``)
    rest = [i for i, p in enumerate(todo) if p not in shown]
    # (a unit pair's pairs of rank below ``low``: min(low, size) of them, its ranks of the
    # pairs no rule hides being 0 .. size - 1)
    sizes = [picks[i][0] - min(low, picks[i][0]) - len(left.get(todo[i], ())) for i in rest]
    for idx in _batches(sizes):
        batch = [todo[rest[k]] for k in idx]
        spared: list[tuple[int, int, int, int]] = []
        vis._batch_stage(batch, [_last_mask(vis, p, left) for p in batch], spared)
        some = {(k[0], k[2]) for k in spared}
        for ou, tu in batch:
            if (min(ou, tu), max(ou, tu)) not in some:
                vis._staged.add((ou, tu))
            elif _shown(vis, (ou, tu), vis._stage_mask(ou, tu)):
                shown.add((ou, tu))
    return [p in shown or _unit_sees(vis, p) for p in pairs]


def _unit_sees(vis: Visibility, pair: Pair) -> bool:
    """``Visibility.unit_sees``: the unit pair staged, then ``_any_seen`` of its model pairs
    no rule hides in row-major order (13.09 / 24.24: a masked pair is hidden whatever the
    sight), listed by one ``nonzero`` of the rule mask (its row-major order: the same pairs
    in the same order) instead of a test of each mask cell (pass ow23)."""
    ou, tu = pair
    vis.stage(ou, tu)
    oms, tms = np.nonzero(vis._rule_mask(ou, tu))
    return vis._any_seen([(ou, om, tu, tm)
                          for om, tm in zip(oms.tolist(), tms.tolist(), strict=True)])


def _last_mask(vis: Visibility, pair: Pair,
               left: dict[Pair, list[tuple[int, int]]]) -> np.ndarray:
    """The last round's model pairs of ``pair``: its stage mask less the pairs a first
    round left open (batched already: a batch would leave them open again, or spare them
    if a pair of the unit pair is CLEAR, with the same count and relevance row)."""
    mask = vis._stage_mask(*pair)
    gone = left.get(pair)
    if gone:
        mask = mask.copy()
        oms, tms = zip(*gone, strict=True)
        mask[list(oms), list(tms)] = False
    return mask


def _mask_of(vis: Visibility, pair: Pair, row: list[tuple[int, int]]) -> np.ndarray:
    """The (observer model, target model) mask of the unit pair holding the pairs of
    ``row``: a round's batch stages those."""
    mask = np.zeros(vis._rule_mask(*pair).shape, dtype=bool)
    if row:
        oms, tms = zip(*row, strict=True)
        mask[list(oms), list(tms)] = True
    return mask


def _shown_at(vis: Visibility, pair: Pair, row: list[tuple[int, int]]) -> bool:
    """:func:`_shown` of the mask holding the pairs of ``row`` (pairs no rule hides), read
    from the list (the same pairs: the answer is whether one is kept seen, in any order)."""
    ou, tu = pair
    raw = vis._raw_cache
    seen_values = vis._seen_values()
    for om, tm in row:
        r = raw.get((ou, om, tu, tm))
        if r is not None and r.sight in seen_values:
            return True
    return False


def _shown(vis: Visibility, pair: Pair, mask: np.ndarray) -> bool:
    """A model pair of ``mask`` whose raw sight is kept (a batch decided it) is seen: then
    the unit pair is (06.01). ``mask`` keeps only pairs no rule hides (of the unit pair's
    :meth:`~Visibility._rule_mask`), and for those ``Visibility.visible`` is the raw sight
    being a seen value: its 13.09 and 24.24 tests are the mask's, on the same distances
    (pass ow21: the raw answer read, no ``visible`` call and no kept visibility made)."""
    ou, tu = pair
    raw = vis._raw_cache
    seen_values = vis._seen_values()
    oms, tms = np.nonzero(mask)
    for om, tm in zip(oms.tolist(), tms.tolist(), strict=True):
        r = raw.get((ou, om, tu, tm))
        if r is not None and r.sight in seen_values:
            return True
    return False
