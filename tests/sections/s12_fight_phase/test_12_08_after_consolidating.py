"""12.08 "After moving" is empty in the source (R12.08-f, AMBIG/DATA): the engine follows the
recorded reading (docs/rulings.md): after an ongoing consolidation each model that started
engaged with an enemy unit is still engaged with it, and the unit is in coherency."""

from __future__ import annotations

import pytest

from tests.engine.melee_helpers import BASE, fight_phase, fighter, pending, unit
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game


def test_an_ongoing_consolidation_may_not_leave_an_enemy_unit_it_started_engaged_with():
    # R12.08-f: red.a.1 is engaged with blue.b (1" above) and blue.c (1.9" below). Moving
    # 0.5" toward blue.b (its closest target) leaves blue.c's engagement range -> refused;
    # 0.05" toward blue.b keeps both -> accepted.
    units = [unit("red.a", "red", [fighter("red.a.1", 10, 10, W=10)]),
             unit("blue.b", "blue", [fighter("blue.b.1", 10, 10 + BASE + 1.0, W=10)]),
             unit("blue.c", "blue", [fighter("blue.c.1", 10, 10 - BASE - 1.9, W=10)])]
    game = Game.new(fight_phase(units), seed=1)
    for _ in range(60):
        req = pending(game)
        if req.kind == "select_unit_to_consolidate" and "red.a" in req.options:
            break
        if req.kind == "positions":
            game.submit(str(req.context["decline"]))
        elif req.kind == "declare_fight":
            game.submit(req.context["default"])
        elif req.kind in ("select_unit_to_pile_in", "select_unit_to_consolidate"):
            game.submit("done")
        else:
            game.submit(req.options[0])
    game.submit("red.a")
    req = pending(game)
    assert req.kind == "positions" and req.context["mode"] == "ongoing"
    with pytest.raises(IllegalChoice) as err:
        game.submit({"red.a.1": [[10.0, 10.5]]})
    assert err.value.rule == "R12.08-f"
    game.submit({"red.a.1": [[10.0, 10.05]]})
    assert game.state.unit("red.a").models[0].y == pytest.approx(10.05)
