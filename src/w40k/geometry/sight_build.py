"""A scene's obstacle arrays with the terrain's part built once: every scene on one terrain
starts with the same terrain items (:mod:`sight_terrain`), so :func:`build` builds those once
and per scene only the models' items, then joins the two. The arrays are exactly those of
``Obstacles.build(terrain_items + model_items)``: the same per-item rows in the same order
(the build is item by item), the models' obstacle indices shifted by the terrain's count."""

from __future__ import annotations

import numpy as np

from w40k.geometry.los import Obstacles
from w40k.geometry.shapes import FloatArray

Item = tuple[FloatArray, float, float]
"""(polygon-or-point (k, 2), grow, top), as :meth:`Obstacles.build` takes them."""

_TERRAIN: dict[int, tuple[tuple[Item, ...], Obstacles]] = {}
"""The terrain's part by the identity of its items tuple (held, so the id stays its own)."""

LIMIT = 64
"""Terrains kept before the table is emptied."""


def build(terrain_items: tuple[Item, ...], model_items: list[Item]) -> Obstacles:
    """``Obstacles.build(list(terrain_items) + model_items)``, the terrain's part kept."""
    hit = _TERRAIN.get(id(terrain_items))
    if hit is None or hit[0] is not terrain_items:
        if len(_TERRAIN) >= LIMIT:
            _TERRAIN.clear()
        hit = _TERRAIN[id(terrain_items)] = (terrain_items, Obstacles.build(list(terrain_items)))
    ter = hit[1]
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
