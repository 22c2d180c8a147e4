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
    point-segment distances as one stacked computation (:func:`_seg_dist_packed`): each
    element goes through the same float64 operations in the same order (the differences
    written into the stacked arrays), so the same floats, with about half the numpy calls
    (each call's fixed cost is most of the time on the searches' tens of segment pairs)."""
    a = np.empty((2, 2, 2, *shape))
    np.subtract(p1x, q1x, out=a[0, 0, 0])
    np.subtract(q1x, p1x, out=a[0, 0, 1])
    np.subtract(p2x, q1x, out=a[0, 1, 0])
    np.subtract(q2x, p1x, out=a[0, 1, 1])
    np.subtract(p1y, q1y, out=a[1, 0, 0])
    np.subtract(q1y, p1y, out=a[1, 0, 1])
    np.subtract(p2y, q1y, out=a[1, 1, 0])
    np.subtract(q2y, p1y, out=a[1, 1, 1])
    b = np.empty((2, 2, 2, *shape))
    np.subtract(q2x, q1x, out=b[0, 0, 0])
    np.subtract(p2x, p1x, out=b[0, 0, 1])
    np.subtract(q2y, q1y, out=b[1, 0, 0])
    np.subtract(p2y, p1y, out=b[1, 0, 1])
    b[:, 1] = b[:, 0]
    return _seg_dist_packed(a, b)


SMALL_ROWS = 5
"""Pair counts up to which :func:`seg_dist_rows` measures pair by pair in floats: there the
arrays' fixed cost (about 170 k instructions a call under callgrind) meets the floats' cost
(about 28 k a pair, 18 k a call)."""


def seg_dist_rows(p1: FloatArray, p2: FloatArray, q1: FloatArray, q2: FloatArray
                  ) -> FloatArray:
    """:func:`_seg_dist_xy` of segments ``p1``-``p2`` and ``q1``-``q2`` given as (2, N) float64
    rows (x, y): the same floats (:func:`_seg_dist_packed` on the differences of the rows,
    element by element those of :func:`_seg_dist_plain`; up to :data:`SMALL_ROWS` pairs
    one by one in floats, as :func:`_seg_dist_small`), without splitting the rows into eight
    coordinate arrays and with half the subtractions (each difference taken on both rows
    at once)."""
    n = p1.shape[1]
    if n == 0:
        return np.zeros(0)  # (the arrays' answer: no distance, float64)
    if n <= SMALL_ROWS:
        (ax, ay), (bx, by) = p1.tolist(), p2.tolist()
        (cx, cy), (dx, dy) = q1.tolist(), q2.tolist()
        out = [_seg_dist1(*v) for v in zip(ax, ay, bx, by, cx, cy, dx, dy, strict=True)]
        return np.array(out, dtype=np.float64)
    # (the (2, N) differences side by side along the rows: (2, 4N) is the (2, 2, 2, N)
    # layout, each block written by one contiguous copy)
    a = np.concatenate((p1 - q1, q1 - p1, p2 - q1, q2 - p1), axis=1).reshape(2, 2, 2, n)
    bq, bp = q2 - q1, p2 - p1
    b = np.concatenate((bq, bp, bq, bp), axis=1).reshape(2, 2, 2, n)
    return _seg_dist_packed(a, b)


_ZERO, _ONE, _TINY = np.array(0.0), np.array(1.0), np.array(1e-300)
"""The constants of :func:`_seg_dist_packed` as 0-d float64 arrays: the same values and
result types as the Python floats (float64 arrays with float64 operands), without numpy's
conversion of a Python scalar at every call."""


def _seg_dist_packed(a: FloatArray, b: FloatArray) -> FloatArray:
    """The segment distances from the stacked differences, (2, 2, 2, ...) arrays indexed
    (coordinate x / y, point first / second, segment q / p): ``a`` the points from the
    segments' starts (p1, p2 from q1; q1, q2 from p1), ``b`` the segment vectors (q, p; the
    same for both points). Element by element the operations of :func:`_seg_dist_plain` in
    its order (``x ** 2`` of a float64 array is ``x * x``; ``ax * bx + ay * by`` is the
    product's two coordinate halves added; the least of the four squared distances taken in
    another order is the same float: the minimum rounds nothing, the squared sums are
    never -0, and a NaN propagates in any order), so the same floats; each numpy call on
    all four point-segment distances (or both segments) at once, on operands of one shape
    (numpy's broadcasting loops cost several times a plain one on these sizes)."""
    bb = b * b
    den = np.maximum(bb[0] + bb[1], _TINY)  # each segment's squared length (per point)
    ab = a * b
    t = np.minimum(np.maximum((ab[0] + ab[1]) / den, _ZERO), _ONE)
    dx = a[0] - b[0] * t
    dy = a[1] - b[1] * t
    sq = dx * dx + dy * dy  # (point, segment, ...)
    m = np.minimum(sq[0], sq[1])  # (segment, ...): as min(d(p1), d(p2)), min(d(q1), d(q2))
    d = np.sqrt(np.minimum(m[0], m[1]))
    # orientations (``bx * ay - by * ax``): of p1, p2 about segment q, of q1, q2 about p
    turn = b[0] * a[1] - b[1] * a[0]
    neg = turn[0] * turn[1] < _ZERO  # (segment, ...)
    out: FloatArray = np.where(neg[0] & neg[1], _ZERO, d)
    return out


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
