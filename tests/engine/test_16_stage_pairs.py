"""The batched stage's set-up and bookkeeping (pass sight16): the model pairs it asks for are
read off each mask's nonzero entries (``sight_stage.wanted_pairs``) instead of testing every
pair of the unit pair, and the batch's answers are kept under both orders of the pair in the
stage's own loop (``SightTables._keep_raw`` written out). Both against the plain forms."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.sight_stage import Key, wanted_pairs

Pair = tuple[int, int]


class _Unit:
    def __init__(self, n: int) -> None:
        self.models = [object()] * n


def _plain(units: list[_Unit], raw: dict[Key, object], unit_pairs: list[Pair],
           masks: list[np.ndarray | None] | None) -> list[Key]:
    """The former loops of ``SightTables._batch_stage``: every model pair of every unit pair
    tested against its mask row."""
    wanted: dict[Key, None] = {}
    for i, (ou, tu) in enumerate(unit_pairs):
        kept = None if masks is None else masks[i]
        mask = None if kept is None else kept.tolist()
        nt = len(units[tu].models)
        for om in range(len(units[ou].models)):
            row = None if mask is None else mask[om]
            for tm in range(nt):
                if (row is None or row[tm]) and (ou, om, tu, tm) not in raw:
                    wanted[(ou, om, tu, tm) if ou <= tu else (tu, tm, ou, om)] = None
    return list(wanted)


@pytest.mark.parametrize("seed", range(6))
def test_wanted_pairs_are_the_plain_loops_in_order(seed: int) -> None:
    # the same keys in the same order (the batch's rows, and the open pairs' order) as the
    # plain loops, on random unit sizes (empty units too), masks (None, sparse, full,
    # empty), repeated and reversed unit pairs and raw answers already known
    rng = np.random.default_rng(1600 + seed)
    for _ in range(60):
        units = [_Unit(int(rng.integers(0, 7))) for _ in range(int(rng.integers(2, 7)))]
        n_u = len(units)
        unit_pairs = [(int(rng.integers(n_u)), int(rng.integers(n_u)))
                      for _ in range(int(rng.integers(0, 9)))]
        masks: list[np.ndarray | None] | None = None
        if rng.random() < 0.7:
            masks = []
            for ou, tu in unit_pairs:
                shape = (len(units[ou].models), len(units[tu].models))
                kind = rng.integers(4)
                masks.append(None if kind == 0 else np.ones(shape, dtype=bool) if kind == 1
                             else np.zeros(shape, dtype=bool) if kind == 2
                             else rng.random(shape) < 0.4)
        raw: dict[Key, object] = {}
        for ou, tu in unit_pairs:
            for om in range(len(units[ou].models)):
                for tm in range(len(units[tu].models)):
                    if rng.random() < 0.3:
                        raw[(ou, om, tu, tm)] = None
        got = wanted_pairs(units, raw, unit_pairs, masks)  # type: ignore[arg-type]
        assert got == _plain(units, raw, unit_pairs, masks)


@pytest.mark.parametrize("seed", range(4))
def test_staged_answers_are_kept_under_both_orders(seed: int) -> None:
    # R06.01-a (raw sight is symmetric): every answer the batched stage keeps is under both
    # orders of the pair, the other order's witness the line turned round, and the same
    # sight as the per-pair search of the pair
    scene = scene_from_dict(random_scene(np.random.default_rng(1650 + seed)))
    v = Visibility(scene, jit=False)
    us = v.scene.units
    pairs = [(a, b) for a in range(len(us)) for b in range(len(us))
             if us[a].player != us[b].player]
    v.stage_many(pairs)
    assert v._raw_cache
    fresh = Visibility(scene, jit=False)
    for (ou, om, tu, tm), r in v._raw_cache.items():
        assert v._raw_cache[(tu, tm, ou, om)] == r.turned()
        assert fresh._exact_sight(ou, om, tu, tm).sight is r.sight
