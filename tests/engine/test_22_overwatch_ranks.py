"""Fire Overwatch's first-round ranks by target model first (pass ow22): a unit pair's model
pairs no rule hides are ranked by (the observer model's rank among the target model's
observer models, nearest first; the centres' squared distance; the pair's row-major index),
the pairs a rule hides -1. ``_ranks`` and ``_ranks_of`` (one sort for an observer unit's
target units) must equal that order computed here key by key in plain Python, ties (a small
grid), empty units and all-hidden or all-visible masks included."""

from __future__ import annotations

import random

import numpy as np

from tests.engine.overwatch_ranks_reference import _ranks, _ranks_of


def _plain(a: np.ndarray, b: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The ranks key by key: Python floats, sorted tuples."""
    na, nb = len(a), len(b)

    def d2(om: int, tm: int) -> float:
        dx = float(a[om, 0]) - float(b[tm, 0])
        dy = float(a[om, 1]) - float(b[tm, 1])
        return dx * dx + dy * dy

    col: dict[tuple[int, int], int] = {}
    for tm in range(nb):
        oms = sorted((d2(om, tm), om) for om in range(na) if mask[om, tm])
        for r, (_, om) in enumerate(oms):
            col[(om, tm)] = r
    keys = sorted((col[(om, tm)], d2(om, tm), om * nb + tm, om, tm)
                  for om in range(na) for tm in range(nb) if mask[om, tm])
    out = np.full((na, nb), -1, dtype=np.int64)
    for r, k in enumerate(keys):
        out[k[3], k[4]] = r
    return out


def _centres(rng: random.Random, n: int, grid: bool) -> np.ndarray:
    # a small integer grid: many equal distances (ties in model order); else floats with
    # near ties (1e-9 apart)
    if grid:
        pts = [(rng.randrange(4), rng.randrange(4)) for _ in range(n)]
    else:
        pts = [(rng.uniform(0, 30) + rng.choice((0.0, 1e-9)), rng.uniform(0, 30))
               for _ in range(n)]
    return np.array(pts, dtype=np.float64).reshape(-1, 2)


def random_case(rng: random.Random, grid: bool
                ) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """An observer unit's centres, up to five target units' centres (0-8 models each) and a
    rule mask per target unit (none, half, most or all of the pairs shown)."""
    a = _centres(rng, rng.randrange(9), grid)
    bs = [_centres(rng, rng.randrange(9), grid) for _ in range(rng.randrange(1, 6))]
    masks = []
    for b in bs:
        p = rng.choice((0.0, 0.5, 0.9, 1.0))
        masks.append(np.array([[rng.random() < p for _ in range(len(b))]
                               for _ in range(len(a))], dtype=bool).reshape(len(a), len(b)))
    return a, bs, masks


def test_ranks_take_each_target_models_nearest_observer_first() -> None:
    rng = random.Random(2208)
    seen_ranked = 0
    for trial in range(500):
        grid = trial % 2 == 0
        a, bs, masks = random_case(rng, grid)
        got = _ranks_of(a, bs, masks)
        assert len(got) == len(bs)
        for b, mask, r in zip(bs, masks, got, strict=True):
            want = _plain(a, b, mask)
            assert np.array_equal(r, want)
            assert np.array_equal(_ranks(a, b, mask), want)
            seen_ranked += int(np.count_nonzero(mask))
    assert seen_ranked > 2000


def test_the_first_ranks_spread_over_target_models() -> None:
    # three observers in a row, three targets: each target's nearest observer comes before
    # any target's second nearest, whatever the distances
    a = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    b = np.array([[0.0, 1.0], [0.0, 1.5], [9.0, 9.0]])
    mask = np.ones((3, 3), dtype=bool)
    r = _ranks(a, b, mask)
    assert sorted(r[0, :2].tolist()) == [0, 1]  # observer 0 is the nearest of targets 0, 1
    assert r[2, 2] == 2  # target 2's nearest observer (2), before any second nearest
    mask[2, 2] = False
    r = _ranks(a, b, mask)
    assert r[2, 2] == -1 and r[1, 2] == 2
