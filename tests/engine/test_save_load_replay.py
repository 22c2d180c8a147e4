"""Save/load/replay round trips (DESIGN.md "State is data", "Game record"): at every decision
of a few seeded random games, the saved position survives a JSON round trip, loads, and the
loaded game continued with the same choices ends with the same event log and record as the
game continued directly; ``Game.replay(record)`` reproduces the event log byte for byte.

The small games are continued to the end from every decision; the default-position games
(random players, and greedy players who charge and fight) are stepped once from every
decision (the next saved position must match) and continued to the end from a spread of
decisions, to keep the file quick.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from tests.engine.test_fuzz import small_position
from w40k.agents.greedy import GreedyAgent
from w40k.agents.random_agent import RandomAgent
from w40k.engine.game import Game
from w40k.engine.serial import JSON
from w40k.io.battle_setup import default_position

pytestmark = pytest.mark.stratagems  # plays with the core stratagems


@dataclass
class Played:
    """A reference game: the saved position (JSON text) and request before each decision,
    the choices, and the final log and record."""

    saves: list[str]
    requests: list[str]
    choices: list[JSON]
    events: str
    record: str
    game: Game


def play(position: dict[str, JSON], seed: int, *, greedy: bool = False) -> Played:
    game = Game.new(position, seed)
    kind = GreedyAgent if greedy else RandomAgent
    agents = {p.name: kind(seed * 31 + i) for i, p in enumerate(game.state.players)}
    saves, requests, choices = [], [], []
    while (req := game.pending()) is not None:
        saves.append(json.dumps(game.save()))
        requests.append(json.dumps(req.to_json()))
        choice = agents[req.player].choose(game, req)
        game.submit(choice)
        choices.append(choice)
    return Played(saves, requests, choices, json.dumps(game.state.events),
                  json.dumps(game.record()), game)


def load(saved: str) -> Game:
    return Game.load(json.loads(saved))


def finish(game: Game, choices: list[JSON]) -> Game:
    for c in choices:
        req = game.pending()
        assert req is not None, "the continued game ended early"
        game.submit(c)
    assert game.pending() is None, "the continued game asks for more than the original"
    return game


def check_from(ref: Played, i: int, seed: int) -> None:
    game = load(ref.saves[i])
    where = f"seed {seed}, decision {i}"
    assert json.dumps(game.save()) == ref.saves[i], f"{where}: save/load is not the identity"
    req = game.pending()
    assert req is not None and json.dumps(req.to_json()) == ref.requests[i], \
        f"{where}: the loaded game asks something else"
    finish(game, ref.choices[i:])
    assert json.dumps(game.state.events) == ref.events, \
        f"{where}: the loaded game continued ends with another event log"
    assert json.dumps(game.record()) == ref.record, f"{where}: another record"


SMALL_SEEDS = (11, 12, 13)


@pytest.mark.parametrize("seed", SMALL_SEEDS)
def test_a_game_saved_and_loaded_at_any_decision_ends_the_same(seed: int) -> None:
    ref = play(small_position(default_position(), seed=seed), seed)
    assert ref.choices, "the game asked nothing"
    for i in range(len(ref.choices)):
        check_from(ref, i, seed)


@pytest.mark.parametrize("greedy", [False, True])
def test_the_default_game_saved_at_every_decision_steps_and_ends_the_same(greedy: bool) -> None:
    # With greedy players the game charges and fights, and is saved in the middle of attacks
    # (allocation order requests) and fight sequences.
    seed = 23 if greedy else 21
    ref = play(default_position(), seed, greedy=greedy)
    if greedy:
        kinds = {json.loads(r)["kind"] for r in ref.requests}
        assert "allocation_order" in kinds and "declare_fight" in kinds
    n = len(ref.choices)
    for i in range(n):
        game = load(ref.saves[i])
        assert json.dumps(game.save()) == ref.saves[i], f"decision {i}: save/load differs"
        game.submit(ref.choices[i])
        if i + 1 < n:
            assert game.pending() is not None
            assert json.dumps(game.save()) == ref.saves[i + 1], \
                f"seed {seed}, decision {i}: one step from the loaded game differs"
    for i in sorted({0, n // 7, 2 * n // 7, 3 * n // 7, 4 * n // 7, 5 * n // 7, 6 * n // 7,
                     n - 1}):
        check_from(ref, i, seed)


@pytest.mark.parametrize(("seed", "greedy"), [(11, False), (12, False), (13, False),
                                             (21, False), (23, True), (24, True)])
def test_replaying_a_record_gives_a_byte_identical_event_log(seed: int, greedy: bool) -> None:
    pos = default_position() if seed > 20 else small_position(default_position(), seed=seed)
    ref = play(pos, seed, greedy=greedy)
    again = Game.replay(json.loads(ref.record))
    assert json.dumps(again.state.events) == ref.events
    assert json.dumps(again.record()) == ref.record
    # the CLI writes the record without copying it: the same text
    assert again.record_text() == json.dumps(again.record()) == ref.record
    assert again.pending() is None


def test_the_record_of_a_loaded_game_replays_from_the_start() -> None:
    # A game saved mid-battle keeps its seed, setup and every choice, so its record replays.
    seed = 12
    ref = play(small_position(default_position(), seed=seed), seed)
    mid = len(ref.choices) // 2
    game = finish(load(ref.saves[mid]), ref.choices[mid:])
    assert json.dumps(Game.replay(game.record()).state.events) == ref.events


def test_a_clone_at_any_decision_plays_on_like_the_original() -> None:
    seed = 13
    ref = play(small_position(default_position(), seed=seed), seed)
    game = Game.new(small_position(default_position(), seed=seed), seed)
    for i, c in enumerate(ref.choices):
        game.pending()
        if i % 5 == 0:
            twin = finish(game.clone(), ref.choices[i:])
            assert json.dumps(twin.state.events) == ref.events, f"clone at decision {i}"
        game.submit(c)
    assert game.pending() is None
    assert json.dumps(game.state.events) == ref.events


@pytest.mark.parametrize(("seed", "agents"), [(1101, (2203, 2204)), (1125, (2251, 2252))])
def test_a_save_with_its_keys_sorted_continues_as_the_game_does(
        seed: int, agents: tuple[int, int]) -> None:
    # A saved game's meaning never depends on the order of its JSON keys (a save passed
    # through jq -S or a database): declarations and moves are read in the unit's order.
    pos = default_position()
    pos["players"].reverse()  # type: ignore[union-attr]
    game = Game.new(pos, seed)
    players = {p.name: GreedyAgent(a) for p, a in zip(game.state.players, agents, strict=True)}
    while (req := game.pending()) is not None:
        game.submit(players[req.player].choose(game, req))
        twin = Game.load(json.loads(json.dumps(game.save(), sort_keys=True)))
        assert twin.pending() == game.pending()
        assert twin.save() == game.save(), f"parted after decision {len(game.state.choices)}"


def test_an_attack_that_asks_is_resumed_where_it_stopped_never_re_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 9 item 2: each attack's sequence starts once (its first step runs once per attack)
    # however many decisions it asks, in a seeded greedy battle with attacks that ask.
    from w40k.rules import attack_machine

    starts = 0
    original = attack_machine._Machine.duplicates

    def counted(self: attack_machine._Machine) -> object:
        nonlocal starts
        if self.s.entry == 0:
            starts += 1
        return original(self)

    monkeypatch.setattr(attack_machine._Machine, "duplicates", counted)
    game = Game.new(default_position(), 1101)
    players = {p.name: GreedyAgent(i + 7) for i, p in enumerate(game.state.players)}
    asked = 0
    while (req := game.pending()) is not None:
        asked += req.kind in ("allocation_order", "select_model", "precision", "lethal_hits")
        game.submit(players[req.player].choose(game, req))
    attacks = sum(e["event"] == "attack" for e in game.state.events)
    assert asked > 0 and attacks > 0
    assert starts == attacks


def test_a_standing_allocation_policy_answers_select_model_without_asking() -> None:
    # R05.04-b / R06.02-a: with positions, models are rarely interchangeable, so a greedy
    # battle asks Select Model; a player's standing policy ("closest_first") answers instead.
    def play(policies: dict[str, str]) -> tuple[int, int]:
        pos = default_position()
        pos["policies"] = policies  # type: ignore[assignment]
        game = Game.new(pos, 5)
        agents = {p.name: GreedyAgent(50 + i) for i, p in enumerate(game.state.players)}
        asked = 0
        while (req := game.pending()) is not None:
            asked += req.kind == "select_model"
            game.submit(agents[req.player].choose(game, req))
        used = sum(e["event"] == "allocation_policy" for e in game.state.events)
        return asked, used

    asked, used = play({})
    assert asked > 0 and used == 0
    asked, used = play({"red": "closest_first", "blue": "closest_first"})
    assert asked == 0 and used > 0


def test_an_unknown_allocation_policy_is_refused_naming_it() -> None:
    pos = default_position()
    pos["policies"] = {"red": "nearest"}  # type: ignore[assignment]
    with pytest.raises(ValueError, match=r"policies\.red"):
        Game.new(pos, 1)
