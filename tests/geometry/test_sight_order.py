"""The search order of ``Visibility._any_seen`` (``geometry/sight_order.py``): the open model
pairs whose models are known to see others first, then the nearest, then model order; the
order changes no answer (unit and model visibility, 06.01) and no pair's kept answer or
witness, only how many pairs are searched."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict, sight_memo
from w40k.geometry.sight_order import Pair, Tally, next_pair


def test_next_pair_prefers_models_known_to_see_then_nearest_then_model_order() -> None:
    left: list[Pair] = [(0, 0, 1, 0), (0, 0, 1, 1), (0, 1, 1, 0), (0, 1, 1, 1)]
    dist = {left[0]: 5.0, left[1]: 3.0, left[2]: 3.0, left[3]: 9.0}
    tally = Tally()
    # nothing known: the nearest, and the first in model order among the nearest
    assert next_pair(left, tally, dist) == (0, 0, 1, 1)
    # target model 1 is known hidden from another observer model: its pairs go last
    tally.hidden((0, 2, 1, 1))
    assert next_pair(left, tally, dist) == (0, 1, 1, 0)
    # observer model 1 known to see twice: its pairs first, even the farthest
    tally.add((0, 1, 2, 0), True)
    tally.add((0, 1, 2, 1), True)
    tally.hidden((0, 0, 1, 0))
    assert tally.score((0, 1, 1, 1)) == 1 and tally.score((0, 1, 1, 0)) == 1
    assert next_pair(left, tally, dist) == (0, 1, 1, 0)
    assert next_pair([left[3], left[0]], tally, dist) == (0, 1, 1, 1)


def _names(v: Visibility) -> list[tuple[int, int]]:
    us = v.scene.units
    return [(i, j) for i in range(len(us)) for j in range(len(us)) if us[i].player != us[j].player]


def _model_order(left: list[Pair], tally: Tally, dist: dict[Pair, float]) -> Pair:
    return left[0]


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_search_order_changes_no_answer_nor_any_kept_pair_answer(seed: int) -> None:
    # R06.01-a, R13.09-b, R24.24-a: unit_sees / model_sees in the new order and in model
    # order give the same answers, and every pair either searched gives the same answer and
    # witness as the per-pair search of a fresh scene
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    runs = []
    for order in (None, _model_order):
        sight_memo.forget()
        v = Visibility(scene, jit=False)
        ctx = mock.patch("w40k.geometry.visibility.next_pair", order) if order else None
        if ctx is not None:
            ctx.start()
        try:
            units = [v.unit_sees(ou, tu) for ou, tu in _names(v)]
            models = [v.model_sees(ou, om, tu) for ou, tu in _names(v)
                      for om in range(len(scene.units[ou].models))]
        finally:
            if ctx is not None:
                ctx.stop()
        runs.append((units, models, v))
    assert runs[0][0] == runs[1][0] and runs[0][1] == runs[1][1]
    assert any(runs[0][0]) and not all(runs[0][0])
    fresh = Visibility(scene, jit=False)
    for _, _, v in runs:
        for k, seen in v._seen_cache.items():
            assert seen == fresh._seen(*k), k
            if k not in v._raw_cache:
                got, ref = v.raw_sight(*k), fresh._search_sight(*k)
                assert got.sight is ref.sight and got.witness == ref.witness, k
