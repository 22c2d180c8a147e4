"""The disembark set-up search is kept per state (issue 13, speed): the heuristic player's
"can it be set up" question, the engine's mode fixing (R18.04-b) and the proposer share one
search while no model is placed, and give the same answer as a fresh search. Exact geometry
(the Rhino and squad of test_18_04_disembark_placement)."""

from __future__ import annotations

import random

import pytest

from tests.engine.movement_helpers import far_enemy
from tests.sections.s18_transports.test_18_04_disembark_placement import X, Y, _squad
from tests.sections.s18_transports.test_18_20_23_offtable import at_round, rhino, until
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.phases import set_up
from w40k.engine.phases.set_up import SetUpKind, disembark_placement
from w40k.engine.serial import JSON
from w40k.geometry import Model
from w40k.rules.transport import DisembarkMode


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    calls: list[tuple[str, str | None]] = []
    fresh = set_up._fresh_search

    def counting(ctx: object, u: object, kind: SetUpKind, mode: DisembarkMode | None,
                 *args: object) -> list[Model] | None:
        calls.append((str(kind), None if mode is None else str(mode)))
        return fresh(ctx, u, kind, mode, *args)  # type: ignore[arg-type]
    monkeypatch.setattr(set_up, "_fresh_search", counting)
    set_up.forget_searches()
    return calls


def _game() -> Game:
    return Game.new(at_round(1, rhino("red.rhino", "red", X, Y), _squad(10), far_enemy()),
                    seed=1)


def test_the_player_the_mode_and_the_proposer_share_one_disembark_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R18.04-b: the Rhino has not moved and the squad fits within 3" -> Tactical; the
    # heuristic's question, the mode fixing and the proposer search that state once
    calls = _counted(monkeypatch)
    game = _game()
    until(game, "select_unit_to_move")
    game.submit("red.sq")
    u = game.state.any_unit("red.sq")
    asked = disembark_placement(game.ctx, u)
    assert asked is not None
    assert calls == [("disembark", "tactical")]
    game.submit("disembark")
    req = game.pending()
    assert req is not None and req.kind == "set_up" and req.context["mode"] == "tactical"
    answer = sample(game, req, random.Random(1))
    assert calls == [("disembark", "tactical")]  # the mode and the proposer: kept
    assert answer == {m.id: [p.x, p.y] for m, p in zip(u.alive, asked, strict=True)}
    set_up.forget_searches()  # a fresh search of the same state gives the same answer
    assert sample(game, req, random.Random(7)) == answer
    assert len(calls) == 2


def test_a_kept_search_is_dropped_when_a_model_is_placed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the kept answer is valid only while no model of the game moves (engine/state.py's
    # placement count, as engine/field.py keeps the battlefield)
    calls = _counted(monkeypatch)
    game = _game()
    until(game, "select_unit_to_move")
    u = game.state.any_unit("red.sq")
    first = disembark_placement(game.ctx, u)
    assert disembark_placement(game.ctx, u) == first and len(calls) == 1
    hull = game.state.unit("red.rhino").alive[0]
    hull.x = hull.x + 10.0
    moved = disembark_placement(game.ctx, u)
    assert len(calls) == 2
    assert moved is not None and first is not None
    assert all(abs(b.x - a.x - 10.0) < 1e-9 for a, b in zip(first, moved, strict=True))


def test_an_ingress_proposal_with_dice_is_searched_each_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the ingress proposer shuffles its anchors with the player's generator: never kept
    calls = _counted(monkeypatch)
    game = _game()
    u = game.state.any_unit("red.sq")
    answers: list[JSON] = []
    for seed in (1, 1):
        placed = set_up._search(game.ctx, u, SetUpKind.INGRESS, None, random.Random(seed))
        answers.append(None if placed is None else [[m.x, m.y] for m in placed])
    assert calls == [("ingress", None), ("ingress", None)]
    assert answers[0] == answers[1]
