"""The Movement phase (09): unit selection, move types, advance, fall back, positions."""

from __future__ import annotations

import pytest

from tests.engine.movement_helpers import answer, far_enemy, model, position, row, start, unit
from w40k.agents.random_agent import RandomAgent
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine.game import Game
from w40k.io.battle_setup import default_position

RED5 = unit("red.a", "red", row("red.a", 5, x=10.0, y=10.0))


def _pos(game: Game, mid: str) -> tuple[float, float]:
    m = next(m for u in game.state.units for m in u.models if m.id == mid)
    return m.x, m.y


def _shift(ids: list[str], x0: float, y0: float, dx: float, dy: float,
           gap: float = 1.5) -> dict[str, object]:
    return {mid: [[x0 + i * gap + dx, y0 + dy]] for i, mid in enumerate(ids)}


IDS5 = [f"red.a.{i}" for i in range(1, 6)]


# -- selection (09.02) -----------------------------------------------------------------------
def test_each_unit_is_selected_once_and_the_phase_ends_when_all_are():  # R09.02-a, R09.01-a
    red_b = unit("red.b", "red", [model("red.b.1", 30.0, 5.0)])
    game, req = start(RED5, red_b, far_enemy(), keep=False)
    assert set(req.options) == {"red.a", "red.b"}
    req = answer(game, "red.a", "remain_stationary")
    assert req.kind == "select_unit_to_move" and req.options == ("red.b",)
    with pytest.raises(IllegalChoice):
        game.submit("red.a")
    req = answer(game, "red.b", "remain_stationary")
    assert game.state.phase != "movement"
    assert game.state.unit("red.a").flag("remained_stationary")
    assert game.state.unit("red.a").flag("selected_to_move")


def test_an_unengaged_unit_may_remain_stationary_move_or_advance():  # R09.02-b
    game, _ = start(RED5, far_enemy())
    req = answer(game, "red.a")
    assert req.kind == "move_type"
    assert req.options == ("remain_stationary", "normal", "advance")


def test_an_engaged_unit_may_remain_stationary_or_fall_back():  # R09.02-b, R09.07-a/b
    enemy = unit("blue.e", "blue", [model("blue.e.1", 12.0, 11.5)])
    game, _ = start(RED5, enemy)
    req = answer(game, "red.a")
    assert req.options == ("remain_stationary", "fall_back_ordered", "fall_back_desperate")


def test_a_battle_shocked_engaged_unit_must_use_desperate_escape():  # R09.07-b
    shocked = unit("red.a", "red", row("red.a", 5, x=10.0, y=10.0), flags={"battle_shocked": True})
    enemy = unit("blue.e", "blue", [model("blue.e.1", 12.0, 11.5)])
    game, _ = start(shocked, enemy, dice=[1, 1])  # Command phase battle-shock roll fails
    req = answer(game, "red.a")
    assert req.options == ("remain_stationary", "fall_back_desperate")


def test_a_unit_of_m_dash_models_can_only_remain_stationary():  # R02.02-a
    fort = unit("red.f", "red", [model("red.f.1", 20.0, 20.0, M=None)])
    game, _ = start(fort, far_enemy())
    req = answer(game, "red.f")
    assert req.options == ("remain_stationary",)


# -- normal move (09.05, 03.01) --------------------------------------------------------------
def test_a_normal_move_sets_flags_max_move_and_logs_it():  # R09.05-a, R03.01-a
    game, _ = start(RED5, far_enemy())
    req = answer(game, "red.a", "normal")
    assert req.kind == "positions" and req.free_form == "positions"
    assert req.context["move_type"] == "normal" and req.context["max_distance"] == 6
    assert game.state.active == "red"  # R01.03-c
    # two segments of 3" each (R03.01-a); the other models stay
    answer(game, {"red.a.1": [[13.0, 10.0], [13.0, 13.0]]})
    assert _pos(game, "red.a.1") == (13.0, 13.0) or game.state.phase != "movement"
    u = game.state.unit("red.a")
    assert u.flag("moved") and u.flag("selected_to_move") and not u.flag("advanced")
    assert u.max_move == pytest.approx(6.0)
    ev = [e for e in game.state.events if e["event"] == "move"][-1]
    assert ev["unit"] == "red.a" and ev["move_type"] == "normal"


def test_a_move_beyond_m_is_refused_with_the_rule_and_the_state_is_untouched():  # R03.01-a
    game, _ = start(RED5, far_enemy())
    answer(game, "red.a", "normal")
    before = game.save()
    with pytest.raises(IllegalChoice) as err:
        game.submit(_shift(IDS5, 10.0, 10.0, 6.2, 0.0))
    assert err.value.rule == "R03.01-a" and "red.a.1" in str(err.value)
    assert game.save() == before


