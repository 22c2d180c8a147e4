"""Measuring (01.04, 03.03, 03.04, 14, 17.02, Appendix): closest-part distances.

Exactness:

* circle-circle, circle-polygon and polygon-polygon distances are closed form;
* a circle and an oval, and an oval (or a swept round or oval base) apart from a segment,
  convex polygon or another oval, are closed form or exact to rounding too
  (:mod:`w40k.geometry.oval_measure`: the signed point-to-ellipse distance; Newton steps on
  the smooth gap of two ovals);
* anything else involving an oval (an oval meeting a polygon or another oval) uses the
  separating-axis identity
  ``dist(A, B) = max(0, max_n [min_{b in B} n.b - max_{a in A} n.a])`` over unit ``n``,
  maximised by zooming grids over the angle of ``n`` (256 samples, then 7 rounds of 33
  samples around the best, each 1/16 of the previous step): the angle is pinned to about
  1e-10 rad, so the distance error is far below 1e-9" for table-sized shapes.
  :func:`plain_separation` is that search for every pair (the reference the closed forms
  are tested against).

"Within X" is ``distance <= X`` (touching counts); "more than X" is ``distance > X``.
Horizontal and vertical parts are measured separately: vertically, a based model is measured
from its base, i.e. the surface it stands on (01.04); a FRAME model from any point of its body
(17.02), so its vertical extent is ``[z, z + height]``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from w40k.core import kept
from w40k.geometry.oval_measure import (
    oval_oval,
    point_oval,
    polygon_oval,
    segment_depth,
    segment_oval,
)
from w40k.geometry.shapes import (
    EPS,
    Circle,
    FloatArray,
    Model,
    Oval,
    Polygon,
    Shape,
    convex_hull,
    mm,
)

ENGAGEMENT_HORIZONTAL = 2.0
"""03.04: engagement range, horizontal part."""
ENGAGEMENT_VERTICAL = 5.0
"""03.04: engagement range, vertical part."""
COHERENCY_NEIGHBOUR = 2.0
"""03.03: within 2" horizontally of at least one other model."""
COHERENCY_ALL = 9.0
"""03.03: within 9" horizontally of every other model."""
COHERENCY_VERTICAL = 5.0
"""03.03: and within 5" vertically in both conditions."""
MARKER_DIAMETER_MM = 40.0
"""Appendix: objective markers are 40 mm discs."""
MARKER_RANGE_HORIZONTAL = 3.0
"""Appendix: within range of a marker is within 3" horizontally..."""
MARKER_RANGE_VERTICAL = 5.0
"""...and 5" vertically."""


def _unit(theta: FloatArray) -> FloatArray:
    """Unit vectors at the angles (the rows ``[cos, sin]``)."""
    n = np.empty((len(theta), 2))
    np.cos(theta, out=n[:, 0])
    np.sin(theta, out=n[:, 1])
    return n


class Supported(Protocol):
    """A convex set given by its support function (every shape, and :class:`Swept`)."""

    def support(self, n: FloatArray) -> FloatArray:
        """``h(n) = max_{x in set} n . x`` for unit normals ``n`` of shape (k, 2)."""
        ...


def _gap(a: Supported, b: Supported, theta: FloatArray) -> FloatArray:
    return _gap_n(a, b, _unit(theta))


def _gap_n(a: Supported, b: Supported, n: FloatArray) -> FloatArray:
    return np.asarray(-b.support(-n) - a.support(n), dtype=np.float64)


_THETA0 = np.linspace(0.0, 2 * math.pi, 256, endpoint=False)
"""The first grid of :func:`_max_gap` (computed once)."""
_UNIT0 = _unit(_THETA0)
"""Its unit vectors."""


def _max_gap(a: Supported, b: Supported) -> float:
    """max over directions of the separating gap (positive = exact distance)."""
    theta = _THETA0
    g = _gap_n(a, b, _UNIT0)
    i = int(np.argmax(g))
    best_t, best = float(theta[i]), float(g[i])
    step = 2 * math.pi / 256
    for _ in range(7):
        theta = np.linspace(best_t - step, best_t + step, 33)
        g = _gap(a, b, theta)
        i = int(np.argmax(g))
        if g[i] > best:
            best_t, best = float(theta[i]), float(g[i])
        step /= 16.0
    return best


