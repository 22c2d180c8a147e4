"""03.03 in the End of Turn step: models are removed from every incoherent unit, one at a time,
by the unit's controlling player, until it is coherent; they are destroyed but trigger no
'when destroyed' rules (R03.03-e, R24.08-c)."""

from __future__ import annotations

import pytest

from tests.engine.core_helpers import events, frame, line, model, position, unit
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game


def end_of_turn(units: list, player: str = "red") -> Game:
    """A position at the End of Turn step of ``player``'s turn."""
    return Game.new(position(units, round=1, turn_player=player, phase="end_of_turn",
                             frames=[frame("end_of_turn", step=0)]), seed=1)


def split_unit(uid: str, player: str) -> dict:
    """Five models split into 3 + 2, 10" apart (R03.03-e's example)."""
    models = [*line(uid, 3, x=10, y=20), model(f"{uid}.4", 23, 20), model(f"{uid}.5", 24.5, 20)]
    return unit(uid, player, models, starting_strength=5)


def test_the_controlling_player_removes_models_of_an_incoherent_unit_in_either_turn() -> None:
    # R03.03-e: in red's End of Turn step, blue removes models from blue's split unit.
    game = end_of_turn([split_unit("blue.a", "blue"),
                        unit("red.a", "red", line("red.a", 2, x=5, y=5))])
    req = game.pending()
    assert req is not None
    assert (req.player, req.kind, req.rule) == ("blue", "remove_for_coherency", "R03.03-e")
    assert req.context["unit"] == "blue.a"
    assert set(req.options) == {f"blue.a.{i}" for i in range(1, 6)}


def test_models_are_removed_one_at_a_time_until_the_unit_is_coherent() -> None:
    # R03.03-e: 3 + 2 -> remove the 2 far models one by one; then nothing more is asked.
    game = end_of_turn([split_unit("blue.a", "blue")])
    asked = 0
    for victim in ("blue.a.5", "blue.a.4"):
        req = game.pending()
        assert req is not None and req.kind == "remove_for_coherency"
        assert victim in req.options
        game.submit(victim)
        asked += 1
    assert game.pending() is None
    assert asked == 2
    u = game.state.unit("blue.a")
    assert [m.id for m in u.alive] == ["blue.a.1", "blue.a.2", "blue.a.3"]


def test_removing_from_the_larger_group_is_legal_and_continues_until_coherent() -> None:
    # R03.03-e: the player picks any model; removing from the group of 3 keeps the unit
    # incoherent, so the step asks again.
    game = end_of_turn([split_unit("red.a", "red")])
    n = 0
    while (req := game.pending()) is not None:
        game.submit(req.options[0])
        n += 1
    assert n == 3  # 1, 2, 3 go; the 2 models left (4 and 5) are coherent
    assert [m.id for m in game.state.unit("red.a").alive] == ["red.a.4", "red.a.5"]


def test_removed_models_are_destroyed_but_trigger_nothing() -> None:
    # R03.03-e / R24.08-c: the removal is logged as destroyed with cause 'coherency' and
    # triggers false (no Deadly Demise roll, no other 'when destroyed' rule).
    models = [model("blue.t.1", 10, 20, W=10, abilities=["Deadly Demise D3"],
                    keywords=["VEHICLE"], base_mm=60.0),
              model("blue.t.2", 25, 20, W=10, abilities=["Deadly Demise D3"],
                    keywords=["VEHICLE"], base_mm=60.0)]
    game = end_of_turn([unit("blue.t", "blue", models, starting_strength=2)])
    before = game.dice.to_json()
    game.submit("blue.t.2")
    assert game.pending() is None
    gone = events(game, "destroyed")
    assert [(e["model"], e["cause"], e["triggers"]) for e in gone] == [
        ("blue.t.2", "coherency", False)]
    assert game.dice.to_json() == before  # no dice were rolled
    m = game.state.unit("blue.t").models[1]
    assert m.destroyed and m.remaining == 0


def test_a_unit_removed_to_its_last_model_is_not_destroyed() -> None:
    # R03.03-c: a unit of one model is always coherent, so removal stops at one model.
    models = [model("red.a.1", 10, 20), model("red.a.2", 30, 20)]
    game = end_of_turn([unit("red.a", "red", models)])
    game.submit("red.a.1")
    assert game.pending() is None
    assert not game.state.unit("red.a").destroyed
    assert events(game, "unit_destroyed") == []


def test_coherent_units_and_single_models_are_left_alone() -> None:
    # R03.03-a/c: coherent units and single models ask nothing.
    game = end_of_turn([unit("red.a", "red", line("red.a", 5, x=10, y=10)),
                        unit("red.b", "red", [model("red.b.1", 40, 40)])])
    assert game.pending() is None
    assert events(game, "destroyed") == []


def test_a_model_that_is_not_in_the_unit_is_refused_and_nothing_changes() -> None:
    # R03.03-e: only the incoherent unit's living models may be removed.
    game = end_of_turn([split_unit("red.a", "red"),
                        unit("red.b", "red", line("red.b", 2, x=5, y=5))])
    saved = game.save()
    with pytest.raises(IllegalChoice) as err:
        game.submit("red.b.1")
    assert err.value.rule == "R03.03-e"
    assert game.save() == saved


def test_every_incoherent_unit_of_both_players_is_fixed() -> None:
    # R03.03-e: both players' incoherent units, each by its controller.
    game = end_of_turn([split_unit("red.a", "red"), split_unit("blue.a", "blue")])
    who = []
    while (req := game.pending()) is not None:
        who.append((req.player, req.context["unit"]))
        game.submit(req.options[-1])
    assert ("red", "red.a") in who and ("blue", "blue.a") in who
    assert all(p == u.split(".")[0] for p, u in who)