def test_a_normal_move_may_not_end_engaged():  # R09.05-a
    enemy = unit("blue.e", "blue", [model("blue.e.1", 17.5, 16.5)])
    game, _ = start(RED5, enemy)
    answer(game, "red.a", "normal")
    with pytest.raises(IllegalChoice) as err:
        game.submit(_shift(IDS5, 10.0, 10.0, 0.0, 5.0))
    assert err.value.rule == "R09.05-a"


def test_a_move_breaking_coherency_is_refused():  # R03.01-h, R03.03-d
    game, _ = start(RED5, far_enemy())
    answer(game, "red.a", "normal")
    with pytest.raises(IllegalChoice) as err:
        game.submit({"red.a.5": [[19.0, 10.0]]})
    assert err.value.rule == "R03.03-d"
    assert _pos(game, "red.a.5") == (16.0, 10.0)


def test_malformed_positions_are_told_apart_from_illegal_ones():
    game, _ = start(RED5, far_enemy())
    answer(game, "red.a", "normal")
    for bad in (["red.a.1"], {"red.a.1": [[1.0]]}, {"red.a.1": [["x", 2.0]]},
                {"red.a.1": (1, 2)}, 3):
        with pytest.raises(MalformedChoice):
            game.submit(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalChoice) as err:
        game.submit({"blue.far.1": [[50.0, 40.0]]})
    assert err.value.rule == "R03.01-g"


def test_an_empty_answer_moves_nobody():  # R03.01-g
    game, _ = start(RED5, far_enemy())
    answer(game, "red.a", "normal", {})
    assert _pos(game, "red.a.1") == (10.0, 10.0)
    assert game.state.unit("red.a").flag("moved")


def test_each_model_uses_its_own_move_characteristic():  # RA-Move-a
    mixed = unit("red.m", "red", [model("red.m.1", 10.0, 10.0, M=6),
                                  model("red.m.2", 11.5, 10.0, M=9)])
    game, _ = start(mixed, far_enemy())
    req = answer(game, "red.m", "normal")
    assert req.context["model_budgets"] == {"red.m.1": 6.0, "red.m.2": 9.0}
    with pytest.raises(IllegalChoice) as err:
        game.submit({"red.m.1": [[17.0, 10.0]], "red.m.2": [[18.5, 10.0]]})
    assert err.value.rule == "RA-Move-a" and "red.m.1" in str(err.value)
    answer(game, {"red.m.1": [[16.0, 10.0]], "red.m.2": [[18.5, 10.0]]})
    assert game.state.unit("red.m").max_move == pytest.approx(7.0)


# -- advance (09.06) -------------------------------------------------------------------------
def test_an_advance_rolls_a_d6_before_moving_and_adds_it_to_m():  # R09.06-a
    game, _ = start(RED5, far_enemy(), dice=[4])
    req = answer(game, "red.a", "advance")
    assert req.kind == "positions"
    assert req.context["advance_roll"] == 4 and req.context["max_distance"] == 10
    with pytest.raises(IllegalChoice):
        game.submit(_shift(IDS5, 10.0, 10.0, 10.5, 0.0))
    answer(game, _shift(IDS5, 10.0, 10.0, 10.0, 0.0))
    u = game.state.unit("red.a")
    assert u.flag("advanced") and u.flag("moved")
    assert any(e["event"] == "advance_roll" and e["roll"] == 4 for e in game.state.events)


def test_a_cancelled_move_returns_the_unit_to_selection_and_the_advance_roll_stands():
    # R09.02-a, 03.02 sidebar; reading R09.06-a in docs/rulings.md
    game, _ = start(RED5, far_enemy(), dice=[2])
    answer(game, "red.a", "advance")
    req = answer(game, "cancel")
    assert req.kind == "select_unit_to_move" and "red.a" in req.options
    u = game.state.unit("red.a")
    assert not u.flag("selected_to_move") and not u.flag("advanced")
    assert _pos(game, "red.a.1") == (10.0, 10.0)
    req = answer(game, "red.a", "advance")  # no die scripted: the roll of 2 is reused
    assert req.context["advance_roll"] == 2


# -- fall back (09.07) -----------------------------------------------------------------------
def _engaged() -> tuple[dict[str, object], dict[str, object]]:
    # blue stands just below red's middle model, within 2"
    enemy = unit("blue.e", "blue", [model("blue.e.1", 13.0, 11.6)])
    return RED5, enemy


