"""The geometry models the moves' checks make and measure (``shapes.Model``): each model's
kept footprint and reach are its own, kept as attributes (CPython 3.11 keeps a model's
attributes inline while its ``__dict__`` is never read), and give the answers of a model made
afresh (01.04 distances from the base, 17.02 a FRAME's hull)."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

from w40k.geometry.measure import horizontal_distance
from w40k.geometry.shapes import Model

_FIELDS = [f.name for f in dataclasses.fields(Model)]

_KEYWORDS = (frozenset(), frozenset({"INFANTRY"}), frozenset({"VEHICLE", "FRAME"}),
             frozenset({"MONSTER", "FLY"}))


def _random_args(rng: random.Random) -> tuple[object, ...]:
    base: float | tuple[float, float] | None = rng.choice(
        [25.0, 32.0, 40.0, (60.0, 35.0), (90.0, 52.0), (50.0, 50.0), None])
    hull = None
    if base is None or rng.random() < 0.2:
        hull = ((-1.5, -1.0), (1.5, -1.0), (1.5, 1.0), (-1.5, 1.0))
    x = rng.choice([0.0, -0.0, rng.uniform(0.0, 60.0), 1e-300])
    return ("Model " + str(rng.randrange(100)), x, rng.uniform(0.0, 44.0),
            rng.choice([0.0, 3.0, rng.uniform(0.0, 6.0)]), base, rng.uniform(0.5, 5.0),
            rng.choice([0.0, -0.0, rng.uniform(-math.pi, math.pi)]), rng.choice(_KEYWORDS),
            hull)


def test_the_kept_footprint_and_reach_are_each_models_own() -> None:
    # 01.04: distances are measured from each model's own base (17.02: a FRAME's hull)
    rng = random.Random(3)
    models = [Model(*_random_args(rng)) for _ in range(300)]  # type: ignore[arg-type]
    for m in models:
        fresh = Model(m.name, m.x, m.y, m.z, m.base_mm, m.height, m.facing, m.keywords,
                      m.hull)
        want = fresh._make_footprint()
        assert m.footprint() == want and m.footprint() is m.footprint()
        assert m.reach() == fresh.reach() and m.reach() == m.reach()
        moved = m.moved(m.x + 1.0, m.y)
        assert moved.footprint() != m.footprint()  # not the first model's (nor the class's)
    assert Model._footprint is None and Model._reach is None  # set on the models only
    for a, b in itertools.pairwise(models):
        fa, fb = a.footprint(), b.footprint()
        assert horizontal_distance(a, b) == horizontal_distance(
            Model(a.name, a.x, a.y, a.z, a.base_mm, a.height, a.facing, a.keywords, a.hull),
            Model(b.name, b.x, b.y, b.z, b.base_mm, b.height, b.facing, b.keywords, b.hull))
        assert (fa, fb) == (a.footprint(), b.footprint())
