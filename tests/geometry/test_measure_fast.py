"""The closed-form measures for round and oval bases (geometry/oval_measure.py) give the same
distances as the general separating-axis search (``plain_separation``) on random seeded
shapes, to 1e-9" (01.04: distances are between the closest parts of the bases)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from w40k.geometry.measure import (
    Swept,
    _max_gap,
    boundary_points,
    distance,
    farthest_distance,
    horizontal_distance,
    maybe_within,
    plain_separation,
    point_in_polygon,
    separation,
    shape_inside_region,
    shape_region_distance,
    swept_region_distance,
    swept_separation,
)
from w40k.geometry.oval_measure import oval_oval, point_oval, segment_depth, segment_oval
from w40k.geometry.shapes import EPS, Circle, Model, Oval, Polygon

TOL = 1e-9
"""Exact to 1e-9"."""


def _oval(rng: random.Random) -> Oval:
    return Oval(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(0.3, 4),
                rng.uniform(0.3, 4), rng.uniform(-4, 4))


def _circle(rng: random.Random, r: float | None = None) -> Circle:
    return Circle(rng.uniform(-8, 8), rng.uniform(-8, 8),
                  rng.uniform(0.0, 2.0) if r is None else r)


def _segment(rng: random.Random) -> Polygon:
    return Polygon(((rng.uniform(-9, 9), rng.uniform(-9, 9)),
                    (rng.uniform(-9, 9), rng.uniform(-9, 9))))


def _polygon(rng: random.Random) -> Polygon:
    cx, cy, size = rng.uniform(-8, 8), rng.uniform(-8, 8), rng.uniform(0.5, 4)
    angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(rng.randint(3, 7)))
    return Polygon(tuple((cx + size * math.cos(t), cy + size * math.sin(t)) for t in angles))


@pytest.mark.parametrize("seed", range(4))
def test_circle_and_oval_signed_separation_matches_the_general_search(seed: int) -> None:
    """A circle (or a point) and an oval: the signed separation (the closest distance apart,
    minus the depth overlapping) is the general search's, both ways round."""
    rng = random.Random(seed)
    for i in range(150):
        o = _oval(rng)
        c = _circle(rng, 0.0 if i % 3 == 0 else None)
        assert separation(o, c) == pytest.approx(plain_separation(o, c), abs=TOL)
        assert separation(c, o) == pytest.approx(plain_separation(c, o), abs=TOL)


@pytest.mark.parametrize("seed", range(4))
def test_oval_and_segment_or_polygon_distance_matches_the_general_search(seed: int) -> None:
    """An oval apart from a segment or a convex polygon: the exact distance; when they meet
    the general search still answers (the same value)."""
    rng = random.Random(100 + seed)
    apart = 0
    for i in range(150):
        o = _oval(rng)
        b = _segment(rng) if i % 2 else _polygon(rng)
        fast, plain = separation(o, b), plain_separation(o, b)
        assert fast == pytest.approx(plain, abs=TOL)
        assert separation(b, o) == pytest.approx(plain, abs=TOL)
        assert distance(o, b) == pytest.approx(max(0.0, plain), abs=TOL)
        apart += plain > 0
    assert apart > 40  # both cases are exercised


@pytest.mark.parametrize("seed", range(3))
def test_two_ovals_distance_matches_the_general_search(seed: int) -> None:
    """Two ovals (or an oval and a circle through the same path): apart, the Newton-refined
    distance; meeting, the general search's signed value."""
    rng = random.Random(400 + seed)
    found = 0
    for _ in range(150):
        a, b = _oval(rng), _oval(rng)
        fast = oval_oval(a, b)
        plain = plain_separation(a, b)
        assert separation(a, b) == pytest.approx(plain, abs=TOL)
        if fast is not None:
            found += 1
            assert fast == pytest.approx(plain, abs=TOL)
        else:
            assert plain <= 1e-6
    assert found > 30
    side = Oval(0.0, 0.0, 4.0, 0.5, 0.0)
    assert oval_oval(side, Oval(0.0, 1.25, 4.0, 0.5, 0.0)) == pytest.approx(0.25, abs=1e-12)
    assert oval_oval(side, Oval(9.0, 0.0, 2.0, 0.5, 0.0)) == pytest.approx(3.0, abs=1e-12)


