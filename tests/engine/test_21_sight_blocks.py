"""A scene's sight tables joined from per-unit blocks (``sight_blocks``: each unit's
footprints, obstacle rows and kernel rows, kept by its models tuple) hold the same arrays as
the model-by-model build (``sight_build.build_models`` and ``kernel_layout.shape_rows`` over
every model of the scene): values, dtypes and order, obstacle indices and polygon offsets
included, on seeded random scenes with round and oval bases and FRAME hulls, for a fresh
scene and for scenes that share some units' models tuples in other places (blocks found
again, shifted). R06.01-a (models block as their footprints, 06.01), R17.02 (a hull is the
footprint)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Scene, Visibility, scene_from_dict, sight_memo
from w40k.geometry.kernel_layout import POLY, shape_rows
from w40k.geometry.los import Obstacles
from w40k.geometry.measure import shape_region_distance
from w40k.geometry.shapes import EPS, Circle
from w40k.geometry.sight_build import build, build_models, model_item
from w40k.geometry.sight_tables import SightTables
from w40k.geometry.sight_terrain import _KIND_CODE, Kind, _terrain_part
from w40k.geometry.visibility import COVER_KEYWORDS

_FIELDS = ("a", "b", "grow", "top", "owner", "verts", "vert_grow", "vert_top", "vert_owner",
           "convex")


def _equal(p: np.ndarray, q: np.ndarray) -> bool:
    return p.dtype == q.dtype and p.shape == q.shape and bool(np.array_equal(p, q))


def _same_obstacles(x: Obstacles, y: Obstacles) -> bool:
    return all(_equal(getattr(x, f), getattr(y, f)) for f in _FIELDS)


def _with_hulls(d: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Some models' bases turned into FRAME hulls (4 to 6 points about the model)."""
    for u in d["units"]:
        for m in u["models"]:
            if rng.random() < 0.25:
                k = int(rng.integers(4, 7))
                ang = np.sort(rng.uniform(0.0, 2 * np.pi, k))
                rad = rng.uniform(0.6, 1.4, k)
                m["keywords"] = ["FRAME"]
                m["hull"] = [[float(r * np.cos(a)), float(r * np.sin(a))]
                             for a, r in zip(ang, rad, strict=True)]
    return d


def _check(scene: Scene) -> None:
    """The tables' arrays equal the model-by-model build of the same scene."""
    v = SightTables(scene, jit=False)
    part = _terrain_part(scene.terrain)
    part.area_rows.clear()  # (the rows by footprint: only the units' kept rows, or measured)
    mods = [m for u in scene.units for m in u.models]
    fps = [m.footprint() for m in mods]
    tops = [m.top for m in mods]
    assert _same_obstacles(v.obstacles, build_models(part.items, fps, tops))
    geo, table = shape_rows(fps, tops, [m.z for m in mods])
    assert _equal(v._geo, geo) and _equal(v._fp, table)
    assert v._fp.flags.c_contiguous
    kinds = [*part.kinds, *([Kind.MODEL] * len(mods))]
    assert _equal(v._is_model, np.array([k is Kind.MODEL for k in kinds], dtype=bool))
    assert _equal(v._kind_code, np.array([_KIND_CODE[k] for k in kinds], dtype=np.int64))
    keys = [(ui, mi) for ui, u in enumerate(scene.units) for mi in range(len(u.models))]
    n_items = len(part.items)
    assert v.models == keys
    assert list(v.model_index.items()) == [(k, i) for i, k in enumerate(keys)]
    assert list(v.model_owner.items()) == [(k, n_items + i) for i, k in enumerate(keys)]
    assert list(v.footprints.items()) == list(zip(keys, fps, strict=True))
    assert _equal(v.owner_unit, np.asarray(
        [*part.owner_unit, *(ui for ui, _ in keys)], dtype=np.int64))
    # the region membership rows (units' rows found again by models tuple, or by footprint,
    # or measured) equal each model's own measure: TerrainArea.holds (R13.10-a), R13.11-b
    rows = v._area_rows(np.arange(len(keys), dtype=np.int64)).copy()
    regions = [a.array() for a in scene.terrain.areas] + [g.array() for g in v.gap_fillers]
    for i, fp in enumerate(fps):
        want = [shape_region_distance(fp, r) <= EPS for r in regions]
        assert rows[i].tolist() == want, i


@pytest.mark.parametrize("seed", range(8))
def test_the_joined_tables_are_the_model_by_model_build(seed: int) -> None:
    """A fresh scene, then scenes made of its units reordered, one left out and one unit
    moved (its blocks found again at other offsets, the moved one built anew)."""
    rng = np.random.default_rng(2100 + seed)
    scene = scene_from_dict(_with_hulls(random_scene(rng), rng))
    assert (SightTables(scene, jit=False)._geo[:, 5] == POLY).any()
    _check(scene)
    units = list(scene.units)
    for _ in range(4):
        order = [units[i] for i in rng.permutation(len(units))]
        order.pop(int(rng.integers(len(order))))
        _check(Scene(scene.battlefield, scene.terrain, tuple(order)))
    moved = units[0]
    units[0] = replace(moved, models=tuple(replace(m, x=m.x + 0.5) for m in moved.models))
    _check(Scene(scene.battlefield, scene.terrain, tuple(reversed(units))))


