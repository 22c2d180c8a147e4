"""The heuristic deployment's terrain scores, for a whole grid of anchors at once.

``heuristic_deploy.place`` scores every anchor that fits (``_scores``): the distance to the
nearest cover (:func:`cover_one`), the lanes to the objectives and the enemy shooters' lanes
to it (``clear_lane``). Asked one point at a time that is ~2300 Python calls of ~25 us a
pre-battle; here numpy answers a grid, with the scalar answers exactly:

- **Lanes** (:func:`clear_lanes`) are sign tests of products and differences: the same IEEE
  double operations in the same order as ``clear_lane``, so the same booleans (as
  :mod:`w40k.agents.deploy_grid`'s filters), the pieces' box test included.
- **Distances** need ``math.hypot``, whose last bit numpy does not reproduce. numpy measures
  them approximately (``sqrt`` of the squares: within a few units in the last place of the
  exact distance, as ``math.hypot`` is within one, of values under 100"), and every decision
  the scalar code makes is taken from it only when the two sides lie more than
  :data:`TOL` apart (a millionfold the possible error); a closer call is settled by the
  scalar code itself. The value returned is always ``math.hypot`` of the scalar operands.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from w40k.agents import deploy_grid
from w40k.core import kept

Point = tuple[float, float]
Seg = tuple[float, float, float, float, float, float, float]
"""An edge ``a``-``b`` as ``(ax, ay, bx, by, dx, dy, n)``: its ends, ``b - a``, ``|b - a|²``."""
Kept = tuple[tuple[Point, ...], tuple[float, float, float, float], tuple[Seg, ...]]
"""A terrain piece as the scores walk it: its footprint, its bounding box, its edges."""
FloatArray = np.ndarray
BoolArray = np.ndarray

TOL = 1e-9
"""How far apart (relative to 1 + the value, in inches) an approximate distance and what it
is compared with must lie for the comparison to be taken from it: the approximation and
``math.hypot`` are each within ~1e-15 relative of the exact distance."""


def cover_one(cover: Sequence[Kept], p: Point) -> float:
    """How far ``p`` is from the nearest of the ``cover`` pieces (0 inside one): the pieces
    in order, one skipped when its box is no nearer than the best so far, each edge's
    distance the segment formula's (``heuristic_deploy.cover_distance``)."""
    best = math.inf
    px, py = p
    for poly, (x0, y0, x1, y1), segs in cover:
        if math.hypot(max(x0 - px, 0.0, px - x1), max(y0 - py, 0.0, py - y1)) >= best:
            continue  # its box is farther than the best so far
        if point_in_polygon(p, poly):
            return 0.0
        for ax, ay, _, _, dx, dy, n in segs:
            rx, ry = px - ax, py - ay
            t = 0.0 if n == 0 else max(0.0, min(1.0, (rx * dx + ry * dy) / n))
            d = math.hypot(rx - t * dx, ry - t * dy)
            if d < best:
                best = d
    return best


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    """Even-odd rule (a point on the boundary may fall either way)."""
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def clear_one(dense: Sequence[Kept], p: Point, q: Point) -> bool:
    """Whether the segment ``p``-``q`` properly crosses no edge of the ``dense`` pieces (a
    piece whose box misses the segment's box is not read)."""
    px, py = p
    qx, qy = q
    lo_x, hi_x, lo_y, hi_y = min(px, qx), max(px, qx), min(py, qy), max(py, qy)
    ex, ey = qx - px, qy - py
    for _, (x0, y0, x1, y1), segs in dense:
        if x1 < lo_x or x0 > hi_x or y1 < lo_y or y0 > hi_y:
            continue
        for ax, ay, bx, by, dx, dy, _ in segs:  # segments p-q and a-b cross properly
            if ((ex * (ay - py) - ey * (ax - px)) * (ex * (by - py) - ey * (bx - px)) < 0
                    and (dx * (py - ay) - dy * (px - ax)) * (dx * (qy - ay) - dy * (qx - ax))
                    < 0):
                return False
    return True


