"""The model-by-model unit move (engine/propose_chain_move.py, used by the heuristic player
through agents/heuristic_moves.py): where translating the whole unit along one line is
blocked, the models go around, end coherent and the engine accepts the move (09.05, 03.01,
03.03), with exact geometry."""

from __future__ import annotations

import math

from tests.engine.movement_helpers import answer, far_enemy, model, start, unit
from w40k.agents.heuristic_moves import farther_move, progress
from w40k.engine.moves import check_move, parse_positions, propose_move
from w40k.engine.propose_chain_move import propose_chain_move
from w40k.geometry import Model, in_coherency
from w40k.geometry.measure import overlaps
from w40k.geometry.movement import MoveType

BLOCK = unit("red.rhino", "red", [model("red.rhino.1", 15.5, 12.0, base_mm=100.0)])
"""A friendly model with a 100 mm base in front of the squad: no model may end on it."""


def _game():
    squad = unit("red.squad", "red",
                 [model(f"red.squad.{i + 1}", 10.0, 9.0 + 1.5 * i) for i in range(5)])
    game, _ = start(squad, BLOCK, far_enemy())
    req = answer(game, "red.squad", "normal")
    assert req.kind == "positions"
    return game, req, game.state.unit("red.squad")


def test_a_straight_translation_blocked_by_a_friendly_model_moves_the_unit_a_little():
    # The straight proposer translates the whole column east: 6" or 3.6" ends a model on
    # the Rhino (R03.01-c), so it takes 1.8".
    import random

    game, _, u = _game()

    straight = propose_move(game.ctx, u, MoveType.NORMAL, 6.0, random.Random(1),
                            toward=(40.0, 12.0), tries=0)
    assert 0 < progress(u, straight, 1.0, 0.0) < 2.0


def test_the_chain_move_goes_around_the_model_ends_coherent_and_is_accepted():
    # R09.05-a: at most 6" each; R03.01-c: on no other model; R03.03-a/d: coherent.
    game, _, u = _game()
    cand = propose_chain_move(game.ctx, u, MoveType.NORMAL, 6.0, 5.9, 0.0)
    assert cand is not None
    check_move(game.ctx, u, parse_positions(cand), MoveType.NORMAL, 6.0)  # no IllegalChoice
    ends = [Model(m.id, *cand[m.id][-1], base_mm=32.0) for m in u.alive]
    rhino = Model("rhino", 15.5, 12.0, base_mm=100.0)
    assert in_coherency(ends) and not any(overlaps(e, rhino) for e in ends)
    for m, e in zip(u.alive, ends, strict=True):
        assert math.hypot(e.x - m.x, e.y - m.y) <= 6.0
    assert progress(u, cand, 1.0, 0.0) > 4.5


def test_the_heuristic_keeps_the_straight_move_when_it_goes_far_enough_else_the_chain():
    game, req, u = _game()
    full = {m.id: [[m.x + 5.9, m.y]] for m in u.alive}  # far enough already
    open_field = {m.id: [[m.x, m.y + 5.0]] for m in u.alive}
    assert farther_move(game, req, full, (40.0, 12.0)) is full
    better = farther_move(game, req, {}, (40.0, 12.0))
    assert progress(u, better, 1.0, 0.0) > 4.5
    # a move already covering the distance wanted toward a near point is kept
    assert farther_move(game, req, open_field, (10.0, 20.0)) is open_field


def test_the_rings_from_shared_bearings_are_the_same_spots_less_rings_beyond_the_move():
    # A speed-up must keep the same spots, bit for bit: the rings of several radii built
    # from one set of bearings are _ring's floats, and a ring left out is one whose every
    # spot is beyond the move (the caller's distance test drops each of them).
    from w40k.engine import propose_chain_move as pcm

    start = Model("m", 10.0, 10.0, base_mm=32.0)
    base = math.atan2(-0.6, -0.8)
    cs = pcm._bearings(base)
    for cx, cy, d, reach in ((11.0, 12.0, 1.1, 6.0), (30.0, 10.0, 2.2, 6.0),
                             (16.5, 10.0, 0.35, 6.0 - 1e-3)):
        got = pcm._ring_within(cx, cy, d, cs, start, reach)
        want = pcm._ring(cx, cy, d, base)
        if got:
            assert got == want
        else:
            assert all(math.hypot(x - start.x, y - start.y) > reach for x, y in want)
    assert pcm._ring_within(30.0, 10.0, 2.2, cs, start, 6.0) == []
    assert pcm._ring_within(11.0, 12.0, 1.1, cs, start, 6.0) != []
