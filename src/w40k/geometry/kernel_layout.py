"""The compiled kernels' data layout, without numba (importing this module never imports
numba; :mod:`w40k.geometry.los_kernel` documents the kernels).

``ostart[k]:ostart[k + 1]`` in ``edges`` (rows ``ax, ay, bx, by, grow, top``) and its vertices
``vstart[k]:vstart[k + 1]`` in ``verts`` (rows ``x, y, grow``); ``oinfo[k]`` is
``(unit, area, kind, convex)`` (unit -1 for terrain; area: the column of the membership
matrix for an obscuring area or an R13.11-b gap filler, a model within it ignores it, else
-1; kind 0 feature / 1 area / 2 model). Footprints (:func:`shape_rows`): one row per model of
``GEO_W`` values ``cx, cy, rad, top, level, shape, a, b, cos, sin, p0, p1`` (``rad`` the
radius of a round base, else the circumradius of ``los._circumradius``; ``shape`` ROUND,
OVAL or POLY; ``a, b, cos, sin`` the oval's semi-axes and facing; ``p0:p1`` the polygon's
rows in the footprint table ``fp``, rows ``x, y, nx, ny, off``: vertex, outward unit normal
and offset of the edge from that vertex to the next). A pair row (:func:`pair_row`,
``PAIR_W`` values) is ``cx, cy, rad, top`` of the observer, ``cx, cy, rad, top, level`` of
the target, then ``shape, a, b, cos, sin, p0, p1`` of the observer and of the target; with
the two units and the areas to ignore (13.10: areas either model is in).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from w40k.geometry.kernel_cache import AVAILABLE, NUMBA_INSTALLED
from w40k.geometry.los_obstacles import TOUCH, Obstacles, Sight, SightResult
from w40k.geometry.los_sides import _circumradius
from w40k.geometry.shapes import Circle, FloatArray, Oval, Polygon, Shape

__all__ = ["AVAILABLE", "NUMBA_INSTALLED", "TOUCH"]

OPEN, CLEAR, BLOCKED, CONVENTION = 0, 1, 2, 3
"""Status codes (OPEN: not computed)."""
FEATURE, AREA, MODEL = 0, 1, 2
"""Owner kinds."""
ROUND, OVAL, POLY = 0, 1, 2
"""Footprint shapes."""
GEO_W = 12
"""Values per footprint row (:func:`shape_rows`)."""
PAIR_W = 23
"""Values per pair row (:func:`pair_row`)."""
_X = 9
"""Offset of the observer's shape values in a pair row (the target's: ``_X + 7``)."""

_OUTLINE_K = 48
_OUTLINE_T = np.linspace(0.0, 2 * math.pi, _OUTLINE_K, endpoint=False)
OUTLINE_COS = np.cos(_OUTLINE_T)
"""cos of the 48 outline angles of :meth:`Circle.outline` (same values)."""
OUTLINE_SIN = np.sin(_OUTLINE_T)
"""sin of the 48 outline angles."""
OUTLINE_SCALE = math.cos(math.pi / _OUTLINE_K)
"""A 48-gon circumscribing a disc of radius r has vertices at r / OUTLINE_SCALE."""
GRID = np.linspace(0.0, 2 * math.pi, 181)
"""The scan angles of ``tangents.numeric_tangents`` (same values)."""
GRID_COS = np.cos(GRID)
"""numpy's cosines of :data:`GRID` (as ``tangents.numeric_tangents`` computes them)."""
GRID_SIN = np.sin(GRID)
"""numpy's sines of :data:`GRID`."""


def _poly_table(shape: Polygon) -> FloatArray:
    """Rows ``x, y, nx, ny, off`` of a polygon footprint: the outward unit normals and
    offsets of ``los._chords``, computed by the same numpy expressions."""
    pts = shape.array()
    nxt = np.roll(pts, -1, axis=0)
    e = nxt - pts
    cen = pts.mean(axis=0)
    nrm = np.stack([e[:, 1], -e[:, 0]], axis=1)
    side = ((cen - pts) * nrm).sum(axis=1)
    nrm = np.where((side > 0)[:, None], -nrm, nrm)
    nrm = nrm / np.maximum(np.linalg.norm(nrm, axis=1), 1e-300)[:, None]
    off = (nrm * pts).sum(axis=1)
    return np.column_stack([pts, nrm, off]).astype(np.float64)


