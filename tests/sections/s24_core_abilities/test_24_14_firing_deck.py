"""Firing Deck X (24.14, R24.14-a): a TRANSPORT selected to shoot borrows up to X ranged
weapons of the models embarked within it; those units cannot shoot afterwards this turn."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.engine.core_helpers import events
from tests.engine.shooting_helpers import BOLTGUN, model, position, row, start, unit, weapon
from w40k.core.errors import IllegalChoice
from w40k.engine import legal
from w40k.engine.game import Game
from w40k.engine.phases.shooting import can_shoot
from w40k.engine.requests import Request

PLASMA = weapon("plasma gun", range=24, A="1", S=8, AP=-3, D="2")
LAUNCHER = weapon("missile", range=48, abilities=("ONE SHOT",), A="1", S=9, AP=-2, D="D6")


def _transport(deck: int = 2) -> dict[str, Any]:
    hull = model("red.rhino.1", 20.0, 10.0, weapon("storm bolter", range=24),
                 keywords=("VEHICLE", "TRANSPORT"), T=9, W=10)
    hull["profile"].update(transport={"models": 12}, abilities=[f"Firing Deck {deck}"],
                           base_mm=[120.0, 70.0])
    return unit("red.rhino", [hull])


def _passengers() -> dict[str, Any]:
    ms = row("red.sq", 5, 0.0, 0.0, BOLTGUN)
    ms[0]["weapons"] = [PLASMA, LAUNCHER]
    return {**unit("red.sq", ms), "location": "embarked", "embarked_in": "red.rhino"}


def _game(deck: int = 2, *extra: dict[str, Any]) -> tuple[Game, Request]:
    target = unit("blue.t", row("blue.t", 5, 20.0, 25.0, W=3, Sv=7))
    game = start(position(_transport(deck), _passengers(), target, *extra))
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_shoot"
    game.submit("red.rhino")
    req = game.pending()
    assert req is not None
    return game, req


def test_the_transport_shoots_with_up_to_x_embarked_weapons_R24_14_a() -> None:
    # R24.14-a: Firing Deck 2 with a 5-model unit embarked: two weapons are added to the
    # transport, fired from its position; the embarked unit cannot shoot afterwards.
    game, req = _game()
    assert req.kind == "firing_deck" and req.player == "red" and req.context["x"] == 2
    assert ["red.sq.1", "missile"] not in req.context["options"]  # [ONE SHOT] excluded
    game.submit([["red.sq.1", "plasma gun"], ["red.sq.2", "boltgun"]])
    req = game.pending()
    assert req is not None and req.kind == "declare_shooting"
    names = req.context["models"]["red.rhino.1"]  # type: ignore[index]
    assert names == ["storm bolter", "plasma gun (red.sq.1)", "boltgun (red.sq.2)"]
    game.submit({"red.rhino.1": {"storm bolter": "blue.t", "plasma gun (red.sq.1)": "blue.t",
                                 "boltgun (red.sq.2)": "blue.t"}})
    shots = events(game, "declare_shooting")[0]["shots"]
    assert ["red.rhino.1", "plasma gun (red.sq.1)", "blue.t"] in shots  # type: ignore[operator]
    squad = game.state.any_unit("red.sq")
    assert squad.flag("firing_deck") and not can_shoot(game.ctx, squad)
    while (r := game.pending()) is not None and r.kind != "select_unit_to_shoot":
        game.submit(r.default if r.default is not None else r.options[0])
    # Until it has resolved its attacks: the weapons are gone afterwards.
    hull = game.state.unit("red.rhino").models[0]
    assert [w.name for w in hull.weapons] == ["storm bolter"]


def test_more_than_x_models_or_one_model_twice_is_refused_R24_14_a() -> None:
    game, _ = _game(deck=1)
    with pytest.raises(IllegalChoice) as e:
        game.submit([["red.sq.1", "plasma gun"], ["red.sq.2", "boltgun"]])
    assert e.value.rule == "R24.14-a"
    game, _ = _game(deck=2)
    with pytest.raises(IllegalChoice) as e:
        game.submit([["red.sq.1", "plasma gun"], ["red.sq.1", "missile"]])
    assert e.value.rule == "R24.14-a"
    with pytest.raises(IllegalChoice) as e:
        game.submit([["red.sq.1", "missile"]])  # [ONE SHOT]
    assert e.value.rule == "R24.14-a"


def test_no_embarked_unit_no_firing_deck_request_R24_14_a() -> None:
    # R24.14-a: 'if one or more units are embarked within it'.
    target = unit("blue.t", row("blue.t", 5, 20.0, 25.0, W=3, Sv=7))
    game = start(position(_transport(), target))
    game.submit("red.rhino")
    req = game.pending()
    assert req is not None and req.kind == "declare_shooting"


def test_the_proposer_lends_legal_weapons_and_a_save_continues_R24_14_a() -> None:
    game, req = _game()
    answer = legal.sample(game, req, random.Random(1))
    assert isinstance(answer, list) and 1 <= len(answer) <= 2
    game.submit(answer)
    req2 = game.pending()
    assert req2 is not None and req2.kind == "declare_shooting"
    loaded = Game.load(game.save())
    assert loaded.pending() == req2
