"""Cover per attacking model (13.08 (ii)): the proof that no terrain can give a model pair
cover (:mod:`w40k.geometry.cover_far`) against HULL_RAMP itself, and
``Visibility.cover_against`` (that proof, and its order of the target models) against the
per-model definition on seeded random scenes."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.cover_far import outline_disc, terrain_far
from w40k.geometry.los import Obstacles
from w40k.geometry.los_hull import _edge_boxes, _outline48, hull_blockers
from w40k.geometry.shapes import Circle, Oval, Polygon, Shape


def _shape(rng: np.random.Generator) -> Shape:
    x, y = (float(v) for v in rng.uniform(0, 20, size=2))
    if rng.random() < 0.7:
        return Circle(x, y, float(rng.uniform(0.5, 1.5)))
    return Oval(x, y, float(rng.uniform(0.8, 2.0)), float(rng.uniform(0.4, 0.8)),
                float(rng.uniform(0, math.pi)))


def _box(s: Shape) -> tuple[float, float, float, float]:
    cx, cy, reach = outline_disc(s)
    return (cx - reach, cy - reach, cx + reach, cy + reach)


def _near_walls(rng: np.random.Generator, boxes: list[tuple[float, float, float, float]],
                n: int) -> list[tuple[np.ndarray, float, float]]:
    """Walls and points whose grown boxes end at, or 1e-12 .. 1e-6 either side of, an edge
    of one of these outline boxes (the proof's boundary), and some anywhere."""
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(n):
        grow = float(rng.choice([1e-6, 0.02, 0.5]))
        top = float(rng.choice([0.5, 2.0, 6.0, np.inf]))
        if rng.random() < 0.3:
            x, y = (float(v) for v in rng.uniform(-2, 22, size=2))
            w, h = (float(v) for v in rng.uniform(0.1, 3, size=2))
        else:
            xlo, ylo, xhi, yhi = boxes[int(rng.integers(len(boxes)))]
            off = float(rng.choice([0.0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6]))
            w, h = (float(v) for v in rng.uniform(0.1, 3, size=2))
            y = float(rng.uniform(ylo - h, yhi))
            x = float(rng.uniform(xlo - w, xhi))
            side = int(rng.integers(4))
            if side == 0:  # ends at the left edge
                x = xlo - grow - w - off
            elif side == 1:
                x = xhi + grow + off
            elif side == 2:
                y = ylo - grow - h - off
            else:
                y = yhi + grow + off
        if rng.random() < 0.2:  # a point (a base) grown by its radius
            items.append((np.array([[x, y]]), grow, top))
        else:
            items.append((np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]), grow,
                          top))
    return items


@pytest.mark.parametrize("seed", range(40))
def test_no_terrain_near_the_outlines_means_no_hull_ramp_blocker(seed: int) -> None:
    # R06.01-c fully visible, R13.08-a: a pair the proof clears has no HULL_RAMP blocker
    # among the terrain, for the whole terrain and for any subset of its obstacles
    rng = np.random.default_rng(9000 + seed)
    observers = [_shape(rng) for _ in range(5)]
    targets = [_shape(rng) for _ in range(4)]
    boxes = [_box(s) for s in observers + targets]
    ter = Obstacles.build(_near_walls(rng, boxes, 25))
    emin, emax = _edge_boxes(ter)
    far = terrain_far(ter, emin, emax, observers, targets)
    keep = rng.random(int(ter.owner.max()) + 1) < 0.6
    part = ter.subset(keep[ter.owner], keep[ter.vert_owner])
    for i, o in enumerate(observers):
        for j, t in enumerate(targets):
            if far[i, j]:
                for level, top_o in ((0.0, 1.6), (0.0, 8.0), (3.0, 1.0)):
                    assert len(hull_blockers(o, t, level, top_o, ter)) == 0
                    assert len(hull_blockers(o, t, level, top_o, part)) == 0


@pytest.mark.parametrize("seed", range(20))
def test_the_outline_disc_holds_the_48_gon(seed: int) -> None:
    # the pair hull's vertices are points of the two 48-gons (los_hull._outline48)
    rng = np.random.default_rng(9100 + seed)
    shapes = [_shape(rng) for _ in range(50)]
    shapes.append(Polygon(((0.0, 0.0), (2.0, 0.5), (1.0, 3.0))))
    for s in shapes:
        cx, cy, reach = outline_disc(s)
        p = _outline48(s)
        assert (np.hypot(p[:, 0] - cx, p[:, 1] - cy) <= reach).all()


