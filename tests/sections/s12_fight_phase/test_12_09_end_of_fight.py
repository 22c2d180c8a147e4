"""12.09 End of Fight phase: rules triggered at the end of the Fight phase resolve after the
Consolidate step (R12.09-a). A test-only rule in the end-of-phase window logs when it runs."""

from __future__ import annotations

import pytest

from tests.engine.core_helpers import events, frame
from tests.engine.melee_helpers import BASE, fight_phase, fighter, pending, unit
from w40k.core.jsonval import JSON
from w40k.engine import windows
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.windows import Facts, Reaction, Window
from w40k.rules.decisions import DecisionKind


def _options(ctx: Context, facts: Facts, player: str) -> list[JSON]:
    ran = any(e["event"] == "end_of_fight_rule" for e in ctx.state.events)
    return ["use"] if facts.get("phase") == "fight" and player == "red" and not ran else []


def _use(ctx: Context, facts: Facts, player: str, answer: JSON) -> None:
    ctx.log("end_of_fight_rule", player=player)


AFTER_FIGHT_PHASE = Reaction("Test end of Fight phase", Window.END_OF_PHASE, "test", _options,
                             _use)


def test_end_of_fight_phase_rules_resolve_after_the_consolidate_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R12.09-a: red.a and blue.b (W10 each: nobody dies) fight, both consolidate (declined
    # moves); only then is the end-of-phase rule offered, and it runs after them.
    monkeypatch.setattr(windows, "REACTIONS", (AFTER_FIGHT_PHASE,))
    units = [unit("red.a", "red", [fighter("red.a.1", 10, 10, W=10)]),
             unit("blue.b", "blue", [fighter("blue.b.1", 10, 10 + BASE + 1.0, W=10)])]
    pos = fight_phase(units)
    pos["frames"] = [frame("turn", player="red", step=6), *pos["frames"]]  # type: ignore[misc]
    game = Game.new(pos, seed=1)
    while True:
        req = pending(game)
        if req.kind is DecisionKind.REACTION:
            break
        if req.kind == "positions":
            game.submit(str(req.context["decline"]))
        elif req.kind == "declare_fight":
            game.submit(req.context["default"])
        elif req.kind in ("select_unit_to_pile_in", "select_unit_to_consolidate"):
            game.submit(req.options[0] if req.kind.endswith("consolidate") else "done")
        else:
            game.submit(req.options[0])
    assert game.state.phase == "fight"
    game.submit(req.options[1])
    kinds = [str(e["event"]) for e in events(game)]
    consolidations = [i for i, k in enumerate(kinds) if k == "consolidation_mode"]
    assert len(consolidations) == 2
    assert kinds.index("end_of_fight_rule") > consolidations[-1]
