"""The exact line-of-sight algorithm against an independent brute force on narrow slits.

The brute force samples lines densely: every pair of points on the facing halves of the two
bases (600 x 600), each segment checked against the blockers grown by 0.5 mm. Slit widths are
drawn at least 0.15 mm away from 1 mm either side, so sampling resolves them; both outcomes
occur, so a wrong width model (e.g. ignoring the 1 mm width) makes this test fail.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from w40k.geometry.los import Obstacles, Sight, line_of_sight
from w40k.geometry.measure import segment_segment_distance
from w40k.geometry.shapes import HALF_LINE, Circle, mm


def brute_force_sees(
    o: Circle, t: Circle, items: list[tuple[np.ndarray, float]], n: int = 600
) -> bool:
    """True if some sampled segment between the facing half-boundaries clears every item."""
    ang = math.atan2(t.cy - o.cy, t.cx - o.cx)
    a1 = np.linspace(ang - math.pi / 2, ang + math.pi / 2, n)
    a2 = np.linspace(ang + math.pi / 2, ang + 3 * math.pi / 2, n)
    p = np.stack([o.cx + o.r * np.cos(a1), o.cy + o.r * np.sin(a1)], axis=1)
    q = np.stack([t.cx + t.r * np.cos(a2), t.cy + t.r * np.sin(a2)], axis=1)
    ok = np.ones((n, n), dtype=bool)
    for poly, grow in items:
        e1 = poly
        e2 = np.roll(poly, -1, axis=0) if len(poly) >= 3 else poly
        for k in range(len(e1)):
            d = segment_segment_distance(
                p[:, None, :], q[None, :, :], e1[k][None, None, :], e2[k][None, None, :]
            )
            ok &= d >= grow
    return bool(ok.any())


def slit_scene(
    rng: np.random.Generator,
) -> tuple[Circle, Circle, list[tuple[np.ndarray, float]], float]:
    """Observer and target either side of a wall pierced by one narrow slit."""
    ro = mm(float(rng.choice([25.0, 32.0, 40.0]))) / 2
    rt = mm(float(rng.choice([25.0, 32.0, 40.0]))) / 2
    gap = float(rng.uniform(3.0, 8.0))
    o = Circle(0.0, float(rng.uniform(-0.3, 0.3)), ro)
    t = Circle(gap, float(rng.uniform(-0.3, 0.3)), rt)
    xw = float(rng.uniform(1.0, gap - 1.0))
    thick = float(rng.uniform(0.05, 0.3))
    if rng.random() < 0.5:
        width = mm(float(rng.uniform(0.5, 0.85)))
    else:
        width = mm(float(rng.uniform(1.15, 1.8)))
    yc = float(rng.uniform(-0.35, 0.35))
    lo, hi = yc - width / 2, yc + width / 2
    w1 = np.array([[xw, -4.0], [xw + thick, -4.0], [xw + thick, lo], [xw, lo]])
    w2 = np.array([[xw, hi], [xw + thick, hi], [xw + thick, 4.0], [xw, 4.0]])
    items = [(w1, HALF_LINE), (w2, HALF_LINE)]
    if rng.random() < 0.5:  # a third-party model somewhere near the corridor
        c = np.array([[float(rng.uniform(0.8, gap - 0.8)), float(rng.uniform(-1.5, 1.5))]])
        items.append((c, mm(32) / 2 + HALF_LINE))
    return o, t, items, width


@pytest.mark.parametrize("seed", range(12))
def test_exact_line_of_sight_agrees_with_dense_brute_force_on_narrow_slits(seed: int) -> None:
    # R06.01-a: a 1 mm line passes a slit wider than 1 mm and never one narrower
    rng = np.random.default_rng(1000 + seed)
    o, t, items, _ = slit_scene(rng)
    obs = Obstacles.build([(p, g, 10.0) for p, g in items])
    exact = line_of_sight(o, 1.6, t, 1.6, obs).sight
    assert exact in (Sight.CLEAR, Sight.BLOCKED)
    assert (exact is Sight.CLEAR) == brute_force_sees(o, t, items)


def test_the_slit_scenes_contain_both_open_and_closed_slits() -> None:
    # guards the comparison above against degenerating to one outcome
    outcomes = set()
    for seed in range(12):
        _o, _t, _items, width = slit_scene(np.random.default_rng(1000 + seed))
        outcomes.add(width > mm(1.0))
    assert outcomes == {True, False}


def test_a_slit_just_under_1mm_blocks_and_just_over_1mm_passes() -> None:
    # R06.01-a
    o, t = Circle(0, 0, mm(16)), Circle(10, 0, mm(16))
    for width, expected in ((mm(0.99), Sight.BLOCKED), (mm(1.01), Sight.CLEAR)):
        w1 = np.array([[4.9, -5], [5.1, -5], [5.1, -width / 2], [4.9, -width / 2]])
        w2 = np.array([[4.9, width / 2], [5.1, width / 2], [5.1, 5], [4.9, 5]])
        obs = Obstacles.build([(w1, HALF_LINE, 5.0), (w2, HALF_LINE, 5.0)])
        assert line_of_sight(o, 1.6, t, 1.6, obs).sight is expected


def test_a_witness_line_really_is_clear_of_every_grown_blocker() -> None:
    rng = np.random.default_rng(7)
    for _ in range(10):
        o, t, items, _ = slit_scene(rng)
        res = line_of_sight(o, 1.6, t, 1.6, Obstacles.build([(p, g, 10.0) for p, g in items]))
        if res.witness is None:
            continue
        (px, py), (qx, qy) = res.witness
        assert math.hypot(px - o.cx, py - o.cy) <= o.r + 1e-9
        assert math.hypot(qx - t.cx, qy - t.cy) <= t.r + 1e-9
        for poly, grow in items:
            e2 = np.roll(poly, -1, axis=0) if len(poly) >= 3 else poly
            d = segment_segment_distance(np.array([px, py]), np.array([qx, qy]), poly, e2)
            assert d.min() >= grow - 1e-6
