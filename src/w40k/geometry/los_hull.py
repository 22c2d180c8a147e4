"""The HULL_RAMP convention of 06.01 fully visible (docs/geometry.md): which obstacles may
stop a target model from being fully visible to an observer model (moved here from
:mod:`w40k.geometry.los`, whose exact line of sight it shares the obstacles and distances
with)."""

from __future__ import annotations

import functools
import math

import numpy as np

from w40k.core import kept
from w40k.geometry.los_dist import _seg_dist
from w40k.geometry.los_obstacles import TOUCH, Obstacles, unique_ids
from w40k.geometry.los_sides import _circumradius
from w40k.geometry.measure import point_in_polygon
from w40k.geometry.shapes import FloatArray, Shape


def hull_blockers(
    o: Shape, t: Shape, target_level: float, top_o: float, obs: Obstacles
) -> np.ndarray:
    """Obstacle owners that stop the target from being *fully* visible (06.01), by the
    HULL_RAMP convention: an obstacle counts if its grown outline meets the convex hull of
    the two footprints and its top is above the line from the observer's top (at the
    observer's edge) to the target's base level (at the target's edge), evaluated at the
    obstacle's closest approach to the target. An edge counts or not whatever the other
    edges are, so the answer for the obstacles of an earlier call of the same pair, or for
    whole obstacles of them (the terrain alone), is read from that call's (kept per pair)."""
    key = (o, t, target_level, top_o)
    kept = _KEPT.get(key)
    if kept is not None:
        hit = _kept_answer(kept[0], kept[1], obs)
        if hit is not None:
            return hit
    out = _blockers(o, t, target_level, top_o, obs)
    out.setflags(write=False)
    if kept is None or len(obs.a) > len(kept[0].a):
        if len(_KEPT) >= _KEPT_LIMIT:
            _KEPT.clear()
        _KEPT[key] = (obs, out)
    return out

def kept_blockers(
    o: Shape, t: Shape, target_level: float, top_o: float, obs: Obstacles
) -> np.ndarray | None:
    """:func:`hull_blockers`' answer when it reads it from an earlier call's (kept per
    pair); None when it would compute it."""
    kept = _KEPT.get((o, t, target_level, top_o))
    return None if kept is None else _kept_answer(kept[0], kept[1], obs)


_KEPT: dict[tuple[Shape, Shape, float, float], tuple[Obstacles, np.ndarray]] = kept.table()
"""Per footprint pair and levels, the obstacles of the largest call so far and its answer
(:func:`hull_blockers`: the HULL_RAMP flags and the facing points of one pair ask for it)."""

_KEPT_LIMIT = 2048
"""Entries of :data:`_KEPT` before it is emptied."""


def _kept_answer(obs0: Obstacles, owners0: np.ndarray, obs: Obstacles) -> np.ndarray | None:
    """The answer for ``obs`` from the answer ``owners0`` for ``obs0`` when ``obs`` is ``obs0``
    or the edges of some of its obstacles (every edge of each, in order, the same values):
    those of ``owners0`` among them; None otherwise."""
    if obs is obs0:
        return owners0
    if len(obs.a) > len(obs0.a):
        return None
    keep = np.isin(obs0.owner, obs.owner)
    if int(keep.sum()) != len(obs.a):
        return None
    for x0, x in (
        (obs0.owner, obs.owner), (obs0.a, obs.a), (obs0.b, obs.b), (obs0.grow, obs.grow),
        (obs0.top, obs.top),
    ):
        if not np.array_equal(x0[keep], x):
            return None
    out = owners0[np.isin(owners0, obs.owner)]
    out.setflags(write=False)
    return out


def _blockers(
    o: Shape, t: Shape, target_level: float, top_o: float, obs: Obstacles
) -> np.ndarray:
    """:func:`hull_blockers` computed. Per edge its own answer, so the edges are culled by
    index (only the five arrays read, not the whole :meth:`Obstacles.subset`), the edge boxes
    are kept per obstacles object, the hull's per pair, and the ramp is computed for the
    edges that meet the hull only: the same values edge by edge."""
    if len(obs.a) == 0:
        return _NONE
    hull_pts, hb, hmin, hmax, lo_h, hi_h = _hull_parts(o, t)
    emin, emax = _edge_boxes(obs)
    # cull edges whose box, grown by their ``grow``, misses the hull's box: they can neither
    # come within ``grow`` of the hull nor start inside it (same answer, far fewer pairs)
    idx = np.nonzero(((emax >= lo_h) & (emin <= hi_h)).all(axis=1))[0]
    if len(idx) == 0:
        return _NONE
    a, b, grow = obs.a[idx], obs.b[idx], obs.grow[idx]
    emin, emax = emin[idx], emax[idx]
    # only (edge, hull edge) pairs whose boxes come within the edge's grow can be that close
    ei, hi = np.nonzero(
        (emax[:, None, 0] >= hmin[None, :, 0])
        & (emin[:, None, 0] <= hmax[None, :, 0])
        & (emax[:, None, 1] >= hmin[None, :, 1])
        & (emin[:, None, 1] <= hmax[None, :, 1])
    )
    meets = point_in_polygon(a, hull_pts)
    if len(ei):
        dist = _seg_dist(a[ei], b[ei], hull_pts[hi], hb[hi])
        meets = meets | np.bincount(ei[dist < grow[ei] - TOUCH], minlength=len(a)).astype(bool)
    m = np.nonzero(meets)[0]
    if len(m) == 0:
        return _NONE
    # containment of the hull inside an obstacle polygon is covered by edge distances since
    # the footprints themselves are never inside a blocker.
    counts = above_ramp(o, t, target_level, top_o, a[m], b[m], grow[m], obs.top[idx[m]])
    return unique_ids(obs.owner[idx[m[counts]]])


