"""11.04 charge move: the search spots kept as rows of an array as well as a list (charge21).
``check_move``'s ``can_reach`` measured its candidate list three times (``gap_tri``,
``engaged_bounds``, ``overlapping_rows``), each converting the list to an array; the charge
repair converted it again, and its chunk's rounded spots went from array to pairs and back
twice. Now ``melee_moves.candidate_rows`` keeps the list's floats as rows with the list, and
the repair's chunk (``charge_propose._reach_chunk``) keeps its rows as an array through the
tests. These tests compare the rows with the lists' floats, the measures of rows with those
of the pairs, and the rows' move limit (``_within_rows``) with ``_within_exact``, on the
limit too."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tests.engine.snapshot_helpers import greedy_snapshots, moved_finals
from w40k.engine import geo
from w40k.engine.phases import charge_propose as cp
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.phases.charge_order import _within_exact, _within_rows
from w40k.engine.propose_moves import overlapping_rows
from w40k.geometry import Model
from w40k.geometry.battlefield import engaged_bounds, gap_tri
from w40k.geometry.movement import scene_others


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a, dtype=np.float64).tobytes()


@pytest.mark.parametrize("seed", [1, 2])
def test_the_search_rows_are_the_list_and_measure_as_it_R11_04_c(seed: int) -> None:
    # R11.04-c (with R11.04-d's avoided models and R03.01-c's overlap proof): a model's
    # search spots as rows are the kept list's floats, bit for bit (none: no rows), and
    # every measure ``can_reach`` takes of them is the list's.
    rng = random.Random(seed)
    found = empty = 0
    for game in greedy_snapshots(seed):
        base = geo.scene(game.ctx)
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            enemies = [e for e in units if e.player != u.player]
            if not enemies:
                continue
            target = rng.choice(enemies)
            tshapes = list(geo.unit_shapes(target))
            avoid = [s for e in enemies if e is not target for s in geo.unit_shapes(e)]
            m = rng.choice(u.alive)
            start = geo.model_shape(m)
            gap, budget = rng.choice((1.0, 2.0)), rng.uniform(3.0, 12.0)
            mm_._CANDIDATES.clear()
            cands, rows = mm_.candidate_rows(start, tshapes, gap, budget)
            assert mm_._candidates(start, tshapes, gap, budget) is cands
            assert cands == mm_._candidate_spots(start, tshapes, gap, budget)
            assert rows.shape == (len(cands), 2)
            if not cands:
                empty += 1
                continue
            found += 1
            assert _bits(rows) == _bits(np.asarray(cands, dtype=np.float64))
            assert rows.tolist() == [list(p) for p in cands]
            assert gap_tri(start, rows, tshapes, gap + mm_.EPS) == \
                gap_tri(start, cands, tshapes, gap + mm_.EPS)
            if avoid:
                for a, b in zip(engaged_bounds(start, rows, avoid),
                                engaged_bounds(start, np.asarray(cands, dtype=np.float64),
                                               avoid), strict=True):
                    assert a.tolist() == b.tolist()
            finals = moved_finals(u, rng, 1.5)
            gu = base.unit(u.id)
            models = mm_._placed(gu.models, finals, m.id)
            others, _ = scene_others(base, u.id, gu.player)
            for ovals in (False, True):
                assert overlapping_rows(models, others, m.id, start, rows, ovals=ovals) == \
                    overlapping_rows(models, others, m.id, start, cands, ovals=ovals)
    assert found and empty


def test_the_rows_move_limit_is_within_exact_on_the_limit_too_R11_02_b() -> None:
    # R11.02-b, R03.01-a (the move up to the charge roll): per row, ``_within_rows`` is
    # ``_within_exact`` of the columns, spots on the limit (settled by ``math.hypot``) and
    # near it included.
    rng = random.Random(2111)
    on_limit = 0
    for _ in range(300):
        start = Model("a", float(rng.randint(5, 40)), float(rng.randint(5, 40)), 0.0, 32.0)
        limit = rng.choice((6.0, 5.0, 7.25, rng.uniform(2.0, 12.0)))
        rows = []
        for _ in range(rng.randint(1, 60)):
            a = rng.uniform(-math.pi, math.pi)
            d = limit + rng.choice((0.0, 0.0, 1e-12, -1e-12, 1e-10, rng.uniform(-2, 2)))
            rows.append((start.x + d * math.cos(a), start.y + d * math.sin(a)))
        rows += [(start.x + limit, start.y), (start.x, start.y - limit),
                 (start.x + 0.6 * limit, start.y + 0.8 * limit)]
        pts = np.array(rows, dtype=np.float64)
        xs, ys = pts[:, 0].tolist(), pts[:, 1].tolist()
        want = _within_exact(start, xs, ys, limit)
        assert _within_rows(start, pts, limit).tolist() == want
        d = np.hypot(pts[:, 0] - start.x, pts[:, 1] - start.y)
        on_limit += int((np.abs(d - limit) <= 1e-9).sum())
    assert on_limit > 300


def test_the_repair_candidates_rows_are_their_first_spots() -> None:
    # R11.04-c: the rows ``_reach_spot`` screens are the (x, y) of the first
    # ``MAX_SPOT_CHECKS`` + 1 candidates, in order, made once.
    rng = random.Random(7)
    for n in (0, 1, 5, cp.MAX_SPOT_CHECKS + 1, 150):
        spots: list[tuple[float, float, Model | None]] = [
            (rng.uniform(0, 40), rng.uniform(0, 40), None) for _ in range(n)]
        c = cp._Cands(spots)
        rows = c.rows()
        assert rows.shape == (min(n, cp.MAX_SPOT_CHECKS + 1), 2)
        assert rows.tolist() == [[x, y] for x, y, _ in spots[:cp.MAX_SPOT_CHECKS + 1]]
        assert c.rows() is rows
