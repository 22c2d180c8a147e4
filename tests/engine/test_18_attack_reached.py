"""An answered attack decision's next decision is not reached twice (issue 10, pass atk18):
the answer's ``advance`` reaches the next decision (05.04 / 06.02 Select Model after a failed
save, 05.03 allocation order, 24.23 [LETHAL HITS] ...), and the frame's next run reads that
state and request instead of advancing its stored state again. They must be what advancing
again gives (the same state and request, no die drawn), and the games must be the same."""

from __future__ import annotations

from typing import Any, cast

import pytest

from tests.engine.core_helpers import greedy_record
from w40k.engine import attack
from w40k.engine.game import Game
from w40k.rules.attack_machine import advance

pytestmark = pytest.mark.stratagems  # the games of the benchmark, reactions included



def test_the_kept_decision_is_what_advancing_the_stored_state_again_gives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """05.04 / 06.02 / 05.03: every kept (state, decision) read by a frame's run equals a
    fresh ``advance`` of that frame's stored state, which draws no die."""
    used = 0
    plain_reached = attack._reached
    games: list[Game] = []

    def checked(frame: attack.AttackFrame) -> Any:
        nonlocal used
        kept = plain_reached(frame)
        if kept is not None:
            used += 1
            dice = games[-1].ctx.dice
            drawn = dice.drawn
            again = advance(attack.frame_state(frame), attack.frame_request(frame), dice)
            assert dice.drawn == drawn
            assert again == kept
        return kept

    monkeypatch.setattr(attack, "_reached", checked)
    real_new = Game.new

    def new(*args: Any, **kwargs: Any) -> Game:
        games.append(real_new(*args, **kwargs))
        return games[-1]

    monkeypatch.setattr(Game, "new", staticmethod(new))
    for scale, seed in ((1, 0), (1, 1), (2, 0)):
        greedy_record(scale, seed)
    assert used > 10


def test_games_with_and_without_the_kept_decision_are_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The records (events, dice, choices) are the same when every run advances afresh."""
    fast = [greedy_record(1, seed) for seed in (0, 2)]
    monkeypatch.setattr(attack, "_reached", lambda frame: None)
    assert [greedy_record(1, seed) for seed in (0, 2)] == fast


def test_a_kept_decision_is_read_only_by_its_own_frame() -> None:
    """Another frame (a re-rolled die's new frame, a loaded game's) finds nothing kept, and
    the entry is forgotten once read."""
    frame = attack.AttackFrame("a", "b", False, [], {})
    other = attack.AttackFrame("a", "b", False, [], {})
    attack._REACHED[:] = [(frame, cast(Any, "state"), cast(Any, "decision"))]
    assert attack._reached(other) is None and not attack._REACHED
    attack._REACHED[:] = [(frame, cast(Any, "state"), cast(Any, "decision"))]
    assert attack._reached(frame) == ("state", "decision")
    assert attack._reached(frame) is None