def above_ramp(
    o: Shape, t: Shape, target_level: float, top_o: float,
    a: FloatArray, b: FloatArray, grow: FloatArray, top: FloatArray,
) -> np.ndarray:
    """Per edge (``a``-``b``, its ``grow`` and ``top``; edges that meet the pair hull): its
    top is above HULL_RAMP's line from the observer's top to the target's base level,
    evaluated at the edge's closest approach to the target. Elementwise, so an edge's answer
    is the same floats whichever edges are asked with it (:mod:`cover_near` asks a few)."""
    tc = np.asarray(t.center)
    oc = np.asarray(o.center)
    rt = _circumradius(t)
    ro = _circumradius(o)
    gap = max(float(np.hypot(*(tc - oc))) - rt - ro, 1e-9)
    dt = _point_seg_dist(float(tc[0]), float(tc[1]), a[:, 0], a[:, 1], b[:, 0], b[:, 1])
    dt = dt - rt - grow
    frac = np.clip(dt / gap, 0.0, 1.0)
    ramp = target_level + (top_o - target_level) * frac
    out: np.ndarray = top > ramp + 1e-9
    return out


def ramp_of(o: Shape, t: Shape) -> tuple[float, float, float, float]:
    """(target centre x, y, its circumradius, the gap): the values of :func:`above_ramp`
    that do not depend on the edge, the same floats."""
    tc = np.asarray(t.center)
    oc = np.asarray(o.center)
    rt = _circumradius(t)
    ro = _circumradius(o)
    gap = max(float(np.hypot(*(tc - oc))) - rt - ro, 1e-9)
    return float(tc[0]), float(tc[1]), float(rt), gap


def above_ramp1(
    ramp: tuple[float, float, float, float], target_level: float, top_o: float,
    ax: float, ay: float, bx: float, by: float, grow: float, top: float,
) -> bool:
    """:func:`above_ramp` of one edge in float arithmetic (``ramp``: :func:`ramp_of`): the
    same operations in the same order as there and in :func:`_point_seg_dist` (``x ** 2``
    of a float64 array is ``x * x``; ``min``/``max`` as ``np.minimum``/``np.maximum`` and
    ``np.clip``; ``math.sqrt`` correctly rounded as ``np.sqrt``), so the same answer."""
    cx, cy, rt, gap = ramp
    qx, qy = bx - ax, by - ay
    qden = max(qx * qx + qy * qy, 1e-300)
    a1x, a1y = cx - ax, cy - ay
    u = min(max((a1x * qx + a1y * qy) / qden, 0.0), 1.0)
    dx = a1x - qx * u
    dy = a1y - qy * u
    b1x, b1y = ax - cx, ay - cy
    b2x, b2y = bx - cx, by - cy
    d2 = min(dx * dx + dy * dy, min(b1x * b1x + b1y * b1y, b2x * b2x + b2y * b2y))
    dt = math.sqrt(d2) - rt - grow
    frac = min(max(dt / gap, 0.0), 1.0)
    return top > target_level + (top_o - target_level) * frac + 1e-9


_NONE = np.zeros(0, dtype=np.int64)
_NONE.setflags(write=False)
"""No blockers (read only)."""


def _point_seg_dist(
    cx: float, cy: float, ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray
) -> FloatArray:
    """``_seg_dist(c, c, a, b)`` (the point ``c`` as a segment of length 0) with the terms
    that are the same or vanish for a point left out: the same floats. There, segment p is
    0 long (``pden`` 1e-300, each of its two point-segment terms is then the squared distance
    to an end: t is +-0, so ``dx = b1x - 0 * t`` is ``b1x``), the two point-segment terms
    from p1 and p2 to segment q are one, and the orientation products are +-0 (never a
    crossing)."""
    qx, qy = bx - ax, by - ay
    qden = np.maximum(qx ** 2 + qy ** 2, 1e-300)
    a1x, a1y = cx - ax, cy - ay
    t = (a1x * qx + a1y * qy) / qden
    t = np.minimum(np.maximum(t, 0.0), 1.0)
    dx = a1x - qx * t
    dy = a1y - qy * t
    b1x, b1y = ax - cx, ay - cy
    b2x, b2y = bx - cx, by - cy
    d2 = np.minimum(dx * dx + dy * dy, np.minimum(b1x * b1x + b1y * b1y, b2x * b2x + b2y * b2y))
    out: FloatArray = np.sqrt(d2)
    return out


