"""11.04 charge move, the repair pass (R11.04-c): ``charge_propose._reach_spot`` settles the
spots surely on another model (R03.01-c) in two parts, the other units' models (kept with the
candidates: they stand still while the unit's models are moved) and the unit's own models at
the finals (``propose_moves.overlapping_parts``). These tests compare the parts with
``overlapping_rows`` and the kept search with the plain one (``mm_._overlapping`` of every
spot at each search) on seeded games' scenes: the same verdicts and the same spots."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np
import pytest

from tests.engine.snapshot_helpers import greedy_snapshots, moved_finals
from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.phases import charge_propose as cp
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.propose_moves import overlapping_parts, overlapping_rows
from w40k.engine.state import UnitData
from w40k.geometry import Model, MoveType
from w40k.geometry.movement import ENDS_CHECKED, Step, scene_others, validate_move


def _plain_reach_spot(ctx: Context, u: UnitData, start: Model, mid: str,
                      finals: dict[str, Model],
                      cands: Sequence[tuple[float, float, Model | None]], budget: float
                      ) -> tuple[float, float] | None:
    """``_reach_spot`` as written before (3e625ac): ``mm_._overlapping`` of every spot."""
    if not cands:
        return None
    cands = cands[:cp.MAX_SPOT_CHECKS + 1]
    over = mm_._overlapping(ctx, u, finals, mid, start, [(x, y) for x, y, _ in cands],
                            ovals=True)
    scene = None
    tries = 0
    for screened, (x, y, end) in enumerate(cands, 1):
        if screened > cp.MAX_SPOT_CHECKS:
            return None
        if over[screened - 1]:
            continue
        if scene is None:
            scene = mm_._scene_with(ctx, u, finals, keep=mid)
        if end is None:
            end = start.moved(x, y)
        if mm_.surely_refused(scene, u.id, mid, end, MoveType.CHARGE):
            continue
        tries += 1
        if tries > cp.MAX_PATH_CHECKS:
            return None
        if not validate_move(scene, u.id, {mid: [Step(x, y)]}, MoveType.CHARGE, budget,
                             skip=(ENDS_CHECKED,), first=True):
            return (x, y)
    return None


@pytest.mark.parametrize("seed", [1, 2])
def test_the_overlap_parts_or_ed_are_the_whole_verdict_R03_01_c(seed: int) -> None:
    # R03.01-c: per spot, the unit's part or the other models' part of the proof is
    # ``overlapping_rows``' verdict (round bases and, with ``ovals``, ovals); each part
    # alone refuses some spots the other does not.
    rng = random.Random(seed)
    met = set()
    for game in greedy_snapshots(seed):
        base = geo.scene(game.ctx)
        for u in [u for u in game.state.units if not u.destroyed]:
            finals = moved_finals(u, rng, 1.5)
            mid = rng.choice(sorted(finals))
            start = geo.model_shape(next(m for m in u.alive if m.id == mid))
            spots = [(start.x + rng.uniform(-3, 3), start.y + rng.uniform(-3, 3))
                     for _ in range(40)]
            gu = base.unit(u.id)
            models = mm_._placed(gu.models, finals, mid)
            others, _ = scene_others(base, u.id, gu.player)
            for ovals in (False, True):
                want = overlapping_rows(models, others, mid, start, spots, ovals=ovals)
                own = overlapping_parts(models, others, mid, start, spots, unit=True,
                                        ovals=ovals)
                far = overlapping_parts((), others, mid, start, spots, unit=False,
                                        ovals=ovals)
                assert [a or b for a, b in zip(own, far, strict=True)] == want
                met |= {(a, b) for a, b in zip(own, far, strict=True)}
    assert {(True, False), (False, True), (False, False)} <= met


@pytest.mark.parametrize("seed", [1, 2])
def test_the_repair_search_with_kept_verdicts_finds_the_plain_spot_R11_04_c(seed: int) -> None:
    # R11.04-c: for each unit of seeded games' scenes, an enemy unit's models as the targets,
    # the repair's candidates of a model (gaps of 1" and 2", budgets of 3-12"), searched for
    # three sets of finals with the other units' verdicts kept between them: the same spot,
    # or None, as the plain search; spots found and searches refused both met.
    rng = random.Random(seed)
    answers = set()
    for game in greedy_snapshots(seed):
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            enemies = [e for e in units if e.player != u.player]
            if not enemies:
                continue
            tshapes = list(geo.unit_shapes(rng.choice(enemies)))
            rest = mm_.Group([s for e in enemies for s in geo.unit_shapes(e)
                              if s not in tshapes])
            mid = rng.choice(sorted(m.id for m in u.alive))
            start = geo.model_shape(next(m for m in u.alive if m.id == mid))
            gap, budget = rng.choice((1.0, 2.0)), rng.uniform(3.0, 12.0)
            cands = cp._Cands(cp._reach_cands(start, tshapes, rest, gap, budget))
            for _ in range(3):
                finals = moved_finals(u, rng, 2.0)
                finals[mid] = start
                want = _plain_reach_spot(game.ctx, u, start, mid, finals, cands.spots,
                                         budget)
                got = cp._reach_spot(game.ctx, u, start, mid, finals, cands, budget)
                assert got == want
                answers.add(got is None)
    assert answers == {True, False}


def test_the_kept_verdicts_are_measured_again_for_another_list_of_models() -> None:
    # The other units' verdicts are read only for the list of other models and the model
    # they were measured for: kept ones of another list are measured again.
    game = greedy_snapshots(1)[-1]
    u = next(u for u in game.state.units if not u.destroyed and len(u.alive) > 1)
    m = u.alive[0]
    start = geo.model_shape(m)
    finals = {x.id: geo.model_shape(x) for x in u.alive}
    spots = [(start.x + 0.01 * i, start.y, None) for i in range(5)]
    cands = cp._Cands(list(spots))
    cands.far, cands.far_of = [True] * 5, (object(), start)  # stale: every spot refused
    want = _plain_reach_spot(game.ctx, u, start, m.id, finals, spots, 12.0)
    assert want is not None
    assert cp._reach_spot(game.ctx, u, start, m.id, finals, cands, 12.0) == want
    assert cands.far_of is not None and cands.far_of[1] is start


def _plain_chunk(start: Model, pts: np.ndarray, tshapes: Sequence[Model],
                 non_targets: mm_.Group, gap: float, budget: float
                 ) -> list[tuple[float, float, Model | None]]:
    """``_reach_chunk`` as written before (3e625ac): each column rounded on its own."""
    from w40k.engine.phases.charge_order import _round_to, _within_exact
    from w40k.geometry import engaged
    from w40k.geometry.battlefield import gap_tri
    xs, ys = _round_to(pts[:, 0], 6), _round_to(pts[:, 1], 6)
    cands = [(x, y) for x, y, w in zip(xs, ys, _within_exact(start, xs, ys, budget - 1e-5),
                                       strict=True) if w]
    near = gap_tri(start, cands, tshapes, gap - 1e-4, engaged_only=gap >= 2.0)
    cands = [p for p, k in zip(cands, near, strict=True) if k]
    near = [k for k in near if k]
    out: list[tuple[float, float, Model | None]] = []
    for (x, y), k, bad in zip(cands, near, cp._engaged_mask(start, cands, non_targets.models),
                              strict=True):
        if bad:
            continue
        if k > 0:
            out.append((x, y, None))
            continue
        end = start.moved(x, y)
        if not any(mm_.horizontal_distance(end, t) <= gap - 1e-4
                   and (gap < 2.0 or engaged(end, t)) for t in tshapes):
            continue
        out.append((x, y, end))
    return out


def test_the_chunks_rounded_at_once_are_the_columns_rounded_apart_R11_04_c() -> None:
    # R11.04-c/-d: a chunk's spots rounded to 6 decimals in one pass over its rows (x, y in
    # turn) are the columns rounded apart, spots on a half of the sixth decimal among them
    # (Python's ``round`` settles those): the same candidates, in order.
    rng = random.Random(1906)
    kept = 0
    for _ in range(150):
        start = Model("a", rng.uniform(10, 30), rng.uniform(10, 30), 0.0,
                      rng.choice((25.0, 32.0, 40.0)))
        tshapes = [Model(f"t{i}", start.x + rng.uniform(-8, 8), start.y + rng.uniform(-8, 8),
                         0.0, 32.0) for i in range(rng.randint(1, 4))]
        others = mm_.Group([Model(f"o{i}", start.x + rng.uniform(-9, 9),
                                  start.y + rng.uniform(-9, 9), 0.0, 32.0)
                            for i in range(rng.randrange(0, 4))])
        rows = []
        for _ in range(rng.randint(1, 200)):
            t = rng.choice(tshapes)
            a, g = rng.uniform(-math.pi, math.pi), rng.uniform(1.3, 3.5)
            x, y = t.x + g * math.cos(a), t.y + g * math.sin(a)
            if rng.random() < 0.2:  # on a half of the sixth decimal
                x = math.floor(x * 1e6) / 1e6 + 5e-7
            rows.append((x, y))
        pts = np.array(rows)
        gap, budget = rng.choice((1.0, 2.0)), rng.uniform(4.0, 10.0)
        want = _plain_chunk(start, pts, tshapes, others, gap, budget)
        got = cp._reach_chunk(start, pts, tshapes, others, gap, budget)
        assert [(x, y, e is None) for x, y, e in got] == [(x, y, e is None) for x, y, e in want]
        kept += len(got)
    assert kept > 1000
