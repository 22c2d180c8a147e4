"""The engine's one boundary (DESIGN.md "Decisions", docs/battle.md): malformed and illegal
answers raise different errors and change nothing; submit after the end raises; clones are
independent; saved positions load into independent games; starting strength is fixed at the
start of battle round 1 (RA-Strength-a)."""

from __future__ import annotations

import json

import pytest

from tests.engine.core_helpers import bare_phases, events, frame, line, model, position, unit
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine.game import Game, GameOver


def split(uid: str = "red.a", player: str = "red") -> dict:
    models = [*line(uid, 3, x=10, y=20), model(f"{uid}.4", 23, 20), model(f"{uid}.5", 24.5, 20)]
    return unit(uid, player, models, starting_strength=5)


def asking() -> Game:
    """A game waiting for red to remove a model for coherency (a request with options)."""
    return Game.new(position([split()], round=1, turn_player="red", phase="end_of_turn",
                             frames=[frame("end_of_turn", step=0)]), seed=5)


def test_a_malformed_answer_raises_malformed_choice_and_changes_nothing() -> None:
    # DESIGN.md: a malformed choice (wrong shape) and an illegal one raise different errors.
    game = asking()
    req = game.pending()
    saved = json.dumps(game.save())
    for bad in (3, None, ["red.a.1"], {"model": "red.a.1"}, True):
        with pytest.raises(MalformedChoice):
            game.submit(bad)
        assert json.dumps(game.save()) == saved
        assert game.pending() == req


def test_an_illegal_answer_raises_illegal_choice_naming_the_rule_and_changes_nothing() -> None:
    game = asking()
    req = game.pending()
    saved = json.dumps(game.save())
    with pytest.raises(IllegalChoice) as err:
        game.submit("blue.x.1")
    assert not isinstance(err.value, MalformedChoice)
    assert err.value.rule == "R03.03-e"
    assert json.dumps(game.save()) == saved
    assert game.pending() == req
    game.submit("red.a.4")  # a legal answer still works afterwards
    assert game.state.choices == ["red.a.4"]


def test_a_free_form_answer_of_the_wrong_shape_is_malformed_and_changes_nothing() -> None:
    # A free-form request (positions) checks the answer's shape in the phase's apply; the
    # engine rolls back whatever it did first.
    from w40k.agents.random_agent import RandomAgent
    from w40k.io.battle_setup import default_position

    game = Game.new(default_position(), seed=2)
    agent = RandomAgent(2)
    for _ in range(200):
        req = game.pending()
        assert req is not None
        if req.free_form:
            break
        game.submit(agent.choose(game, req))
    else:
        pytest.skip("no free-form request in the first 200 decisions yet")
    saved = json.dumps(game.save())
    for bad in (3, "here", [1, 2], None):
        with pytest.raises(MalformedChoice):
            game.submit(bad)
        assert json.dumps(game.save()) == saved


def test_submit_after_the_battle_has_ended_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    bare_phases(monkeypatch)
    game = Game.new(position([unit("red.a", "red", line("red.a", 2, x=5, y=5))], rounds=1), 1)
    assert game.pending() is None
    saved = json.dumps(game.save())
    with pytest.raises(GameOver):
        game.submit("anything")
    assert json.dumps(game.save()) == saved
    assert game.pending() is None


def test_a_clone_is_independent_of_its_original() -> None:
    # DESIGN.md: 'cloned cheaply for search AIs'.
    game = asking()
    req = game.pending()
    saved = json.dumps(game.save())
    twin = game.clone()
    assert twin.pending() == req
    twin.submit("red.a.5")
    while (r := twin.pending()) is not None:
        twin.submit(r.options[0])
    twin.state.player("red").cp = 9
    twin.dice.d6("other")
    assert json.dumps(game.save()) == saved
    assert game.pending() == req
    assert [m.destroyed for m in game.state.unit("red.a").models] == [False] * 5
    # and the other way round
    twin = game.clone()
    game.submit("red.a.1")
    assert twin.state.unit("red.a").models[0].destroyed is False
    assert twin.state.choices == [] and twin.pending() == req


def test_a_clone_plays_on_exactly_like_its_original() -> None:
    game = asking()
    twin = game.clone()
    for g in (game, twin):
        while (r := g.pending()) is not None:
            g.submit(r.options[-1])
    assert json.dumps(game.state.events) == json.dumps(twin.state.events)


def test_one_saved_position_loads_into_independent_games() -> None:
    # save()/Game.load(): two games loaded from the same saved dict (no JSON round trip in
    # between) do not share their event logs, choices or frames.
    game = asking()
    game.pending()
    saved = game.save()
    before = json.dumps(saved)
    a, b = Game.load(saved), Game.load(saved)
    a.submit("red.a.5")
    while (r := a.pending()) is not None:
        a.submit(r.options[0])
    assert json.dumps(saved) == before
    assert b.state.events == [] and b.state.choices == []
    assert json.dumps(b.save()["frames"]) == json.dumps(game.save()["frames"])