def _next(a: FloatArray) -> FloatArray:
    """The rows of ``a`` shifted by one (each vertex's successor): ``np.roll(a, -1, axis=0)``
    without its overhead."""
    return np.concatenate((a[1:], a[:1]))


def point_segment_distance(p: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Distances from points ``p`` (k, 2) to segments ``a``-``b`` (broadcastable)."""
    ab = b - a
    ap = p - a
    denom = np.maximum((ab * ab).sum(axis=-1), 1e-300)
    t = np.minimum(np.maximum((ap * ab).sum(axis=-1) / denom, 0.0), 1.0)  # = np.clip, faster
    d = ap - ab * t[..., None]
    return np.asarray(np.sqrt((d * d).sum(axis=-1)), dtype=np.float64)


def point_in_polygon(p: FloatArray, poly: FloatArray) -> FloatArray:
    """Even-odd point-in-polygon for points (k, 2) and one polygon (m, 2); boundary is fuzzy."""
    if len(p) == 1 and len(poly) <= _SMALL:  # one point: plain arithmetic, the same values
        q = p.tolist()[0]
        return np.array([_point_in(q[0], q[1], poly.tolist())])
    x, y = p[:, 0:1], p[:, 1:2]
    x1, y1 = poly[:, 0][None, :], poly[:, 1][None, :]
    nxt = _next(poly)
    x2, y2 = nxt[:, 0][None, :], nxt[:, 1][None, :]
    cond = (y1 > y) != (y2 > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        xint = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
    crossing = cond & (x < xint)
    return np.asarray(crossing.sum(axis=1) % 2 == 1)


_SMALL = 64
"""Polygons of at most this many vertices are measured from one point in plain Python
arithmetic (:func:`_point_in`, :func:`_edge_distance`): the same operations as the numpy
forms in the same order, so the same values, without numpy's per-call cost (geometry asks
these of one point tens of thousands of times per battle)."""


def _point_in(x: float, y: float, pts: list[list[float]]) -> bool:
    """:func:`point_in_polygon` of one point (even-odd; each edge from a vertex to the
    next, the crossing at ``x1 + (y - y1) (x2 - x1) / (y2 - y1)`` as there)."""
    if not pts:
        return False
    inside = False
    x2, y2 = pts[0]
    for x1, y1 in reversed(pts):  # edges (pts[i], pts[i + 1]), last to first
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
        x2, y2 = x1, y1
    return inside


def point_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float
                  ) -> float:
    """:func:`point_segment_distance` of one point and one segment, scalar (the same
    operations, so the same floats)."""
    abx, aby = bx - ax, by - ay
    apx, apy = px - ax, py - ay
    denom = max(abx * abx + aby * aby, 1e-300)
    t = min(max((apx * abx + apy * aby) / denom, 0.0), 1.0)
    dx, dy = apx - abx * t, apy - aby * t
    return math.sqrt(dx * dx + dy * dy)


def _edge_distance(x: float, y: float, pts: list[list[float]]) -> float:
    """The distance from a point to the closed boundary of a polygon of 3 or more vertices
    (each edge from a vertex to the next)."""
    best = math.inf
    bx, by = pts[0]
    for ax, ay in reversed(pts):
        d = point_segment(x, y, ax, ay, bx, by)
        if d < best:
            best = d
        bx, by = ax, ay
    return best


def point_polygon_distance(p: FloatArray, poly: FloatArray) -> FloatArray:
    """Distance from points to a (possibly non-convex) polygon region; 0 inside."""
    if len(p) == 1 and 3 <= len(poly) <= _SMALL:
        q, pts = p.tolist()[0], poly.tolist()
        return np.array([0.0 if _point_in(q[0], q[1], pts) else _edge_distance(q[0], q[1], pts)])
    a = poly[None, :, :]
    b = _next(poly)[None, :, :]
    d = point_segment_distance(p[:, None, :], a, b).min(axis=1)
    inside = point_in_polygon(p, poly)
    return np.asarray(np.where(inside, 0.0, d), dtype=np.float64)


def _segments_intersect(
    p1: FloatArray, p2: FloatArray, q1: FloatArray, q2: FloatArray
) -> FloatArray:
    def orient(a: FloatArray, b: FloatArray, c: FloatArray) -> FloatArray:
        return np.asarray(
            (b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1])
            - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0]),
            dtype=np.float64,
        )

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return np.asarray(((d1 > 0) != (d2 > 0)) & ((d3 > 0) != (d4 > 0)) & (d1 != 0) & (d3 != 0))


def segment_segment_distance(
    p1: FloatArray, p2: FloatArray, q1: FloatArray, q2: FloatArray
) -> FloatArray:
    """Distances between segments p1-p2 and q1-q2 (broadcastable (..., 2) arrays)."""
    d = np.minimum(
        np.minimum(point_segment_distance(p1, q1, q2), point_segment_distance(p2, q1, q2)),
        np.minimum(point_segment_distance(q1, p1, p2), point_segment_distance(q2, p1, p2)),
    )
    return np.asarray(np.where(_segments_intersect(p1, p2, q1, q2), 0.0, d), dtype=np.float64)


def separation(a: Shape, b: Shape) -> float:
    """Signed separation of two convex shapes: the exact closest distance when apart, <= 0
    when they touch or overlap (the magnitude of a negative value is not meaningful)."""
    if isinstance(a, Circle) and isinstance(b, Circle):
        return math.hypot(a.cx - b.cx, a.cy - b.cy) - a.r - b.r
    if isinstance(a, Polygon) and isinstance(b, Circle):
        a, b = b, a
    if isinstance(a, Circle) and isinstance(b, Polygon):
        if 3 <= len(b.points) <= _SMALL:
            pts = [[float(x), float(y)] for x, y in b.points]
            if _point_in(a.cx, a.cy, pts):
                return -a.r
            return _edge_distance(a.cx, a.cy, pts) - a.r
        pa = b.array()
        c = np.array([[a.cx, a.cy]])
        if len(pa) >= 3 and bool(point_in_polygon(c, pa)[0]):
            return -a.r
        ends = _next(pa) if len(pa) >= 3 else pa[1:]
        starts = pa if len(pa) >= 3 else pa[:1]
        return float(point_segment_distance(c, starts, ends).min()) - a.r
    if isinstance(a, Polygon) and isinstance(b, Polygon):
        return polygon_distance(a.array(), b.array())
    fast = _oval_separation(a, b)
    return _max_gap(a, b) if fast is None else fast


def _oval_separation(a: Shape, b: Shape) -> float | None:
    """:func:`separation` in closed form where one shape is an oval: with a circle always,
    with a polygon (or segment) or another oval when they are apart; None otherwise."""
    if isinstance(b, Oval) and not isinstance(a, Oval):
        a, b = b, a
    if not isinstance(a, Oval):
        return None
    if isinstance(b, Circle):
        return point_oval(b.cx, b.cy, a) - b.r
    if isinstance(b, Polygon):
        return polygon_oval(b.points, a)
    if isinstance(b, Oval):
        return oval_oval(a, b)
    return None


def plain_separation(a: Shape, b: Shape) -> float:
    """:func:`separation` by the general separating-axis search alone (the reference for the
    closed forms; slow)."""
    return _max_gap(a, b)


def polygon_distance(pa: FloatArray, pb: FloatArray) -> float:
    """Closest distance between two polygon regions (0 if they intersect or nest)."""
    ea1, ea2 = pa, (_next(pa) if len(pa) >= 3 else pa[::-1])
    eb1, eb2 = pb, (_next(pb) if len(pb) >= 3 else pb[::-1])
    d = segment_segment_distance(ea1[:, None, :], ea2[:, None, :], eb1[None, :, :], eb2[None, :, :])
    dmin = float(d.min())
    if dmin <= 0.0:
        return 0.0
    if len(pb) >= 3 and bool(point_in_polygon(pa[:1], pb)[0]):
        return 0.0
    if len(pa) >= 3 and bool(point_in_polygon(pb[:1], pa)[0]):
        return 0.0
    return dmin


def distance(a: Shape, b: Shape) -> float:
    """Closest distance between two convex shapes (0 if they touch or overlap)."""
    return max(0.0, separation(a, b))


def shape_region_distance(shape: Shape, region: FloatArray) -> float:
    """Closest distance from a convex shape to a (possibly non-convex) polygon region."""
    cx, cy = shape.center
    if 3 <= len(region) <= _SMALL:
        pts = region.tolist()
        if _point_in(cx, cy, pts):
            return 0.0
        if isinstance(shape, Circle):
            return max(0.0, _edge_distance(cx, cy, pts) - shape.r)
    elif bool(point_in_polygon(np.array([[cx, cy]]), region)[0]):
        return 0.0
    if isinstance(shape, Circle):
        return max(0.0, float(point_polygon_distance(np.array([[cx, cy]]), region)[0]) - shape.r)
    if isinstance(shape, Polygon):
        return polygon_distance(shape.array(), region)
    nxt = _next(region)
    if isinstance(shape, Oval):
        best = math.inf
        for p, q in zip(region.tolist(), nxt.tolist(), strict=True):
            d = segment_oval((p[0], p[1]), (q[0], q[1]), shape)
            if d is None:
                return 0.0  # the oval meets this edge
            best = min(best, d)
        return best
    return max(
        0.0,
        min(
            separation(shape, Polygon(((float(p[0]), float(p[1])), (float(q[0]), float(q[1])))))
            for p, q in zip(region, nxt, strict=True)
        ),
    )


@dataclass(frozen=True)
class Swept:
    """The area a convex shape covers while it moves in a straight line by ``(dx, dy)``
    without turning: the convex hull of its start and end footprints, exactly (its support
    function is ``h(n) + max(0, n . d)``)."""

    shape: Shape
    """The footprint at the start."""
    dx: float
    """The move along x (inches)."""
    dy: float
    """The move along y (inches)."""

    def support(self, n: FloatArray) -> FloatArray:
        """Support function of the swept area."""
        return np.asarray(self.shape.support(n) + np.maximum(0.0, n[:, 0] * self.dx
                                                             + n[:, 1] * self.dy),
                          dtype=np.float64)

    @property
    def center(self) -> tuple[float, float]:
        """A point inside it: the centre of the footprint half way."""
        cx, cy = self.shape.center
        return (cx + self.dx / 2, cy + self.dy / 2)

    def polygon(self) -> Polygon | None:
        """The swept area of a polygon footprint as a polygon (None for a curved one)."""
        if not isinstance(self.shape, Polygon):
            return None
        a = self.shape.array()
        return Polygon(convex_hull(np.concatenate((a, a + np.array([self.dx, self.dy])))))


def swept_separation(sw: Swept, other: Shape) -> float:
    """:func:`separation` of the swept area and ``other`` (<= 0 when the footprint touches or
    overlaps ``other`` somewhere along the move)."""
    hull = sw.polygon()
    if hull is not None:
        return separation(hull, other)
    fast = _swept_oval_separation(sw, other)
    return _max_gap(sw, other) if fast is None else fast


def _swept_back(points: FloatArray, sw: Swept) -> tuple[tuple[float, float], ...]:
    """The convex hull of the points and the points moved back by the sweep: the swept
    footprint meets a convex set iff the still footprint meets that set swept back
    (Minkowski sums), at the same distance."""
    return convex_hull(np.concatenate((points, points - np.array([sw.dx, sw.dy]))))


def _swept_oval_separation(sw: Swept, other: Shape) -> float | None:
    """:func:`swept_separation` in closed form for a round or oval footprint: against a
    circle always, against a polygon when apart; None otherwise."""
    fp = sw.shape
    if not isinstance(fp, Circle | Oval):
        return None
    if isinstance(other, Circle):
        d = segment_oval((other.cx, other.cy), (other.cx - sw.dx, other.cy - sw.dy), fp)
        return None if d is None else d - other.r
    if isinstance(other, Polygon):
        return polygon_oval(_swept_back(other.array(), sw), fp)
    return None


def swept_region_distance(sw: Swept, region: FloatArray) -> float:
    """:func:`shape_region_distance` of the swept area: 0 when the footprint touches or
    enters the polygon region somewhere along the move."""
    hull = sw.polygon()
    if hull is not None:
        return shape_region_distance(hull, region)
    cx, cy = sw.center
    if bool(point_in_polygon(np.array([[cx, cy]]), region)[0]):
        return 0.0
    nxt = _next(region)
    if isinstance(sw.shape, Circle | Oval):
        best = math.inf
        for p, q in zip(region, nxt, strict=True):
            d = polygon_oval(_swept_back(np.stack((p, q)), sw), sw.shape)
            if d is None:
                return 0.0  # the footprint meets this edge on the way
            best = min(best, d)
        return best
    return max(0.0, min(
        _max_gap(sw, Polygon(((float(p[0]), float(p[1])), (float(q[0]), float(q[1])))))
        for p, q in zip(region, nxt, strict=True)))


def shape_inside_region(shape: Shape, region: FloatArray) -> bool:
    """True if the shape is wholly within the polygon region (touching the boundary allowed)."""
    cx, cy = shape.center
    if not bool(point_in_polygon(np.array([[cx, cy]]), region)[0]):
        return False
    nxt = _next(region)
    if isinstance(shape, Circle):
        d = point_segment_distance(np.array([[cx, cy]]), region, nxt)
        return bool(d.min() >= shape.r - EPS)
    if isinstance(shape, Polygon):
        pts = shape.array()
        if not bool(point_in_polygon(pts, region).all()):
            return False
        d = segment_segment_distance(
            pts[:, None, :],
            _next(pts)[:, None, :],
            region[None, :, :],
            nxt[None, :, :],
        )
        on_edge = point_polygon_distance(pts, region) <= EPS
        return bool(d.min() > 0.0 or on_edge.any())
    for p, q in zip(region, nxt, strict=True):
        edge = Polygon(((float(p[0]), float(p[1])), (float(q[0]), float(q[1]))))
        if isinstance(shape, Oval) and segment_depth(edge.points[0], edge.points[1],
                                                     shape) > 2 * EPS:
            return False  # the edge cuts into the oval by more than EPS
        if separation(shape, edge) < -EPS:
            return False
    return True


def boundary_points(shape: Shape, k: int = 720) -> FloatArray:
    """Exact boundary points of a shape in k directions (support points)."""
    if isinstance(shape, Polygon):
        return shape.array()
    t = np.linspace(0.0, 2 * math.pi, k, endpoint=False)
    if isinstance(shape, Circle):
        return np.stack([shape.cx + shape.r * np.cos(t), shape.cy + shape.r * np.sin(t)], axis=1)
    c, s = math.cos(shape.angle), math.sin(shape.angle)
    x, y = shape.a * np.cos(t), shape.b * np.sin(t)
    return np.stack([shape.cx + c * x - s * y, shape.cy + s * x + c * y], axis=1)


def farthest_distance(shape: Shape, target: Shape) -> float:
    """Largest distance from any point of ``shape`` to ``target`` ("wholly within", convex target).

    Exact for two circles or a polygon shape; otherwise the maximum over the 720 boundary
    points of :func:`boundary_points` (a point between two of them can be up to about
    ``size * 1e-5`` farther)."""
    if isinstance(shape, Circle) and isinstance(target, Circle):
        return max(0.0, math.hypot(shape.cx - target.cx, shape.cy - target.cy) + shape.r - target.r)
    pts = shape.array() if isinstance(shape, Polygon) else boundary_points(shape)
    return max(_point_distances(pts, target))


def _point_distances(pts: FloatArray, target: Shape) -> list[float]:
    """:func:`distance` from each point to ``target`` (the same values, computed together for
    a polygon target and in closed form for an oval)."""
    if isinstance(target, Polygon) and len(target.points) >= 3:
        return [max(0.0, float(d)) for d in point_polygon_distance(pts, target.array())]
    if isinstance(target, Oval):
        return [max(0.0, point_oval(x, y, target)) for x, y in pts.tolist()]
    return [distance(Circle(float(p[0]), float(p[1]), 0.0), target) for p in pts]


def horizontal_distance(a: Model, b: Model) -> float:
    """Closest horizontal distance between two models (01.04; FRAME hulls per 17.02)."""
    # Model.footprint()'s kept value read directly (40k calls a battle)
    fa = a._footprint or a.footprint()
    fb = b._footprint or b.footprint()
    if type(fa) is Circle and type(fb) is Circle:  # :func:`separation`'s first case
        return max(0.0, math.hypot(fa.cx - fb.cx, fa.cy - fb.cy) - fa.r - fb.r)
    key = (id(fa), id(fb))
    hit = _PAIR_DISTANCES.get(key)
    if hit is not None and hit[0] is fa and hit[1] is fb:
        return hit[2]
    d = distance(fa, fb)
    if len(_PAIR_DISTANCES) >= _PAIR_LIMIT:
        _PAIR_DISTANCES.clear()
    _PAIR_DISTANCES[key] = (fa, fb, d)
    return d


_PAIR_DISTANCES: dict[tuple[int, int], tuple[Shape, Shape, float]] = kept.table()
""":func:`horizontal_distance` of an oval or hull footprint pair (an iterative measure), by
the footprints' ids; the entry holds both (so an id is not reused while it is kept). A
footprint is immutable and kept per model object (``Model.footprint``), and the engine keeps
a model object while the model stands still (``engine/field.py``), so the melee proposers'
repeated questions about one pair are measured once."""
_PAIR_LIMIT = 4096
"""Entries before :data:`_PAIR_DISTANCES` is emptied."""


NEAR_MARGIN = 1e-6
"""How far beyond the distance :func:`maybe_within` still answers True (far more than the
rounding of its bound), so that it never rules out a pair the exact test would accept."""


def maybe_within(a: Sequence[Model], b: Sequence[Model], horizontal: float
                 ) -> npt.NDArray[np.bool_]:
    """A cheap pre-test of every pair for "within ``horizontal``" (01.04, closest parts): False
    only where ``a[i]`` and ``b[j]`` are certainly farther apart, because their positions'
    distance less both models' reach (:meth:`Model.reach`) exceeds it by :data:`NEAR_MARGIN`.
    The exact test is then needed only where it answers True."""
    if not a or not b:
        return np.zeros((len(a), len(b)), dtype=bool)
    pa = np.array([(m.x, m.y, m.reach()) for m in a], dtype=np.float64)
    pb = np.array([(m.x, m.y, m.reach()) for m in b], dtype=np.float64)
    dx = pa[:, 0, None] - pb[None, :, 0]
    dy = pa[:, 1, None] - pb[None, :, 1]
    bound = np.sqrt(dx * dx + dy * dy) - pa[:, 2, None] - pb[None, :, 2]
    return np.asarray(bound <= horizontal + NEAR_MARGIN)


def vertical_extent(m: Model) -> tuple[float, float]:
    """The heights a model is measured from: its base level, or its whole body if FRAME."""
    if "FRAME" in m.keywords:  # m.has("FRAME"), without its call overhead
        return (m.z, m.top)
    return (m.z, m.z)


def vertical_distance(a: Model, b: Model) -> float:
    """Closest vertical distance between two models (0 if their extents overlap)."""
    a0, a1 = vertical_extent(a)
    b0, b1 = vertical_extent(b)
    return max(0.0, b0 - a1, a0 - b1)


def within(a: Model, b: Model, horizontal: float, vertical: float | None = None) -> bool:
    """``a`` is within ``horizontal`` (and, if given, ``vertical``) of ``b``."""
    if vertical is not None and vertical_distance(a, b) > vertical + EPS:
        return False
    return horizontal_distance(a, b) <= horizontal + EPS


def wholly_within(a: Model, b: Model, horizontal: float) -> bool:
    """Every part of ``a``'s footprint is within ``horizontal`` of ``b``."""
    return farthest_distance(a.footprint(), b.footprint()) <= horizontal + EPS


