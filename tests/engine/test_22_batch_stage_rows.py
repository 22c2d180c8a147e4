"""The batch22 pass reads a batched sight stage's model pairs as arrays
(``stage_rows.pair_arrays``: each pair's global model indices as its unit's first index
plus the model's, and the keys' unit numbers off one array) and its footprint rows by
``take``: the same indices as ``SightTables.model_index`` and the same answers, witnesses,
hints and relevance rows as the per-key look-ups, on seeded random scenes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict, stage_rows
from w40k.geometry.sight_stage import Key, wanted_pairs


def _plain(v: Visibility, todo: list[Key], starts: np.ndarray) -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """The keys and global indices by the tables' dictionary, key by key."""
    keys = np.array(todo, dtype=np.int64).reshape(-1, 4)
    og = np.array([v.model_index[k[:2]] for k in todo], dtype=np.int64)
    tg = np.array([v.model_index[k[2:]] for k in todo], dtype=np.int64)
    return keys, og, tg


@pytest.mark.parametrize("seed", range(4))
def test_pair_arrays_are_the_model_index(seed: int) -> None:
    rng = np.random.default_rng(2200 + seed)
    v = Visibility(scene_from_dict(random_scene(rng)), jit=False)
    us = v.scene.units
    every = [(a, i, b, j) for a in range(len(us)) for i in range(len(us[a].models))
             for b in range(len(us)) for j in range(len(us[b].models))]
    for n in (0, 1, 7, len(every)):
        todo = [every[int(k)] for k in rng.permutation(len(every))[:n]]
        got = stage_rows.pair_arrays(todo, v._unit_start)
        want = _plain(v, todo, v._unit_start)
        for x, y in zip(got, want, strict=True):
            assert x.dtype == y.dtype and np.array_equal(x, y)


@pytest.mark.parametrize("seed", range(4))
def test_batch_stage_answers_as_with_the_plain_lookups(seed: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a: the same raw answers (witnesses bit for bit), hints, relevance rows and open
    # pairs as with the key-by-key look-ups
    scene = scene_from_dict(random_scene(np.random.default_rng(2250 + seed)))
    us = scene.units
    pairs = [(a, b) for a in range(len(us)) for b in range(len(us)) if us[a].player != us[b].player]
    new = Visibility(scene, jit=False)
    left_new = new._batch_stage(pairs)
    old = Visibility(scene, jit=False)
    monkeypatch.setattr(stage_rows, "pair_arrays", lambda todo, starts: _plain(old, todo, starts))
    left_old = old._batch_stage(pairs)
    assert left_new == left_old and new._raw_cache and new._raw_cache == old._raw_cache
    assert new._hint == old._hint
    assert new._relevant.keys() == old._relevant.keys()
    assert all(np.array_equal(new._relevant[k], old._relevant[k]) for k in new._relevant)
    # the open pairs as e2de85a listed them: the undecided round pairs, then every other
    # wanted pair not kept, in order (now: the pairs of other shapes, without look-ups)
    todo = wanted_pairs(us, {}, pairs, None)
    undecided = [k for k in left_new if k in new._hint]
    plain = undecided + [k for k in todo if k not in new._raw_cache and k not in set(undecided)]
    assert left_new == plain and len(undecided) < len(left_new)
