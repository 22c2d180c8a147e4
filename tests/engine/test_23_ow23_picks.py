"""Fire Overwatch's first-round picks read off the sort (pass ow23): ``_picks_of`` gives, of
each unit pair, the number of its model pairs no rule hides and its pairs of rank below k
in rank order, where the rank is ow22's (the observer model's rank among the target model's
observer models, nearest first; the centres' squared distance; the pair's row-major index;
the pairs a rule hides never). It must equal that order computed key by key in plain Python
(``test_22_overwatch_ranks._plain``), ties (a small grid), 1e-9 near ties, empty units,
all-hidden and all-visible masks and k past every size included; ``_column_ranks`` without
``put_along_axis`` equals it with; the first round's masks and ``_shown_at`` equal the ranks'
masks and ``_shown`` on a random scene."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.engine.overwatch_ranks_reference import _all_picks, _column_ranks, _picks_of, _ranks_of
from tests.engine.test_22_overwatch_ranks import _plain, random_case
from tests.geometry.test_los_batch import random_scene
from w40k.engine.stratagems import overwatch_sight
from w40k.engine.stratagems.overwatch_sight import (
    _mask_of,
    _shown,
    _shown_at,
)
from w40k.geometry import Visibility, scene_from_dict


def _want(a: np.ndarray, b: np.ndarray, mask: np.ndarray,
          k: int) -> tuple[int, list[tuple[int, int]]]:
    ranks = _plain(a, b, mask)
    size = int(np.count_nonzero(mask))
    by_rank = sorted((int(ranks[om, tm]), om, tm) for om, tm in zip(*np.nonzero(ranks >= 0),
                                                                   strict=True))
    assert [r for r, _, _ in by_rank] == list(range(size))  # ranks 0 .. size - 1
    return size, [(om, tm) for r, om, tm in by_rank if r < k]


def test_picks_are_the_ranks_below_k_in_rank_order_R15_09_a() -> None:
    rng = random.Random(2323)
    picked = 0
    for trial in range(600):
        grid = trial % 2 == 0
        a, bs, masks = random_case(rng, grid)
        k = rng.choice((0, 1, 3, 4, 7, 100))
        got = _picks_of(a, bs, masks, k)
        assert len(got) == len(bs)
        for b, mask, g in zip(bs, masks, got, strict=True):
            assert g == _want(a, b, mask, k), trial
            picked += len(g[1])
        # the same picks as the rank matrices of ``_ranks_of`` (ranks below k, in rank order)
        for mask, r, g in zip(masks, _ranks_of(a, bs, masks), got, strict=True):
            oms, tms = np.nonzero((r >= 0) & (r < k))
            assert sorted(g[1]) == sorted(zip(oms.tolist(), tms.tolist(), strict=True))
            assert g[0] == int(np.count_nonzero(mask))
    assert picked > 1500


def test_column_ranks_as_put_along_axis() -> None:
    rng = np.random.default_rng(23)
    for _ in range(200):
        n, w = int(rng.integers(0, 7)), int(rng.integers(0, 7))
        d = rng.integers(0, 4, size=(n, w)).astype(np.float64)  # ties
        mask = rng.random((n, w)) < rng.choice((0.0, 0.6, 1.0))
        order = np.argsort(np.where(mask, d, np.inf), axis=0, kind="stable")
        want = np.empty(d.shape, dtype=np.int64)
        np.put_along_axis(want, order, np.arange(n, dtype=np.int64)[:, None], axis=0)
        want[~mask] = n
        assert np.array_equal(_column_ranks(d, mask), want)


@pytest.mark.parametrize("seed", range(4))
def test_first_round_masks_and_shown_on_a_scene_R06_01_a(seed: int) -> None:
    # the first round's masks (of the picks) are the ranks' masks, and a pair read from the
    # list answers as from the mask once a batch has staged them
    scene = scene_from_dict(random_scene(np.random.default_rng(2300 + seed)))
    v = Visibility(scene, False, jit=False)
    us = v.scene.units
    pairs = [(a, b) for a in range(len(us)) for b in range(len(us))
             if us[a].player != us[b].player]
    picks = _all_picks(v, pairs, 4)
    assert _all_picks(v, pairs, 0) == [(s, []) for s, _ in picks]
    for (ou, tu), (size, row) in zip(pairs, picks, strict=True):
        assert size == v.staged_size(ou, tu)
        ranks = _ranks_of(overwatch_sight._centres(v, ou, {}),
                          [overwatch_sight._centres(v, tu, {})], [v._rule_mask(ou, tu)])[0]
        assert np.array_equal(_mask_of(v, (ou, tu), row), (ranks >= 0) & (ranks < 4))
    v._batch_stage(pairs, [_mask_of(v, p, row) for p, (_, row) in zip(pairs, picks,
                                                                          strict=True)], [])
    for p, (_, row) in zip(pairs, picks, strict=True):
        assert _shown_at(v, p, row) == _shown(v, p, _mask_of(v, p, row))


@pytest.mark.parametrize("seed", range(6))
def test_unit_sees_as_visibility_R06_01_a(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the same answers, and the same searches in the same order (the same raw answers kept
    # afterwards), with the unit pairs asked in a random order, some staged first,
    # PARTIAL_HEIGHT either way
    searched: dict[int, list[tuple[int, int, int, int]]] = {}
    exact = Visibility._exact_sight

    def record(self: Visibility, ou: int, om: int, tu: int, tm: int) -> object:
        searched.setdefault(id(self), []).append((ou, om, tu, tm))
        return exact(self, ou, om, tu, tm)

    monkeypatch.setattr(Visibility, "_exact_sight", record)
    rng = np.random.default_rng(2310 + seed)
    scene = scene_from_dict(random_scene(rng))
    for conv in (False, True):
        plain, fast = Visibility(scene, conv, jit=False), Visibility(scene, conv, jit=False)
        us = plain.scene.units
        pairs = [(a, b) for a in range(len(us)) for b in range(len(us))
                 if us[a].player != us[b].player]
        order = rng.permutation(len(pairs)).tolist()
        for i in order[:len(order) // 3]:
            plain.stage(*pairs[i])
            fast.stage(*pairs[i])
        for i in order:
            assert overwatch_sight._unit_sees(fast, pairs[i]) == plain.unit_sees(*pairs[i])
        assert fast._raw_cache.keys() == plain._raw_cache.keys()
        assert searched.get(id(fast)) == searched.get(id(plain))
        searched.clear()