def test_the_proof_clears_pairs_with_terrain_just_outside_and_not_inside() -> None:
    # a wall whose grown box ends 1e-6" short of the pair's outlines' box is cleared; one
    # that reaches 1e-12" into it is not
    o, t = Circle(0.0, 0.0, 0.5), Circle(10.0, 0.0, 0.5)
    ylo = _box(o)[1]
    for gap, want in ((1e-6, True), (-1e-12, False)):
        wall = np.array([[4.0, ylo - 0.02 - 1.0 - gap], [5.0, ylo - 0.02 - 1.0 - gap],
                         [5.0, ylo - 0.02 - gap], [4.0, ylo - 0.02 - gap]])
        ter = Obstacles.build([(wall, 0.02, 6.0)])
        emin, emax = _edge_boxes(ter)
        assert bool(terrain_far(ter, emin, emax, [o], [t])[0, 0]) is want


@pytest.mark.parametrize("seed", range(20))
def test_walls_along_the_strip_edge(seed: int) -> None:
    # walls parallel to the centre segment, 1e-12 .. 1e-3 inside or outside the strip's
    # edge (its half-width plus their grow): those the proof clears have no HULL_RAMP
    # blocker (one inside the strip may still be cleared by the discs' boxes), and those
    # 1e-6 or more outside it are cleared
    rng = np.random.default_rng(9200 + seed)
    o, t = _shape(rng), _shape(rng)
    (ox, oy, ro), (tx, ty, rt) = outline_disc(o), outline_disc(t)
    ln = math.hypot(tx - ox, ty - oy)
    if ln < 1e-3:
        return
    ux, uy = (tx - ox) / ln, (ty - oy) / ln
    for off in (1e-3, 1e-6, 1e-8, 1e-12, -1e-12, -1e-8, -1e-3):
        for side in (1.0, -1.0):
            grow = float(rng.choice([1e-6, 0.02, 0.5]))
            d = side * (max(ro, rt) + grow + off)
            s0 = float(rng.uniform(0.0, 0.8)) * ln
            p = np.array([[ox + ux * s0 - uy * d, oy + uy * s0 + ux * d],
                          [ox + ux * (s0 + 1.0) - uy * d, oy + uy * (s0 + 1.0) + ux * d]])
            ter = Obstacles.build([(p, grow, 6.0)])
            emin, emax = _edge_boxes(ter)
            far = bool(terrain_far(ter, emin, emax, [o], [t])[0, 0])
            if far:
                assert len(hull_blockers(o, t, 0.0, 1.6, ter)) == 0
            if off >= 1e-6:
                assert far


def _sparse_scene(seed: int) -> dict[str, Any]:
    """A random scene of test_los_batch with some features left out (so that some model
    pairs have no terrain near) and some units given Stealth."""
    rng = np.random.default_rng(300 + seed)
    d = random_scene(rng)
    d["terrain"] = [f for f in d["terrain"] if f["area"] is not None or rng.random() < 0.5]
    for u in d["units"]:
        if rng.random() < 0.1:
            u["abilities"] = ["Stealth"]
    return d


@pytest.mark.parametrize("seed", range(12))
def test_cover_against_equals_the_per_model_definition(seed: int) -> None:
    # R13.08-a (i)/(ii), R24.33: a unit has cover against a model's attacks when every model
    # is within an area (INFANTRY...) or not fully visible due to terrain; asked for every
    # observer model in turn (the order hint and the proof at work) on one Visibility, and
    # compared with the per-pair terrain_cover of a fresh one
    scene = scene_from_dict(_sparse_scene(seed))
    units = scene.units
    vis, ref = Visibility(scene, jit=False), Visibility(scene, jit=False)
    for ou in range(len(units)):
        for tu in range(len(units)):
            if units[ou].player == units[tu].player:
                continue
            vis.stage(ou, tu)
            in_area = ref._cover_models(tu)
            for om in range(len(units[ou].models)):
                want = units[tu].stealth or all(
                    bool(in_area[tm]) or ref.model_sight(ou, om, tu, tm).terrain_cover
                    for tm in range(len(units[tu].models)))
                assert vis.cover_against(ou, om, tu) is want


def test_the_random_scenes_use_the_proof() -> None:
    # the scenes above hold model pairs the proof clears and are seen CLEAR
    cleared = 0
    for seed in range(12):
        scene = scene_from_dict(_sparse_scene(seed))
        vis = Visibility(scene, jit=False)
        units = scene.units
        for ou in range(len(units)):
            for tu in range(len(units)):
                if units[ou].player != units[tu].player:
                    far = vis._terrain_far(ou, tu)
                    assert far is not None
                    far = far.matrix()
                    cleared += int(far.sum())
    assert cleared > 20
