"""Fire Overwatch's selections are searched once per battlefield (R15.08-a, R15.09-a): the
kept answer equals a fresh search, and a moved unit makes a new battlefield, searched again."""

from __future__ import annotations

from typing import cast

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import scripted
from tests.engine.melee_helpers import pending
from w40k.core.jsonval import JSON
from w40k.engine.game import Game
from w40k.engine.stratagems import interventions
from w40k.rules.decisions import DecisionKind

pytestmark = pytest.mark.stratagems


def _game() -> Game:
    gun = sh.weapon("gun")
    blue = sh.unit("blue.o", [sh.model("blue.o.1", 10, 10, gun)])
    red = sh.unit("red.r", [sh.model("red.r.1", 10, 25, gun)])
    pos = sh.position(blue, red)
    for p, cp in zip(cast(list[dict[str, JSON]], pos["players"]), (0, 1), strict=True):
        p["cp"] = cp  # red 0, blue 1: Fire Overwatch costs 1CP
    pos["frames"] = [{"kind": "turn", "data": {"player": "red", "step": 3}}]
    pos["turn_player"] = pos["active"] = "red"
    pos["phase"] = "movement"
    return scripted(Game.new(pos, seed=1), [5, 6, 4, 1])


def test_fire_overwatch_selections_are_kept_per_battlefield_and_equal_a_fresh_search() -> None:
    # R15.08-a, R15.09-a: the window asks twice (open, then the request); one search.
    game = _game()
    req = pending(game)
    assert req.kind is DecisionKind.REACTION and req.player == "blue"
    ctx = game.ctx
    facts: dict[str, JSON] = {"phase": "movement"}
    kept = interventions._overwatch_targets(ctx, facts, "blue")
    assert interventions._KEPT and interventions._KEPT[0][1] == "blue"
    assert kept == interventions._overwatch_search(ctx, "blue")
    assert [t.answer() for t in kept] == [{"unit": "blue.o", "enemy": "red.r"}]
    # the enemy moves beyond 24": a new battlefield, searched again (R15.09-a: no target)
    ctx.state.unit("red.r").alive[0].y = 40.0
    assert interventions._overwatch_targets(ctx, facts, "blue") == []
    assert interventions._overwatch_search(ctx, "blue") == []
