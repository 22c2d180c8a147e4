"""The edges of an obstacles object as plain float rows, kept per object: the loops over a
pair's edges in Python floats (:mod:`shadow_point`, :mod:`cover_near`) read them instead of
indexing and converting the arrays on every call (a scene's pair obstacles are shared by many
model pairs)."""

from __future__ import annotations

import numpy as np

from w40k.core import kept
from w40k.geometry.los_obstacles import Obstacles

_ROWS = kept.table()
"""Per obstacles (by id, holding them): each edge's box, ends, grow and top in floats."""
_ROWS_LIMIT = 256
"""Entries before the table is emptied (each keeps its obstacles alive, as
``los_hull._BOXES``)."""


def edge_rows(obs: Obstacles) -> list[list[float]]:
    """The edges of ``obs`` as float rows ``(x_lo, y_lo, x_hi, y_hi, ax, ay, bx, by, grow,
    top)`` (the box by ``np.minimum``/``np.maximum`` of the ends: the array's values)."""
    hit = _ROWS.get(id(obs))
    if hit is not None and hit[0] is obs:
        rows: list[list[float]] = hit[1]
        return rows
    if len(_ROWS) >= _ROWS_LIMIT:
        _ROWS.clear()
    rows = np.concatenate([np.minimum(obs.a, obs.b), np.maximum(obs.a, obs.b), obs.a, obs.b,
                           obs.grow[:, None], obs.top[:, None]], axis=1).tolist()
    _ROWS[id(obs)] = (obs, rows)
    return rows
