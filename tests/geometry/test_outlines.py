"""The kept feature outlines (geometry/outlines.py) answer exactly as the array measures they
stand in for: the same floats, bit for bit, on seeded random scenes."""

from __future__ import annotations

import random

import numpy as np

from w40k.geometry.measure import (
    point_in_polygon,
    point_segment,
    point_segment_distance,
    segment_segment_distance,
    shape_region_distance,
)
from w40k.geometry.outlines import outline, outlines
from w40k.geometry.shapes import Circle
from w40k.geometry.terrain import Category, Terrain, TerrainFeature


def _feature(rng: random.Random, k: int) -> TerrainFeature:
    """A random polygon (possibly non-convex, some vertices on a 1" grid so points land on
    edges and vertices exactly)."""
    cx, cy = rng.uniform(5, 15), rng.uniform(5, 15)
    pts = []
    for i in range(k):
        a = 2 * np.pi * i / k + rng.uniform(-0.2, 0.2)
        r = rng.uniform(1, 6)
        x, y = cx + r * np.cos(a), cy + r * np.sin(a)
        if rng.random() < 0.3:
            x, y = round(x), round(y)
        pts.append((float(x), float(y)))
    return TerrainFeature("f", Category.DENSE, tuple(pts), 4.0)


def test_outline_box_and_arrays_match_the_feature() -> None:
    rng = random.Random(1)
    f = _feature(rng, 7)
    o = outline(f)
    region = f.array()
    assert np.array_equal(o.region, region)
    assert np.array_equal(o.nxt, np.roll(region, -1, axis=0))
    assert (o.x0, o.y0, o.x1, o.y1) == (float(region[:, 0].min()), float(region[:, 1].min()),
                                        float(region[:, 0].max()), float(region[:, 1].max()))
    assert not o.region.flags.writeable
    t = Terrain(features=(f, _feature(rng, 4)))
    assert outlines(t) is outlines(t)
    assert [x.feature for x in outlines(t)] == list(t.features)


def test_scalar_twins_give_the_same_floats_as_the_array_measures() -> None:
    rng = random.Random(7)
    for _ in range(60):
        f = _feature(rng, rng.choice((3, 4, 5, 8, 12)))
        o = outline(f)
        region = f.array()
        for _ in range(40):
            grid = rng.random() < 0.3
            px = float(round(rng.uniform(0, 20))) if grid else rng.uniform(0, 20)
            py = float(round(rng.uniform(0, 20))) if grid else rng.uniform(0, 20)
            qx, qy = px + rng.uniform(-8, 8), py + rng.uniform(-8, 8)
            r = rng.choice((0.0, 0.5, 0.984, 1.5))
            p = np.array([[px, py]])
            assert o.holds_point(px, py) == bool(point_in_polygon(p, region)[0])
            assert o.disc_distance(px, py, r) == shape_region_distance(Circle(px, py, r), region)
            d = segment_segment_distance(p, np.array([[qx, qy]]), region, o.nxt)
            assert o.segment_distance(px, py, qx, qy) == float(d.min())
            assert o.disc_meets(px, py, r) == (o.disc_distance(px, py, r) <= 0.0)
            for t in (-1.0, 0.0, 1e-9, r, float(d.min()), float(np.nextafter(d.min(), 9))):
                assert o.segment_within(px, py, qx, qy, t) == (float(d.min()) < t)


def test_misses_is_the_strict_box_test() -> None:
    f = TerrainFeature("wall", Category.DENSE, ((0.0, 0.0), (4.0, 0.0), (4.0, 1.0), (0.0, 1.0)),
                       4.0)
    o = outline(f)
    assert o.misses(4.5, 0.0, 6.0, 1.0)
    assert not o.misses(4.0, 0.0, 6.0, 1.0)  # touching boxes are measured exactly
    assert not o.misses(-1.0, -1.0, 0.0, 0.0)


def test_point_segment_is_the_array_measure_for_one_point() -> None:
    # validate_move's swept round base against a round base uses it
    rng = random.Random(11)
    for _ in range(2000):
        p, a, b = ([rng.choice((float(rng.randint(0, 9)), rng.uniform(0, 9))) for _ in "xy"]
                   for _ in range(3))
        if rng.random() < 0.05:
            b = list(a)  # a zero-length segment
        want = float(point_segment_distance(np.array([p]), np.array([a]), np.array([b]))[0])
        assert point_segment(p[0], p[1], a[0], a[1], b[0], b[1]) == want
