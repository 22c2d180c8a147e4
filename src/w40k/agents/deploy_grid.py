"""The heuristic deployment's quick filters, for a whole grid of anchors at once.

``heuristic_deploy.place`` asks, for each anchor of its grid and each block shape, whether the
block's box fits in the zone (its four corners inside, :func:`heuristic_deploy._fits`) and
whether it is crowded (a model on the table inside it, or its box overlapping a terrain
piece's, :func:`heuristic_deploy._crowded`). Asked one point at a time that is ~100 000 Python
calls a deployment; here one numpy pass answers a whole grid.

The answers are the scalar functions' exactly: the same IEEE double operations in the same
order (sums, differences, one product and one quotient per polygon edge, comparisons), no
transcendental function, so not even a rounding can differ (``tests/agents/
test_deploy_grid.py`` compares them on random grids).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from w40k.geometry.shapes import FloatArray

Point = tuple[float, float]
Box = tuple[float, float, float, float]
BoolArray = np.ndarray


def inside(x: FloatArray, y: FloatArray, poly: Sequence[Point]) -> BoolArray:
    """``heuristic_deploy.point_in_polygon`` for every point (``x[i]``, ``y[i]``): the
    even-odd rule with the same crossing test per edge (an edge with ``y1 == y2`` never
    counts, as the scalar's ``and`` skips its quotient)."""
    out = np.zeros(x.shape, dtype=bool)
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if y1 == y2:
            continue  # (y1 > y) != (y2 > y) is never true
        crosses = (y1 > y) != (y2 > y)
        out ^= crosses & (x < x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    return out


def fits(x: FloatArray, y: FloatArray, box: Box, poly: Sequence[Point]) -> BoolArray:
    """``heuristic_deploy._fits`` for every anchor (``x[i]``, ``y[i]``): the block's box
    around it has its four corners inside ``poly``."""
    x0, y0, x1, y1 = box
    out = inside(x + x0, y + y0, poly)
    for dx, dy in ((x1, y0), (x1, y1), (x0, y1)):
        out &= inside(x + dx, y + dy, poly)
    return out


def crowded(x: FloatArray, y: FloatArray, box: Box, taken: Sequence[Point],
            blocks: Sequence[Box]) -> BoolArray:
    """``heuristic_deploy._crowded`` for every anchor: a model of ``taken`` strictly within
    the box grown by ½", or the box overlapping one of ``blocks``."""
    bx0, by0, bx1, by1 = x + box[0], y + box[1], x + box[2], y + box[3]
    out = np.zeros(x.shape, dtype=bool)
    if taken:
        tx = np.array([q[0] for q in taken])
        ty = np.array([q[1] for q in taken])
        lo_x, hi_x = (bx0 - 0.5)[:, None], (bx1 + 0.5)[:, None]
        lo_y, hi_y = (by0 - 0.5)[:, None], (by1 + 0.5)[:, None]
        out |= ((lo_x < tx) & (tx < hi_x) & (lo_y < ty) & (ty < hi_y)).any(axis=1)
    if blocks:
        b = np.array(blocks, dtype=float)
        out |= ((bx0[:, None] < b[:, 2]) & (b[:, 0] < bx1[:, None])
                & (by0[:, None] < b[:, 3]) & (b[:, 1] < by1[:, None])).any(axis=1)
    return out


def open_blocks(x: FloatArray, y: FloatArray, box: Box, poly: Sequence[Point],
                taken: Sequence[Point], blocks: Sequence[Box]) -> BoolArray:
    """Anchors whose block :func:`fits` in ``poly`` and is not :func:`crowded` (crowding is
    measured only where the block fits)."""
    ok = fits(x, y, box, poly)
    idx = np.flatnonzero(ok)
    if idx.size:
        ok[idx] = ~crowded(x[idx], y[idx], box, taken, blocks)
    return ok
