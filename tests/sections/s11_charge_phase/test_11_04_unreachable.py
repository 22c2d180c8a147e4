"""11.04: a charge target within the charge roll that no legal move can reach around terrain
(R11.04-f): the move is impossible, so the charge fails."""

from __future__ import annotations

import pytest

from tests.engine.core_helpers import scripted
from tests.engine.melee_helpers import BASE, charge_phase, fighter, pending, unit
from tests.engine.shooting_helpers import wall
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game


def test_a_target_behind_a_wall_a_vehicle_cannot_cross_gives_a_failed_charge():
    # R11.04-f: roll 7, blue.b 5" away behind a 3"-tall dense wall spanning the table's left
    # third; the VEHICLE's straight move is refused (terrain), going around is longer than 7",
    # so the only answer left is the failed charge.
    red = unit("red.v", "red", [fighter("red.v.1", 10.0, 10.0, W=10,
                                        keywords=("VEHICLE",))])
    target_y = 10.0 + BASE + 5.0
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 10.0, target_y)])
    pos = charge_phase([red, blue], terrain=wall(0.0, 12.2, 21.0, 13.2, height=3.0))
    game = scripted(Game.new(pos, seed=1), [3, 4])
    assert pending(game).kind == "select_unit_to_charge"
    game.submit("red.v")
    req = pending(game)
    assert req.kind == "charge_targets" and ["blue.b"] in req.options
    game.submit(["blue.b"])
    req = pending(game)
    assert req.kind == "positions"
    with pytest.raises(IllegalChoice) as err:
        game.submit({"red.v.1": [[10.0, target_y - BASE - 0.1]]})
    assert err.value.rule.startswith("R13.")
    game.submit("fail")
    u = game.state.unit("red.v")
    assert (u.models[0].x, u.models[0].y) == (10.0, 10.0) and not u.flag("charged")
