"""Appendix 'Revived' (engine/revive.py): returned models never take a unit above its starting
strength and come back with full wounds and their wargear (RA-Revive-a), are set up in
coherency with the unit's models on the battlefield and engaged only with enemy units already
engaged with it (RA-Revive-b), a leader rejoins its attached unit (RA-Revive-c, in
tests/sections/s19_attached_units) and a used [ONE SHOT] weapon stays used (RA-Revive-d)."""

from __future__ import annotations

import pytest

from tests.engine.core_helpers import command_phase, events, line, model, unit
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game
from w40k.engine.revive import Return, revive, room


def block(*, dead: list[int], **prof: object) -> list[dict]:
    """Ten models in two rows of five (coherent), ``dead`` (indices) destroyed."""
    return [model(f"red.sq.{i + 1}", 10.0 + (i % 5) * 1.5, 10.0 + (i // 5) * 1.5,
                  destroyed=i in dead, wounds_lost=int(str(prof.get("W", 1))) if i in dead
                  else 0, **prof) for i in range(10)]


def game(*units: dict) -> Game:
    g = Game.new(command_phase(list(units)), seed=1)
    g.pending()
    return g


def test_returns_stop_at_the_starting_strength_with_full_wounds_and_wargear():
    # RA-Revive-a: starting strength 10, 9 alive -> "return 3" returns 1; it comes back
    # with its W2 and its weapon.
    squad = block(dead=[9], W=2)
    squad[9]["weapons"] = [{"name": "plasma gun", "range": 24, "A": "1", "skill": 3,
                            "S": 8, "AP": -3, "D": "2", "abilities": []}]
    g = game(unit("red.sq", "red", squad, starting_strength=10))
    u = g.state.unit("red.sq")
    assert room(u) == 1
    back = revive(g.ctx, u, [Return("red.sq.10", 17.5, 11.5)])
    assert back == ["red.sq.10"] and len(u.alive) == 10
    m = u.models[9]
    assert m.remaining == 2 and [w.name for w in m.weapons] == ["plasma gun"]
    assert events(g, "revived")[0]["model"] == "red.sq.10"


def test_returns_past_the_starting_strength_are_not_made():
    # RA-Revive-a: starting strength 9 and 8 alive (2 of its 10 models destroyed) -> of two
    # returns only the first is made.
    g = game(unit("red.sq", "red", block(dead=[8, 9]), starting_strength=9))
    u = g.state.unit("red.sq")
    back = revive(g.ctx, u, [Return("red.sq.9", 16.0, 11.5), Return("red.sq.10", 17.5, 11.5)])
    assert back == ["red.sq.9"] and u.models[9].destroyed and len(u.alive) == 9


def test_a_returned_model_must_be_in_coherency_with_the_models_on_the_battlefield():
    # RA-Revive-b: 3" from the nearest living model -> refused, nothing changes; 1.5" -> set up.
    g = game(unit("red.sq", "red", line("red.sq", 3, x=10.0, y=10.0, dead=[2]),
                  starting_strength=3))
    u = g.state.unit("red.sq")
    with pytest.raises(IllegalChoice) as err:
        revive(g.ctx, u, [Return("red.sq.3", 11.5, 14.26)])
    assert err.value.rule == "RA-Revive-b" and u.models[2].destroyed
    assert revive(g.ctx, u, [Return("red.sq.3", 11.5, 11.5)]) == ["red.sq.3"]


def test_a_returned_model_may_be_engaged_only_with_enemies_already_engaged_with_the_unit():
    # RA-Revive-b: blue.a is engaged with the squad; blue.b (at y 6) is not. Returning a
    # model within 2" of blue.b -> refused; within 2" of blue.a only -> allowed.
    g = game(unit("red.sq", "red", line("red.sq", 3, x=10.0, y=10.0, dead=[2]),
                  starting_strength=3),
             unit("blue.a", "blue", line("blue.a", 1, x=10.0, y=12.5)),
             unit("blue.b", "blue", line("blue.b", 1, x=13.0, y=6.0)))
    u = g.state.unit("red.sq")
    with pytest.raises(IllegalChoice) as err:
        revive(g.ctx, u, [Return("red.sq.3", 12.0, 8.0)])
    assert err.value.rule == "RA-Revive-b" and "engaged with blue.b" in str(err.value)
    assert revive(g.ctx, u, [Return("red.sq.3", 8.5, 11.0)]) == ["red.sq.3"]


def test_a_revived_models_used_one_shot_weapon_stays_used():
    # RA-Revive-d / R24.26-a: the returned model keeps its used hunter-killer missile.
    squad = line("red.sq", 2, x=10.0, y=10.0, dead=[1])
    squad[1]["one_shots_used"] = ["hunter-killer missile"]
    g = game(unit("red.sq", "red", squad, starting_strength=2))
    u = g.state.unit("red.sq")
    revive(g.ctx, u, [Return("red.sq.2", 11.5, 10.0)])
    assert u.models[1].one_shots_used == ["hunter-killer missile"]


def test_only_a_destroyed_model_of_the_unit_can_be_returned():
    # RA-Revive-a: "destroyed models are added to the unit": a living model is refused.
    g = game(unit("red.sq", "red", line("red.sq", 2, x=10.0, y=10.0), starting_strength=2))
    with pytest.raises(IllegalChoice):
        revive(g.ctx, g.state.unit("red.sq"), [Return("red.sq.1", 12.0, 10.0)])
