"""``Visibility.seeing_observers`` (unit visibility with an early exit of the per-pair exact
search) gives exactly ``sight_matrix(...).any(axis=1)`` computed on every model pair, on the
seeded random scenes of ``test_los_batch`` (walls, areas, upper levels, ovals, Lone
Operatives, both PARTIAL_HEIGHT conventions), and skips exact searches."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict


def _names(v: Visibility) -> list[tuple[str, str]]:
    us = v.scene.units
    return [(a.name, b.name) for a in us for b in us if a.player != b.player]


@pytest.mark.parametrize("seed", (0, 1, 2, 3, 6, 7))
def test_seeing_observers_equals_full_sight_matrix(seed: int) -> None:
    # R06.01-a, R13.09-b, R24.24-a: the early exit changes no observer model's answer
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    for conv in (False, True):
        pairs = _names(Visibility(scene, conv, jit=False))
        fast = Visibility(scene, conv, jit=False).seeing_observers(pairs)
        full = Visibility(scene, conv, jit=False)
        assert len(fast) == len(pairs)
        for (a, b), row in zip(pairs, fast, strict=True):
            ref = full.sight_matrix(a, b).any(axis=1)
            assert row.dtype == bool and row.shape == ref.shape
            assert row.tolist() == ref.tolist(), (seed, conv, a, b)


def test_seeing_observers_is_consistent_with_a_warm_cache_and_mixed_scenes() -> None:
    # called after some pairs are already cached (by sight_matrix / raw_sight), and twice
    scene = scene_from_dict(random_scene(np.random.default_rng(901)))
    v = Visibility(scene, jit=False)
    pairs = _names(v)
    ref = [Visibility(scene, jit=False).sight_matrix(a, b).any(axis=1).tolist() for a, b in pairs]
    v.sight_matrix(*pairs[0])
    v.raw_sight(1, 0, 3, 0)
    assert [r.tolist() for r in v.seeing_observers(pairs)] == ref
    assert [r.tolist() for r in v.seeing_observers(pairs)] == ref


def test_early_exit_skips_exact_searches_and_keeps_visible_units() -> None:
    # guards the point of the method: fewer slow searches than deciding every model pair,
    # while the scenes still need some (so the comparisons above exercise the fallback)
    skipped = visible = 0
    for seed in (1, 2, 3):
        scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
        counts = []
        for early in (True, False):
            v = Visibility(scene, jit=False)
            pairs = _names(v)
            with mock.patch.object(v, "_exact_sight", wraps=v._exact_sight) as spy:
                if early:
                    visible += sum(bool(r.any()) for r in v.seeing_observers(pairs))
                else:
                    for a, b in pairs:
                        v.sight_matrix(a, b)
                counts.append(spy.call_count)
        assert counts[0] <= counts[1]
        skipped += counts[1] - counts[0]
    assert skipped > 0
    assert visible > 0


@pytest.mark.parametrize("seed", (0, 1, 2, 3, 6, 7))
def test_unit_sees_equals_any_model_pair_visible(seed: int) -> None:
    # R06.01-a, R13.09-b, R24.24-a: Fire Overwatch's unit-level visibility (15.09) asks the
    # known pairs first; the answer is that of every model pair, cold and with a warm cache
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    for conv in (False, True):
        full = Visibility(scene, conv, jit=False)
        fast = Visibility(scene, conv, jit=False)
        idx = [(fast.unit_index[a], fast.unit_index[b]) for a, b in _names(fast)]
        refs = [bool(full.sight_matrix(a, b).any()) for a, b in _names(full)]
        assert [fast.unit_sees(ou, tu) for ou, tu in idx] == refs, (seed, conv)
        assert [fast.unit_sees(ou, tu) for ou, tu in idx] == refs


@pytest.mark.parametrize("seed", (0, 1, 2, 3, 6, 7))
def test_model_sees_equals_any_target_model_visible(seed: int) -> None:
    # R06.01-a, R13.09-b, R24.24-a: the shooting listing's "this model sees that unit" asks
    # the known pairs first; the answer is that of every model pair, cold and warm, and with
    # the staged batch only
    scene = scene_from_dict(random_scene(np.random.default_rng(700 + seed)))
    for conv in (False, True):
        full = Visibility(scene, conv, jit=False)
        fast = Visibility(scene, conv, jit=False)
        for a, b in _names(fast):
            ou, tu = fast.unit_index[a], fast.unit_index[b]
            ref = full.sight_matrix(a, b).any(axis=1).tolist()
            n = len(fast.scene.units[ou].models)
            assert [fast.model_sees(ou, om, tu) for om in range(n)] == ref, (seed, conv, a, b)
            assert [fast.model_sees(ou, om, tu) for om in range(n)] == ref
