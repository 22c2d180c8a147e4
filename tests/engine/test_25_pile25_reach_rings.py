"""``melee_moves.can_reach`` without ``gap_tri`` where every base is round (twenty-fourth
session, pile25): every spot of its search is within the gap of a target model, as the
exact test measures it and as ``gap_tri`` (never 0) finds it."""

from __future__ import annotations

import math
import random

import pytest

from w40k.engine.phases import melee_moves as mm
from w40k.geometry import Model
from w40k.geometry.battlefield import gap_tri
from w40k.geometry.measure import horizontal_distance

_ROUND: list[float | tuple[float, float]] = [25.0, 28.5, 32.0, 40.0, 60.0, (50.0, 50.0)]


def _model(rng: random.Random, name: str, x: float, y: float,
           bases: list[float | tuple[float, float]]) -> Model:
    return Model(name, x, y, rng.choice([0.0, 0.0, 3.0]), rng.choice(bases), 1.6,
                 rng.uniform(-3.2, 3.2))


@pytest.mark.parametrize("seed", range(6))
def test_round_bases_put_every_search_spot_within_the_gap_R12_03_d_R11_04_c(seed: int) -> None:
    """R12.03-d, R11.04-c: with round bases throughout (``_rings_within`` True), every
    spot of ``candidate_rows`` (gaps 1" and 2", moves of 3" and 6", targets near and at
    the move's edge) is within ``gap + EPS`` of some target model by the exact test, and
    ``gap_tri`` finds each within (1) or leaves it to measure (-1), never refuses it: the
    search's codes are all 1 where it is not asked."""
    rng = random.Random(2550 + seed)
    spots = 0
    for _ in range(60):
        sx, sy = rng.uniform(8, 36), rng.uniform(8, 52)
        start = _model(rng, "m", sx, sy, _ROUND)
        gap, budget = rng.choice([1.0, 2.0]), rng.choice([3.0, 6.0])
        targets = []
        for k in range(rng.randint(1, 6)):
            a, dist = rng.uniform(-math.pi, math.pi), rng.uniform(1.0, budget + 4.0)
            targets.append(_model(rng, f"t{k}", sx + dist * math.cos(a),
                                  sy + dist * math.sin(a), _ROUND))
        assert mm._rings_within(start, targets)
        cands, rows = mm.candidate_rows(start, targets, gap, budget)
        codes = gap_tri(start, rows, targets, gap + mm.EPS)
        assert 0 not in codes
        for x, y in cands:
            end = start.moved(x, y)
            assert any(horizontal_distance(end, t) <= gap + mm.EPS for t in targets)
        spots += len(cands)
    assert spots > 500


def test_an_oval_or_a_hull_is_measured_by_gap_tri() -> None:
    """An oval base (the start's or a target's) or a hull footprint: not all round, so the
    search asks ``gap_tri`` as before."""
    rng = random.Random(7)
    start = _model(rng, "m", 20.0, 20.0, [32.0])
    t = _model(rng, "t", 22.0, 20.0, [32.0])
    oval = _model(rng, "o", 22.0, 22.0, [(75.0, 42.0)])
    hull = Model("h", 24.0, 20.0, 0.0, None, 3.0, 0.0, frozenset({"FRAME"}),
                 ((-1.5, -1.0), (1.5, -1.0), (1.5, 1.0), (-1.5, 1.0)))
    assert mm._rings_within(start, [t])
    assert not mm._rings_within(start, [t, oval])
    assert not mm._rings_within(oval, [t])
    assert not mm._rings_within(start, [hull])
