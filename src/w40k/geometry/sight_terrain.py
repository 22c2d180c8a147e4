"""The terrain's part of a scene's sight obstacles (features, R13.11-b gap fillers, obscuring
areas: 13.10, 13.11), what each obstacle is, and the area membership rows kept by footprint:
the same for every scene on one terrain, so built once per terrain
(:class:`w40k.geometry.sight_tables.SightTables` reads them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

import numpy as np

from w40k.core import kept
from w40k.geometry import kernel_layout
from w40k.geometry.measure import point_polygon_distance, shape_region_distance
from w40k.geometry.shapes import EPS, HALF_LINE, FloatArray, Shape
from w40k.geometry.terrain import GapFiller, Terrain

if TYPE_CHECKING:
    from w40k.geometry.sight_tables import SightTables

AREA_GROW = 1e-6
"""13.10 asks whether a line *crosses* an area: areas are grown by a hair (1e-6") so that a
line through the area is blocked while a line grazing its corner is not."""
AREA_ROWS_LIMIT = 4096
"""Area membership rows kept per terrain (:attr:`_TerrainPart.area_rows`) before emptying."""


class Kind(Enum):
    """What an obstacle is."""

    FEATURE = "feature"
    AREA = "area"
    MODEL = "model"


_KIND_CODE = {
    Kind.FEATURE: kernel_layout.FEATURE,
    Kind.AREA: kernel_layout.AREA,
    Kind.MODEL: kernel_layout.MODEL,
}
@dataclass(frozen=True)
class _TerrainPart:
    """The obstacle items of a scene's terrain (features, R13.11-b gap fillers, obscuring
    areas) with their kinds and owners, and which areas hold a dense feature: the same for
    every scene on one terrain, so built once per terrain (:func:`_terrain_part`)."""

    items: tuple[tuple[FloatArray, float, float], ...]
    kinds: tuple[Kind, ...]
    owner_unit: tuple[int, ...]
    owner_area: tuple[int, ...]
    gap_fillers: tuple[GapFiller, ...]
    dense_area: tuple[bool, ...]
    area_rows: dict[Shape, np.ndarray] = field(default_factory=dict, compare=False)
    """Area membership rows by footprint (:meth:`SightTables._area_rows`: a pure function of
    the footprint and this terrain's regions), found again in the next scenes for the models
    that did not move."""


_TERRAIN_PARTS: dict[int, tuple[Terrain, _TerrainPart]] = kept.table()


def _terrain_part(terrain: Terrain) -> _TerrainPart:
    """The terrain's part of the obstacles (kept per terrain object: a frozen value)."""
    hit = _TERRAIN_PARTS.get(id(terrain))
    if hit is not None and hit[0] is terrain:
        return hit[1]
    items: list[tuple[FloatArray, float, float]] = []
    kinds: list[Kind] = []
    owner_area: list[int] = []
    for f in terrain.features:
        items.append((f.array(), HALF_LINE, f.sight_height))
        kinds.append(Kind.FEATURE)
        owner_area.append(-1)
    gaps = terrain.gap_fillers()
    for gi, g in enumerate(gaps):
        items.append((g.array(), HALF_LINE, g.height))
        kinds.append(Kind.FEATURE)
        owner_area.append(len(terrain.areas) + gi)
    for ai, a in enumerate(terrain.areas):
        if terrain.is_obscuring(a.name):
            # 13.10: an obscuring area blocks lines that cross it, whatever their height
            items.append((a.array(), AREA_GROW, float("inf")))
            kinds.append(Kind.AREA)
            owner_area.append(ai)
    for arr, _, _ in items:
        arr.setflags(write=False)  # shared by every scene's obstacles
    out = _TerrainPart(tuple(items), tuple(kinds), (-1,) * len(items), tuple(owner_area),
                       gaps, tuple(terrain.contains_dense(a.name) for a in terrain.areas))
    if len(_TERRAIN_PARTS) >= 64:
        _TERRAIN_PARTS.clear()
    _TERRAIN_PARTS[id(terrain)] = (terrain, out)
    return out


def fill_area_rows(t: SightTables) -> np.ndarray:
    """Fill every row of ``t``'s model x region membership matrix not yet filled
    (:meth:`SightTables._area_rows`: ``TerrainArea.holds``, any part of the footprint within
    the area; the columns the terrain areas, then the R13.11-b gap fillers), round bases at
    once, and return the matrix."""
    # every row not yet filled, at once (each row is its own, and most are kept by
    # footprint from the last scenes): the next calls find theirs filled
    known, part = t._in_area_known, t._part
    # a unit's rows kept by its models tuple (``sight_blocks``) for this terrain, where none
    # of them is filled yet (the same floats: each row is its model's own)
    start = 0
    for blk in t._blocks:
        end = start + len(blk.models)
        hit = blk.area_rows.get(id(part))
        if hit is not None and hit[0] is part and end > start and not known[start:end].any():
            t._in_area[start:end] = hit[1]
            known[start:end] = True
        start = end
    _fill_rest(t)
    # every row is filled now: each unit's rows kept for its next scene on this terrain
    start = 0
    for blk in t._blocks:
        end = start + len(blk.models)
        hit = blk.area_rows.get(id(part))
        if hit is None or hit[0] is not part:
            rows = t._in_area[start:end].copy()
            rows.setflags(write=False)
            blk.area_rows[id(part)] = (part, rows)
        start = end
    return t._in_area


def _fill_rest(t: SightTables) -> None:
    """The rows not filled yet: kept by footprint, or measured (round bases at once)."""
    todo = np.nonzero(~t._in_area_known)[0]
    # rows kept by footprint (the same floats: each model's row is computed on its own)
    by_footprint = t._part.area_rows
    fps = [t.footprints[t.models[g]] for g in todo.tolist()]
    hit = np.array([fp in by_footprint for fp in fps], dtype=bool)
    for g, fp in zip(todo[hit].tolist(), (f for f, h in zip(fps, hit, strict=True) if h),
                     strict=True):
        t._in_area[g] = by_footprint[fp]
    t._in_area_known[todo[hit]] = True
    todo = todo[~hit]
    if len(todo) == 0:
        return
    regions = [a.array() for a in t.scene.terrain.areas]
    regions += [g.array() for g in t.gap_fillers]
    rnd = todo[t._round[todo]]
    if len(rnd):
        centres, radii = t._geo[rnd, :2], t._geo[rnd, 2]
        for ci, region in enumerate(regions):
            # shape_region_distance for a circle: max(0, centre distance - r) (0 inside)
            d = point_polygon_distance(centres, region) - radii
            t._in_area[rnd, ci] = np.maximum(d, 0.0) <= EPS
    for g in todo[~t._round[todo]]:
        ui, mi = t.models[int(g)]
        fp = t.scene.units[ui].models[mi].footprint()
        for ci, region in enumerate(regions):
            t._in_area[g, ci] = shape_region_distance(fp, region) <= EPS
    t._in_area_known[todo] = True
    if len(by_footprint) + len(todo) > AREA_ROWS_LIMIT:
        by_footprint.clear()
    for g in todo.tolist():
        row = t._in_area[g].copy()
        row.setflags(write=False)
        by_footprint[t.footprints[t.models[g]]] = row


def kind_arrays(kinds: tuple[Kind, ...], n_models: int) -> tuple[np.ndarray, np.ndarray]:
    """Per obstacle of a scene (the terrain's ``kinds``, then ``n_models`` models): whether it
    is a model, and its kind's kernel code; ``np.array`` of ``k is Kind.MODEL`` and of
    ``_KIND_CODE[k]`` over ``[*kinds, *[Kind.MODEL] * n_models]``, the models' part filled at
    once."""
    is_model = np.concatenate([np.array([k is Kind.MODEL for k in kinds], dtype=bool),
                               np.ones(n_models, dtype=bool)])
    codes = np.concatenate([np.array([_KIND_CODE[k] for k in kinds], dtype=np.int64),
                            np.full(n_models, _KIND_CODE[Kind.MODEL], dtype=np.int64)])
    return is_model, codes
