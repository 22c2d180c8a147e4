"""A scene's obstacle arrays with the terrain's part built once: every scene on one terrain
starts with the same terrain items (:mod:`sight_terrain`), so :func:`build` builds those once
and per scene only the models' items, then joins the two. The arrays are exactly those of
``Obstacles.build(terrain_items + model_items)``: the same per-item rows in the same order
(the build is item by item), the models' obstacle indices shifted by the terrain's count.
:func:`build_models` also keeps each model's rows by footprint (a model that did not move
finds its rows again in the next scene); with round bases only, it writes them straight from
the centres (:func:`_round_models`)."""

from __future__ import annotations

from typing import cast

import numpy as np

from w40k.core import kept
from w40k.geometry.los import Obstacles
from w40k.geometry.shapes import HALF_LINE, Circle, FloatArray, Oval, Shape

Item = tuple[FloatArray, float, float]
"""(polygon-or-point (k, 2), grow, top), as :meth:`Obstacles.build` takes them."""

_TERRAIN: dict[int, tuple[tuple[Item, ...], Obstacles]] = kept.table()
"""The terrain's part by the identity of its items tuple (held, so the id stays its own)."""

LIMIT = 64
"""Terrains kept before the table is emptied."""

_MODEL_ROWS: dict[Shape, tuple[FloatArray, FloatArray, FloatArray, bool, float]] = kept.table()
"""Per model footprint: its edge starts, edge ends, vertices, convexity and grow, as
``Obstacles.build`` makes them for its item (:func:`model_item`)."""

MODEL_ROWS_LIMIT = 8192
"""Footprints kept before :data:`_MODEL_ROWS` is emptied."""


def model_item(fp: Shape, top: float) -> Item:
    """A model's obstacle item: a column from the ground to its top (COLUMN convention), a
    round base as its centre grown by its radius, an oval as a 48-gon, a hull as itself."""
    if isinstance(fp, Circle):
        return (np.array([[fp.cx, fp.cy]]), fp.r + HALF_LINE, top)
    if isinstance(fp, Oval):
        return (fp.outline(48), HALF_LINE, top)
    return (fp.array(), HALF_LINE, top)


def _model_rows(fp: Shape) -> tuple[FloatArray, FloatArray, FloatArray, bool, float]:
    """The rows of one model's item (the top is per edge, added by the caller)."""
    hit = _MODEL_ROWS.get(fp)
    if hit is None:
        poly, grow, _ = model_item(fp, 0.0)
        one = Obstacles.build([(poly, grow, 0.0)])
        assert one.convex is not None
        for arr in (one.a, one.b, one.verts):
            arr.setflags(write=False)
        if len(_MODEL_ROWS) >= MODEL_ROWS_LIMIT:
            _MODEL_ROWS.clear()
        hit = _MODEL_ROWS[fp] = (one.a, one.b, one.verts, bool(one.convex[0]), grow)
    return hit


def terrain_obstacles(terrain_items: tuple[Item, ...]) -> Obstacles:
    """``Obstacles.build(list(terrain_items))``, kept per terrain tuple (held by its entry, so
    an ``id`` is not reused while kept)."""
    hit = _TERRAIN.get(id(terrain_items))
    if hit is None or hit[0] is not terrain_items:
        if len(_TERRAIN) >= LIMIT:
            _TERRAIN.clear()
        hit = _TERRAIN[id(terrain_items)] = (terrain_items, Obstacles.build(list(terrain_items)))
    return hit[1]


