"""Infiltrators (24.20) and Scouts (24.31, 24.32) in the pre-battle sequence of a game, with
exact geometry: more than 8" from the enemy zone and units, the Scouts options offered only
under their conditions, the scout move's distance and its end more than 8" from enemies, and
no embarking after a scout move (RF-5)."""

from __future__ import annotations

import json
import math

import pytest

from tests.engine.core_helpers import events
from tests.engine.deploy_helpers import (
    NO_RESERVES,
    deploy,
    line_at,
    pre_battle,
    squad,
    transport,
    until,
)
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game
from w40k.engine.offtable import BATTLEFIELD
from w40k.engine.serial import JSON
from w40k.geometry import Model, mm
from w40k.rules.transport import embark_violations

R = mm(32) / 2
INF = ("Infiltrators",)
SCOUT = ('Scouts 6"',)


def _game(*units: dict[str, JSON], declare: dict[str, JSON] | None = None) -> Game:
    """At blue's first ``deploy`` (blue deploys first); red declares ``declare``."""
    pos = pre_battle(*units, deploys_first="blue", first_turn="red")
    game = Game.new(pos, seed=1)
    for answer in (NO_RESERVES, declare or NO_RESERVES):
        game.submit(answer)
    return game


def _dx(gap: float, dy: float) -> float:
    """The x offset between two round 32 mm bases ``dy`` apart in y for a ``gap``."""
    return math.sqrt((gap + 2 * R) ** 2 - dy ** 2)


def test_infiltrators_set_up_more_than_8_inches_from_the_enemy_zone_and_units():
    # R24.20-a: 8.5" from the enemy zone and 9" from the nearest enemy -> allowed; 7.9"
    # from the zone -> refused; 8.5" from the zone but 7.9" from an enemy unit -> refused.
    game = _game(squad("red.inf", "red", abilities=INF),
                 squad("blue.inf", "blue", abilities=INF))
    by = 12.0 + 8.5 + R  # blue infiltrates 8.5" from red's zone (y <= 12)
    game.submit(deploy("blue.inf", {"blue.inf.1": [50.0, by]}))
    ry = 32.0 - 8.5 - R  # red: 8.5" from blue's zone (y >= 32)
    with pytest.raises(IllegalChoice) as err:
        game.submit(deploy("red.inf", {"red.inf.1": [10.0, 32.0 - 7.9 - R]}))
    assert err.value.rule == "R24.20-a" and "deployment zone" in str(err.value)
    with pytest.raises(IllegalChoice) as err:
        game.submit(deploy("red.inf", {"red.inf.1": [50.0 - _dx(7.9, ry - by), ry]}))
    assert err.value.rule == "R24.20-a" and "blue.inf" in str(err.value)
    game.submit(deploy("red.inf", {"red.inf.1": [50.0 - _dx(9.0, ry - by), ry]}))
    game.pending()
    assert game.state.unit("red.inf").location == BATTLEFIELD
    assert events(game, "deploy")[-1]["infiltrators"] is True


def test_a_unit_without_infiltrators_on_every_model_stays_in_its_zone():
    # R24.20-a: every model must have it; otherwise R03.02-a (wholly within its zone).
    mixed = squad("red.mix", "red", 2)
    mixed["models"][0]["profile"]["abilities"] = list(INF)  # type: ignore[index]
    game = _game(mixed, squad("blue.a", "blue"))
    game.submit(deploy("blue.a", line_at(game, "blue.a", 10.0, 40.0)))
    with pytest.raises(IllegalChoice) as err:
        game.submit(deploy("red.mix", line_at(game, "red.mix", 10.0, 20.0)))
    assert err.value.rule == "R03.02-a"


def _at_scouts(*red: dict[str, JSON], blue_x: float = 50.0, blue_y: float = 40.0,
               declare: dict[str, JSON] | None = None) -> Game:
    """Blue has one unit at (blue_x, blue_y) (an Infiltrator); red's units deploy in a row of
    spots along y = 12 - R, 10" apart; then the Scouts step is pending."""
    game = _game(*red, squad("blue.a", "blue", abilities=INF), declare=declare)
    game.submit(deploy("blue.a", {"blue.a.1": [blue_x, blue_y]}))
    x = 5.0
    while (req := game.pending()) is not None and req.kind == "deploy":
        uid = str(req.context["units"][0])  # type: ignore[index]
        r = max(mm(float(m.profile.base_mm)) / 2  # type: ignore[arg-type]
                for m in game.state.any_unit(uid).alive)
        game.submit(deploy(uid, line_at(game, uid, x, 12.0 - r)))
        x += 10.0
    return game


