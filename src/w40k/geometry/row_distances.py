""":func:`measure.distance_matrix` of a scene's models read off the sight tables' kernel
footprint rows (``SightTables._geo``: centre x, y and radius per model, in the global model
order) instead of each model's footprint, centre and radius asked one by one.

The same floats: a round base's row holds its footprint's ``cx``, ``cy`` and ``r`` as they are
(:func:`kernel_layout.shape_rows`), and every other footprint's row its ``center`` (an oval's
``cx``, ``cy``; a polygon's vertex centroid, the same ``center`` property), which is all
``distance_matrix`` reads of it before it replaces every pair with a non-round footprint by
:func:`measure.distance` of the two footprints (the tables' own: each model's
``footprint()``, kept on the model). The arithmetic is ``distance_matrix``'s, expression for
expression, on arrays of the same values, so every entry is the same float.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from w40k.geometry.measure import distance
from w40k.geometry.shapes import FloatArray, Shape


def rows_distance_matrix(geo: FloatArray, round_: np.ndarray, a: slice, b: slice | np.ndarray,
                         fa: Sequence[Shape], fb: Sequence[Sequence[Shape]]) -> FloatArray:
    """``distance_matrix`` of the models at rows ``a`` (a slice: one unit's models) and
    ``b`` (a slice or row indices, in column order) of the kernel rows ``geo`` (``round_``:
    each row's footprint is a round base); ``fa``: the footprints of ``a``'s models in
    order, ``fb``: those of ``b``'s in groups (units) whose concatenation is in column order
    (read only for pairs that are not both round)."""
    ga, gb = geo[a], geo[b]
    round_a, round_b = round_[a], round_[b]
    ca, cb = ga[:, :2], gb[:, :2]
    # the rows' radii: a round base's own (``distance_matrix`` takes 0.0 for any other
    # footprint, but every pair with one is replaced below, whatever its value here)
    ra, rb = ga[:, 2], gb[:, 2]
    d = np.sqrt(((ca[:, None, :] - cb[None, :, :]) ** 2).sum(axis=2)) - ra[:, None] - rb[None, :]
    d = np.maximum(d, 0.0)
    if not (round_a.all() and round_b.all()):
        flat = [f for group in fb for f in group]
        for i, j in zip(*np.nonzero(~(round_a[:, None] & round_b[None, :])), strict=True):
            d[i, j] = distance(fa[i], flat[j])
    out: FloatArray = np.asarray(d, dtype=np.float64)
    return out