def in_base_contact(a: Model, b: Model, tolerance: float = mm(0.5)) -> bool:
    """Base contact: footprints touch (closest distance within ``tolerance``, default 0.5 mm)
    at the same level."""
    return vertical_distance(a, b) <= EPS and horizontal_distance(a, b) <= tolerance


def overlaps(a: Model, b: Model) -> bool:
    """True if the two footprints overlap by more than touching, at overlapping heights."""
    a0, a1 = a.z, a.top
    b0, b1 = b.z, b.top
    if a1 <= b0 + EPS or b1 <= a0 + EPS:
        return False
    return separation(a.footprint(), b.footprint()) < -1e-6


def engaged(a: Model, b: Model) -> bool:
    """03.04: within 2" horizontally and 5" vertically."""
    return within(a, b, ENGAGEMENT_HORIZONTAL, ENGAGEMENT_VERTICAL)


@dataclass(frozen=True)
class CoherencyBreak:
    """Why a unit is out of coherency (03.03)."""

    model: str
    """The model that fails."""
    rule: str
    """``R03.03-a`` (no neighbour within 2"/5") or ``R03.03-b`` (more than 9"/5" from one)."""
    other: str | None = None
    """For R03.03-b, the model it is too far from."""


SCALAR_COHERENCY = 16
"""Units of at most this many models are checked by :func:`coherency_breaks` with plain
float arithmetic (no arrays: faster for small units, the same floats)."""


