"""Mission rules in the engine (engine/scoring.py, docs/missions.md): who takes the first turn
(07.02: fixed or by roll-off), and each primary and secondary scoring condition with exact
positions: objectives held (14.02 control), holding more, objectives in the opponent's
deployment zone, units wholly within it, enemy units destroyed this turn, at the end of the
turn, of the Command phase or of the battle round, with per-check, per-rule and primary caps."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.core_helpers import (
    bare_phases,
    events,
    marker,
    model,
    position,
    scripted,
    unit,
)
from w40k.engine.game import Game
from w40k.engine.units import destroy
from w40k.io.position_model import validate_position

RED_ZONE = [[0, 0], [60, 0], [60, 8], [0, 8]]
BLUE_ZONE = [[0, 36], [60, 36], [60, 44], [0, 44]]
ZONES = [{"player": "red", "polygon": RED_ZONE}, {"player": "blue", "polygon": BLUE_ZONE}]


def rule(name: str, condition: str, vp: int, **kw: Any) -> dict[str, Any]:
    return {"name": name, "condition": condition, "vp": vp, **kw}


def mission(*rules: dict[str, Any], secondaries: tuple[dict[str, Any], ...] = (),
            cap: int | None = None, **kw: Any) -> dict[str, Any]:
    out = {"deployment_zones": ZONES, "secondaries": list(secondaries), "scoring_from_round": 1,
           **kw}
    if rules:
        out["primary"] = {"name": "test primary", "rules": list(rules)}
        if cap is not None:
            out["primary"]["cap"] = cap
    return out


def play(monkeypatch: pytest.MonkeyPatch, units: list[dict[str, Any]], m: dict[str, Any], *,
         objectives: list[dict[str, Any]] | None = None, rounds: int = 3, faces: list[int] = (),
         hook: Any = None) -> Game:
    """A whole battle in which nobody acts (``hook`` runs in each action phase)."""
    bare_phases(monkeypatch, hook)
    pos = position(units, objectives=objectives or [], rounds=rounds, mission=m)
    validate_position(pos, "test")
    game = scripted(Game.new(pos, 1), faces)
    assert game.pending() is None
    return game


def scores(game: Game) -> list[tuple[int, str, str, str, int]]:
    return [(e["round"], e["phase"], e["scorer"], e["rule"], e["vp"])
            for e in events(game, "score")]


def on(name: str, x: float, y: float, player: str, n: int = 1) -> dict[str, Any]:
    """A unit of ``n`` models in a row from (x, y)."""
    return unit(name, player, [model(f"{name}.{i + 1}", x + 1.3 * i, y) for i in range(n)])


# -- 07.02 first turn ------------------------------------------------------------------------
def test_a_roll_off_puts_its_winner_first_in_every_battle_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R07.02-a: the mission decides the first player; here by roll-off (red rolls 2, blue 5).
    game = play(monkeypatch, [on("red.a", 10, 4, "red")], {"first_turn": "roll-off"},
                faces=[2, 5])
    assert [e["first"] for e in events(game, "first_turn")] == ["blue"]
    turns = [(e["round"], e["player"]) for e in events(game, "turn_start")]
    assert turns == [(r, p) for r in (1, 2, 3) for p in ("blue", "red")]


def test_a_tied_roll_off_is_rolled_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # R07.02-a with the roll-off reading of docs/missions.md: ties are re-rolled.
    game = play(monkeypatch, [on("red.a", 10, 4, "red")], {"first_turn": "roll-off"},
                faces=[4, 4, 6, 1])
    rolls = [e["faces"] for e in events(game, "roll") if e["kind"] == "roll_off"]
    assert rolls == [[4, 4], [6, 1]]
    assert game.state.players[0].name == "red"
    assert [e["player"] for e in events(game, "turn_start")][:2] == ["red", "blue"]


def test_a_mission_can_name_the_first_player_without_dice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R07.02-a: 'the mission you are playing will tell you which player this is'.
    game = play(monkeypatch, [on("red.a", 10, 4, "red")],
                {"deployment_zones": ZONES, "first_turn": "blue"}, rounds=2)
    assert [e["decided_by"] for e in events(game, "first_turn")] == ["mission"]
    assert [e["player"] for e in events(game, "turn_start")] == ["blue", "red"] * 2


# -- primary conditions ------------------------------------------------------------------------
def test_each_objective_held_scores_in_the_command_phase_up_to_the_cap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R14.02-b/c: red's models are within 3" of two markers; control is set at the end of
    # red's first Command phase, so red scores from round 2 at the end of its Command phase:
    # 2 x 4 VP, capped at 6.
    m = mission(rule("hold", "each_objective", 4, when="command_phase", from_round=2, cap=6))
    game = play(monkeypatch, [on("red.a", 20, 21, "red", 2)], m,
                objectives=[marker("a", 20, 22), marker("b", 21.3, 22)])
    assert scores(game) == [(2, "command", "red", "hold", 6), (3, "command", "red", "hold", 6)]
    assert game.state.player("red").vp == 12


def test_each_objective_can_count_only_named_objectives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R14.02-c: red controls both markers; only 'a' counts for this rule.
    m = mission(rule("a only", "each_objective", 3, objectives=["a"]))
    game = play(monkeypatch, [on("red.a", 20, 21, "red", 2)], m, rounds=1,
                objectives=[marker("a", 20, 22), marker("b", 21.3, 22)])
    assert [e["objectives"] for e in events(game, "score")] == [["a"]]


def test_holding_more_objectives_than_the_opponent_scores_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R14.02-c: red controls a and b, blue controls c (2 > 1): red scores 5 at the end of its
    # turn, blue nothing.
    m = mission(rule("more", "more_objectives", 5))
    units = [on("red.a", 10, 21, "red"), on("red.b", 30, 21, "red"), on("blue.a", 50, 23, "blue")]
    game = play(monkeypatch, units, m, rounds=1,
                objectives=[marker("a", 10, 22), marker("b", 30, 22), marker("c", 50, 22)])
    assert scores(game) == [(1, "end_of_turn", "red", "more", 5)]


def test_equal_objectives_held_score_nothing_for_more(monkeypatch: pytest.MonkeyPatch) -> None:
    m = mission(rule("more", "more_objectives", 5))
    units = [on("red.a", 10, 21, "red"), on("blue.a", 50, 23, "blue")]
    game = play(monkeypatch, units, m, rounds=1,
                objectives=[marker("a", 10, 22), marker("c", 50, 22)])
    assert scores(game) == []


def test_objectives_held_in_the_opponents_deployment_zone_score(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Red holds the marker at (30, 40), inside blue's zone (y 36-44), and the one at (30, 22),
    # outside it: only the first counts.
    m = mission(rule("push", "opponent_zone_objectives", 4))
    units = [on("red.a", 30, 39, "red"), on("red.b", 30, 21, "red")]
    game = play(monkeypatch, units, m, rounds=1,
                objectives=[marker("deep", 30, 40), marker("mid", 30, 22)])
    assert [(e["objectives"], e["vp"]) for e in events(game, "score")] == [(["deep"], 4)]


def test_a_terrain_objective_is_in_a_zone_by_its_areas_centroid(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R14.01-a: a terrain objective is an area; red's model within it controls it; the area's
    # centroid (30, 39) is in blue's zone.
    terrain = {"areas": [{"name": "deep ruin", "footprint": [[26, 37], [34, 37], [34, 41],
                                                             [26, 41]]}], "terrain": []}
    m = mission(rule("push", "opponent_zone_objectives", 4))
    bare_phases(monkeypatch)
    pos = position([on("red.a", 30, 39, "red")], rounds=1, mission=m, terrain=terrain,
                   objectives=[{"name": "deep", "x": 0.0, "y": 0.0, "area": "deep ruin"}])
    game = Game.new(pos, 1)
    assert game.pending() is None
    assert [e["objectives"] for e in events(game, "score")] == [["deep"]]


# -- secondaries -------------------------------------------------------------------------------
def test_units_wholly_within_the_opponents_zone_score_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 'Wholly within' (01.04 reading of the zone): red.a's bases are inside blue's zone; red.b's
    # base centre is at 36.3, so its 32 mm base (0.63" radius) crosses the zone edge at 36.
    m = mission(secondaries=(rule("deep strike", "units_in_opponent_zone", 3),))
    units = [on("red.a", 10, 40, "red", 3), on("red.b", 30, 36.3, "red")]
    game = play(monkeypatch, units, m, rounds=1)
    assert [(e["units"], e["vp"], e["kind"]) for e in events(game, "score")] == [
        (["red.a"], 3, "secondary")]


def test_enemy_units_destroyed_during_the_turn_score_at_its_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Blue's unit is destroyed in red's Shooting phase of round 1: red scores 3 at the end of
    # that turn, and nothing for it in round 2.
    def hook(game: Game, phase: str) -> None:
        s = game.state
        if (s.round, s.turn_player, phase) == (1, "red", "shooting"):
            u = s.unit("blue.a")
            for m in list(u.alive):
                destroy(game, u, m, cause="test", triggers=False)

    m = mission(secondaries=(rule("cull", "enemy_units_destroyed", 3),))
    units = [on("red.a", 10, 4, "red"), on("blue.a", 10, 40, "blue", 2)]
    game = play(monkeypatch, units, m, rounds=2, hook=hook)
    assert scores(game) == [(1, "end_of_turn", "red", "cull", 3)]
    assert [e["units"] for e in events(game, "score")] == [["blue.a"]]


def test_end_of_round_rules_score_for_both_players_after_both_turns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R07.03-a: mission rules at the end of the battle round; red holds the centre, blue holds
    # its own marker; the 'centre' rule counts only the centre.
    m = mission(secondaries=(rule("centre", "each_objective", 2, objectives=["centre"],
                                  when="end_of_round", from_round=2),))
    units = [on("red.a", 30, 21, "red"), on("blue.a", 10, 39, "blue")]
    game = play(monkeypatch, units, m, rounds=2,
                objectives=[marker("centre", 30, 22), marker("home", 10, 40)])
    assert scores(game) == [(2, "", "red", "centre", 2)]
    kinds = [e["event"] for e in game.state.events if e["event"] in
             ("turn_end", "score", "round_end")]
    assert kinds[-4:] == ["turn_end", "turn_end", "score", "round_end"]


def test_battle_caps_limit_a_rule_and_the_primary(monkeypatch: pytest.MonkeyPatch) -> None:
    # 'hold' gives 5 a turn but at most 12 in the battle; the primary gives at most 15 in all,
    # so 'more' (2 a turn) is cut to what is left.
    m = mission(rule("hold", "each_objective", 5, battle_cap=12),
                rule("more", "more_objectives", 2), cap=15)
    game = play(monkeypatch, [on("red.a", 30, 21, "red")], m, rounds=4,
                objectives=[marker("centre", 30, 22)])
    assert [(r, rule_, vp) for r, _, _, rule_, vp in scores(game)] == [
        (1, "hold", 5), (1, "more", 2), (2, "hold", 5), (2, "more", 2), (3, "hold", 1)]
    assert game.state.player("red").vp == 15


def test_a_rule_scores_only_between_its_first_and_last_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    m = mission(rule("hold", "each_objective", 1, from_round=2, until_round=3))
    game = play(monkeypatch, [on("red.a", 30, 21, "red")], m, rounds=4,
                objectives=[marker("centre", 30, 22)])
    assert [r for r, *_ in scores(game)] == [2, 3]


def test_an_action_secondary_scores_nothing_at_the_end_of_a_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # An action secondary scores only when its action completes (R16.01-d,
    # tests/sections/s16_actions/test_16_01_mission_actions.py), never at a scoring check:
    # here no unit is within a terrain area, so nobody can start it.
    action = {"name": "Raise a beacon", "starts": "shooting",
              "units": {"keywords": ["INFANTRY"], "where": "terrain_area_outside_own_zone"}}
    m = mission(secondaries=(rule("beacon", "action", 5, action=action),))
    game = play(monkeypatch, [on("red.a", 30, 21, "red")], m, rounds=1)
    assert scores(game) == []
    assert not events(game, "action_started")


def test_a_mission_without_primary_scores_take_and_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/battle.md: the legacy take-and-hold keys keep their meaning and their event.
    game = play(monkeypatch, [on("red.a", 30, 21, "red")], {}, rounds=2,
                objectives=[marker("centre", 30, 22)])
    assert [(e["round"], e["vp"], e["objectives"]) for e in events(game, "score")] == [
        (2, 5, ["centre"])]
    assert "rule" not in events(game, "score")[0]


def test_the_kept_vp_totals_follow_new_events_and_a_restore(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The battle caps read the VP scored so far (engine/scoring.py _totals, kept between calls
    # and summing only the events appended since): after new score events, after a restore
    # cuts the log back and other events are appended, and for a copied log, the totals are
    # those of a fresh pass over the events.
    from w40k.engine import scoring
    m = mission(rule("hold", "each_objective", 5, battle_cap=12),
                rule("more", "more_objectives", 2), cap=15)
    game = play(monkeypatch, [on("red.a", 30, 21, "red")], m, rounds=4,
                objectives=[marker("centre", 30, 22)])
    s = game.state

    def fresh() -> dict[tuple[str, str], int]:
        scoring._TOTALS.clear()
        return scoring._totals(game.ctx)

    assert scoring._totals(game.ctx) == fresh() == {
        ("red", "hold"): 11, ("red", "kind:primary"): 15, ("red", "more"): 4}
    kept = scoring._totals(game.ctx)
    kept[("red", "hold")] = 99  # the caller's own dict
    assert scoring._totals(game.ctx)[("red", "hold")] == 11
    cp = s.checkpoint()
    game.ctx.log("score", vp=3, rule="more", kind="primary", scorer="red", total=0)
    assert scoring._totals(game.ctx) == fresh()
    assert scoring._totals(game.ctx)[("red", "more")] == 7
    s.restore(cp)  # cut back: the new event is gone
    game.ctx.log("score", vp=1, rule="hold", kind="primary", scorer="blue", total=0)
    assert scoring._totals(game.ctx)[("red", "more")] == 4
    assert scoring._totals(game.ctx) == fresh()
    s.events = list(s.events[:-1])  # another list (a loaded game's)
    assert scoring._totals(game.ctx) == fresh() == {
        ("red", "hold"): 11, ("red", "kind:primary"): 15, ("red", "more"): 4}
