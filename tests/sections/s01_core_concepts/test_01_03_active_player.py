"""01.03 Active and opposing player, and the one decision boundary's player/id checks."""

from __future__ import annotations

import pytest

from tests.engine.melee_helpers import BASE, fight_phase, fighter, pending, unit
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game
from w40k.rules.decisions import DecisionKind, DecisionRequest


def _units() -> list[dict[str, object]]:
    return [unit("red.a", "red", [fighter("red.a.1", 10, 10), fighter("red.a.2", 11.5, 10)]),
            unit("blue.b", "blue", [fighter("blue.b.1", 10, 10 + BASE)])]


def test_the_opponent_is_active_while_its_unit_piles_in_and_the_turn_player_after() -> None:
    # R01.03-c: in red's Fight phase blue selects blue.b to pile in: blue is active while the
    # move is pending, and red is active again once it has ended.
    game = Game.new(fight_phase(_units()), seed=1)  # type: ignore[arg-type]
    game.submit("done")  # red: no pile-in
    req = pending(game)
    assert (req.kind, req.player) == ("select_unit_to_pile_in", "blue")
    game.submit("blue.b")
    req = pending(game)
    assert (req.kind, req.player) == ("positions", "blue")
    assert game.state.active == "blue"
    game.submit("skip")
    pending(game)
    assert game.state.active == "red"


def test_pending_requests_are_the_one_decision_request_type_numbered_and_addressed() -> None:
    game = Game.new(fight_phase(_units()), seed=1)  # type: ignore[arg-type]
    req = pending(game)
    assert isinstance(req, DecisionRequest) and req.kind is DecisionKind.SELECT_UNIT_TO_PILE_IN
    assert req.id == 1 and req.player == "red"
    game.submit("done", player="red", request_id=1)
    assert pending(game).id == 2


def test_an_answer_from_the_wrong_player_or_to_a_stale_request_is_refused_citing_01_03() -> None:
    # R01.03-a: only the player the request names may answer it, and only while it is pending.
    game = Game.new(fight_phase(_units()), seed=1)  # type: ignore[arg-type]
    pending(game)
    before = game.save()
    with pytest.raises(IllegalChoice) as exc:
        game.submit("done", player="blue")
    assert exc.value.rule == "R01.03-a" and game.save() == before
    with pytest.raises(IllegalChoice) as exc:
        game.submit("done", request_id=7)
    assert exc.value.rule == "R01.03-a" and game.save() == before
    game.submit("done", player="red", request_id=1)
    with pytest.raises(IllegalChoice):
        game.submit("done", request_id=1)  # answered already
