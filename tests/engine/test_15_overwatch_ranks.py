"""Fire Overwatch's first-round ranks computed per observer unit (branch ``ow15``,
``overwatch_sight._ranks_of``): for one observer unit and several target units, each unit
pair's ranks must equal the plain per-pair ranks (``_ranks``: the stable sort of the pair's
own centre distances, the pairs a rule hides ranked -1), ties and empty units included."""

from __future__ import annotations

import random

import numpy as np

from tests.engine.overwatch_ranks_reference import _ranks, _ranks_of


def _centres(rng: random.Random, n: int) -> np.ndarray:
    # integer coordinates on a small grid: many equal distances (ties in model order)
    return np.array([(rng.randrange(4), rng.randrange(4)) for _ in range(n)],
                    dtype=np.float64).reshape(-1, 2)


def test_ranks_per_observer_unit_equal_the_plain_per_pair_ranks() -> None:
    """Random observer and target units (0-7 models, coordinates with ties, random rule
    masks, all-hidden and all-visible ones): ``_ranks_of`` equals ``_ranks`` pair by pair."""
    rng = random.Random(1508)
    for _ in range(400):
        a = _centres(rng, rng.randrange(8))
        bs = [_centres(rng, rng.randrange(8)) for _ in range(rng.randrange(1, 6))]
        masks = []
        for b in bs:
            p = rng.choice((0.0, 0.5, 0.9, 1.0))
            masks.append(np.array([[rng.random() < p for _ in range(len(b))]
                                   for _ in range(len(a))], dtype=bool).reshape(len(a), len(b)))
        got = _ranks_of(a, bs, masks)
        assert len(got) == len(bs)
        for b, mask, r in zip(bs, masks, got, strict=True):
            assert r.shape == mask.shape
            assert np.array_equal(r, _ranks(a, b, mask))
