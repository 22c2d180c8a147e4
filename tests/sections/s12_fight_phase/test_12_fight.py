"""The Fight phase (12): pile in, the Fights First / Remaining Combats alternation, the pass
rule (Appendix), melee attacks through the attack frame, overrun fights and consolidation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.core_helpers import events, marker
from tests.engine.melee_helpers import BASE, fight_phase, fighter, melee_weapon, pending, unit
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game
from w40k.engine.phases.fight_sequence import is_fights_first
from w40k.engine.requests import Request
from w40k.engine.serial import JSON

ENGAGED_GAP = 1.0
"""Edge-to-edge gap used for engaged pairs (within 2")."""


def _u(uid: str, player: str, x: float, y: float, n: int = 1, *, flags: dict[str, bool] |
       None = None, weapons: list[dict[str, JSON]] | None = None, **prof: Any
       ) -> dict[str, JSON]:
    return unit(uid, player, [fighter(f"{uid}.{i + 1}", x + i * 1.5, y, weapons=weapons,
                                      **prof) for i in range(n)], flags=flags)


def _quiet(game: Game, req: Request) -> JSON:
    """Fight without moving: skip moves, the default declaration, the first option."""
    if req.kind == "positions":
        return str(req.context["decline"])
    if req.kind == "declare_fight":
        return req.context["default"]
    if req.kind in ("select_unit_to_pile_in", "select_unit_to_consolidate"):
        return "done"
    if req.kind == "pile_in_targets" or req.kind == "consolidate_targets":
        return "skip"
    return req.options[0]


def _fight_order(game: Game) -> list[tuple[str, str]]:
    out = []
    while (req := game.pending()) is not None:
        ans = _quiet(game, req)
        if req.kind == "select_unit_to_fight":
            out.append((req.player, str(ans)))
        game.submit(ans)
    return out


FF = {"charged": True, "fights_first": True}


def test_fights_first_units_fight_first_alternating_from_the_turn_player_R12_04_b_c() -> None:
    # Red (turn player): Fights First A1 and A3, plain A2; blue: only plain B2, engaged with
    # all three (W10 models so nobody dies).
    blue = unit("blue.b2", "blue", [fighter(f"blue.b2.{i}", x, 10.0 + BASE + ENGAGED_GAP, W=10)
                                    for i, x in enumerate((10.0, 20.0, 30.0), 1)])
    units = [_u("red.a1", "red", 10, 10, W=10, flags=FF), _u("red.a2", "red", 20, 10, W=10),
             _u("red.a3", "red", 30, 10, W=10, abilities=["Fights First"]), blue]
    order = _fight_order(Game.new(fight_phase(units), seed=2))
    assert order == [("red", "red.a1"), ("red", "red.a3"), ("blue", "blue.b2"),
                     ("red", "red.a2")]


def test_the_opponents_fights_first_unit_fights_before_the_turn_players_plain_unit_R12_04_c(
) -> None:
    units = [_u("red.a", "red", 10, 10, W=10),
             _u("blue.b", "blue", 10, 10 + BASE + ENGAGED_GAP, W=10,
                abilities=["Fights First"])]
    order = _fight_order(Game.new(fight_phase(units), seed=2))
    assert order == [("blue", "blue.b"), ("red", "red.a")]


def test_a_unit_is_fights_first_only_if_every_model_has_the_ability_R24_13_a() -> None:
    mixed = unit("red.x", "red", [fighter("red.x.1", 10, 10, abilities=["Fights First"]),
                                  fighter("red.x.2", 11.5, 10)])
    game = Game.new(fight_phase([mixed, _u("blue.b", "blue", 40, 40)]), seed=1)
    assert not is_fights_first(game.state.unit("red.x"))
    game.state.unit("red.x").models[1].destroyed = True
    assert is_fights_first(game.state.unit("red.x"))


def test_the_selecting_player_is_active_while_their_unit_fights_R01_03_d() -> None:
    units = [_u("red.a", "red", 10, 10, W=10),
             _u("blue.b", "blue", 10, 10 + BASE + ENGAGED_GAP, W=10,
                abilities=["Fights First"])]
    game = Game.new(fight_phase(units), seed=2)
    while (req := pending(game)).kind != "declare_fight":
        game.submit(_quiet(game, req))
    assert req.player == "blue" and game.state.active == "blue"
    game.submit(_quiet(game, req))
    while (req := pending(game)).kind != "select_unit_to_fight":
        game.submit(_quiet(game, req))
    assert game.state.active == "red"


def test_a_player_whose_eligible_units_are_all_far_may_pass_and_two_passes_end_RA_Unable_a(
) -> None:
    units = [_u("red.a", "red", 10, 10, flags=FF),
             _u("blue.b", "blue", 10, 10 + BASE + 6.0, flags={"charged": True})]
    game = Game.new(fight_phase(units), seed=1)
    req = pending(game)
    while req.kind != "select_unit_to_fight":
        game.submit(_quiet(game, req))
        req = pending(game)
    assert req.player == "red" and req.options == ("red.a", "pass")
    game.submit("pass")
    req = pending(game)
    assert req.kind == "select_unit_to_fight" and req.player == "blue"
    assert "pass" in req.options
    game.submit("pass")
    game.pending()
    assert [e["by"] for e in events(game, "fight_pass")] == ["red", "blue"]
    assert events(game, "fight_step_end")
    assert not events(game, "select_to_fight")


def test_a_pass_ends_the_step_when_the_opponent_has_no_eligible_unit_RA_Unable_a() -> None:
    units = [_u("red.a", "red", 10, 10, flags=FF), _u("blue.b", "blue", 10, 10 + BASE + 6.0)]
    game = Game.new(fight_phase(units), seed=1)
    req = pending(game)
    while req.kind != "select_unit_to_fight":
        game.submit(_quiet(game, req))
        req = pending(game)
    game.submit("pass")
    game.pending()
    assert events(game, "fight_step_end")


def test_pass_is_not_offered_while_an_enemy_is_within_5_inches_RA_Unable_a() -> None:
    units = [_u("red.a", "red", 10, 10, flags=FF), _u("blue.b", "blue", 10, 10 + BASE + 4.0)]
    game = Game.new(fight_phase(units), seed=1)
    req = pending(game)
    while req.kind != "select_unit_to_fight":
        game.submit(_quiet(game, req))
        req = pending(game)
    assert "pass" not in req.options


def test_melee_attacks_remove_models_and_destroyed_units_do_not_fight_R12_05_a() -> None:
    big = [melee_weapon("Power klaw", A=12, WS=2, S=10, AP=-4, D=3)]
    units = [_u("red.a", "red", 10, 10, flags=FF, weapons=big),
             _u("blue.b", "blue", 10, 10 + BASE + ENGAGED_GAP, n=2)]
    game = Game.new(fight_phase(units), seed=4)
    order = _fight_order(game)
    assert order == [("red", "red.a")]  # blue.b was destroyed before it could fight
    assert game.state.unit("blue.b").destroyed
    assert events(game, "attack")[0]["melee"] is True


def test_a_declaration_with_an_unengaged_target_is_refused_R04_02_c() -> None:
    units = [_u("red.a", "red", 10, 10, flags=FF), _u("blue.b", "blue", 10, 10 + BASE + 1.0),
             _u("blue.c", "blue", 30, 30)]
    game = Game.new(fight_phase(units), seed=1)
    while (req := pending(game)).kind != "declare_fight":
        game.submit(_quiet(game, req))
    before = game.save()
    with pytest.raises(IllegalChoice) as exc:
        game.submit({"red.a.1": {"Close combat weapon": "blue.c"}})
    assert exc.value.rule == "R04.02-c" and game.save() == before
    with pytest.raises(IllegalChoice) as exc:
        game.submit({})
    assert exc.value.rule == "R04.02-e"


def test_pile_in_turn_player_first_base_contact_models_stay_and_3_inches_max_R12_02_R12_03(
) -> None:
    # red.a.1 is in base contact with blue.b.1; red.a.2 is 1.5" along, engaged too.
    units = [_u("red.a", "red", 10, 10, n=2),
             _u("blue.b", "blue", 10, 10 + BASE, n=1)]
    game = Game.new(fight_phase(units), seed=1)
    req = pending(game)
    assert (req.kind, req.player) == ("select_unit_to_pile_in", "red")  # R12.02-a
    game.submit("red.a")
    assert pending(game).kind == "positions"
    before = game.save()
    with pytest.raises(IllegalChoice) as exc:
        game.submit({"red.a.1": [[9.5, 10.0]]})
    assert exc.value.rule == "R12.03-c" and game.save() == before
    with pytest.raises(IllegalChoice) as exc:
        game.submit({"red.a.2": [[11.5, 14.0]]})
    assert exc.value.rule == "R03.01-a"
    game.submit("skip")
    req = pending(game)
    assert (req.kind, req.player, req.options) == ("select_unit_to_pile_in", "blue",
                                                   ("blue.b", "done"))


def test_an_unengaged_unit_that_did_not_charge_cannot_pile_in_R12_03_a() -> None:
    units = [_u("red.a", "red", 10, 10), _u("blue.b", "blue", 10, 10 + BASE + 3.0)]
    game = Game.new(fight_phase(units), seed=1)
    assert game.pending() is None  # nobody eligible to pile in, fight or consolidate


def test_a_charged_unit_whose_target_is_gone_makes_an_overrun_fight_R12_06_a() -> None:
    units = [_u("red.a", "red", 10, 10, flags=FF), _u("blue.b", "blue", 10, 10 + BASE + 3.0)]
    game = Game.new(fight_phase(units), seed=1)
    req = pending(game)
    while req.kind != "select_unit_to_fight":
        game.submit(_quiet(game, req))
        req = pending(game)
    game.submit("red.a")
    req = pending(game)
    assert req.kind == "pile_in_targets" and req.options == (["blue.b"], "skip")
    assert events(game, "fight_type")[-1]["type"] == "overrun"
    game.submit(["blue.b"])
    y = 10 + BASE + 3.0 - BASE - 0.5
    game.submit({"red.a.1": [[10.0, y]]})
    assert pending(game).kind == "declare_fight"


def test_consolidation_mode_is_forced_ongoing_when_engaged_and_objective_when_alone_R12_08(
) -> None:
    from w40k.engine.phases.fight import consolidation_mode
    units = [_u("red.a", "red", 10, 10), _u("blue.b", "blue", 10, 10 + BASE + 1.0),
             _u("red.c", "red", 40, 10)]
    game = Game.new(fight_phase(units, objectives=[marker("o", 40, 13.0)]), seed=1)
    assert consolidation_mode(game, game.state.unit("red.a")) == ("ongoing", ["blue.b"])
    assert consolidation_mode(game, game.state.unit("red.c")) == ("objective", ["o"])
    game.state.unit("red.c").models[0].y = 30.0
    assert consolidation_mode(game, game.state.unit("red.c")) == ("", [])  # R12.08-e


def test_objective_consolidation_must_end_in_range_when_it_can_R12_08_d() -> None:
    # red.a charged, its target is gone (no enemy within 3"); objective 2.5" away.
    units = [_u("red.a", "red", 10, 10, flags=FF), _u("blue.b", "blue", 40, 40)]
    obj = marker("o", 10, 10 + BASE / 2 + 0.79 + 2.5)
    game = Game.new(fight_phase(units, objectives=[obj]), seed=1)
    while (req := pending(game)).kind != "select_unit_to_consolidate":
        game.submit(_quiet(game, req))
    game.submit("red.a")
    req = pending(game)
    assert req.kind == "consolidate_objective" and req.options == ("o",)
    game.submit("o")
    with pytest.raises(IllegalChoice) as exc:
        game.submit({"red.a.1": [[10.0, 7.5]]})
    assert exc.value.rule == "R12.08-d"
    game.submit({"red.a.1": [[10.0, 12.0]]})
    assert events(game, "consolidate_move")


def test_a_random_battle_with_the_default_armies_still_finishes() -> None:
    from w40k.agents import RandomAgent
    from w40k.io.battle_setup import default_position
    game = Game.new(default_position(), seed=3)
    agent = RandomAgent(3)
    n = 0
    while (req := game.pending()) is not None:
        game.submit(agent.choose(game, req))
        n += 1
        assert n < 20_000
    assert game.state.ended


def test_a_random_close_quarters_battle_charges_fights_and_finishes() -> None:
    from tests.engine.core_helpers import position
    from w40k.agents import RandomAgent
    units = [_u("red.a", "red", 28, 16, n=3), _u("blue.b", "blue", 28, 24, n=3),
             _u("red.c", "red", 10, 16, n=2), _u("blue.d", "blue", 12, 24, n=2)]
    fought = 0
    for seed in range(8):
        game = Game.new(position(units, rounds=3), seed=seed)
        agent = RandomAgent(seed)
        while (req := game.pending()) is not None:
            game.submit(agent.choose(game, req))
        assert game.state.ended
        fought += len(events(game, "fought")) + len(events(game, "charge_roll"))
    assert fought
