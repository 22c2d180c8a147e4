"""Compiled line of sight and full visibility (the optional ``fast`` extra).

The same exact method as :func:`w40k.geometry.los.line_of_sight` and
:func:`w40k.geometry.los.hull_blockers` (06.01, 13.10, 13.11; docs/geometry.md) for every
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

Data layout (:class:`KernelScene`): every obstacle owner ``k`` has its edges
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
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np

from w40k.geometry.los import TOUCH, Obstacles, _circumradius
from w40k.geometry.shapes import Circle, FloatArray, Oval, Polygon, Shape

_numba: Any
try:  # the optional ``fast`` extra
    import numba as _numba
except ImportError:  # pragma: no cover - exercised in the default install
    _numba = None

NUMBA_INSTALLED = _numba is not None
"""numba (the ``fast`` extra) is importable."""
AVAILABLE = NUMBA_INSTALLED and os.environ.get("W40K_JIT", "1") != "0"
"""numba is installed and not switched off (``W40K_JIT=0``)."""

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

_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(fn: _F) -> _F:
    """Compile with numba (cached on disk) when it is installed; plain Python otherwise."""
    if _numba is None:  # pragma: no cover
        return fn
    return cast(_F, _numba.njit(cache=True, nogil=True)(fn))


_OUTLINE_K = 48
_OUTLINE_T = np.linspace(0.0, 2 * math.pi, _OUTLINE_K, endpoint=False)
OUTLINE_COS = np.cos(_OUTLINE_T)
"""cos of the 48 outline angles of :meth:`Circle.outline` (same values)."""
OUTLINE_SIN = np.sin(_OUTLINE_T)
"""sin of the 48 outline angles."""
OUTLINE_SCALE = math.cos(math.pi / _OUTLINE_K)
"""A 48-gon circumscribing a disc of radius r has vertices at r / OUTLINE_SCALE."""
GRID = np.linspace(0.0, 2 * math.pi, 181)
"""The scan angles of ``los._numeric_tangents`` (same values)."""
GRID_COS = np.cos(GRID)
"""numpy's cosines of :data:`GRID` (as ``los._numeric_tangents`` computes them)."""
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


# ------------------------------------------------------------------ scalar geometry


