"""15.07 Rapid Ingress: offered at the end of the opponent's Movement phase to a player with a
unit in strategic reserves, never in battle round 1, never for AIRCRAFT or without CP; the
unit then makes an ingress move (20.04) through the ``set_up`` request."""

from __future__ import annotations

from typing import cast

import pytest

from tests.engine.movement_helpers import model, position, row, unit
from w40k.core.errors import IllegalChoice
from w40k.core.jsonval import JSON
from w40k.engine.game import Game
from w40k.engine.requests import Request
from w40k.rules.decisions import DECLINE, DecisionKind

pytestmark = pytest.mark.stratagems

RI = "Rapid Ingress"


def _game(next_round: int, *, keywords: tuple[str, ...] = ("INFANTRY",), blue_cp: int = 0
          ) -> Game:
    red = unit("red.sq", "red", row("red.sq", 2, x=30.0, y=5.0))
    res = {**unit("blue.res", "blue", row("blue.res", 2, x=0.0, y=0.0, keywords=keywords)),
           "location": "reserves"}
    keep = unit("blue.keep", "blue", [model("blue.keep.1", 55.0, 40.0)])
    pos = position(red, res, keep)
    pos["round"] = next_round - 1
    cast(list[dict[str, JSON]], pos["players"])[1]["cp"] = blue_cp
    return Game.new(pos, seed=1)


def _to_end_of_red_movement(game: Game) -> Request:
    """Red's units remain stationary; the request after red's Movement phase."""
    while True:
        req = game.pending()
        assert req is not None
        if req.kind is DecisionKind.REACTION or req.kind == "select_unit_to_shoot":
            return req
        if req.kind == "select_unit_to_move":
            game.submit(req.options[0])
        elif req.kind == "move_type":
            game.submit("remain_stationary")
        else:
            raise AssertionError(f"unexpected {req.kind}")


def test_rapid_ingress_brings_a_reserve_unit_in_at_the_end_of_the_opponents_movement():
    # R15.07-a: round 2, blue (not the turn player) pays 1 CP; the ingress follows 20.04.
    game = _game(2)
    req = _to_end_of_red_movement(game)
    option = [RI, {"unit": "blue.res"}]
    assert (req.kind, req.player, req.options) == (DecisionKind.REACTION, "blue",
                                                   (DECLINE, option))
    game.submit(option, player="blue")
    assert game.state.player("blue").cp == 0
    req = game.pending()
    assert req is not None and (req.kind, req.player) == ("set_up", "blue")
    with pytest.raises(IllegalChoice) as err:  # 7" from red's squad
        game.submit({"blue.res.1": [30.0, 5.0 + 7.0 + 1.3], "blue.res.2": [31.5, 13.3]})
    assert err.value.rule == "R20.04-a"
    game.submit({"blue.res.1": [55.0, 43.0], "blue.res.2": [56.5, 43.0]})
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_shoot" and req.player == "red"
    assert game.state.unit("blue.res").alive[0].x == 55.0


def test_rapid_ingress_is_not_offered_in_the_first_battle_round():
    # R15.07-a: round 1 -> nothing asked.
    assert _to_end_of_red_movement(_game(1)).kind == "select_unit_to_shoot"


def test_rapid_ingress_is_not_offered_for_aircraft():
    # R23.x-a: an AIRCRAFT in reserves cannot be brought in by Rapid Ingress.
    game = _game(2, keywords=("VEHICLE", "AIRCRAFT", "FLY"))
    assert _to_end_of_red_movement(game).kind == "select_unit_to_shoot"


def test_rapid_ingress_is_not_offered_without_command_points():
    # R15.01-c: red's Command phase of round 2 gives blue 1 CP; spend it first -> 0 CP.
    game = _game(2)
    req = game.pending()
    assert req is not None
    game.state.player("blue").cp = 0
    assert _to_end_of_red_movement(game).kind == "select_unit_to_shoot"
