"""08.05 End of Command phase: rules triggered then resolve before the mission's (R08.05-a).

A test-only datasheet rule in the end-of-phase window of the Command phase secures objective
"a" for the turn player (in the manner of the Boyz' "Get da Good Bitz"); the mission's
"each objective held" rule checked at the end of the Command phase then counts it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.core_helpers import bare_phases, events, marker, model, position, unit
from tests.engine.test_mission_scoring import mission, rule
from w40k.core.jsonval import JSON
from w40k.engine import windows
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.windows import Facts, Reaction, Window
from w40k.rules.decisions import DecisionKind


def _options(ctx: Context, facts: Facts, player: str) -> list[JSON]:
    done = any(e["event"] == "reaction" and e.get("round") == ctx.state.round
               and e.get("player") == player for e in ctx.state.events)
    if facts.get("phase") != "command" or ctx.state.turn_player != player or done:
        return []
    return ["secure"]


def _use(ctx: Context, facts: Facts, player: str, answer: JSON) -> None:
    obj = next(o for o in ctx.state.objectives if o.name == "a")
    obj.controller = obj.secured_by = player
    ctx.log("secured", objective="a", player=player)


GOOD_BITZ = Reaction("Test Good Bitz", Window.END_OF_PHASE, "test", _options, _use)


def test_end_of_command_phase_rules_resolve_before_the_mission_scores(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R08.05-a: red holds no objective by models; at the end of red's round-2 Command phase
    # the test rule secures "a" first, so the mission's rule scores it (4 VP) right after.
    monkeypatch.setattr(windows, "REACTIONS", (GOOD_BITZ,))
    bare_phases(monkeypatch)
    m: dict[str, Any] = mission(rule("hold", "each_objective", 4, when="command_phase",
                                     from_round=2))
    pos = position([unit("red.a", "red", [model("red.a.1", 5.0, 5.0)]),
                    unit("blue.a", "blue", [model("blue.a.1", 55.0, 40.0)])],
                   objectives=[marker("a", 30.0, 22.0)], rounds=2, mission=m)
    game = Game.new(pos, 1)
    while (req := game.pending()) is not None:
        assert req.kind is DecisionKind.REACTION
        used = game.state.round == 2 and req.player == "red"
        game.submit(req.options[1] if used else req.options[0])
    order = [(e["event"], e.get("round")) for e in events(game)
             if e["event"] in ("secured", "score")]
    assert order[:2] == [("secured", 2), ("score", 2)]
    assert next(e["vp"] for e in events(game, "score") if e["scorer"] == "red") == 4
