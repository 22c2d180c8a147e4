"""10.04: a unit that has shot cannot start an action until the end of the phase (R10.04-b);
10.06's repeated MONSTER/VEHICLE heading is one rule, applied once (R10.06-e, DATA)."""

from __future__ import annotations

from tests.builders import assert_counts, attack
from tests.engine.shooting_helpers import BOLTGUN, position, row, unit
from w40k.engine.actions import can_start_action
from w40k.engine.game import Game


def test_a_unit_that_shot_cannot_start_an_action_until_the_end_of_the_phase():
    # R10.04-b: red.a was selected to shoot this Shooting phase -> no action now; red.b, which
    # has not shot, can; in the next phase (Charge) red.a can start one again.
    game = Game.new(position(unit("red.a", row("red.a", 1, 10, 10, BOLTGUN),
                                  flags={"selected_to_shoot": True, "shot": True}),
                             unit("red.b", row("red.b", 1, 20, 10, BOLTGUN)),
                             unit("blue.x", row("blue.x", 1, 50, 40, BOLTGUN))), seed=1)
    a, b = game.state.unit("red.a"), game.state.unit("red.b")
    assert not can_start_action(game.ctx, a) and can_start_action(game.ctx, b)
    game.state.phase = "charge"
    assert can_start_action(game.ctx, a)


def test_the_close_quarters_monster_penalty_is_applied_once():
    # R10.06-e (DATA): the heading printed twice is one rule: the cannon of an engaged
    # MONSTER at another unit is -1 to hit once, so BS 3+ with a 4 hits.
    r = attack("Cannon A1 BS3+ S1 AP0 D1", "Big T1 Sv7+ W10", {"hit": [4], "wound": [1]},
               close_quarters_monster=True)
    assert_counts(r, hits=1)
