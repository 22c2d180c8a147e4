"""The disembark search's quick filter (engine/phases/set_up.py ``_near_transport``) only
skips blocks that the full R18.04-c / R18.05-a check refuses: a necessary condition, so the
search finds the same first legal block, sooner. Seeded random transports (an oval, a FRAME
hull, a round base) and passengers (round, oval), block centres near the rim."""

from __future__ import annotations

import math
import random

from w40k.engine.phases.set_up import _near_transport
from w40k.geometry import Model
from w40k.rules.setup import wholly_within_of


def _transports(x: float, y: float, facing: float) -> list[Model]:
    return [Model("Rhino", x, y, base_mm=(120.0, 70.0), height=3.0, facing=facing),
            Model("Walker", x, y, base_mm=None, facing=facing, keywords=frozenset({"FRAME"}),
                  hull=((-2.5, -1.0), (2.0, -1.5), (3.0, 1.0), (-1.0, 2.0))),
            Model("Drone", x, y, base_mm=100.0, facing=facing)]


def test_a_block_the_quick_filter_skips_is_never_wholly_within_the_set_up_distance() -> None:
    # R18.04-c (3") and R18.05-a (6"): every skipped placement has a model not wholly within.
    rng = random.Random(3)
    passengers = [Model("Boy", 0.0, 0.0, base_mm=32.0),
                  Model("Nob", 0.0, 0.0, base_mm=40.0),
                  Model("Bike", 0.0, 0.0, base_mm=(75.0, 42.0), facing=0.7)]
    skipped = 0
    for _ in range(300):
        hx, hy, hf = rng.uniform(10, 50), rng.uniform(10, 30), rng.uniform(-math.pi, math.pi)
        for hull in _transports(hx, hy, hf):
            distance = rng.choice((3.0, 6.0))
            ring = hull.reach() + distance
            points = []
            for _ in passengers:
                a, d = rng.uniform(-math.pi, math.pi), rng.uniform(0.0, ring + 2.0)
                points.append((round(hx + d * math.cos(a), 4), round(hy + d * math.sin(a), 4)))
            quick = _near_transport(passengers, hull, distance)
            placed = [Model(p.name, x, y, base_mm=p.base_mm, facing=p.facing)
                      for p, (x, y) in zip(passengers, points, strict=True)]
            legal = all(wholly_within_of(m, hull, distance) for m in placed)
            if not quick(points):
                skipped += 1
                assert not legal
    assert skipped > 100  # the filter does skip blocks
