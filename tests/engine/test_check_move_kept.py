"""``moves.check_move`` keeps the moves it found legal (the proposer checks its answer, then
the frame checks the same answer when it is submitted): a kept answer is the measured one,
in any order of the models, and a move is measured again once a model is placed."""

from __future__ import annotations

import math
import random

import pytest

from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.core.errors import IllegalChoice
from w40k.engine import moves as mv
from w40k.engine.game import Game
from w40k.engine.moves import Answer, check_move
from w40k.geometry import MoveType, Step


def _verdict(game: Game, u: object, moves: Answer, mt: MoveType, d: float,
             budgets: dict[str, float] | None, *, measured: bool) -> str:
    """"legal", or the rule ``check_move`` (or the measuring ``_check_move``) names."""
    try:
        if measured:
            mv._check_move(game, u, moves, mt, d, take_to_skies=False,  # type: ignore[arg-type]
                           model_budgets=budgets, must_end_unengaged=None)
        else:
            check_move(game, u, moves, mt, d, model_budgets=budgets)  # type: ignore[arg-type]
    except IllegalChoice as e:
        return str(e.rule)
    return "legal"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_kept_legal_move_is_the_measured_answer_in_any_order_R03_01_a(seed: int) -> None:
    # R03.01-a..i, R09.05-a, R03.03-d: each model's path on its own, the ends, coherency
    # and engagement read every model: the verdict does not depend on the models' order.
    rng = random.Random(seed)
    legal = refused = 0
    for game in greedy_snapshots(seed, every=50):
        for u in [u for u in game.state.units if not u.destroyed]:
            for _ in range(4):
                a, d = rng.uniform(-math.pi, math.pi), rng.uniform(0.3, 7.0)
                mt = rng.choice([MoveType.NORMAL, MoveType.ADVANCE])
                movers = [m for m in u.alive if rng.random() < 0.9]
                moves: Answer = {m.id: [Step(m.x + d * math.cos(a) + rng.uniform(0, 0.05),
                                             m.y + d * math.sin(a))] for m in movers}
                budgets = {m.id: 6.0 for m in u.alive} if rng.random() < 0.5 else None
                backward: Answer = dict(reversed(list(moves.items())))
                fresh = _verdict(game, u, moves, mt, 7.0, budgets, measured=True)
                assert _verdict(game, u, moves, mt, 7.0, budgets, measured=False) == fresh
                # the same moves in the other order: kept when legal, measured else
                back = _verdict(game, u, backward, mt, 7.0, budgets, measured=True)
                assert (back == "legal") == (fresh == "legal")
                assert _verdict(game, u, backward, mt, 7.0, budgets, measured=False) == back
                legal += fresh == "legal"
                refused += fresh != "legal"
    assert legal > 10 and refused > 10


def test_a_kept_legal_move_is_measured_again_once_a_model_is_placed_R03_01_c() -> None:
    # R03.01-c: a model of another unit set down on the move's end refuses it; the kept
    # answer (keyed on the placement count) is not used.
    game = greedy_snapshots(3, every=50)[0]
    u = next(u for u in game.state.units if not u.destroyed and len(u.alive) > 1)
    other = next(e for e in game.state.units if e is not u and not e.destroyed)
    for a in range(24):
        ang = a * 2 * math.pi / 24
        moves: Answer = {m.id: [Step(m.x + 3 * math.cos(ang), m.y + 3 * math.sin(ang))]
                         for m in u.alive}
        if _verdict(game, u, moves, MoveType.NORMAL, 6.0, None, measured=True) == "legal":
            break
    else:
        pytest.fail("no legal move found")
    check_move(game, u, moves, MoveType.NORMAL, 6.0)  # kept
    assert any(v[1] is u for v in mv._PASSED.values())
    m0 = u.alive[0]
    end = moves[m0.id][-1]
    o = other.alive[0]
    o.x, o.y, o.z = end.x, end.y, m0.z
    with pytest.raises(IllegalChoice):
        check_move(game, u, moves, MoveType.NORMAL, 6.0)


def test_a_move_with_a_zero_coordinate_is_not_kept() -> None:
    # 0.0 and -0.0 are equal keys but not the same float: such a move is always measured.
    assert mv._moves_key({"a": [Step(1.0, 2.0)], "b": [Step(3.0, 4.0, 0.0)]}) is None
    assert mv._moves_key({"a": [Step(-0.0, 2.0)]}) is None
    assert mv._moves_key({"b": [Step(3.0, 4.0)], "a": [Step(1.0, 2.0, 1.5, 0.5)]}) == (
        ("a", (Step(1.0, 2.0, 1.5, 0.5),)), ("b", (Step(3.0, 4.0),)))