def test_scouts_options_are_offered_only_under_their_conditions():
    # R24.31-a: a Scouts unit wholly within its zone may make a scout move; a reserve unit
    # with Scouts may be set up in the zone; a unit without Scouts on every model, or one
    # outside its zone (an Infiltrator), gets neither.
    units = (squad("red.scout", "red", abilities=SCOUT), squad("red.plain", "red"),
             squad("red.res", "red", abilities=SCOUT),
             squad("red.far", "red", abilities=(*SCOUT, *INF)))
    game = _game(*units, squad("blue.a", "blue"), declare={"reserves": ["red.res"]})
    game.submit(deploy("blue.a", line_at(game, "blue.a", 50.0, 40.0)))
    game.submit(deploy("red.scout", line_at(game, "red.scout", 5.0, 5.0)))
    game.submit(deploy("red.plain", line_at(game, "red.plain", 15.0, 5.0)))
    game.submit(deploy("red.far", {"red.far.1": [30.0, 22.0]}))  # infiltrated out of zone
    req = game.pending()
    assert req is not None and req.kind == "scout" and req.player == "red"
    assert req.context == {"reserves": ["red.res"], "move": {"red.scout": 6.0}}
    for uid in ("red.plain", "red.far"):
        with pytest.raises(IllegalChoice) as err:
            game.submit({"unit": uid, "positions": {f"{uid}.1": [[30.0, 20.0]]}})
        assert err.value.rule == "R24.31-a"
    with pytest.raises(IllegalChoice) as err:  # the reserve unit is set up, not moved
        game.submit({"unit": "red.res", "positions": {"red.res.1": [[30.0, 10.0]]}})
    assert err.value.rule == "R24.31-a"
    with pytest.raises(IllegalChoice) as err:  # wholly within the zone
        game.submit({"unit": "red.res", "models": {"red.res.1": [40.0, 14.0]}})
    assert err.value.rule == "R03.02-a"
    game.submit({"unit": "red.res", "models": {"red.res.1": [40.0, 6.0]}})
    req = game.pending()
    assert req is not None and req.kind == "scout"  # blue has none: red goes on
    assert req.context == {"reserves": [], "move": {"red.scout": 6.0}}  # once each
    assert game.state.unit("red.res").location == BATTLEFIELD


def test_a_scout_move_goes_at_most_x_inches_and_ends_more_than_8_inches_from_enemies():
    # R24.32-a: Scouts 6": 6.5" refused; ending 7.9" from an enemy refused (and the game
    # untouched); 8.1" allowed.
    by = 12.0 + 10.0 + R  # blue infiltrated straight ahead of the scout (x = 5)
    game = _at_scouts(squad("red.scout", "red", abilities=SCOUT), blue_x=5.0, blue_y=by)
    y0 = 12.0 - R
    with pytest.raises(IllegalChoice) as err:
        game.submit({"unit": "red.scout", "positions": {"red.scout.1": [[5.0, y0 + 6.5]]}})
    assert err.value.rule.startswith("R03.01")  # farther than its maximum distance
    before = json.dumps(game.save())
    with pytest.raises(IllegalChoice) as err:
        game.submit({"unit": "red.scout",
                     "positions": {"red.scout.1": [[5.0, by - 2 * R - 7.9]]}})
    assert err.value.rule == "R24.32-a"
    assert json.dumps(game.save()) == before
    game.submit({"unit": "red.scout", "positions": {"red.scout.1": [[5.0, by - 2 * R - 8.1]]}})
    game.pending()
    assert events(game, "scout")[0]["kind"] == "scout_move"
    m = game.state.unit("red.scout").alive[0]
    assert (m.x, m.y) == (5.0, by - 2 * R - 8.1)


def test_a_unit_cannot_embark_after_a_scout_move():
    # RF-5 / R18.02-c: scout moves come after Declare Battle Formations, and embarking
    # needs a normal, advance or fall-back move in a battle round: the pre-battle sequence
    # has no embark request after the scouts, and the rule refuses a scout move.
    units = (squad("red.scout", "red", abilities=SCOUT), transport("red.rhino", "red"))
    game = _at_scouts(*units)
    kinds = []
    until(game, "select_unit_to_move",
          lambda r: (kinds.append(r.kind), "done")[1] if r.kind == "scout" else None)
    assert set(kinds) == {"scout"}
    assert all(e["event"] != "embark" for e in game.state.events)
    probe = Model("Scout 1", 10.0, 10.0, base_mm=32.0)
    hull = Model("Rhino", 12.0, 10.0, base_mm=60.0)
    assert any("R18.02-c" in v for v in embark_violations(
        [probe], hull, battle_round=0, set_up_this_turn=False, move="scout"))


def test_a_dedicated_transport_carrying_only_scouts_makes_their_scout_move():
    # R24.31-a (third option): a DEDICATED TRANSPORT wholly within its zone whose embarked
    # models all have Scouts moves up to their X; a plain TRANSPORT, or one carrying a unit
    # without Scouts, does not.
    dedicated = ("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT")
    units = (transport("red.ded", "red", keywords=dedicated), transport("red.plain", "red"),
             transport("red.mixed", "red", keywords=dedicated),
             squad("red.s1", "red", abilities=SCOUT), squad("red.s2", "red", abilities=SCOUT),
             squad("red.none", "red"))
    declare: dict[str, JSON] = {"embarked": {"red.s1": "red.ded", "red.s2": "red.plain",
                                             "red.none": "red.mixed"}}
    game = _at_scouts(*units, declare=declare)
    req = game.pending()
    assert req is not None and req.kind == "scout"
    assert req.context == {"reserves": [], "move": {"red.ded": 6.0}}
    hull = game.state.unit("red.ded").alive[0]
    game.submit({"unit": "red.ded", "positions": {hull.id: [[hull.x, hull.y + 6.0]]}})
    game.pending()
    assert events(game, "scout")[0]["unit"] == "red.ded"
    assert game.state.any_unit("red.s1").embarked_in == "red.ded"  # still aboard
