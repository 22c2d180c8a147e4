"""The built-in players finish battles, and their games replay exactly."""

from __future__ import annotations

import json

import pytest

from w40k.agents import GreedyAgent, RandomAgent
from w40k.engine.game import Game
from w40k.io.battle_setup import default_position

pytestmark = pytest.mark.stratagems  # plays with the core stratagems


def _play(seed: int, agent: type[GreedyAgent] | type[RandomAgent]) -> Game:
    game = Game.new(default_position(), seed)
    players = {"red": agent(seed * 2 + 1), "blue": agent(seed * 2 + 2)}
    while (request := game.pending()) is not None:
        game.submit(players[request.player].choose(game, request))
    return game


def test_two_greedy_players_fight_a_whole_battle_and_attacks_happen() -> None:
    game = _play(2, GreedyAgent)
    events = game.state.events
    assert events[-1]["event"] == "battle_end"
    assert game.state.round == 5
    # The greedy player closes in: shooting attacks resolve during the battle.
    assert any(e["event"] == "attack" for e in events)


def test_a_greedy_battle_replays_to_a_byte_identical_event_log() -> None:
    game = _play(3, GreedyAgent)
    again = Game.replay(game.record())
    assert json.dumps(again.state.events) == json.dumps(game.state.events)