def test_a_new_game_does_not_change_the_position_it_starts_from() -> None:
    pos = position([split()], round=1, turn_player="red", phase="end_of_turn",
                   frames=[frame("end_of_turn", step=0)])
    pos["events"] = []
    pos["choices"] = []
    before = json.dumps(pos)
    game = Game.new(pos, seed=1)
    while (r := game.pending()) is not None:
        game.submit(r.options[0])
    assert json.dumps(pos) == before


def test_load_needs_the_dice_state() -> None:
    with pytest.raises(ValueError, match="dice"):
        Game.load(position([split()]))


def test_replay_refuses_a_record_of_another_format() -> None:
    with pytest.raises(ValueError):
        Game.replay({"format": "pgn", "seed": 1, "setup": {}})


def test_starting_strength_is_fixed_at_the_start_of_battle_round_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # RA-Strength-a: a unit that lost a model before the battle starts at 4 of its 5 models;
    # losses in the battle do not change it; a given starting strength is kept.
    def hook(game: Game, phase: str) -> None:
        if phase == "shooting" and game.state.round == 1:
            game.state.unit("red.a").models[1].destroyed = True

    bare_phases(monkeypatch, hook)
    pos = position([unit("red.a", "red", line("red.a", 5, x=10, y=5, dead=[0])),
                    unit("blue.a", "blue", line("blue.a", 3, x=10, y=39),
                         starting_strength=7)], rounds=2)
    game = Game.new(pos, seed=1)
    assert [u.starting_strength for u in game.state.units] == [0, 7]
    game.pending()
    assert [u.starting_strength for u in game.state.units] == [4, 7]
    assert len(game.state.unit("red.a").alive) == 3
    assert events(game, "battle_end")


def test_a_unit_is_destroyed_when_its_last_model_is() -> None:
    # RA-Destroyed-a: destroying every model destroys the unit (logged once, at the last);
    # a destroyed unit is no longer among its player's units on the battlefield.
    from w40k.engine.units import destroy

    game = asking()
    u = game.state.unit("red.a")
    for m in u.models:
        assert not u.destroyed
        destroy(game, u, m, cause="test")
    assert u.destroyed and all(m.remaining == 0 for m in u.models)
    assert [e["event"] for e in events(game)].count("unit_destroyed") == 1
    assert events(game)[-1] == {"event": "unit_destroyed", "round": 1, "player": "red",
                                "phase": "end_of_turn", "unit": "red.a"}
    assert game.state.units_of("red") == []


def test_a_clone_shares_no_mutable_model_data_with_its_original() -> None:
    # clone() independence down to the lists a model holds: marking a [ONE SHOT] weapon used
    # (24.26, appended in place by the Shooting phase) in a clone leaves the original as it was.
    game = asking()
    twin = game.clone()
    twin.state.unit("red.a").models[0].one_shots_used.append("Hunter-killer missile")
    assert game.state.unit("red.a").models[0].one_shots_used == []


def test_the_game_keeps_its_own_copy_of_an_answer() -> None:
    # The record's choices and the saved position must not change when the caller later
    # reuses or edits the object it submitted (a free-form positions answer here).
    from w40k.agents.random_agent import RandomAgent
    from w40k.io.battle_setup import default_position

    game = Game.new(default_position(), seed=2)
    agent = RandomAgent(2)
    while (req := game.pending()) is not None:
        answer = agent.choose(game, req)
        game.submit(answer)
        if isinstance(answer, dict):
            break
    else:
        pytest.skip("no dict-shaped answer in this game")
    record, saved = json.dumps(game.record()), json.dumps(game.save())
    for key in list(answer):
        answer[key] = "junk"
    assert json.dumps(game.record()) == record
    assert json.dumps(game.save()) == saved


def test_a_saved_position_and_a_record_are_the_callers_to_edit() -> None:
    # save() gives a position a person may edit to set up a variant (docs/positions.md), and
    # record() a record to annotate: editing either leaves the game as it was.
    game = asking()
    game.submit("red.a.5")
    game.pending()
    before = json.dumps(game.save())
    pos = game.save()
    pos["mission"]["rounds"] = 1  # type: ignore[index]
    pos["battlefield"]["width"] = 1.0  # type: ignore[index]
    pos["events"][0]["model"] = "edited"  # type: ignore[index]
    rec = game.record()
    rec["events"][0]["cause"] = "edited"  # type: ignore[index]
    rec["setup"]["round"] = 4  # type: ignore[index]
    assert json.dumps(game.save()) == before


def test_editing_a_position_after_starting_a_game_from_it_changes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # One position dict may start many games (w40k simulate); a caller editing it between
    # games must not reach into the games already started or loaded.
    bare_phases(monkeypatch)
    pos = position([unit("red.a", "red", line("red.a", 2, x=5, y=5))], rounds=2)
    game = Game.new(pos, seed=1)
    saved = game.save()
    loaded = Game.load(saved)
    for p in (pos, saved):
        p["mission"]["rounds"] = 1  # type: ignore[index]
        p["battlefield"]["width"] = 10.0  # type: ignore[index]
    for g in (game, loaded):
        g.pending()
        assert [e["round"] for e in events(g, "round_start")] == [1, 2]
        assert g.state.battlefield["width"] == 60.0