@dataclass(frozen=True)
class _Arrays:
    """Pieces' boxes (one column each) and edges (one column each, piece by piece)."""

    x0: FloatArray
    y0: FloatArray
    x1: FloatArray
    y1: FloatArray
    ax: FloatArray
    ay: FloatArray
    bx: FloatArray
    by: FloatArray
    dx: FloatArray
    dy: FloatArray
    n: FloatArray
    piece: np.ndarray
    """The piece of each edge."""
    starts: np.ndarray
    """Each piece's first edge."""
    segs: tuple[Seg, ...]
    """Every edge, piece by piece."""


_ARRAYS: dict[int, tuple[Sequence[Kept], _Arrays]] = kept.table()
""":func:`_arrays` by the pieces' list (the entry holds it: an id is not reused while kept)."""


def _arrays(pieces: Sequence[Kept]) -> _Arrays:
    kept = _ARRAYS.get(id(pieces))
    if kept is not None and kept[0] is pieces:
        return kept[1]
    segs = tuple(s for _, _, ss in pieces for s in ss)
    cols = np.array(segs, dtype=float).reshape(len(segs), 7).T
    boxes = np.array([b for _, b, _ in pieces], dtype=float).reshape(len(pieces), 4).T
    sizes = [len(ss) for _, _, ss in pieces]
    out = _Arrays(boxes[0], boxes[1], boxes[2], boxes[3], cols[0], cols[1], cols[2], cols[3],
                  cols[4], cols[5], cols[6], np.repeat(np.arange(len(pieces)), sizes),
                  np.cumsum([0, *sizes[:-1]]), segs)
    if len(_ARRAYS) > 8:
        _ARRAYS.clear()
    _ARRAYS[id(pieces)] = (pieces, out)
    return out


def _norm(x: FloatArray, y: FloatArray) -> FloatArray:
    """``hypot``, approximately (see :data:`TOL`)."""
    out: FloatArray = np.sqrt(x * x + y * y)
    return out


def cover_distances(cover: Sequence[Kept], xs: Sequence[float], ys: Sequence[float],
                    cap: float = math.inf) -> list[float]:
    """``[min(cover_one(cover, (x, y)), cap) for x, y in zip(xs, ys)]``, the same floats.

    numpy replays :func:`cover_one`'s walk for every point at once. Were every piece
    visited, the best distance before piece ``k`` would be the least of the pieces before
    it (``prev``); a piece whose box is :data:`TOL` nearer than that is visited, one whose
    box is :data:`TOL` farther is skipped, and a skipped piece's edges are no nearer than its
    box, so it would not have lowered the best either: ``prev`` is the walk's best all
    along, up to the first visited piece that holds the point (the even-odd rule, the same
    operations: exact), where the walk answers 0. A point with a closer call on the way is
    left to :func:`cover_one`. Otherwise the answer is the least ``math.hypot``, taken as
    :func:`cover_one` takes it, of the visited edges within :data:`TOL` of the least
    approximation (no other can be less), or ``cap`` when that is :data:`TOL` beyond it."""
    m = len(xs)
    if not m or not cover:
        return [min(math.inf, cap)] * m
    g = _arrays(cover)
    px = np.array(xs, dtype=float)
    py = np.array(ys, dtype=float)
    cx, cy = px[:, None], py[:, None]
    box = _norm(np.maximum(np.maximum(g.x0 - cx, 0.0), cx - g.x1),
                np.maximum(np.maximum(g.y0 - cy, 0.0), cy - g.y1))
    rx, ry = cx - g.ax, cy - g.ay
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.clip((rx * g.dx + ry * g.dy) / g.n, 0.0, 1.0)
        t[:, g.n == 0] = 0.0
        d = _norm(rx - t * g.dx, ry - t * g.dy)
        # the even-odd rule per edge, as point_in_polygon (an edge with y1 == y2 never crosses)
        cross = ((g.ay > cy) != (g.by > cy)) & (
            cx < g.ax + (cy - g.ay) * (g.bx - g.ax) / (g.by - g.ay))
    inside = np.bitwise_xor.reduceat(cross, g.starts, axis=1)
    least = np.minimum.reduceat(d, g.starts, axis=1)
    prev = np.empty_like(least)
    prev[:, 0] = math.inf
    np.minimum.accumulate(least[:, :-1], axis=1, out=prev[:, 1:])
    margin = TOL * (1.0 + box)
    go = box + margin < prev
    stops = go & inside
    stopped = stops.any(axis=1)
    last = np.where(stopped, stops.argmax(axis=1), box.shape[1] - 1)
    walked = np.arange(box.shape[1]) <= last[:, None]
    unsure = (walked & ~go & ~(box - margin > prev)).any(axis=1)
    done = stopped & ~unsure
    best = least.min(axis=1)
    far = best - TOL * (1.0 + best) > cap
    out = [0.0 if dn else cap if fr else math.inf
           for dn, fr in zip(done.tolist(), far.tolist(), strict=True)]
    open_ = ~(done | unsure | far)
    near = go[:, g.piece] & (d <= (best + TOL * (1.0 + best))[:, None]) & open_[:, None]
    segs = g.segs
    hypot = math.hypot
    for i, e in zip(*(a.tolist() for a in np.nonzero(near)), strict=True):
        ax, ay, _, _, dx, dy, n = segs[e]
        px_, py_ = xs[i], ys[i]
        rx_, ry_ = px_ - ax, py_ - ay
        tt = 0.0 if n == 0 else max(0.0, min(1.0, (rx_ * dx + ry_ * dy) / n))
        v = hypot(rx_ - tt * dx, ry_ - tt * dy)
        if v < out[i]:
            out[i] = v
    for i in np.flatnonzero(open_).tolist():
        out[i] = min(out[i], cap)
    for i in np.flatnonzero(unsure).tolist():
        out[i] = min(cover_one(cover, (xs[i], ys[i])), cap)
    return out


