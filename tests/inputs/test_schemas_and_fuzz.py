"""The exported JSON Schemas are current, and a seeded fuzzer feeds random mutations of valid
positions and armies to the loaders: each is accepted (a position then plays a few decisions)
or refused with a DataError that names the file."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from w40k.agents import RandomAgent
from w40k.core.errors import DataError, IllegalChoice, MalformedChoice
from w40k.engine.game import Game
from w40k.io.army_load import parse_file
from w40k.io.battle_setup import default_position
from w40k.io.position_model import validate_position
from w40k.io.schemas import MODELS, schema_text

ROOT = Path(__file__).resolve().parents[2]
VALUES: list[Any] = [None, True, -1, 0, 1, 7, 10**9, 2.5, -1e6, "", "x", "[/]", "<!--",
                     [], {}, [1, 2], {"a": 1}]


@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_exported_schema_matches_the_model(name: str) -> None:
    shipped = (ROOT / "docs" / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8")
    assert shipped == schema_text(name), "run: python -m w40k.io.schemas docs/schemas"


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:3]):
            out += _paths(v, (*prefix, i))
    return out


def _mutate(data: Any, rng: random.Random) -> Any:
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        paths = _paths(data)
        path = rng.choice(paths)
        parent = data
        for p in path[:-1]:
            parent = parent[p]
        action = rng.random()
        if action < 0.6:
            parent[path[-1]] = copy.deepcopy(rng.choice(VALUES))
        elif action < 0.8 and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[path[-1] + "_"] = 1
    return data


def test_mutated_positions_are_accepted_and_play_or_refused_clearly() -> None:
    rng = random.Random(14)
    base = json.loads(json.dumps(default_position()))
    accepted = 0
    for i in range(150):
        pos = _mutate(base, rng)
        try:
            validate_position(pos, f"fuzz{i}.json")
        except DataError as exc:
            assert str(exc).startswith(f"fuzz{i}.json"), exc
            continue
        accepted += 1
        game = Game.new(pos, i)
        agent = RandomAgent(i)
        for _ in range(5):
            req = game.pending()
            if req is None:
                break
            try:
                game.submit(agent.choose(game, req))
            except (IllegalChoice, MalformedChoice):
                break
    assert accepted > 0


def test_mutated_armies_are_accepted_or_refused_clearly() -> None:
    rng = random.Random(15)
    base = yaml.safe_load((ROOT / "src" / "w40k" / "data" / "boyz.yaml").read_text("utf-8"))
    for i in range(150):
        data = _mutate(base, rng)
        try:
            parse_file(data, source=f"fuzz{i}.yaml")
        except DataError as exc:
            assert str(exc).startswith(f"fuzz{i}.yaml"), exc
