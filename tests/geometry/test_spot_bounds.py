"""The proposers' spot tests all at once (geometry/battlefield.py ``spot_bounds``,
``engaged_spots``, ``engaged_bounds``, ``gap_tri``; engine/propose_moves.py ``Occupied.taken``,
``surely_overlapping``): a model moved to many spots is measured against many models by bounds,
and every answer they settle is the answer of the plain pairwise functions of
geometry/measure.py (round bases, ovals, FRAME hulls, three levels, spots placed exactly at and
1e-9" around the thresholds)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.geometry.test_battlefield_model import _model
from w40k.geometry import Model, engaged
from w40k.geometry.battlefield import engaged_bounds, engaged_spots, gap_tri, spot_bounds
from w40k.geometry.measure import horizontal_distance, overlaps, separation

R32 = 32.0 / 25.4 / 2


def _case(seed: int) -> tuple[Model, list[tuple[float, float]], list[Model]]:
    """A moving model, spots around it (some exactly 2", 2" +- 1e-9, touching and overlapping
    a round-based model) and models near them."""
    rng = np.random.default_rng(seed)
    cx, cy = rng.uniform(10, 50), rng.uniform(10, 34)
    start = _model(rng, "s", cx, cy, 0.5)
    others = [_model(rng, f"o{i}", cx, cy, 5.0) for i in range(int(rng.integers(1, 12)))]
    spots = [(cx + rng.uniform(-6, 6), cy + rng.uniform(-6, 6)) for _ in range(150)]
    if isinstance(start.base_mm, float):
        r = start.base_mm / 25.4 / 2
        for o in others:
            if isinstance(o.base_mm, float):
                a = float(rng.uniform(-math.pi, math.pi))
                for gap in (2.0, 2.0 + 1e-9, 2.0 - 1e-9, 0.0, 1e-4, -0.3, 0.99, 1.0, 1.0 - 1e-4):
                    d = r + o.base_mm / 25.4 / 2 + gap
                    spots.append((o.x + d * math.cos(a), o.y + d * math.sin(a)))
    return start, spots, others


@pytest.mark.parametrize("seed", range(60))
def test_the_bounds_hold_the_distance_of_every_spot_and_model(seed: int) -> None:
    # 01.04: closest horizontal distance; the bounds hold it (to rounding) for every shape.
    start, spots, others = _case(seed)
    lower, upper = spot_bounds(start, np.asarray(spots), others)
    for i, (x, y) in enumerate(spots):
        end = start.moved(x, y)
        for j, o in enumerate(others):
            d = horizontal_distance(end, o)
            assert lower[i, j] - 1e-9 <= d <= upper[i, j] + 1e-9


@pytest.mark.parametrize("seed", range(60))
def test_engagement_of_every_spot_matches_the_pairwise_test_R03_04(seed: int) -> None:
    # 03.04: engaged (2" horizontally, 5" vertically) with one of the models.
    start, spots, others = _case(seed)
    want = [any(engaged(start.moved(x, y), o) for o in others) for x, y in spots]
    assert engaged_spots(start, np.asarray(spots), others) == want
    sure, maybe = engaged_bounds(start, np.asarray(spots), others)
    assert all(w for w, s in zip(want, sure.tolist(), strict=True) if s)
    assert all(m for w, m in zip(want, maybe.tolist(), strict=True) if w)


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("limit", [1.0 - 1e-4, 2.0 - 1e-4, 1.0 + 1e-6])
def test_within_a_gap_of_a_model_is_settled_as_the_pairwise_test(seed: int, limit: float
                                                                 ) -> None:
    # 01.04 "within": horizontal_distance <= limit (and, for engaged_only, 5" vertically).
    start, spots, others = _case(seed)
    for only in (False, True):
        tri = gap_tri(start, spots, others, limit, engaged_only=only)
        for (x, y), t in zip(spots, tri, strict=True):
            end = start.moved(x, y)
            want = any(horizontal_distance(end, o) <= limit and (not only or engaged(end, o))
                       for o in others)
            assert t == -1 or t == int(want)


@pytest.mark.parametrize("seed", range(60))
def test_a_spot_surely_on_a_model_is_refused_by_the_plain_tests_R03_01_c(seed: int) -> None:
    # R03.01-c: Occupied.taken and surely_overlapping only ever name spots that Occupied.free
    # and measure.overlaps refuse too.
    from w40k.engine.propose_moves import CLEARANCE, Occupied
    start, spots, others = _case(seed)
    taken = Occupied(others).taken(start, spots, 7.0)
    for (x, y), t in zip(spots, taken, strict=True):
        if t and math.hypot(x - start.x, y - start.y) <= 7.0:
            fp = start.moved(x, y).footprint()
            assert any(separation(fp, o.footprint()) <= CLEARANCE for o in others)
    from w40k.engine.propose_moves import surely_overlapping
    from w40k.geometry.scene import Scene, Unit
    from w40k.geometry.shapes import Battlefield
    from w40k.geometry.terrain import Terrain
    scene = Scene(Battlefield(60.0, 44.0), Terrain(), (Unit("u", "red", (start,)),
                                                          Unit("v", "blue", tuple(others))))
    over = surely_overlapping(scene, "u", "s", start, spots)
    for (x, y), t in zip(spots, over, strict=True):
        end = start.moved(x, y)
        if t:
            assert any(overlaps(end, o) for o in others)
        elif isinstance(start.base_mm, float):  # a deep overlap of round bases is found
            assert not any(isinstance(o.base_mm, float) and overlaps(end, o)
                           and separation(end.footprint(), o.footprint()) < -1e-3
                           for o in others)