def test_a_scene_without_models_or_terrain() -> None:
    """No unit, and units with no terrain: the plain build's empty arrays."""
    rng = np.random.default_rng(7)
    scene = scene_from_dict(random_scene(rng))
    _check(Scene(scene.battlefield, scene.terrain, ()))
    bare = scene_from_dict({**random_scene(np.random.default_rng(8)), "terrain": []})
    _check(bare)


@pytest.mark.parametrize("seed", range(6))
def test_kept_boxes_and_hidden_models_are_each_scenes_own(seed: int) -> None:
    """A unit's box (the box of its footprints, ``Visibility.unit_box``) and its models
    hidden by 13.09 (R13.09-b: a model with a cover keyword within an area with a dense
    feature, its unit having made no ranged attacks recently) kept with its models: in
    scenes that share the models tuples, with the units in other places and the flag set or
    not, each equals the scene's own measure."""
    rng = np.random.default_rng(2200 + seed)
    data = random_scene(rng)
    for u in data["units"]:
        for m in u["models"]:
            if rng.random() < 0.3:
                m["keywords"] = ["VEHICLE"]
    scene = scene_from_dict(data)
    units = list(scene.units)
    for step in range(5):
        order = [units[i] for i in rng.permutation(len(units))]
        order = [replace(u, ranged_attacks_recently=bool(rng.random() < 0.3)) for u in order]
        v = Visibility(Scene(scene.battlefield, scene.terrain, tuple(order)), jit=False)
        n_areas = len(scene.terrain.areas)
        for tu, u in enumerate(order):
            boxes = [m.footprint().bbox() for m in u.models]
            assert v.unit_box(tu) == (min(b[0] for b in boxes), min(b[1] for b in boxes),
                                      max(b[2] for b in boxes), max(b[3] for b in boxes))
            rows = v._area_rows(np.arange(len(v.models), dtype=np.int64))
            want = [not u.ranged_attacks_recently and m.has(*COVER_KEYWORDS)
                    and any(v.dense_area[c] for c in np.nonzero(
                        rows[v.model_index[(tu, tm)]][:n_areas])[0])
                    for tm, m in enumerate(u.models)]
            got = v._hidden_models(tu)
            assert got.tolist() == want, (step, tu)
            assert not got.flags.writeable


@pytest.mark.parametrize("seed", range(4))
def test_kept_unit_tokens_name_the_units_content(seed: int) -> None:
    """Each unit's token in ``_others_token`` (kept with its models) is the token of its
    models' footprints and tops, as computed afresh, in scenes that share the models tuples
    in other places; units of equal content share a token, others do not (R06.01-a: a model
    blocks as its footprint up to its top)."""
    rng = np.random.default_rng(2300 + seed)
    scene = scene_from_dict(random_scene(rng))
    units = list(scene.units)
    units.append(replace(units[0], name="copy", models=tuple(list(units[0].models))))
    units.append(replace(units[1], name="moved", models=tuple(
        replace(m, x=m.x + 0.25) for m in units[1].models)))
    for _ in range(3):
        order = tuple(units[i] for i in rng.permutation(len(units)))
        v = SightTables(Scene(scene.battlefield, scene.terrain, order), jit=False)
        toks = v._others_token(0, 1)[1:]
        want = [sight_memo.token(tuple((m.footprint(), m.top) for m in u.models))
                for ui, u in enumerate(order) if ui not in (0, 1)]
        assert list(toks) == want
    by_name = {u.name: i for i, u in enumerate(order)}
    assert v._unit_tokens[1 + by_name["copy"]] == v._unit_tokens[1 + by_name[units[0].name]]
    assert v._unit_tokens[1 + by_name["moved"]] != v._unit_tokens[1 + by_name[units[1].name]]


@pytest.mark.parametrize("seed", range(6))
def test_round_bases_rows_written_out_are_the_item_build(seed: int) -> None:
    """``build_models`` with round bases written out (every footprint round: joined at once;
    some not: a round one's rows without the per-footprint table) equals ``build`` of the
    models' items (``Obstacles.build``, item by item): R06.01-a, a model blocks as its
    footprint, a round base its centre grown by its radius."""
    rng = np.random.default_rng(2400 + seed)
    data = random_scene(rng)
    scene = scene_from_dict(_with_hulls(data, rng) if seed % 2 else data)
    part = _terrain_part(scene.terrain)
    mods = [m for u in scene.units for m in u.models]
    rounds = [m for m in mods if isinstance(m.footprint(), Circle)]
    for group in (mods, rounds, rounds[:1], []):
        fps = [m.footprint() for m in group]
        tops = [m.top for m in group]
        want = build(part.items, [model_item(fp, top) for fp, top in zip(fps, tops,
                                                                          strict=True)])
        assert _same_obstacles(build_models(part.items, fps, tops), want)
        assert _same_obstacles(build_models((), fps, tops), build((), [
            model_item(fp, top) for fp, top in zip(fps, tops, strict=True)]))
