"""The swept area of an oval or hull footprint moving in a straight line (measure.Swept)
against a fine sampling of the move: the exact sweep that replaced sampling every 0.02"."""

from __future__ import annotations

import math

import numpy as np
import shapely

from w40k.geometry.measure import (
    Swept,
    separation,
    swept_region_distance,
    swept_separation,
)
from w40k.geometry.shapes import Circle, Model, Polygon, Shape, convex_hull

STEPS = 401
"""Samples along the move for the reference (every 0.022" or finer: a sampled distance is
at most 0.011" above the true one, inside MARGIN)."""
MARGIN = 0.02
"""Cases whose sampled answer is this close to the threshold are skipped (sampling error)."""


def _mover(rng: np.random.Generator, hull: bool) -> Model:
    x, y = rng.uniform(10, 20, 2)
    facing = float(rng.uniform(0, 2 * math.pi))
    if hull:
        pts = rng.uniform(-1.5, 1.5, (6, 2))
        return Model("m", float(x), float(y), base_mm=None, hull=convex_hull(pts),
                     facing=facing)
    w, h = sorted(rng.uniform(25, 120, 2), reverse=True)
    return Model("m", float(x), float(y), base_mm=(float(w), float(h)), facing=facing)


def _obstacle(rng: np.random.Generator, m: Model, dx: float, dy: float) -> Shape:
    """An obstacle near the path (on it about half the time)."""
    t = rng.uniform(0, 1)
    cx, cy = np.array([m.x + t * dx, m.y + t * dy]) + rng.uniform(-3.5, 3.5, 2)
    if rng.random() < 0.5:
        return Circle(float(cx), float(cy), float(rng.uniform(0.3, 1.5)))
    return Polygon(convex_hull(rng.uniform(-1.5, 1.5, (5, 2)) + np.array([cx, cy])))


def _samples(m: Model, dx: float, dy: float) -> list[Shape]:
    return [m.moved(m.x + t * dx, m.y + t * dy).footprint() for t in np.linspace(0, 1, STEPS)]


def _sampled_region_distance(m: Model, dx: float, dy: float, wall: np.ndarray) -> float:
    """The least distance from the sampled positions to the region, with each footprint as
    a 720-gon outline (within 3e-5" of an oval; a hull's own polygon) measured by shapely."""
    outlines = shapely.polygons([f.outline(720) for f in _samples(m, dx, dy)])
    return float(shapely.distance(outlines, shapely.Polygon(wall)).min())


def test_the_exact_sweep_of_ovals_and_hulls_agrees_with_a_fine_sampling() -> None:
    # R03.01-d (models in the swept path), R13.06-b (dense features crossed): an oval or hull
    # footprint hits an obstacle along a straight move exactly when one of its positions does
    rng = np.random.default_rng(7)
    seen = {True: 0, False: 0}
    for i in range(60):
        m = _mover(rng, hull=i % 2 == 1)
        dx, dy = rng.uniform(-6, 6, 2)
        other = _obstacle(rng, m, float(dx), float(dy))
        sampled = min(separation(f, other) for f in _samples(m, float(dx), float(dy)))
        if abs(sampled) < MARGIN:
            continue
        hit = swept_separation(Swept(m.footprint(), float(dx), float(dy)), other) < -1e-6
        assert hit == (sampled < 0), (i, sampled)
        seen[hit] += 1
    assert min(seen.values()) >= 10  # both answers occur


def test_the_exact_sweep_against_a_terrain_region_agrees_with_a_fine_sampling() -> None:
    # R13.06-b: a non-convex feature footprint (an L-shaped wall) touched along the move
    rng = np.random.default_rng(11)
    wall = np.array([[14, 14], [18, 14], [18, 14.5], [14.5, 14.5], [14.5, 18], [14, 18]],
                    dtype=np.float64)
    seen = {True: 0, False: 0}
    for i in range(60):
        m = _mover(rng, hull=i % 2 == 1)
        dx, dy = rng.uniform(-6, 6, 2)
        sampled = _sampled_region_distance(m, float(dx), float(dy), wall)
        if 0 < sampled < MARGIN:
            continue
        hit = swept_region_distance(Swept(m.footprint(), float(dx), float(dy)), wall) <= 0.0
        assert hit == (sampled <= 0.0), (i, sampled)
        seen[hit] += 1
    assert min(seen.values()) >= 10


def test_a_footprint_that_does_not_move_sweeps_its_own_area() -> None:
    m = Model("m", 10.0, 10.0, base_mm=(90.0, 50.0), facing=0.5)
    other = Circle(12.5, 10.0, 0.5)
    assert math.isclose(swept_separation(Swept(m.footprint(), 0.0, 0.0), other),
                        separation(m.footprint(), other), abs_tol=1e-9)
