"""The kept battlefield model (geometry/battlefield.py, engine/field.py) gives the same answers
as the plain pairwise functions of geometry/measure.py on many random positions (seeded numpy),
touching and near-threshold placements included."""

from __future__ import annotations

import math

import numpy as np
import pytest

from w40k.geometry import Model, coherency_breaks, engaged, in_coherency, within
from w40k.geometry.battlefield import (
    Discs,
    Grid,
    Layout,
    any_engaged,
    breaks,
    coherent,
    engaged_with,
    within_matrix,
)
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL, distance, horizontal_distance

HULL = ((-1.5, -0.8), (1.5, -0.8), (1.7, 0.0), (1.5, 0.8), (-1.5, 0.8))


def _model(rng: np.random.Generator, name: str, cx: float, cy: float, spread: float) -> Model:
    kind = rng.integers(0, 10)
    x, y = cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread)
    z = float(rng.choice([0.0, 0.0, 0.0, 3.0, 5.5]))
    facing = float(rng.uniform(-math.pi, math.pi))
    if kind == 0:  # an oval base
        return Model(name, x, y, z, (60.0, 35.0), 2.0, facing, frozenset({"INFANTRY"}))
    if kind == 1:  # a FRAME hull (17.02)
        return Model(name, x, y, z, None, 4.0, facing, frozenset({"VEHICLE", "FRAME"}), HULL)
    base = float(rng.choice([25.0, 32.0, 40.0, 50.0]))
    return Model(name, x, y, z, base, 1.6, facing, frozenset({"INFANTRY"}))


def _touching(rng: np.random.Generator, name: str, other: Model, gap: float) -> Model:
    """A round-based model placed exactly ``gap`` from a round-based ``other``."""
    a = float(rng.uniform(-math.pi, math.pi))
    r = 32.0 / 25.4 / 2
    assert isinstance(other.base_mm, float)
    d = r + other.base_mm / 25.4 / 2 + gap
    return Model(name, other.x + d * math.cos(a), other.y + d * math.sin(a), other.z, 32.0)


def _groups(seed: int) -> tuple[list[Model], list[Model]]:
    rng = np.random.default_rng(seed)
    spread = float(rng.choice([1.5, 3.0, 6.0]))
    ax, ay = rng.uniform(5, 55), rng.uniform(5, 39)
    bx, by = ax + rng.uniform(-6, 6), ay + rng.uniform(-6, 6)
    a = [_model(rng, f"a{i}", ax, ay, spread) for i in range(int(rng.integers(1, 9)))]
    b = [_model(rng, f"b{i}", bx, by, spread) for i in range(int(rng.integers(1, 9)))]
    round_b = [m for m in b if isinstance(m.base_mm, float)]
    if round_b:  # some pairs exactly at (and just around) engagement range or touching
        for k, gap in enumerate((2.0, 2.0 + 1e-9, 2.0 - 1e-9, 0.0, 2.0 + 2e-9)):
            a.append(_touching(rng, f"t{k}", round_b[k % len(round_b)], gap))
    return a, b


@pytest.mark.parametrize("seed", range(60))
def test_vectorised_engagement_matches_the_pairwise_measure(seed: int) -> None:
    # R03.04-a: engagement range is 2" horizontally and 5" vertically, pair by pair.
    a, b = _groups(seed)
    la, lb = Layout.of(a), Layout.of(b)
    plain = np.array([[engaged(x, y) for y in b] for x in a])
    assert (within_matrix(la, lb, 2.0, 5.0) == plain).all()
    assert any_engaged(la, lb) == bool(plain.any())
    assert (engaged_with(la, lb) == plain.any(axis=1)).all()
    for h in (1.0, 3.0, 9.0):
        assert (within_matrix(la, lb, h) == np.array(
            [[within(x, y, h) for y in b] for x in a])).all()


@pytest.mark.parametrize("seed", range(60))
def test_vectorised_coherency_matches_the_plain_coherency(seed: int) -> None:
    # R03.03-a, R03.03-b: 2"/5" of another model and 9"/5" of every other.
    a, _ = _groups(seed)
    layout = Layout.of(a)
    assert coherent(layout) == in_coherency(a)
    assert breaks(layout) == coherency_breaks(a)


@pytest.mark.parametrize("seed", range(30))
def test_the_grid_finds_every_model_within_the_distance(seed: int) -> None:
    a, b = _groups(seed)
    everyone = a + b
    grid = Grid(Layout.of(everyone))
    for m in a:
        fp = m.footprint()
        cx, cy = fp.center
        found = set(grid.near(cx, cy, m.reach() + math.hypot(cx - m.x, cy - m.y),
                              ENGAGEMENT_HORIZONTAL))
        for j, o in enumerate(everyone):
            if horizontal_distance(m, o) <= ENGAGEMENT_HORIZONTAL:
                assert j in found


@pytest.mark.parametrize("seed", range(30))
def test_the_move_filter_keeps_every_model_a_swept_base_can_touch(seed: int) -> None:
    rng = np.random.default_rng(1000 + seed)
    a, b = _groups(seed)
    discs = Discs.of(b)
    for m in a:
        tx, ty = m.x + rng.uniform(-8, 8), m.y + rng.uniform(-8, 8)
        near = set(discs.near_segment(m.x, m.y, tx, ty, m.reach(), 0.0))
        for t in np.linspace(0.0, 1.0, 41):
            moved = m.moved(m.x + t * (tx - m.x), m.y + t * (ty - m.y))
            for j, o in enumerate(b):
                if distance(moved.footprint(), o.footprint()) <= 0.0:
                    assert j in near
