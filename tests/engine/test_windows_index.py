"""The windows' index of reactions (issue 10, branch ``windows3``): a window reads only its own
reactions, the index follows a new reaction table, and whether a window opens is decided at the
first usable reaction while the request still lists every usable one (docs/battle.md "Windows":
a usable rule is always offered)."""

from __future__ import annotations

import pytest

from tests.engine.core_helpers import events
from tests.engine.melee_helpers import pending
from tests.engine.test_windows import TEST_REROLL, _declare
from w40k.core.jsonval import JSON
from w40k.engine import windows
from w40k.engine.context import Context
from w40k.engine.windows import Facts, Reaction, Window
from w40k.rules.decisions import DECLINE, DecisionKind


def _counting(name: str, window: Window, answers: list[JSON],
              asked: list[str]) -> Reaction:
    def options(ctx: Context, facts: Facts, player: str) -> list[JSON]:
        asked.append(f"{name}:{player}")
        return list(answers) if player == "red" and facts.get("kind") == "charge" else []

    return Reaction(name, window, "test", options, lambda c, f, p, a: None)


def test_a_window_asks_only_its_own_reactions(monkeypatch: pytest.MonkeyPatch) -> None:
    # A reaction of another window is never asked for its options at an after-roll window.
    asked: list[str] = []
    other = _counting("Other", Window.END_OF_TURN, ["x"], asked)
    monkeypatch.setattr(windows, "REACTIONS", (other, TEST_REROLL))
    game = _declare([1, 1])
    req = pending(game)
    assert req.kind is DecisionKind.REACTION
    assert req.options == (DECLINE, ["Test re-roll", "reroll"])
    assert not [a for a in asked if a.startswith("Other")]


def test_the_index_follows_a_new_reaction_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same window, two tables in turn: each game sees its own table's reactions.
    monkeypatch.setattr(windows, "REACTIONS", (TEST_REROLL,))
    assert pending(_declare([1, 1])).options == (DECLINE, ["Test re-roll", "reroll"])
    monkeypatch.setattr(windows, "REACTIONS", ())
    game = _declare([1, 1])
    assert game.pending() is None  # nothing listed: no window, the charge fails
    assert not any(f.kind == "window" for f in game.state.frames)


def test_the_window_opens_at_the_first_usable_rule_and_the_request_lists_every_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Whether to open is decided at the first usable reaction (the second is not asked then),
    # but the request asks every reaction and offers each usable answer, in table order.
    asked: list[str] = []
    first = _counting("First", Window.AFTER_ROLL, ["a"], asked)
    second = _counting("Second", Window.AFTER_ROLL, ["b", "c"], asked)
    monkeypatch.setattr(windows, "REACTIONS", (first, second))
    game = _declare([1, 1])
    req = pending(game)
    assert (req.kind, req.player) == (DecisionKind.REACTION, "red")
    assert req.options == (DECLINE, ["First", "a"], ["Second", "b"], ["Second", "c"])
    assert asked == ["First:red", "First:red", "Second:red"]  # open, then the request
    game.submit(DECLINE)
    assert not events(game, "reaction")
