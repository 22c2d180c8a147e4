"""Scalar geometry of the compiled kernels (numba; the ``fast`` extra): distances, chords,
support functions and tangents, the formulas of :mod:`w40k.geometry.los` written out."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba as _numba

from w40k.geometry.kernel_layout import _X, OVAL, ROUND
from w40k.geometry.shapes import FloatArray

_F = TypeVar("_F", bound=Callable[..., Any])


def jit(fn: _F) -> _F:
    """Compile with numba (cached on disk) when it is installed; plain Python otherwise."""
    return cast(_F, _numba.njit(cache=True, nogil=True)(fn))


# ------------------------------------------------------------------ scalar geometry


@jit
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


@jit
def _orient(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> float:
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@jit
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


@jit
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


@jit
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


@jit
def _ndisc(pair: FloatArray, m: int) -> int:
    """How many discs ``los._as_discs`` makes of footprint ``m`` (ovals: none)."""
    b = _X + 7 * m
    if pair[b] == ROUND:
        return 1
    if pair[b] == OVAL:
        return 0
    return int(pair[b + 6]) - int(pair[b + 5])


@jit
def _disc(pair: FloatArray, m: int, fp: FloatArray, i: int) -> tuple[float, float, float]:
    """Disc ``i`` of footprint ``m``: the round base, or a polygon vertex of radius 0."""
    b = _X + 7 * m
    if pair[b] == ROUND:
        return pair[4 * m], pair[4 * m + 1], pair[4 * m + 2]
    j = int(pair[b + 5]) + i
    return fp[j, 0], fp[j, 1], 0.0


@jit
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


@jit
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
    """The two functions of ``tangents.numeric_tangents`` at the normal ``(c, s)``: oval ``m``
    against the other footprint (``vg`` NaN) or the disc ``(vx, vy, vg)``; ``which`` 0:
    h1(n) - h2(n), 1: h1(n) + h2(-n)."""
    h1 = _support(pair, m, fp, c, s)
    if which == 1:
        c, s = -c, -s
    h2 = _support(pair, 1 - m, fp, c, s) if math.isnan(vg) else c * vx + s * vy + vg
    return h1 - h2 if which == 0 else h1 + h2


@jit
def _sgn(x: float) -> float:
    """``np.sign`` (NaN stays NaN)."""
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    return x
