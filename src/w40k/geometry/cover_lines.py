"""Cheap exact proofs that facing points are visible (06.01 fully visible, for 13.08 (ii)
cover): a few lines from the observer through each point, all points at once.

A point (a target of radius 0 at height ``level_t``) is visible when some 1 mm line from the
observer through it is clear; :func:`clear_through_points` evaluates given lines with the
formulas of :func:`w40k.geometry.los.evaluate_lines` (the same floats per line as that
function with the point as the target), for many points in one array pass. A point with a
clear line is visible, the answer the exact search gives; the others go to the exact search.
"""

from __future__ import annotations

import numpy as np

from w40k.geometry.los import Obstacles, _chords, lines_hit, oriented
from w40k.geometry.shapes import FloatArray, Shape


def clear_through_points(
    o: Shape, top_o: float, level_t: float, obs: Obstacles, a: FloatArray, p: FloatArray
) -> np.ndarray:
    """Per row: the line from ``a[i]`` (a point of or near the observer) through ``p[i]`` (a
    target point at height ``level_t``) is a clear 1 mm line of sight, by the per-line test
    of :func:`~w40k.geometry.los.evaluate_lines` (target ``Circle(p[i], 0)``). Rows whose
    two points coincide are not clear."""
    n = len(a)
    out = np.zeros(n, dtype=bool)
    d = p - a
    ln = np.hypot(d[:, 0], d[:, 1])
    rows0 = np.nonzero(ln > 1e-9)[0]
    if len(rows0) == 0:
        return out
    a, p = a[rows0], p[rows0]
    d = d[rows0] / ln[rows0, None]
    o0, o1, ook = _chords(o, a, d)
    # the target point's chord (radius 0), as _chords computes it for a circle
    cx = p[:, 0] - a[:, 0]
    cy = p[:, 1] - a[:, 1]
    s = cx * d[:, 0] + cy * d[:, 1]
    perp2 = cx * cx + cy * cy - s * s
    tok = perp2 <= 1e-9
    half = np.sqrt(np.maximum(0.0 - perp2, 0.0))
    t0, t1 = s - half, s + half
    valid = ook & tok
    top_t = level_t
    o1, t0, d, te_o, te_t = oriented(o0, o1, t0, t1, d, top_o, top_t)
    overlap = o1 >= t0
    clear = valid & overlap
    if len(obs.a) == 0:
        out[rows0] = valid
        return out
    rows = np.nonzero(valid & ~overlap)[0]
    if len(rows):
        clear[rows] = ~lines_hit(a[rows], d[rows], o1[rows], t0[rows], te_o[rows],
                                 te_t[rows], top_o, top_t, obs)
    out[rows0] = clear
    return out
