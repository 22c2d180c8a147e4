"""A proof of BLOCKED by several walls together (06.01, 13.10, 13.11): a chain of blockers
that, linked inside the hull of the two footprints, joins its two sides.

:func:`w40k.geometry.los._single_wall_separates` proves BLOCKED with one wall. Walls often
block only together: two ruin walls meeting at a corner, a ruin wall and a tall model beside
it, the bases of a tight squad in front of a vehicle. The same argument holds for a chain:

* the *pieces* are the edges of the obstacles that block every line crossing them (those
  :func:`~w40k.geometry.los._wall_owners` names: above both tops, obscuring areas, or partial
  obstacles proven above every line near them); a model base is one degenerate edge. Each
  piece is grown by its *reach* ``grow - TOUCH - REACH_MARGIN``: a line that comes within the
  reach of a piece comes closer than ``grow - TOUCH`` to its obstacle, below its top there,
  so the exact test (``evaluate_lines``) finds that line blocked;
* a piece counts only when, so grown, it stays clear of both footprints (farther than its
  reach + 1e-6; ovals by their circumscribed 16-gon, as in the single-wall proof);
* two pieces are *linked* when their grown sets meet at a point inside the quadrilateral of
  the hull sides' end points (so inside the hull): the point between their closest points
  that divides the gap in the ratio of the reaches (or their crossing point);
* a piece *meets* a hull side when the side comes within its reach.

A chain of linked pieces from a piece meeting one hull side to a piece meeting the other is a
path inside the hull (each step inside one piece's convex grown set and the hull) that joins
the two sides without touching either footprint: it cuts the hull in two with the observer
and the target apart, so every line between them crosses it and is blocked. No candidate
line of the exact search is then clear, and the walls alone leave none either: the search's
answer is BLOCKED, which the proof gives without enumerating the lines. When the proof fails
the search runs as before (it only skips work).
"""

from __future__ import annotations

import numpy as np

from w40k.geometry.los_dist import _ring, _seg_dist
from w40k.geometry.los_obstacles import TOUCH, Obstacles
from w40k.geometry.los_sides import _hull_stand_in, _outer_sides
from w40k.geometry.shapes import Circle, FloatArray, Polygon, Shape

REACH_MARGIN = 1e-8
"""How much less than ``grow - TOUCH`` a piece's reach is (rounding is far smaller)."""
LINK_MARGIN = 1e-9
"""Two pieces are linked, and a piece meets a side, only with this much to spare."""
QUAD_MARGIN = 1e-9
"""A link point is inside the hull sides' quadrilateral by at least this much."""


def walls_separate(o: Shape, t: Shape, obs: Obstacles, walls: np.ndarray) -> bool:
    """A chain of pieces of the obstacles ``walls`` (owner indices of ``obs`` that block every
    line crossing them, :func:`~w40k.geometry.los._wall_owners`) separates footprint ``o``
    from footprint ``t`` inside their hull (module docstring): every line between them is
    blocked."""
    if len(walls) == 0 or len(obs.a) == 0:
        return False
    o, t = _hull_stand_in(o), _hull_stand_in(t)
    sides = _outer_sides(o, t)
    if sides is None:
        return False
    reach_all = obs.grow - TOUCH - REACH_MARGIN
    keep = np.isin(obs.owner, walls) & (reach_all > 0)
    lo, hi = _box(o), _box(t)
    box_lo, box_hi = np.minimum(lo[0], hi[0]), np.maximum(lo[1], hi[1])
    grown = reach_all[:, None]
    keep &= ((np.maximum(obs.a, obs.b) + grown >= box_lo)
             & (np.minimum(obs.a, obs.b) - grown <= box_hi)).all(axis=1)
    idx = np.nonzero(keep)[0]
    if len(idx) == 0:
        return False
    a, b, reach = obs.a[idx], obs.b[idx], reach_all[idx]
    sp = np.array([sides[0][0], sides[1][0]])[:, None, :]
    sq = np.array([sides[0][1], sides[1][1]])[:, None, :]
    meet = _seg_dist(sp, sq, a[None, :, :], b[None, :, :]) <= (reach - LINK_MARGIN)[None, :]
    if not (meet[0].any() and meet[1].any()):
        return False  # (before the clearance test: most tries end here)
    clear = _clear(a, b, reach + 1e-6, o) & _clear(a, b, reach + 1e-6, t)
    a, b, reach, meet = a[clear], b[clear], reach[clear], meet[:, clear]
    n = len(a)
    if n == 0 or not (meet[0].any() and meet[1].any()):
        return False
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if n >= 2:
        quad = np.array([sides[0][0], sides[0][1], sides[1][1], sides[1][0]])
        i, j = np.triu_indices(n, 1)
        # only pieces whose boxes, grown by their reaches, overlap can link
        lo_p = np.minimum(a, b) - reach[:, None]
        hi_p = np.maximum(a, b) + reach[:, None]
        near = ((hi_p[i] >= lo_p[j]) & (lo_p[i] <= hi_p[j])).all(axis=1)
        i, j = i[near], j[near]
        linked, pts = _links(a[i], b[i], reach[i], a[j], b[j], reach[j])
        inside = np.zeros(len(i), dtype=bool)
        inside[linked] = _in_quad(pts[linked], quad)
        for x, y in zip(i[inside].tolist(), j[inside].tolist(), strict=True):
            rx, ry = root(x), root(y)
            if rx != ry:
                parent[rx] = ry
    first = {root(k) for k in np.nonzero(meet[0])[0].tolist()}
    return any(root(k) in first for k in np.nonzero(meet[1])[0].tolist())


