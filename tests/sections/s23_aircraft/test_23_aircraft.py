"""AIRCRAFT in the other units' rules (23.02-c/d/e, 23.04): moving through them, ignoring
them when picking pile-in, consolidation and charge targets, moving away from them, and the
melee restrictions for and against them. 32 mm bases: centres 1.26" apart touch."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine import movement_helpers as mh
from tests.engine.melee_helpers import BASE, fight_phase, fighter, pending, unit
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game
from w40k.engine.phases.charge import charge_targets, eligible_to_charge
from w40k.engine.phases.fight import consolidation_mode
from w40k.engine.phases.fight_sequence import check_declaration, default_declaration
from w40k.engine.serial import JSON

JET = ("VEHICLE", "AIRCRAFT", "FLY")


def _u(uid: str, player: str, x: float, y: float, *, flags: dict[str, bool] | None = None,
       **prof: Any) -> dict[str, JSON]:
    return unit(uid, player, [fighter(f"{uid}.1", x, y, W=10, **prof)], flags=flags)


def _fight(*units: dict[str, JSON]) -> Game:
    return Game.new(fight_phase(list(units)), seed=1)


# -- 23.02 movement -------------------------------------------------------------------------
def test_any_unit_may_move_through_an_aircraft_model_but_not_through_infantry_R23_02_c(
) -> None:
    # R23.02-c: the infantry model walks 8" straight through the AIRCRAFT's base.
    jet = mh.unit("blue.jet", "blue", [mh.model("blue.jet.1", 10.0, 14.0, keywords=JET)])
    game, _ = mh.start(mh.unit("red.a", "red", [mh.model("red.a.1", 10.0, 10.0, M=10)]), jet)
    mh.answer(game, "red.a", "normal")
    game.submit({"red.a.1": [[10.0, 18.0]]})
    game.pending()
    assert game.state.unit("red.a").models[0].y == 18.0
    # The same path through an enemy infantry model is refused (R03.01-d).
    inf = mh.unit("blue.inf", "blue", [mh.model("blue.inf.1", 10.0, 14.0)])
    game, _ = mh.start(mh.unit("red.a", "red", [mh.model("red.a.1", 10.0, 10.0, M=10)]), inf)
    mh.answer(game, "red.a", "normal")
    with pytest.raises(IllegalChoice) as e:
        game.submit({"red.a.1": [[10.0, 18.0]]})
    assert e.value.rule == "R03.01-d"


def test_being_engaged_only_with_aircraft_allows_normal_and_advance_moves_R23_02_e() -> None:
    # R23.02-e: 1.5" (edge to edge) from an enemy AIRCRAFT: normal and advance are offered;
    # the unit moves through it and away (it must still end unengaged, 09.05).
    jet = mh.unit("blue.jet", "blue", [mh.model("blue.jet.1", 10.0, 10.0 + BASE + 1.5,
                                                keywords=JET)])
    game, _ = mh.start(mh.unit("red.a", "red", [mh.model("red.a.1", 10.0, 10.0, M=10)]), jet)
    req = mh.answer(game, "red.a")
    assert {"normal", "advance", "fall_back_ordered"} <= set(req.options)
    game.submit("normal")
    with pytest.raises(IllegalChoice) as e:
        game.submit({"red.a.1": [[11.0, 10.0]]})  # still engaged with the AIRCRAFT
    assert e.value.rule == "R09.05-a"
    game.submit({"red.a.1": [[10.0, 19.0]]})
    game.pending()
    assert game.state.unit("red.a").models[0].y == 19.0


def test_engaged_with_infantry_as_well_there_is_no_normal_move_R23_02_e() -> None:
    # R23.02-e: only 'solely with AIRCRAFT' lifts the restriction.
    jet = mh.unit("blue.jet", "blue", [mh.model("blue.jet.1", 10.0, 10.0 + BASE + 1.5,
                                                keywords=JET)])
    inf = mh.unit("blue.inf", "blue", [mh.model("blue.inf.1", 10.0 - BASE - 1.0, 10.0)])
    game, _ = mh.start(mh.unit("red.a", "red", [mh.model("red.a.1", 10.0, 10.0)]), jet, inf)
    req = mh.answer(game, "red.a")
    assert "normal" not in req.options and "advance" not in req.options


def test_a_non_flying_unit_ignores_an_engaged_aircraft_when_piling_in_R23_02_d() -> None:
    # R23.02-d: engaged only with an AIRCRAFT, an enemy infantry unit 4" away: the pile-in
    # targets are the infantry only.
    red = _u("red.a", "red", 10.0, 10.0, flags={"charged": True})
    jet = _u("blue.jet", "blue", 10.0, 10.0 + BASE + 1.0, keywords=JET)
    inf = _u("blue.inf", "blue", 10.0 - BASE - 4.0, 10.0)
    game = _fight(red, jet, inf)
    req = pending(game)
    while req.kind != "pile_in_targets":
        game.submit("red.a" if "red.a" in req.options else req.options[0])
        req = pending(game)
    assert req.options == (["blue.inf"], "skip")


def test_a_flying_unit_piles_in_toward_the_engaged_aircraft_R23_02_d() -> None:
    # R23.02-d: 'unless that unit can FLY': the engaged AIRCRAFT is the pile-in target.
    red = _u("red.a", "red", 10.0, 10.0, flags={"charged": True}, keywords=("INFANTRY", "FLY"))
    jet = _u("blue.jet", "blue", 10.0, 10.0 + BASE + 1.0, keywords=JET)
    inf = _u("blue.inf", "blue", 10.0 - BASE - 4.0, 10.0)
    game = _fight(red, jet, inf)
    game.pending()
    ctx = game.ctx
    assert consolidation_mode(ctx, game.state.unit("red.a")) == ("ongoing", ["blue.jet"])


def test_consolidation_of_a_non_flying_unit_ignores_the_aircraft_R23_02_d() -> None:
    # R23.02-d: the mode is 'engaging' toward the infantry, not 'ongoing' with the AIRCRAFT.
    red = _u("red.a", "red", 10.0, 10.0)
    jet = _u("blue.jet", "blue", 10.0, 10.0 + BASE + 1.0, keywords=JET)
    inf = _u("blue.inf", "blue", 10.0 - BASE - 2.5, 10.0)
    game = _fight(red, jet, inf)
    assert consolidation_mode(game.ctx, game.state.unit("red.a")) == ("engaging", ["blue.inf"])


# -- 23.04 charging and fighting --------------------------------------------------------------
def test_only_flying_units_may_select_aircraft_as_charge_targets_R23_04_b() -> None:
    # R23.04-b: an AIRCRAFT 5" away: not a target of an infantry unit, a target of a FLY one;
    # with only the AIRCRAFT within 12" the infantry unit cannot declare a charge.
    red = _u("red.a", "red", 10.0, 10.0)
    fly = _u("red.f", "red", 30.0, 10.0, keywords=("INFANTRY", "FLY"))
    jet = _u("blue.jet", "blue", 20.0, 10.0, keywords=JET)
    game = _fight(red, fly, jet)
    ctx = game.ctx
    assert charge_targets(ctx, game.state.unit("red.a"), 12) == []
    assert not eligible_to_charge(ctx, game.state.unit("red.a"))
    assert charge_targets(ctx, game.state.unit("red.f"), 12) == ["blue.jet"]
    assert eligible_to_charge(ctx, game.state.unit("red.f"))


def test_aircraft_cannot_declare_a_charge_R23_04_a() -> None:
    # R23.04-a: an AIRCRAFT unit 5" from an enemy is not eligible to declare a charge.
    game = _fight(_u("red.jet", "red", 10.0, 10.0, keywords=JET), _u("blue.b", "blue", 15.0, 10))
    assert not eligible_to_charge(game.ctx, game.state.unit("red.jet"))


def test_only_flying_models_make_melee_attacks_against_aircraft_R23_04_b() -> None:
    # R23.04-b: a non-FLY model engaged with an AIRCRAFT may not attack it; the default
    # declaration leaves it out; a FLY model may.
    red = _u("red.a", "red", 10.0, 10.0)
    jet = _u("blue.jet", "blue", 10.0, 10.0 + BASE + 1.0, keywords=JET)
    game = _fight(red, jet)
    u = game.state.unit("red.a")
    with pytest.raises(IllegalChoice) as e:
        check_declaration(game.ctx, u, {"red.a.1": {"Close combat weapon": "blue.jet"}})
    assert e.value.rule == "R23.04-b"
    assert default_declaration(game.ctx, u) == {}
    check_declaration(game.ctx, u, {})  # R04.02-e does not demand a forbidden target
    fly = _u("red.a", "red", 10.0, 10.0, keywords=("INFANTRY", "FLY"))
    game = _fight(fly, jet)
    check_declaration(game.ctx, game.state.unit("red.a"),
                      {"red.a.1": {"Close combat weapon": "blue.jet"}})


def test_aircraft_melee_attacks_target_only_flying_units_R23_04_a() -> None:
    # R23.04-a: an AIRCRAFT engaged with infantry cannot attack it, but can attack a FLY unit.
    jet = _u("red.jet", "red", 10.0, 10.0, keywords=JET)
    inf = _u("blue.inf", "blue", 10.0, 10.0 + BASE + 1.0)
    game = _fight(jet, inf)
    with pytest.raises(IllegalChoice) as e:
        check_declaration(game.ctx, game.state.unit("red.jet"),
                          {"red.jet.1": {"Close combat weapon": "blue.inf"}})
    assert e.value.rule == "R23.04-a"
    flyer = _u("blue.inf", "blue", 10.0, 10.0 + BASE + 1.0, keywords=("INFANTRY", "FLY"))
    game = _fight(jet, flyer)
    check_declaration(game.ctx, game.state.unit("red.jet"),
                      {"red.jet.1": {"Close combat weapon": "blue.inf"}})