def coherency_breaks(models: Sequence[Model]) -> list[CoherencyBreak]:
    """Every model breaking 03.03 (empty list = coherent; a one-model unit is coherent)."""
    n = len(models)
    if n <= 1:
        return []
    if n <= SCALAR_COHERENCY:
        return _coherency_breaks_scalar(models)
    return plain_coherency_breaks(models)


def plain_coherency_breaks(models: Sequence[Model]) -> list[CoherencyBreak]:
    """:func:`coherency_breaks` by the distance matrix (any size; the reference)."""
    n = len(models)
    if n <= 1:
        return []
    h = distance_matrix(models)
    z0 = np.array([vertical_extent(m)[0] for m in models])
    z1 = np.array([vertical_extent(m)[1] for m in models])
    v = np.maximum(0.0, np.maximum(z0[None, :] - z1[:, None], z0[:, None] - z1[None, :]))
    near = (h <= COHERENCY_NEIGHBOUR + EPS) & (v <= COHERENCY_VERTICAL + EPS)
    np.fill_diagonal(near, False)
    ok_all = (h <= COHERENCY_ALL + EPS) & (v <= COHERENCY_VERTICAL + EPS)
    np.fill_diagonal(ok_all, True)
    lonely = (~near.any(axis=1)).tolist()
    too_far = (~ok_all.all(axis=1)).tolist()
    first_far = np.argmin(ok_all, axis=1).tolist()  # the first False of each row
    out: list[CoherencyBreak] = []
    for i, m in enumerate(models):
        if lonely[i]:
            out.append(CoherencyBreak(m.name, "R03.03-a"))
        if too_far[i]:
            out.append(CoherencyBreak(m.name, "R03.03-b", models[first_far[i]].name))
    return out


