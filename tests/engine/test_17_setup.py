"""``Game.new`` reads each distinct model profile and weapon list of a position once and lets
the models share it (``state.Parsed``), and keeps the setup as JSON text read from one copy
of the position: these tests compare the shared objects with the ones parsing each model's
JSON afresh gives, on real and randomly altered positions, and the records, saves, loads
and clones with the setup as the position was when the game began."""

from __future__ import annotations

import copy
import json
import random
from typing import cast

import pytest

from w40k.agents.greedy import GreedyAgent
from w40k.core.errors import DataError
from w40k.core.profiles import weapon_from_json
from w40k.engine.game import Game
from w40k.engine.serial import JSON, profile_from_json
from w40k.engine.state import GameState, ModelData
from w40k.engine.table import read_frame
from w40k.io.battle_scale import scaled_position
from w40k.io.battle_setup import default_position, real_battle_position


def _models(position: dict[str, JSON]) -> list[dict[str, JSON]]:
    return [cast(dict[str, JSON], m) for u in cast(list[dict[str, JSON]], position["units"])
            for m in cast(list[dict[str, JSON]], u["models"])]


def _check_shared(position: dict[str, JSON]) -> None:
    """Every model of the game read from ``position``: its profile and weapons equal (same
    types too) to its own JSON parsed afresh, and one object per distinct JSON text."""
    state = Game.new(position, 0).state
    models = {m.id: m for u in (*state.units, *state.off_table) for m in u.models}
    profiles: dict[str, set[int]] = {}
    weapons: dict[str, set[int]] = {}
    for d in _models(position):
        m = models[str(d["id"])]
        fresh = ModelData.from_json(d)  # no sharing: each model parsed on its own
        assert m.profile == fresh.profile and m.weapons == fresh.weapons
        assert type(m.weapons) is tuple
        assert [type(w.A) for w in m.weapons] == [type(w.A) for w in fresh.weapons]
        assert m.profile == profile_from_json(cast(dict[str, JSON], d["profile"]))
        assert list(m.weapons) == [weapon_from_json(cast(dict[str, JSON], w))
                                   for w in cast(list[JSON], d.get("weapons", []))]
        profiles.setdefault(json.dumps(d["profile"]), set()).add(id(m.profile))
        weapons.setdefault(json.dumps(d.get("weapons", [])), set()).add(id(m.weapons))
    assert all(len(ids) == 1 for ids in profiles.values())  # shared: one object per text
    assert all(len(ids) == 1 for ids in weapons.values())


@pytest.mark.parametrize("k", [1, 2, 3])
def test_scaled_positions_share_equal_profiles(k: int) -> None:
    """The scaled default positions: each model's shared profile and weapons equal its own
    JSON's."""
    _check_shared(scaled_position(k))


def test_real_battle_shares_equal_profiles() -> None:
    """The 1000-point battle's position (reserves and transports included)."""
    _check_shared(real_battle_position())


def _altered(rng: random.Random) -> dict[str, JSON]:
    """The default position with random models' profiles and weapons changed in ways that
    parse to equal or different values: numbers written as text, keys reordered, keywords
    and abilities added, characteristics changed."""
    pos = default_position()
    for d in _models(pos):
        prof = cast(dict[str, JSON], d["profile"])
        ws = cast(list[dict[str, JSON]], d.get("weapons", []))
        roll = rng.random()
        if roll < 0.15:
            prof["W"] = cast(int, prof["W"]) + rng.choice([1, 2])
        elif roll < 0.3:
            prof["T"] = str(prof["T"])  # the same toughness, written as text
        elif roll < 0.45:
            d["profile"] = dict(reversed(list(prof.items())))  # the same, keys reordered
        elif roll < 0.55:
            prof["keywords"] = [*cast(list[str], prof.get("keywords", [])), "GRENADES"]
        elif roll < 0.7 and ws:
            w = rng.choice(ws)
            w["A"] = rng.choice(["2", 2, "D3", "D6+1"])
        elif roll < 0.8 and ws:
            w = rng.choice(ws)
            w["abilities"] = [*cast(list[str], w.get("abilities", [])), "LETHAL HITS"]
        elif roll < 0.9 and ws:
            ws.reverse()
    return pos


@pytest.mark.parametrize("seed", range(12))
def test_altered_positions_share_equal_profiles(seed: int) -> None:
    """Random changes to the models' JSON (equal values written differently, or different
    values): shared objects only for the same text, each equal to its JSON parsed afresh."""
    _check_shared(_altered(random.Random(seed)))