def _box(s: Shape) -> tuple[FloatArray, FloatArray]:
    """A stand-in footprint's bounding box (a circle or a polygon)."""
    if isinstance(s, Circle):
        c = np.array([s.cx, s.cy])
        return c - s.r, c + s.r
    pts = s.array() if isinstance(s, Polygon) else s.outline(16)
    return pts.min(axis=0), pts.max(axis=0)


def _clear(a: FloatArray, b: FloatArray, gap: FloatArray, s: Shape) -> np.ndarray:
    """Per piece ``a``-``b``: farther than ``gap`` from footprint ``s`` (a circle, or a
    polygon: not inside it either)."""
    if isinstance(s, Circle):
        c = np.array([[s.cx, s.cy]])
        out: np.ndarray = _seg_dist(c, c, a, b) > s.r + gap
        return out
    if not isinstance(s, Polygon):
        return np.zeros(len(a), dtype=bool)
    pts, nxt = _ring(s)
    d = _seg_dist(pts[:, None, :], nxt[:, None, :], a[None, :, :], b[None, :, :]).min(axis=0)
    # a piece farther than the gap from every edge is wholly inside or wholly outside
    return np.asarray((d > gap) & ~_in_convex(a, pts, 0.0), dtype=bool)


def _links(a1: FloatArray, b1: FloatArray, r1: FloatArray, a2: FloatArray, b2: FloatArray,
           r2: FloatArray) -> tuple[np.ndarray, FloatArray]:
    """Per pair of pieces: their grown sets meet (with :data:`LINK_MARGIN` to spare), and a
    point of both (their crossing point, or the point between their closest points that
    divides the gap in the ratio of the reaches)."""
    cands = [(a1, _proj(a1, a2, b2)), (b1, _proj(b1, a2, b2)),
             (_proj(a2, a1, b1), a2), (_proj(b2, a1, b1), b2)]
    d = np.stack([np.hypot(*(p - q).T) for p, q in cands])
    k = np.argmin(d, axis=0)
    rows = np.arange(len(a1))
    ci = np.stack([c[0] for c in cands])[k, rows]
    cj = np.stack([c[1] for c in cands])[k, rows]
    dist = d[k, rows]
    pts = ci + (cj - ci) * (r1 / (r1 + r2))[:, None]
    # crossing pieces: their crossing point, at distance 0 from both
    o1, o2 = _orient(a2, b2, a1), _orient(a2, b2, b1)
    o3, o4 = _orient(a1, b1, a2), _orient(a1, b1, b2)
    cross = (o1 * o2 < 0) & (o3 * o4 < 0)
    if cross.any():
        with np.errstate(divide="ignore", invalid="ignore"):
            tt = np.where(cross, o1 / (o1 - o2), 0.0)
        at = a1 + (b1 - a1) * tt[:, None]
        pts = np.where(cross[:, None], at, pts)
        dist = np.where(cross, 0.0, dist)
    return np.asarray(dist <= r1 + r2 - LINK_MARGIN, dtype=bool), pts


def _proj(p: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """The closest point of segment ``a``-``b`` to ``p`` (rows)."""
    ab = b - a
    den = np.maximum((ab * ab).sum(axis=1), 1e-300)
    u = np.clip(((p - a) * ab).sum(axis=1) / den, 0.0, 1.0)
    return np.asarray(a + ab * u[:, None], dtype=np.float64)


def _orient(a: FloatArray, b: FloatArray, c: FloatArray) -> FloatArray:
    return np.asarray((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1])
                      - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]), dtype=np.float64)


def _in_quad(p: FloatArray, quad: FloatArray) -> np.ndarray:
    """Points inside the convex quadrilateral by at least :data:`QUAD_MARGIN`."""
    return _in_convex(p, quad, QUAD_MARGIN)


def _in_convex(p: FloatArray, poly: FloatArray, margin: float) -> np.ndarray:
    """Points inside the convex polygon ``poly`` (either orientation), farther than
    ``margin`` from every edge line."""
    e0, e1 = poly, np.roll(poly, -1, axis=0)
    ex, ey = (e1 - e0)[:, 0], (e1 - e0)[:, 1]
    length = np.maximum(np.hypot(ex, ey), 1e-300)
    cr = (ex[None, :] * (p[:, 1:2] - e0[None, :, 1])
          - ey[None, :] * (p[:, 0:1] - e0[None, :, 0])) / length[None, :]
    return np.asarray((cr > margin).all(axis=1) | (cr < -margin).all(axis=1), dtype=bool)
