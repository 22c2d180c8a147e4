"""Stratagem points that cross sections: the core stratagem registry (R00-DATA); Rapid Ingress
and Fire Overwatch share the end of the opponent's Movement phase, so the one-stratagem-per-
unit limit covers both (RX-a); a Rapid Ingress unit may intervene heroically at the end of the
opponent's next Charge phase (RX-b, 20.04-c)."""

from __future__ import annotations

from typing import cast

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.movement_helpers import position, row, unit
from w40k.core.jsonval import JSON
from w40k.engine.game import Game
from w40k.engine.reactions_table import CORE_STRATAGEMS
from w40k.engine.requests import Request
from w40k.rules.attack_profile import AttackContext
from w40k.rules.decisions import DECLINE, DecisionKind

pytestmark = pytest.mark.stratagems

RI, FO, HI = "Rapid Ingress", "Fire Overwatch", "Heroic Intervention"


def test_the_registry_holds_the_ten_core_stratagems_and_snap_shooting_is_a_shooting_type():
    # R00-DATA: 15.01-15.12 less 15.09, which is the snap-shooting type Fire Overwatch uses.
    assert [s.name for s in CORE_STRATAGEMS] == [
        "Command Re-roll", "Epic Challenge", "Insane Bravery", "Explosives", "Crushing Impact",
        RI, FO, "Smokescreen", HI, "Counteroffensive"]
    assert [s.rule for s in CORE_STRATAGEMS][-2:] == ["15.11", "15.12"]
    assert "Snap Shooting" not in {s.name for s in CORE_STRATAGEMS}
    assert AttackContext(snap_shooting=True).snap_shooting


def _game(blue_cp: int) -> Game:
    """Round 2, red first; blue has a gunned unit in reserves and one on the table."""
    gun = sh.weapon("gun")
    red = unit("red.sq", "red", row("red.sq", 2, x=30.0, y=5.0))
    res = {**sh.unit("blue.res", [sh.model("blue.res.1", 0, 0, gun),
                                  sh.model("blue.res.2", 1.5, 0, gun)]), "location": "reserves"}
    keep = sh.unit("blue.keep", [sh.model("blue.keep.1", 30.0, 25.0, gun)])
    pos = position(red, res, keep)
    pos["round"] = 1
    cast(list[dict[str, JSON]], pos["players"])[1]["cp"] = blue_cp
    return Game.new(pos, seed=1)


def _stay(game: Game, req: Request) -> None:
    for o in ("remain_stationary", "done", "skip", "fail"):
        if o in req.options:
            game.submit(o)
            return
    game.submit(req.options[0])


def _until_reaction(game: Game, offered: str) -> Request:
    """Red stays put; blue declines every reaction until one offering ``offered``."""
    while True:
        req = game.pending()
        assert req is not None
        if req.kind is DecisionKind.REACTION:
            if any(cast(list[JSON], o)[0] == offered for o in req.options[1:]):
                return req
            game.submit(DECLINE)
        else:
            _stay(game, req)


def _rapid_ingress(game: Game) -> None:
    _until_reaction(game, RI)
    game.submit([RI, {"unit": "blue.res"}], player="blue")
    # 11" from red.sq: within 12" and 24", more than 8", wholly within 6" of the bottom edge
    game.submit({"blue.res.1": [42.5, 3.0], "blue.res.2": [44.0, 3.0]})


def test_a_rapid_ingress_unit_cannot_then_fire_overwatch_in_the_same_phase():
    # RX-a / R15.01-b: both at the end of red's Movement phase; blue.res arrived by Rapid
    # Ingress, so Fire Overwatch (1 CP left) is offered for blue.keep, never blue.res.
    game = _game(blue_cp=2)
    _rapid_ingress(game)
    req = game.pending()
    assert req is not None and req.kind is DecisionKind.REACTION and req.player == "blue"
    units = [cast(dict[str, JSON], cast(list[JSON], o)[1])["unit"] for o in req.options[1:]
             if cast(list[JSON], o)[0] == FO]
    assert units and set(units) == {"blue.keep"}


def test_a_rapid_ingress_unit_may_heroically_intervene_in_that_turns_charge_phase():
    # RX-b / R20.04-c: "until the start of the next Charge phase" ends with red's Charge phase,
    # so at its end blue.res (within 12" of red.sq) is offered Heroic Intervention.
    game = _game(blue_cp=3)
    _rapid_ingress(game)
    req = _until_reaction(game, HI)
    assert game.state.phase == "charge" and game.state.turn_player == "red"
    offered = {cast(dict[str, JSON], cast(list[JSON], o)[1])["unit"] for o in req.options[1:]
               if cast(list[JSON], o)[0] == HI}
    assert "blue.res" in offered
