"""Compiled line of sight and full visibility (the optional ``fast`` extra).

The same exact method as :func:`w40k.geometry.los.line_of_sight` and
:func:`w40k.geometry.los_hull.hull_blockers` (06.01, 13.10, 13.11; docs/geometry.md) for every
footprint the numpy code takes (round bases, ovals, convex FRAME hulls), written as scalar
loops that numba compiles: the same relevance test, the same single-wall proof of BLOCKED,
the same critical lines in the same order, the same formulas evaluated in the same order.
Without numba installed :data:`AVAILABLE` is False and
:class:`w40k.geometry.visibility.Visibility` keeps to the numpy code.

Numerics (``tests/geometry/test_los_kernel.py``): for two round bases the answers and the
witnesses are the numpy code's to the last bit. Ovals follow the numpy formulas scalar by
scalar (chords, support function, the 181-point scan on numpy's own grid and cosines, 45
bisection steps with ``math.cos``/``math.sin``), so they are bit-identical wherever numpy's
vectorised ``cos``/``sin`` are the C library's (as on the test machine). Polygon footprints
use ``n . x`` written out where numpy uses a matrix product (BLAS may fuse multiply-adds):
their chord ends and support values may differ in the last bits, so witnesses agree within
1e-9 and the answers agree on the tests. The polygon tables (edge normals and offsets,
centre, circumradius) are computed by numpy exactly as :mod:`w40k.geometry.los` does.

Modules: :mod:`kernel_layout` (the data layout below, no numba), :mod:`kernel_geometry`
(scalar geometry and the ``jit`` decorator), :mod:`kernel_sight` (one pair's sight),
:mod:`kernel_hull` (one pair's full-visibility flags) and this module's batch entry points.
Importing any of them but :mod:`kernel_layout` imports numba.

Data layout: see :mod:`kernel_layout` (the obstacle, footprint and pair tables).
"""

from __future__ import annotations

import numpy as np

from w40k.geometry.kernel_geometry import jit
from w40k.geometry.kernel_hull import hull_flags
from w40k.geometry.kernel_layout import _X, PAIR_W
from w40k.geometry.kernel_sight import sight_pair
from w40k.geometry.shapes import FloatArray


@jit
def _pair_of(geo: FloatArray, og: int, tg: int) -> FloatArray:
    """:func:`pair_row` in compiled code."""
    pair = np.empty(PAIR_W)
    pair[:4] = geo[og, :4]
    pair[4:9] = geo[tg, :5]
    pair[_X : _X + 7] = geo[og, 5:]
    pair[_X + 7 :] = geo[tg, 5:]
    return pair


@jit
def sight_models(
    geo: FloatArray,
    og: int,
    tg: int,
    ou: int,
    tu: int,
    in_area: np.ndarray,
    edges: FloatArray,
    verts: FloatArray,
    ostart: np.ndarray,
    vstart: np.ndarray,
    oinfo: np.ndarray,
    fp: FloatArray,
    out: FloatArray,
) -> int:
    """:func:`sight_pair` for models ``og`` and ``tg`` (rows of ``geo``, :func:`shape_rows`;
    rows of ``in_area``: the areas holding each model)."""
    pair = _pair_of(geo, og, tg)
    ex = in_area[og] | in_area[tg]
    return sight_pair(pair, ou, tu, ex, edges, verts, ostart, vstart, oinfo, fp, out)


@jit
def hull_models(
    geo: FloatArray,
    og: int,
    tg: int,
    ou: int,
    tu: int,
    in_area: np.ndarray,
    edges: FloatArray,
    ostart: np.ndarray,
    oinfo: np.ndarray,
    fp: FloatArray,
    cos_t: FloatArray,
    sin_t: FloatArray,
    scale: float,
) -> int:
    """:func:`hull_flags` for models ``og`` and ``tg`` (as :func:`sight_models`)."""
    pair = _pair_of(geo, og, tg)
    ex = in_area[og] | in_area[tg]
    return hull_flags(pair, ou, tu, ex, edges, ostart, oinfo, fp, cos_t, sin_t, scale)


@jit
def pairs_batch(
    pairs: FloatArray,
    units: np.ndarray,
    area_ex: np.ndarray,
    want_hull: bool,
    edges: FloatArray,
    verts: FloatArray,
    ostart: np.ndarray,
    vstart: np.ndarray,
    oinfo: np.ndarray,
    fp: FloatArray,
    cos_t: FloatArray,
    sin_t: FloatArray,
    scale: float,
    status: np.ndarray,
    witness: FloatArray,
    flags: np.ndarray,
) -> None:
    """Every row of ``pairs`` (P, PAIR_W) with ``units`` (P, 2) and ``area_ex`` (P, A): the
    sight status and witness, and (``want_hull``) the fully-visible flags of
    :func:`hull_flags`."""
    for p in range(len(pairs)):
        status[p] = sight_pair(
            pairs[p],
            units[p, 0],
            units[p, 1],
            area_ex[p],
            edges,
            verts,
            ostart,
            vstart,
            oinfo,
            fp,
            witness[p],
        )
        if want_hull:
            flags[p] = hull_flags(
                pairs[p],
                units[p, 0],
                units[p, 1],
                area_ex[p],
                edges,
                ostart,
                oinfo,
                fp,
                cos_t,
                sin_t,
                scale,
            )
