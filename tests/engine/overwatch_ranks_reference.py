"""Fire Overwatch's first-round rank matrices as the search computed them before pass ow23
(``engine/stratagems/overwatch_sight.py``'s ``_ranks`` and ``_ranks_of`` at 204f1e9): the
search now reads only the front of the same sort (``overwatch_sight._picks_of``), and these
full matrices are its reference in the tests (test_15/test_22 rank tests, test_23 picks)."""

from __future__ import annotations

import numpy as np

from w40k.engine.stratagems.overwatch_sight import _column_ranks


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
    search reads only the front of this sort (``overwatch_sight._picks_of``, pass ow23)."""
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
