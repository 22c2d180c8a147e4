"""08 The Command phase in the engine: core CP for both players, then battle-shock rolls (01.06,
01.07, 08.03) for the active player's battle-shocked or at/below-half-strength units."""

from __future__ import annotations

import pytest

from tests.engine.core_helpers import (
    bare_phases,
    command_phase,
    dice_left,
    events,
    line,
    marker,
    model,
    position,
    scripted,
    unit,
)
from w40k.engine.flow import update_objectives
from w40k.engine.game import Game


def play(units: list, faces: list[int], **kw: object) -> Game:
    game = scripted(Game.new(command_phase(units, **kw), seed=1), faces)
    assert game.pending() is None
    assert not dice_left(game), "the rules rolled fewer dice than scripted"
    return game


def rolls(game: Game) -> dict[str, dict]:
    return {str(e["unit"]): e for e in events(game, "battle_shock_roll")}


def test_both_players_gain_one_cp_in_every_command_phase() -> None:
    # R08.02-a: both players, not only the active one.
    game = play([], [], cp=(2, 5))
    assert [(p.name, p.cp) for p in game.state.players] == [("red", 3), ("blue", 6)]
    assert events(game, "gain_cp")[0]["cp"] == {"red": 3, "blue": 6}


def test_cp_gain_comes_before_the_battle_shock_rolls() -> None:
    # R08-a: Gain Core CP, then Battle-shock.
    game = play([unit("red.a", "red", line("red.a", 2, x=10, y=10), flags={"battle_shocked": True},
                      starting_strength=2)], [4, 4])
    assert [e["event"] for e in events(game)] == ["gain_cp", "battle_shock_roll"]


def test_only_the_active_players_units_at_or_below_half_strength_roll() -> None:
    # R08.03-a: red's 10 with 5 left rolls; red's 10 with 6 left does not; blue's half-strength
    # unit does not roll in red's Command phase.
    units = [unit("red.half", "red", line("red.half", 10, x=5, y=5, dead=range(5)),
                  starting_strength=10),
             unit("red.six", "red", line("red.six", 10, x=5, y=15, dead=range(4)),
                  starting_strength=10),
             unit("blue.half", "blue", line("blue.half", 10, x=5, y=30, dead=range(5)),
                  starting_strength=10)]
    game = play(units, [5, 5])
    assert list(rolls(game)) == ["red.half"]


def test_a_battle_shocked_unit_at_full_strength_rolls_and_a_pass_clears_it() -> None:
    # R08.03-c (rulebook example: starting strength 3, all alive, battle-shocked) and R08.03-b.
    units = [unit("red.a", "red", line("red.a", 3, x=10, y=10), starting_strength=3,
                  flags={"battle_shocked": True})]
    game = play(units, [4, 3])
    assert rolls(game)["red.a"]["passed"] is True
    assert not game.state.unit("red.a").flag("battle_shocked")


def test_battle_shock_does_not_expire_until_a_roll_is_passed() -> None:
    # R08.03-b: a failed roll keeps the unit battle-shocked.
    units = [unit("red.a", "red", line("red.a", 3, x=10, y=10), starting_strength=3,
                  flags={"battle_shocked": True})]
    game = play(units, [1, 2])
    assert rolls(game)["red.a"]["battle_shocked"] is True
    assert game.state.unit("red.a").flag("battle_shocked")


def test_a_failed_battle_shock_roll_makes_the_unit_battle_shocked() -> None:
    # R01.07-a: Ld 7+ rolling [1, 2] is battle-shocked; [4, 4] leaves it as it was.
    half = [unit("red.a", "red", line("red.a", 4, x=10, y=10, dead=[0, 1], Ld=7),
                 starting_strength=4)]
    failed = play(half, [1, 2])
    assert failed.state.unit("red.a").flag("battle_shocked")
    passed = play(half, [4, 4])
    assert not passed.state.unit("red.a").flag("battle_shocked")


def test_a_roll_equal_to_leadership_succeeds() -> None:
    # R01.06-b: Ld 7+ with [3, 4] = 7 succeeds; 6 fails.
    half = [unit("red.a", "red", line("red.a", 2, x=10, y=10, dead=[0], Ld=7),
                 starting_strength=2)]
    assert rolls(play(half, [3, 4]))["red.a"]["passed"] is True
    assert rolls(play(half, [3, 3]))["red.a"]["passed"] is False


def test_the_roll_succeeds_against_the_best_leadership_in_the_unit() -> None:
    # R01.06-a: Boyz at Ld 7+ with a Warboss at Ld 6+: [2, 4] = 6 succeeds, [1, 4] = 5 fails.
    models = [*line("red.mob", 3, x=10, y=10, Ld=7, dead=[1, 2]),
              model("red.mob.boss", 11, 12, Ld=6, W=6)]
    mob = [unit("red.mob", "red", models, starting_strength=4)]
    assert rolls(play(mob, [2, 4]))["red.mob"]["passed"] is True
    assert rolls(play(mob, [1, 4]))["red.mob"]["passed"] is False


def test_the_rolls_use_the_units_starting_strength_not_its_size_at_setup() -> None:
    # R08.03-d: starting strength 5: 2 left is below half (roll), 3 left is neither (no roll).
    two = [unit("red.a", "red", line("red.a", 5, x=10, y=10, dead=[0, 1, 2]),
                starting_strength=5)]
    three = [unit("red.a", "red", line("red.a", 5, x=10, y=10, dead=[0, 1]),
                  starting_strength=5)]
    assert list(rolls(play(two, [6, 6]))) == ["red.a"]
    assert rolls(play(three, [])) == {}


