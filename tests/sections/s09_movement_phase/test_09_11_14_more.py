"""More Movement (09) and Charge (11) tests: what an advance forbids for the rest of the turn,
remaining stationary, the 2D6 charge roll."""

from __future__ import annotations

import pytest

from tests.engine.core_helpers import events, scripted
from tests.engine.melee_helpers import BASE, charge_phase, fighter, pending
from tests.engine.movement_helpers import answer, far_enemy, model, position, row, unit
from tests.engine.shooting_helpers import BOLTGUN, weapon
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game
from w40k.engine.serial import JSON

ASSAULT_RIFLE = weapon("assault rifle", abilities=("ASSAULT",))


def _gunner(mid: str, x: float, y: float, w: dict[str, JSON]) -> dict[str, JSON]:
    m = model(mid, x, y)
    m["weapons"] = [w]
    return m


def _armed(uid: str, x: float, y: float, w: dict[str, JSON]) -> dict[str, JSON]:
    return unit(uid, "red", [_gunner(f"{uid}.1", x, y, w)])


def _after_movement(dice: list[int]) -> Game:
    """Red turn 1: red.a (boltgun) and red.s (assault rifle) advance 1" (roll 1), red.c
    (boltgun) remains stationary; blue.x is 9" below all three."""
    blue = unit("blue.x", "blue", [_gunner(f"blue.x.{i}", x, 20.0, BOLTGUN)
                                   for i, x in enumerate((10.0, 20.0, 30.0), 1)])
    units = [_armed("red.a", 10, 10, BOLTGUN), _armed("red.s", 20, 10, ASSAULT_RIFLE),
             _armed("red.c", 30, 10, BOLTGUN), blue]
    game = Game.new(position(*units), seed=1)
    scripted(game, dice)
    req = pending(game)
    assert req.kind == "select_unit_to_move"
    answer(game, "red.a", "advance", {"red.a.1": [[10.0, 11.0]]})
    answer(game, "red.s", "advance", {"red.s.1": [[20.0, 11.0]]})
    answer(game, "red.c", "remain_stationary")
    assert game.state.unit("red.a").flag("advanced")
    return game


def test_an_advanced_unit_may_only_assault_shoot_and_cannot_declare_a_charge() -> None:
    # R09.06-b, played through one turn: Movement -> Shooting -> Charge.
    game = _after_movement([1, 1])
    req = pending(game)
    assert req.kind == "select_unit_to_shoot"
    # no normal shooting for red.a; red.s has an [ASSAULT] weapon; red.c stood still
    assert req.options == ("red.s", "red.c", "done")
    before = game.save()
    with pytest.raises(IllegalChoice) as exc:
        game.submit("red.a")
    assert exc.value.rule == "R10.02-a" and game.save() == before
    game.submit("red.s")
    req = pending(game)
    assert req.kind == "declare_shooting" and req.context["type"] == "assault"
    # skip the rest of the Shooting phase
    while (req := pending(game)).kind != "select_unit_to_charge":
        if req.kind == "declare_shooting":
            game.submit({})
        elif req.kind == "select_unit_to_shoot":
            game.submit("done")
        else:
            game.submit(req.options[0])
    # all three are within 12" of blue.x; only red.c, which did not advance, may charge
    assert req.options == ("red.c", "done")
    before = game.save()
    with pytest.raises(IllegalChoice) as exc:
        game.submit("red.s")
    assert exc.value.rule == "R11.02-a" and game.save() == before


def test_remaining_stationary_moves_nothing_and_logs_no_model_movement() -> None:
    # R09.04-a: no model moves or rotates; the unit is marked stationary, not moved, and the
    # move log carries no models (so no start/end-of-move rule has a move to react to).
    red = unit("red.a", "red", row("red.a", 3, x=10.0, y=10.0))
    keep = unit("red.keep", "red", [model("red.keep.1", 2.0, 42.0)])  # keeps the turn open
    game = Game.new(position(red, keep, far_enemy()), seed=1)
    before = [(m.x, m.y, m.facing) for m in game.state.unit("red.a").models]
    assert pending(game).kind == "select_unit_to_move"
    game.submit("red.a")
    game.submit("remain_stationary")
    assert pending(game).options == ("red.keep",)
    u = game.state.unit("red.a")
    assert [(m.x, m.y, m.facing) for m in u.models] == before
    assert u.flag("remained_stationary") and not u.flag("moved") and u.max_move == 0.0
    moves = [e for e in events(game, "move") if e["unit"] == "red.a"]
    assert moves == [{**moves[0], "move_type": "remain_stationary", "models": {}}]
    assert len(moves) == 1


def test_the_charge_roll_is_two_d6_added_and_is_the_maximum_distance() -> None:
    # R11.02-b: [3, 4] -> 7". A target 6.9" away is offered; the move may use 7" but not 7.1".
    red = unit("red.a", "red", [fighter("red.a.1", 10, 10)])
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 10, 10 + BASE + 6.9)])
    game = scripted(Game.new(charge_phase([red, blue]), seed=1), [3, 4])
    game.submit("red.a")
    req = pending(game)
    roll = events(game, "charge_roll")[-1]
    assert roll["dice"] == [3, 4] and roll["roll"] == 7
    assert req.kind == "charge_targets" and req.options == (["blue.b"], "fail")
    game.submit(["blue.b"])
    req = pending(game)
    assert req.kind == "positions" and req.context["max_distance"] == 7
    before = game.save()
    with pytest.raises(IllegalChoice) as exc:  # a dog-leg path over 7"
        game.submit({"red.a.1": [[10.0, 12.0], [13.1, 12.0], [10.0, 12.0 + 2.0]]})
    assert exc.value.rule == "R03.01-a" and game.save() == before
    game.submit({"red.a.1": [[10.0, 10.0 + 6.9 - 0.5]]})
    assert events(game, "charge_move")
