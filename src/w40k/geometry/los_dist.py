"""Distance kernels of the exact line of sight (:mod:`w40k.geometry.los`): the segment
distance every sight test uses, and the pieces of the BLOCKED proofs (how far a joining set
reaches, runs of a wall's edges joined inside the hull, an obstacle clear of a footprint).
Kept apart so that the proofs of :mod:`w40k.geometry.los_chain` share them without an import
cycle; :mod:`w40k.geometry.los` imports them under the same names."""

from __future__ import annotations

import functools
import math

import numpy as np

from w40k.geometry.measure import point_in_polygon
from w40k.geometry.shapes import Circle, FloatArray, Polygon, Shape


@functools.lru_cache(maxsize=4096)
def _centre(s: Shape) -> tuple[float, float]:
    """``s.center``, kept per shape (a polygon's is the mean of its vertices, computed anew at
    every ask; the searches ask it several times per footprint)."""
    return s.center


@functools.lru_cache(maxsize=4096)
def _ring(s: Polygon) -> tuple[FloatArray, FloatArray]:
    """A polygon's vertices and the next vertex of each (``np.roll(pts, -1)``), as
    ``s.array()`` gives them, kept per polygon; the arrays are read-only."""
    pts = s.array()
    nxt = np.roll(pts, -1, axis=0)
    pts.setflags(write=False)
    nxt.setflags(write=False)
    return pts, nxt


def _seg_dist(p1: FloatArray, p2: FloatArray, q1: FloatArray, q2: FloatArray) -> FloatArray:
    """Segment-segment distance, broadcasting (..., 2): the least of the four point-segment
    distances, or 0 where the segments cross.

    Computed on the coordinate components, with the differences the point-segment distances
    and the orientation tests share computed once, and one square root of the least squared
    distance (the root is monotone and correctly rounded, so it is the least of the four
    roots): the same floats as the four separate point-segment formulas, half the numpy
    calls (a hot path of the sight searches)."""
    return _seg_dist_xy(p1[..., 0], p1[..., 1], p2[..., 0], p2[..., 1],
                        q1[..., 0], q1[..., 1], q2[..., 0], q2[..., 1])


def _seg_dist_xy(p1x: FloatArray, p1y: FloatArray, p2x: FloatArray, p2y: FloatArray,
                 q1x: FloatArray, q1y: FloatArray, q2x: FloatArray, q2y: FloatArray
                 ) -> FloatArray:
    """:func:`_seg_dist` on the coordinate components (arrays or floats, broadcasting): the
    same operations, so the same floats, without building the (..., 2) point arrays. Up to
    :data:`SMALL_PAIRS` segment pairs are measured one by one in floats
    (:func:`_seg_dist_small`: the same floats, without the ~90 numpy calls of the arrays)."""
    if isinstance(p1x, np.ndarray) and isinstance(q1x, np.ndarray):
        small = _seg_dist_small(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y)
        if small is not None:
            return small
    return _seg_dist_arrays(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y)


SMALL_PAIRS = 12
"""Broadcast sizes up to which :func:`_seg_dist_xy` measures pair by pair in floats (about
where the per-pair Python cost meets numpy's per-call cost)."""


def _seg_dist_small(p1x: FloatArray, p1y: FloatArray, p2x: FloatArray, p2y: FloatArray,
                    q1x: FloatArray, q1y: FloatArray, q2x: FloatArray, q2y: FloatArray
                    ) -> FloatArray | None:
    """:func:`_seg_dist_arrays` for float64 arrays of at most :data:`SMALL_PAIRS` broadcast
    elements, element by element by :func:`_seg_dist1` (the same operations in the same
    order, so the same floats); None for other inputs (larger, empty, not float64, or
    shapes other than: the four ``p`` arrays of one shape and the four ``q`` of one, the
    two shapes equal or one of them a single element no wider than the other)."""
    ps, qs = (p1x, p1y, p2x, p2y), (q1x, q1y, q2x, q2y)
    pshape, qshape = p1x.shape, q1x.shape
    for x in ps:
        if not isinstance(x, np.ndarray) or x.dtype != np.float64 or x.shape != pshape:
            return None
    for x in qs:
        if not isinstance(x, np.ndarray) or x.dtype != np.float64 or x.shape != qshape:
            return None
    if pshape == qshape:
        shape = pshape
    elif p1x.size == 1 and len(pshape) <= len(qshape):
        shape = qshape
    elif q1x.size == 1 and len(qshape) <= len(pshape):
        shape = pshape
    else:
        return None
    size = math.prod(shape)
    if size == 0 or size > SMALL_PAIRS:
        return None
    if p1x.size == 1 and size > 1:
        pa, pb, pc, pd = (float(x.flat[0]) for x in ps)
        qq = [x.ravel().tolist() for x in qs]
        out = [_seg_dist1(pa, pb, pc, pd, e, f, g, h) for e, f, g, h in zip(*qq, strict=True)]
    elif q1x.size == 1 and size > 1:
        qa, qb, qc, qd = (float(x.flat[0]) for x in qs)
        pp = [x.ravel().tolist() for x in ps]
        out = [_seg_dist1(e, f, g, h, qa, qb, qc, qd) for e, f, g, h in zip(*pp, strict=True)]
    else:
        vals = [x.ravel().tolist() for x in (*ps, *qs)]
        out = [_seg_dist1(*v) for v in zip(*vals, strict=True)]
    return np.array(out, dtype=np.float64).reshape(shape)


