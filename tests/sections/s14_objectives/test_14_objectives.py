"""14 Objectives in the engine: level of control, ties, battle-shocked OC, secured objectives
(14.03), and control evaluated only at the end of each phase and turn (14.02)."""

from __future__ import annotations

import pytest

from tests.engine.core_helpers import bare_phases, events, marker, model, position, unit
from w40k.engine.flow import controlling_units, update_objectives
from w40k.engine.game import Game


def at_centre(red_oc: list[int], blue_oc: list[int], *, red_shocked: bool = False,
              **kw: object) -> Game:
    """Red's and blue's models (OC as given) within range of the 'centre' marker (30, 22)."""
    red = [model(f"red.a.{i}", 27 + 1.3 * i, 21, OC=oc) for i, oc in enumerate(red_oc)]
    blue = [model(f"blue.a.{i}", 27 + 1.3 * i, 23.5, OC=oc) for i, oc in enumerate(blue_oc)]
    units = [unit("red.a", "red", red, flags={"battle_shocked": red_shocked})] if red else []
    units += [unit("blue.a", "blue", blue)] if blue else []
    kw.setdefault("objectives", [marker("centre", 30, 22)])
    return Game.new(position(units, round=1, turn_player="red", phase="command", **kw), 1)


def controller(game: Game) -> str | None:
    update_objectives(game)
    return game.state.objectives[0].controller


def test_no_objective_is_controlled_at_the_start_of_the_battle() -> None:
    # R14.02-a
    game = at_centre([], [])
    assert [o.controller for o in game.state.objectives] == [None]


def test_the_player_with_the_higher_level_of_control_controls() -> None:
    # R14.02-c: 5 vs 6 -> blue.
    game = at_centre([2, 2, 1], [2, 2, 2])
    assert controller(game) == "blue"
    assert events(game, "objective_control")[-1]["levels"] == {"red": 5, "blue": 6}


def test_a_tie_leaves_the_objective_uncontrolled() -> None:
    # R14.02-c: 4 vs 4, not secured -> nobody; a controlled objective is lost on a tie.
    game = at_centre([2, 2], [2, 2], objectives=[marker("centre", 30, 22, controller="red")])
    assert controller(game) is None
    assert events(game, "objective_control")[-1]["controller"] is None


def test_models_out_of_range_do_not_count() -> None:
    # R14.02-b: only models within range; a model 10" away adds nothing.
    red = [model("red.a.1", 30, 21, OC=1)]
    far = [model("blue.a.1", 30, 35, OC=9)]
    game = Game.new(position([unit("red.a", "red", red), unit("blue.a", "blue", far)],
                             objectives=[marker("centre", 30, 22)]), 1)
    assert controller(game) == "red"


def test_a_battle_shocked_unit_adds_nothing() -> None:
    # R14.02-e / R01.07-b: a battle-shocked unit contributes 0, so blue's 1 beats it.
    game = at_centre([2, 2, 2, 2, 2], [1], red_shocked=True)
    assert controller(game) == "blue"
    assert events(game, "objective_control")[-1]["levels"] == {"red": 0, "blue": 1}


def test_models_with_oc_dash_add_nothing() -> None:
    # R14.02-e: OC '-' is 0.
    game = at_centre([None, None], [1])  # type: ignore[list-item]
    assert controller(game) == "blue"


def test_the_rulebook_illustration_terrain_objective() -> None:
    # R14.02-f: within a terrain-area objective, A's OC 3 + 2 + 1 = 6 beats B's 5, and B's
    # extra battle-shocked unit inside adds nothing.
    terrain = {"areas": [{"name": "ruin", "footprint": [[20, 20], [30, 20], [30, 30], [20, 30]]}],
               "terrain": []}
    a = [model("red.a.1", 22, 22, OC=3), model("red.a.2", 23.5, 22, OC=2),
         model("red.a.3", 25, 22, OC=1)]
    b = [model("blue.b.1", 22, 28, OC=5)]
    shocked = [model("blue.c.1", 26, 26, OC=4)]
    obj = [{"name": "ruin", "x": 0, "y": 0, "area": "ruin", "controller": None,
            "secured_by": None}]
    game = Game.new(position([unit("red.a", "red", a), unit("blue.b", "blue", b),
                              unit("blue.c", "blue", shocked, flags={"battle_shocked": True})],
                             objectives=obj, terrain=terrain), 1)
    assert controller(game) == "red"
    assert events(game, "objective_control")[-1]["levels"] == {"red": 6, "blue": 5}


