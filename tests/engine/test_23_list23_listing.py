"""The shooting listing's exact cuts (list23): the same answers as the plain code.

- ``Visibility.distances_to`` and ``SightTables.unit_distances`` measure the unit pairs not
  kept yet off the sight tables' kernel footprint rows (``row_distances.rows_distance_matrix``:
  centre and radius per model, each non-round pair by ``measure.distance`` of the tables'
  footprints) instead of ``measure.distance_matrix`` over the models: every entry the same
  float, bit for bit.

- ``sight_blocks._build`` cuts each unit's rows (models, edges, vertices, polygon rows) by
  Python integer sums over the per-model counts instead of numpy cumulative sums: each block
  is the same as the unit built alone (its polygon offsets shifted by its ``poly_base``);
- ``sight_blocks.join_obstacles`` joins blocks that follow each other in one build as one
  slice of that build's arrays: the same arrays as the model-by-model build
  (``test_21_sight_blocks`` checks the join on reordered, shortened and moved scenes; here
  also a models tuple shared by two units, empty units, and that runs are merged).

Checked on the seeded random scenes of ``test_los_batch`` (round and oval bases) and of
``test_los_kernel`` (FRAME hulls, ovals of several sizes and facings), target units asked in
random orders, with repeats and with some unit pairs already kept."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from tests.geometry.test_los_kernel import shaped_scene
from w40k.geometry import Visibility, scene_from_dict, sight_blocks
from w40k.geometry.measure import distance_matrix
from w40k.geometry.scene import Scene
from w40k.geometry.sight_build import build_models


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


@pytest.mark.parametrize("seed", range(6))
def test_unit_distances_equal_distance_matrix_bit_for_bit(seed: int) -> None:
    """``SightTables.unit_distances`` (every caller: 13.09 detection range, 24.24, 22.05,
    cover, Overwatch) off the kernel rows: each ordered unit pair, a unit with itself too."""
    for scene in _scenes(seed):
        units = scene.units
        v = Visibility(scene, jit=False)
        for ou in range(len(units)):
            for tu in range(len(units)):
                plain = distance_matrix(units[ou].models, units[tu].models)
                got = v.unit_distances(ou, tu)
                assert got.shape == plain.shape and (_bits(got) == _bits(plain)).all()


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


_OBS = ("a", "b", "grow", "top", "owner", "verts", "vert_grow", "vert_top", "vert_owner",
        "convex")


def _same(p: np.ndarray, q: np.ndarray) -> bool:
    return p.dtype == q.dtype and p.shape == q.shape and bool(np.array_equal(p, q))


@pytest.mark.parametrize("seed", range(6))
def test_blocks_built_together_are_each_built_alone(seed: int) -> None:
    """R06.01-a / R17.02: a unit's block (edge and vertex rows, counts, convexity, kernel rows,
    polygon table and rows) is the same whichever units are built with it."""
    for scene in _scenes(seed):
        groups = [u.models for u in scene.units]
        together = sight_blocks._build(groups)
        for g, blk in zip(groups, together, strict=True):
            alone = sight_blocks._build([g])[0]
            for x, y in zip(blk.edges, alone.edges, strict=True):
                assert _same(x, y)
            assert _same(blk.ne, alone.ne) and _same(blk.nv, alone.nv)
            assert _same(blk.convex, alone.convex) and _same(blk.poly, alone.poly)
            assert _same(blk.poly_rows, alone.poly_rows)
            geo = blk.geo.copy()
            geo[blk.poly_rows, 10:12] -= blk.poly_base  # (offsets from the block's first)
            assert _same(geo, alone.geo)
            s, t, e0, e1, v0, v1 = blk.span
            assert t - s == len(g) and e1 - e0 == len(blk.edges[0]) and v1 - v0 == len(blk.edges[4])
            for k in range(7):
                lo, hi = (e0, e1) if k < 4 else (v0, v1)
                assert _same(blk.built[k][lo:hi], blk.edges[k])


def _check_join(scene: Scene) -> None:
    v = Visibility(scene, jit=False)
    fps = [m.footprint() for u in scene.units for m in u.models]
    tops = [m.top for u in scene.units for m in u.models]
    ref = build_models(v._part.items, fps, tops)
    for f in _OBS:
        assert _same(getattr(v.obstacles, f), getattr(ref, f)), f


@pytest.mark.parametrize("seed", range(6))
def test_joined_runs_are_the_model_by_model_build(seed: int) -> None:
    """The join of runs equals the model-by-model build: a fresh scene (one build, one run),
    a models tuple shared by two units side by side and apart, empty units between and at
    the ends, and units from several builds interleaved."""
    rng = np.random.default_rng(2310 + seed)
    for scene in _scenes(seed):
        units = list(scene.units)
        blocks = sight_blocks.unit_blocks([u.models for u in units])
        assert len(sight_blocks._runs(blocks)) < len(blocks)  # (not vacuous: runs merged)
        _check_join(scene)
        twin = replace(units[1], name="twin")  # the same models tuple object
        empty = replace(units[2], name="empty", models=())
        moved = replace(units[3], models=tuple(replace(m, x=m.x + 0.25) for m in units[3].models))
        for order in ([twin, *units], [units[1], twin, *units[2:]],
                      [empty, *units[:3], replace(empty, name="e2"),
                       *units[3:], replace(empty, name="e3")],
                      [*units[:3], moved, *units[4:]], [units[0], moved, *units[1:3]]):
            for _ in range(3):
                _check_join(Scene(scene.battlefield, scene.terrain, tuple(order)))
                order = [order[i] for i in rng.permutation(len(order))]
