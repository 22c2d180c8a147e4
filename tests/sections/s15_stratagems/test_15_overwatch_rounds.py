"""Fire Overwatch's sight search stages its candidate pairs in rounds, the nearest model pairs
first (pass ow12, ``engine/stratagems/overwatch_sight.py``): on the seeded random scenes of
``test_los_batch`` (walls, dense areas, INFANTRY, Lone Operatives, upper levels, ovals) every
unit pair's answer equals ``Visibility.unit_sees`` with every pair staged at once and the full
sight matrix, every kept raw answer equals the one-batch stage's, and a later question on a
pair shown seen early (its other model pairs not staged yet) answers as before."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.engine.stratagems import overwatch_sight
from w40k.geometry import Visibility, scene_from_dict

pytestmark = pytest.mark.stratagems


def _pairs(v: Visibility) -> list[tuple[int, int]]:
    us = v.scene.units
    return [(a, b) for a in range(len(us)) for b in range(len(us))
            if us[a].player != us[b].player]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("rounds", [(4, 16), (1,), (), (2, 3, 50)])
def test_rounds_answer_as_every_pair_staged_at_once(seed: int, rounds: tuple[int, ...],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # R15.09-a, R06.01-a, R13.09-b, R24.24-a: some model of the unit sees some model of the
    # target; the rounds decide only which model pairs are staged first
    monkeypatch.setattr(overwatch_sight, "ROUNDS", rounds)
    scene = scene_from_dict(random_scene(np.random.default_rng(700 + seed)))
    for conv in (False, True):
        plain = Visibility(scene, conv, jit=False)
        pairs = _pairs(plain)
        plain.stage_many(pairs)
        want = [plain.unit_sees(a, b) for a, b in pairs]
        full = Visibility(scene, conv, jit=False)
        assert want == [bool(full.sight_matrix(full.scene.units[a].name,
                                               full.scene.units[b].name).any())
                        for a, b in pairs]
        v = Visibility(scene, conv, jit=False)
        assert overwatch_sight.seen_pairs(v, pairs) == want, (seed, conv)
        codes = {k: r.sight for k, r in plain._raw_cache.items()}
        fresh = {k: r.sight for k, r in full._raw_cache.items()}
        for k, r in v._raw_cache.items():
            assert r.sight is fresh[k], (seed, conv, k)  # each pair's own answer
            if k in codes:
                assert r.sight is codes[k]
        # later questions on every pair (those shown seen early are staged then)
        for (a, b), w in zip(pairs, want, strict=True):
            assert v.unit_sees(a, b) == w
            m = full.sight_matrix(full.scene.units[a].name, full.scene.units[b].name)
            for om in range(m.shape[0]):
                assert v.model_sees(a, om, b) == bool(m[om].any())


def test_the_first_round_shows_some_pairs_seen_with_fewer_pairs_staged() -> None:
    # guards the point of the rounds: some unit pairs are shown seen by their nearest pairs
    # alone, and fewer model pairs are staged than with every pair at once
    early = 0
    fewer = 0
    for seed in range(8):
        scene = scene_from_dict(random_scene(np.random.default_rng(700 + seed)))
        plain = Visibility(scene, jit=False)
        plain.stage_many(_pairs(plain))
        v = Visibility(scene, jit=False)
        answers = overwatch_sight.seen_pairs(v, _pairs(v))
        early += sum(1 for p, ok in zip(_pairs(v), answers, strict=True)
                     if ok and p not in v._staged)
        fewer += len(plain._raw_cache) - len(v._raw_cache)
    assert early > 0 and fewer > 0
