"""move24: ``propose_moves.near_window`` with the terms that do not depend on the radius made
once (and ``_ring_beyond`` inline) gives the former loop's radii and offsets, the same floats
(the window's threshold compared exactly), and ``Rings.add_near`` with its bearings as two
lists gives the same spots as ``add`` of :func:`bearings`' pairs: seeded random centres,
starts, radii, turns and reaches, some of them exactly on the window's limits (a ring
through the start, a centre on the start, reaches at the spots' distances give or take
1e-9")."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np
import pytest

from w40k.engine import propose_moves as pm
from w40k.engine.propose_moves import RING_SLACK, WINDOW_TOL, Rings, near_window
from w40k.geometry.shapes import Model


def _former_threshold(cx: float, cy: float, ds: Sequence[float], start: Model,
                      reach: float) -> float:
    """The former loop of ``near_window`` (its threshold)."""
    dist = math.hypot(cx - start.x, cy - start.y)
    lim = reach + RING_SLACK
    thr = math.inf
    for d in ds:
        if dist * d <= 0.0:
            return -math.inf
        terms = dist * dist + d * d + lim * lim
        k = (dist * dist + d * d - lim * lim) / (2.0 * dist * d)
        thr = min(thr, k - WINDOW_TOL * (1.0 + terms / (2.0 * dist * d)))
    return thr


def _former_window(cx: float, cy: float, ds: Sequence[float], start: Model, turn: float,
                   n: int, reach: float) -> tuple[list[float], Sequence[float]]:
    dist = math.hypot(cx - start.x, cy - start.y)
    lim = reach + RING_SLACK
    thr = _former_threshold(cx, cy, ds, start, reach)
    if thr > 1.0:
        return [], ()
    keep = [d for d in ds if not pm._ring_beyond(dist, d, lim)] if thr > -1.0 else list(ds)
    if not keep:
        return [], ()
    return keep, pm._window(n, turn, thr)


def _case(rng: random.Random) -> tuple[float, float, list[float], Model, float, int, float]:
    start = Model("m", rng.uniform(0, 60), rng.uniform(0, 44), 0.0, 32.0)
    kind = rng.random()
    if kind < 0.05:
        cx, cy = start.x, start.y  # a centre on the start: every ring kept whole
    else:
        a, dist = rng.uniform(-math.pi, math.pi), rng.choice((0.5, 2.0, 5.0, 9.0, 14.0))
        cx, cy = start.x + dist * math.cos(a), start.y + dist * math.sin(a)
    ds = sorted(rng.uniform(0.3, 3.0) for _ in range(rng.randint(1, 5)))
    if rng.random() < 0.1:
        ds.insert(rng.randint(0, len(ds)), math.hypot(cx - start.x, cy - start.y))
    dist = math.hypot(cx - start.x, cy - start.y)
    reach = rng.choice((rng.uniform(0.5, 12.0), abs(dist - ds[0]), dist + ds[-1],
                        math.sqrt(dist * dist + ds[0] * ds[0])))
    reach += rng.choice((0.0, 1e-9, -1e-9, RING_SLACK, -RING_SLACK))
    turn = rng.choice((0.0, -0.0, rng.uniform(-0.2, 0.2)))
    return cx, cy, ds, start, turn, rng.choice((24, 48)), max(reach, 0.0)


def test_the_window_is_the_former_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(2411)
    kinds = {"none": 0, "whole": 0, "part": 0}
    asked: list[float] = []
    window = pm._window

    def spy(n: int, turn: float, thr: float) -> Sequence[float]:
        asked.append(thr)
        return window(n, turn, thr)
    monkeypatch.setattr(pm, "_window", spy)
    for _ in range(20000):
        cx, cy, ds, start, turn, n, reach = _case(rng)
        want = _former_window(cx, cy, ds, start, turn, n, reach)
        asked.clear()
        got = near_window(cx, cy, ds, start, turn, n, reach)
        assert got[0] == want[0] and list(got[1]) == list(want[1])
        if asked:  # the very threshold (its sign and last bit)
            thr = _former_threshold(cx, cy, ds, start, reach)
            assert asked[-1] == thr and math.copysign(1.0, asked[-1]) == math.copysign(1.0, thr)
        kinds["none" if not want[0] else "whole" if len(want[1]) == n else "part"] += 1
    assert min(kinds.values()) >= 1000


def test_add_near_is_add_of_the_bearings() -> None:
    rng = random.Random(2412)
    for _ in range(3000):
        cx, cy, ds, start, turn, n, reach = _case(rng)
        keep, offs = _former_window(cx, cy, ds, start, turn, n, reach)
        want = Rings()
        if keep:
            base = math.atan2(start.y - cy, start.x - cx) + turn
            want.add(cx, cy, keep, [(math.cos(base + o), math.sin(base + o)) for o in offs])
        got = Rings()
        got.add_near(cx, cy, ds, start, turn, n, reach)
        last = (rng.uniform(0, 60), rng.uniform(0, 44)) if rng.random() < 0.5 else None
        a, b = got.points(last), want.points(last)
        assert a.shape == b.shape and np.array_equal(a, b)
        assert a.tobytes() == b.tobytes()  # the very floats (a zero's sign included)
