"""melee23: the greedy melee move's ring spots beyond the move are not made
(``melee_greedy._ring_spots`` with ``propose_moves.near_window``): the spots within the
move are the same, in the same order, and the first spot is always the first of all."""

from __future__ import annotations

import math
import random

from w40k.engine.phases import melee_greedy as mg
from w40k.engine.propose_moves import Rings
from w40k.geometry import Model

Ring = tuple[float, float, float, float, float]


def _every(rings: list[Ring]) -> list[tuple[float, float]]:
    """The former ``_ring_spots``: every bearing of every ring."""
    out = []
    for tx, ty, d, base, _ in rings:
        for o in mg._OFFSETS:
            a = base + o
            out.append((tx + d * math.cos(a), ty + d * math.sin(a)))
    return out


def _rings(rng: random.Random, start: Model, attempt: int) -> list[Ring]:
    out = []
    for _ in range(rng.randint(1, 3)):
        ang = rng.uniform(-math.pi, math.pi)
        far = rng.uniform(0.5, 9.0)
        tx, ty = start.x + far * math.cos(ang), start.y + far * math.sin(ang)
        d = rng.uniform(0.5, 3.0)
        turn = rng.uniform(-0.2, 0.2) * attempt
        out.append((tx, ty, d, math.atan2(start.y - ty, start.x - tx) + turn, turn))
    return out


def _check(rings: list[Ring], start: Model, reach: float) -> int:
    every = _every(rings)
    made = list(mg._ring_spots(rings, start, reach))
    assert made[0] == every[0]  # ``first``
    it = iter(every)
    assert all(any(s == e for e in it) for s in made)  # a subsequence, in order

    def within(s: tuple[float, float]) -> bool:
        return not math.hypot(s[0] - start.x, s[1] - start.y) > reach

    assert [s for s in made if within(s)] == [s for s in every if within(s)]
    return len(every) - len(made)


def test_ring_spots_within_reach_unchanged() -> None:
    rng = random.Random(2323)
    skipped = 0
    for i in range(3000):
        start = Model("m", rng.uniform(5, 40), rng.uniform(5, 40), base_mm=32)
        rings = _rings(rng, start, i % 3)
        every = _every(rings)
        dists = sorted(math.hypot(x - start.x, y - start.y) for x, y in every)
        # the move's limit at random, or exactly on a spot's distance, or a float or 1e-9"
        # either side of it
        pick = rng.choice(dists)
        reach = rng.choice([rng.uniform(0.0, 6.0), pick, math.nextafter(pick, 0.0),
                            math.nextafter(pick, math.inf), pick - 1e-9, pick + 1e-9, 0.0])
        skipped += _check(rings, start, reach)
    assert skipped > 0  # the cut is taken


def test_ring_spots_without_start_every_spot() -> None:
    rng = random.Random(7)
    start = Model("m", 20.0, 20.0, base_mm=32)
    rings = _rings(rng, start, 1)
    assert list(mg._ring_spots(rings)) == _every(rings)


def test_add_near_unchanged_by_the_split() -> None:
    """``Rings.add_near`` (now through ``near_window``) keeps the spots within the reach."""
    rng = random.Random(11)
    for _ in range(500):
        start = Model("m", rng.uniform(5, 40), rng.uniform(5, 40), base_mm=32)
        cx, cy = start.x + rng.uniform(-6, 6), start.y + rng.uniform(-6, 6)
        ds = sorted(rng.uniform(0.5, 3.0) for _ in range(rng.randint(1, 4)))
        turn = rng.choice([0.0, rng.uniform(-0.5, 0.5)])
        reach = rng.uniform(0.0, 8.0)
        r = Rings()
        r.add_near(cx, cy, ds, start, turn, 24, reach)
        got = [tuple(p) for p in r.points(None).tolist()]
        base = math.atan2(start.y - cy, start.x - cx) + turn
        every = [(cx + d * math.cos(base + o), cy + d * math.sin(base + o))
                 for d in ds for o in mg._OFFSETS]
        near = [p for p in every if math.hypot(p[0] - start.x, p[1] - start.y) <= reach]
        assert [p for p in got if math.hypot(p[0] - start.x, p[1] - start.y) <= reach] == near