def _edge_boxes(obs: Obstacles) -> tuple[FloatArray, FloatArray]:
    """Each edge's box grown by its ``grow`` (low and high corners), kept per obstacles
    object (a scene's pair obstacles are shared by many model pairs)."""
    hit = _BOXES.get(id(obs))
    if hit is not None and hit[0] is obs:
        return hit[1], hit[2]
    emin = np.minimum(obs.a, obs.b) - obs.grow[:, None]
    emax = np.maximum(obs.a, obs.b) + obs.grow[:, None]
    if len(_BOXES) >= _BOXES_LIMIT:
        _BOXES.clear()
    _BOXES[id(obs)] = (obs, emin, emax)
    return emin, emax


_BOXES: dict[int, tuple[Obstacles, FloatArray, FloatArray]] = kept.table()
""":func:`_edge_boxes` per obstacles object (the object kept with them: an id is only
trusted while its object is alive)."""

_BOXES_LIMIT = 256
"""Entries of :data:`_BOXES` before it is emptied (each keeps its obstacles alive)."""


@functools.lru_cache(maxsize=1024)
def _hull_parts(
    o: Shape, t: Shape
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """The pair hull (:func:`_hull_outline`), the next vertex of each, each hull edge's box
    corners and the hull's box corners (kept per footprint pair, read only)."""
    hull_pts = _hull_outline(o, t)
    hb = np.concatenate([hull_pts[1:], hull_pts[:1]])  # the next vertex (np.roll, cheaper)
    out = (hull_pts, hb, np.minimum(hull_pts, hb), np.maximum(hull_pts, hb),
           hull_pts.min(axis=0), hull_pts.max(axis=0))
    for x in out:
        x.setflags(write=False)
    return out


@functools.lru_cache(maxsize=1024)
def _hull_outline(o: Shape, t: Shape) -> FloatArray:
    """The convex hull of the two footprints' 48-gons (kept per footprint pair, read only: the
    HULL_RAMP flags and the facing points of one pair ask for it, and the next scenes while
    neither model moves)."""
    out = _hull_of(o, t)
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=4096)
def _outline48(s: Shape) -> FloatArray:
    """``s.outline(48)``, kept per shape (read only): a model's footprint meets many others."""
    out = s.outline(48)
    out.setflags(write=False)
    return out


_DIRS = np.array(
    [[math.cos(2 * math.pi * k / 16), math.sin(2 * math.pi * k / 16)] for k in range(16)]
)
_DIRS[[0, 4, 8, 12]] = [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]]
"""The directions of the extreme points of :func:`_hull_of`'s filter, by angle (the four axis
directions exact)."""


def _hull_of(o: Shape, t: Shape) -> FloatArray:
    pts = np.concatenate([_outline48(o), _outline48(t)])
    # Akl-Toussaint: the extreme points in 16 directions (by angle) are points of the hull,
    # in order around it; points more than 1e-9 inside the polygon they make are no hull
    # vertices, so dropping them leaves the hull (and its vertex order) unchanged
    poly = pts[np.argmax(pts @ _DIRS.T, axis=0)]
    qa, qb = poly, np.concatenate([poly[1:], poly[:1]])
    cross = (qb[:, 0] - qa[:, 0])[None, :] * (pts[:, 1:2] - qa[:, 1][None, :]) - (
        qb[:, 1] - qa[:, 1]
    )[None, :] * (pts[:, 0:1] - qa[:, 0][None, :])
    inside = (cross > 1e-9).all(axis=1)
    return np.asarray(_monotone_chain(pts[~inside].tolist()), dtype=np.float64)


def _monotone_chain(points: list[list[float]]) -> list[tuple[float, float]]:
    """:func:`convex_hull` of a list of points (the same sort, the same cross products in the
    same order, so the same vertices), with the cross product written out."""
    pts = sorted({(x, y) for x, y in points})
    if len(pts) <= 2:
        return pts
    lower, upper = _half_hull(pts), _half_hull(pts[::-1])
    return lower[:-1] + upper[:-1]


def _half_hull(pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """One chain of :func:`_monotone_chain` over the points in this order (the lower hull for
    the sorted points, the upper one for them reversed)."""
    chain: list[tuple[float, float]] = []
    for p in pts:
        px, py = p
        while len(chain) >= 2:
            (ox, oy), (ax, ay) = chain[-2], chain[-1]
            if (ax - ox) * (py - oy) - (ay - oy) * (px - ox) > 0:
                break
            chain.pop()
        chain.append(p)
    return chain
