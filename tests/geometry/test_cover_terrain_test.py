"""Cover per attacking model (13.08 (ii)) answered by the terrain-only test alone (issue 10,
cover14): for a target model seen CLEAR, ``Visibility._terrain_covers`` (not fully visible
with the terrain features and obscuring areas alone) is bit 2 of the refined HULL_RAMP
flags (``terrain_hides``, the definition), computed afresh with no answer kept between the
two, on seeded random scenes with the terrain near the models and third units' bases among
the obstacles; and for a target model not seen CLEAR, a "yes" there is cover by the
definition too (``cover_against`` asks the test before the per-pair search)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict, sight_memo
from w40k.geometry.los import Sight

_SEEN: dict[bool, int] = {True: 0, False: 0}


@pytest.mark.parametrize("seed", range(20))
def test_the_terrain_only_test_is_bit_2_of_the_refined_flags(seed: int) -> None:
    # R13.08-a: not fully visible due to terrain exactly when the terrain alone hides a
    # facing point (third units' models hide but give no cover)
    scene = scene_from_dict(random_scene(np.random.default_rng(700 + seed)))
    units = scene.units
    pairs = [(ou, om, tu, tm) for ou in range(len(units)) for tu in range(len(units))
             if units[ou].player != units[tu].player
             for om in range(len(units[ou].models)) for tm in range(len(units[tu].models))]
    sight_memo.forget()
    vis = Visibility(scene, jit=False)
    got = {k: vis._terrain_covers(*k) for k in pairs}
    sight_memo.forget()
    ref = Visibility(scene, jit=False)
    for k, covers in got.items():
        if ref.raw_sight(*k).sight is Sight.CLEAR:
            assert covers is ref.terrain_hides(*k)
            _SEEN[covers] += 1
        elif covers:
            # whatever the raw sight, a facing point the terrain alone hides gives cover
            assert ref.model_sight(*k).terrain_cover


def test_the_terrain_only_test_cases_are_both_answers() -> None:
    # the comparison above is not vacuous: it met pairs with and without cover
    for seed in range(20):
        if min(_SEEN.values()) >= 20:
            break
        test_the_terrain_only_test_is_bit_2_of_the_refined_flags(seed)
    assert min(_SEEN.values()) >= 20
