"""The seventeenth pass's ring windows (``propose_moves.Rings.add_near``): the spots it leaves
out are never within the caller's reach, so a caller that drops the spots beyond its reach
keeps the same spots, as the same floats in the same order, as from the whole rings."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from w40k.engine.propose_moves import Rings, bearings
from w40k.geometry import Model


def _model(x: float, y: float) -> Model:
    return Model("m", x, y, base_mm=32.0)


def _whole(cx: float, cy: float, ds: list[float], start: Model, turn: float, n: int
           ) -> Rings:
    """The plain rings: every bearing of every radius (``Rings.add`` of ``bearings``)."""
    out = Rings()
    out.add(cx, cy, ds, bearings(math.atan2(start.y - cy, start.x - cx) + turn, n))
    return out


def _within(pts: np.ndarray, start: Model, reach: float) -> list[tuple[float, float]]:
    keep = np.hypot(pts[:, 0] - start.x, pts[:, 1] - start.y) <= reach
    return [(float(x), float(y)) for x, y in pts[keep].tolist()]


@pytest.mark.parametrize("seed", range(4))
def test_windows_keep_every_spot_within_reach(seed: int) -> None:
    """Random centres, radii, bearings' turns and reaches (many put exactly on a spot's
    distance, or on a ring's nearest and farthest points): the windowed rings' spots within
    the reach are the whole rings' spots within it, and each windowed spot is one of the
    whole rings' (a subsequence, the same floats)."""
    rng = random.Random(seed)
    cut = 0
    for _ in range(600):
        start = _model(rng.uniform(0, 60), rng.uniform(0, 44))
        n = rng.choice([24, 48])
        turn = rng.choice([0.0, -0.0, rng.uniform(-0.27, 0.27)])
        rings_w, rings_p = Rings(), Rings()
        centres = []
        for _ in range(rng.randint(1, 6)):
            cx = start.x + rng.uniform(-15, 15)
            cy = start.y + rng.uniform(-15, 15)
            if rng.random() < 0.05:
                cx, cy = start.x, start.y  # a ring around the start itself
            ds = sorted(rng.uniform(0.5, 4.0) for _ in range(rng.randint(1, 5)))
            centres.append((cx, cy, ds))
        reach = rng.uniform(1.0, 14.0)
        plain = np.concatenate([_whole(cx, cy, ds, start, turn, n).points(None)
                                for cx, cy, ds in centres])
        dist = np.hypot(plain[:, 0] - start.x, plain[:, 1] - start.y)
        pick = rng.random()
        if pick < 0.4:
            reach = float(dist[rng.randrange(len(dist))])  # a spot exactly at the reach
        elif pick < 0.6:
            cx, cy, ds = rng.choice(centres)
            d0 = math.hypot(cx - start.x, cy - start.y)
            reach = abs(d0 + rng.choice([-1, 1]) * rng.choice(ds))  # a ring's nearest/farthest
        for cx, cy, ds in centres:
            rings_w.add_near(cx, cy, ds, start, turn, n, reach)
            rings_p.add(cx, cy, ds, bearings(math.atan2(start.y - cy, start.x - cx) + turn, n))
        got = rings_w.points(None)
        assert _within(got, start, reach) == _within(plain, start, reach)
        whole = [(float(x), float(y)) for x, y in plain.tolist()]
        it = iter(whole)
        assert all(p in it for p in ((float(x), float(y)) for x, y in got.tolist()))
        cut += len(whole) - len(got)
    assert cut > 0  # the windows leave spots out


def test_points_equal_the_plain_expression() -> None:
    """``Rings.points`` gives ``cx + d * cos(a)``, ``cy + d * sin(a)`` (Python's floats) ring
    by ring, bearing by bearing, then the last spot."""
    rng = random.Random(7)
    for _ in range(50):
        rings = Rings()
        want = []
        for _ in range(rng.randint(1, 4)):
            cx, cy = rng.uniform(0, 60), rng.uniform(0, 44)
            ds = [rng.uniform(0.5, 3.0) for _ in range(rng.randint(1, 3))]
            cs = bearings(rng.uniform(-math.pi, math.pi), 24)
            rings.add(cx, cy, ds, cs)
            want += [(cx + d * c, cy + d * s) for d in ds for c, s in cs]
        want.append((1.5, 2.5))
        assert [tuple(p) for p in rings.points((1.5, 2.5)).tolist()] == want
