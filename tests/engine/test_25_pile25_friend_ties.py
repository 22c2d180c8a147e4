"""The friends' ring spots ordered by the exact keys only where the array keys come within
``APART`` of each other (twenty-fourth session, pile25): ``pile_in_friends.friend_spots``
against the spot-by-spot build (test_21's reference)."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from tests.engine.test_21_pile_in_layout import _plain_friend_spots, _round
from w40k.engine.phases import pile_in_friends as pf


def _mirrored(rng: random.Random, gx: float, gy: float) -> list[tuple[float, float, float]]:
    """Friends placed mirror-wise about the goal (across x, y or both: equal keys in
    runs of two to eight spots), some nudged by less than ``APART`` or a float (keys
    within ``APART`` but not equal, in either order)."""
    dx, dy = rng.uniform(0.3, 2.2), rng.uniform(0.3, 2.2)
    signs = rng.choice([[(1, 1), (-1, 1)], [(1, 1), (1, -1)],
                        [(1, 1), (-1, 1), (1, -1), (-1, -1)], [(1, 1), (-1, -1)]])
    out = []
    for sx, sy in signs:
        nudge = rng.choice([0.0, 0.0, 3e-10, -4e-10, 1e-12, 2e-9])
        out.append((gx + sx * dx + nudge, gy + sy * dy, rng.choice([1.26, 1.26, 1.42])))
    rng.shuffle(out)
    return out


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("perturb", [0.0, 6e-10])
def test_friend_spots_with_runs_of_near_keys_are_the_plain_spots_R03_03_a(
        seed: int, perturb: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """R03.03-a: with friends mirror-wise about the goal (runs of equal keys and keys a
    fraction of ``APART`` apart, on a grid goal and a random one), and with random
    friends, the spots come in the plain build's order (exact keys, ties in ring order),
    also with every array distance off by 6e-10" (below ``APART``)."""
    if perturb:
        monkeypatch.setattr(pf, "_hypot", lambda a, b: np.hypot(a, b) + perturb)
    rng = random.Random(2525 + seed)
    runs = long_runs = 0
    for trial in range(80):
        gx, gy = (rng.choice([12.0, 24.5, 30.0]), rng.choice([8.0, 22.0])) \
            if trial % 2 else (rng.uniform(10, 34), rng.uniform(10, 50))
        start = _round("m", gx + rng.uniform(-1.0, 1.0), gy + rng.uniform(-1.0, 1.0))
        near = _mirrored(rng, gx, gy) if trial % 4 != 3 else [
            (gx + rng.uniform(-2.5, 2.5), gy + rng.uniform(-2.5, 2.5), 1.26)
            for _ in range(rng.randint(0, 3))]
        limit = rng.choice([3.0 - 1e-3, 6.0])
        got = [tuple(p) for p in pf.friend_spots(start, near, (gx, gy), limit).tolist()]
        want = _plain_friend_spots(start, near, (gx, gy), limit)
        assert got == want
        keys = sorted(math.hypot(x - gx, y - gy) for x, y in want)
        close = [b - a <= pf.APART for a, b in itertools.pairwise(keys)]
        runs += any(close)
        long_runs += any(a and b for a, b in itertools.pairwise(close))
    assert runs > 30 and long_runs > 4


def test_ties_ordered_sorts_each_run_by_exact_key_then_index() -> None:
    """``_ties_ordered``: spots out of the exact order only within a run (the array order
    given), equal exact keys in index order, spots between runs left where they are."""
    kept = np.array([[3.0, 0.0, 1.0, 0.0, 5.0, -3.0],
                     [0.0, 2.0, 0.0, -2.0, 0.0, 0.0]])
    # exact keys to (0, 0): 3, 2, 1, 2, 5, 3; the array order with the runs (2 and 2, 3
    # and 3) given out of order
    order = np.array([2, 3, 1, 5, 0, 4])
    apart = np.array([True, False, True, False, True])
    assert pf._ties_ordered(kept, order, apart, (0.0, 0.0)) == [2, 1, 3, 0, 5, 4]
