"""Actions a mission defines (engine/mission_actions.py): a ``condition: action`` secondary gives
an action (16.01) that the game offers in its phase to the eligible units, and completing it
scores the secondary's VP (docs/missions.md)."""

from __future__ import annotations

import copy
from typing import cast

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import events
from w40k.agents.greedy import GreedyAgent
from w40k.agents.heuristic import HeuristicAgent
from w40k.agents.random_agent import RandomAgent
from w40k.core.jsonval import JSON
from w40k.engine import mission_actions
from w40k.engine.game import Game
from w40k.engine.requests import Request
from w40k.rules.decisions import DECLINE, DecisionKind

RED_ZONE = [[0, 0], [60, 0], [60, 12], [0, 12]]
BLUE_ZONE = [[0, 32], [60, 32], [60, 44], [0, 44]]
BEACON = ["Raise a beacon", {"unit": "red.a"}]


def _area(name: str, x0: float, y0: float, x1: float, y1: float) -> dict[str, JSON]:
    return {"name": name, "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def _secondary(where: str = "terrain_area_outside_own_zone", *, starts: str = "shooting",
               completes: str = "end_of_turn", use_limit: str = "once_per_turn",
               **extra: JSON) -> dict[str, JSON]:
    return {"name": "Raise the beacon", "condition": "action", "vp": 5, **extra,
            "action": {"name": "Raise a beacon", "starts": starts,
                       "units": {"keywords": ["INFANTRY"], "where": where},
                       "use_limit": use_limit, "completes": completes}}


def _position(*units: JSON, step: int = 3, secondary: dict[str, JSON] | None = None,
              enemy: tuple[float, float] = (50.0, 40.0), n_enemy: int = 1) -> dict[str, JSON]:
    """Red's turn from the start of the phase ``step`` (2 movement, 3 shooting), one round;
    blue: ``n_enemy`` models in a row from ``enemy``."""
    gun = sh.weapon("gun")
    reds = list(units) or [sh.unit("red.a", [sh.model("red.a.1", 30, 22, gun)])]
    blue = sh.unit("blue.x", [sh.model(f"blue.x.{i}", enemy[0] + 1.5 * i, enemy[1], gun)
                              for i in range(n_enemy)])
    terrain = {"areas": [_area("home", 5, 2, 15, 10), _area("middle", 25, 18, 35, 26)],
               "terrain": []}
    pos = sh.position(*reds, blue, terrain=terrain)  # type: ignore[arg-type]
    pos["frames"] = [{"kind": "turn", "data": {"player": "red", "step": step, "closed": step}}]
    pos["objectives"] = [{"name": "east", "x": 50.0, "y": 22.0}]
    pos["mission"] = {"rounds": 5, "scoring_from_round": 9,
                      "secondaries": [secondary if secondary is not None else _secondary()],
                      "deployment_zones": [{"player": "red", "polygon": RED_ZONE},
                                           {"player": "blue", "polygon": BLUE_ZONE}]}
    return pos


def _answer(req: Request, start: bool) -> JSON:
    if req.kind is DecisionKind.REACTION:
        return BEACON if start and BEACON in req.options else DECLINE
    if req.kind == "positions":
        return str(req.context.get("decline", "cancel"))
    for stop in ("done", "skip", "fail", "remain_stationary"):
        if stop in req.options:
            return stop
    return req.options[0]


def _play(game: Game, start: bool = True) -> list[Request]:
    asked = []
    while (req := game.pending()) is not None:
        asked.append(req)
        game.submit(_answer(req, start))
    return asked


def _scores(game: Game) -> list[dict[str, JSON]]:
    return [e for e in events(game, "score") if e.get("rule") == "Raise the beacon"]


def test_the_mission_action_is_offered_at_the_start_of_its_phase_and_scores_when_it_completes(
        ) -> None:
    # R16.01-a (starting it in its phase), R16.01-d (the effect at the end of the turn): the
    # secondary's 5 VP, a score event with its name and the unit.
    game = Game.new(_position(), seed=1)
    req = game.pending()
    assert req is not None and req.kind is DecisionKind.REACTION
    assert req.options == (DECLINE, BEACON)
    _play(game)
    assert [e["event"] for e in events(game) if e["event"].startswith("action")] == [
        "action_started", "action_completed"]
    assert [(e["vp"], e["kind"], e["scorer"], e["units"]) for e in _scores(game)] == [
        (5, "secondary", "red", ["red.a"])]
    assert game.state.player("red").vp == 5