def test_a_close_miss_and_a_touch_are_measured_exactly() -> None:
    """A segment tangent to an oval is 0 away (they meet); one moved 1e-6" out is 1e-6"."""
    o = Oval(0.0, 0.0, 3.0, 1.0, 0.0)
    assert segment_oval((-5.0, 1.0), (5.0, 1.0), o) is None
    d = segment_oval((-5.0, 1.0 + 1e-6), (5.0, 1.0 + 1e-6), o)
    assert d == pytest.approx(1e-6, abs=1e-12)
    assert segment_oval((4.0, -1.0), (4.0, 1.0), o) == pytest.approx(1.0, abs=1e-12)
    assert point_oval(3.0, 0.0, o) == 0.0
    assert point_oval(0.0, 0.0, o) == pytest.approx(-1.0, abs=1e-12)
    # inside on the major axis the nearest edge point is off the axis (0.5625, 0.9823)
    assert point_oval(0.5, 0.0, o) == pytest.approx(-math.hypot(0.0625, math.sqrt(1 - 0.1875**2)))
    # a segment through the middle reaches a full semi-axis deep
    assert segment_depth((-5.0, 0.0), (5.0, 0.0), o) == pytest.approx(1.0)


def test_point_to_oval_distance_is_the_closest_boundary_point() -> None:
    """The signed distance agrees with a dense search over the boundary (inside and out,
    thin and round ovals, on the axes and off them)."""
    rng = random.Random(7)
    t = np.linspace(0.0, 2 * math.pi, 200_001)
    for _ in range(60):
        o = Oval(rng.uniform(-2, 2), rng.uniform(-2, 2), rng.uniform(0.1, 4),
                 rng.uniform(0.1, 4), rng.uniform(-4, 4))
        c, s = math.cos(o.angle), math.sin(o.angle)
        bx = o.cx + c * o.a * np.cos(t) - s * o.b * np.sin(t)
        by = o.cy + s * o.a * np.cos(t) + c * o.b * np.sin(t)
        for px, py in ((rng.uniform(-6, 6), rng.uniform(-6, 6)), (o.cx, o.cy),
                       (o.cx + c * o.a * 0.3, o.cy + s * o.a * 0.3)):
            dense = float(np.hypot(bx - px, by - py).min())
            d = point_oval(px, py, o)
            assert abs(d) == pytest.approx(dense, abs=1e-7)
            assert abs(d) <= dense + 1e-12  # never farther than a boundary point
            assert d == pytest.approx(plain_separation(Circle(px, py, 0.0), o), abs=TOL)


@pytest.mark.parametrize("seed", range(3))
def test_swept_round_and_oval_bases_match_the_general_search(seed: int) -> None:
    """A round or oval base moving in a straight line, against a circle, a segment or a
    polygon (R01.04 distances along a move): the same signed separation."""
    rng = random.Random(200 + seed)
    for i in range(120):
        fp = _oval(rng) if i % 2 else _circle(rng, rng.uniform(0.2, 2.0))
        sw = Swept(fp, rng.uniform(-6, 6), rng.uniform(-6, 6))
        other = (_circle(rng), _segment(rng), _polygon(rng))[i % 3]
        assert swept_separation(sw, other) == pytest.approx(_max_gap(sw, other), abs=TOL)


