"""The model pairs of a batched sight stage as arrays (:meth:`SightTables._batch_stage`): the
keys' four numbers and each pair's two global model indices, read at once rather than by a
dictionary look-up per model."""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain

import numpy as np

from w40k.geometry.sight_stage import Key


def unit_starts(sizes: list[int]) -> np.ndarray:
    """Each unit's first global model index (the units' models numbered in order)."""
    return np.cumsum([0, *sizes], dtype=np.int64)[:-1]


def pair_arrays(todo: list[Key], starts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The keys as an (N, 4) int64 array (observer unit, model, target unit, model) and the
    observer's and target's global model indices: ``starts[unit] + model``, which is
    ``SightTables.model_index[(unit, model)]`` (the tables number every unit's models in
    order from the unit's start: ``unit_starts`` of the units' sizes)."""
    keys = np.fromiter(chain.from_iterable(todo), dtype=np.int64,
                       count=4 * len(todo)).reshape(-1, 4)
    og = starts[keys[:, 0]] + keys[:, 1]
    tg = starts[keys[:, 2]] + keys[:, 3]
    return keys, og, tg


def allowed_fn(owner_unit: np.ndarray, owner_area: np.ndarray, ou_a: np.ndarray,
               tu_a: np.ndarray, og: np.ndarray, tg: np.ndarray, in_area: np.ndarray | None
               ) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``batch_sight``'s ``allowed(pi, own)`` for a stage's round pairs (observer and target
    units ``ou_a``/``tu_a``, global model indices ``og``/``tg``): R06.01-a, not one of the two
    units' own models; R13.10-a, not an area either model is in (``in_area``: the model x
    region membership matrix, None when the scene has no area). The membership cells are
    read by flat index into the matrix (``row * columns + column``: the same cells as the
    two-index ``in_area[og[pi], arc]``, without numpy's two-index path)."""
    if in_area is None:
        def units_only(pi: np.ndarray, own: np.ndarray) -> np.ndarray:
            ua = owner_unit[own]
            ok: np.ndarray = (ua != ou_a[pi]) & (ua != tu_a[pi])
            return ok
        return units_only
    n_col = in_area.shape[1]
    flat = in_area.ravel()
    o_row, t_row = og * n_col, tg * n_col

    def allowed(pi: np.ndarray, own: np.ndarray) -> np.ndarray:
        ua = owner_unit[own]
        ok: np.ndarray = (ua != ou_a[pi]) & (ua != tu_a[pi])
        ar = owner_area[own]
        arc = np.maximum(ar, 0)
        ok &= ~((ar >= 0) & (flat[o_row[pi] + arc] | flat[t_row[pi] + arc]))
        return ok
    return allowed