STACKED_MAX = 512
"""Broadcast sizes up to which :func:`_seg_dist_arrays` stacks its four point-segment
distances (:func:`_seg_dist_stacked`); above, the stacked copies would cost memory for no
gain (numpy's per-call cost is then small beside the work)."""


def _seg_dist_arrays(p1x: FloatArray, p1y: FloatArray, p2x: FloatArray, p2y: FloatArray,
                     q1x: FloatArray, q1y: FloatArray, q2x: FloatArray, q2y: FloatArray
                     ) -> FloatArray:
    """:func:`_seg_dist_xy` as arrays (every size): :func:`_seg_dist_stacked` for float64
    inputs of at most :data:`STACKED_MAX` broadcast elements, else :func:`_seg_dist_plain`
    (the same floats)."""
    args = (p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y)
    for x in args:
        kind: object = type(x)
        if not ((isinstance(x, np.ndarray) and x.dtype == np.float64) or kind is float):
            return _seg_dist_plain(*args)
    shape = np.broadcast_shapes(*(np.shape(x) for x in args))
    if math.prod(shape) > STACKED_MAX:
        return _seg_dist_plain(*args)
    return _seg_dist_stacked(shape, *args)


def _seg_dist_stacked(shape: tuple[int, ...],
                      p1x: FloatArray, p1y: FloatArray, p2x: FloatArray, p2y: FloatArray,
                      q1x: FloatArray, q1y: FloatArray, q2x: FloatArray, q2y: FloatArray
                      ) -> FloatArray:
    """:func:`_seg_dist_plain` on float64 inputs of broadcast shape ``shape``, its four
    point-segment distances as one (4, ...) computation: each element goes through the same
    float64 operations in the same order (the inputs copied into the stacked arrays
    unchanged), so the same floats, with half the numpy calls (each call's fixed cost
    is most of the time on the searches' tens of segment pairs). The orientation tests are
    the same stacked rows (``bx * ay - by * ax`` is ``qx * a1y - qy * a1x`` for row 0, and so
    on)."""
    # the segment vectors (rows 0, 1: q; rows 2, 3: p) and their squared lengths
    b = np.empty((3, 4, *shape))
    np.subtract(q2x, q1x, out=b[0, 0])
    np.subtract(q2y, q1y, out=b[1, 0])
    np.subtract(p2x, p1x, out=b[0, 2])
    np.subtract(p2y, p1y, out=b[1, 2])
    b[:2, 1] = b[:2, 0]
    b[:2, 3] = b[:2, 2]
    np.maximum(b[0] ** 2 + b[1] ** 2, 1e-300, out=b[2])
    # the points from the segments' starts: p1, p2 from q1; q1, q2 from p1
    a = np.empty((2, 4, *shape))
    np.subtract(p1x, q1x, out=a[0, 0])
    np.subtract(p2x, q1x, out=a[0, 1])
    np.subtract(q1x, p1x, out=a[0, 2])
    np.subtract(q2x, p1x, out=a[0, 3])
    np.subtract(p1y, q1y, out=a[1, 0])
    np.subtract(p2y, q1y, out=a[1, 1])
    np.subtract(q1y, p1y, out=a[1, 2])
    np.subtract(q2y, p1y, out=a[1, 3])
    ax, ay = a[0], a[1]
    bx, by = b[0], b[1]
    t = (ax * bx + ay * by) / b[2]
    t = np.minimum(np.maximum(t, 0.0), 1.0)
    dx = ax - bx * t
    dy = ay - by * t
    sq = dx * dx + dy * dy
    d = np.sqrt(np.minimum(np.minimum(sq[0], sq[1]), np.minimum(sq[2], sq[3])))
    # orientations: of p1, p2 about segment q (rows 0, 1), of q1, q2 about segment p (2, 3)
    turn = bx * ay - by * ax
    cross = (turn[0] * turn[1] < 0) & (turn[2] * turn[3] < 0)
    return np.asarray(np.where(cross, 0.0, d), dtype=np.float64)