def clear_lanes(dense: Sequence[Kept], px: FloatArray | float, py: FloatArray | float,
                qx: FloatArray | float, qy: FloatArray | float) -> BoolArray:
    """``heuristic_deploy.clear_lane`` of every segment ``p``-``q``, one end a point (floats)
    and the other the points of arrays of one shape ``(m,)``: no proper crossing with an
    edge of a ``dense`` piece whose box meets the segment's box. The same operations in the
    same order, so the same booleans."""
    ends = [v[:, None] if isinstance(v, np.ndarray) else v for v in (px, py, qx, qy)]
    size = next(v.shape[0] for v in ends if isinstance(v, np.ndarray))
    if not dense:
        return np.ones(size, dtype=bool)
    g = _arrays(dense)
    cpx, cpy, cqx, cqy = ends
    lo_x, hi_x = np.minimum(cpx, cqx), np.maximum(cpx, cqx)
    lo_y, hi_y = np.minimum(cpy, cqy), np.maximum(cpy, cqy)
    met = ~((g.x1 < lo_x) | (g.x0 > hi_x) | (g.y1 < lo_y) | (g.y0 > hi_y))
    ex, ey = cqx - cpx, cqy - cpy
    crosses = (((ex * (g.ay - cpy) - ey * (g.ax - cpx)) * (ex * (g.by - cpy) - ey * (g.bx - cpx))
                < 0)
               & ((g.dx * (cpy - g.ay) - g.dy * (cpx - g.ax))
                  * (g.dx * (cqy - g.ay) - g.dy * (cqx - g.ax)) < 0))
    return cast(BoolArray, ~(crosses & met[:, g.piece]).any(axis=1))


def within(cx: float, cy: float, reach: float, xs: Sequence[float], ys: Sequence[float],
           px: FloatArray, py: FloatArray) -> BoolArray:
    """``math.hypot(cx - x, cy - y) <= reach`` for every point (``px``/``py``: ``xs``/``ys``
    as arrays): from the approximation where it lies :data:`TOL` from ``reach``, else
    ``math.hypot`` itself."""
    dx, dy = cx - px, cy - py
    d = _norm(dx, dy)
    margin = TOL * (1.0 + reach)
    out = d + margin <= reach
    for i in np.flatnonzero(~out & ~(d - margin > reach)).tolist():
        out[i] = math.hypot(cx - xs[i], cy - ys[i]) <= reach
    return out