def test_a_secured_objective_stays_with_its_player_until_the_opponent_is_higher() -> None:
    # R14.03-a: secured by red: 0 vs 0 -> red; 2 vs 2 -> red; 0 vs 1 -> blue, secured ends.
    secured = [marker("centre", 30, 22, controller="red", secured_by="red")]
    empty = at_centre([], [], objectives=secured)
    assert controller(empty) == "red"
    tie = at_centre([2], [2], objectives=secured)
    assert controller(tie) == "red" and tie.state.objectives[0].secured_by == "red"
    lost = at_centre([], [1], objectives=secured)
    assert controller(lost) == "blue"
    assert lost.state.objectives[0].secured_by is None


def test_control_is_evaluated_at_the_end_of_each_phase_not_during_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R14.02-b: red's unit holding the objective is destroyed in the middle of the Shooting
    # phase; control is unchanged until the end of that phase.
    mid_phase: list[str | None] = []

    def hook(game: Game, phase: str) -> None:
        if phase == "shooting" and game.state.turn_player == "red" and game.state.round == 1:
            for m in game.state.unit("red.a").models:
                m.destroyed = True
            mid_phase.append(game.state.objectives[0].controller)

    bare_phases(monkeypatch, hook)
    red = [model("red.a.1", 30, 21)]
    blue = [model("blue.a.1", 30, 30)]
    pos = position([unit("red.a", "red", red), unit("blue.a", "blue", blue)],
                   objectives=[marker("centre", 30, 22)], rounds=1)
    game = Game.new(pos, 1)
    game.pending()
    assert mid_phase == ["red"]  # controlled since the end of the Command phase
    changes = [(e["phase"], e["controller"]) for e in events(game, "objective_control")]
    assert changes == [("command", "red"), ("shooting", None)]


def test_control_is_also_evaluated_at_the_end_of_the_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R14.02-b with R07.02-c: models removed for coherency in the End of Turn step change
    # control at the end of the turn, before the turn's mission scoring.
    # Red's 2-model unit is split (one on the objective, one 10" away): red removes the model
    # on the objective, so blue's model alone holds it at the end of the turn.
    bare_phases(monkeypatch)
    red = [model("red.a.1", 30, 21, OC=3), model("red.a.2", 30, 11)]
    blue = [model("blue.a.1", 31.5, 23.5)]
    pos = position([unit("red.a", "red", red), unit("blue.a", "blue", blue)],
                   objectives=[marker("centre", 30, 22)], rounds=1)
    game = Game.new(pos, 1)
    req = game.pending()
    assert req is not None and req.kind == "remove_for_coherency" and req.player == "red"
    game.submit("red.a.1")
    assert game.pending() is None
    changes = [(e["player"], e["phase"], e["controller"])
               for e in events(game, "objective_control")]
    assert changes[:2] == [("red", "command", "red"), ("red", "end_of_turn", "blue")]


