"""The unit-level proof of BLOCKED (``geometry/sight_units.py``): one wall that separates two
whole units settles every model pair of them without the per-pair search, with the same
answers as that search."""

from __future__ import annotations

from typing import Any
from unittest import mock

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.los import Sight
from w40k.geometry.sight_units import bridges


def _unit(name: str, player: str, x: float, y: float, height: float = 1.6) -> dict[str, Any]:
    models = [{"x": x + 1.5 * (k % 2), "y": y + 1.5 * (k // 2), "base_mm": 32,
               "height": height} for k in range(4)]
    models[3]["base_mm"] = [60, 35]  # an oval base among them
    return {"name": name, "player": player, "keywords": ["INFANTRY"], "models": models}


def _walled_scene(wall_height: float) -> dict[str, Any]:
    """Two units of each player on either side of a long L-shaped ruin wall (x = 14-14.3),
    and one unit of player B beyond its end (y > 26), in sight of unit A1."""
    wall = [[14.0, 0.0], [14.3, 0.0], [14.3, 19.7], [18.0, 19.7], [18.0, 20.0], [14.0, 20.0]]
    return {
        "battlefield": {"width": 30, "depth": 30},
        "areas": [],
        "terrain": [{"name": "Wall", "category": "dense", "footprint": wall,
                     "height": wall_height}],
        "units": [_unit("A0", "A", 5.0, 4.0), _unit("A1", "A", 6.0, 12.0),
                  _unit("B0", "B", 22.0, 5.0), _unit("B1", "B", 21.0, 13.0),
                  _unit("B2", "B", 15.5, 26.0)],
    }


def _every_raw_sight(v: Visibility) -> list[tuple[object, ...]]:
    units = v.scene.units
    return [(ou, om, tu, tm, v.raw_sight(ou, om, tu, tm))
            for ou in range(len(units)) for tu in range(len(units))
            if units[ou].player != units[tu].player
            for om in range(len(units[ou].models)) for tm in range(len(units[tu].models))]


def test_a_wall_between_two_units_blocks_every_pair_without_the_per_pair_search() -> None:
    # R06.01-a, R13.11-a: a 6" ruin wall between the units: every model pair is BLOCKED, and
    # after the first search of a unit pair the others are settled by the unit-level proof
    scene = scene_from_dict(_walled_scene(6.0))
    v = Visibility(scene, jit=False)
    a0, a1, b0, b2 = (v.unit_index[n] for n in ("A0", "A1", "B0", "B2"))
    with mock.patch.object(v, "_search_sight", wraps=v._search_sight) as spy:
        answers = [v._exact_sight(a0, om, b0, tm) for om in range(4) for tm in range(4)]
    assert all(r.sight is Sight.BLOCKED for r in answers)
    assert spy.call_count == 1
    assert v._walled[(a0, b0)]
    # a unit beyond the wall's end is not walled apart (some of its pairs see each other)
    assert any(v.raw_sight(a1, om, b2, tm).sight is Sight.CLEAR
               for om in range(4) for tm in range(4))
    assert not v._walled_search(a1, b2)


def test_a_wall_lower_than_the_tallest_model_proves_nothing() -> None:
    # R06.01-a: the proof takes only obstacles higher than every model of both units
    scene = scene_from_dict(_walled_scene(1.5))
    v = Visibility(scene, jit=False)
    assert not v._walled_search(v.unit_index["A0"], v.unit_index["B0"])


@pytest.mark.parametrize("height", (6.0, 1.5))
def test_the_unit_proof_gives_the_per_pair_answers(height: float) -> None:
    # R06.01-a, R13.10, R13.11: the same raw sight for every pair with or without the proof
    scene = scene_from_dict(_walled_scene(height))
    fast = _every_raw_sight(Visibility(scene, jit=False))
    with mock.patch("w40k.geometry.sight_tables.SightTables._walled_apart", return_value=False):
        slow = _every_raw_sight(Visibility(scene, jit=False))
    assert fast == slow


@pytest.mark.parametrize("seed", (1, 3))
def test_the_unit_proof_gives_the_per_pair_answers_on_random_scenes(seed: int) -> None:
    # R06.01-a, R13.09-b, R13.10, R13.11: walls (some L-shaped), areas, upper levels, ovals
    data = random_scene(np.random.default_rng(500 + seed))
    data["terrain"].append({"name": "Long", "category": "dense", "height": 9.0,
                            "footprint": [[15.0, 0.0], [15.3, 0.0], [15.3, 11.0],
                                          [15.0, 11.0]]})
    scene = scene_from_dict(data)
    fast_v = Visibility(scene, jit=False)
    fast = _every_raw_sight(fast_v)
    with mock.patch("w40k.geometry.sight_tables.SightTables._walled_apart", return_value=False):
        slow = _every_raw_sight(Visibility(scene, jit=False))
    assert fast == slow


def test_bridges_are_the_hull_sides_joining_two_polygons() -> None:
    # the two outer common tangent segments of two squares apart; none for nested polygons
    p = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    q = np.array([[5.0, 2.0], [7.0, 2.0], [7.0, 4.0], [5.0, 4.0]])
    sides = bridges(p, q)
    assert sides is not None
    got = sorted((tuple(a.tolist()), tuple(b.tolist())) for a, b in sides)
    assert got == [((0.0, 1.0), (5.0, 4.0)), ((1.0, 0.0), (7.0, 2.0))]
    assert bridges(p, p * 0.5 + 0.25) is None
