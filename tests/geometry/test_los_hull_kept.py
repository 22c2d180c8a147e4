"""HULL_RAMP (06.01 fully visible, docs/geometry.md) does less and answers the same: the
pair's hull from kept outlines and a finer Akl-Toussaint filter is the convex hull of the two
48-gons, and an answer read from an earlier call of the same pair (the same obstacles, or
whole obstacles of them) is the one computed afresh; a subset that splits an obstacle is
computed afresh."""

from __future__ import annotations

import numpy as np

from tests.geometry.random_obstacles import random_obstacles
from w40k.geometry import los_hull
from w40k.geometry.los_obstacles import TOUCH, Obstacles
from w40k.geometry.shapes import Circle, Oval, Polygon, Shape, convex_hull


def _footprint(rng: np.random.Generator, cx: float, cy: float, kind: int) -> Shape:
    if kind == 0:
        return Circle(cx, cy, float(rng.choice([0.63, 0.79, 0.98, 1.26, rng.uniform(0.3, 2)])))
    if kind == 1:
        return Oval(cx, cy, float(rng.uniform(1.0, 2.5)), float(rng.uniform(0.5, 1.0)),
                    float(rng.uniform(-4, 4)))
    w, h = float(rng.uniform(1, 3)), float(rng.uniform(1, 2))
    return Polygon(((cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)))


