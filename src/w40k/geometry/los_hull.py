"""The HULL_RAMP convention of 06.01 fully visible (docs/geometry.md): which obstacles may
stop a target model from being fully visible to an observer model (moved here from
:mod:`w40k.geometry.los`, whose exact line of sight it shares the obstacles and distances
with)."""

from __future__ import annotations

import functools
import math

import numpy as np

from w40k.geometry.los_dist import _seg_dist
from w40k.geometry.los_obstacles import TOUCH, Obstacles
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


_KEPT: dict[tuple[Shape, Shape, float, float], tuple[Obstacles, np.ndarray]] = {}
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
    """:func:`hull_blockers` computed."""
    if len(obs.a) == 0:
        return np.zeros(0, dtype=np.int64)
    hull_pts = _hull_outline(o, t)
    # cull edges whose box, grown by their ``grow``, misses the hull's box: they can neither
    # come within ``grow`` of the hull nor start inside it (same answer, far fewer pairs)
    lo_h, hi_h = hull_pts.min(axis=0), hull_pts.max(axis=0)
    emin = np.minimum(obs.a, obs.b) - obs.grow[:, None]
    emax = np.maximum(obs.a, obs.b) + obs.grow[:, None]
    near = ((emax >= lo_h) & (emin <= hi_h)).all(axis=1)
    if not near.all():
        obs = obs.subset(near, np.zeros(len(obs.verts), dtype=bool))
        if len(obs.a) == 0:
            return np.zeros(0, dtype=np.int64)
        emin, emax = emin[near], emax[near]
    hb = np.concatenate([hull_pts[1:], hull_pts[:1]])  # the next vertex (np.roll, cheaper)
    # only (edge, hull edge) pairs whose boxes come within the edge's grow can be that close
    hmin, hmax = np.minimum(hull_pts, hb), np.maximum(hull_pts, hb)
    ei, hi = np.nonzero(
        (emax[:, None, 0] >= hmin[None, :, 0])
        & (emin[:, None, 0] <= hmax[None, :, 0])
        & (emax[:, None, 1] >= hmin[None, :, 1])
        & (emin[:, None, 1] <= hmax[None, :, 1])
    )
    close = np.zeros(len(obs.a), dtype=bool)
    if len(ei):
        dist = _seg_dist(obs.a[ei], obs.b[ei], hull_pts[hi], hb[hi])
        close[ei[dist < obs.grow[ei] - TOUCH]] = True
    inside = point_in_polygon(obs.a, hull_pts)
    meets = inside | close
    if not meets.any():
        return np.zeros(0, dtype=np.int64)
    # containment of the hull inside an obstacle polygon is covered by edge distances since
    # the footprints themselves are never inside a blocker.
    tc = np.asarray(t.center)
    oc = np.asarray(o.center)
    rt = _circumradius(t)
    ro = _circumradius(o)
    gap = max(float(np.hypot(*(tc - oc))) - rt - ro, 1e-9)
    dt = _seg_dist(tc[None, :], tc[None, :], obs.a, obs.b) - rt - obs.grow
    frac = np.clip(dt / gap, 0.0, 1.0)
    ramp = target_level + (top_o - target_level) * frac
    counts = meets & (obs.top > ramp + 1e-9)
    return np.unique(obs.owner[counts])


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