def test_ordered_retreat_may_not_pass_through_enemy_models():  # R09.07-d, R03.01-d
    red, enemy = _engaged()
    game, _ = start(red, enemy)  # type: ignore[arg-type]
    answer(game, "red.a", "fall_back_ordered")
    with pytest.raises(IllegalChoice) as err:
        game.submit(_shift(IDS5, 10.0, 10.0, 0.0, 5.5))
    assert err.value.rule == "R03.01-d"
    answer(game, _shift(IDS5, 10.0, 10.0, 0.0, -5.0))
    u = game.state.unit("red.a")
    assert u.flag("fell_back") and not u.flag("desperate_escape")


def test_desperate_escape_rolls_a_hazard_per_model_then_may_pass_through_enemies():
    # R09.07-c, R06.03-a, R06.02-a, R09.07-f
    red, enemy = _engaged()
    # hazards [1, 2, 3, 4, 6] -> 2 mortal wounds (W1 models); then battle-shock 2D6 [1, 1]
    game, _ = start(red, enemy, dice=[1, 2, 3, 4, 6, 1, 1])  # type: ignore[arg-type]
    req = answer(game, "red.a", "fall_back_desperate")
    # R06.02-a: the models stand in different places, so red picks each casualty
    while req.kind == "select_model":
        assert req.player == "red"
        req = answer(game, req.options[-1])
    assert req.kind == "positions"
    u = game.state.unit("red.a")
    assert len(u.alive) == 3  # allocated before the move
    alive = [m.id for m in u.alive]
    starts = {m.id: m.x for m in u.alive}
    answer(game, {mid: [[starts[mid], 15.0]] for mid in alive})  # through blue.e.1
    u = game.state.unit("red.a")
    assert u.flag("fell_back") and u.flag("desperate_escape")
    assert u.flag("battle_shocked")  # R09.07-f: it was not battle-shocked and failed
    kinds = [e["event"] for e in game.state.events]
    assert kinds.index("hazard_rolls") < kinds.index("move", kinds.index("hazard_rolls"))


def test_feel_no_pain_applies_to_desperate_escape_mortal_wounds():  # R06.02-c
    tough = unit("red.a", "red", row("red.a", 2, x=10.0, y=10.0, abilities=["Feel No Pain 5+"]))
    enemy = unit("blue.e", "blue", [model("blue.e.1", 10.75, 11.6)])
    # hazards [1, 6] -> 1 MW, FNP roll 5 prevents it; battle-shock [6, 6] passes
    game, _ = start(tough, enemy, dice=[1, 6, 5, 6, 6])
    req = answer(game, "red.a", "fall_back_desperate")
    assert req.kind == "select_model"  # R06.02-a: the two models stand apart; red picks
    answer(game, req.options[0])
    assert len(game.state.unit("red.a").alive) == 2
    assert any(e["event"] == "feel_no_pain" and e["prevented"] for e in game.state.events)


# -- flying (21.03) --------------------------------------------------------------------------
def test_a_flying_unit_may_take_to_the_skies_for_2_inches_less():  # R21.03-a
    jets = unit("red.j", "red", [model("red.j.1", 10.0, 10.0, M=12, keywords=["FLY"])])
    game, _ = start(jets, far_enemy())
    req = answer(game, "red.j", "normal")
    assert req.kind == "take_to_skies" and req.options == (False, True)
    req = answer(game, True)
    assert req.context["model_budgets"] == {"red.j.1": 10.0}
    with pytest.raises(IllegalChoice):
        game.submit({"red.j.1": [[20.5, 10.0]]})
    answer(game, {"red.j.1": [[20.0, 10.0]]})
    assert _pos(game, "red.j.1") == (20.0, 10.0)


# -- a whole game --------------------------------------------------------------------------
def test_a_random_game_still_finishes():
    game = Game.new(default_position(), seed=3)
    agent = RandomAgent(3)
    moves = 0
    while (req := game.pending()) is not None:
        if req.kind == "positions":
            moves += 1
        game.submit(agent.choose(game, req))
    assert game.state.ended and moves > 0


def test_a_random_player_can_fall_back_from_an_engaged_start():  # R09.07-a
    red, enemy = _engaged()
    game = Game.new(position(red, enemy, rounds=1), seed=5)  # type: ignore[arg-type]
    agent = RandomAgent(5)
    while (req := game.pending()) is not None:
        game.submit(agent.choose(game, req))
    assert game.state.ended
