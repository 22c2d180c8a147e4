"""19.02 and 19.04 in an attached unit: "when destroyed" rules wait for its last model
(R19.02-c); a single model's ability stays that model's (R19.04-a); a leader keeps its "while
leading" abilities once its bodyguard is gone (R19.04-c, 24.22 / 24.34); a revived leader's
abilities apply again (R19.04-d). Captain (leader model) + 2 Intercessors, built by hand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tests.engine.core_helpers import command_phase, events, line, model, unit
from w40k.engine.abilities import Ability, AbilityKind, model_modifier, modifier
from w40k.engine.game import Game
from w40k.engine.revive import Return, revive
from w40k.engine.state import ModelData
from w40k.engine.units import destroy

# A test-only "while this model is leading a unit, +1 to hit" (BS/WS improved by 1).
RITES = Ability("Rites of Battle", AbilityKind.DATASHEET, modifiers={"BS": -1},
                while_leading=True)
# A test-only enhancement on the Captain only: +1 to its saves.
ARTIFICER = Ability("Artificer Armour", AbilityKind.DATASHEET, modifiers={"Sv": -1},
                    model_only=True)


def carried(m: ModelData) -> Iterable[Ability]:
    return (RITES, ARTIFICER) if m.id == "red.cap.1" else ()


def attached_unit(*, attached: bool = True, **kw: Any) -> dict[str, Any]:
    captain = model("red.cap.1", 10.0, 10.0, W=5)
    captain["leader"] = True
    guards = line("red.cap.g", 2, x=11.5, y=10.0)
    u = unit("red.cap", "red", [*guards, captain], starting_strength=3, **kw)
    u["attached"] = attached
    return u


def game(*units: dict[str, Any]) -> Game:
    g = Game.new(command_phase(list(units)), seed=1)
    g.pending()
    return g


def test_the_unit_is_destroyed_only_when_its_last_model_is_destroyed():
    # R19.02-c: the bodyguard models all die, the Captain lives -> no "unit destroyed" (its
    # triggers wait); the Captain dies -> the unit is destroyed once.
    g = game(attached_unit())
    u = g.state.unit("red.cap")
    for m in u.models[:2]:
        destroy(g.ctx, u, m, cause="test")
    assert not u.destroyed and events(g, "unit_destroyed") == []
    destroy(g.ctx, u, u.models[2], cause="test")
    assert u.destroyed and [e["unit"] for e in events(g, "unit_destroyed")] == ["red.cap"]


def test_a_single_models_enhancement_applies_only_to_that_model():
    # R19.04-a: the Captain's Artificer Armour improves its own save, not the Intercessors'.
    g = game(attached_unit())
    u = g.state.unit("red.cap")
    captain, guard = u.models[2], u.models[0]
    assert model_modifier(g.ctx, u, captain, "Sv", carried) == -1
    assert model_modifier(g.ctx, u, guard, "Sv", carried) == 0
    assert modifier(g.ctx, u, "Sv", carried) == 0


def test_a_lone_leader_keeps_its_while_leading_ability():
    # R19.04-c / R24.22-a / R24.34-a: with both Intercessors destroyed the Captain, who
    # started the battle attached, still has "while leading, +1 to hit"; the same Captain in a
    # unit that is not attached never had it.
    g = game(attached_unit())
    u = g.state.unit("red.cap")
    assert modifier(g.ctx, u, "BS", carried) == -1
    for m in u.models[:2]:
        destroy(g.ctx, u, m, cause="test")
    assert modifier(g.ctx, u, "BS", carried) == -1
    alone = game(attached_unit(attached=False))
    assert modifier(alone.ctx, alone.state.unit("red.cap"), "BS", carried) == 0


def test_a_revived_leader_brings_its_ability_back():
    # R19.04-d / RA-Revive-c: the Captain dies -> the unit loses "+1 to hit"; the Captain is
    # revived next to an Intercessor -> back in the unit, still its leader, ability restored.
    g = game(attached_unit())
    u = g.state.unit("red.cap")
    captain = u.models[2]
    destroy(g.ctx, u, captain, cause="test")
    assert modifier(g.ctx, u, "BS", carried) == 0
    assert revive(g.ctx, u, [Return("red.cap.1", 14.5, 10.0)]) == ["red.cap.1"]
    assert captain in u.alive and captain.leader and captain.remaining == 5
    assert modifier(g.ctx, u, "BS", carried) == -1
