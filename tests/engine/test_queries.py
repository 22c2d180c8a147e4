"""Read-only queries (issue 9 item 8): strength (Appendix), the last ranged attacks (13.09),
CP and VP, open windows. No query changes the game or rolls a die."""

from __future__ import annotations

import json

import pytest

from tests.engine.core_helpers import line, position, unit
from w40k.agents.greedy import GreedyAgent
from w40k.engine import queries, windows
from w40k.engine.game import Game
from w40k.engine.windows import Reaction, Window
from w40k.io.battle_setup import default_position


def _game(dead: int, n: int = 4) -> Game:
    u = unit("red.a", "red", line("red.a", n, x=10, y=10, dead=range(dead)),
             starting_strength=n)
    e = unit("blue.b", "blue", line("blue.b", 1, x=40, y=30), starting_strength=1)
    return Game.new(position([u, e], round=1), seed=1)


@pytest.mark.parametrize(("dead", "below", "at_half", "below_half"),
                         [(0, False, False, False), (1, True, False, False),
                          (2, True, True, False), (3, True, False, True)])
def test_strength_queries_follow_the_appendix(dead: int, below: bool, at_half: bool,
                                               below_half: bool) -> None:
    # RA-Strength-b, RA-Strength-d: 4 models at the start; 3 left is below starting
    # strength, 2 left is at half, 1 left is below half.
    game = _game(dead)
    before = json.dumps(game.save())
    assert queries.below_starting_strength(game, "red.a") is below
    assert queries.at_half_strength(game, "red.a") is at_half
    assert queries.below_half_strength(game, "red.a") is below_half
    assert json.dumps(game.save()) == before  # nothing changed, no die rolled


def test_last_ranged_attacks_cp_vp_and_open_windows() -> None:
    # R13.09-a needs the round and turn of a unit's last ranged attacks
    game = Game.new(default_position(), 7)
    agents = {p.name: GreedyAgent(i) for i, p in enumerate(game.state.players)}
    shooter = None
    while (req := game.pending()) is not None and shooter is None:
        game.submit(agents[req.player].choose(game, req))
        shot = [e for e in game.state.events if e["event"] == "declare_shooting" and e["shots"]]
        if shot:
            shooter = str(shot[-1]["unit"])
    assert shooter is not None
    when = queries.last_ranged_attacks(game, shooter)
    assert when is not None and (when.round, when.player) == (game.state.round,
                                                              game.state.turn_player)
    for p in game.state.players:
        assert queries.command_points(game, p.name) == p.cp
        assert queries.victory_points(game, p.name) == p.vp
    assert queries.open_windows(game) == []


def test_open_windows_lists_the_window_being_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    always = Reaction("Always", Window.START_OF_TURN, "test",
                      lambda g, f, p: ["yes"] if p == "red" else [], lambda g, f, p, a: None)
    monkeypatch.setattr(windows, "REACTIONS", (always,))
    game = Game.new(default_position(), 1)
    req = game.pending()
    assert req is not None and req.kind == "reaction"
    assert queries.open_windows(game) == [{"window": "start_of_turn", "facts": {}}]