def _seg_dist_plain(p1x: FloatArray, p1y: FloatArray, p2x: FloatArray, p2y: FloatArray,
                    q1x: FloatArray, q1y: FloatArray, q2x: FloatArray, q2y: FloatArray
                    ) -> FloatArray:
    """:func:`_seg_dist_xy` as arrays, the four point-segment distances one after the other
    (every input; the reference of :func:`_seg_dist_stacked`)."""
    qx, qy = q2x - q1x, q2y - q1y  # segment q, from q1
    px, py = p2x - p1x, p2y - p1y  # segment p, from p1
    qden = np.maximum(qx ** 2 + qy ** 2, 1e-300)
    pden = np.maximum(px ** 2 + py ** 2, 1e-300)

    def pseg2(ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray,
              den: FloatArray) -> FloatArray:
        # squared distance from a point (offset ax, ay from the segment's start) to the
        # segment (bx, by); np.clip's value without its per-call overhead
        t = (ax * bx + ay * by) / den
        t = np.minimum(np.maximum(t, 0.0), 1.0)
        dx = ax - bx * t
        dy = ay - by * t
        return np.asarray(dx * dx + dy * dy, dtype=np.float64)

    a1x, a1y = p1x - q1x, p1y - q1y  # p1 from q1
    a2x, a2y = p2x - q1x, p2y - q1y  # p2 from q1
    b1x, b1y = q1x - p1x, q1y - p1y  # q1 from p1
    b2x, b2y = q2x - p1x, q2y - p1y  # q2 from p1
    d2 = np.minimum(
        np.minimum(pseg2(a1x, a1y, qx, qy, qden), pseg2(a2x, a2y, qx, qy, qden)),
        np.minimum(pseg2(b1x, b1y, px, py, pden), pseg2(b2x, b2y, px, py, pden)),
    )
    d = np.sqrt(d2)
    # orientations: of p1, p2 about segment q, of q1, q2 about segment p
    d1 = qx * a1y - qy * a1x
    d2_ = qx * a2y - qy * a2x
    d3 = px * b1y - py * b1x
    d4 = px * b2y - py * b2x
    cross = (d1 * d2_ < 0) & (d3 * d4 < 0)
    return np.asarray(np.where(cross, 0.0, d), dtype=np.float64)


def _seg_dist1(p1x: float, p1y: float, p2x: float, p2y: float,
               q1x: float, q1y: float, q2x: float, q2y: float) -> float:
    """:func:`_seg_dist_xy` for one pair of segments in float arithmetic: the same operations
    in the same order (``x ** 2`` of a float64 array is ``x * x``; ``min``/``max`` keep the
    first of equal values as ``np.minimum``/``np.maximum`` do; ``math.sqrt`` is correctly
    rounded as ``np.sqrt`` is), so the same float, without numpy's per-call cost on the
    one-element arrays of the searches' small tests."""
    qx, qy = q2x - q1x, q2y - q1y
    px, py = p2x - p1x, p2y - p1y
    qden = max(qx * qx + qy * qy, 1e-300)
    pden = max(px * px + py * py, 1e-300)
    a1x, a1y = p1x - q1x, p1y - q1y
    a2x, a2y = p2x - q1x, p2y - q1y
    b1x, b1y = q1x - p1x, q1y - p1y
    b2x, b2y = q2x - p1x, q2y - p1y
    t = min(max((a1x * qx + a1y * qy) / qden, 0.0), 1.0)
    ex, ey = a1x - qx * t, a1y - qy * t
    d_a1 = ex * ex + ey * ey
    t = min(max((a2x * qx + a2y * qy) / qden, 0.0), 1.0)
    ex, ey = a2x - qx * t, a2y - qy * t
    d_a2 = ex * ex + ey * ey
    t = min(max((b1x * px + b1y * py) / pden, 0.0), 1.0)
    ex, ey = b1x - px * t, b1y - py * t
    d_b1 = ex * ex + ey * ey
    t = min(max((b2x * px + b2y * py) / pden, 0.0), 1.0)
    ex, ey = b2x - px * t, b2y - py * t
    d_b2 = ex * ex + ey * ey
    d = math.sqrt(min(min(d_a1, d_a2), min(d_b1, d_b2)))
    if (qx * a1y - qy * a1x) * (qx * a2y - qy * a2x) < 0 and (
        (px * b1y - py * b1x) * (px * b2y - py * b2x) < 0
    ):
        return 0.0
    return d


