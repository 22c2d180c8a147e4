"""The checkpoint copies no unit flags, model lists or one-shot lists: those containers log
their contents at their first in-place change (engine/undo.py). These tests change them at
random, through every mutator, inside nested checkpoints, and compare each restore with the
state's JSON taken at that checkpoint (the plain answer: what a full copy would give back)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.engine.test_fuzz import small_position
from w40k.agents.greedy import GreedyAgent
from w40k.engine.game import Game
from w40k.engine.state import GameState, UnitData, _Undo
from w40k.engine.undo import LoggedDict, LoggedList
from w40k.io.battle_setup import default_position


def _mid_game(seed: int) -> Game:
    game = Game.new(small_position(default_position(), seed=seed), seed)
    agents = {p.name: GreedyAgent(7 + i) for i, p in enumerate(game.state.players)}
    for _ in range(20):
        req = game.pending()
        assert req is not None
        game.submit(agents[req.player].choose(game, req))
    return game


def _list_change(rng: random.Random, lst: list[Any], item: Callable[[], Any]) -> None:
    """One random in-place change of ``lst`` through one of the list's mutators."""
    op = rng.randrange(12)
    if op == 0:
        lst.append(item())
    elif op == 1:
        lst.extend([item(), item()])
    elif op == 2:
        lst.insert(rng.randrange(len(lst) + 1), item())
    elif op == 3 and lst:
        lst.remove(lst[rng.randrange(len(lst))])
    elif op == 4 and lst:
        lst.pop()
    elif op == 5:
        lst.clear()
    elif op == 6:
        lst.reverse()
    elif op == 7 and lst:
        lst[rng.randrange(len(lst))] = item()
    elif op == 8 and lst:
        del lst[rng.randrange(len(lst))]
    elif op == 9:
        lst += [item()]
    elif op == 10:
        lst *= 2
    elif op == 11:
        lst[:1] = [item()]


def _dict_change(rng: random.Random, d: dict[str, bool]) -> None:
    """One random in-place change of ``d`` through one of the dict's mutators."""
    key = rng.choice(("advanced", "moved", "shot", "fought", "battle_shocked"))
    op = rng.randrange(8)
    if op == 0:
        d[key] = rng.random() < 0.5
    elif op == 1 and key in d:
        del d[key]
    elif op == 2:
        d.pop(key, None)
    elif op == 3 and d:
        d.popitem()
    elif op == 4:
        d.clear()
    elif op == 5:
        d.update({key: True})
    elif op == 6:
        d.setdefault(key, True)
    elif op == 7:
        d |= {key: False}


def _change(rng: random.Random, s: GameState) -> None:
    """One random change of a unit's flags, model list or a model's one-shot list."""
    u = rng.choice(s.units)
    what = rng.randrange(3)
    if what == 0:
        _dict_change(rng, u.flags)
    elif what == 1:
        pool = list(u.models) or [m for v in s.units for m in v.models]
        _list_change(rng, u.models, lambda: rng.choice(pool))
    elif u.models:
        m = rng.choice(u.models)
        _list_change(rng, m.one_shots_used, lambda: rng.choice(("gun", "missile", "bomb")))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_in_place_changes_in_nested_checkpoints_are_undone_as_a_copy_would(
        seed: int) -> None:
    """Random changes through every list and dict mutator, in up to three nested checkpoints
    restored or released at random: each restore gives back the JSON the state had at its
    checkpoint, in the same container objects."""
    game = _mid_game(seed)
    s = game.state
    rng = random.Random(seed)
    for _ in range(30):
        open_: list[tuple[Any, str, list[tuple[UnitData, dict[str, bool], list[Any]]]]] = []
        for _ in range(rng.randrange(1, 4)):
            for _ in range(rng.randrange(4)):
                _change(rng, s)
            held = [(u, u.flags, u.models) for u in s.units]
            open_.append((s.checkpoint(), json.dumps(s.to_json()), held))
        for _ in range(rng.randrange(1, 8)):
            _change(rng, s)
        while open_:
            cp, before, held = open_.pop()
            if rng.random() < 0.6:
                s.restore(cp)
                assert json.dumps(s.to_json()) == before
                assert all(u.flags is f and u.models is m for u, f, m in held)
            else:
                s.release(cp)
            for _ in range(rng.randrange(3)):
                _change(rng, s)  # between an inner checkpoint's end and the outer one's
    assert _Undo.log is None


def test_the_containers_put_in_a_unit_or_model_are_logged_ones_and_a_clone_has_its_own() -> None:
    """Lists and dicts set on a unit or model, the defaults, a loaded state's and a clone's
    are :class:`LoggedList` / :class:`LoggedDict` copies; a clone's changes leave the
    original's restore alone."""
    game = _mid_game(4)
    s = game.state
    u = s.units[0]
    plain = {"advanced": True}
    u.flags = plain
    assert type(u.flags) is LoggedDict and u.flags is not plain and u.flags == plain
    u.models = list(u.models)
    assert type(u.models) is LoggedList
    m = u.models[0]
    m.one_shots_used = ["gun"]
    assert type(m.one_shots_used) is LoggedList
    loaded = Game.load(game.save()).state
    copy = s.clone()
    for st in (loaded, copy):
        for v in st.units:
            assert type(v.flags) is LoggedDict and type(v.models) is LoggedList
            assert all(type(x.one_shots_used) is LoggedList for x in v.models)
    before = json.dumps(s.to_json())
    cp = s.checkpoint()
    copy.units[0].flags["moved"] = True
    copy.units[0].models.pop()
    copy.units[0].models[0].one_shots_used.append("missile")
    u.flags["shot"] = True
    s.restore(cp)
    assert json.dumps(s.to_json()) == before
    assert copy.units[0].flags["moved"] and copy.units[0].models[0].one_shots_used[-1] == \
        "missile"


def test_a_change_with_no_checkpoint_open_is_not_logged() -> None:
    """Outside checkpoints the containers are plain lists and dicts: nothing is logged."""
    game = _mid_game(5)
    u = game.state.units[0]
    u.flags["moved"] = True
    u.models[0].one_shots_used.append("gun")
    assert _Undo.log is None