def test_a_unit_performing_the_mission_action_is_not_offered_to_shoot() -> None:
    # R16.01-b: red.a started it, red.c did not: only red.c is offered to shoot.
    gun = sh.weapon("gun")
    units = [sh.unit("red.a", [sh.model("red.a.1", 30, 22, gun)]),
             sh.unit("red.c", [sh.model("red.c.1", 40, 22, gun)])]
    game = Game.new(_position(*units, enemy=(40.0, 30.0)), seed=1)
    game.submit(BEACON)
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_shoot"
    assert req.options == ("red.c", "done")


def test_only_units_with_the_keywords_where_the_action_says_are_offered_it() -> None:
    # R16.01-d (unit restrictions enforced), R16.01-a: the mission's UNITS: INFANTRY within
    # a terrain area outside its own zone (red.a); a VEHICLE there (red.v), INFANTRY in no
    # area (red.b), INFANTRY in the area inside its own zone (red.h) are not offered it.
    gun = sh.weapon("gun")
    units = [sh.unit("red.a", [sh.model("red.a.1", 30, 22, gun)]),
             sh.unit("red.v", [sh.model("red.v.1", 27, 20, gun, keywords=("VEHICLE",))]),
             sh.unit("red.b", [sh.model("red.b.1", 45, 22, gun)]),
             sh.unit("red.h", [sh.model("red.h.1", 10, 6, gun)])]
    game = Game.new(_position(*units), seed=1)
    req = game.pending()
    assert req is not None and req.options == (DECLINE, BEACON)


@pytest.mark.parametrize(("where", "x", "y", "eligible"), [
    ("anywhere", 45.0, 14.0, True),
    ("objective", 50.0, 24.5, True),        # within 3" of the 'east' marker
    ("objective", 50.0, 28.0, False),
    ("opponent_zone", 45.0, 32.5, True),    # its base reaches into blue's zone
    ("opponent_zone", 45.0, 30.0, False),
    ("terrain_area_outside_own_zone", 30.0, 22.0, True),
    ("terrain_area_outside_own_zone", 10.0, 6.0, False),
])
def test_each_where_of_the_mission_action(where: str, x: float, y: float,
                                          eligible: bool) -> None:
    # R16.01-d: the mission's UNITS 'where' (docs/missions.md), exact geometry.
    unit = sh.unit("red.a", [sh.model("red.a.1", x, y)])
    game = Game.new(_position(unit, secondary=_secondary(where)), seed=1)
    action = mission_actions.actions(game.ctx)[0]
    assert action.units(game.ctx, game.state.unit("red.a")) is eligible


def test_it_is_not_offered_in_another_phase_and_a_mission_without_it_offers_nothing() -> None:
    # R16.01-d: STARTS is the Shooting phase: nothing is asked at the start of the Movement
    # phase; a mission whose secondaries have no action offers no action at all.
    game = Game.new(_position(step=2), seed=1)
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_move"
    pos = _position()
    pos["mission"]["secondaries"] = [  # type: ignore[index]
        {"name": "Hold", "condition": "each_objective", "vp": 1}]
    game = Game.new(pos, seed=1)
    assert mission_actions.actions(game.ctx) == ()
    asked = _play(game)
    assert all(r.kind is not DecisionKind.REACTION for r in asked)
    assert not events(game, "action_started")


def test_the_battle_cap_and_the_rounds_of_the_secondary_are_respected() -> None:
    # R16.01-d EFFECT within the secondary's battle_cap: 5 VP then 2 of a 7 VP cap, then none;
    # before its from_round it scores nothing.
    game = Game.new(_position(secondary=_secondary(battle_cap=7)), seed=1)
    _play(game)
    assert game.state.player("red").vp == 5
    assert mission_actions.vp_if_completed(game.ctx, "Raise a beacon", "red") == 2
    action = mission_actions.actions(game.ctx)[0]
    action.effect(game.ctx, "red.a")
    action.effect(game.ctx, "red.a")
    assert [e["vp"] for e in _scores(game)] == [5, 2]
    assert game.state.player("red").vp == 7
    game = Game.new(_position(secondary=_secondary(from_round=2)), seed=1)
    _play(game)
    assert events(game, "action_completed") and not _scores(game)


