"""Sight answers kept across scenes (``geometry/sight_memo.py``) and the cover shortcut
(``SightTables.terrain_hides``) answer exactly as a fresh :class:`Visibility` does, on the
seeded random scenes of ``test_los_batch`` (walls, areas, upper levels, ovals), after a
scene in which a model was removed (the obstacle indices shift) and one in which a model
moved (some pairs see other obstacles)."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict, sight_memo
from w40k.geometry.los import Sight


def _answers(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every model pair from player A to player B: raw sight, visible, fully visible, terrain
    cover, and the cover of the target unit against the observer model; cover asked first
    (the shortcut)."""
    v = Visibility(scene_from_dict(data), jit=False)
    out: list[tuple[Any, ...]] = []
    units = v.scene.units
    for ou, a in enumerate(units):
        for tu, b in enumerate(units):
            if a.player != "A" or b.player == "A":
                continue
            for om in range(len(a.models)):
                cover = v.cover_against(ou, om, tu)
                for tm in range(len(b.models)):
                    s = v.model_sight(ou, om, tu, tm)
                    out.append((a.name, om, b.name, tm, cover, s.sight, s.visible,
                                s.fully_visible, s.terrain_cover, s.witness))
    return out


def _fresh(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    sight_memo.forget()
    return _answers(data)


@pytest.mark.parametrize("seed", (1,))
def test_kept_answers_equal_fresh_ones_after_other_scenes(seed: int) -> None:
    # R06.01-a, R13.08-a: the same sight, full visibility and cover with or without the memo
    data = random_scene(np.random.default_rng(500 + seed))
    ref = _fresh(data)
    removed = copy.deepcopy(data)
    del removed["units"][0]["models"][0]
    moved = copy.deepcopy(data)
    moved["units"][4]["models"][1]["x"] += 0.7
    for other in (removed, moved):
        _fresh(other)  # the memo now holds the other scene's answers
        assert _answers(data) == ref


def test_terrain_hides_is_bit_2_of_the_refined_flags() -> None:
    # R13.08-a: cover from terrain only when the terrain alone stops full visibility
    for seed in (2,):
        sight_memo.forget()
        scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
        fast, full = Visibility(scene, jit=False), Visibility(scene, jit=False)
        units = scene.units
        checked = 0
        for ou, a in enumerate(units):
            for tu, b in enumerate(units):
                if a.player != "A" or b.player == "A":
                    continue
                for om in range(len(a.models)):
                    for tm in range(len(b.models)):
                        if full.raw_sight(ou, om, tu, tm).sight is not Sight.CLEAR:
                            continue
                        sight_memo.forget()
                        want = bool(full._hull_flags(ou, om, tu, tm) & 2)
                        sight_memo.forget()
                        assert fast.terrain_hides(ou, om, tu, tm) == want
                        checked += 1
        assert checked


@pytest.mark.parametrize("seed", (0, 5))
def test_staged_unit_pairs_give_the_pair_by_pair_sight(seed: int) -> None:
    # R06.01-a: the batched stage decides the same sight codes as the exact search
    sight_memo.forget()
    scene = scene_from_dict(random_scene(np.random.default_rng(700 + seed)))
    staged, plain = Visibility(scene, jit=False), Visibility(scene, jit=False)
    units = scene.units
    for ou, a in enumerate(units):
        for tu, b in enumerate(units):
            if a.player == b.player:
                continue
            staged.stage(ou, tu)
            for om in range(len(a.models)):
                for tm in range(len(b.models)):
                    assert (staged.raw_sight(ou, om, tu, tm).sight
                            is plain._search_sight(ou, om, tu, tm).sight), (ou, om, tu, tm)
                    assert staged.visible(ou, om, tu, tm) == plain.visible(ou, om, tu, tm)


def test_equal_memo_keys_name_equal_obstacles_across_scenes() -> None:
    # R06.01-a, R13.10-a: the memo key names the pair's obstacles by tokens (the terrain's,
    # each other unit's) and the regions the pair ignores; equal keys must mean equal
    # obstacle arrays (their digest), in every scene: a model removed (the indices shift),
    # a model moved, a unit gone
    sight_memo.forget()
    data = random_scene(np.random.default_rng(507))
    removed = copy.deepcopy(data)
    del removed["units"][0]["models"][0]
    moved = copy.deepcopy(data)
    moved["units"][4]["models"][1]["x"] += 0.7
    gone = copy.deepcopy(data)
    del gone["units"][1]
    seen: dict[tuple[Any, ...], bytes] = {}
    terrain: dict[tuple[Any, ...], bytes] = {}
    for scene in (data, removed, moved, gone):
        v = Visibility(scene_from_dict(scene), jit=False)
        units = v.scene.units
        for ou, a in enumerate(units):
            for tu, b in enumerate(units):
                if ou == tu:
                    continue
                for om in range(len(a.models)):
                    for tm in range(len(b.models)):
                        key = v._memo_key(ou, om, tu, tm)[-2:]
                        obs = v._obstacles_for(ou, om, tu, tm)
                        got = sight_memo.digest(obs, v._kind_code)
                        assert seen.setdefault(key, got) == got
                        tkey = (key[0][0], key[1])
                        ter = sight_memo.digest(v._terrain_of(obs), v._kind_code)
                        assert terrain.setdefault(tkey, ter) == ter
    # the keys tell apart what differs (one scene's pairs have several obstacle sets)
    assert len(set(seen.values())) > 4 and len(seen) >= len(set(seen.values()))
