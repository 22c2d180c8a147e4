"""The fifteenth pass's fast paths of the charge searches (``melee_moves``,
``charge_propose``, ``propose_moves``) give the plain code's answers, bit for bit."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.engine import geo
from w40k.engine.phases import melee_moves as mm_
from w40k.geometry import Model
from w40k.geometry.measure import horizontal_distance


def _candidate_spots_plain(m: Model, targets: Sequence[Model], gap: float, budget: float
                           ) -> list[tuple[float, float]]:
    """``melee_moves._candidate_spots`` one spot at a time (the search's definition)."""
    r = mm_._radius(m)
    out: list[tuple[float, float]] = []
    for t in targets:
        if horizontal_distance(m, t) > budget + gap + mm_.EPS:
            continue
        rt = mm_._radius(t)
        for g in sorted({min(gap * 0.5, 0.25), gap * 0.95}):
            d = r + rt + g
            base = math.atan2(m.y - t.y, m.x - t.x)
            for k in range(mm_.BEARINGS):
                a = base + (k + 1) // 2 * (1 if k % 2 else -1) * 2 * math.pi / mm_.BEARINGS
                x, y = t.x + d * math.cos(a), t.y + d * math.sin(a)
                if math.hypot(x - m.x, y - m.y) <= budget + mm_.EPS:
                    out.append((x, y))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_candidate_spots_are_the_plain_searchs(seed: int) -> None:
    """``_candidate_spots`` (every ring at once, numpy) lists the same spots, as the same
    floats in the same order, as building them bearing by bearing, for models of seeded
    games moved around each other and budgets that put spots on the move's edge."""
    rng = random.Random(seed)
    for game in greedy_snapshots(seed, every=80):
        shapes = [s for u in game.state.units if not u.destroyed for s in geo.unit_shapes(u)]
        for _ in range(40):
            m = rng.choice(shapes)
            m = m.moved(m.x + rng.uniform(-4, 4), m.y + rng.uniform(-4, 4))
            targets = rng.sample(shapes, min(len(shapes), rng.randint(1, 8)))
            targets = [t.moved(m.x + rng.uniform(-9, 9), m.y + rng.uniform(-9, 9))
                       for t in targets]
            gap = rng.choice([1.0, 2.0, rng.uniform(0.1, 3.0)])
            budget = rng.choice([rng.uniform(1.0, 12.0), 6.0, 2.0])
            want = _candidate_spots_plain(m, targets, gap, budget)
            assert mm_._candidate_spots(m, targets, gap, budget) == want
            if want:  # a budget exactly at a spot's distance: the edge is kept as before
                x, y = rng.choice(want)
                edge = math.hypot(x - m.x, y - m.y) - mm_.EPS
                assert mm_._candidate_spots(m, targets, gap, edge) == \
                    _candidate_spots_plain(m, targets, gap, edge)
