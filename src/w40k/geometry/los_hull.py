"""The HULL_RAMP convention of 06.01 fully visible (docs/geometry.md): which obstacles may
stop a target model from being fully visible to an observer model (moved here from
:mod:`w40k.geometry.los`, whose exact line of sight it shares the obstacles and distances
with)."""

from __future__ import annotations

import functools

import numpy as np

from w40k.geometry.los import TOUCH, Obstacles, _circumradius
from w40k.geometry.los_dist import _seg_dist
from w40k.geometry.measure import point_in_polygon
from w40k.geometry.shapes import FloatArray, Shape, convex_hull


def hull_blockers(
    o: Shape, t: Shape, target_level: float, top_o: float, obs: Obstacles
) -> np.ndarray:
    """Obstacle owners that stop the target from being *fully* visible (06.01), by the
    HULL_RAMP convention: an obstacle counts if its grown outline meets the convex hull of
    the two footprints and its top is above the line from the observer's top (at the
    observer's edge) to the target's base level (at the target's edge), evaluated at the
    obstacle's closest approach to the target."""
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
    hb = np.roll(hull_pts, -1, axis=0)
    # only (edge, hull edge) pairs whose boxes come within the edge's grow can be that close
    hmin, hmax = np.minimum(hull_pts, hb), np.maximum(hull_pts, hb)
    emin = np.minimum(obs.a, obs.b) - obs.grow[:, None]
    emax = np.maximum(obs.a, obs.b) + obs.grow[:, None]
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


def _hull_of(o: Shape, t: Shape) -> FloatArray:
    pts = np.concatenate([o.outline(48), t.outline(48)])
    # Akl-Toussaint: points well inside the quadrilateral of the extreme points are no hull
    # vertices, so dropping them leaves the hull (and its vertex order) unchanged
    quad = pts[
        [np.argmin(pts[:, 0]), np.argmin(pts[:, 1]), np.argmax(pts[:, 0]), np.argmax(pts[:, 1])]
    ]
    qa, qb = quad, np.roll(quad, -1, axis=0)
    cross = (qb[:, 0] - qa[:, 0])[None, :] * (pts[:, 1:2] - qa[:, 1][None, :]) - (
        qb[:, 1] - qa[:, 1]
    )[None, :] * (pts[:, 0:1] - qa[:, 0][None, :])
    inside = (cross > 1e-9).all(axis=1)
    return np.asarray(convex_hull(pts[~inside]), dtype=np.float64)
