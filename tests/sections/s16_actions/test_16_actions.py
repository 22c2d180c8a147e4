"""16.01 actions as a mechanism (engine/actions.py), tested with a test-only action (the
rulebook's 'Deploy Device' is for illustration only): starting, eligibility, use limit,
completion, and what stops one."""

from __future__ import annotations

import dataclasses
from typing import cast

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import events
from tests.engine.melee_helpers import BASE
from w40k.core.jsonval import JSON
from w40k.engine import actions, windows
from w40k.engine.actions import Action, can_start_action, start_reaction
from w40k.engine.game import Game
from w40k.engine.phases.charge import eligible_to_charge
from w40k.engine.reactions_table import TABLE
from w40k.engine.requests import Request
from w40k.engine.windows import Window
from w40k.rules.decisions import DECLINE, DecisionKind

pytestmark = pytest.mark.stratagems


def _effect(game: Game, unit: str) -> None:
    game.state.player(game.state.unit(unit).player).vp += 1
    game.log("test_device", unit=unit)


TEST_ACTION = Action("Test Device", Window.START_OF_PHASE, ("shooting",),
                     (Window.END_OF_TURN, ""), _effect, per_turn=1, rule="test")
"""A test-only action: starts at the start of your Shooting phase, once per turn, completes at
the end of the turn, scores 1 VP."""


def _play_with(monkeypatch: pytest.MonkeyPatch, action: Action) -> None:
    monkeypatch.setattr(actions, "ACTIONS", (action,))
    monkeypatch.setattr(windows, "REACTIONS", (*TABLE, start_reaction(action)))


def _position(step: int = 3, *, flags: dict[str, bool] | None = None,
              enemy_y: float = 30.0, n: int = 1) -> dict[str, JSON]:
    gun = sh.weapon("gun")
    reds = [sh.unit(f"red.a{i}", [sh.model(f"red.a{i}.1", 10 + 10 * i, 10, gun)], flags=flags)
            for i in range(n)]
    blue = sh.unit("blue.x", [sh.model("blue.x.1", 10, enemy_y, gun)])
    pos = sh.position(*reds, blue)
    pos["frames"] = [{"kind": "turn", "data": {"player": "red", "step": step, "closed": step}}]
    pos["mission"] = {"rounds": 5, "scoring_from_round": 9}
    return pos


def _answer(game: Game, req: Request, start: str | None) -> JSON:
    if req.kind is DecisionKind.REACTION:
        want = ["Test Device", {"unit": start}]
        return want if want in req.options else DECLINE
    if req.kind == "positions":
        return str(req.context.get("decline", "cancel"))
    for stop in ("done", "skip", "fail", "remain_stationary"):
        if stop in req.options:
            return stop
    return req.options[0]


def _turn(game: Game, start: str | None = "red.a0") -> list[Request]:
    asked = []
    while (req := game.pending()) is not None:
        asked.append(req)
        game.submit(_answer(game, req, start))
    return asked


def test_a_unit_starts_an_action_and_it_completes_at_the_end_of_the_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R16.01-d: the effect triggers when the action completes (end of the turn).
    _play_with(monkeypatch, TEST_ACTION)
    game = Game.new(_position(), seed=1)
    req = game.pending()
    assert req is not None and ["Test Device", {"unit": "red.a0"}] in req.options
    _turn(game)
    assert [e["event"] for e in events(game) if e["event"].startswith("action")] == [
        "action_started", "action_completed"]
    assert events(game, "test_device")[0]["unit"] == "red.a0"
    assert game.state.player("red").vp == 1