def shape_rows(
    shapes: list[Shape], tops: list[float], levels: list[float]
) -> tuple[FloatArray, FloatArray]:
    """Footprint rows (N, GEO_W) and the polygon table (P, 5) (module docstring)."""
    geo = np.zeros((len(shapes), GEO_W))
    tables: list[FloatArray] = []
    nfp = 0
    for i, (fp, top, level) in enumerate(zip(shapes, tops, levels, strict=True)):
        if isinstance(fp, Circle):
            geo[i, :6] = (fp.cx, fp.cy, fp.r, top, level, ROUND)
        elif isinstance(fp, Oval):
            geo[i, :6] = (fp.cx, fp.cy, _circumradius(fp), top, level, OVAL)
            geo[i, 6:10] = (fp.a, fp.b, math.cos(fp.angle), math.sin(fp.angle))
        else:
            tab = _poly_table(fp)
            c = fp.center
            geo[i, :6] = (c[0], c[1], _circumradius(fp), top, level, POLY)
            geo[i, 10:12] = (nfp, nfp + len(tab))
            tables.append(tab)
            nfp += len(tab)
    table = np.concatenate(tables) if tables else np.zeros((0, 5))
    return geo, np.ascontiguousarray(table)


def pair_row(geo_o: FloatArray, geo_t: FloatArray) -> FloatArray:
    """A pair row (PAIR_W) from the observer's and the target's footprint rows."""
    return np.concatenate([geo_o[:4], geo_t[:5], geo_o[5:], geo_t[5:]]).astype(np.float64)


@dataclass(frozen=True)
class KernelScene:
    """A scene's obstacles in the kernel's flat layout (see the module docstring)."""

    edges: FloatArray
    """(E, 6): ax, ay, bx, by, grow, top."""
    verts: FloatArray
    """(V, 3): x, y, grow."""
    ostart: np.ndarray
    """(K + 1,) edge offsets per owner."""
    vstart: np.ndarray
    """(K + 1,) vertex offsets per owner."""
    oinfo: np.ndarray
    """(K, 4) int64: unit, area, kind, convex."""

    @staticmethod
    def build(
        obs: Obstacles, owner_unit: np.ndarray, owner_area: np.ndarray, kinds: np.ndarray
    ) -> KernelScene:
        """From the scene's :class:`Obstacles` (edges and vertices grouped by owner, in owner
        order, as :meth:`Obstacles.build` makes them)."""
        k = len(owner_unit)
        if len(obs.owner) and bool((np.diff(obs.owner) < 0).any()):
            raise ValueError("obstacle edges must be grouped by owner in owner order")
        ostart = np.searchsorted(obs.owner, np.arange(k + 1)).astype(np.int64)
        vstart = np.searchsorted(obs.vert_owner, np.arange(k + 1)).astype(np.int64)
        edges = np.column_stack([obs.a, obs.b, obs.grow, obs.top]).astype(np.float64)
        verts = np.column_stack([obs.verts, obs.vert_grow]).astype(np.float64)
        convex = obs.convex.astype(np.int64) if obs.convex is not None else np.zeros(k, np.int64)
        oinfo = np.column_stack(
            [owner_unit.astype(np.int64), owner_area.astype(np.int64), kinds, convex]
        ).astype(np.int64)
        return KernelScene(
            np.ascontiguousarray(edges.reshape(-1, 6)),
            np.ascontiguousarray(verts.reshape(-1, 3)),
            ostart,
            vstart,
            np.ascontiguousarray(oinfo.reshape(-1, 4)),
        )


SIGHT_OF = {CLEAR: Sight.CLEAR, BLOCKED: Sight.BLOCKED, CONVENTION: Sight.CONVENTION}
"""The sight answer of each kernel status code."""
CODE_OF = {v: k for k, v in SIGHT_OF.items()}
"""The kernel status code of each sight answer."""


def sight_result(status: int, w: FloatArray) -> SightResult:
    """A kernel status and witness row (x0, y0, x1, y1) as a :class:`SightResult`."""
    sight = SIGHT_OF[status]
    if sight is Sight.CLEAR:
        return SightResult(sight, ((float(w[0]), float(w[1])), (float(w[2]), float(w[3]))))
    return SightResult(sight)
