"""Declare Battle Formations in a game (20.01, 23.01, 18.01): what may start in strategic
reserves or embarked within a TRANSPORT, the 50% points limit counting units embarked in a
reserved transport, AIRCRAFT forced into reserves, and capacity."""

from __future__ import annotations

import json

import pytest

from tests.engine.core_helpers import events
from tests.engine.deploy_helpers import (
    NO_RESERVES,
    pre_battle,
    squad,
    transport,
)
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine.game import Game
from w40k.engine.offtable import EMBARKED, RESERVES, UNDEPLOYED
from w40k.engine.serial import JSON

POINTS = {"red.a": 500, "red.b": 500, "red.c": 5, "red.rhino": 100, "red.squad": 200,
          "red.d": 250}


def _declare(*units: dict[str, JSON], limit: int = 2000) -> Game:
    pos = pre_battle(*units, squad("blue.a", "blue"), points_limit=limit, points=POINTS)
    game = Game.new(pos, seed=1)
    req = game.pending()
    assert req is not None and req.kind == "declare_formations" and req.player == "red"
    return game


def test_half_the_points_limit_may_start_in_reserves_and_five_points_more_may_not():
    # R20.01-a: limit 2000 with 1000 points in reserve -> allowed; 1005 -> refused.
    units = (squad("red.a", "red"), squad("red.b", "red"), squad("red.c", "red"))
    game = _declare(*units)
    before = json.dumps(game.save())
    with pytest.raises(IllegalChoice) as err:
        game.submit({"reserves": ["red.a", "red.b", "red.c"]})
    assert err.value.rule == "R20.01-a" and "1005" in str(err.value)
    assert json.dumps(game.save()) == before
    game.submit({"reserves": ["red.a", "red.b"]})
    game.pending()
    s = game.state
    assert [s.any_unit(u).location for u in ("red.a", "red.b", "red.c")] == \
        [RESERVES, RESERVES, UNDEPLOYED]
    assert events(game, "battle_formations")[0]["reserves"] == ["red.a", "red.b"]


def test_a_reserved_transport_counts_the_units_embarked_within_it():
    # R20.01-a: a transport (100) plus its embarked unit (200) counts as 300: with a 500
    # limit (250 allowed) the transport alone may go, the loaded transport may not.
    units = (transport("red.rhino", "red"), squad("red.squad", "red", 5))
    game = _declare(*units, limit=500)
    with pytest.raises(IllegalChoice) as err:
        game.submit({"reserves": ["red.rhino"], "embarked": {"red.squad": "red.rhino"}})
    assert err.value.rule == "R20.01-a" and "300" in str(err.value)
    game.submit({"reserves": [], "embarked": {"red.squad": "red.rhino"}})  # on the table: 0
    game.pending()
    sq = game.state.any_unit("red.squad")
    assert (sq.location, sq.embarked_in) == (EMBARKED, "red.rhino")


def test_a_fortification_cannot_start_in_reserves():
    # R20.01-a: FORTIFICATIONs are excluded.
    game = _declare(squad("red.c", "red", keywords=("FORTIFICATION",)))
    with pytest.raises(IllegalChoice) as err:
        game.submit({"reserves": ["red.c"]})
    assert err.value.rule == "R20.01-a"


def test_an_aircraft_must_start_in_strategic_reserves():
    # R23.01-a: deploying an AIRCRAFT on the table is refused; the request's default puts
    # it in reserves.
    game = _declare(squad("red.c", "red", keywords=("VEHICLE", "AIRCRAFT", "FLY")))
    with pytest.raises(IllegalChoice) as err:
        game.submit(NO_RESERVES)
    assert err.value.rule == "R23.01-a"
    req = game.pending()
    assert req is not None and req.default == {"reserves": ["red.c"], "embarked": {}}
    assert req.context["aircraft"] == ["red.c"]
    game.submit(req.default)
    game.pending()
    assert game.state.any_unit("red.c").location == RESERVES


def test_units_start_embarked_only_while_the_capacity_holds_the_whole_unit():
    # R18.01-a: capacity 12: units of 10 and 2 -> allowed; 10 and 5 -> refused.
    fits = (transport("red.rhino", "red"), squad("red.a", "red", 10), squad("red.b", "red", 2))
    game = _declare(*fits)
    game.submit({"embarked": {"red.a": "red.rhino", "red.b": "red.rhino"}})
    game.pending()
    assert {u.id for u in game.state.off_table if u.embarked_in == "red.rhino"} == \
        {"red.a", "red.b"}
    over = (transport("red.rhino", "red"), squad("red.a", "red", 10), squad("red.b", "red", 5))
    game = _declare(*over)
    with pytest.raises(IllegalChoice) as err:
        game.submit({"embarked": {"red.a": "red.rhino", "red.b": "red.rhino"}})
    assert err.value.rule == "R18.01-a"


def test_a_unit_embarks_only_within_a_friendly_transport_that_is_not_embarked_itself():
    # R18.01-a: a unit that is not a TRANSPORT holds nobody; the embarked unit is not also
    # listed in reserves; another player's unit is not the player's to declare.
    game = _declare(transport("red.rhino", "red"), squad("red.a", "red"), squad("red.b", "red"))
    with pytest.raises(IllegalChoice) as err:
        game.submit({"embarked": {"red.a": "red.b"}})
    assert err.value.rule == "R18.01-a"
    with pytest.raises(IllegalChoice):
        game.submit({"reserves": ["red.a"], "embarked": {"red.a": "red.rhino"}})
    with pytest.raises(MalformedChoice):
        game.submit({"reserves": ["blue.a"]})
    with pytest.raises(MalformedChoice):
        game.submit({"reserve": []})


def test_an_embarked_unit_goes_on_the_table_with_its_transport():
    # 18.01: the transport is deployed; the unit inside stays embarked (not asked to deploy).
    game = _declare(transport("red.rhino", "red"), squad("red.a", "red", 2))
    game.submit({"embarked": {"red.a": "red.rhino"}})
    game.submit({"reserves": [], "embarked": {}})  # blue
    req = game.pending()
    assert req is not None and req.kind == "deploy" and req.context["units"] == ["red.rhino"]