def _coherency_breaks_scalar(models: Sequence[Model]) -> list[CoherencyBreak]:
    """:func:`plain_coherency_breaks` pair by pair in plain floats: the same operations as
    :func:`distance_matrix` (``sqrt(dx*dx + dy*dy) - ra - rb``, at least 0, for two round
    bases, measured once per pair as the matrix is symmetric there bit for bit;
    :func:`distance` of (row, column) otherwise) and the same vertical gap, so the same
    answers in the same order."""
    n = len(models)
    fps = [m.footprint() for m in models]
    rnd = [(f.cx, f.cy, f.r) if isinstance(f, Circle) else None for f in fps]
    ext = [vertical_extent(m) for m in models]
    near_h, all_h, vert = COHERENCY_NEIGHBOUR + EPS, COHERENCY_ALL + EPS, COHERENCY_VERTICAL + EPS
    # per pair: 2 = within 2"/5", 1 = within 9"/5" only, 0 = farther (ok_all False); a model
    # with itself is 1 (neither a neighbour nor too far)
    near: list[list[int]] = [[0] * n for _ in range(n)]
    for i in range(n):
        near[i][i] = 1
    sqrt = math.sqrt
    for i in range(n):
        ri, row = rnd[i], near[i]
        z0i, z1i = ext[i]
        xi, yi, r_i = ri if ri is not None else (0.0, 0.0, 0.0)
        for j in range(i + 1, n):
            z0j, z1j = ext[j]
            # max(0, z0j - z1i, z0i - z1j) <= vert, the thresholds being positive
            v_ok = z0j - z1i <= vert and z0i - z1j <= vert
            rj = rnd[j]
            if ri is not None and rj is not None:
                dx, dy = xi - rj[0], yi - rj[1]
                # the distance below 0 is 0 in the matrix: the same comparisons either way
                h = sqrt(dx * dx + dy * dy) - r_i - rj[2]
                row[j] = near[j][i] = 0 if not v_ok or h > all_h else (2 if h <= near_h else 1)
            else:
                for a, b in ((i, j), (j, i)):
                    h = distance(fps[a], fps[b])
                    near[a][b] = 0 if not v_ok or h > all_h else (2 if h <= near_h else 1)
    out: list[CoherencyBreak] = []
    for i in range(n):
        row = near[i]
        if 2 not in row:
            out.append(CoherencyBreak(models[i].name, "R03.03-a"))
        if 0 in row:
            out.append(CoherencyBreak(models[i].name, "R03.03-b", models[row.index(0)].name))
    return out