def test_the_use_limit_once_per_turn_and_once_per_battle() -> None:
    # R16.01-d USE LIMIT enforced: once per turn -> a second eligible unit is not offered it
    # after the first started it; once per battle -> not offered after an earlier round's.
    gun = sh.weapon("gun")
    units = [sh.unit("red.a", [sh.model("red.a.1", 30, 22, gun)]),
             sh.unit("red.c", [sh.model("red.c.1", 33, 24, gun)])]
    game = Game.new(_position(*units), seed=1)
    req = game.pending()
    assert req is not None and len(req.options) == 3
    game.submit(BEACON)
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_shoot"
    pos = _position(secondary=_secondary(use_limit="once_per_battle"))
    pos["round"] = 2
    pos["actions"] = [{"name": "Raise a beacon", "unit": "red.a", "player": "red", "round": 1,
                       "turn": "red", "phase": "shooting", "status": "completed"}]
    game = Game.new(pos, seed=1)
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_shoot"


def test_it_completes_at_the_end_of_the_phase_when_the_mission_says_so() -> None:
    # R16.01-d COMPLETES: end_of_phase -> completed at the end of the Shooting phase, before
    # the Charge phase starts.
    game = Game.new(_position(secondary=_secondary(completes="end_of_phase")), seed=1)
    _play(game)
    names = [e["event"] for e in events(game)]
    done = names.index("action_completed")
    assert names.index("score") == done + 1
    charge = [i for i, e in enumerate(events(game))
              if e["event"] == "phase_start" and e.get("phase") == "charge"]
    assert not charge or charge[0] > done
    assert game.state.player("red").vp == 5


def test_a_move_or_battle_shock_fails_the_mission_action() -> None:
    # R16.01-c: started in the Movement phase, the unit then makes a normal move -> failed, no
    # VP. R01.07-d: battle-shocked when it would complete -> failed, no VP.
    game = Game.new(_position(step=2, secondary=_secondary(starts="movement")), seed=1)
    game.submit(BEACON)
    game.submit("red.a")
    game.submit("normal")
    game.submit({"red.a.1": [[30.0, 23.0]]})
    _play(game, start=False)
    assert [e["event"] for e in events(game) if e["event"].startswith("action")] == [
        "action_started", "action_failed"]
    assert not _scores(game)
    game = Game.new(_position(), seed=1)
    game.submit(BEACON)
    game.state.unit("red.a").flags["battle_shocked"] = True
    _play(game)
    assert events(game, "action_failed")[0]["reason"] == "battle-shocked"
    assert not _scores(game) and game.state.player("red").vp == 0


def test_a_game_saved_while_the_action_is_performed_continues_identically() -> None:
    # The mission is in the position: the loaded game derives the same action.
    game = Game.new(_position(), seed=1)
    game.submit(BEACON)
    saved = game.save()
    assert cast(list[JSON], saved["actions"])[0]["status"] == "performing"  # type: ignore[index]
    loaded = Game.load(copy.deepcopy(saved))
    _play(game)
    _play(loaded)
    assert loaded.save() == game.save()
    assert _scores(loaded) and loaded.state.player("red").vp == 5


def _first_reaction(game: Game, agent: object) -> JSON:
    req = game.pending()
    assert req is not None and req.kind is DecisionKind.REACTION
    return cast(JSON, agent.choose(game, req))  # type: ignore[attr-defined]


def test_the_heuristic_and_greedy_players_start_it_with_nothing_to_shoot() -> None:
    # The enemy is out of range of the unit's 24" gun (36" away): both players start the action.
    for agent in (HeuristicAgent(seed=1), GreedyAgent(seed=1)):
        game = Game.new(_position(enemy=(58.0, 43.0)), seed=1)
        assert _first_reaction(game, agent) == BEACON


def test_the_heuristic_shoots_instead_when_the_shooting_is_worth_more() -> None:
    # Ten boltguns 8" from ten 1-wound models: about 7 expected kills, worth more than the
    # action's 5 VP (1 VP ~ 1 wound, agents/heuristic_actions.py): it declines (and shoots).
    gun = sh.weapon("gun")
    unit = sh.unit("red.a", [sh.model(f"red.a.{i}", 27 + 0.7 * (i % 5) * 2, 20 + 2 * (i // 5),
                                      gun) for i in range(10)])
    game = Game.new(_position(unit, enemy=(24.0, 30.0), n_enemy=10), seed=1)
    assert _first_reaction(game, HeuristicAgent(seed=1)) == DECLINE


def test_the_random_player_sometimes_starts_it() -> None:
    # The random player answers the reaction request uniformly: starting it is one answer.
    game = Game.new(_position(), seed=1)
    answers = {str(_first_reaction(game, RandomAgent(seed))) for seed in range(20)}
    assert answers == {str(BEACON), DECLINE}
