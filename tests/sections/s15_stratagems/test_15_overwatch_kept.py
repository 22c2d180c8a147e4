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


def _wide_game() -> Game:
    # three blue shooters of five models and two red units of five, all within 24"
    gun = sh.weapon("gun")
    blues = [sh.unit(f"blue.u{i}", [sh.model(f"blue.u{i}.{k}", 6.0 + 9 * i + 1.5 * k, 8.0, gun)
                                     for k in range(5)]) for i in range(3)]
    reds = [sh.unit(f"red.r{i}", [sh.model(f"red.r{i}.{k}", 8.0 + 12 * i + 1.5 * k, 24.0, gun)
                                   for k in range(5)]) for i in range(2)]
    pos = sh.position(*blues, *reds)
    pos["frames"] = [{"kind": "turn", "data": {"player": "red", "step": 3}}]
    pos["turn_player"] = pos["active"] = "red"
    pos["phase"] = "movement"
    return Game.new(pos, seed=1)


def test_the_search_stages_in_bounded_batches_with_the_answers_of_one_batch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R15.08-a, R15.09-a: the batched sight tests run in batches of at most STAGE_PAIRS model
    # pairs (memory); each model pair's answer is its own, so the selections are the same
    import numpy as np

    from w40k.engine.stratagems import overwatch_sight
    from w40k.geometry import sight_memo
    from w40k.geometry.sight_tables import SightTables

    batches: list[int] = []
    batch_stage = SightTables._batch_stage

    def counted(self: SightTables, pairs: list[tuple[int, int]],
                masks: list[np.ndarray | None] | None = None,
                spared: list[tuple[int, int, int, int]] | None = None,
                ) -> list[tuple[int, int, int, int]]:
        units = self.scene.units
        batches.append(sum(len(units[a].models) * len(units[b].models) if m is None
                           else int(np.count_nonzero(m))
                           for (a, b), m in zip(pairs, masks or [None] * len(pairs),
                                                strict=True)))
        return batch_stage(self, pairs, masks, spared)

    monkeypatch.setattr(SightTables, "_batch_stage", counted)
    answers = []
    for limit in (10_000, 25, 1):
        monkeypatch.setattr(overwatch_sight, "STAGE_PAIRS", limit)
        sight_memo.forget()
        batches.clear()
        game = _wide_game()
        answers.append([t.answer() for t in interventions._overwatch_search(game.ctx, "blue")])
        # every candidate pair's first round (the 4 nearest model pairs) staged once; these
        # pairs see each other at once, so nothing more is staged
        assert sum(batches) == 3 * 2 * 4
        assert all(b <= max(limit, 4) for b in batches)  # a larger unit pair's round alone
    assert len(answers[0]) == 6 and answers[0] == answers[1] == answers[2]


def test_the_kept_selections_do_not_keep_an_old_battlefield_alive() -> None:
    # the kept answer names its battlefield weakly: once the Visibility in force is another,
    # the old one (and its caches) can go
    import gc

    game = _game()
    pending(game)
    interventions._overwatch_targets(game.ctx, {"phase": "movement"}, "blue")
    ref = interventions._KEPT[0][0]
    assert ref() is not None
    game.ctx.state.unit("red.r").alive[0].y = 30.0  # a new battlefield
    interventions._overwatch_targets(game.ctx, {"phase": "movement"}, "blue")
    gc.collect()
    assert ref() is None