def lanes_and_exposure(cover_dense: Sequence[Kept], shooters: Sequence[tuple[Point, float]],
                       targets: Sequence[Point] | None, xs: Sequence[float],
                       ys: Sequence[float]) -> tuple[list[int], list[int]]:
    """For every point ``p``: how many ``targets`` it sees along a clear lane
    (``sum(clear_lane(state, p, q) for q in targets)``; zeros without targets) and how many
    ``shooters`` see it (within their reach, ``math.hypot(c - p) <= reach``, and along a
    clear lane from their centre), as Python ints."""
    px = np.array(xs, dtype=float)
    py = np.array(ys, dtype=float)
    lanes = np.zeros(px.shape, dtype=np.int64)
    for qx, qy in targets or ():
        lanes += clear_lanes(cover_dense, px, py, qx, qy)
    exposed = np.zeros(px.shape, dtype=np.int64)
    for (cx, cy), reach in shooters:
        near = within(cx, cy, reach, xs, ys, px, py)
        idx = np.flatnonzero(near)
        if idx.size:
            seen = clear_lanes(cover_dense, cx, cy, px[idx], py[idx])
            exposed[idx] += seen
    return cast(list[int], lanes.tolist()), cast(list[int], exposed.tolist())


def far_from(xs: Sequence[float], ys: Sequence[float], reach: float, points: Sequence[Point],
             poly: Sequence[Point] | None) -> list[bool | None]:
    """``heuristic_deploy._far_from`` of every point ``(xs[i], ys[i])``, where the
    approximation settles it (None where it does not: a distance within :data:`TOL` of
    ``reach``): no ``points`` within ``reach`` (``math.hypot(p - q) <= reach``), and, with a
    ``poly``, the point outside it (the even-odd rule: exact) and every edge of it farther
    than ``reach`` (the segment formula's distance)."""
    m = len(xs)
    if not m:
        return []
    px = np.array(xs, dtype=float)
    py = np.array(ys, dtype=float)
    margin = TOL * (1.0 + reach)
    out: list[bool | None] = [True] * m
    todo = np.ones(m, dtype=bool)
    if points:
        qx = np.array([q[0] for q in points], dtype=float)
        qy = np.array([q[1] for q in points], dtype=float)
        d = _norm(px[:, None] - qx, py[:, None] - qy)
        near = (d + margin <= reach).any(axis=1)
        close = (~(d - margin > reach)).any(axis=1) & ~near
        for i in np.flatnonzero(near).tolist():
            out[i] = False
        for i in np.flatnonzero(close).tolist():
            out[i] = None
        todo &= ~(near | close)
    if poly is None:
        return out
    within = deploy_grid.inside(px, py, poly)
    for i in np.flatnonzero(todo & within).tolist():
        out[i] = False
    todo &= ~within
    n = len(poly)
    ax = np.array([poly[i][0] for i in range(n)], dtype=float)
    ay = np.array([poly[i][1] for i in range(n)], dtype=float)
    dx = np.array([poly[(i + 1) % n][0] for i in range(n)], dtype=float) - ax
    dy = np.array([poly[(i + 1) % n][1] for i in range(n)], dtype=float) - ay
    nn = dx * dx + dy * dy
    rx, ry = px[:, None] - ax, py[:, None] - ay
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.clip((rx * dx + ry * dy) / nn, 0.0, 1.0)
        t[:, nn == 0] = 0.0
    least = _norm(rx - t * dx, ry - t * dy).min(axis=1)
    for i in np.flatnonzero(todo & (least + margin <= reach)).tolist():
        out[i] = False
    for i in np.flatnonzero(todo & ~(least + margin <= reach)
                            & ~(least - margin > reach)).tolist():
        out[i] = None
    return out


def grid(ox: float, oy: float, step: float, width: float, depth: float,
         poly: Sequence[Point]) -> list[Point]:
    """``heuristic_deploy._anchors``' points: ``x`` from ``ox`` and ``y`` from ``oy`` by
    repeated additions of ``step`` while below ``width``/``depth`` (x first), those inside
    ``poly`` (the even-odd rule, :func:`deploy_grid.inside`: exact)."""
    xs: list[float] = []
    x = ox
    while x < width:
        xs.append(x)
        x += step
    ys: list[float] = []
    y = oy
    while y < depth:
        ys.append(y)
        y += step
    if not xs or not ys:
        return []
    gx = np.repeat(np.array(xs, dtype=float), len(ys))
    gy = np.tile(np.array(ys, dtype=float), len(xs))
    keep = deploy_grid.inside(gx, gy, poly).tolist()
    return [p for p, k in zip(((x, y) for x in xs for y in ys), keep, strict=True) if k]
