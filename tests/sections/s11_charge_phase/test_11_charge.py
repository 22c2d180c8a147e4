"""The Charge phase (11): eligibility, the 2D6 charge roll, charge targets and the charge move
constraints of 11.04, failed and declined charges, Fights First after a charge."""

from __future__ import annotations

import pytest

from tests.engine.core_helpers import events, scripted
from tests.engine.melee_helpers import BASE, charge_phase, fighter, pending, unit
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game
from w40k.engine.serial import JSON


def _red(x: float = 10.0, y: float = 10.0, **flags: bool) -> dict[str, JSON]:
    return unit("red.a", "red", [fighter("red.a.1", x, y)], flags=flags)


def _blue(uid: str, x: float, gap: float, y0: float = 10.0) -> dict[str, JSON]:
    """An enemy one-model unit whose base edge is ``gap``" from red.a.1's, straight below."""
    return unit(uid, "blue", [fighter(f"{uid}.1", x, y0 + BASE + gap)])


def _declared(units: list[dict[str, JSON]], dice: list[int]) -> Game:
    game = scripted(Game.new(charge_phase(units), seed=1), dice)
    assert pending(game).kind == "select_unit_to_charge"
    game.submit("red.a")
    return game


def test_a_unit_more_than_12_inches_from_every_enemy_cannot_declare_a_charge_R11_02_a() -> None:
    game = Game.new(charge_phase([_red(), _blue("blue.b", 10.0, 12.5)]), seed=1)
    assert game.pending() is None  # nothing eligible: the phase ends


def test_a_unit_that_advanced_or_fell_back_cannot_declare_a_charge_R11_02_a() -> None:
    for flag in ("advanced", "fell_back"):
        game = Game.new(charge_phase([_red(**{flag: True}), _blue("blue.b", 10.0, 6.0)]),
                        seed=1)
        assert game.pending() is None


def test_an_engaged_unit_cannot_declare_a_charge_but_one_within_12_inches_can_R11_02_a() -> None:
    game = Game.new(charge_phase([_red(), _blue("blue.b", 10.0, 1.0)]), seed=1)
    assert game.pending() is None
    game = Game.new(charge_phase([_red(), _blue("blue.b", 10.0, 11.9)]), seed=1)
    assert pending(game).options == ("red.a", "done")


def test_the_charge_roll_is_2d6_and_targets_are_within_the_roll_R11_02_b_R11_04_a() -> None:
    # Roll [3, 4] = 7": blue.b at 6.8" is a target, blue.c at 8.0" is not (no 2" added).
    game = _declared([_red(), _blue("blue.b", 10.0, 6.8), _blue("blue.c", 30.0, 8.0)], [3, 4])
    req = pending(game)
    roll = events(game, "charge_roll")
    assert roll[-1]["dice"] == [3, 4] and roll[-1]["roll"] == 7
    assert req.kind == "charge_targets"
    assert req.options == (["blue.b"], "fail")


def test_a_double_one_never_reaches_a_target_and_the_charge_fails_R11_01_a() -> None:
    game = _declared([_red(), _blue("blue.b", 10.0, 2.5)], [1, 1])
    assert game.pending() is None  # the charge failed, no other unit: the phase ends
    assert events(game, "charge_failed")
    u = game.state.unit("red.a")
    assert (u.models[0].x, u.models[0].y) == (10.0, 10.0)
    assert not u.flag("charged")


def _to_positions(game: Game, targets: list[str]) -> None:
    game.submit(targets)  # type: ignore[arg-type]
    req = pending(game)
    assert req.kind == "positions" and req.context["move_type"] == "charge"


def _refused(game: Game, answer: JSON, rule: str) -> None:
    before = game.save()
    with pytest.raises(IllegalChoice) as exc:
        game.submit(answer)
    assert exc.value.rule == rule
    assert game.save() == before  # the state is untouched


def test_a_model_that_ends_farther_from_every_target_is_refused_R11_04_b() -> None:
    game = _declared([_red(), _blue("blue.b", 10.0, 6.0)], [3, 4])
    _to_positions(game, ["blue.b"])
    _refused(game, {"red.a.1": [[10.0, 8.0]]}, "R11.04-b")


def test_a_model_that_could_end_within_1_inch_but_stops_at_1_8_is_refused_R11_04_c() -> None:
    game = _declared([_red(), _blue("blue.b", 10.0, 6.0)], [3, 4])
    _to_positions(game, ["blue.b"])
    target_y = 10.0 + BASE + 6.0
    _refused(game, {"red.a.1": [[10.0, target_y - BASE - 1.8]]}, "R11.04-c")


def test_a_move_beyond_the_charge_roll_is_refused_R03_01_a() -> None:
    game = _declared([_red(), _blue("blue.b", 10.0, 6.0)], [1, 6])
    _to_positions(game, ["blue.b"])
    _refused(game, {"red.a.1": [[17.5, 10.0]]}, "R03.01-a")


def test_the_unit_must_end_engaged_with_every_target_and_no_other_enemy_R11_04_d() -> None:
    # Two targets, only one reached.
    game = _declared([_red(), _blue("blue.b", 10.0, 6.0), _blue("blue.c", 13.0, 6.0)], [3, 4])
    _to_positions(game, ["blue.b", "blue.c"])
    target_y = 10.0 + BASE + 6.0
    _refused(game, {"red.a.1": [[10.0, target_y - BASE - 0.1]]}, "R11.04-d")
    # One target, but the move also engages blue.c, which is not a charge target.
    game = _declared([_red(), _blue("blue.b", 10.0, 6.0), _blue("blue.c", 12.0, 6.0)], [3, 4])
    _to_positions(game, ["blue.b"])
    _refused(game, {"red.a.1": [[10.0, target_y - BASE - 0.1]]}, "R11.04-d")


def test_a_legal_charge_move_gives_fights_first_until_the_end_of_the_turn_R11_04_e() -> None:
    game = _declared([_red(), _blue("blue.b", 10.0, 6.0)], [3, 4])
    _to_positions(game, ["blue.b"])
    target_y = 10.0 + BASE + 6.0
    game.submit({"red.a.1": [[10.0, target_y - BASE - 0.1]]})
    u = game.state.unit("red.a")
    assert u.flag("charged") and u.flag("fights_first")
    assert u.models[0].y == pytest.approx(target_y - BASE - 0.1)
    assert game.pending() is None  # no other unit can charge (red.a is now engaged)


def test_declining_the_move_leaves_the_unit_and_it_cannot_declare_again_R11_02_c() -> None:
    game = _declared([_red(), _blue("blue.b", 10.0, 6.0)], [3, 4])
    _to_positions(game, ["blue.b"])
    game.submit("fail")
    u = game.state.unit("red.a")
    assert (u.models[0].x, u.models[0].y) == (10.0, 10.0) and not u.flag("charged")
    assert game.pending() is None  # red.a already declared a charge this phase


def test_the_random_player_makes_only_legal_charge_moves() -> None:
    from w40k.agents import RandomAgent
    charged = 0
    for seed in range(8):
        game = Game.new(charge_phase([_red(), _blue("blue.b", 10.0, 5.0)]), seed=seed)
        agent = RandomAgent(seed)
        while (req := game.pending()) is not None:
            game.submit(agent.choose(game, req))  # an illegal proposal would raise here
        charged += game.state.unit("red.a").flag("charged")
    assert charged