def test_a_single_model_unit_rolls_by_its_wounds() -> None:
    # R08.03-e / RA-Strength-c: W11 with 3 remaining rolls; with 6 remaining it does not.
    low = [unit("red.hero", "red", [model("red.hero.1", 10, 10, W=11, wounds_lost=8)],
                starting_strength=1)]
    high = [unit("red.hero", "red", [model("red.hero.1", 10, 10, W=11, wounds_lost=5)],
                 starting_strength=1)]
    assert list(rolls(play(low, [6, 6]))) == ["red.hero"]
    assert rolls(play(high, [])) == {}


def test_a_lone_character_left_of_an_attached_unit_is_below_half_strength() -> None:
    # RA-Strength-e: Captain + 5 Intercessors with every Intercessor dead: the Captain alone,
    # unhurt, is below half of starting strength 6, so the unit rolls.
    models = [*line("red.cap", 5, x=10, y=10, W=2, dead=range(5)),
              model("red.cap.captain", 10, 12, W=5, Ld=6)]
    game = play([unit("red.cap", "red", models, starting_strength=6)], [1, 1])
    assert game.state.unit("red.cap").flag("battle_shocked")


def test_destroyed_units_do_not_roll() -> None:
    # RA-Destroyed-c: a destroyed unit is not selected for anything, battle-shock included.
    dead = [unit("red.a", "red", line("red.a", 2, x=10, y=10, dead=[0, 1]),
                 starting_strength=2, flags={"battle_shocked": True})]
    assert rolls(play(dead, [])) == {}


def test_a_battle_shocked_units_oc_is_a_dash() -> None:
    # R01.07-b: 6 battle-shocked Boyz (OC 2) and 1 enemy model (OC 1) on an objective: the
    # enemy controls at the end of the phase.
    boyz = unit("red.boyz", "red", line("red.boyz", 6, x=26, y=22, gap=1.3, OC=2),
                starting_strength=6, flags={"battle_shocked": True})
    enemy = unit("blue.a", "blue", [model("blue.a.1", 30, 24)], starting_strength=1)
    game = Game.new(command_phase([boyz, enemy], objectives=[marker("centre", 30, 22)]), 1)
    update_objectives(game)
    assert game.state.objectives[0].controller == "blue"
    assert events(game, "objective_control")[0]["levels"] == {"red": 0, "blue": 1}


def test_a_unit_that_fails_in_the_command_phase_loses_its_oc_at_the_end_of_that_phase() -> None:
    # R01.07-a/b with R14.02-b: the failed roll makes the OC '-', and the end-of-phase control
    # check (run by the turn) sees it.
    boyz = unit("red.boyz", "red", line("red.boyz", 6, x=26, y=22, gap=1.3, OC=2, dead=[0, 1, 2]),
                starting_strength=6)
    enemy = unit("blue.a", "blue", [model("blue.a.1", 30, 24)], starting_strength=1)
    game = play([boyz, enemy], [1, 1], objectives=[marker("centre", 30, 22)])
    assert game.state.unit("red.boyz").flag("battle_shocked")
    update_objectives(game)
    assert game.state.objectives[0].controller == "blue"


def test_each_player_gains_two_cp_per_battle_round(monkeypatch: pytest.MonkeyPatch) -> None:
    # R08.02-a: both start at 0; after round 1 (both Command phases) each has 2.
    bare_phases(monkeypatch)
    pos = position([unit("red.a", "red", line("red.a", 2, x=5, y=5)),
                    unit("blue.a", "blue", line("blue.a", 2, x=5, y=39))], rounds=1)
    game = Game.new(pos, seed=1)
    assert game.pending() is None
    assert [(p.name, p.cp) for p in game.state.players] == [("red", 2), ("blue", 2)]
    assert [e["cp"] for e in events(game, "gain_cp")] == [{"red": 1, "blue": 1},
                                                          {"red": 2, "blue": 2}]


def test_command_abilities_resolve_after_the_battle_shock_rolls(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R08.04-a / R08-a: a test-only "in your Command phase" ability is offered in the Command
    # Abilities step, after Gain Core CP and the battle-shock rolls.
    from w40k.engine import windows
    from w40k.engine.windows import Reaction, Window

    def options(game: Game, facts: dict, player: str) -> list:
        return ["go"] if player == game.state.turn_player else []

    def use(game: Game, facts: dict, player: str, answer: object) -> None:
        game.log("test_command_ability", by=player)

    monkeypatch.setattr(windows, "REACTIONS", (
        Reaction("Test order", Window.COMMAND_ABILITIES, "test", options, use),))
    units = [unit("red.a", "red", line("red.a", 2, x=10, y=10), flags={"battle_shocked": True},
                  starting_strength=2)]
    game = scripted(Game.new(command_phase(units), seed=1), [4, 4])
    req = game.pending()
    assert req is not None and req.context["window"] == "command_abilities"
    game.submit(["Test order", "go"])
    game.submit("decline")
    assert game.pending() is None
    assert [e["event"] for e in events(game)] == ["gain_cp", "battle_shock_roll", "reaction",
                                                  "test_command_ability"]