def build_models(terrain_items: tuple[Item, ...], footprints: list[Shape],
                 tops: list[float]) -> Obstacles:
    """``build(terrain_items, [model_item(fp, top) ...])``: the same arrays, each model's
    rows kept by footprint and joined (the per-edge grows, tops and owners repeated per
    model: the same floats and indices as the item-by-item build)."""
    if not footprints:
        return build(terrain_items, [])
    ter = terrain_obstacles(terrain_items)
    assert ter.convex is not None
    if all(type(fp) is Circle for fp in footprints):
        return _round_models(ter, len(terrain_items), footprints, tops)
    rows = [_model_rows(fp) for fp in footprints]
    n = len(terrain_items)
    ne = np.fromiter((len(r[0]) for r in rows), dtype=np.int64, count=len(rows))
    nv = np.fromiter((len(r[2]) for r in rows), dtype=np.int64, count=len(rows))
    grow = np.array([r[4] for r in rows], dtype=np.float64)
    top = np.array(tops, dtype=np.float64)
    owner = np.arange(n, n + len(rows), dtype=np.int64)
    return Obstacles(
        np.concatenate([ter.a, *(r[0] for r in rows)]),
        np.concatenate([ter.b, *(r[1] for r in rows)]),
        np.concatenate([ter.grow, np.repeat(grow, ne)]),
        np.concatenate([ter.top, np.repeat(top, ne)]),
        np.concatenate([ter.owner, np.repeat(owner, ne)]),
        np.concatenate([ter.verts, *(r[2] for r in rows)]),
        np.concatenate([ter.vert_grow, np.repeat(grow, nv)]),
        np.concatenate([ter.vert_top, np.repeat(top, nv)]),
        np.concatenate([ter.vert_owner, np.repeat(owner, nv)]),
        np.concatenate([ter.convex, np.array([r[3] for r in rows], dtype=bool)]),
    )


def _round_models(ter: Obstacles, n: int, footprints: list[Shape],
                  tops: list[float]) -> Obstacles:
    """:func:`build_models` when every footprint is a round base: a round base's item is
    its centre (one point: one edge from the centre to itself, one vertex, convex) grown by
    its radius + ``HALF_LINE`` (:func:`model_item`), so the models' rows are the centres,
    the grows and the tops in model order, one per model: the same floats and indices as
    the per-footprint rows joined, without a row set per footprint (a model that moved
    made a new one: ~600 a k = 5 game)."""
    assert ter.convex is not None
    circles = cast(list[Circle], footprints)
    xy = np.array([(fp.cx, fp.cy) for fp in circles], dtype=np.float64)
    grow = np.array([fp.r + HALF_LINE for fp in circles], dtype=np.float64)
    top = np.array(tops, dtype=np.float64)
    owner = np.arange(n, n + len(circles), dtype=np.int64)
    return Obstacles(
        np.concatenate([ter.a, xy]),
        np.concatenate([ter.b, xy]),
        np.concatenate([ter.grow, grow]),
        np.concatenate([ter.top, top]),
        np.concatenate([ter.owner, owner]),
        np.concatenate([ter.verts, xy]),
        np.concatenate([ter.vert_grow, grow]),
        np.concatenate([ter.vert_top, top]),
        np.concatenate([ter.vert_owner, owner]),
        np.concatenate([ter.convex, np.ones(len(circles), dtype=bool)]),
    )


def build(terrain_items: tuple[Item, ...], model_items: list[Item]) -> Obstacles:
    """``Obstacles.build(list(terrain_items) + model_items)``, the terrain's part kept."""
    ter = terrain_obstacles(terrain_items)
    mod = Obstacles.build(model_items)
    n = len(terrain_items)
    assert ter.convex is not None and mod.convex is not None
    return Obstacles(
        np.concatenate([ter.a, mod.a]),
        np.concatenate([ter.b, mod.b]),
        np.concatenate([ter.grow, mod.grow]),
        np.concatenate([ter.top, mod.top]),
        np.concatenate([ter.owner, mod.owner + n]),
        np.concatenate([ter.verts, mod.verts]),
        np.concatenate([ter.vert_grow, mod.vert_grow]),
        np.concatenate([ter.vert_top, mod.vert_top]),
        np.concatenate([ter.vert_owner, mod.vert_owner + n]),
        np.concatenate([ter.convex, mod.convex]),
    )
