"""Reaction windows (issue 9 item 5): named moments at which a listed rule may be used outside
the player's own sequence. Tested with test-only rules (the stratagems land on top of this)."""

from __future__ import annotations

import dataclasses
import json
from typing import cast

import pytest

from tests.engine.core_helpers import events, scripted
from tests.engine.melee_helpers import BASE, charge_phase, fighter, pending, unit
from w40k.core.jsonval import JSON
from w40k.engine import windows
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.phases.charge import ChargeUnitFrame
from w40k.engine.windows import Facts, Reaction, Window
from w40k.rules.decisions import DECLINE, DecisionKind


def _units() -> list[dict[str, JSON]]:
    return [unit("red.a", "red", [fighter("red.a.1", 10, 10)]),
            unit("blue.b", "blue", [fighter("blue.b.1", 10, 10 + BASE + 6.0)])]


def _charge_frame(game: Game | Context) -> dict[str, JSON]:
    return next(f.data for f in reversed(game.state.frames) if f.kind == "charge_unit")


def _reroll_options(ctx: Context, facts: Facts, player: str) -> list[JSON]:
    # usable by the charging unit's player on a charge roll below 12, once
    if facts.get("kind") != "charge":
        return []
    u = ctx.state.unit(str(facts["unit"]))
    d = _charge_frame(ctx)
    rerolled = any(e["event"] == "reaction" for e in ctx.state.events)
    if u.player != player or rerolled or int(cast(int, d["roll"])) >= 12:
        return []
    return ["reroll"]


def _reroll(ctx: Context, facts: Facts, player: str, answer: JSON) -> None:
    # Frames are frozen: a reaction changes the frame below the window by replacing it.
    frame = ctx.need(ChargeUnitFrame)
    dice = [r.unmodified for r in ctx.roll("charge", 2, unit=str(facts["unit"]))]
    ctx.replace(frame, dataclasses.replace(frame, dice=tuple(dice), roll=sum(dice)))


TEST_REROLL = Reaction("Test re-roll", Window.AFTER_ROLL, "test", _reroll_options, _reroll)
NEVER = Reaction("Never", Window.UNIT_SELECTED, "test", lambda g, f, p: [],
                 lambda g, f, p, a: None)


def _declare(dice: list[int]) -> Game:
    game = scripted(Game.new(charge_phase(_units()), seed=1), dice)  # type: ignore[arg-type]
    assert pending(game).kind == "select_unit_to_charge"
    game.submit("red.a")
    return game


def test_a_usable_rule_is_offered_after_the_roll_before_it_is_used_and_changes_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # After the charge roll (1+1, short of the 6" gap) red may use the test rule: it
    # re-rolls the charge (6+5) before the targets are chosen, so the charge can be made.
    monkeypatch.setattr(windows, "REACTIONS", (TEST_REROLL,))
    game = _declare([1, 1, 6, 5])
    req = pending(game)
    assert (req.kind, req.player) == (DecisionKind.REACTION, "red")
    assert req.options == (DECLINE, ["Test re-roll", "reroll"])
    assert req.context["window"] == "after_roll"
    game.submit(["Test re-roll", "reroll"], player="red", request_id=req.id)
    assert pending(game).kind == "charge_targets"  # 11 reaches blue.b; blue was not asked
    assert [e["rule"] for e in events(game, "reaction")] == ["Test re-roll"]
    assert _charge_frame(game)["roll"] == 11


def test_declining_leaves_the_roll_as_rolled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(windows, "REACTIONS", (TEST_REROLL,))
    game = _declare([1, 1])
    game.submit(DECLINE)
    assert game.pending() is None  # 2 does not reach: the charge fails, the phase ends
    assert not events(game, "reaction")
    assert any(e["event"] == "charge_failed" for e in events(game))


def test_a_window_with_nothing_usable_asks_nothing_and_changes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _declare([1, 1])
    while (r := plain.pending()) is not None:
        plain.submit(r.options[0] if r.options else "fail")
    monkeypatch.setattr(windows, "REACTIONS", (NEVER, TEST_REROLL))
    game = _declare([6, 6])  # 12: the test rule is not usable either
    while (r := game.pending()) is not None:
        assert r.kind is not DecisionKind.REACTION
        game.submit(r.options[0] if r.options else "fail")
    assert not any(f.kind == "window" for f in game.state.frames)
    assert all(e["event"] != "reaction" for e in game.state.events)


def test_an_enemy_unit_selected_opens_a_window_for_the_opponent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The window asks the active player first, then the opponent: here only blue can react.
    def blue_only(game: Game, facts: Facts, player: str) -> list[JSON]:
        return ["watch"] if player == "blue" and facts.get("action") == "charge" else []

    seen: list[Facts] = []
    watch = Reaction("Watch", Window.UNIT_SELECTED, "test", blue_only,
                     lambda g, f, p, a: seen.append(f))
    monkeypatch.setattr(windows, "REACTIONS", (watch,))
    game = _declare([3, 3])
    req = pending(game)
    assert (req.kind, req.player) == (DecisionKind.REACTION, "blue")
    game.submit(["Watch", "watch"], player="blue")
    assert seen == [{"unit": "red.a", "action": "charge"}]
    req = pending(game)  # asked again: the rule is still usable, blue declines
    assert req.kind is DecisionKind.REACTION
    game.submit(DECLINE)
    assert pending(game).kind == "charge_targets"


def test_a_game_saved_in_a_window_with_sorted_keys_continues_identically(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(windows, "REACTIONS", (TEST_REROLL,))
    game = _declare([1, 1, 6, 5])
    req = pending(game)
    twin = Game.load(json.loads(json.dumps(game.save(), sort_keys=True)))
    assert twin.pending() == req
    for g in (game, twin):
        g.submit(["Test re-roll", "reroll"])
        while (r := g.pending()) is not None:
            g.submit(r.options[0] if r.options else "fail")
    assert twin.save() == game.save()
