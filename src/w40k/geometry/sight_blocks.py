"""Per unit, the parts of a scene's sight tables that depend on its models alone: their
footprints, their obstacle rows (each model a column from the ground to its top, COLUMN
convention, 06.01) and their kernel footprint rows, kept by the identity of the unit's models
tuple (a unit's layout keeps one tuple until one of its models is placed or removed, so most
units of a new scene find theirs again: a casualty or a move rebuilds that unit's block only).

:func:`join_obstacles` and :func:`join_rows` join the blocks of a scene's units after the
terrain's part: the same arrays as :func:`sight_build.build_models` and
:func:`kernel_layout.shape_rows` over every model of the scene (both build model by model
and join in model order, so joining unit by unit gives the same floats and indices: only the
obstacle indices and the polygon table offsets are shifted, by exact integer additions).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from w40k.core import kept
from w40k.geometry import kernel_layout, sight_build
from w40k.geometry.los_obstacles import Obstacles
from w40k.geometry.shapes import FloatArray, Model, Shape


@dataclass(frozen=True)
class UnitBlock:
    """One unit's models as the sight tables need them (arrays read-only)."""

    models: tuple[Model, ...]
    """The models tuple it was built from (held: the table's key is its ``id``)."""
    footprints: tuple[Shape, ...]
    """Each model's footprint, in order."""
    obstacles: Obstacles
    """The models' obstacle rows (:func:`sight_build.build_models` with no terrain): obstacle
    ``i`` is model ``i``."""
    geo: FloatArray
    """The models' kernel footprint rows (:func:`kernel_layout.shape_rows`), polygon table
    offsets counted from this block's own table."""
    poly: FloatArray
    """The block's polygon table (P, 5)."""
    poly_rows: np.ndarray
    """The rows of :attr:`geo` with a polygon (whose offsets a join shifts)."""
    area_rows: dict[int, tuple[object, np.ndarray]] = field(default_factory=dict,
                                                            compare=False)
    """Per terrain part (by identity, held): the models' rows of the region membership
    matrix (``sight_terrain.fill_area_rows``: a function of the footprints and that terrain's
    areas and gap fillers), read-only."""


_BLOCKS: dict[int, UnitBlock] = kept.table()
""":func:`unit_block` by the identity of the models tuple (held by its entry)."""

LIMIT = 4096
"""Blocks kept before :data:`_BLOCKS` is emptied."""

_NO_ITEMS: tuple[sight_build.Item, ...] = ()
"""No terrain (a block's obstacles are its models' alone)."""


def unit_block(models: tuple[Model, ...]) -> UnitBlock:
    """The block of a unit's models (kept while the same tuple is asked)."""
    hit = _BLOCKS.get(id(models))
    if hit is not None and hit.models is models:
        return hit
    fps = [m.footprint() for m in models]
    tops = [m.top for m in models]
    obs = sight_build.build_models(_NO_ITEMS, fps, tops)
    geo, poly = kernel_layout.shape_rows(fps, tops, [m.z for m in models])
    poly_rows = np.nonzero(geo[:, 5] == kernel_layout.POLY)[0]
    for arr in (obs.a, obs.b, obs.grow, obs.top, obs.owner, obs.verts, obs.vert_grow,
                obs.vert_top, obs.vert_owner, geo, poly):
        arr.setflags(write=False)
    out = UnitBlock(models, tuple(fps), obs, geo, poly, poly_rows)
    if len(_BLOCKS) >= LIMIT:
        _BLOCKS.clear()
    _BLOCKS[id(models)] = out
    return out


def join_obstacles(terrain: Obstacles, blocks: list[UnitBlock]) -> Obstacles:
    """The terrain's obstacles, then every block's in order, each block's obstacle indices
    shifted past those before it (the terrain's items, then the models of the blocks
    before): ``sight_build.build_models(items, every footprint, every top)``."""
    n = len(terrain.convex) if terrain.convex is not None else 0
    shift: list[int] = []
    for b in blocks:
        shift.append(n)
        n += len(b.models)
    parts = [b.obstacles for b in blocks]
    assert terrain.convex is not None
    return Obstacles(
        np.concatenate([terrain.a, *(p.a for p in parts)]),
        np.concatenate([terrain.b, *(p.b for p in parts)]),
        np.concatenate([terrain.grow, *(p.grow for p in parts)]),
        np.concatenate([terrain.top, *(p.top for p in parts)]),
        np.concatenate([terrain.owner, *(p.owner + s for p, s in zip(parts, shift,
                                                                     strict=True))]),
        np.concatenate([terrain.verts, *(p.verts for p in parts)]),
        np.concatenate([terrain.vert_grow, *(p.vert_grow for p in parts)]),
        np.concatenate([terrain.vert_top, *(p.vert_top for p in parts)]),
        np.concatenate([terrain.vert_owner, *(p.vert_owner + s for p, s in zip(parts, shift,
                                                                               strict=True))]),
        np.concatenate([terrain.convex, *(p.convex for p in parts if p.convex is not None)]),
    )


def join_rows(blocks: list[UnitBlock]) -> tuple[FloatArray, FloatArray]:
    """Every block's kernel rows and polygon tables in order, each polygon row's offsets
    shifted past the tables before: ``kernel_layout.shape_rows`` of every model."""
    if not blocks:
        return kernel_layout.shape_rows([], [], [])
    geo = np.concatenate([b.geo for b in blocks])
    tables: list[FloatArray] = []
    start = nfp = 0
    for b in blocks:
        if len(b.poly):
            if nfp:
                geo[start + b.poly_rows, 10:12] += nfp
            tables.append(b.poly)
            nfp += len(b.poly)
        start += len(b.geo)
    table = np.concatenate(tables) if tables else np.zeros((0, 5))
    return geo, np.ascontiguousarray(table)
