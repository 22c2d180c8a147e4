"""Fire Overwatch's first round spread over the units' sides (pass ow24): each unit pair with
more pairs than the round takes stages its nearest pair, then the pairs of the observer and
target models farthest to either side of that pair's line (``_corners``), then the rank
order, ``k`` distinct pairs no rule hides. ``_corners`` must equal the offsets computed in
plain Python (ties on a grid, 1e-9" near ties, one-model units), ``_spread`` the plain list
(masks hiding corners, k past the corners); and the search must answer as
``Visibility.unit_sees`` on random scenes, with each kept raw answer the plain one, the same
exact searches in the same order as the search without the spread, and the same answers to
every later question on the same Visibility."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.engine.overwatch_ranks_reference import _all_picks, _picks_of
from tests.engine.test_22_overwatch_ranks import random_case
from tests.geometry.test_los_batch import random_scene
from w40k.engine.stratagems import overwatch_sight
from w40k.engine.stratagems.overwatch_sight import (
    _corners,
    _first_picks,
    _spread,
)
from w40k.geometry import Visibility, scene_from_dict

pytestmark = pytest.mark.stratagems


def _plain_corners(a: np.ndarray, b: np.ndarray,
                   nearest: tuple[int, int]) -> tuple[int, int, int, int]:
    # the offsets by numpy's element-wise operations (each rounded once, as in plain
    # floats), the first of ties by ``argmin`` / ``argmax``
    om, tm = nearest
    vx, vy = b[tm, 0] - a[om, 0], b[tm, 1] - a[om, 1]
    oa = -a[:, 0] * vy + a[:, 1] * vx
    ta = -b[:, 0] * vy + b[:, 1] * vx
    return (int(np.argmin(oa)), int(np.argmax(oa)), int(np.argmin(ta)), int(np.argmax(ta)))


def _plain_spread(front: list[tuple[int, int]], corner: tuple[int, int, int, int],
                  mask: np.ndarray, k: int) -> list[tuple[int, int]]:
    lo, hi, tlo, thi = corner
    want: list[tuple[int, int]] = []
    for q in [front[0], (lo, tlo), (hi, thi), (lo, thi), (hi, tlo), *front]:
        if q not in want and bool(mask[q]):
            want.append(q)
    return want[:k]


def test_corners_and_spread_as_plain_python() -> None:
    rng = random.Random(2424)
    spread = 0
    for trial in range(600):
        a, bs, masks = random_case(rng, trial % 2 == 0)
        if trial % 5 == 0 and len(a):  # 1e-9" near ties across the line
            a = a.copy()
            a[-1] = a[0] + rng.choice((-1e-9, 0.0, 1e-9))
        k = rng.choice((1, 2, 3, 4, 5, 7))
        got = _picks_of(a, bs, masks, k)
        wide = [j for j, (size, _) in enumerate(got) if size > k]
        if not wide:
            continue
        corners = _corners([a] * len(wide), [bs[j] for j in wide], [got[j][1][0] for j in wide])
        assert len(corners) == len(wide)
        for j, c in zip(wide, corners, strict=True):
            _size, front = got[j]
            assert c == _plain_corners(a, bs[j], front[0]), trial
            picks = _spread(front, c, masks[j], k)
            assert picks == _plain_spread(front, c, masks[j], k), trial
            if masks[j].all():  # None: no pair hidden
                assert _spread(front, c, None, k) == picks
            # k distinct pairs no rule hides, the nearest first: a round stages as many
            assert len(picks) == k == len(set(picks)) and picks[0] == front[0]
            assert all(masks[j][q] for q in picks)
            spread += picks != front
    assert spread > 200


def test_spread_never_picks_a_hidden_corner() -> None:
    # every corner hidden by the rule mask: the rank order fills the round
    a = np.array([[0.0, 0.0], [0.0, 1.0], [0.0, 2.0]])
    b = np.array([[5.0, 0.0], [5.0, 1.0], [5.0, 2.0]])
    mask = np.ones((3, 3), dtype=bool)
    size, front = _picks_of(a, [b], [mask], 4)[0]
    c = _corners([a], [b], [front[0]])[0]
    assert size == 9 and front[0] == (0, 0)
    assert c == (0, 2, 0, 2)  # across the line (0, 0) -> (5, 0): by y
    assert front == [(0, 0), (1, 1), (2, 2), (0, 1)]
    assert _spread(front, c, mask, 4) == [(0, 0), (2, 2), (0, 2), (2, 0)]
    hidden = mask.copy()
    hidden[2, 2] = hidden[2, 0] = hidden[0, 2] = False
    front_h = _picks_of(a, [b], [hidden], 4)[0][1]
    assert _spread(front_h, c, hidden, 4) == front_h


def _scene(seed: int) -> Visibility:
    return Visibility(scene_from_dict(random_scene(np.random.default_rng(2400 + seed))),
                      jit=False)


def _pairs(v: Visibility) -> list[tuple[int, int]]:
    us = v.scene.units
    return [(a, b) for a in range(len(us)) for b in range(len(us))
            if us[a].player != us[b].player]


@pytest.mark.parametrize("seed", range(8))
def test_search_with_the_spread_answers_as_unit_sees_R15_09_a(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # R15.09-a, R06.01-a: the same answers as ``unit_sees`` and as the search with the rank
    # order, each kept raw answer the plain one, the same exact searches in the same order
    searched: dict[int, list[tuple[int, int, int, int]]] = {}
    exact = Visibility._exact_sight

    def record(self: Visibility, ou: int, om: int, tu: int, tm: int) -> object:
        searched.setdefault(id(self), []).append((ou, om, tu, tm))
        return exact(self, ou, om, tu, tm)

    monkeypatch.setattr(Visibility, "_exact_sight", record)
    rng = random.Random(2440 + seed)
    for conv in (False, True):
        scene = _scene(seed).scene
        full = Visibility(scene, conv, jit=False)
        pairs = _pairs(full)
        rng.shuffle(pairs)
        want = [full.unit_sees(a, b) for a, b in pairs]
        ranked = Visibility(scene, conv, jit=False)
        v = Visibility(scene, conv, jit=False)
        searched.clear()  # (by id: the objects of the last loop may be gone)
        monkeypatch.setattr(overwatch_sight, "_first_picks", _all_picks)  # ow23's order
        assert overwatch_sight.seen_pairs(ranked, pairs) == want, (seed, conv)
        monkeypatch.setattr(overwatch_sight, "_first_picks", _first_picks)
        assert overwatch_sight.seen_pairs(v, pairs) == want, (seed, conv)
        for key, r in v._raw_cache.items():
            assert r.sight is full.raw_sight(*key).sight
        assert searched.get(id(v)) == searched.get(id(ranked))
        for (a, b), w in zip(pairs, want, strict=True):  # later questions, same Visibility
            assert v.unit_sees(a, b) == w
            m = full.sight_matrix(scene.units[a].name, scene.units[b].name)
            for om in range(m.shape[0]):
                assert v.model_sees(a, om, b) == bool(m[om].any())


def test_the_spread_changes_the_first_round_on_the_random_scenes() -> None:
    # guards the point: some first rounds stage other pairs than the nearest four
    changed = 0
    for seed in range(8):
        v = _scene(seed)
        pairs = _pairs(v)
        changed += sum(a != b for a, b in zip(_all_picks(v, pairs, 4),
                                              _first_picks(v, pairs, 4), strict=True))
    assert changed > 10


def _plain_first(v: Visibility, ou: int, tu: int, k: int) -> tuple[int, list[tuple[int, int]]]:
    a = overwatch_sight._centres(v, ou, {})
    b = overwatch_sight._centres(v, tu, {})
    mask = v._rule_mask(ou, tu)
    keys = sorted((float((a[om, 0] - b[tm, 0]) ** 2 + (a[om, 1] - b[tm, 1]) ** 2), om, tm)
                  for om in range(len(a)) for tm in range(len(b)) if mask[om, tm])
    size = len(keys)
    assert size == v.staged_size(ou, tu)
    if size <= k:
        return size, [(om, tm) for _, om, tm in keys]
    front = [(om, tm) for _, om, tm in keys[:k]]
    return size, _plain_spread(front, _plain_corners(a, b, front[0]), mask, k)


@pytest.mark.parametrize("seed", range(8))
def test_first_picks_as_plain_python_R15_09_a(seed: int) -> None:
    # each unit pair's size, and its picks: all its pairs no rule hides (nearest first), or
    # the spread of its k nearest (ties in row-major order); the pairs in a random order,
    # repeated, one-model units, rule masks hiding pairs (13.09 beyond detection range)
    v = _scene(seed)
    rng = random.Random(2450 + seed)
    pairs = _pairs(v)
    rng.shuffle(pairs)
    pairs += pairs[:3]
    for k in (1, 3, 4, 6):
        got = _first_picks(v, pairs, k)
        assert got == [_plain_first(v, ou, tu, k) for ou, tu in pairs], (seed, k)
    assert _first_picks(v, [], 4) == []
