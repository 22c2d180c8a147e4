"""11.04 charge move: "each model that can end within 1"/engaged ... must do so" (R11.04-c)
counts only the spots a legal charge move may end at. A spot engaged with an enemy unit that
is not a charge target makes the move fail (R11.04-d), so it is not a spot the model "can" end
at (docs/rulings.md R11.04-c): a move that stops short of it is accepted, and the engine's
proposer makes the charge instead of declining it."""

from __future__ import annotations

import random

from tests.engine.core_helpers import scripted
from tests.engine.melee_helpers import BASE, charge_phase, fighter, melee_violations, pending, unit
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.serial import JSON

BX, BY = 20.0, 20.0
"""The charge target's model."""
SIDE = 1.3
"""blue.c's two models stand this far left and right of blue.b.1's centre (not touching it):
every spot within 1" of blue.b.1 is within 2" of one of them."""
RED_Y = BY - 7.0


def _to_positions(targets: list[str]) -> Game:
    blue_b = unit("blue.b", "blue", [fighter("blue.b.1", BX, BY)])
    blue_c = unit("blue.c", "blue", [fighter("blue.c.1", BX - SIDE, BY),
                                     fighter("blue.c.2", BX + SIDE, BY)])
    red = unit("red.a", "red", [fighter("red.a.1", BX, RED_Y)])
    game = scripted(Game.new(charge_phase([red, blue_b, blue_c]), seed=1), [4, 4])
    assert pending(game).kind == "select_unit_to_charge"
    game.submit("red.a")
    req = pending(game)
    assert req.kind == "charge_targets" and targets in req.options
    game.submit(targets)  # type: ignore[arg-type]
    assert pending(game).kind == "positions"
    return game


def _engaged_only_with_b() -> JSON:
    # 1.9" edge to edge straight below blue.b.1: engaged with it (R03.04), more than 2" from
    # both blue.c models (centres 3.42" apart > 3.26").
    return {"red.a.1": [[BX, BY - BASE - 1.9]]}


def test_a_spot_within_1_inch_that_engages_a_non_target_is_not_demanded_R11_04_c() -> None:
    # R11.04-c (with R11.04-d): blue.b is the only target; every spot within 1" of blue.b.1
    # is engaged with blue.c, so the model cannot end within 1" in a legal charge move and
    # the move ending 1.9" away (engaged with blue.b only) is accepted.
    game = _to_positions(["blue.b"])
    assert melee_violations(game, _engaged_only_with_b()) == []
    game.submit(_engaged_only_with_b())
    assert game.state.unit("red.a").flag("charged")


def test_a_spot_within_1_inch_is_still_demanded_when_the_other_unit_is_a_target_R11_04_c(
) -> None:
    # R11.04-c: with blue.c a charge target too, the spots within 1" of blue.b.1 (engaged with
    # blue.c) are legal ends, so stopping 1.9" away is refused.
    game = _to_positions(["blue.b", "blue.c"])
    rules = [r for r, _ in melee_violations(game, _engaged_only_with_b())]
    assert "R11.04-c" in rules


def test_the_proposer_makes_the_charge_instead_of_declining_it_R11_04_c_d() -> None:
    # R11.04-b/-c/-d: the engine's proposer ends the model engaged with blue.b and not with
    # blue.c, and check_move accepts it (it used to demand a spot within 1", so no answer
    # was legal and the charge was declined).
    game = _to_positions(["blue.b"])
    answer = sample(game, pending(game), random.Random(1))
    assert answer != "fail"
    assert melee_violations(game, answer) == []