def _joining_reach(dist: FloatArray, convex: bool, chain: bool, half: float) -> float:
    """How far from one obstacle the convex (or path-connected) set of
    ``los._single_wall_separates`` that joins the two hull sides reaches: ``dist[s, e]`` is
    the distance from hull side ``s`` to the obstacle's near edge ``e``. A convex obstacle
    grown by the larger of its two side distances (and a hair for rounding, at most half its
    grow) meets both sides; one edge grown by the larger of its two distances does; a run of
    edges (:func:`_chain_joins`) is taken grown by half its grow. Every line between the
    footprints crosses that set, so it comes within ``reach <= half < grow - TOUCH`` of the
    obstacle, and the set must only keep clear of
    both footprints (footprints closer than the grow, e.g. in base contact with a vehicle,
    but farther than the reach, keep the proof)."""
    if chain:
        return half
    if convex:
        reach = float(max(dist[0].min(), dist[1].min()))
    else:
        both = np.maximum(dist[0], dist[1])
        reach = float(both[both <= half].min())
    return min(reach + 1e-9, half)  # a hair more than the computed distances, at most half


def _chain_joins(m1: np.ndarray, m2: np.ndarray, ends: FloatArray, quad: FloatArray) -> bool:
    """One polygon's edges in order (edge ``i`` ends at ``ends[i]``, where edge ``i + 1``
    starts), ``m1``/``m2``: the edge comes within half the grow of hull side 1/2; ``quad``:
    the two hull sides' end points, a quadrilateral inside the hull. Some run of consecutive
    edges joined at vertices inside ``quad`` holds an edge meeting side 1 and one meeting
    side 2: from a point of side 1 within the first edge's grown set to the first joint
    (both in that convex set and in the convex hull), along the edges from joint to joint
    (inside the hull), to a point of side 2 within the last edge's grown set, a path inside
    the hull joins its two sides within half the grow of the polygon. Clear of both
    footprints, it cuts the hull with the observer and the target apart, as one convex set
    does."""
    n = len(m1)
    link = point_in_polygon(ends, quad) if n >= 3 else np.zeros(n, dtype=bool)
    # runs of edges linked through their end vertex, around the polygon
    if link.all():
        return bool(m1.any() and m2.any())
    start = int(np.argmin(link)) + 1  # a run starts after an unlinked vertex
    s1 = s2 = False
    for step in range(n):
        i = (start + step) % n
        s1, s2 = s1 or bool(m1[i]), s2 or bool(m2[i])
        if s1 and s2:
            return True
        if not link[i]:
            s1 = s2 = False
    return False


def _clear_of(ea: FloatArray, eb: FloatArray, gap: float, s: Shape) -> bool:
    """The obstacle polygon (edges ``ea``-``eb``) is farther than ``gap`` from footprint ``s``
    (a circle or a polygon), neither inside the other."""
    if isinstance(s, Circle):
        c = np.array([[s.cx, s.cy]])
        ab = eb - ea
        ap = c - ea
        den = np.maximum((ab * ab).sum(axis=1), 1e-300)
        u = np.clip((ap * ab).sum(axis=1) / den, 0.0, 1.0)
        off = ap - ab * u[:, None]
        if float(np.sqrt((off * off).sum(axis=1)).min()) <= s.r + gap:
            return False
        return len(ea) < 3 or not bool(point_in_polygon(c, ea)[0])
    if isinstance(s, Polygon):
        pts, nxt = _ring(s)
        dd = _seg_dist(pts[:, None, :], nxt[:, None, :], ea[None, :, :], eb[None, :, :])
        if float(dd.min()) <= gap:
            return False
        if len(ea) >= 3 and bool(point_in_polygon(pts[:1], ea)[0]):
            return False
        return not bool(point_in_polygon(ea[:1], pts)[0])
    return False
