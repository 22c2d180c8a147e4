"""The model pairs of a batched sight stage as arrays (:meth:`SightTables._batch_stage`): the
keys' four numbers and each pair's two global model indices, read at once rather than by a
dictionary look-up per model."""

from __future__ import annotations

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
