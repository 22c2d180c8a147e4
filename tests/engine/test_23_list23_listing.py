"""The shooting listing's exact cuts (list23): the same answers as the plain code.

- ``Visibility.distances_to`` measures the unit pairs not kept yet off the sight tables'
  kernel footprint rows (``row_distances.rows_distance_matrix``: centre and radius per model,
  each non-round pair by ``measure.distance`` of the tables' footprints) instead of
  ``measure.distance_matrix`` over the models: every entry the same float, bit for bit.


Checked on the seeded random scenes of ``test_los_batch`` (round and oval bases) and of
``test_los_kernel`` (FRAME hulls, ovals of several sizes and facings), target units asked in
random orders, with repeats and with some unit pairs already kept."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from tests.geometry.test_los_kernel import shaped_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.measure import distance_matrix
from w40k.geometry.scene import Scene


def _scenes(seed: int) -> list[Scene]:
    out = [scene_from_dict(random_scene(np.random.default_rng(2300 + seed)))]
    out += [shaped_scene(seed, hulls, ovals) for hulls, ovals in
            ((True, False), (False, True), (True, True))]
    return out


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64).view(np.int64)


@pytest.mark.parametrize("seed", range(6))
def test_distances_to_equals_distance_matrix_bit_for_bit(seed: int) -> None:
    """R04.02 ranges are measured on these floats: each block of ``distances_to`` is
    ``distance_matrix`` of the two units' models, and so is the kept ``unit_distances``."""
    rng = np.random.default_rng(seed)
    for scene in _scenes(seed):
        units = scene.units
        for ou in range(len(units)):
            v = Visibility(scene, jit=False)
            others = [tu for tu in range(len(units)) if tu != ou]
            if rng.random() < 0.5:  # some pairs already kept: the per-unit path for those
                v.unit_distances(ou, int(rng.choice(others)))
            tus = list(rng.permutation(others)[:int(rng.integers(2, len(others) + 1))])
            tus = [int(t) for t in tus]
            if rng.random() < 0.3:
                tus.append(tus[0])  # a repeat
            got = v.distances_to(ou, tus)
            ref = distance_matrix(units[ou].models, [m for tu in tus for m in units[tu].models])
            assert got.shape == ref.shape
            assert (_bits(got) == _bits(ref)).all()
            for tu in set(tus):
                plain = distance_matrix(units[ou].models, units[tu].models)
                assert (_bits(v.unit_distances(ou, tu)) == _bits(plain)).all()


def test_scenes_hold_every_footprint_kind() -> None:
    """Not vacuous: the scenes mix round bases, ovals and FRAME hulls (the pairs measured by
    ``distance`` of the footprints), and some bases touch or overlap (distance 0)."""
    kinds: set[str] = set()
    zero = False
    for seed in range(6):
        for scene in _scenes(seed):
            kinds |= {type(m.footprint()).__name__ for u in scene.units for m in u.models}
            models = [m for u in scene.units for m in u.models]
            zero |= bool((distance_matrix(models) == 0.0).sum() > len(models))
    assert {"Circle", "Oval", "Polygon"} <= kinds
    assert zero

