"""The batched stage decides only the model pairs no rule hides (pass ow10): a unit pair's
pairs hidden by 13.09 (beyond detection range) or 24.24 (Lone Operative) are not staged, and
the unit-level, model-level and pair-level visibility answers stay those of
``sight_matrix`` computed on every model pair, on the seeded random scenes of
``test_los_batch`` (walls, dense areas, INFANTRY, Lone Operatives, upper levels, ovals)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict


def _pairs(v: Visibility) -> list[tuple[int, int]]:
    us = v.scene.units
    return [(a, b) for a in range(len(us)) for b in range(len(us))
            if us[a].player != us[b].player]


@pytest.mark.parametrize("seed", range(8))
def test_masked_stage_answers_as_every_model_pair(seed: int) -> None:
    # R06.01-a, R13.09-b, R24.24-a: the pairs a rule hides are never read; every answer as
    # the full sight matrix
    scene = scene_from_dict(random_scene(np.random.default_rng(700 + seed)))
    for conv in (False, True):
        full = Visibility(scene, conv, jit=False)
        ref = {(a, b): full.sight_matrix(full.scene.units[a].name, full.scene.units[b].name)
               for a, b in _pairs(full)}
        codes = {k: r.sight for k, r in full._raw_cache.items()}
        v = Visibility(scene, conv, jit=False)
        v.stage_many(_pairs(v))
        for k, r in v._raw_cache.items():
            assert r.sight is codes[k], (seed, conv, k)  # the same raw answer when staged
        for (a, b), want in ref.items():
            mask = v._rule_mask(a, b)
            assert v.staged_size(a, b) == int(mask.sum())
            for om in range(want.shape[0]):
                for tm in range(want.shape[1]):
                    if not mask[om, tm] and (b, tm, a, om) not in v._raw_cache:
                        assert (a, om, b, tm) not in v._raw_cache  # a hidden pair: not staged
            assert v.unit_sees(a, b) == bool(want.any())
            for om in range(want.shape[0]):
                assert v.model_sees(a, om, b) == bool(want[om].any())
                for tm in range(want.shape[1]):
                    assert v.visible(a, om, b, tm) == bool(want[om, tm])


def test_the_random_scenes_have_hidden_pairs_left_unstaged() -> None:
    # guards the point of the tests above: some pairs are hidden by a rule, and not staged
    hidden = unstaged = 0
    for seed in range(8):
        v = Visibility(scene_from_dict(random_scene(np.random.default_rng(700 + seed))),
                       jit=False)
        v.stage_many(_pairs(v))
        for a, b in _pairs(v):
            mask = v._rule_mask(a, b)
            hidden += int((~mask).sum())
            unstaged += sum(1 for om, tm in zip(*np.nonzero(~mask), strict=True)
                            if (a, int(om), b, int(tm)) not in v._raw_cache)
    assert hidden > 0 and unstaged > 0
