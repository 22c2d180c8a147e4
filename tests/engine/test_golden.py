"""Golden playthroughs (issue 9 item 9): complete seeded battles kept as readable transcripts
in ``tests/engine/golden/``. Any change to an event shows up as a diff in review.

After an intended change, regenerate them with ``W40K_UPDATE_GOLDEN=1 python -m pytest
tests/engine/test_golden.py`` and read the diff.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.engine.core_helpers import line, marker, position, unit
from w40k.agents import GreedyAgent, RandomAgent
from w40k.core.dice import ScriptedDice, SeededDice
from w40k.engine.game import Game
from w40k.engine.serial import JSON
from w40k.io.battle_setup import default_position

pytestmark = pytest.mark.stratagems  # plays with the core stratagems

GOLDEN = Path(__file__).parent / "golden"


def transcript(game: Game) -> str:
    """One line per event: ``R<round> <player> <phase> | <event> key=value ...``."""
    out = []
    for e in game.state.events:
        head = f"R{e['round']} {e['player'] or '-'} {e['phase'] or '-'}"
        rest = " ".join(f"{k}={json.dumps(v, sort_keys=True)}" for k, v in e.items()
                        if k not in ("event", "round", "player", "phase"))
        out.append(f"{head} | {e['event']} {rest}".rstrip())
    choices = "\n".join(json.dumps(c, sort_keys=True) for c in game.state.choices)
    return "\n".join(out) + "\n\n# choices\n" + choices + "\n"


def _hand_written() -> dict[str, JSON]:
    # Two squads 8" apart either side of an objective, with a fist-armed sergeant.
    red = unit("red.a", "red", line("red.a", 5, x=20, y=18, W=2))
    blue = unit("blue.b", "blue", line("blue.b", 5, x=20, y=26, W=1))
    pos = position([red, blue], objectives=[marker("middle", 23, 22)], rounds=3)
    for u in pos["units"]:  # type: ignore[union-attr]
        for m in u["models"]:  # type: ignore[index]
            m["weapons"] = [{"name": "Bolt rifle", "range": 24, "A": "2", "skill": 3, "S": 4,
                             "AP": -1, "D": "1", "abilities": []},
                            {"name": "Close combat weapon", "range": "Melee", "A": "2",
                             "skill": 3, "S": 4, "AP": 0, "D": "1", "abilities": []}]
    return pos


def _play(pos: dict[str, JSON], seed: int, agent: Callable[[int], object]) -> Game:
    game = Game.new(pos, seed)
    agents = {p.name: agent(seed * 10 + i) for i, p in enumerate(game.state.players)}
    while (req := game.pending()) is not None:
        game.submit(agents[req.player].choose(game, req),  # type: ignore[attr-defined]
                    player=req.player, request_id=req.id)
    return game


CASES: dict[str, Callable[[], Game]] = {
    "random_default_seed3": lambda: _play(default_position(), 3, RandomAgent),
    "greedy_default_seed5": lambda: _play(default_position(), 5, GreedyAgent),
    "greedy_hand_written_seed2": lambda: _play(_hand_written(), 2, GreedyAgent),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_golden_battle_plays_exactly_as_its_transcript(name: str) -> None:
    game = CASES[name]()
    assert game.state.ended
    text = transcript(game)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("W40K_UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), (
        f"{path.name} changed: regenerate with W40K_UPDATE_GOLDEN=1 and review the diff")
    replayed = Game.replay(game.record())
    assert transcript(replayed) == text  # and the record replays it byte for byte


def test_a_whole_battle_on_scripted_dice_replays_byte_for_byte() -> None:
    # Issue 9: Game.new(position, dice=ScriptedDice({...})) plays a battle on scripted dice
    # (here every charge roll is 6+6 and every advance a 6; the rest from a fallback seed),
    # and the record replays it identically.
    dice = ScriptedDice({"charge": [6] * 200, "advance": [6] * 100}, fallback=SeededDice(9))
    game = Game.new(default_position(), 4, dice=dice)
    agents = {p.name: GreedyAgent(40 + i) for i, p in enumerate(game.state.players)}
    while (req := game.pending()) is not None:
        game.submit(agents[req.player].choose(game, req))
    rolls = [e for e in game.state.events if e["event"] == "roll" and e["kind"] == "charge"]
    assert rolls and all(e["faces"] == [6, 6] for e in rolls)
    record = json.loads(json.dumps(game.record()))
    assert json.dumps(Game.replay(record).record()["events"]) == json.dumps(record["events"])