def test_pair_hull_is_the_convex_hull_of_the_two_outlines() -> None:
    """Circles (equal radii side by side, concentric, overlapping), ovals and polygons: the
    same vertices in the same order as ``convex_hull`` of all 96 outline points."""
    rng = np.random.default_rng(3)
    for trial in range(1500):
        o = _footprint(rng, float(rng.uniform(0, 60)), float(rng.uniform(0, 44)), trial % 3)
        dx, dy = (rng.choice([0.0, 1.0, 2.0, 3.5, float(rng.uniform(-9, 9))]) for _ in "xy")
        t = _footprint(rng, o.center[0] + dx, o.center[1] + dy, (trial // 3) % 3)
        want = np.asarray(
            convex_hull(np.concatenate([o.outline(48), t.outline(48)])), dtype=np.float64
        )
        assert np.array_equal(los_hull._hull_of(o, t), want)


def test_kept_blockers_are_those_computed_afresh() -> None:
    """Per pair: the full obstacles, a copy of them, the obstacles less some whole ones (as
    the terrain alone is), and less one edge of an obstacle: each answer equals the answer
    computed with nothing kept."""
    rng = np.random.default_rng(7)
    reused = 0
    for trial in range(300):
        o = _footprint(rng, 0.0, float(rng.uniform(-3, 3)), trial % 3)
        t = _footprint(rng, 20.0, float(rng.uniform(-3, 23)), (trial // 3) % 3)
        level, top = float(rng.choice([0.0, 1.0])), float(rng.choice([1.5, 2.0, 3.0]))
        obs = random_obstacles(rng, int(rng.integers(1, 12)))
        owners = np.unique(obs.owner)
        drop = owners[rng.random(len(owners)) < 0.4]
        whole = ~np.isin(obs.owner, drop)
        split = np.ones(len(obs.a), dtype=bool)
        split[int(rng.integers(len(obs.a)))] = False
        no_verts = np.ones(len(obs.verts), dtype=bool)
        variants = [obs, obs.subset(split, no_verts), obs.subset(whole, no_verts), obs,
                    obs.subset(np.ones(len(obs.a), dtype=bool), no_verts)]
        los_hull._KEPT.clear()
        for v in variants:
            got = los_hull.hull_blockers(o, t, level, top, v)
            fresh = los_hull._blockers(o, t, level, top, v)
            assert np.array_equal(got, fresh) and got.dtype == fresh.dtype
            assert not got.flags.writeable
            reused += int(got.size > 0)
    assert reused > 100


def _blockers_before(
    o: Shape, t: Shape, level: float, top_o: float, obs: Obstacles
) -> np.ndarray:
    """``_blockers`` as it was before the cover9 pass (the whole subset, every edge's ramp,
    the point as a 0-long segment of ``_seg_dist``): the reference."""
    from w40k.geometry.los_dist import _seg_dist
    from w40k.geometry.los_sides import _circumradius
    from w40k.geometry.measure import point_in_polygon

    if len(obs.a) == 0:
        return np.zeros(0, dtype=np.int64)
    hull_pts = los_hull._hull_of(o, t)
    lo_h, hi_h = hull_pts.min(axis=0), hull_pts.max(axis=0)
    emin = np.minimum(obs.a, obs.b) - obs.grow[:, None]
    emax = np.maximum(obs.a, obs.b) + obs.grow[:, None]
    near = ((emax >= lo_h) & (emin <= hi_h)).all(axis=1)
    if not near.all():
        obs = obs.subset(near, np.zeros(len(obs.verts), dtype=bool))
        if len(obs.a) == 0:
            return np.zeros(0, dtype=np.int64)
        emin, emax = emin[near], emax[near]
    hb = np.concatenate([hull_pts[1:], hull_pts[:1]])
    hmin, hmax = np.minimum(hull_pts, hb), np.maximum(hull_pts, hb)
    ei, hi = np.nonzero(
        (emax[:, None, 0] >= hmin[None, :, 0]) & (emin[:, None, 0] <= hmax[None, :, 0])
        & (emax[:, None, 1] >= hmin[None, :, 1]) & (emin[:, None, 1] <= hmax[None, :, 1]))
    close = np.zeros(len(obs.a), dtype=bool)
    if len(ei):
        dist = _seg_dist(obs.a[ei], obs.b[ei], hull_pts[hi], hb[hi])
        close[ei[dist < obs.grow[ei] - TOUCH]] = True
    meets = point_in_polygon(obs.a, hull_pts) | close
    if not meets.any():
        return np.zeros(0, dtype=np.int64)
    tc, oc = np.asarray(t.center), np.asarray(o.center)
    rt, ro = _circumradius(t), _circumradius(o)
    gap = max(float(np.hypot(*(tc - oc))) - rt - ro, 1e-9)
    dt = _seg_dist(tc[None, :], tc[None, :], obs.a, obs.b) - rt - obs.grow
    ramp = level + (top_o - level) * np.clip(dt / gap, 0.0, 1.0)
    return np.unique(obs.owner[meets & (obs.top > ramp + 1e-9)])


def test_blockers_are_those_of_the_former_formulas() -> None:
    """HULL_RAMP's blockers with the edges culled by index, the kept edge boxes and the ramp
    for the meeting edges only (cover9) are those of the former whole-array formulas, and the
    point-to-segment distance is ``_seg_dist`` of the point as a 0-long segment, bit for bit
    (R06.01-c: the obstacles that may stop a model being fully visible)."""
    from w40k.geometry.los_dist import _seg_dist

    rng = np.random.default_rng(11)
    found = 0
    for trial in range(400):
        o = _footprint(rng, 0.0, float(rng.uniform(-3, 3)), trial % 3)
        t = _footprint(rng, float(rng.uniform(4, 25)), float(rng.uniform(-3, 23)),
                       (trial // 3) % 3)
        level, top = float(rng.choice([0.0, 1.0])), float(rng.choice([1.5, 2.0, 3.0]))
        obs = random_obstacles(rng, int(rng.integers(1, 12)))
        for _ in range(2):  # the second time with the edge boxes kept
            got = los_hull._blockers(o, t, level, top, obs)
            want = _blockers_before(o, t, level, top, obs)
            assert np.array_equal(got, want) and got.dtype == want.dtype
        found += int(len(want) > 0)
        c = np.array([float(rng.uniform(-5, 25)), float(rng.uniform(-5, 25))])
        d = los_hull._point_seg_dist(float(c[0]), float(c[1]), obs.a[:, 0], obs.a[:, 1],
                                     obs.b[:, 0], obs.b[:, 1])
        assert np.array_equal(d, _seg_dist(c[None, :], c[None, :], obs.a, obs.b))
    assert found > 100
