"""11.04 / 12.03 "can" searches (R11.04-c, R12.03-d): ``melee_moves.can_reach`` and the
charge repair's ``_reach_spot`` settle the spots surely on another model (R03.01-c) without
building the scene with the unit at its finals, and build the model at a spot only where a
test reads it. These tests compare them with the plain searches (the scene built first, every
spot's model made) on seeded games' scenes: the same overlap verdicts, answers and memos."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from tests.engine.snapshot_helpers import greedy_snapshots, moved_finals
from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.propose_moves import surely_overlapping
from w40k.engine.state import UnitData
from w40k.geometry import Model, MoveType, Scene
from w40k.geometry.movement import ENDS_CHECKED, Step, validate_move


def _plain_can_reach(ctx: Context, u: UnitData, mid: str, finals: Mapping[str, Model],
                     targets: Sequence[Model], gap: float, budget: float,
                     move_type: MoveType, avoid: Sequence[Model],
                     memo: dict[tuple[str, float, float], bool]) -> bool:
    """``can_reach`` as it was written before (771ae77): the scene at the finals built at
    the first spot to measure, ``surely_overlapping`` of it, every spot's model made."""
    from w40k.geometry.battlefield import engaged_bounds, gap_tri
    start = geo.model_shape(next(m for m in u.alive if m.id == mid))
    cands = mm_._candidates(start, targets, gap, budget)
    if not cands:
        return False
    avoid_group: mm_.Group | None = None
    scene: Scene | None = None
    near = gap_tri(start, cands, targets, gap + mm_.EPS)
    if avoid:
        sure, maybe = engaged_bounds(start, np.asarray(cands, dtype=np.float64), avoid)
        clear = np.where(sure, 0, np.where(maybe, -1, 1)).tolist()
    else:
        clear = [1] * len(cands)
    over: list[bool] = []
    for i, ((x, y), k, c) in enumerate(zip(cands, near, clear, strict=True)):
        if not k or not c:
            continue
        end = start.moved(x, y)
        if k < 0 and not any(mm_.horizontal_distance(end, t) <= gap + mm_.EPS
                             for t in targets):
            continue
        if c < 0:
            if avoid_group is None:
                avoid_group = mm_.Group(avoid)
            if avoid_group.engaged_any(end):
                continue
        key = (mid, x, y)
        legal = memo.get(key)
        if legal is None:
            if scene is None:
                scene = mm_._scene_with(ctx, u, finals, keep=mid)
                over = surely_overlapping(scene, u.id, mid, start, cands)
            legal = memo[key] = not over[i] \
                and not mm_.surely_refused(scene, u.id, mid, end, move_type) \
                and not validate_move(scene, u.id, {mid: [Step(x, y)]}, move_type, budget,
                                      skip=(ENDS_CHECKED,), first=True)
        if legal:
            return True
    return False


@pytest.mark.parametrize("seed", [1, 2])
def test_overlap_verdicts_without_the_scene_are_the_scenes_R03_01_c(seed: int) -> None:
    # R03.01-c: ``_overlapping`` (the unit's models at the finals, the base scene's other
    # models) answers as ``surely_overlapping`` of the scene ``_scene_with`` builds, for round
    # bases and (``ovals``) ovals; True and False both met.
    rng = random.Random(seed)
    met = set()
    for game in greedy_snapshots(seed):
        for u in [u for u in game.state.units if not u.destroyed]:
            finals = moved_finals(u, rng, 1.5)
            mid = rng.choice(sorted(finals))
            start = geo.model_shape(next(m for m in u.alive if m.id == mid))
            spots = [(start.x + rng.uniform(-3, 3), start.y + rng.uniform(-3, 3))
                     for _ in range(30)]
            scene = mm_._scene_with(game.ctx, u, finals, keep=mid)
            for ovals in (False, True):
                want = surely_overlapping(scene, u.id, mid, start, spots, ovals=ovals)
                got = mm_._overlapping(game.ctx, u, finals, mid, start, spots, ovals=ovals)
                assert got == want
                met |= set(got)
    assert met == {True, False}


@pytest.mark.parametrize("seed", [1, 2])
def test_can_reach_answers_and_memos_as_the_plain_search_R11_04_c(seed: int) -> None:
    # R11.04-c / R12.03-d: for every unit of seeded games' scenes, random finals (the rest of
    # the unit), an enemy unit as the targets, another as ``avoid``, gaps of 1" and 2" and
    # budgets of 3-12": the same answer and the same memo of spot verdicts as the plain
    # search; both answers met, and spots refused and passed in the memos.
    rng = random.Random(seed)
    answers = set()
    verdicts = set()
    for game in greedy_snapshots(seed):
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            enemies = [e for e in units if e.player != u.player]
            if not enemies:
                continue
            targets = list(geo.unit_shapes(rng.choice(enemies)))
            rest = [e for e in enemies if geo.unit_shapes(e)[0] not in targets]
            avoid = list(geo.unit_shapes(rng.choice(rest))) if rest and rng.random() < 0.5 \
                else []
            for _ in range(3):
                finals = moved_finals(u, rng, 2.0)
                mid = rng.choice(sorted(finals))
                gap, budget = rng.choice((1.0, 2.0)), rng.uniform(3.0, 12.0)
                mt = rng.choice((MoveType.CHARGE, MoveType.PILE_IN))
                want_memo: dict[tuple[str, float, float], bool] = {}
                got_memo: dict[tuple[str, float, float], bool] = {}
                want = _plain_can_reach(game.ctx, u, mid, finals, targets, gap, budget, mt,
                                        avoid, want_memo)
                got = mm_.can_reach(game.ctx, u, mid, finals, targets, gap, budget, mt,
                                    avoid=avoid, memo=got_memo)
                assert got == want
                assert got_memo == want_memo
                answers.add(got)
                verdicts |= set(want_memo.values())
    assert answers == {True, False}
    assert verdicts == {True, False}
