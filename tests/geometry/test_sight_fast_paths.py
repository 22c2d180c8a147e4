"""The sight searches' speed paths give the same floats as the plain formulas: the segment
distance on coordinate components (``los_dist._seg_dist``) and the oval-disc tangents kept per
disc (``tangents.oval_circle_tangents``), so no line-of-sight answer or witness changes
(docs/geometry.md "Speed paths")."""

from __future__ import annotations

import numpy as np

from w40k.geometry import tangents
from w40k.geometry.los_dist import _seg_dist
from w40k.geometry.shapes import FloatArray, Oval


def _plain_seg_dist(p1: FloatArray, p2: FloatArray, q1: FloatArray, q2: FloatArray) -> FloatArray:
    """The four point-segment distances and the crossing test, one formula each."""

    def pseg(p: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
        ab, ap = b - a, p - a
        den = np.maximum(ab[..., 0] ** 2 + ab[..., 1] ** 2, 1e-300)
        t = np.clip((ap[..., 0] * ab[..., 0] + ap[..., 1] * ab[..., 1]) / den, 0.0, 1.0)
        dx, dy = ap[..., 0] - ab[..., 0] * t, ap[..., 1] - ab[..., 1] * t
        return np.asarray(np.sqrt(dx * dx + dy * dy))

    def orient(a: FloatArray, b: FloatArray, c: FloatArray) -> FloatArray:
        return np.asarray((b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1])
                          - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0]))

    d = np.minimum(np.minimum(pseg(p1, q1, q2), pseg(p2, q1, q2)),
                   np.minimum(pseg(q1, p1, p2), pseg(q2, p1, p2)))
    cross = (orient(q1, q2, p1) * orient(q1, q2, p2) < 0) & (
        orient(p1, p2, q1) * orient(p1, p2, q2) < 0)
    return np.asarray(np.where(cross, 0.0, d))


def test_segment_distance_is_bit_for_bit_the_plain_formula() -> None:
    """Random segments (some degenerate, some on a grid so that ends touch), in rows and
    broadcast against each other: the same floats as the plain formula."""
    rng = np.random.default_rng(7)
    for trial in range(300):
        n = int(rng.integers(1, 40))
        pts = [rng.normal(size=(n, 2)) * 10 for _ in range(4)]
        if trial % 3 == 0:
            pts = [np.round(p) for p in pts]
        if trial % 5 == 0:
            pts[1] = pts[0].copy()
        if trial % 7 == 0:
            pts[3] = pts[2].copy()
        got, want = _seg_dist(*pts), _plain_seg_dist(*pts)
        assert got.shape == want.shape and np.array_equal(got, want)
        sp, sq = pts[0][:2, None, :], pts[1][:2, None, :]
        q1, q2 = pts[2][None], pts[3][None]
        assert np.array_equal(_seg_dist(sp, sq, q1, q2), _plain_seg_dist(sp, sq, q1, q2))


def test_kept_oval_tangents_are_those_computed_afresh() -> None:
    """Discs asked in random subsets and orders, some met before (kept rows) and some not:
    the same rows, in the same order, as the bisection of all the discs at once."""
    tangents._OVAL_DISC.clear()
    rng = np.random.default_rng(3)
    ovals = [Oval(10.0, 12.0, 2.5, 1.5, 0.3), Oval(30.0, 5.0, 3.0, 1.2, 2.0)]
    pool = rng.uniform(0.0, 40.0, size=(50, 2))
    radius = rng.choice([0.02, 0.52, 1.0], size=50)
    for trial in range(60):
        ov = ovals[trial % 2]
        idx = rng.choice(50, size=int(rng.integers(1, 25)))
        cx, cy, r = pool[idx, 0], pool[idx, 1], radius[idx]
        n, c = tangents.oval_circle_tangents(ov, cx, cy, r)
        n0, c0, _ = tangents._oval_circle_batch(ov, cx, cy, r)
        assert np.array_equal(n, n0) and np.array_equal(c, c0)
    assert tangents._OVAL_DISC


def test_kept_area_rows_are_those_computed_afresh() -> None:
    # R13.10-b, R13.08-a: which areas hold each model (kept by footprint per terrain) is the
    # same as a fresh computation, after a scene on the same terrain in which models moved
    from tests.geometry.test_los_batch import random_scene
    from w40k.geometry import Scene, Visibility, scene_from_dict

    for seed in range(4):
        data = random_scene(np.random.default_rng(seed))
        first = scene_from_dict(data)
        Visibility(first, jit=False).warm()
        for unit in data["units"]:
            unit["models"][0]["x"] += 0.4
        moved = scene_from_dict(data)
        again = Scene(first.battlefield, first.terrain, moved.units)
        kept = Visibility(again, jit=False)
        kept.warm()
        fresh = Visibility(moved, jit=False)  # another terrain object: nothing kept
        fresh.warm()
        assert kept._part is not fresh._part and kept._part.area_rows
        assert np.array_equal(kept._in_area, fresh._in_area)