def in_coherency(models: Sequence[Model]) -> bool:
    """03.03: every model within 2"/5" of another and within 9"/5" of every other."""
    return not coherency_breaks(models)


def distance_matrix(a: Sequence[Model], b: Sequence[Model] | None = None) -> FloatArray:
    """Horizontal closest distances between every model of ``a`` and of ``b`` (vectorised
    for round bases; other footprints fall back to :func:`distance`)."""
    bb = a if b is None else b
    fa = [m.footprint() for m in a]
    fb = fa if b is None else [m.footprint() for m in bb]
    ca = np.array([f.center for f in fa], dtype=np.float64).reshape(-1, 2)
    cb = np.array([f.center for f in fb], dtype=np.float64).reshape(-1, 2)
    ra = np.array([f.r if isinstance(f, Circle) else 0.0 for f in fa])
    rb = np.array([f.r if isinstance(f, Circle) else 0.0 for f in fb])
    d = np.sqrt(((ca[:, None, :] - cb[None, :, :]) ** 2).sum(axis=2)) - ra[:, None] - rb[None, :]
    d = np.maximum(d, 0.0)
    round_a = np.array([isinstance(f, Circle) for f in fa])
    round_b = np.array([isinstance(f, Circle) for f in fb])
    for i, j in zip(*np.nonzero(~(round_a[:, None] & round_b[None, :])), strict=True):
        d[i, j] = distance(fa[i], fb[j])
    return np.asarray(d, dtype=np.float64)


