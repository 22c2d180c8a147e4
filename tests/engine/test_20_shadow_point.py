"""The walls' shadows for one point in plain floats (issue 10, cover20;
:mod:`w40k.geometry.shadow_point`): a point it calls hidden is one the array pass
(:func:`cover_shadows.shadowed_points`) marks hidden, whatever the other points asked with
it, on the seeded scenes of tests/geometry/test_cover_shadows.py (walls at both tops and
1e-9" off them, partial obstacles at the edge of their reach, points on walls and 1e-9" off
them) and on scenes lined up with the axes (walls exactly across the line of sight, flat in
the array's clip); it proves most of what the array proves (not vacuous); and
:func:`full_visibility.hidden_facing_point` gives the same answer with it and without it
(and a hidden point)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.engine.test_18_cover_near import _GROWS, _OFFSETS, _walls
from tests.geometry.test_cover_shadows import _scene
from w40k.core import kept
from w40k.geometry import full_visibility, shadow_point
from w40k.geometry.cover_near import capsule_blockers
from w40k.geometry.cover_shadows import shadowed_points
from w40k.geometry.edge_rows import edge_rows
from w40k.geometry.full_visibility import _shadow_disc, hidden_facing_point
from w40k.geometry.los import Obstacles, Sight, line_of_sight
from w40k.geometry.los_hull import _blockers
from w40k.geometry.los_obstacles import TOUCH
from w40k.geometry.shadow_point import point_shadowed
from w40k.geometry.shapes import HALF_LINE, Circle, Oval


def _compare(o: Circle, top_o: float, pts: np.ndarray, level: float, obs: Obstacles,
             partial: bool) -> tuple[int, int]:
    """Asserts that every point proven here is marked by the array (with all the points and
    alone); returns (proven here, marked by the array)."""
    arr = shadowed_points(o, top_o, pts, level, obs, partial)
    mine = 0
    for i, (x, y) in enumerate(pts.tolist()):
        if point_shadowed(o, top_o, x, y, level, obs, partial):
            mine += 1
            assert arr[i], (i, x, y)
            assert shadowed_points(o, top_o, pts[i:i + 1], level, obs, partial)[0]
    return mine, int(arr.sum())


@pytest.mark.parametrize("seed", range(150))
def test_a_point_proven_here_is_one_the_array_marks(seed: int) -> None:
    # R06.01-a, R13.08-a: the plain-float proof only says what the array pass says
    for partial in (False, True):
        o, top_o, pts, level, obs = _scene(seed, partial)
        _compare(o, top_o, pts, level, obs, partial)


def test_the_plain_float_proof_proves_most_of_the_arrays() -> None:
    # R06.01-a: not vacuous (the margins leave out only cases near them)
    mine = arr = 0
    for seed in range(150):
        for partial in (False, True):
            o, top_o, pts, level, obs = _scene(seed, partial)
            m, a = _compare(o, top_o, pts, level, obs, partial)
            mine, arr = mine + m, arr + a
    assert arr > 4000 and mine >= 0.97 * arr, (mine, arr)


def _lined_up(seed: int) -> tuple[Circle, float, np.ndarray, float, Obstacles]:
    """An observer and points on one horizontal line, walls and bases exactly across it
    (vertical edges: flat for the array's clip) and along it, tops at the thresholds."""
    rng = np.random.default_rng(500 + seed)
    y = float(rng.choice([10.0, 10.25, 7.5]))
    o = Circle(4.0, y, float(rng.choice([0.63, 1.0, 1.97])))
    top_o = float(rng.choice([2.0, 3.0]))
    level = 0.0
    tops = [top_o, top_o + 1e-9, top_o + 1e-8, 1.5, top_o * 0.5, np.inf, 5.0]
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(int(rng.integers(1, 5))):
        x = float(rng.choice([7.0, 9.0, 10.5, 11.0, 11.5, 11.9]))
        h = float(rng.choice([0.5, 1.5, 3.0, 6.0]))
        w = float(rng.choice([0.1, 0.2]))
        dy = float(rng.choice([0.0, 0.0, 0.3, -0.7]))
        poly = np.array([[x, y - h + dy], [x + w, y - h + dy], [x + w, y + h + dy],
                         [x, y + h + dy]])
        items.append((poly, HALF_LINE, float(rng.choice(tops))))
    if rng.integers(0, 2):
        items.append((np.array([[9.5, y]]), 0.5 + HALF_LINE, float(rng.choice(tops))))
    pts = [[12.0, y], [12.0 + 1e-9, y], [12.5, y], [12.0, y + 0.5], [12.0, y - 1e-9],
           [11.9, y], [11.9 - 1e-9, y], [12.1, y + 0.05]]
    return o, top_o, np.array(pts), level, Obstacles.build(items)


@pytest.mark.parametrize("seed", range(60))
def test_walls_exactly_across_the_line_of_sight(seed: int) -> None:
    # R06.01-a: walls whose edges the array does not clip (flat), points on them
    o, top_o, pts, level, obs = _lined_up(seed)
    for partial in (False, True):
        _compare(o, top_o, pts, level, obs, partial)


@pytest.mark.parametrize("gap", [-1e-2, -1e-5, -1e-8, 0.0, 1e-8, 1e-5, 1e-5 + 1e-12, 2e-5,
                                 1e-3, 0.3, 1.0])
def test_a_partial_wall_at_the_edge_of_its_reach(gap: float) -> None:
    # R06.01-a: the partial obstacle's disc (its reach, less 1e-5") met at its edge
    o = Circle(4.0, 10.0, 1.0)
    x = 14.0 - (0.5 * 9.0 - gap)
    obs = Obstacles.build([(np.array([[x - 0.1, 0.0], [x, 0.0], [x, 20.0], [x - 0.1, 20.0]]),
                            HALF_LINE, 1.5)])
    pts = np.array([[14.0, 10.0], [14.0, 10.0 + 1e-9], [14.0, 10.3]])
    mine, arr = _compare(o, 3.0, pts, 0.0, obs, True)
    if gap >= 0.3:
        assert mine == arr == 3


def test_the_bounds_themselves() -> None:
    # R06.01-a: the observer's cone is grown, an edge's interval shrunk; a wall 1e-9"
    # above the tops does not count, one with room to spare does; no obstacle, no proof
    o = Circle(4.0, 10.0, 0.63)
    wall = np.array([[8.0, 5.0], [8.2, 5.0], [8.2, 15.0], [8.0, 15.0]])
    assert not point_shadowed(o, 2.0, 12.0, 10.0, 0.0, Obstacles.build([]), True)
    assert not point_shadowed(o, 2.0, 12.0, 10.0, 0.0,
                              Obstacles.build([(wall, HALF_LINE, 2.0)]), False)
    assert point_shadowed(o, 2.0, 12.0, 10.0, 0.0,
                          Obstacles.build([(wall, HALF_LINE, 2.0 + 1e-8)]), False)
    assert shadow_point._asin_hi(0.5) > np.arcsin(0.5)
    assert shadow_point._clip(1.5, 0.1) == (1.0, 0.0)
    assert shadow_point._clip(0.95, 0.1) == (0.95, 0.1)
    assert shadow_point._covers([(-1.0, 0.0), (0.0, 1.0)], 0.5)
    assert not shadow_point._covers([(-1.0, 0.0), (1e-15, 1.0)], 0.5)
    assert not shadow_point._covers([(-0.4, 1.0)], 0.5)
    assert not shadow_point._covers([(-1.0, 0.5)], 0.5)


def _shapes(seed: int) -> tuple[Circle | Oval, Circle | Oval]:
    rng = np.random.default_rng(700 + seed)
    o: Circle | Oval = Circle(4 + rng.uniform(-1, 1), 10 + rng.uniform(-2, 2),
                              float(rng.choice([0.63, 1.0, 1.97])))
    if seed % 3 == 0:
        o = Oval(o.cx, o.cy, o.r, 0.6 * o.r, float(rng.uniform(0, 3.2)))
    t: Circle | Oval = Circle(12 + rng.uniform(-1, 1), 10 + rng.uniform(-4, 4),
                              float(rng.choice([0.5, 0.63, 1.0])))
    if seed % 4 == 1:
        t = Oval(t.cx, t.cy, t.r, 0.55 * t.r, float(rng.uniform(0, 3.2)))
    return o, t


@pytest.mark.parametrize("seed", range(40))
def test_hidden_facing_point_is_the_same_with_and_without_it(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # R06.01-a, R13.08-a: the same answer either way, and a hidden point (cover22: which
    # hidden point is not part of the answer: the first probe proven, or first_hidden's)
    o, t = _shapes(seed)
    _, top_o, _, level, obs = _scene(seed, partial=True)
    cases = [(cv, hidden_facing_point(o, top_o, t, level, obs, cv)) for cv in (False, True)]
    monkeypatch.setattr(full_visibility, "first_shadowed", lambda *a: None)
    for cv, (fully, point) in cases:
        want_fully, want_point = hidden_facing_point(o, top_o, t, level, obs, cv)
        assert fully == want_fully
        assert (point is None) == (want_point is None) == fully
        if point is not None:
            seen = {Sight.CLEAR} | ({Sight.CONVENTION} if cv else set())
            tp = Circle(float(point[0]), float(point[1]), 0.0)
            assert line_of_sight(o, top_o, tp, level, obs).sight not in seen


def test_an_ovals_disc_is_asked_as_the_array_is() -> None:
    # R06.01-a: the plain-float proof is asked with the oval's circumscribed disc
    o, top_o, pts, level, obs = _scene(3, partial=True)
    disc = _shadow_disc(Oval(o.cx, o.cy, o.r, 0.5 * o.r, 0.4))
    assert disc is not None
    _compare(disc, top_o, pts, level, obs, True)


@pytest.mark.parametrize("turn", [0.0, 0.3, 2.0])
@pytest.mark.parametrize("delta", [-1e-6, -1e-9, -1e-12, -1e-14, 0.0, 1e-14, 1e-12, 1e-9,
                                   1e-6, 1e-3])
def test_a_wall_ending_at_the_edge_of_the_observers_cone(turn: float, delta: float) -> None:
    # R06.01-a: a wall across the view whose end is ``delta`` beyond the array's cone (its
    # half-angle asin(r / D) + 1e-9, the wall's reach 1e-12"): proven here only where the
    # array marks it; proven when well beyond (the margins are small)
    r, dist, s = 1.0, 8.0, 4.0
    edge = s * np.tan(np.arcsin(r / dist) + 1e-9) + delta
    c, sn = np.cos(turn), np.sin(turn)

    def at(x: float, y: float) -> list[float]:  # about the point (12, 10), turned
        return [12.0 + c * x - sn * y, 10.0 + sn * x + c * y]

    o = Circle(*at(-dist, 0.0), r)
    grow = 1e-7 + 1e-8 + 1e-12
    wall = np.array([at(-s, -5.0), at(-s - 0.1, -5.0), at(-s - 0.1, edge), at(-s, edge)])
    obs = Obstacles.build([(wall, grow, 5.0)])
    pts = np.array([at(0.0, 0.0)])
    mine, arr = _compare(o, 2.0, pts, 0.0, obs, False)
    if delta >= 1e-3:
        assert mine == arr == 1


def test_edge_rows_are_the_arrays_floats_kept_per_obstacles() -> None:
    # the rows the plain-float loops read (shadow_point, cover_near.blocker_sure): the
    # arrays' values, the box by np.minimum / np.maximum; kept per object until a new game
    _, _, _, _, obs = _scene(7, partial=True)
    rows = edge_rows(obs)
    want = np.concatenate([np.minimum(obs.a, obs.b), np.maximum(obs.a, obs.b), obs.a, obs.b,
                           obs.grow[:, None], obs.top[:, None]], axis=1)
    assert rows == want.tolist()
    assert edge_rows(obs) is rows
    _, _, _, _, other = _scene(7, partial=True)
    assert edge_rows(other) is not rows and edge_rows(other) == rows
    kept.forget()
    assert edge_rows(obs) is not rows


def _round_pair(rng: np.random.Generator) -> tuple[Circle, Circle]:
    x, y, u, v = (float(w) for w in rng.uniform(0, 20, size=4))
    ro = float(rng.choice([0.5, 0.63, 0.787, 1.0]))
    rt = float(rng.choice([0.5, 0.63, 0.787, 1.0]))
    return Circle(x, y, ro), Circle(u, v, rt)


def _outer_walls(rng: np.random.Generator, o: Circle, t: Circle, n: int
                 ) -> list[tuple[np.ndarray, float, float]]:
    """Walls about the outer capsule's bound: parallel to the centre segment at the larger
    48-gon's vertex radius plus ``grow - TOUCH`` (+- 1e-12 .. 1e-3), and tangent to that
    48-gon at a vertex or an edge midpoint, beyond the centres."""
    big = o if o.r >= t.r else t
    ln = max(math.hypot(t.cx - o.cx, t.cy - o.cy), 1e-9)
    ux, uy = (t.cx - o.cx) / ln, (t.cy - o.cy) / ln
    rv = big.r / math.cos(math.pi / 48)
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(n):
        grow = float(rng.choice(_GROWS))
        off = float(rng.choice(_OFFSETS))
        top = float(rng.choice([0.5, 2.0, 6.0, np.inf]))
        side = float(rng.choice([1.0, -1.0]))
        if rng.random() < 0.5:
            s0 = float(rng.uniform(-0.2, 1.2)) * ln
            d = side * (rv + grow - TOUCH + off)
            p = np.array([[o.cx + ux * s0 - uy * d, o.cy + uy * s0 + ux * d],
                          [o.cx + ux * (s0 + 1.0) - uy * d, o.cy + uy * (s0 + 1.0) + ux * d]])
        else:
            k = int(rng.integers(0, 96))
            ang = math.pi * k / 48  # even k: a vertex, odd: an edge midpoint
            rad = rv if k % 2 == 0 else big.r
            vx, vy = math.cos(ang), math.sin(ang)
            d = rad + grow - TOUCH + off
            p = np.array([[big.cx + vx * d - vy, big.cy + vy * d + vx],
                          [big.cx + vx * d + vy, big.cy + vy * d - vx]])
        items.append((p, grow, top))
    return items


@pytest.mark.parametrize("seed", range(40))
def test_capsule_blockers_are_hull_ramps_where_they_answer(seed: int) -> None:
    # R06.01-c fully visible, R13.08-a: where every edge is surely in or out of the pair
    # hull, the owners counted without it are HULL_RAMP's (the hull's test, computed)
    rng = np.random.default_rng(20000 + seed)
    answered = 0
    for _ in range(5):
        o, t = _round_pair(rng)
        items = _walls(rng, o, t, 8) + _outer_walls(rng, o, t, 8)
        for level, top_o in ((0.0, 1.6), (0.0, 8.0), (3.0, 1.0)):
            for one in [[it] for it in items] + [items[:6], items]:
                obs = Obstacles.build(one)
                got = capsule_blockers(o, t, level, top_o, obs)
                if got is not None:
                    answered += 1
                    assert got.tolist() == _blockers(o, t, level, top_o, obs).tolist()
    assert answered > 40


def test_capsule_blockers_leave_other_shapes_and_the_band_to_the_hull() -> None:
    # an oval footprint, or an edge between the two capsules, is not answered
    o, t = Circle(0.0, 0.0, 1.0), Circle(10.0, 0.0, 0.5)
    band = Obstacles.build([(np.array([[4.0, 0.8], [5.0, 0.8]]), 0.0197, 6.0)])
    assert capsule_blockers(o, t, 0.0, 1.6, band) is None
    assert capsule_blockers(Oval(0.0, 0.0, 1.0, 0.5, 0.0), t, 0.0, 1.6, band) is None
    far = Obstacles.build([(np.array([[4.0, 3.0], [5.0, 3.0]]), 0.0197, 6.0)])
    got = capsule_blockers(o, t, 0.0, 1.6, far)
    assert got is not None and len(got) == 0
    across = Obstacles.build([(np.array([[5.0, -3.0], [5.0, 3.0]]), 0.0197, 6.0)])
    got = capsule_blockers(o, t, 0.0, 1.6, across)
    assert got is not None and got.tolist() == [0]
