"""The pre-battle sequence in a game (03.02 Set Up, rules_map 2.0): deployment wholly within
the own zone, players alternating from the mission's ``deploys_first``, refused placements
leaving the game untouched, and the first-turn roll-off the mission asks for, with exact
positions and scripted dice."""

from __future__ import annotations

import json

import pytest

from tests.engine.core_helpers import events, scripted
from tests.engine.deploy_helpers import (
    NO_RESERVES,
    deploy,
    line_at,
    pre_battle,
    squad,
    until,
)
from w40k.core.errors import DataError, IllegalChoice, MalformedChoice
from w40k.engine.game import Game
from w40k.engine.offtable import UNDEPLOYED
from w40k.geometry import mm

R = mm(32) / 2


def _at_deploy(pos: dict) -> Game:
    game = Game.new(pos, seed=1)
    until(game, "deploy", lambda r: NO_RESERVES if r.kind == "declare_formations" else None)
    return game


def test_every_unit_waits_off_the_table_until_it_is_deployed():
    # R03.02-a: before deployment no unit is on the battlefield.
    game = Game.new(pre_battle(squad("red.a", "red", 2), squad("blue.a", "blue")), seed=1)
    req = game.pending()
    assert req is not None and req.kind == "declare_formations" and req.player == "red"
    assert game.state.units == []
    assert {u.location for u in game.state.off_table} == {UNDEPLOYED}


def test_players_alternate_from_the_one_the_mission_names_and_a_finished_player_is_skipped():
    # R03.02-a: the mission's deploys_first sets up first; then one unit each in turn.
    pos = pre_battle(squad("red.a", "red"), squad("red.b", "red"), squad("red.c", "red"),
                     squad("blue.a", "blue"), deploys_first="blue")
    game = _at_deploy(pos)
    who = []
    spots = {"red.a": (5, 5), "red.b": (15, 5), "red.c": (25, 5), "blue.a": (5, 40)}
    while (req := game.pending()) is not None and req.kind == "deploy":
        who.append(req.player)
        uid = str(req.context["units"][0])  # type: ignore[index]
        game.submit(deploy(uid, line_at(game, uid, *spots[uid])))
    assert who == ["blue", "red", "red", "red"]
    assert [e["unit"] for e in events(game, "deploy")] == ["blue.a", "red.a", "red.b", "red.c"]


def test_a_unit_set_up_wholly_within_its_zone_is_deployed_and_one_partly_outside_is_refused():
    # R03.02-a: wholly within its own deployment zone (red: y <= 12).
    game = _at_deploy(pre_battle(squad("red.a", "red", 2), squad("blue.a", "blue")))
    before = json.dumps(game.save())
    outside = {"red.a.1": [10.0, 12.0 - R + 0.01], "red.a.2": [11.5, 12.0 - R + 0.01]}
    with pytest.raises(IllegalChoice) as err:
        game.submit(deploy("red.a", outside))
    assert err.value.rule == "R03.02-a"
    assert json.dumps(game.save()) == before  # refused: nothing changed
    inside = {"red.a.1": [10.0, 12.0 - R], "red.a.2": [11.5, 12.0 - R]}
    game.submit(deploy("red.a", inside))
    game.pending()
    u = game.state.unit("red.a")
    assert [(m.x, m.y) for m in u.alive] == [(10.0, 12.0 - R), (11.5, 12.0 - R)]


def test_a_deployment_out_of_coherency_or_on_another_model_is_refused():
    # R03.02-a: coherency, and no model set up on another.
    game = _at_deploy(pre_battle(squad("red.a", "red", 2), squad("red.b", "red"),
                                 squad("blue.a", "blue"), deploys_first="red"))
    with pytest.raises(IllegalChoice) as err:
        game.submit(deploy("red.a", {"red.a.1": [10.0, 5.0], "red.a.2": [14.0, 5.0]}))
    assert err.value.rule == "R03.02-a" and "coherency" in str(err.value)
    game.submit(deploy("red.a", {"red.a.1": [10.0, 5.0], "red.a.2": [11.5, 5.0]}))
    game.submit(deploy("blue.a", line_at(game, "blue.a", 10.0, 40.0)))
    with pytest.raises(IllegalChoice) as err:
        game.submit(deploy("red.b", {"red.b.1": [10.5, 5.0]}))
    assert err.value.rule == "R03.02-a" and "set up on" in str(err.value)


