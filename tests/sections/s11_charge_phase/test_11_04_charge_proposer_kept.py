"""11.04 charge move, the proposer's side: what the charge-move proposer keeps or leaves
undone is exact. The repair search's candidates (R11.04-c) are tested a chunk at a time, and
only until more are kept than the search ever screens: the same first candidates as testing
them all; the repair's memo is kept across the heuristic's repeated asks in the same state
(and a new one once a model is placed); the chain's spots surely on another model are
dropped before the scoring (``Occupied.taken`` of rows is that of pairs)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.engine.core_helpers import scripted
from tests.engine.melee_helpers import BASE, charge_phase, fighter, pending, unit
from w40k.engine import geo
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.phases import charge_propose as cp
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.propose_moves import occupied_around


def _to_positions(n_targets: int) -> Game:
    """Ten red models in two rows charging ``n_targets`` blue models 4" away (dice 6, 6)."""
    step = BASE + 0.5
    red = unit("red.a", "red", [fighter(f"red.a.{i + 1}", 10.0 + (i % 5) * step,
                                        10.0 - (i // 5) * step) for i in range(10)])
    blue = unit("blue.b", "blue", [fighter(f"blue.b.{i + 1}", 11.0 + i * (BASE + 0.4),
                                           10.0 + BASE + 4.0) for i in range(n_targets)])
    other = unit("blue.c", "blue", [fighter("blue.c.1", 30.0, 10.0 + BASE + 4.0)])
    game = scripted(Game.new(charge_phase([red, blue, other]), seed=1), [6, 6])
    game.submit("red.a")
    game.submit(["blue.b"])
    assert pending(game).kind == "positions"
    return game


@pytest.mark.parametrize("gap", [1.0, 2.0])
def test_the_repair_search_tested_a_chunk_at_a_time_keeps_the_same_first_spots_R11_04_c(
        gap: float, monkeypatch: pytest.MonkeyPatch) -> None:
    # R11.04-c (and R11.04-d: no spot engaged with blue.c): each candidate's tests are its
    # own, so testing them a few at a time and stopping once more are kept than the repair
    # ever screens gives the first candidates of testing them all, in the same order.
    game = _to_positions(4)
    u = game.state.unit("red.a")
    tshapes = list(geo.unit_shapes(game.state.unit("blue.b")))
    others = mm_.Group(list(geo.unit_shapes(game.state.unit("blue.c"))))
    truncated = 0
    for m in u.alive:
        start = geo.model_shape(m)
        monkeypatch.setattr(cp, "REACH_CHUNK", 10 ** 9)
        whole = cp._reach_cands(start, tshapes, others, gap, 12.0)
        monkeypatch.setattr(cp, "REACH_CHUNK", 7)
        chunked = cp._reach_cands(start, tshapes, others, gap, 12.0)
        assert [(x, y) for x, y, _ in chunked] == [(x, y) for x, y, _ in whole][:len(chunked)]
        assert len(chunked) == len(whole) or len(chunked) > cp.MAX_SPOT_CHECKS
        truncated += len(chunked) < len(whole)
    assert truncated  # some searches stopped early


def test_the_repair_memo_is_kept_in_the_same_state_and_new_once_a_model_is_placed() -> None:
    # R11.04-c: the heuristic asks a declined charge again in the same state; the repair's
    # candidates (where the models stand, the targets, the budget) are kept for it, and the
    # answers are those of a fresh memo. Once a model is placed the memo is a new one.
    game = _to_positions(2)
    u, targets = game.state.unit("red.a"), [game.state.unit("blue.b")]
    memo = cp.repair_memo(game.ctx, u, targets, 12.0)
    assert cp.repair_memo(game.ctx, u, targets, 12.0) is memo
    assert cp.repair_memo(game.ctx, u, targets, 11.0) is not memo
    kept = [cp.propose_charge(game.ctx, u, targets, 12.0, random.Random(s), 1, memo)
            for s in range(3)]
    fresh = [cp.propose_charge(game.ctx, u, targets, 12.0, random.Random(s), 1, {})
             for s in range(3)]
    assert kept == fresh and memo
    answer = sample(game, pending(game), random.Random(1))
    assert answer != "fail"
    game.submit(answer)
    assert cp.repair_memo(game.ctx, u, targets, 12.0) is not memo


def test_spots_surely_on_another_model_are_the_same_for_rows_as_for_pairs_R03_01_c() -> None:
    # R03.01-c: the chain drops the spots ``Occupied.taken`` proves are on another model
    # before scoring them, measuring rows (x, y): the same verdicts as for pairs.
    game = _to_positions(3)
    u = game.state.unit("red.a")
    placed = occupied_around(game.ctx, u)
    start = geo.model_shape(u.alive[0])
    rng = random.Random(4)
    pairs = [(rng.uniform(8.0, 20.0), rng.uniform(8.0, 20.0)) for _ in range(400)]
    rows = np.asarray(pairs, dtype=np.float64)
    verdicts = placed.taken(start, pairs, 12.0)
    assert placed.taken(start, rows, 12.0) == verdicts and any(verdicts)
    assert placed.taken(start, rows[:0], 12.0) == []


def test_a_charge_answer_surely_refused_for_engagement_is_one_check_move_refuses_R11_04_d(
) -> None:
    # R11.04-d: the proposer skips check_move for a chain answer that ends out of engagement
    # with a target or engaged with another enemy unit; check_move refuses every such answer
    # (its other tests refuse it first or leave it to R11.04-d), and a legal answer is never
    # skipped.
    from w40k.engine.phases.melee_moves import (
        MeleeMoveFrame,
        check_move,
        parse_positions,
        surely_refused_charge,
    )
    game = _to_positions(2)
    frame = game.ctx.top
    assert isinstance(frame, MeleeMoveFrame)
    u, targets = game.state.unit("red.a"), [game.state.unit("blue.b")]
    legal = sample(game, pending(game), random.Random(1))
    assert legal != "fail" and not check_move(game.ctx, u, parse_positions(u, legal), frame)
    assert not surely_refused_charge(game.ctx, u, legal, targets)
    rng = random.Random(2)
    refused = 0
    for _ in range(40):
        answer = {m.id: [[m.x + rng.uniform(-3.0, 3.0), m.y + rng.uniform(-2.0, 3.5)]]
                  for m in u.alive}
        if surely_refused_charge(game.ctx, u, answer, targets):
            refused += 1
            assert check_move(game.ctx, u, parse_positions(u, answer), frame)
    assert 0 < refused < 40
    # a model moved next to blue.c (not a target) only: engaged with it
    c = game.state.unit("blue.c").alive[0]
    near_c = {u.alive[0].id: [[c.x - BASE - 0.5, c.y]]}
    assert surely_refused_charge(game.ctx, u, near_c, targets)
    assert check_move(game.ctx, u, parse_positions(u, near_c), frame)


def test_a_spot_centred_in_a_solid_wall_is_surely_refused_as_validate_move_refuses_R03_01_i(
) -> None:
    # R03.01-i / R13.06-g: surely_refused settles a round base centred inside a solid feature
    # first (its ending_violations are not empty); whatever it refuses, validate_move
    # refuses, and it refuses every spot centred in the wall.
    from w40k.geometry.movement import MoveType, Step, ending_violations, validate_move
    step = BASE + 0.5
    red = unit("red.a", "red", [fighter(f"red.a.{i + 1}", 10.0 + i * step, 10.0)
                                for i in range(3)])
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 11.0, 10.0 + BASE + 4.0)])
    wall = {"areas": [], "terrain": [
        {"name": "wall", "category": "dense", "area": None,
         "footprint": [[8.0, 12.0], [16.0, 12.0], [16.0, 13.0], [8.0, 13.0]], "height": 3.0}]}
    game = scripted(Game.new(charge_phase([red, blue], terrain=wall), seed=1), [6, 6])
    game.submit("red.a")
    game.submit(["blue.b"])
    scene = geo.scene(game.ctx)
    start = geo.model_shape(game.state.unit("red.a").alive[0])
    rng = random.Random(3)
    inside = 0
    for _ in range(120):
        x, y = rng.uniform(8.5, 15.5), rng.uniform(11.0, 14.0)
        end = start.moved(x, y)
        refused = mm_.surely_refused(scene, "red.a", "red.a.1", end, MoveType.CHARGE)
        if refused:
            assert validate_move(scene, "red.a", {"red.a.1": [Step(x, y)]}, MoveType.CHARGE,
                                 12.0)
        if 12.0 < y < 13.0:
            inside += 1
            assert refused and ending_violations(scene.terrain, end)
    assert inside


def test_the_search_spots_asked_again_for_the_same_models_are_the_kept_ones_R11_04_c() -> None:
    # R11.04-c: check_move's can_reach and the charge repair ask for the same model's search
    # spots; asked again for the same model objects, gap and budget, the kept list (the
    # same spots as building them) is given; another gap gets its own.
    game = _to_positions(3)
    start = geo.model_shape(game.state.unit("red.a").alive[0])
    tshapes = list(geo.unit_shapes(game.state.unit("blue.b")))
    mm_._CANDIDATES.clear()
    first = mm_._candidates(start, tshapes, 1.0, 12.0)
    assert first == mm_._candidate_spots(start, tshapes, 1.0, 12.0) and first
    assert mm_._candidates(start, tshapes, 1.0, 12.0) is first
    assert mm_._candidates(start, tshapes, 2.0, 12.0) == \
        mm_._candidate_spots(start, tshapes, 2.0, 12.0) != first
    moved = start.moved(start.x + 0.5, start.y)
    assert mm_._candidates(moved, tshapes, 1.0, 12.0) == \
        mm_._candidate_spots(moved, tshapes, 1.0, 12.0) != first