@pytest.mark.parametrize("seed", range(3))
def test_region_measures_of_ovals_match_the_general_search(seed: int) -> None:
    """Distance to a (non-convex) region, wholly inside it, and a swept base's distance to
    it: the same answers as edge-by-edge general searches."""
    rng = random.Random(300 + seed)
    region = np.array([[-6.0, -6.0], [6.0, -6.0], [6.0, 6.0], [0.0, 1.0], [-6.0, 6.0]])
    edges = [Polygon(((float(p[0]), float(p[1])), (float(q[0]), float(q[1]))))
             for p, q in zip(region, np.roll(region, -1, axis=0), strict=True)]
    for _ in range(80):
        o = Oval(rng.uniform(-9, 9), rng.uniform(-9, 9), rng.uniform(0.3, 2.5),
                 rng.uniform(0.3, 2.5), rng.uniform(-4, 4))
        plain = max(0.0, min(plain_separation(o, e) for e in edges))
        if shape_region_distance(o, region) > 0.0:
            assert shape_region_distance(o, region) == pytest.approx(plain, abs=TOL)
        inside = bool(point_in_polygon(np.array([o.center]), region)[0]) and all(
            plain_separation(o, e) >= -EPS for e in edges)
        assert shape_inside_region(o, region) == inside
        sw = Swept(o, rng.uniform(-3, 3), rng.uniform(-3, 3))
        plain_sw = max(0.0, min(_max_gap(sw, e) for e in edges))
        fast_sw = swept_region_distance(sw, region)
        if fast_sw > 0.0:
            assert fast_sw == pytest.approx(plain_sw, abs=TOL)


def test_farthest_distance_of_an_oval_is_unchanged() -> None:
    """"Wholly within" of an oval base: the largest of its 720 boundary points' distances,
    now each in closed form (the same value as point by point)."""
    rng = random.Random(11)
    for _ in range(10):
        shape = _oval(rng)
        for target in (_oval(rng), _circle(rng, 1.0), _polygon(rng)):
            plain = max(max(0.0, plain_separation(Circle(float(x), float(y), 0.0), target))
                        if not isinstance(target, Polygon)
                        else distance(Circle(float(x), float(y), 0.0), target)
                        for x, y in boundary_points(shape))
            assert farthest_distance(shape, target) == pytest.approx(plain, abs=TOL)


def test_the_near_pre_test_never_rules_out_a_pair_within_the_distance() -> None:
    """``maybe_within`` (the cheap pre-test of the set-up checks) is False only for pairs
    farther apart than the distance: round, oval and FRAME-hull models (01.04, 17.02)."""
    rng = random.Random(21)
    hull = ((-2.0, -1.0), (2.0, -1.0), (2.5, 0.0), (2.0, 1.0), (-2.0, 1.0))

    def model(i: int) -> Model:
        kind = i % 3
        x, y, f = rng.uniform(0, 20), rng.uniform(0, 20), rng.uniform(-4, 4)
        if kind == 0:
            return Model(f"r{i}", x, y, base_mm=rng.choice((25.0, 32.0, 40.0)))
        if kind == 1:
            return Model(f"o{i}", x, y, base_mm=(rng.uniform(60, 170), rng.uniform(35, 105)),
                         facing=f)
        return Model(f"h{i}", x, y, base_mm=None, hull=hull, facing=f,
                     keywords=frozenset({"FRAME"}))

    a = [model(i) for i in range(30)]
    b = [model(i + 30) for i in range(30)]
    for d in (0.0, 2.0, 8.0):
        maybe = maybe_within(a, b, d)
        for i, m in enumerate(a):
            for j, o in enumerate(b):
                if horizontal_distance(m, o) <= d + EPS:
                    assert maybe[i, j]
        assert not maybe.all()  # it does rule pairs out


def test_the_kept_distance_of_an_oval_pair_is_the_measure_and_follows_a_move() -> None:
    # R01.04-a: closest parts of the bases; the kept answer of a pair is the measured one,
    # and a moved model (a new object, a new footprint) is measured again
    from w40k.geometry.measure import distance, horizontal_distance
    tank = Model("tank", 10.0, 10.0, 0.0, (170.0, 109.0), 3.0, 0.3, frozenset({"VEHICLE"}))
    boy = Model("boy", 16.0, 12.0, 0.0, 32.0)
    d = horizontal_distance(tank, boy)
    assert d == distance(tank.footprint(), boy.footprint()) > 0.0
    assert horizontal_distance(tank, boy) == d
    assert horizontal_distance(boy, tank) == distance(boy.footprint(), tank.footprint())
    closer = tank.moved(11.0, 10.0)
    assert horizontal_distance(closer, boy) == distance(closer.footprint(), boy.footprint()) < d
