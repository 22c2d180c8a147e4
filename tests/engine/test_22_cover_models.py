"""13.08 (i) per target model in one slice (issue 10, cover22): ``Visibility._cover_models``
(INFANTRY/BEASTS/SWARM within a terrain area) read off the unit's rows of the membership
matrix equals the model-by-model reading (``areas_of``, the areas among the model's regions)
on the random scenes of tests/geometry/test_cover_far.py, whatever units are asked first
(the matrix's rows filled or not yet)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_cover_far import _sparse_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.visibility import COVER_KEYWORDS


def _plain(vis: Visibility, tu: int) -> list[bool]:
    return [m.has(*COVER_KEYWORDS) and bool(vis.areas_of[(tu, tm)])
            for tm, m in enumerate(vis.scene.units[tu].models)]


@pytest.mark.parametrize("seed", range(30))
def test_cover_models_equal_the_model_by_model_reading(seed: int) -> None:
    # R13.08-a (i): within a terrain area (not a gap filler's column), with a cover keyword
    scene = scene_from_dict(_sparse_scene(seed))
    n = len(scene.units)
    rng = np.random.default_rng(2210 + seed)
    ref = Visibility(scene, jit=False)
    want = [_plain(ref, tu) for tu in range(n)]
    for order in (range(n), rng.permutation(n).tolist()):
        vis = Visibility(scene, jit=False)
        for tu in order:
            got = vis._cover_models(tu)
            assert got.tolist() == want[tu]
            assert not got.flags.writeable
            assert vis._cover_models(tu) is got  # kept per unit


def test_the_scenes_hold_both_answers() -> None:
    # not vacuous: models within an area with a keyword, and with a keyword outside any
    inside = outside = 0
    for seed in range(30):
        scene = scene_from_dict(_sparse_scene(seed))
        vis = Visibility(scene, jit=False)
        for tu, u in enumerate(scene.units):
            got = vis._cover_models(tu)
            kw = [m.has(*COVER_KEYWORDS) for m in u.models]
            inside += int(got.sum())
            outside += sum(k and not g for k, g in zip(kw, got.tolist(), strict=True))
    assert inside >= 10 and outside >= 10, (inside, outside)


@pytest.mark.parametrize("seed", range(10))
def test_a_gap_fillers_column_is_not_an_area(seed: int) -> None:
    # R13.11-b, R13.08-a (i): a model within a filled gap only (a column after the areas'),
    # or within both, reads as the model-by-model reading does (the random scenes hold few
    # such models: the membership matrix is given a gap filler's column here, set at random)
    scene = scene_from_dict(_sparse_scene(seed))
    rng = np.random.default_rng(2230 + seed)
    ref, vis = Visibility(scene, jit=False), Visibility(scene, jit=False)
    for v in (ref, vis):
        v.warm()
    extra = rng.random(len(ref.models)) < 0.5
    for v in (ref, vis):
        v._in_area = np.concatenate([v._in_area, extra[:, None]], axis=1)
    for tu in range(len(scene.units)):
        assert vis._cover_models(tu).tolist() == _plain(ref, tu)
