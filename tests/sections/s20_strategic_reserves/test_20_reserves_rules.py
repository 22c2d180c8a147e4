"""20.02 repositioned units and 20.04 after an ingress move, in a game: a unit removed into
reserves after it advanced keeps its advance and its battle-shock when it arrives the same turn
(R20.02-a/b); an arriving unit moves no more before the Charge phase, where it may charge
(R20.04-c); a unit embarked within a transport in reserves never arrives on its own
(R20.04-d). Exact positions on an empty 60"x44" table."""

from __future__ import annotations

from typing import cast

from tests.engine.core_helpers import events
from tests.engine.movement_helpers import model, position, row, unit
from w40k.engine.game import Game
from w40k.engine.offtable import reposition
from w40k.engine.phases.charge import eligible_to_charge
from w40k.engine.requests import Request
from w40k.engine.serial import JSON


def at_round(n: int, *units: dict[str, JSON]) -> dict[str, JSON]:
    """A position whose next battle round is ``n`` (red first)."""
    pos = position(*units)
    pos["round"] = n - 1
    return pos


def until(game: Game, kind: str) -> Request:
    """Every other request: its first 'stay' option (or its first option) until ``kind``."""
    while True:
        req = game.pending()
        assert req is not None, f"the battle ended before a {kind} request"
        if req.kind == kind:
            return req
        stay = [o for o in ("remain_stationary", "remain_in_reserves", "remain_embarked",
                            "done", "no") if o in req.options]
        game.submit(stay[0] if stay else req.options[0])


def test_a_repositioned_unit_keeps_its_advance_and_its_battle_shock_when_it_arrives():
    # R20.02-a: red.a advanced this phase, then a rule repositions it (allowed after it
    # moved); set up again this turn it has still advanced, so it cannot declare a charge.
    # R20.02-b: it was battle-shocked when removed and still is when it arrives.
    red = unit("red.a", "red", row("red.a", 2, x=30.0, y=20.0),
               flags={"advanced": True, "moved": True, "selected_to_move": True,
                      "battle_shocked": True})
    blue = unit("blue.b", "blue", [model("blue.b.1", 30.0, 14.0)])
    pos = position(red, blue)
    pos.update(round=2, turn_player="red", active="red", phase="movement",
               frames=[{"kind": "set_up", "data": {"unit": "red.a", "move": "ingress"}}])
    game = Game.new(pos, seed=1)
    reposition(game.ctx, game.state.unit("red.a"), rule="test ability")
    assert [u.id for u in game.state.off_table] == ["red.a"]
    req = game.pending()
    assert req is not None and req.kind == "set_up"
    game.submit({"red.a.1": [30.0, 3.0], "red.a.2": [31.5, 3.0]})  # 11" from blue.b
    game.pending()
    u = game.state.unit("red.a")
    assert u.flag("advanced") and u.flag("battle_shocked") and u.flag("repositioned")
    assert not eligible_to_charge(game.ctx, u)
    u.flags.pop("advanced")
    u.flags.pop("battle_shocked")
    assert eligible_to_charge(game.ctx, u)  # only the advance stopped it
    assert events(game, "repositioned")[0]["unit"] == "red.a"


def test_after_an_ingress_a_unit_moves_no_more_until_the_charge_phase_where_it_may_charge():
    # R20.04-c: red.res arrives 11" from blue.b next to a friendly transport: it is not
    # asked to embark (an ingress is not a move that allows it) nor offered another move
    # this phase; in the same turn's Charge phase it may declare a charge.
    res = {**unit("red.res", "red", row("red.res", 2, x=0.0, y=0.0)), "location": "reserves"}
    hull = model("red.rhino.1", 36.0, 4.0, keywords=("VEHICLE", "TRANSPORT"))
    prof = cast(dict[str, JSON], hull["profile"])
    prof.update(base_mm=[120.0, 70.0], transport={"models": 12}, W=10)
    blue = unit("blue.b", "blue", [model("blue.b.1", 30.0, 14.0)])
    game = Game.new(at_round(2, res, unit("red.rhino", "red", [hull]), blue), seed=1)
    req = until(game, "select_unit_to_move")
    game.submit("red.res")
    game.submit("ingress")
    game.submit({"red.res.1": [30.0, 3.0], "red.res.2": [31.5, 3.0]})
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_move"
    assert req.options == ("red.rhino",)  # red.res: no embark question, no second move
    req = until(game, "select_unit_to_charge")
    assert "red.res" in req.options
    assert game.state.unit("red.res").flag("ingress_this_turn")


def test_a_unit_embarked_within_a_transport_in_reserves_cannot_arrive_on_its_own():
    # R20.04-d: round 2, the transport is in reserves with red.sq inside: only the transport
    # is offered an ingress.
    hull = model("red.rhino.1", 0.0, 0.0, keywords=("VEHICLE", "TRANSPORT"))
    cast(dict[str, JSON], hull["profile"]).update(base_mm=[120.0, 70.0],
                                                  transport={"models": 12}, W=10)
    rhino = {**unit("red.rhino", "red", [hull]), "location": "reserves"}
    sq = {**unit("red.sq", "red", row("red.sq", 2, x=0.0, y=0.0)), "location": "embarked",
          "embarked_in": "red.rhino"}
    keep = unit("red.keep", "red", [model("red.keep.1", 2.0, 42.0)])
    blue = unit("blue.b", "blue", [model("blue.b.1", 50.0, 22.0)])
    game = Game.new(at_round(2, rhino, sq, keep, blue), seed=1)
    req = until(game, "select_unit_to_move")
    assert "red.rhino" in req.options and "red.sq" not in req.options