def test_a_unit_performing_an_action_cannot_shoot_or_declare_a_charge(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R16.01-b: not eligible to shoot (the shoot loop does not offer it) nor to charge.
    _play_with(monkeypatch, TEST_ACTION)
    game = Game.new(_position(enemy_y=18.0, n=2), seed=1)
    game.submit(["Test Device", {"unit": "red.a0"}])
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_shoot"
    assert req.options == ("red.a1", "done")
    assert not eligible_to_charge(game, game.state.unit("red.a0"))


def test_the_use_limit_once_per_turn_is_enforced(monkeypatch: pytest.MonkeyPatch) -> None:
    # R16.01-d: once per turn -> a second unit is not offered it after the first started.
    _play_with(monkeypatch, TEST_ACTION)
    game = Game.new(_position(n=2), seed=1)
    req = game.pending()
    assert req is not None and len(req.options) == 3  # decline, red.a0, red.a1
    game.submit(["Test Device", {"unit": "red.a0"}])
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_shoot"


def test_a_move_other_than_pile_in_or_consolidation_fails_the_action(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R16.01-c: an action started at the start of the Movement phase; the unit then makes a
    # normal move -> it does not complete.
    early = dataclasses.replace(TEST_ACTION, phases=("movement",))
    _play_with(monkeypatch, early)
    game = Game.new(_position(step=2), seed=1)
    game.submit(["Test Device", {"unit": "red.a0"}])
    assert game.pending() is not None and game.pending().kind == "select_unit_to_move"
    game.submit("red.a0")
    game.submit("normal")
    game.submit({"red.a0.1": [[10.0, 12.0]]})
    _turn(game, start=None)
    assert [e["event"] for e in events(game) if e["event"].startswith("action")] == [
        "action_started", "action_failed"]
    assert game.state.player("red").vp == 0


def test_an_action_of_a_battle_shocked_unit_does_not_complete(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R01.07-d: battle-shocked when it would complete -> no effect.
    _play_with(monkeypatch, TEST_ACTION)
    game = Game.new(_position(), seed=1)
    game.submit(["Test Device", {"unit": "red.a0"}])
    game.state.unit("red.a0").flags["battle_shocked"] = True
    _turn(game)
    assert events(game, "action_failed")[0]["reason"] == "battle-shocked"
    assert game.state.player("red").vp == 0


@pytest.mark.parametrize("flags", [{"battle_shocked": True}, {"advanced": True},
                                   {"fell_back": True}, {"selected_to_shoot": True}])
def test_each_condition_makes_a_unit_ineligible_to_start_an_action(
        flags: dict[str, bool]) -> None:
    # R16.01-a (battle-shocked: R01.07-d; advanced or fell back this turn), R16.01-e (selected
    # to shoot this phase, RF-1).
    game = Game.new(_position(flags=flags), seed=1)  # red's Shooting phase (not run)
    assert not can_start_action(game, game.state.unit("red.a0"))
    assert can_start_action(game, game.state.unit("blue.x"))


def test_engaged_aircraft_oc_0_and_a_second_action_make_a_unit_ineligible(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R16.01-a: engaged (not TITANIC), AIRCRAFT, OC 0, already started an action this turn.
    game = Game.new(_position(enemy_y=10 + BASE + 0.5), seed=1)
    u = game.state.unit("red.a0")
    assert not can_start_action(game, u)  # engaged
    game = Game.new(_position(), seed=1)
    u = game.state.unit("red.a0")
    assert can_start_action(game, u)
    m = u.models[0]
    m.profile = dataclasses.replace(m.profile, OC=0)
    assert not can_start_action(game, u)
    m.profile = dataclasses.replace(m.profile, OC=1, keywords=(*m.profile.keywords, "AIRCRAFT"))
    assert not can_start_action(game, u)
    _play_with(monkeypatch, TEST_ACTION)
    game = Game.new(_position(), seed=1)
    game.submit(["Test Device", {"unit": "red.a0"}])
    assert not can_start_action(game, game.state.unit("red.a0"))
    assert cast(list[JSON], game.save()["actions"])[0] == {
        "name": "Test Device", "unit": "red.a0", "player": "red", "round": 1, "turn": "red",
        "phase": "shooting", "status": "performing"}
