"""09.07 after a fall-back move: no shooting (any type, Explosives included), no charge and
no action until the end of the turn (R09.07-e); a battle-shocked unit's Desperate Escape
hazard rolls are never offered a Command Re-roll (RX-c, R01.07-c)."""

from __future__ import annotations

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import scripted
from tests.engine.movement_helpers import model, position, row, unit
from w40k.engine.actions import can_start_action
from w40k.engine.game import Game
from w40k.engine.phases.charge import eligible_to_charge
from w40k.engine.phases.shooting import can_shoot
from w40k.engine.phases.shooting_facts import shooting_types
from w40k.rules.decisions import DECLINE, DecisionKind


def test_a_unit_that_fell_back_cannot_shoot_charge_or_start_an_action_this_turn():
    # R09.07-e: red.a fell back this turn (unengaged now, a pistol and a grenade-armed model,
    # blue 5" away): no shooting type (close-quarters included), so no Explosives either
    # (it needs a unit eligible to shoot), no charge, no action. The same unit that did not
    # fall back may do each.
    pistol = sh.weapon("bolt pistol", range=12, abilities=("PISTOL",))
    red = sh.unit("red.a", [sh.model("red.a.1", 10, 10, pistol,
                                     keywords=("INFANTRY", "GRENADES"))],
                  flags={"fell_back": True})
    blue = sh.unit("blue.b", [sh.model("blue.b.1", 10, 16.26)])
    game = Game.new(sh.position(red, blue), seed=1)
    u = game.state.unit("red.a")
    assert shooting_types(game.ctx, u) == [] and not can_shoot(game.ctx, u)
    assert not eligible_to_charge(game.ctx, u)
    assert not can_start_action(game.ctx, u)
    u.flags.pop("fell_back")
    assert can_shoot(game.ctx, u) and eligible_to_charge(game.ctx, u)
    assert can_start_action(game.ctx, u)


@pytest.mark.stratagems
def test_desperate_escape_hazard_rolls_are_not_offered_a_command_re_roll():
    # RX-c / R01.07-c: the battle-shocked unit (its Command phase roll [1, 1] fails) falls back
    # with Desperate Escape; red has CP, a hazard die shows 1, and no Command Re-roll is asked.
    shocked = unit("red.a", "red", row("red.a", 5, x=10.0, y=10.0),
                   flags={"battle_shocked": True})
    enemy = unit("blue.e", "blue", [model("blue.e.1", 12.0, 11.5)])
    game = Game.new(position(shocked, enemy), seed=1)
    scripted(game, [1, 1, 1, 6, 6, 6, 6])
    seen = []
    while (req := game.pending()) is not None and req.kind != "positions":
        seen.append((req.kind, req.player))
        if req.kind is DecisionKind.REACTION:
            game.submit(DECLINE)
        elif req.kind == "select_unit_to_move":
            game.submit("red.a")
        elif req.kind == "move_type":
            assert req.options == ("remain_stationary", "fall_back_desperate")
            game.state.player("red").cp = 2
            game.submit("fall_back_desperate")
        else:
            game.submit(req.options[0])
    assert game.state.unit("red.a").flag("battle_shocked")
    rolls = [e for e in game.state.events if e["event"] == "hazard_rolls"]
    assert rolls and 1 in rolls[0]["dice"]
    after = seen[seen.index(("move_type", "red")) + 1:]
    assert all(kind is not DecisionKind.REACTION for kind, _ in after)