def test_the_player_whose_turn_ends_scores_objectives_held_from_round_two(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Built-in mission (docs/battle.md): from round 2, 5 VP per objective held at the end of
    # the player's own turn, at most 15 per turn.
    bare_phases(monkeypatch)
    red = [model(f"red.a.{i}", 30 + 1.3 * i, 21) for i in range(2)]
    objectives = [marker(f"o{i}", 30 + 1.3 * i, 22) for i in range(2)]
    pos = position([unit("red.a", "red", red)], objectives=objectives, rounds=3)
    game = Game.new(pos, 1)
    game.pending()
    assert [(e["round"], e["player"], e["vp"]) for e in events(game, "score")] == [
        (2, "red", 10), (3, "red", 10)]
    assert game.state.player("red").vp == 20


def test_a_secured_objective_is_lost_only_at_the_end_of_a_phase_not_of_the_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R14.03-a: secured 'until their opponent's level of control ... is greater than theirs at
    # the end of a phase'. Red secured the objective; its model there is removed for coherency
    # in the End of Turn step (the end of the turn, not of a phase): red keeps it until blue's
    # greater level counts at the end of blue's Command phase.
    bare_phases(monkeypatch)
    red = [model("red.a.1", 30, 21, OC=2), model("red.a.2", 30, 11)]
    blue = [model("blue.a.1", 31.5, 23.5)]
    pos = position([unit("red.a", "red", red), unit("blue.a", "blue", blue)], rounds=1,
                   objectives=[marker("centre", 30, 22, controller="red", secured_by="red")])
    game = Game.new(pos, 1)
    req = game.pending()
    assert req is not None and req.kind == "remove_for_coherency"
    game.submit("red.a.1")
    assert game.pending() is None
    changes = [(e["player"], e["phase"], e["controller"])
               for e in events(game, "objective_control")]
    assert changes == [("blue", "command", "blue")]
    assert game.state.objectives[0].secured_by is None


def test_only_units_with_an_oc_model_in_range_of_their_players_objective_are_controlling() -> None:
    # R14.02-d: red controls the centre with one unit; a second red unit in range but
    # battle-shocked (OC '-') is not controlling it, and blue's unit is not either.
    red = [model("red.a.0", 28, 21, OC=2)]
    shocked = [model("red.b.0", 31, 21, OC=2)]
    blue = [model("blue.a.0", 30, 23.5, OC=1)]
    units = [unit("red.a", "red", red), unit("red.b", "red", shocked,
                                              flags={"battle_shocked": True}),
             unit("blue.a", "blue", blue)]
    game = Game.new(position(units, round=1, turn_player="red", phase="command",
                             objectives=[marker("centre", 30, 22)]), 1)
    assert controller(game) == "red"
    assert controlling_units(game, "centre") == ["red.a"]


def test_no_unit_is_controlling_an_objective_nobody_controls() -> None:
    # R14.02-d: a tie leaves the objective uncontrolled, so nobody is controlling it.
    game = at_centre([2], [2])
    assert controller(game) is None
    assert controlling_units(game, "centre") == []


def test_the_level_of_control_counts_exactly_the_models_in_range_at_the_3_inch_edge() -> None:
    # R14.02-b, RA-Marker-a: update_objectives skips a model whose disc is more than 3" from
    # the marker's before measuring it; the level is still the sum over every model that
    # geo.in_objective_range finds in range, at and around the edge (a 32 mm base's centre
    # 3" + 20 mm + 16 mm from the marker's centre, give or take a hair)
    from w40k.engine import geo
    from w40k.geometry import mm

    edge = 3.0 + mm(20) + mm(16)
    offsets = [-1e-3, -1e-6, -1e-9, 0.0, 1e-9, 1e-7, 1e-6, 1.1e-6, 1e-3]
    red = [model(f"red.a.{i}", 30 + (edge + d) * 0.6, 22 + (edge + d) * 0.8, OC=1 << i)
           for i, d in enumerate(offsets)]
    game = Game.new(position([unit("red.a", "red", red)], objectives=[marker("centre", 30, 22)],
                             round=1, turn_player="red", phase="command"), 1)
    update_objectives(game)
    s = game.state
    expected = sum(1 << i for i, m in enumerate(s.units[0].models)
                   if geo.in_objective_range(game.ctx, m, s.objectives[0]))
    assert 0 < expected < (1 << len(offsets)) - 1  # some in range, some not
    assert events(game, "objective_control")[-1]["levels"] == {"red": expected, "blue": 0}
