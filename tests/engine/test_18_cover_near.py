"""Cover per attacking model (13.08 (ii)): the proof that terrain surely stands among a model
pair's HULL_RAMP blockers without the pair hull (:mod:`w40k.geometry.cover_near`) against
HULL_RAMP itself, and the answers that read it (the terrain-only full visibility test, the
flags of a model not seen CLEAR, ``Visibility.cover_against``) against the plain path, on
seeded random scenes with walls and areas at the proof's bounds; and the proof that no
terrain is near (:func:`w40k.geometry.cover_far.terrain_far`) with the areas either model is
within left out, against HULL_RAMP on each pair's own obstacles."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.geometry.test_cover_far import _sparse_scene
from w40k.geometry import Visibility, full_visibility, scene_from_dict, sight_build
from w40k.geometry import visibility as visibility_module
from w40k.geometry.cover_far import terrain_far
from w40k.geometry.cover_near import _inner, blocker_sure
from w40k.geometry.los import Obstacles
from w40k.geometry.los_hull import _edge_boxes, hull_blockers
from w40k.geometry.los_obstacles import TOUCH
from w40k.geometry.shapes import Circle, Oval, Polygon, Shape
from w40k.geometry.sight_terrain import AREA_GROW

_GROWS = (0.0, AREA_GROW, 0.0197, 0.3)
_OFFSETS = (1e-3, 1e-6, 1e-7, 1e-9, 1e-12, 0.0, -1e-12, -1e-9, -1e-7, -1e-6, -1e-3)


def _shape(rng: np.random.Generator) -> Shape:
    x, y = (float(v) for v in rng.uniform(0, 20, size=2))
    u = rng.random()
    if u < 0.6:
        return Circle(x, y, float(rng.uniform(0.5, 1.5)))
    if u < 0.85:
        return Oval(x, y, float(rng.uniform(0.8, 2.0)), float(rng.uniform(0.4, 0.8)),
                    float(rng.uniform(0, math.pi)))
    w, h = (float(v) for v in rng.uniform(1.0, 3.0, size=2))
    return Polygon(((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


def _walls(rng: np.random.Generator, o: Shape, t: Shape, n: int
           ) -> list[tuple[np.ndarray, float, float]]:
    """Walls, areas (grown 1e-6"), bare polygons and points placed about the proof's bounds:
    across the centre segment, parallel to it at ``rin + grow - TOUCH`` +- 1e-12 .. 1e-3,
    tangent to the smaller footprint's disc beyond its centre (where the 48-gon's edge
    midpoints lie), with a vertex just inside or outside the capsule, and anywhere."""
    (ox, oy, ro), (tx, ty, rt) = _inner(o), _inner(t)
    rin = min(ro, rt)
    ln = max(math.hypot(tx - ox, ty - oy), 1e-9)
    ux, uy = (tx - ox) / ln, (ty - oy) / ln
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(n):
        grow = float(rng.choice(_GROWS))
        top = float(rng.choice([0.5, 1.0, 2.0, 6.0, np.inf]))
        off = float(rng.choice(_OFFSETS))
        kind = int(rng.integers(5))
        s0 = float(rng.uniform(-0.2, 1.2)) * ln
        side = float(rng.choice([1.0, -1.0]))
        if kind == 0:  # across the centre segment
            w = float(rng.uniform(0.1, 4.0))
            p = np.array([[ox + ux * s0 - uy * w, oy + uy * s0 + ux * w],
                          [ox + ux * s0 + uy * w, oy + uy * s0 - ux * w]])
        elif kind == 1:  # parallel, at the bound for an edge
            d = side * (rin + grow - TOUCH + off)
            p = np.array([[ox + ux * s0 - uy * d, oy + uy * s0 + ux * d],
                          [ox + ux * (s0 + 1.0) - uy * d, oy + uy * (s0 + 1.0) + ux * d]])
        elif kind == 2:  # tangent to the smaller disc past its centre, at a 48-gon midpoint
            cx, cy, r = (tx, ty, rt) if rt <= ro else (ox, oy, ro)
            sgn = 1.0 if rt <= ro else -1.0
            # the 48-gon's edge midpoints are at the odd multiples of pi / 48
            k = round(math.atan2(uy * sgn, ux * sgn) * 24 / math.pi - 0.5)
            k += int(rng.integers(-2, 3))
            ang = math.pi * (2 * k + 1) / 48
            vx, vy = math.cos(ang), math.sin(ang)
            d = r + grow - TOUCH + off
            p = np.array([[cx + vx * d - vy, cy + vy * d + vx],
                          [cx + vx * d + vy, cy + vy * d - vx]])
        elif kind == 3:  # a polygon with one vertex at the bound for a start inside
            d = side * (rin + off)
            vx, vy = ox + ux * s0 - uy * d, oy + uy * s0 + ux * d
            w, h = (float(v) for v in rng.uniform(0.1, 2.0, size=2))
            p = np.array([[vx, vy], [vx - uy * side * w, vy + ux * side * w],
                          [vx - uy * side * w + ux * h, vy + ux * side * w + uy * h]])
        else:  # anywhere near
            x, y = (float(v) for v in rng.uniform(-2, 22, size=2))
            w, h = (float(v) for v in rng.uniform(0.1, 3, size=2))
            p = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
        if rng.random() < 0.1:  # a point (a base) grown by its radius
            p = p[:1]
            grow = max(grow, 0.5)
        items.append((p, grow, top))
    return items


@pytest.mark.parametrize("seed", range(60))
def test_a_blocker_proven_without_the_hull_is_a_hull_ramp_blocker(seed: int) -> None:
    # R06.01-c fully visible, R13.08-a: where the proof says some edge is a HULL_RAMP
    # blocker, the pair's blockers (the pair hull's test) are not empty, for the walls one
    # by one and all together
    rng = np.random.default_rng(18000 + seed)
    proven = 0
    for _ in range(6):
        o, t = _shape(rng), _shape(rng)
        items = _walls(rng, o, t, 12)
        for level, top_o in ((0.0, 1.6), (0.0, 8.0), (3.0, 1.0), (0.0, 0.5)):
            for one in [[it] for it in items] + [items]:
                obs = Obstacles.build(one)
                if blocker_sure(o, t, level, top_o, obs):
                    proven += 1
                    assert len(hull_blockers(o, t, level, top_o, obs)) > 0
    assert proven > 20


def test_walls_at_the_bounds_are_proven_only_inside_them() -> None:
    # a wall across the segment between two bases is proven, as is one 1e-3" inside the
    # bound beside it; one 1e-9" outside the bound beside it, or tangent to the smaller
    # base just beyond its 48-gon (HULL_RAMP does not count it), is not; a bare polygon
    # (grow 0) crossing the segment with no vertex inside the hull counts for neither
    o, t = Circle(0.0, 0.0, 0.8), Circle(10.0, 0.0, 0.5)
    grow = 0.0197

    def wall(y0: float, y1: float, x0: float = 4.0, x1: float = 5.0) -> Obstacles:
        return Obstacles.build([(np.array([[x0, y0], [x1, y1]]), grow, 6.0)])

    assert blocker_sure(o, t, 0.0, 1.6, wall(-3.0, 3.0, 5.0, 5.0))
    inside = 0.5 + grow - TOUCH - 1e-3
    assert blocker_sure(o, t, 0.0, 1.6, wall(inside, inside))
    outside = 0.5 + grow - TOUCH + 1e-9
    assert not blocker_sure(o, t, 0.0, 1.6, wall(outside, outside))
    # tangent to the target's disc at the midpoint of a 48-gon edge (angle pi / 48)
    c, s = math.cos(math.pi / 48), math.sin(math.pi / 48)
    d = 0.5 + grow - TOUCH + 1e-9
    edge = Obstacles.build([(np.array([[10.0 + c * d + s, s * d - c],
                                       [10.0 + c * d - s, s * d + c]]), grow, 6.0)])
    assert len(hull_blockers(o, t, 0.0, 1.6, edge)) == 0
    assert not blocker_sure(o, t, 0.0, 1.6, edge)
    bare = Obstacles.build([(np.array([[5.0, -3.0], [5.0, 3.0], [6.0, 3.0], [6.0, -3.0]]),
                             0.0, 6.0)])
    assert len(hull_blockers(o, t, 0.0, 1.6, bare)) == 0
    assert not blocker_sure(o, t, 0.0, 1.6, bare)
    area = Obstacles.build([(np.array([[5.0, -3.0], [5.0, 3.0], [6.0, 3.0], [6.0, -3.0]]),
                             AREA_GROW, math.inf)])
    assert blocker_sure(o, t, 0.0, 1.6, area)
    # below the ramp (a low wall beside a tall observer, far from the target): not counted
    low = Obstacles.build([(np.array([[1.5, -3.0], [1.5, 3.0]]), grow, 0.3)])
    assert not blocker_sure(o, t, 0.0, 8.0, low)
    assert len(hull_blockers(o, t, 0.0, 8.0, low)) == 0


@pytest.mark.parametrize("seed", range(30))
def test_the_full_visibility_test_equals_the_plain_one(seed: int,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-c: hidden_facing_point with the hull spared where the proof holds gives the
    # same answer and the same hidden point as with the blockers found first
    rng = np.random.default_rng(18100 + seed)
    cases = []
    for _ in range(8):
        o, t = _shape(rng), _shape(rng)
        if isinstance(t, Polygon):
            continue
        obs = Obstacles.build(_walls(rng, o, t, 8))
        for level, top_o, cv in ((0.0, 1.6, False), (0.0, 8.0, True), (3.0, 1.0, False)):
            cases.append((o, top_o, t, level, obs, cv))
    fast = [full_visibility.hidden_facing_point(*c) for c in cases]
    monkeypatch.setattr(full_visibility, "blocker_sure", lambda *a: False)
    plain = [full_visibility.hidden_facing_point(*c) for c in cases]
    for (f_full, f_pt), (p_full, p_pt) in zip(fast, plain, strict=True):
        assert f_full == p_full
        assert (f_pt is None and p_pt is None) or np.array_equal(f_pt, p_pt)


@pytest.mark.parametrize("seed", range(12))
def test_cover_against_equals_the_plain_flags(seed: int,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # R13.08-a (i)/(ii): cover_against with the proof (the flags of models not seen CLEAR,
    # the terrain-only test) equals it without, for every observer model; and where
    # _terrain_blocker says yes, the flags have bit 2
    scene = scene_from_dict(_sparse_scene(seed))
    units = scene.units
    vis = Visibility(scene, jit=False)
    pairs = [(ou, tu) for ou in range(len(units)) for tu in range(len(units))
             if units[ou].player != units[tu].player]
    got = {}
    for ou, tu in pairs:
        vis.stage(ou, tu)
        for om in range(len(units[ou].models)):
            got[(ou, om, tu)] = vis.cover_against(ou, om, tu)
    flags = Visibility(scene, jit=False)
    proven = 0
    for ou, tu in pairs:
        for om in range(len(units[ou].models)):
            for tm in range(len(units[tu].models)):
                if flags._terrain_blocker(ou, om, tu, tm):
                    proven += 1
                    assert flags._ramp_flags(ou, om, tu, tm) & 2
    assert proven > 10
    monkeypatch.setattr(full_visibility, "blocker_sure", lambda *a: False)
    monkeypatch.setattr(visibility_module, "blocker_sure", lambda *a: False)
    ref = Visibility(scene, jit=False)
    for ou, tu in pairs:
        ref.stage(ou, tu)
        for om in range(len(units[ou].models)):
            assert ref.cover_against(ou, om, tu) is got[(ou, om, tu)]


def test_far_pairs_leave_out_the_areas_either_model_is_within() -> None:
    # R13.08-a, 13.10: a model pair the unit-pair proof clears has no HULL_RAMP blocker
    # among its own terrain obstacles (the areas and gap fillers either model is within
    # left out); the scenes hold pairs cleared only thanks to that
    cleared = sum(_cleared_by_regions(seed) for seed in range(12))
    assert cleared > 20


def _cleared_by_regions(seed: int) -> int:
    """Check the unit-pair proof on one scene; the model pairs only the regions clear."""
    scene = scene_from_dict(_sparse_scene(seed))
    units = scene.units
    vis = Visibility(scene, jit=False)
    cleared = 0
    for ou in range(len(units)):
        for tu in range(len(units)):
            if units[ou].player == units[tu].player:
                continue
            far = vis._terrain_far(ou, tu)
            assert far is not None
            far = far.matrix()
            ter = sight_build.terrain_obstacles(vis._part.items)
            emin, emax = _edge_boxes(ter)
            plain = terrain_far(ter, emin, emax,
                                [vis.footprints[(ou, m)] for m in range(far.shape[0])],
                                [vis.footprints[(tu, m)] for m in range(far.shape[1])])
            assert (far | ~plain).all()
            cleared += int((far & ~plain).sum())
            for om, o in enumerate(units[ou].models):
                for tm, t in enumerate(units[tu].models):
                    if far[om, tm]:
                        obs = vis._terrain_of(vis._obstacles_for(ou, om, tu, tm))
                        assert len(hull_blockers(vis.footprints[(ou, om)],
                                                 vis.footprints[(tu, tm)], t.z, o.top,
                                                 obs)) == 0
    return cleared
