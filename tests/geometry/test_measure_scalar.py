"""The one-point plain-arithmetic paths of geometry/measure.py give the numpy forms' values
to the last bit, and the kept-box shortcut of TerrainArea.holds its measured answer."""

from __future__ import annotations

import numpy as np

from w40k.geometry import full_visibility
from w40k.geometry.measure import (
    point_in_polygon,
    point_polygon_distance,
    point_segment_distance,
    separation,
    shape_region_distance,
)
from w40k.geometry.shapes import EPS, Circle, Model, Polygon
from w40k.geometry.terrain import TerrainArea


def _polygons(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    out = []
    for i in range(count):
        m = int(rng.integers(3, 14))
        c = rng.uniform(5, 55, 2)
        ang = np.sort(rng.uniform(0, 2 * np.pi, m))
        rad = rng.uniform(0.5, 8, m)
        poly = np.stack([c[0] + rad * np.cos(ang), c[1] + rad * np.sin(ang)], axis=1)
        out.append(np.round(poly * 2) / 2 if i % 3 == 0 else poly)
    return out


def _numpy_forms(p: np.ndarray, poly: np.ndarray) -> tuple[bool, float]:
    """The vectorised forms (two points: the array path) for the first point."""
    two = np.concatenate((p, p))
    inside = bool(point_in_polygon(two, poly)[0])
    nxt = np.concatenate((poly[1:], poly[:1]))
    d = float(point_segment_distance(p, poly, nxt).min())
    return inside, (0.0 if inside else d)


def test_one_point_answers_equal_the_array_forms_to_the_last_bit() -> None:
    rng = np.random.default_rng(13)
    for poly in _polygons(rng, 400):
        points = (rng.uniform(0, 60, (1, 2)), poly[:1].copy(),
                  np.round(rng.uniform(0, 60, (1, 2))))
        for p in points:
            inside, dist = _numpy_forms(p, poly)
            assert bool(point_in_polygon(p, poly)[0]) is inside
            assert float(point_polygon_distance(p, poly)[0]) == dist
            r = float(rng.uniform(0.3, 2.0))
            assert shape_region_distance(Circle(p[0, 0], p[0, 1], r), poly) == \
                (0.0 if inside else max(0.0, dist - r))
            hull = Polygon(tuple((float(x), float(y)) for x, y in poly))
            assert separation(Circle(p[0, 0], p[0, 1], r), hull) == \
                (-r if inside else dist - r)


def test_holds_skips_only_areas_clearly_apart() -> None:
    rng = np.random.default_rng(5)
    for poly in _polygons(rng, 60):
        area = TerrainArea("a", tuple((float(x), float(y)) for x, y in poly))
        for _ in range(40):
            x, y = rng.uniform(0, 60, 2)
            m = Model("m", float(x), float(y), base_mm=float(rng.choice([25.0, 32.0, 60.0])))
            measured = shape_region_distance(m.footprint(), area.array()) <= EPS
            assert area.holds(m) is measured


def test_cuts_in_row_blocks_equal_the_whole_product() -> None:
    rng = np.random.default_rng(9)
    for it in range(60):
        rows = int(rng.choice([256, 100, 65, 3, 1]))
        lines = int(rng.integers(1, 3000))
        pts = rng.uniform(0, 60, (rows, 2))
        ang = rng.uniform(0, 2 * np.pi, lines)
        n = np.stack([np.cos(ang), np.sin(ang)], axis=1)
        c = rng.uniform(-60, 60, lines)
        if it % 4 == 0:
            pts, c = np.round(pts), np.round(c)
        side = pts @ n.T - c[None, :] > 0.0  # the former whole-array form
        want = np.unique(np.nonzero(side != np.roll(side, -1, axis=0))[0])
        assert np.array_equal(full_visibility._flip_rows(pts, n, c), want)


def _whole_flips(pts: np.ndarray, n: np.ndarray, c: np.ndarray) -> np.ndarray:
    side = pts @ n.T - c[None, :] > 0.0  # the former whole-array form, every line
    return np.unique(np.nonzero(side != np.roll(side, -1, axis=0))[0])


def _oval_outline(rng: np.random.Generator) -> np.ndarray:
    """256 points around a random oval (centre on the table, semi-axes 0.4-3")."""
    ang_o = np.linspace(0.0, 2 * np.pi, 256, endpoint=False)
    cx, cy = rng.uniform(0, 60, 2)
    rx, ry = rng.uniform(0.4, 3.0, 2)
    return np.stack([cx + rx * np.cos(ang_o), cy + ry * np.sin(ang_o)], axis=1)


def test_cuts_leave_out_only_lines_clear_of_the_outline() -> None:
    # R06.01-c: the cuts of the fully-visible test. Lines through the outline's box, tangent
    # to it, a few floats and 1e-12 .. 1e-6 outside or inside it, among many far ones: the
    # flips with the far lines left out are the whole product's, to the last bit.
    rng = np.random.default_rng(11)
    for it in range(160):
        pts = _oval_outline(rng)
        if it % 5 == 0:
            pts = np.round(pts * 4) / 4
        lines = int(rng.integers(1, 4000 if it % 2 else 12))  # few: each flip is seen
        ang = rng.uniform(0, 2 * np.pi, lines)
        if it % 3 == 0:
            ang[: lines // 2] = rng.choice([0.0, np.pi / 2, np.pi, -np.pi / 2], lines // 2)
        n = np.stack([np.cos(ang), np.sin(ang)], axis=1)
        ext = (pts @ n.T).max(axis=0)  # each line's support of the points
        off = rng.choice([0.0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6, -0.5, 5.0, 40.0], lines)
        c = ext + off
        ulp = rng.integers(-3, 4, lines)  # a few floats either side of the extreme point
        c = np.where(rng.random(lines) < 0.3, ext + ulp * np.spacing(ext), c)
        got = full_visibility._flip_rows(pts, n, c)
        assert np.array_equal(got, _whole_flips(pts, n, c))


def test_cuts_with_one_line_near_the_outline() -> None:
    # R06.01-c: one line a few floats from the outline's extreme point among far ones (a
    # one-line product would take numpy's matrix-vector path, other floats): the same flips.
    rng = np.random.default_rng(12)
    for _ in range(400):
        pts = _oval_outline(rng)
        far = int(rng.integers(0, 6))
        ang = rng.uniform(0, 2 * np.pi, far + 1)
        n = np.stack([np.cos(ang), np.sin(ang)], axis=1)
        ext = (pts @ n.T).max(axis=0)
        c = ext + rng.uniform(20.0, 40.0, far + 1)  # far lines
        c[0] = ext[0] + int(rng.integers(-3, 4)) * np.spacing(ext[0])
        order = rng.permutation(far + 1)
        n, c = n[order], c[order]
        assert np.array_equal(full_visibility._flip_rows(pts, n, c), _whole_flips(pts, n, c))
