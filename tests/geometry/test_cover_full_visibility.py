"""06.01 fully visible as cover (13.08 (ii)) asks it, the fast way (issue 10, cover5): the
base sample's batched BLOCKED answer before the cuts, and a facing point first tried with a
few lines through it before the exact search. On seeded scenes of walls of several heights,
third-party bases, round and oval footprints, :func:`hidden_facing_point` gives the answer of
the definition (every tested facing point's own exact :func:`line_of_sight`), any hidden point
it names is one of the tested points and hidden, and every point the cheap lines show is one
the exact search shows."""

from __future__ import annotations

import numpy as np
import pytest

from w40k.geometry import full_visibility as fv
from w40k.geometry.los import Obstacles, Sight, line_of_sight
from w40k.geometry.shapes import HALF_LINE, Circle, Oval, Shape


def _scene(seed: int) -> tuple[Shape, float, Shape, float, Obstacles]:
    """An observer near x = 4 and a target near x = 14 (round or oval), with walls, low
    boxes and third-party bases scattered between them."""
    o, top_o, t, level, obs, _ = _scene_parts(seed)
    return o, top_o, t, level, obs


def _scene_parts(seed: int) -> tuple[Shape, float, Shape, float, Obstacles, Obstacles]:
    """:func:`_scene` and, last, its walls and boxes alone (the terrain: a subset)."""
    rng = np.random.default_rng(seed)

    def footprint(x: float) -> Shape:
        y = 10 + rng.uniform(-2, 2)
        if rng.random() < 0.3:
            return Oval(x, y, rng.uniform(1.0, 2.5), rng.uniform(0.6, 1.2), rng.uniform(0, 3.2))
        return Circle(x, y, rng.choice([0.63, 0.79, 1.0, 1.97]))

    o, t = footprint(4 + rng.uniform(-1, 1)), footprint(14 + rng.uniform(-1, 1))
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(int(rng.integers(1, 7))):
        cx, cy = rng.uniform(7, 11), rng.uniform(6, 14)
        w, h = rng.uniform(0.1, 1.5), rng.uniform(0.1, 3.0)
        box = np.array([[cx - w, cy - h], [cx + w, cy - h], [cx + w, cy + h], [cx - w, cy + h]])
        items.append((box, HALF_LINE, float(rng.choice([0.5, 1.5, 5.0, np.inf]))))
    walls = list(items)
    for _ in range(int(rng.integers(0, 4))):
        items.append((np.array([[rng.uniform(7, 11), rng.uniform(7, 13)]]),
                      float(rng.choice([0.63, 1.0])) + HALF_LINE, 1.6))
    return o, 2.0, t, 0.0, Obstacles.build(items), Obstacles.build(walls)


def _definition(o: Shape, top_o: float, t: Shape, level: float, obs: Obstacles,
                cv: bool) -> tuple[bool, np.ndarray | None]:
    """Every tested facing point searched exactly (the former reading, point by point)."""
    pts = fv.facing_test_points(o, top_o, t, level, obs)
    if pts is None:
        return True, None
    seen = {Sight.CLEAR} | ({Sight.CONVENTION} if cv else set())
    for p in pts:
        tp = Circle(float(p[0]), float(p[1]), 0.0)
        if line_of_sight(o, top_o, tp, level, obs).sight not in seen:
            return False, pts
    return True, pts


@pytest.mark.parametrize("seed", range(40))
def test_the_fast_full_visibility_gives_the_exact_searchs_answer(seed: int) -> None:
    # R06.01-c, R13.08-a: fully visible exactly when every tested facing point is visible
    o, top_o, t, level, obs = _scene(seed)
    for cv in (False, True):
        expected, pts = _definition(o, top_o, t, level, obs, cv)
        fully, hidden = fv.hidden_facing_point(o, top_o, t, level, obs, cv)
        assert fully == expected
        assert (hidden is None) == fully
        if hidden is not None:
            assert pts is not None and bool(np.all(pts == hidden, axis=1).any())
            tp = Circle(float(hidden[0]), float(hidden[1]), 0.0)
            seen = {Sight.CLEAR} | ({Sight.CONVENTION} if cv else set())
            assert line_of_sight(o, top_o, tp, level, obs).sight not in seen


@pytest.mark.parametrize("seed", range(40))
def test_a_point_a_cheap_line_shows_is_one_the_exact_search_shows(seed: int) -> None:
    # R06.01-a: a clear 1 mm line from the observer through the point is what visible means
    o, top_o, t, level, obs = _scene(seed)
    pts = fv.facing_test_points(o, top_o, t, level, obs)
    if pts is None:
        return
    near = fv._edges_near(o, pts, obs)
    anchors: list[np.ndarray] = []
    for p in pts:
        tp = Circle(float(p[0]), float(p[1]), 0.0)
        res = line_of_sight(o, top_o, tp, level, obs)
        if fv._clear_through(o, top_o, tp, level, near, anchors):
            assert res.sight is Sight.CLEAR
        if res.witness is not None:
            anchors = [np.array(res.witness[0]), *anchors[:3]]


@pytest.mark.parametrize("seed", range(40))
def test_points_the_batched_cheap_lines_show_are_ones_the_exact_search_shows(seed: int) -> None:
    # R06.01-a: the cheap lines of every facing point at once (no batched witness: the lines
    # across the observer, and its centre line when it is not round)
    o, top_o, t, level, obs = _scene(seed)
    pts = fv.facing_test_points(o, top_o, t, level, obs)
    if pts is None:
        return
    rows = np.arange(len(pts))
    shown = fv._shown_by_cheap_lines(o, top_o, pts, rows, np.zeros(0, dtype=np.int64), pts,
                                     level, fv._edges_near(o, pts, obs))
    for p in pts[shown]:
        tp = Circle(float(p[0]), float(p[1]), 0.0)
        assert line_of_sight(o, top_o, tp, level, obs).sight is Sight.CLEAR


def test_the_exact_search_order_puts_the_middle_of_a_run_first() -> None:
    # only the order of the exact searches changes (how soon a hidden point is found)
    assert fv._spread(np.arange(10)).tolist() == [0, 8, 4, 2, 6, 1, 3, 5, 7, 9]
    assert fv._deepest_first(np.array([2, 3, 4, 5, 8]), 10).tolist() == [3, 4, 2, 5, 8]


def test_a_point_the_terrain_alone_hides_answers_for_every_obstacle() -> None:
    # R06.01-c, R13.08-a: a facing point hidden by the walls alone is hidden with the third
    # bases too; named as ``prefer`` it gives the search's answer (not fully visible) at once
    # when it is one of the base sample, and is tried first otherwise
    asked = 0
    for seed in range(60):
        o, top_o, t, level, obs, walls = _scene_parts(seed)
        for cv in (False, True):
            hidden = fv.hidden_facing_point(o, top_o, t, level, walls, cv)[1]
            if hidden is None:
                continue
            staged = fv._facing_base(o, top_o, t, level, obs)
            assert staged is not None
            in_base = bool(np.all(staged[1][sorted(staged[3])] == hidden, axis=1).any())
            asked += in_base
            expected = fv.hidden_facing_point(o, top_o, t, level, obs, cv)
            fully, point = fv.hidden_facing_point(o, top_o, t, level, obs, cv, hidden)
            assert fully is expected[0] is False
            assert point is not None
            if in_base:
                assert bool(np.all(point == hidden))
            tp = Circle(float(point[0]), float(point[1]), 0.0)
            seen = {Sight.CLEAR} | ({Sight.CONVENTION} if cv else set())
            assert line_of_sight(o, top_o, tp, level, obs).sight not in seen
    assert asked >= 10
