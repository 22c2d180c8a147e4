"""``Game.pending`` numbers each request with :meth:`DecisionRequest.remade` instead of
``dataclasses.replace``: these tests compare the two on every request of seeded games and on
requests with every field set."""

from __future__ import annotations

import dataclasses

import pytest

from tests.engine.test_fuzz import small_position
from w40k.agents.greedy import GreedyAgent
from w40k.engine.game import Game
from w40k.engine.requests import K, Request, request
from w40k.io.battle_setup import default_position


@pytest.mark.parametrize("seed", [0, 1])
def test_numbered_equals_replace_on_every_request_of_a_game(seed: int) -> None:
    """Every request of a seeded skirmish, numbered both ways: equal, of the same type, with
    the same field objects."""
    game = Game.new(small_position(default_position(), seed=seed), seed)
    agents = {p.name: GreedyAgent(3 + i) for i, p in enumerate(game.state.players)}
    while (req := game.pending()) is not None and len(game.state.choices) < 150:
        for n in (1, req.id, 10_000):
            a, b = req.remade(req.player, req.context, n), dataclasses.replace(req, id=n)
            assert a == b and type(a) is type(b) and a.id == n
            assert all(getattr(a, f.name) is getattr(b, f.name)
                       for f in dataclasses.fields(Request))
        game.submit(agents[req.player].choose(game, req))


def test_numbered_keeps_every_field_set() -> None:
    """A request with each optional field set: every field but ``id`` kept."""
    req = dataclasses.replace(
        request("red", K.REACTION, "15.01", "use a rule", ("decline", ["x", 1]),
                context={"window": "after_roll"}, labels=("decline", "x"), default="decline",
                free_form="text"), groups=(("a", "b"), ("c",)), id=4)
    out = req.remade(req.player, req.context, 9)
    assert out == dataclasses.replace(req, id=9) and out.groups == (("a", "b"), ("c",))