@dataclass(frozen=True)
class ObjectiveMarker:
    """Appendix: a flat 40 mm disc marking an objective not within a terrain area."""

    x: float
    """Centre x."""
    y: float
    """Centre y."""
    z: float = 0.0
    """Level of the surface it lies on."""

    def shape(self) -> Circle:
        """The marker's disc."""
        return Circle(self.x, self.y, mm(MARKER_DIAMETER_MM) / 2)


def in_range_of_marker(m: Model, marker: ObjectiveMarker) -> bool:
    """Appendix: within 3" horizontally and 5" vertically of the marker's closest part."""
    z0, z1 = vertical_extent(m)
    v = max(0.0, marker.z - z1, z0 - marker.z)
    if v > MARKER_RANGE_VERTICAL + EPS:
        return False
    return distance(m.footprint(), marker.shape()) <= MARKER_RANGE_HORIZONTAL + EPS


def in_range_of_area(m: Model, area_footprint: FloatArray) -> bool:
    """14.01: a model is within range of a terrain objective while within that area (any
    part of its footprint in it, touching included)."""
    return shape_region_distance(m.footprint(), area_footprint) <= EPS


def within_half_range(a: Model, b: Model, weapon_range: float) -> bool:
    """Within half the weapon's range (closest parts, horizontal)."""
    return horizontal_distance(a, b) <= weapon_range / 2.0 + EPS