@pytest.mark.parametrize(("field", "values"), [
    ("S", [4, 4.0]), ("S", [4, True]), ("AP", [0, False]), ("skill", [3, 3.0]),
])
def test_values_equal_in_python_but_not_in_json_are_read_apart(
        field: str, values: list[JSON]) -> None:
    """``4 == 4.0 == True`` in Python, but a weapon with ``S: 4.0`` (or ``True``) is
    malformed: one model with the valid value first does not let a later one's invalid
    value through (the key tells them apart), so the position is refused as before."""
    pos = default_position()
    ws = [cast(list[dict[str, JSON]], d["weapons"]) for d in _models(pos) if d.get("weapons")]
    first, second = ws[0], ws[1]
    second[:] = copy.deepcopy(first)
    first[0][field] = values[0]
    second[0][field] = values[1]
    with pytest.raises(DataError):
        ModelData.from_json({"id": "m", "profile": _models(pos)[0]["profile"],
                             "weapons": cast(list[JSON], second)})
    with pytest.raises(DataError):
        Game.new(pos, 0)


def test_state_read_with_and_without_sharing_is_equal() -> None:
    """``GameState.from_json`` with ``loaded`` (sharing) and without: equal states, equal
    saved JSON."""
    pos = json.loads(json.dumps(real_battle_position(rounds=2)))
    shared = GameState.from_json(copy.deepcopy(pos), read_frame, loaded=True)
    fresh = GameState.from_json(copy.deepcopy(pos), read_frame)
    assert shared == fresh
    assert shared.to_json() == fresh.to_json()


def _play(game: Game, n: int, seed: int) -> None:
    agents = {p.name: GreedyAgent(seed + i) for i, p in enumerate(game.state.players)}
    while (req := game.pending()) is not None and len(game.state.choices) < n:
        game.submit(agents[req.player].choose(game, req))


def test_record_setup_is_the_position_when_the_game_began() -> None:
    """The record's setup is the position (a JSON copy) with the dice as they were at the
    start, whatever the caller does to its position afterwards; a clone, a save and a
    loaded save carry the same setup, and a replay gives the same record."""
    pos = default_position()
    expected = json.loads(json.dumps(pos))
    game = Game.new(pos, 5)
    start_dice = game.dice.to_json()
    cast(list[dict[str, JSON]], pos["units"])[0]["name"] = "changed"  # the caller's edit
    pos["mission"] = {}
    _play(game, 40, 7)
    record = game.record()
    setup = copy.deepcopy(cast(dict[str, JSON], record["setup"]))
    assert setup == {**expected, "dice": json.loads(json.dumps(start_dice))}
    assert json.loads(game.record_text()) == record
    cast(dict[str, JSON], record["setup"])["seed"] = "edited"  # the caller's copy
    assert game.record()["setup"] == setup
    assert game.clone().record()["setup"] == setup
    saved = game.save()
    assert saved["setup"] == setup
    loaded = Game.load(saved)
    assert loaded.record() == game.record()
    replayed = Game.replay(game.record())
    assert replayed.record() == game.record()


def test_position_with_its_own_dice() -> None:
    """A position carrying its dice state: the game rolls from it and the setup keeps it in
    the position's key order (as the copy of the position with the dice set did)."""
    game = Game.new(default_position(), 3)
    _play(game, 20, 1)
    saved = game.save()
    position = cast(dict[str, JSON], saved["setup"])
    again = Game.new(position, 3)
    assert list(cast(dict[str, JSON], again.record()["setup"])) == list(position)
    assert again.record()["setup"] == position
    assert again.dice.to_json() == position["dice"]


def test_loaded_games_keep_their_own_event_log() -> None:
    """``Game.load`` keeps the events and choices of its own copy of the save (not copied a
    second time): two games loaded from one save, one of them played on, leave the save and
    the other game as they were; ``GameState.from_json`` of a caller's dict without
    ``loaded`` still copies them."""
    game = Game.new(default_position(), 2)
    _play(game, 60, 4)
    saved = game.save()
    text = json.dumps(saved)
    a, b = Game.load(saved), Game.load(saved)
    assert a.state.events == b.state.events and a.state.events is not b.state.events
    assert a.state.events[0] is not b.state.events[0]
    assert a.state.choices is not b.state.choices
    _play(a, 120, 9)
    assert json.dumps(saved) == text
    assert b.save() == saved
    assert b.record() == game.record()
    d = json.loads(text)
    state = GameState.from_json(d, read_frame)
    assert state.events == d["events"] and state.events is not d["events"]
    assert state.events[0] is not cast(list[JSON], d["events"])[0]
    assert state.choices is not d["choices"]
