"""The disembark search's quick filter (engine/phases/set_up.py ``_near_transport``) only
skips blocks that the full check refuses (R18.04-c / R18.05-a: not wholly within the set-up
distance of the transport; R03.02-a: set up on the transport): a necessary condition, so the
search finds the same first legal block, sooner. Seeded random transports (an oval, a FRAME
hull, a round base) and passengers (round, oval), block centres around and on the hull."""

from __future__ import annotations

import math
import random

from w40k.engine.phases.set_up import _near_transport
from w40k.geometry import Model
from w40k.geometry.measure import overlaps
from w40k.rules.setup import wholly_within_of


def _transports(x: float, y: float, facing: float) -> list[Model]:
    return [Model("Rhino", x, y, base_mm=(120.0, 70.0), height=3.0, facing=facing),
            Model("Walker", x, y, base_mm=None, facing=facing, keywords=frozenset({"FRAME"}),
                  hull=((-2.5, -1.0), (2.0, -1.5), (3.0, 1.0), (-1.0, 2.0))),
            Model("Drone", x, y, base_mm=100.0, facing=facing)]


def test_a_block_the_quick_filter_skips_is_one_the_full_check_refuses() -> None:
    # R18.04-c (3") and R18.05-a (6"): every skipped placement has a model not wholly within
    # the distance, or (R03.02-a) on the transport.
    rng = random.Random(3)
    passengers = [Model("Boy", 0.0, 0.0, base_mm=32.0),
                  Model("Nob", 0.0, 0.0, base_mm=40.0),
                  Model("Bike", 0.0, 0.0, base_mm=(75.0, 42.0), facing=0.7)]
    skipped = on = 0
    for _ in range(300):
        hx, hy, hf = rng.uniform(10, 50), rng.uniform(10, 30), rng.uniform(-math.pi, math.pi)
        for hull in _transports(hx, hy, hf):
            distance = rng.choice((3.0, 6.0))
            ring = hull.reach() + distance
            points = []
            for _ in passengers:
                a = rng.uniform(-math.pi, math.pi)
                d = rng.uniform(0.0, ring + 2.0) if rng.random() < 0.8 else rng.uniform(0, 2)
                points.append((round(hx + d * math.cos(a), 4), round(hy + d * math.sin(a), 4)))
            quick = _near_transport(passengers, hull, distance)
            placed = [Model(p.name, x, y, base_mm=p.base_mm, facing=p.facing)
                      for p, (x, y) in zip(passengers, points, strict=True)]
            within = all(wholly_within_of(m, hull, distance) for m in placed)
            on_hull = any(overlaps(m, hull) for m in placed)
            if not quick(points):
                skipped += 1
                on += within
                assert on_hull or not within
    assert skipped > 100 and on > 20  # the filter skips blocks for both reasons
