"""The walls' shadows as a proof that facing points are hidden (issue 10, cover10;
:mod:`w40k.geometry.cover_shadows`). Every point it calls hidden is one the exact
:func:`line_of_sight` finds BLOCKED, on seeded scenes built to be hard for it: walls of every
height around both tops, broken walls and L-shaped corners, walls ending just short of the
view or reaching past the observer, rows of bases with gaps, and points on and next to walls;
and it proves many of them (it is not vacuous)."""

from __future__ import annotations

import numpy as np
import pytest

from w40k.geometry.cover_shadows import shadowed_points
from w40k.geometry.los import Obstacles, Sight, line_of_sight
from w40k.geometry.shapes import HALF_LINE, Circle


def _scene(seed: int) -> tuple[Circle, float, np.ndarray, float, Obstacles]:
    """A round observer near x = 4, target points near x = 12 (some on or against a wall),
    and obstacles between and around them."""
    rng = np.random.default_rng(seed)
    o = Circle(4 + rng.uniform(-1, 1), 10 + rng.uniform(-2, 2),
               float(rng.choice([0.63, 1.0, 1.97])))
    top_o = float(rng.choice([1.0, 2.0, 4.0]))
    level = float(rng.choice([0.0, 0.0, 3.0]))
    tops = [top_o, level, max(top_o, level) + 1e-9, max(top_o, level) + 1e-8, 0.5, 5.0, np.inf]
    items: list[tuple[np.ndarray, float, float]] = []
    walls: list[np.ndarray] = []
    for _ in range(int(rng.integers(1, 6))):
        kind = rng.integers(0, 3)
        cx, cy = rng.uniform(6, 11.5), rng.uniform(6, 14)
        if kind == 0:  # a box
            w, h = rng.uniform(0.05, 1.0), rng.uniform(0.1, 4.0)
            poly = np.array([[cx - w, cy - h], [cx + w, cy - h], [cx + w, cy + h],
                             [cx - w, cy + h]])
        elif kind == 1:  # a thin wall at an angle, maybe long enough to pass the observer
            ang, ln = rng.uniform(0, np.pi), rng.uniform(0.5, 12.0)
            d = np.array([np.cos(ang), np.sin(ang)]) * ln / 2
            n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-9) * 0.05
            c = np.array([cx, cy])
            poly = np.array([c - d - n, c + d - n, c + d + n, c - d + n])
        else:  # an L-shaped corner (not convex)
            a, b = rng.uniform(0.5, 3.0, 2)
            t = 0.1
            poly = np.array([[cx, cy], [cx + a, cy], [cx + a, cy + t], [cx + t, cy + t],
                             [cx + t, cy + b], [cx, cy + b]])
        items.append((poly, HALF_LINE, float(rng.choice(tops))))
        walls.append(poly)
    for _ in range(int(rng.integers(0, 6))):  # a row of bases with gaps
        y = rng.uniform(7, 13)
        x = rng.uniform(8, 10)
        r = float(rng.choice([0.5, 0.63]))
        for k in range(int(rng.integers(2, 6))):
            items.append((np.array([[x, y + k * (2 * r + rng.uniform(0.0, 0.06))]]),
                          r + HALF_LINE, float(rng.choice([1.6, 5.0]))))
    pts = [[12 + rng.uniform(-1, 1), 10 + rng.uniform(-4, 4)] for _ in range(24)]
    for poly in walls[:2]:  # points on a wall's edge and a hair off it
        a, b = poly[0], poly[1]
        for f in (0.0, 0.5, 1.0):
            q = a + (b - a) * f
            pts += [list(q), list(q + np.array([0.0, 1e-9])), list(q + np.array([0.03, 0.0]))]
    return o, top_o, np.array(pts, dtype=np.float64), level, Obstacles.build(items)


@pytest.mark.parametrize("seed", range(150))
def test_a_point_the_shadows_hide_is_blocked_for_the_exact_search(seed: int) -> None:
    # R06.01-a, R13.08-a: hidden means no 1 mm line joins the observer to the point
    o, top_o, pts, level, obs = _scene(seed)
    hidden = shadowed_points(o, top_o, pts, level, obs)
    for p in pts[hidden]:
        tp = Circle(float(p[0]), float(p[1]), 0.0)
        assert line_of_sight(o, top_o, tp, level, obs).sight is Sight.BLOCKED


def test_the_shadows_prove_many_hidden_points() -> None:
    # R06.01-a: the proof is not vacuous on these scenes
    proven = 0
    for seed in range(150):
        o, top_o, pts, level, obs = _scene(seed)
        proven += int(shadowed_points(o, top_o, pts, level, obs).sum())
    assert proven > 1000  # 2236 of the 4501 points the exact search finds BLOCKED


def test_no_wall_or_a_low_one_proves_nothing() -> None:
    # R06.01-a: a wall no higher than the higher top (by 1e-9") does not count
    o = Circle(4.0, 10.0, 0.63)
    wall = np.array([[8.0, 5.0], [8.2, 5.0], [8.2, 15.0], [8.0, 15.0]])
    pts = np.array([[12.0, 10.0], [12.0, 9.0]])
    assert not shadowed_points(o, 2.0, pts, 0.0, Obstacles.build([])).any()
    low = Obstacles.build([(wall, HALF_LINE, 2.0)])
    assert not shadowed_points(o, 2.0, pts, 0.0, low).any()
    high = Obstacles.build([(wall, HALF_LINE, 2.0 + 1e-8)])
    assert shadowed_points(o, 2.0, pts, 0.0, high).all()
