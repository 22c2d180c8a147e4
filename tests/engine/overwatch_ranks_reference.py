"""Fire Overwatch's first-round rank matrices as the search computed them before pass ow23
(``engine/stratagems/overwatch_sight.py``'s ``_ranks`` and ``_ranks_of`` at 204f1e9): the
search now reads only the front of the same sort (:func:`_picks_of` below), and these
full matrices are its reference in the tests (test_15/test_22 rank tests, test_23 picks)."""

from __future__ import annotations

import numpy as np

from w40k.engine.stratagems.overwatch_sight import _centres
from w40k.geometry.visibility import Visibility

Pair = tuple[int, int]


def _ranks(a: np.ndarray, b: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``out[om, tm]``: the model pair's rank among the unit pair's pairs no rule hides
    (``mask``), by (the pair's rank among its target model's pairs, :func:`_column_ranks`;
    then the centres' distance), ties in model order: first each target model with its
    nearest observer model, the nearest such pairs first (pass ow22: a first round that
    tries several target models shows more unit pairs seen than the nearest pairs alone,
    which often share one target model behind one wall); -1 for a pair a rule hides (never
    staged). The plain form of :func:`_ranks_of` (one unit pair)."""
    d = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
    col = _column_ranks(d, mask)
    order = np.lexsort((np.where(mask, d, np.inf).ravel(), col.ravel()))
    out = np.empty(order.shape, dtype=np.int64)
    out[order] = np.arange(len(order))
    out[~mask.ravel()] = -1
    return out.reshape(mask.shape)


def _ranks_of(a: np.ndarray, bs: list[np.ndarray], masks: list[np.ndarray]) -> list[np.ndarray]:
    """``[_ranks(a, b, mask) for b, mask in zip(bs, masks)]`` for one observer unit's target
    units, with one distance matrix and one stable sort for them all (a search asks a few
    dozen unit pairs, and each pair's small sort cost as much as all of them sorted at once):
    the target units' columns side by side, sorted by (unit pair, column rank, distance,
    model pair index in its own row-major order), which is each pair's stable sort of its
    own keys (a column's ranks are its own: every column lies in one unit pair). The
    search reads only the front of this sort (:func:`_picks_of` below, pass ow23)."""
    n = a.shape[0]
    widths = [b.shape[0] for b in bs]
    starts = np.cumsum([0, *widths])
    d = ((a[:, None, :] - np.concatenate(bs)[None, :, :]) ** 2).sum(axis=2)
    mask = np.concatenate(masks, axis=1)
    col = _column_ranks(d, mask)
    d = np.where(mask, d, np.inf)
    seg = np.repeat(np.arange(len(bs)), widths)  # the unit pair of each column
    segs = np.broadcast_to(seg, d.shape)
    # ties in the model pair's index in its own unit pair's row-major order: a unit pair's
    # entries come in that order in ``d``'s row-major order (by observer model, then its
    # columns), and the sort is stable (pass ow21: that index not computed as a key)
    order = np.lexsort((d.ravel(), col.ravel(), segs.ravel()))
    # a unit pair's model pairs come after every model pair of the pairs before it
    first = (n * starts[:-1])[segs.ravel()[order]]
    flat = np.empty(order.shape, dtype=np.int64)
    flat[order] = np.arange(len(order)) - first
    out = flat.reshape(d.shape)
    out[~mask] = -1
    return [out[:, starts[i]:starts[i + 1]] for i in range(len(bs))]


# Pass ow23's first round, the search's until pass ow24 (engine/stratagems/overwatch_sight.py at
# 6046aca): ow24's ``_first_picks`` replaced it, and it is the tests' reference here.

def _column_ranks(d: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``out[om, tm]``: the rank of observer model ``om`` among target model ``tm``'s
    observer models no rule hides (``mask``), the nearest (``d``: squared centre distances)
    first, ties in model order; where a rule hides the pair, the number of observer models
    (after every rank: such a pair is never staged)."""
    n = d.shape[0]
    order = np.argsort(np.where(mask, d, np.inf), axis=0, kind="stable")
    out = np.empty(d.shape, dtype=np.int64)
    # ``put_along_axis(out, order, ranks, axis=0)``: the same cells by plain fancy indexing
    # (``out[order[i, j], j] = i``) without that function's Python-level index building
    out[order, np.arange(d.shape[1])] = np.arange(n, dtype=np.int64)[:, None]
    out[~mask] = n
    return out


def _picks_of(a: np.ndarray, bs: list[np.ndarray], masks: list[np.ndarray],
              k: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """For each target unit (``bs``, ``masks``) of observer unit ``a``: the number of its
    model pairs no rule hides (``mask``), and those of rank below ``k`` as (observer model, target
    model), in rank order (pass ow23). The sort of ow22's rank matrices (ow22's matrices:
    :func:`_ranks` here; each unit pair's
    own stable sort of its keys, the pairs a rule hides last), read from its front: a unit
    pair's pairs of rank ``r`` is its segment's entry ``r`` in the sorted order (its
    segment of ``n * width`` entries starts at ``n`` times its first column), and the
    pairs no rule hides are the segment's first ``size`` entries (ranks 0 .. size - 1: a
    hidden pair's column rank is ``n``, after every other's). No rank matrix is built
    (most are never read: a round reads the ranks below its bound). The unit pair and
    the column rank are one integer key (``seg * (n + 1) + col``, ``col`` <= ``n``), which
    sorts as the two keys one after the other."""
    n = a.shape[0]
    widths = [b.shape[0] for b in bs]
    total = sum(widths)
    d = ((a[:, None, :] - np.concatenate(bs)[None, :, :]) ** 2).sum(axis=2)
    mask = np.concatenate(masks, axis=1)
    col = _column_ranks(d, mask)
    seg = np.repeat(np.arange(len(bs), dtype=np.int64) * (n + 1), widths)
    order = np.lexsort((np.where(mask, d, np.inf).ravel(), (col + seg[None, :]).ravel()))
    per_column = np.count_nonzero(mask, axis=0).tolist()
    out: list[tuple[int, list[tuple[int, int]]]] = []
    start = 0
    for w in widths:
        size = sum(per_column[start:start + w])
        front = order[n * start:n * start + min(k, size)].tolist()
        # (a flat index ``om * total + column``: the column less the unit's first)
        out.append((size, [(f // total, f % total - start) for f in front]))
        start += w
    return out


def _all_picks(vis: Visibility, pairs: list[Pair],
               k: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """For each unit pair, :func:`_picks_of`'s answer (its rule mask: :meth:`_rule_mask`;
    the size is ``staged_size``), computed per observer unit; with ``k`` 0, the sizes only
    (no sort: no round reads a rank). ow22's and ow23's first round; since pass ow24 the
    search's is :func:`_first_picks`, and this one the tests' reference."""
    if k <= 0:
        return [(vis.staged_size(*p), []) for p in pairs]
    kept: dict[int, np.ndarray] = {}
    by: dict[int, list[int]] = {}
    for i, (ou, _) in enumerate(pairs):
        by.setdefault(ou, []).append(i)
    out: list[tuple[int, list[tuple[int, int]]]] = [(0, [])] * len(pairs)
    for ou, idx in by.items():
        tus = [pairs[i][1] for i in idx]
        got = _picks_of(_centres(vis, ou, kept), [_centres(vis, tu, kept) for tu in tus],
                        [vis._rule_mask(ou, tu) for tu in tus], k)
        for i, g in zip(idx, got, strict=True):
            out[i] = g
    return out
