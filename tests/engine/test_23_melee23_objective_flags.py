"""melee23: the consolidation's objective spots are split in range / not in range by
``pile_in_propose._in_range_flags``, which settles a marker's range by the footprint's
bounding and inner discs and measures the rest: the same answers as
``in_objective_range`` of each moved model, and the same ordered spots."""

from __future__ import annotations

import math
import random

import pytest

from w40k.engine.phases import melee_moves as mm_
from w40k.engine.phases import pile_in_propose as pp
from w40k.engine.state import ObjectiveData
from w40k.geometry import Model
from w40k.geometry.measure import EPS, MARKER_RANGE_HORIZONTAL, separation


def _model(rng: random.Random) -> Model:
    kind = rng.randrange(4)
    x, y = rng.uniform(10, 30), rng.uniform(10, 30)
    z = rng.choice([0.0, 0.0, 0.0, 4.0, 5.0 + 1e-9, 6.0])
    if kind == 0:
        return Model("m", x, y, z=z, base_mm=rng.choice([25.0, 32.0, 40.0, 60.0]))
    if kind == 1:
        return Model("m", x, y, z=z, base_mm=(rng.choice([60.0, 75.0, 105.0]),
                                              rng.choice([35.0, 46.0, 70.0])),
                     facing=rng.uniform(-math.pi, math.pi))
    if kind == 2:
        return Model("m", x, y, z=z, base_mm=None, facing=rng.uniform(-3, 3),
                     hull=((-2.0, -1.0), (2.0, -1.0), (2.5, 1.2), (-1.5, 1.0)),
                     keywords=frozenset({"VEHICLE"}))
    return Model("m", x, y, z=z, base_mm=32.0, height=rng.choice([1.6, 6.0]),
                 keywords=frozenset({"FRAME"}), hull=((-1.0, -1.0), (1.0, -1.0), (0.0, 1.5)))


def _exact(start: Model, spots: list[tuple[float, float]], obj: ObjectiveData) -> list[bool]:
    return [mm_.in_objective_range(None, start.moved(x, y), obj) for x, y in spots]  # type: ignore[arg-type]


def _on_edge(start: Model, obj: ObjectiveData, ang: float) -> tuple[float, float]:
    """A spot along ``ang`` from the marker where the moved footprint's distance to the
    marker's disc is the range (bisection on the exact separation)."""
    lo, hi = 0.0, 12.0
    marker = pp.ObjectiveMarker(obj.x, obj.y).shape()
    for _ in range(200):
        mid = (lo + hi) / 2
        m = start.moved(obj.x + mid * math.cos(ang), obj.y + mid * math.sin(ang))
        if separation(m.footprint(), marker) <= MARKER_RANGE_HORIZONTAL + EPS:
            lo = mid
        else:
            hi = mid
    return obj.x + lo * math.cos(ang), obj.y + lo * math.sin(ang)


def test_flags_are_the_exact_tests() -> None:
    rng = random.Random(23)
    obj = ObjectiveData("o", 20.0, 20.0)
    settled = measured = 0
    for _ in range(400):
        start = _model(rng)
        spots: list[tuple[float, float]] = []
        for _ in range(12):
            ang = rng.uniform(-math.pi, math.pi)
            ex, ey = _on_edge(start, obj, ang)
            for dd in (0.0, 1e-15, -1e-15, 1e-9, -1e-9, 1e-6, -1e-6, 2e-6, -2e-6):
                spots.append((ex + dd * math.cos(ang), ey + dd * math.sin(ang)))
            r = rng.uniform(0.0, 9.0)
            spots.append((obj.x + r * math.cos(ang), obj.y + r * math.sin(ang)))
        got = pp._in_range_flags(None, start, spots, obj)  # type: ignore[arg-type]
        want = _exact(start, spots, obj)
        assert got == want
        measured += sum(want)
        settled += len(spots)
    assert measured and settled > measured  # both answers met


def test_objective_spots_same_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_objective_spots`` equals the former split of the same spots, ``in_range + [s for s
    in spots if s not in in_range]`` with ``in_range`` measured exactly."""
    rng = random.Random(5)
    fast = pp._in_range_flags
    for _ in range(100):
        obj = ObjectiveData("o", rng.uniform(15, 25), rng.uniform(15, 25))
        start = Model("m", obj.x + rng.uniform(-7, 7), obj.y + rng.uniform(-7, 7),
                      base_mm=rng.choice([25.0, 32.0, 40.0]))
        jitter = rng.uniform(-0.5, 0.5)
        seen: list[list[tuple[float, float]]] = []

        def exact(ctx: object, s: Model, spots: list[tuple[float, float]], o: ObjectiveData,
                  seen: list[list[tuple[float, float]]] = seen) -> list[bool]:
            seen.append(list(spots))
            return _exact(s, spots, o)

        monkeypatch.setattr(pp, "_in_range_flags", fast)
        got = pp._objective_spots(None, start, obj, 3.0, jitter)  # type: ignore[arg-type]
        monkeypatch.setattr(pp, "_in_range_flags", exact)
        pp._objective_spots(None, start, obj, 3.0, jitter)  # type: ignore[arg-type]
        spots = seen[0]
        in_range = [s for s in spots if mm_.in_objective_range(
            None, start.moved(*s), obj)]  # type: ignore[arg-type]
        assert got == in_range + [s for s in spots if s not in in_range]