@_jit
def _pseg(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Point-segment distance (the formula of ``los._seg_dist``)."""
    abx = bx - ax
    aby = by - ay
    apx = px - ax
    apy = py - ay
    den = max(abx * abx + aby * aby, 1e-300)
    t = (apx * abx + apy * aby) / den
    t = min(max(t, 0.0), 1.0)
    dx = apx - abx * t
    dy = apy - aby * t
    return math.sqrt(dx * dx + dy * dy)


@_jit
def _orient(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> float:
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@_jit
def _segdist(
    p1x: float,
    p1y: float,
    p2x: float,
    p2y: float,
    q1x: float,
    q1y: float,
    q2x: float,
    q2y: float,
) -> float:
    """Segment-segment distance, as ``los._seg_dist``."""
    d = min(
        min(_pseg(p1x, p1y, q1x, q1y, q2x, q2y), _pseg(p2x, p2y, q1x, q1y, q2x, q2y)),
        min(_pseg(q1x, q1y, p1x, p1y, p2x, p2y), _pseg(q2x, q2y, p1x, p1y, p2x, p2y)),
    )
    d1 = _orient(q1x, q1y, q2x, q2y, p1x, p1y)
    d2 = _orient(q1x, q1y, q2x, q2y, p2x, p2y)
    d3 = _orient(p1x, p1y, p2x, p2y, q1x, q1y)
    d4 = _orient(p1x, p1y, p2x, p2y, q2x, q2y)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return 0.0
    return d


@_jit
def _inside(px: float, py: float, poly: FloatArray, start: int, stop: int) -> bool:
    """Even-odd point in polygon (``measure.point_in_polygon``) for rows ``start:stop`` of an
    (n, >=2) array."""
    n = stop - start
    count = 0
    for i in range(n):
        x1 = poly[start + i, 0]
        y1 = poly[start + i, 1]
        j = start + (i + 1) % n
        x2 = poly[j, 0]
        y2 = poly[j, 1]
        if (y1 > py) != (y2 > py):
            xint = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
            if px < xint:
                count += 1
    return count % 2 == 1


# ------------------------------------------------------------------ footprints


@_jit
def _chord(
    pair: FloatArray, m: int, fp: FloatArray, ax: float, ay: float, dx: float, dy: float
) -> tuple[float, float, bool]:
    """``los._chords`` for footprint ``m`` (0 observer, 1 target) and one line ``a + t d``."""
    cxm, cym, r = pair[4 * m], pair[4 * m + 1], pair[4 * m + 2]
    b = _X + 7 * m
    shape = pair[b]
    if shape == ROUND:
        cx = cxm - ax
        cy = cym - ay
        s = cx * dx + cy * dy
        perp2 = cx * cx + cy * cy - s * s
        ok = perp2 <= r * r + 1e-9
        half = math.sqrt(max(r * r - perp2, 0.0))
        return s - half, s + half, ok
    if shape == OVAL:
        sa, sb, c, sn = pair[b + 1], pair[b + 2], pair[b + 3], pair[b + 4]
        px = ax - cxm
        py = ay - cym
        u0 = (px * c + py * sn) / sa
        v0 = (-px * sn + py * c) / sb
        du = (dx * c + dy * sn) / sa
        dv = (-dx * sn + dy * c) / sb
        qa = du * du + dv * dv
        qb = 2 * (u0 * du + v0 * dv)
        qc = u0 * u0 + v0 * v0 - 1.0
        disc = qb * qb - 4 * qa * qc
        ok = disc >= -1e-9 * qa
        root = math.sqrt(max(disc, 0.0))
        return (-qb - root) / (2 * qa), (-qb + root) / (2 * qa), ok
    lo = -math.inf
    hi = math.inf
    par_ok = True
    for j in range(int(pair[b + 5]), int(pair[b + 6])):
        nx, ny = fp[j, 2], fp[j, 3]
        num = fp[j, 4] - (ax * nx + ay * ny)
        den = dx * nx + dy * ny
        if den < -1e-15:
            lo = max(lo, num / den)
        elif den > 1e-15:
            hi = min(hi, num / den)
        elif not num >= -1e-9:
            par_ok = False
    return lo, hi, (lo <= hi + 1e-9) and par_ok


@_jit
def _ndisc(pair: FloatArray, m: int) -> int:
    """How many discs ``los._as_discs`` makes of footprint ``m`` (ovals: none)."""
    b = _X + 7 * m
    if pair[b] == ROUND:
        return 1
    if pair[b] == OVAL:
        return 0
    return int(pair[b + 6]) - int(pair[b + 5])


@_jit
def _disc(pair: FloatArray, m: int, fp: FloatArray, i: int) -> tuple[float, float, float]:
    """Disc ``i`` of footprint ``m``: the round base, or a polygon vertex of radius 0."""
    b = _X + 7 * m
    if pair[b] == ROUND:
        return pair[4 * m], pair[4 * m + 1], pair[4 * m + 2]
    j = int(pair[b + 5]) + i
    return fp[j, 0], fp[j, 1], 0.0


@_jit
def _support(pair: FloatArray, m: int, fp: FloatArray, nx: float, ny: float) -> float:
    """Support function of footprint ``m`` (``Circle/Oval/Polygon.support``) at ``n``."""
    b = _X + 7 * m
    shape = pair[b]
    if shape == ROUND:
        return float(nx * pair[4 * m] + ny * pair[4 * m + 1] + pair[4 * m + 2])
    if shape == OVAL:
        c, s = pair[b + 3], pair[b + 4]
        nu = nx * c + ny * s
        nv = -nx * s + ny * c
        qa = pair[b + 1] * nu
        qb = pair[b + 2] * nv
        return float(nx * pair[4 * m] + ny * pair[4 * m + 1] + math.sqrt(qa * qa + qb * qb))
    best = -math.inf
    for j in range(int(pair[b + 5]), int(pair[b + 6])):
        best = max(best, nx * fp[j, 0] + ny * fp[j, 1])
    return best


@_jit
def _tangent_f(
    pair: FloatArray,
    m: int,
    vx: float,
    vy: float,
    vg: float,
    fp: FloatArray,
    which: int,
    c: float,
    s: float,
) -> float:
    """The two functions of ``los._numeric_tangents`` at the normal ``(c, s)``: oval ``m``
    against the other footprint (``vg`` NaN) or the disc ``(vx, vy, vg)``; ``which`` 0:
    h1(n) - h2(n), 1: h1(n) + h2(-n)."""
    h1 = _support(pair, m, fp, c, s)
    if which == 1:
        c, s = -c, -s
    h2 = _support(pair, 1 - m, fp, c, s) if math.isnan(vg) else c * vx + s * vy + vg
    return h1 - h2 if which == 0 else h1 + h2


@_jit
def _sgn(x: float) -> float:
    """``np.sign`` (NaN stays NaN)."""
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    return x


@_jit
def _oval_tangents(
    pair: FloatArray,
    m: int,
    vx: float,
    vy: float,
    vg: float,
    fp: FloatArray,
    edges: FloatArray,
    eidx: np.ndarray,
    ne: int,
    out: FloatArray,
) -> bool:
    """``los._numeric_tangents`` of oval ``m`` and the other footprint (``vg`` NaN) or a
    grown vertex, each root evaluated in the numpy order; True at the first clear line."""
    ng = len(GRID)
    v = np.empty(ng)
    for which in range(2):
        for i in range(ng):
            v[i] = _tangent_f(pair, m, vx, vy, vg, fp, which, GRID_COS[i], GRID_SIN[i])
        for i in range(ng - 1):
            if _sgn(v[i]) == _sgn(v[i + 1]):  # np.sign(a) != np.sign(b) fails
                continue
            lo, hi, flo = GRID[i], GRID[i + 1], v[i]
            for _ in range(45):
                mid = 0.5 * (lo + hi)
                fm = _tangent_f(pair, m, vx, vy, vg, fp, which, math.cos(mid), math.sin(mid))
                if _sgn(fm) == _sgn(flo):
                    lo = mid
                    flo = fm
                else:
                    hi = mid
            t = 0.5 * (lo + hi)
            nx, ny = math.cos(t), math.sin(t)
            off = _support(pair, m, fp, nx, ny)
            if _evaluate(pair, fp, edges, eidx, ne, nx * off, ny * off, -ny, nx, out):
                return True
    return False


# ------------------------------------------------------------------ sight


@_jit
def _evaluate(
    pair: FloatArray,
    fp: FloatArray,
    edges: FloatArray,
    eidx: np.ndarray,
    ne: int,
    ax: float,
    ay: float,
    dx: float,
    dy: float,
    out: FloatArray,
) -> bool:
    """One candidate line ``a + t d`` (``los.evaluate_lines``) against the edges
    ``eidx[:ne]``; writes its plan end points to ``out[:4]`` and returns whether it is a
    clear 1 mm line."""
    top_o, top_t = pair[3], pair[7]
    o0, o1, ook = _chord(pair, 0, fp, ax, ay, dx, dy)
    t0, t1, tok = _chord(pair, 1, fp, ax, ay, dx, dy)
    valid = ook and tok
    if (o0 + o1) > (t0 + t1):  # orient the line from the observer to the target
        o0, o1 = -o1, -o0
        t0, t1 = -t1, -t0
        dx, dy = -dx, -dy
    overlap = o1 >= t0
    out[0] = ax + dx * o1
    out[1] = ay + dy * o1
    out[2] = ax + dx * t0
    out[3] = ay + dy * t0
    if not valid:
        return False
    if overlap or ne == 0:
        return True
    # 3-D end points: the lower model's far rim, the higher model's near rim
    if top_o > top_t:
        te_o, te_t = o1, t1
    elif top_o < top_t:
        te_o, te_t = o0, t0
    else:
        te_o, te_t = o1, t0
    span = max(te_t - te_o, 1e-12)
    dz = top_t - top_o
    lowest = min(top_o, top_t)
    for q in range(ne):
        e = eidx[q]
        h = edges[e, 5]
        if (lowest + 1e-12 >= h) and math.isfinite(h):
            continue  # never above the line
        lo = o1
        hi = t0
        if abs(dz) > 1e-12:
            tstar = te_o + (h - top_o) / dz * span
            if dz < 0:  # height falls towards the target: blocked beyond tstar
                lo = max(lo, tstar if math.isfinite(tstar) else -math.inf)
            else:  # blocked before tstar
                hi = min(hi, tstar if math.isfinite(tstar) else math.inf)
        if not hi > lo:
            continue
        dist = _segdist(
            ax + dx * lo,
            ay + dy * lo,
            ax + dx * hi,
            ay + dy * hi,
            edges[e, 0],
            edges[e, 1],
            edges[e, 2],
            edges[e, 3],
        )
        if dist < edges[e, 4] - TOUCH:
            return False
    return True


@_jit
def _tangent_lines(
    pair: FloatArray,
    fp: FloatArray,
    verts: FloatArray,
    pr: np.ndarray,
    npr: int,
    stage: int,
    edges: FloatArray,
    eidx: np.ndarray,
    ne: int,
    out: FloatArray,
) -> bool:
    """The critical lines of ``los.candidate_lines`` (without the centre line) in its order:
    for (outer, inner) x (+, -), every pair (i < j) of primitives row by row (the observer's
    discs, the target's, then the grown vertices ``pr[:npr]``, rows of ``verts``); then, for
    each oval footprint, the numeric tangents against the other footprint and each grown
    vertex. Stage 1: lines touching the observer or target; 2: vertex-vertex; 0: all.
    Returns at the first clear line (its end points in ``out``)."""
    n_o = _ndisc(pair, 0)
    n_ot = n_o + _ndisc(pair, 1)
    n = npr + n_ot
    for kind in range(2):
        for sgn in range(2):
            sign = 1.0 if sgn == 0 else -1.0
            for i in range(n):
                if stage == 1 and i >= n_ot:
                    break
                if stage == 2 and i < n_ot:
                    continue
                if i < n_o:
                    c1x, c1y, r1 = _disc(pair, 0, fp, i)
                elif i < n_ot:
                    c1x, c1y, r1 = _disc(pair, 1, fp, i - n_o)
                else:
                    v = pr[i - n_ot]
                    c1x, c1y, r1 = verts[v, 0], verts[v, 1], verts[v, 2]
                for j in range(i + 1, n):
                    if j < n_o:
                        c2x, c2y, r2 = _disc(pair, 0, fp, j)
                    elif j < n_ot:
                        c2x, c2y, r2 = _disc(pair, 1, fp, j - n_o)
                    else:
                        v = pr[j - n_ot]
                        c2x, c2y, r2 = verts[v, 0], verts[v, 1], verts[v, 2]
                    ddx = c2x - c1x
                    ddy = c2y - c1y
                    length = math.sqrt(ddx * ddx + ddy * ddy)
                    if not length > 1e-12:
                        continue
                    hx = ddx / length
                    hy = ddy / length
                    px = -hy
                    py = hx
                    cosv = (r1 - r2) / length if kind == 0 else (r1 + r2) / length
                    if not abs(cosv) <= 1.0:
                        continue
                    sv = math.sqrt(max(1.0 - cosv * cosv, 0.0))
                    nx = hx * cosv + sign * px * sv
                    ny = hy * cosv + sign * py * sv
                    off = (nx * c1x + ny * c1y) + r1
                    if _evaluate(pair, fp, edges, eidx, ne, nx * off, ny * off, -ny, nx, out):
                        return True
    if stage == 2:
        return False
    for m in range(2):
        if pair[_X + 7 * m] != OVAL:
            continue
        if _oval_tangents(pair, m, 0.0, 0.0, math.nan, fp, edges, eidx, ne, out):
            return True
        for q in range(npr):
            v = pr[q]
            if _oval_tangents(
                pair, m, verts[v, 0], verts[v, 1], verts[v, 2], fp, edges, eidx, ne, out
            ):
                return True
    return False


@_jit
def _outer_sides(pair: FloatArray, fp: FloatArray, sides: FloatArray) -> bool:
    """``los._outer_sides`` when a footprint is a polygon (the two circles' closed form is in
    :func:`_wall_separates`): for each sign, the first outer common tangent of a disc pair
    that keeps every disc of both footprints on its inner side; writes the segments to
    ``sides`` (2, 4) and returns False when a sign has none."""
    n_o, n_t = _ndisc(pair, 0), _ndisc(pair, 1)
    for sg in range(2):
        sign = 1.0 if sg == 0 else -1.0
        found = False
        for i in range(n_o):
            c1x, c1y, r1 = _disc(pair, 0, fp, i)
            for j in range(n_t):
                c2x, c2y, r2 = _disc(pair, 1, fp, j)
                ddx = c2x - c1x
                ddy = c2y - c1y
                length = math.sqrt(ddx * ddx + ddy * ddy)
                hx = ddx / length
                hy = ddy / length
                cosv = (r1 - r2) / length
                sv = math.sqrt(max(1.0 - cosv * cosv, 0.0))
                nx = hx * cosv + sign * -hy * sv
                ny = hy * cosv + sign * hx * sv
                off = (nx * c1x + ny * c1y) + r1
                lim = off + 1e-9 * (1.0 + abs(off))
                ok = True
                for q in range(n_o + n_t):
                    if q < n_o:
                        x, y, r = _disc(pair, 0, fp, q)
                    else:
                        x, y, r = _disc(pair, 1, fp, q - n_o)
                    if not (nx * x + ny * y) + r <= lim:
                        ok = False
                        break
                if ok:
                    sides[sg, 0] = c1x + r1 * nx
                    sides[sg, 1] = c1y + r1 * ny
                    sides[sg, 2] = c2x + r2 * nx
                    sides[sg, 3] = c2y + r2 * ny
                    found = True
                    break
            if found:
                break
        if not found:
            return False
    return True


@_jit
def _wall_separates(
    pair: FloatArray,
    fp: FloatArray,
    edges: FloatArray,
    ostart: np.ndarray,
    oinfo: np.ndarray,
    kept: np.ndarray,
    nk: int,
) -> bool:
    """``los._single_wall_separates``: one convex obstacle above both tops that meets both
    outer hull sides (within half its grow) and stays clear of both footprints proves
    BLOCKED (round bases and polygons; ovals skip the proof)."""
    ox, oy, ro, top_o = pair[0], pair[1], pair[2], pair[3]
    tx, ty, rt, top_t = pair[4], pair[5], pair[6], pair[7]
    highest = max(top_o, top_t)
    any_wall = False
    for q in range(nk):
        if edges[ostart[kept[q]], 5] > highest + 1e-12:
            any_wall = True
            break
    if not any_wall:
        return False
    shape_o, shape_t = pair[_X], pair[_X + 7]
    if shape_o == OVAL or shape_t == OVAL:
        return False
    ddx, ddy = tx - ox, ty - oy
    length = math.hypot(ddx, ddy)
    if length <= ro + rt + 1e-6:
        return False
    sides = np.empty((2, 4))
    if shape_o == ROUND and shape_t == ROUND:
        hx, hy = ddx / length, ddy / length
        cosv = (ro - rt) / length
        sv = math.sqrt(max(1.0 - cosv * cosv, 0.0))
        # the two outer sides (sign +1, -1)
        n1x, n1y = hx * cosv - hy * sv, hy * cosv + hx * sv
        n2x, n2y = hx * cosv + hy * sv, hy * cosv - hx * sv
        sides[0, 0], sides[0, 1] = ox + ro * n1x, oy + ro * n1y
        sides[0, 2], sides[0, 3] = tx + rt * n1x, ty + rt * n1y
        sides[1, 0], sides[1, 1] = ox + ro * n2x, oy + ro * n2y
        sides[1, 2], sides[1, 3] = tx + rt * n2x, ty + rt * n2y
    elif not _outer_sides(pair, fp, sides):
        return False
    for q in range(nk):
        k = kept[q]
        e0, e1 = ostart[k], ostart[k + 1]
        if not edges[e0, 5] > highest + 1e-12 or oinfo[k, 3] == 0:
            continue
        half = 0.5 * edges[e0, 4]
        m1 = False
        m2 = False
        for e in range(e0, e1):
            a0, a1, b0, b1 = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
            if (
                not m1
                and _segdist(sides[0, 0], sides[0, 1], sides[0, 2], sides[0, 3], a0, a1, b0, b1)
                <= half
            ):
                m1 = True
            if (
                not m2
                and _segdist(sides[1, 0], sides[1, 1], sides[1, 2], sides[1, 3], a0, a1, b0, b1)
                <= half
            ):
                m2 = True
        if not (m1 and m2):
            continue
        gap = edges[e0, 4] + 1e-6
        if _clear_of(edges, e0, e1, gap, pair, 0, fp) and _clear_of(
            edges, e0, e1, gap, pair, 1, fp
        ):
            return True
    return False


@_jit
def _clear_of(
    edges: FloatArray, e0: int, e1: int, gap: float, pair: FloatArray, m: int, fp: FloatArray
) -> bool:
    """``los._clear_of``: the obstacle (edges ``e0:e1``) is farther than ``gap`` from
    footprint ``m`` (a round base or a polygon), neither inside the other."""
    b = _X + 7 * m
    if pair[b] == ROUND:
        cx, cy, r = pair[4 * m], pair[4 * m + 1], pair[4 * m + 2]
        best = math.inf
        for e in range(e0, e1):
            d = _pseg(cx, cy, edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3])
            if d < best:
                best = d
        if best <= r + gap:
            return False
        return e1 - e0 < 3 or not _inside(cx, cy, edges, e0, e1)
    if pair[b] != POLY:
        return False
    p0, p1 = int(pair[b + 5]), int(pair[b + 6])
    n = p1 - p0
    best = math.inf
    for i in range(n):
        j = p0 + (i + 1) % n
        for e in range(e0, e1):
            d = _segdist(
                fp[p0 + i, 0],
                fp[p0 + i, 1],
                fp[j, 0],
                fp[j, 1],
                edges[e, 0],
                edges[e, 1],
                edges[e, 2],
                edges[e, 3],
            )
            if d < best:
                best = d
    if best <= gap:
        return False
    if e1 - e0 >= 3 and _inside(fp[p0, 0], fp[p0, 1], edges, e0, e1):
        return False
    return not _inside(edges[e0, 0], edges[e0, 1], fp, p0, p1)


@_jit
def _is_wall(pair: FloatArray, edges: FloatArray, e0: int, e1: int) -> bool:
    """``los._wall_owners`` for one obstacle: above both tops, or a partial obstacle above an
    upper bound of every line's height over it."""
    top_o, top_t = pair[3], pair[7]
    highest = max(top_o, top_t)
    top = edges[e0, 5]
    if top > highest + 1e-12:
        return True
    if top_o > top_t:  # lower, upper = t, o
        clx, cly, rl, cux, cuy, ru = pair[4], pair[5], pair[6], pair[0], pair[1], pair[2]
    else:
        clx, cly, rl, cux, cuy, ru = pair[0], pair[1], pair[2], pair[4], pair[5], pair[6]
    hl, hu = min(top_o, top_t), highest
    grow = edges[e0, 4]
    dmin = math.inf
    reach = 0.0
    for e in range(e0, e1):
        d = _segdist(cux, cuy, cux, cuy, edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3])
        dmin = min(dmin, d)
        for c in range(2):
            px, py = edges[e, 2 * c], edges[e, 2 * c + 1]
            reach = max(reach, math.sqrt((px - clx) ** 2 + (py - cly) ** 2))
    d_u = dmin - ru - grow
    reach = reach + rl + grow
    if d_u <= 0:
        return False
    bound = hl + (hu - hl) * reach / (reach + d_u)
    return bool(bound < top - 1e-12)


@_jit
def _allowed(oinfo: np.ndarray, k: int, ou: int, tu: int, area_ex: np.ndarray) -> bool:
    """06.01: not the two units' own models; 13.10: not an area either model is in."""
    u = oinfo[k, 0]
    if u == ou or u == tu:  # noqa: SIM109 (scalar compares compile simplest)
        return False
    a = oinfo[k, 1]
    return not (a >= 0 and area_ex[a])


@_jit
def sight_pair(
    pair: FloatArray,
    ou: int,
    tu: int,
    area_ex: np.ndarray,
    edges: FloatArray,
    verts: FloatArray,
    ostart: np.ndarray,
    vstart: np.ndarray,
    oinfo: np.ndarray,
    fp: FloatArray,
    out: FloatArray,
) -> int:
    """``los.line_of_sight`` for a pair row; returns the status and writes the witness (plan
    end points, observer side first) to ``out[:4]`` when CLEAR."""
    ox, oy, ro, top_o = pair[0], pair[1], pair[2], pair[3]
    tx, ty, rt, top_t = pair[4], pair[5], pair[6], pair[7]
    lowest = min(top_o, top_t)
    rad = max(ro, rt)
    lox, loy, hix, hiy = min(ox, tx), min(oy, ty), max(ox, tx), max(oy, ty)
    nown = len(oinfo)
    kept = np.empty(nown, dtype=np.int64)
    nk = 0
    ne = 0
    nv = 0
    # relevance (los._relevant_edges) and the height filter
    for k in range(nown):
        if not _allowed(oinfo, k, ou, tu, area_ex):
            continue
        e0, e1 = ostart[k], ostart[k + 1]
        if e1 == e0:
            continue
        top = edges[e0, 5]
        if top <= lowest + 1e-12 and math.isfinite(top):
            continue
        rel = False
        for e in range(e0, e1):
            reach = rad + edges[e, 4] + 1e-9
            a0, a1, b0, b1 = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
            if (
                max(a0, b0) + reach >= lox
                and min(a0, b0) - reach <= hix
                and max(a1, b1) + reach >= loy
                and min(a1, b1) - reach <= hiy
                and _segdist(ox, oy, tx, ty, a0, a1, b0, b1) <= reach
            ):
                rel = True
                break
        if rel:
            kept[nk] = k
            nk += 1
            ne += e1 - e0
            nv += vstart[k + 1] - vstart[k]
    if nk == 0:
        out[0], out[1], out[2], out[3] = ox, oy, tx, ty
        return CLEAR
    if _wall_separates(pair, fp, edges, ostart, oinfo, kept, nk):
        return BLOCKED
    eidx = np.empty(ne, dtype=np.int64)
    pr = np.empty(nv, dtype=np.int64)
    ne = 0
    nv = 0
    for q in range(nk):
        k = kept[q]
        for e in range(ostart[k], ostart[k + 1]):
            eidx[ne] = e
            ne += 1
        for v in range(vstart[k], vstart[k + 1]):
            pr[nv] = v
            nv += 1
    ddx, ddy = tx - ox, ty - oy
    length = math.hypot(ddx, ddy)
    if length > 1e-12 and _evaluate(
        pair, fp, edges, eidx, ne, ox, oy, ddx / length, ddy / length, out
    ):
        return CLEAR
    for stage in (1, 2):
        if _tangent_lines(pair, fp, verts, pr, nv, stage, edges, eidx, ne, out):
            return CLEAR
    # no clear critical line: walls alone decide between BLOCKED and the convention
    weidx = np.empty(ne, dtype=np.int64)
    wpr = np.empty(nv, dtype=np.int64)
    nwe = 0
    nwv = 0
    for q in range(nk):
        k = kept[q]
        if _is_wall(pair, edges, ostart[k], ostart[k + 1]):
            for e in range(ostart[k], ostart[k + 1]):
                weidx[nwe] = e
                nwe += 1
            for v in range(vstart[k], vstart[k + 1]):
                wpr[nwv] = v
                nwv += 1
    if nwe == ne:
        return BLOCKED
    scratch = np.empty(4)
    if length > 1e-12 and _evaluate(
        pair, fp, edges, weidx, nwe, ox, oy, ddx / length, ddy / length, scratch
    ):
        return CONVENTION
    if _tangent_lines(pair, fp, verts, wpr, nwv, 0, edges, weidx, nwe, scratch):
        return CONVENTION
    return BLOCKED


# ------------------------------------------------------------------ full visibility


@_jit
def _push_chain(hull: FloatArray, h: int, base: int, x: float, y: float) -> int:
    """One monotone-chain step of ``shapes.convex_hull``: pop the chain (rows ``base:h`` of
    ``hull``) while it does not turn left, then append (x, y); returns the new length."""
    while (
        h - base >= 2
        and _orient(hull[h - 2, 0], hull[h - 2, 1], hull[h - 1, 0], hull[h - 1, 1], x, y) <= 0
    ):
        h -= 1
    hull[h, 0] = x
    hull[h, 1] = y
    return h + 1


@_jit
def _hull_outline(
    pair: FloatArray, fp: FloatArray, cos_t: FloatArray, sin_t: FloatArray, scale: float
) -> FloatArray:
    """``los._hull_outline``: the convex hull of the two footprints' ``outline(48)`` (round
    and oval 48-gons as ``Circle.outline`` / ``Oval.outline``, polygons their vertices;
    Akl-Toussaint filter, then the monotone chain of ``shapes.convex_hull``)."""
    k = len(cos_t)
    cnt = np.empty(2, dtype=np.int64)
    for m in range(2):
        b = _X + 7 * m
        cnt[m] = int(pair[b + 6]) - int(pair[b + 5]) if pair[b] == POLY else k
    n = cnt[0] + cnt[1]
    pts = np.empty((n, 2))
    at = 0
    for m in range(2):
        cx, cy, r = pair[4 * m], pair[4 * m + 1], pair[4 * m + 2]
        b = _X + 7 * m
        if pair[b] == ROUND:
            rr = r / scale
            for i in range(k):
                pts[at + i, 0] = cx + rr * cos_t[i]
                pts[at + i, 1] = cy + rr * sin_t[i]
        elif pair[b] == OVAL:
            f = 1.0 / scale
            fa, fb = pair[b + 1] * f, pair[b + 2] * f
            c, s = pair[b + 3], pair[b + 4]
            for i in range(k):
                x = fa * cos_t[i]
                y = fb * sin_t[i]
                pts[at + i, 0] = cx + c * x - s * y
                pts[at + i, 1] = cy + s * x + c * y
        else:
            p0 = int(pair[b + 5])
            for i in range(cnt[m]):
                pts[at + i, 0] = fp[p0 + i, 0]
                pts[at + i, 1] = fp[p0 + i, 1]
        at += cnt[m]
    ext = np.empty(4, dtype=np.int64)
    ext[0] = np.argmin(pts[:, 0])
    ext[1] = np.argmin(pts[:, 1])
    ext[2] = np.argmax(pts[:, 0])
    ext[3] = np.argmax(pts[:, 1])
    keep = np.empty(n, dtype=np.int64)
    nkeep = 0
    for i in range(n):
        inside = True
        for q in range(4):
            qa = ext[q]
            qb = ext[(q + 1) % 4]
            cr = (pts[qb, 0] - pts[qa, 0]) * (pts[i, 1] - pts[qa, 1]) - (
                pts[qb, 1] - pts[qa, 1]
            ) * (pts[i, 0] - pts[qa, 0])
            if not cr > 1e-9:
                inside = False
                break
        if not inside:
            keep[nkeep] = i
            nkeep += 1
    # sort lexicographically (insertion sort, small), drop duplicates
    order = keep[:nkeep].copy()
    for i in range(1, nkeep):
        cur = order[i]
        j = i - 1
        while j >= 0 and (
            pts[order[j], 0] > pts[cur, 0]
            or (pts[order[j], 0] == pts[cur, 0] and pts[order[j], 1] > pts[cur, 1])
        ):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = cur
    uniq = np.empty((nkeep, 2))
    nu = 0
    for i in range(nkeep):
        x, y = pts[order[i], 0], pts[order[i], 1]
        if nu > 0 and uniq[nu - 1, 0] == x and uniq[nu - 1, 1] == y:
            continue
        uniq[nu, 0] = x
        uniq[nu, 1] = y
        nu += 1
    if nu <= 2:
        return uniq[:nu].copy()
    hull = np.empty((2 * nu, 2))
    h = 0
    for i in range(nu):  # lower chain
        h = _push_chain(hull, h, 0, uniq[i, 0], uniq[i, 1])
    lower = h - 1
    base = h
    for i in range(nu - 1, -1, -1):  # upper chain, after the lower one
        h = _push_chain(hull, h, base, uniq[i, 0], uniq[i, 1])
    out = np.empty((lower + h - base - 1, 2))
    out[:lower] = hull[:lower]
    out[lower:] = hull[base : h - 1]
    return out


@_jit
def hull_flags(
    pair: FloatArray,
    ou: int,
    tu: int,
    area_ex: np.ndarray,
    edges: FloatArray,
    ostart: np.ndarray,
    oinfo: np.ndarray,
    fp: FloatArray,
    cos_t: FloatArray,
    sin_t: FloatArray,
    scale: float,
) -> int:
    """``los.hull_blockers`` for a pair row (HULL_RAMP convention, 06.01 fully visible):
    bit 1 set if some obstacle counts, bit 2 if a terrain feature or area does.

    First pass, the same answer sooner: the hull of the two outlines lies inside the capsule
    of radius ``cap`` around the centre segment (the larger circumradius, divided by
    ``scale`` for round and oval 48-gons whose vertices lie outside the shape), so an edge
    farther than its ``grow`` (+1e-9) from that capsule can neither come within ``grow`` of
    the hull nor start inside it; the hull itself is built only if some edge is that
    close."""
    ox, oy, ro, top_o = pair[0], pair[1], pair[2], pair[3]
    tx, ty, rt = pair[4], pair[5], pair[6]
    level = pair[8]
    cap_o = ro if pair[_X] == POLY else ro / scale
    cap_t = rt if pair[_X + 7] == POLY else rt / scale
    cap = max(cap_o, cap_t) + 1e-9
    lox, loy = min(ox, tx) - cap, min(oy, ty) - cap
    hix, hiy = max(ox, tx) + cap, max(oy, ty) + cap
    near = np.empty(len(edges), dtype=np.int64)
    near_owner = np.empty(len(edges), dtype=np.int64)
    nn = 0
    for k in range(len(oinfo)):
        if not _allowed(oinfo, k, ou, tu, area_ex):
            continue
        for e in range(ostart[k], ostart[k + 1]):
            a0, a1, b0, b1, g = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3], edges[e, 4]
            if (
                max(a0, b0) + g >= lox
                and min(a0, b0) - g <= hix
                and max(a1, b1) + g >= loy
                and min(a1, b1) - g <= hiy
                and _segdist(ox, oy, tx, ty, a0, a1, b0, b1) <= cap + g
            ):
                near[nn] = e
                near_owner[nn] = k
                nn += 1
    if nn == 0:
        return 0
    hull = _hull_outline(pair, fp, cos_t, sin_t, scale)
    nh = len(hull)
    lox, loy = hull[:, 0].min(), hull[:, 1].min()
    hix, hiy = hull[:, 0].max(), hull[:, 1].max()
    gap = max(math.hypot(tx - ox, ty - oy) - rt - ro, 1e-9)
    flags = 0
    for q in range(nn):
        e = near[q]
        kind = oinfo[near_owner[q], 2]
        if flags & 1 and (kind == MODEL or flags & 2):
            continue  # nothing this edge could add
        a0, a1, b0, b1, g, top = (
            edges[e, 0],
            edges[e, 1],
            edges[e, 2],
            edges[e, 3],
            edges[e, 4],
            edges[e, 5],
        )
        emin0, emin1 = min(a0, b0) - g, min(a1, b1) - g
        emax0, emax1 = max(a0, b0) + g, max(a1, b1) + g
        if not (emax0 >= lox and emin0 <= hix and emax1 >= loy and emin1 <= hiy):
            continue
        meets = False
        for h in range(nh):
            h2 = (h + 1) % nh
            if not (
                emax0 >= min(hull[h, 0], hull[h2, 0])
                and emin0 <= max(hull[h, 0], hull[h2, 0])
                and emax1 >= min(hull[h, 1], hull[h2, 1])
                and emin1 <= max(hull[h, 1], hull[h2, 1])
            ):
                continue
            d = _segdist(a0, a1, b0, b1, hull[h, 0], hull[h, 1], hull[h2, 0], hull[h2, 1])
            if d < g - TOUCH:
                meets = True
                break
        if not meets:
            meets = _inside(a0, a1, hull, 0, nh)
        if not meets:
            continue
        dt = _segdist(tx, ty, tx, ty, a0, a1, b0, b1) - rt - g
        frac = min(max(dt / gap, 0.0), 1.0)
        ramp = level + (top_o - level) * frac
        if top > ramp + 1e-9:
            flags |= 1
            if kind != MODEL:
                flags |= 2
    return flags


@_jit
def _pair_of(geo: FloatArray, og: int, tg: int) -> FloatArray:
    """:func:`pair_row` in compiled code."""
    pair = np.empty(PAIR_W)
    pair[:4] = geo[og, :4]
    pair[4:9] = geo[tg, :5]
    pair[_X : _X + 7] = geo[og, 5:]
    pair[_X + 7 :] = geo[tg, 5:]
    return pair


@_jit
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


@_jit
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


@_jit
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
