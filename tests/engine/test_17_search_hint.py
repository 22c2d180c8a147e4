"""The per-pair searches of a unit-level or model-level sight question run the pairs with the
fewest obstacles near their centre line first (the count the batch kept for the pairs it left
open): only the order of the searches changes, never an answer, on the seeded random scenes
of ``test_los_batch`` (walls, areas, upper levels, ovals, both PARTIAL_HEIGHT conventions)."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest

from tests.engine.sight_helpers import batch_args
from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.los import relevant_obstacles
from w40k.geometry.los_batch import batch_sight


def _unit_pairs(v: Visibility) -> list[tuple[int, int]]:
    us = v.scene.units
    return [(i, j) for i in range(len(us)) for j in range(len(us)) if us[i].player != us[j].player]


@pytest.mark.parametrize("seed", (1, 2, 3, 6, 7))
def test_kept_owners_leave_the_batch_unchanged_and_count_the_relevant_obstacles(
        seed: int) -> None:
    """``batch_sight`` with ``kept_owners`` answers as without it (statuses and witnesses
    bit for bit), and each pair's count is the number of obstacles the per-pair search
    keeps (``relevant_obstacles`` of the pair's own obstacles, above the lower top)."""
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    v = Visibility(scene, jit=False)
    units = scene.units
    pairs = [(ou, om, tu, tm) for ou, tu in _unit_pairs(v) if ou < tu
             for om in range(len(units[ou].models)) for tm in range(len(units[tu].models))
             if v._round[v.model_index[(ou, om)]] and v._round[v.model_index[(tu, tm)]]]
    assert pairs
    args, allowed = batch_args(v, pairs)
    counts = np.full(len(pairs), -1, dtype=np.int64)
    plain = batch_sight(*args, allowed)
    counted = batch_sight(*args, allowed, counts)
    for x, y in zip(plain, counted, strict=True):
        assert np.array_equal(x, y)
    for (ou, om, tu, tm), n in zip(pairs, counts.tolist(), strict=True):
        o, t = units[ou].models[om], units[tu].models[tm]
        rel = relevant_obstacles(v.footprints[(ou, om)], v.footprints[(tu, tm)],
                                 min(o.top, t.top), v._obstacles_for(ou, om, tu, tm))
        assert n == len(set(rel.owner.tolist())), (seed, ou, om, tu, tm)


@pytest.mark.parametrize("seed", (0, 1, 2, 3, 6, 7))
def test_model_and_unit_sight_with_the_hint_order_equal_every_pair_searched(seed: int) -> None:
    """R06.01-a, R13.09-b, R24.24-a: ``model_sees`` after the rows are staged and
    ``unit_sees`` answer as ``sight_matrix`` (every model pair decided) on a fresh
    Visibility; the hints are kept for the pairs the batch left open only, under both
    orders."""
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    units = scene.units
    for conv in (False, True):
        full = Visibility(scene, conv, jit=False)
        rows = Visibility(scene, conv, jit=False)
        whole = Visibility(scene, conv, jit=False)
        for ou, tu in _unit_pairs(full):
            ref = full.sight_matrix(units[ou].name, units[tu].name)
            rows.stage_rows({(ou, tu): list(range(len(units[ou].models)))})
            for om in range(len(units[ou].models)):
                assert rows.model_sees(ou, om, tu) == bool(ref[om].any()), (seed, conv, ou, om)
            assert whole.unit_sees(ou, tu) == bool(ref.any()), (seed, conv, ou, tu)
        for v in (rows, whole):
            for k, n in v._hint.items():
                assert n >= 0 and v._hint[(k[2], k[3], k[0], k[1])] == n
                assert v._round[v.model_index[k[:2]]] and v._round[v.model_index[k[2:]]]


def test_the_hint_orders_the_searches_fewest_obstacles_first() -> None:
    """The searches of one question run by the kept count, fewest first (a guard that the
    hint is read: the order alone, over every multi-pair question of the scenes)."""
    asked = 0
    for seed in (1, 2, 3):
        scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
        v = Visibility(scene, jit=False)
        with mock.patch.object(v, "_exact_sight", wraps=v._exact_sight) as spy:
            for ou, tu in _unit_pairs(v):
                spy.reset_mock()
                v.unit_sees(ou, tu)
                searched = [tuple(c.args) for c in spy.call_args_list]
                hints = [v._hint[k] for k in searched if k in v._hint]
                asked += len(hints) > 1
                assert hints == sorted(hints), (seed, ou, tu)
    assert asked > 0
