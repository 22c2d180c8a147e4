"""The pile-in placement's kept work against its plain answers (seventeenth session)."""

from __future__ import annotations

import math
import random

import pytest

from tests.engine.test_16_pile_in_bounds import _model
from w40k.engine.phases import pile_in_bounds as pb
from w40k.geometry import Model, movement, movement_kept
from w40k.geometry.battlefield import MARGIN


def _plain_near(occupied: list[Model], start: Model, budget: float) -> tuple[pb.Disc, ...]:
    """``fixed``'s nearby discs as written before the blocks: every other model's disc
    measured, in order."""
    far = budget + start.reach() + 1.0
    return tuple(dc for dc in pb.discs(occupied)
                 if math.hypot(dc[0] - start.x, dc[1] - start.y) <= far + dc[2])


@pytest.mark.parametrize("seed", range(6))
def test_fixed_s_near_models_unit_by_unit_are_the_plain_filter_s_R03_01_c(seed: int) -> None:
    """03.01 Ending a Move (R03.01-c): ``pile_in_bounds.fixed`` reading the other units'
    models unit by unit (:func:`pb.block`: a unit whose reach discs' box lies beyond the
    limit along x or y passed over) keeps the same nearby discs, in the same order, and
    the same columns as the plain filter over every model; units placed with a model
    just inside and just outside the limit (within 1e-9"), empty units and a unit
    straddling the start; both skipped and measured units are met."""
    rng = random.Random(seed)
    skipped = measured = 0
    for _ in range(120):
        start = _model(rng, "s", rng.uniform(5, 40), rng.uniform(5, 55), 0.0)
        budget = rng.choice([3.0, 6.0]) + 1.0
        far = budget + start.reach() + 1.0
        units: list[list[Model]] = []
        for j in range(rng.randint(0, 8)):
            cx = start.x + rng.uniform(-14, 14)
            cy = start.y + rng.uniform(-14, 14)
            ms = [_model(rng, f"u{j}m{i}", cx, cy, rng.choice([0.5, 2.0, 4.0]))
                  for i in range(rng.choice([0, 1, 3, 6]))]
            if ms and rng.random() < 0.4:  # a model on the limit (its reach disc's edge)
                o = ms[0]
                a = rng.uniform(-math.pi, math.pi)
                g = far + o.reach() + rng.choice([-1e-9, 0.0, 1e-9])
                ms[0] = o.moved(start.x + g * math.cos(a), start.y + g * math.sin(a))
            units.append(ms)
        blocks = [pb.block(tuple(ms)) for ms in units]
        for x0, y0, x1, y1, _ in blocks:
            out = (start.x < x0 - far or start.x > x1 + far or start.y < y0 - far
                   or start.y > y1 + far)
            skipped += out
            measured += not out
        flat = [m for ms in units for m in ms]
        got = pb.fixed(start, None, (), blocks, budget, move=budget - 1.0)
        want = pb.fixed(start, None, (), [pb.block(tuple(flat))], budget, move=budget - 1.0)
        assert got.discs == _plain_near(flat, start, budget)
        assert got.discs == want.discs
        assert got.near == want.near and (got.cols == want.cols).all()
    assert skipped > 50 and measured > 50


@pytest.mark.parametrize("seed", range(4))
def test_a_single_step_s_near_models_by_bisection_are_near_segment_s_R03_01_d(
        seed: int) -> None:
    """R03.01-d / R17.01-a: ``movement_kept.near_step`` (the discs within the step's
    grown box found by bisection in the x kept sorted) lists the same discs, in ascending
    order, as ``Discs.near_segment``, with many discs sharing an x (ties in the sort),
    discs whose x is exactly on the grown box's edge, and the same discs asked many
    times (the kept sorted lists read again)."""
    rng = random.Random(seed)
    met = {True: 0, False: 0}
    for _ in range(60):
        n = rng.choice([1, 6, 40, 120])
        xs = [rng.choice([10.0, 12.5, 20.0]) if rng.random() < 0.5 else rng.uniform(0, 44)
              for _ in range(n)]
        models = [Model(f"o{i}", xs[i], rng.uniform(0, 60), 0.0,
                        rng.choice([25.0, 32.0, 60.0, (90.0, 52.0)]), 1.6,
                        rng.uniform(-3.2, 3.2)) for i in range(n)]
        discs = movement.Discs.of(models)
        top = max(discs.rs.tolist())
        for _ in range(20):
            x0, y0 = rng.uniform(0, 44), rng.uniform(0, 60)
            a, length = rng.uniform(-math.pi, math.pi), rng.choice([0.5, 3.0, 12.0])
            x1, y1 = x0 + length * math.cos(a), y0 + length * math.sin(a)
            r = rng.choice([0.5, 0.63, 1.2])
            if rng.random() < 0.3:  # a shared x exactly on the box's left edge
                x0 = rng.choice([10.0, 12.5, 20.0]) + (r + top + MARGIN + 1e-6)
                x1 = x0 + length
            want = discs.near_segment(x0, y0, x1, y1, r, 0.0)
            assert movement_kept.near_step(discs, x0, y0, x1, y1, r) == want
            met[bool(want)] += 1
    assert met[True] > 20 and met[False] > 20