def test_an_answer_for_a_unit_that_is_not_the_players_or_not_every_model_is_refused():
    # R03.02-a: the player sets up one of their own undeployed units, every model of it.
    game = _at_deploy(pre_battle(squad("red.a", "red", 2), squad("blue.a", "blue")))
    with pytest.raises(IllegalChoice):
        game.submit(deploy("blue.a", {"blue.a.1": [10.0, 40.0]}))
    with pytest.raises(MalformedChoice):
        game.submit(deploy("red.a", {"red.a.1": [10.0, 5.0]}))
    with pytest.raises(MalformedChoice):
        game.submit({"unit": "red.a"})


def test_the_roll_off_decides_the_first_turn_once_ties_re_rolled():
    # R07.02-a (07.02 / mission first_turn: roll-off): 3-3 tie re-rolled, then 2-5: blue
    # (the second player) takes the first turn; the battle does not roll again.
    pos = pre_battle(squad("red.a", "red"), squad("blue.a", "blue"), first_turn="roll-off")
    game = _at_deploy(pos)
    game.submit(deploy("red.a", line_at(game, "red.a", 10.0, 5.0)))
    game.submit(deploy("blue.a", line_at(game, "blue.a", 10.0, 40.0)))
    scripted(game, [3, 3, 2, 5])
    req = game.pending()
    assert req is not None and req.player == "blue"  # blue's first turn
    assert [e["first"] for e in events(game, "first_turn")] == ["blue"]
    rolls = [e for e in events(game, "roll") if e["kind"] == "roll_off"]
    assert [e["faces"] for e in rolls] == [[3, 3], [2, 5]]
    assert [p.name for p in game.state.players] == ["blue", "red"]


def test_a_mission_that_names_the_first_player_rolls_nothing():
    pos = pre_battle(squad("red.a", "red"), squad("blue.a", "blue"), first_turn="blue")
    game = _at_deploy(pos)
    game.submit(deploy("red.a", line_at(game, "red.a", 10.0, 5.0)))
    game.submit(deploy("blue.a", line_at(game, "blue.a", 10.0, 40.0)))
    scripted(game, [])
    req = game.pending()
    assert req is not None and req.player == "blue"
    assert events(game, "first_turn")[0]["decided_by"] == "mission"


def test_a_pre_battle_position_needs_deployment_zones():
    pos = pre_battle(squad("red.a", "red"), squad("blue.a", "blue"))
    del pos["mission"]["deployment_zones"]  # type: ignore[index, attr-defined]
    with pytest.raises(DataError):
        Game.new(pos, seed=1)


def test_the_roll_off_winner_chooses_who_takes_the_first_turn_when_the_mission_says_so():
    # R07.02-a (mission first_turn: roll-off-choice): 2-5, blue wins and is asked; blue
    # lets red go first. Saved at the choice, the game continues identically.
    pos = pre_battle(squad("red.a", "red"), squad("blue.a", "blue"),
                     first_turn="roll-off-choice")
    game = _at_deploy(pos)
    game.submit(deploy("red.a", line_at(game, "red.a", 10.0, 5.0)))
    game.submit(deploy("blue.a", line_at(game, "blue.a", 10.0, 40.0)))
    scripted(game, [2, 5])
    req = game.pending()
    assert req is not None and req.kind == "first_turn" and req.player == "blue"
    assert req.options == ("blue", "red")
    saved = game.save()
    again = Game.load(saved)
    for g in (game, again):
        g.submit("red")
        req = g.pending()
        assert req is not None and req.player == "red"  # red's first turn
        assert events(g, "first_turn")[0] == {**events(g, "first_turn")[0], "first": "red",
                                               "decided_by": "roll-off-choice"}
    assert json.dumps(game.save()) == json.dumps(again.save())


def test_a_roll_off_choice_mission_asks_the_winner_without_the_pre_battle_sequence_too():
    # R07.02-a: a position without pre_battle: the battle frame asks before round 1.
    from tests.engine.movement_helpers import model, position, unit

    pos = position(unit("red.a", "red", [model("red.a.1", 10.0, 5.0)]),
                   unit("blue.a", "blue", [model("blue.a.1", 10.0, 40.0)]))
    pos["mission"]["first_turn"] = "roll-off-choice"  # type: ignore[index]
    game = scripted(Game.new(pos, seed=1), [6, 1])
    req = game.pending()
    assert req is not None and req.kind == "first_turn" and req.player == "red"
    game.submit("blue")
    req = game.pending()
    assert req is not None and req.player == "blue" and game.state.round == 1
    assert not events(game, "pre_battle_end")
