"""Closed-form measures for round and oval bases (01.04): the fast paths of
:mod:`w40k.geometry.measure`.

* :func:`point_oval` is the signed distance from a point to an oval's edge (negative inside),
  by D. Eberly's reduction ("Distance from a Point to an Ellipse", Geometric Tools) of the
  closest point to the single root of a convex decreasing function, found by Newton steps
  kept inside a shrinking bracket (bisection when a step leaves it): the root is pinned to
  the last bit, so the distance is exact to rounding (about 1e-15").
* :func:`segment_oval` and :func:`polygon_oval` are the exact distances from a segment or a
  convex polygon to an oval when they are apart; they answer None when the two meet (the
  caller then uses the general separating-axis search, or knows the answer is 0).
* :func:`oval_oval` is the distance between two ovals apart: the separating gap is smooth in
  the direction's angle, so its maximum, bracketed by the best of 256 sampled directions, is
  pinned by safeguarded Newton steps (None when they meet).

A circle is an oval with equal semi-axes. Each function gives the same value as the general
measure (max over directions of the separating gap) to far better than 1e-9"
(tests/geometry/test_measure_fast.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from w40k.geometry.shapes import Circle, Oval

Round = Circle | Oval
"""A round or oval footprint."""

_ITERATIONS = 200
"""More Newton/bisection steps than a double ever needs (about 60 bisections at worst)."""


def _axes(o: Round) -> tuple[float, float, float, float, float, float]:
    """(cx, cy, cos, sin, a, b) of the oval: centre, the ``a`` axis direction, semi-axes."""
    if isinstance(o, Circle):
        return (o.cx, o.cy, 1.0, 0.0, o.r, o.r)
    return (o.cx, o.cy, math.cos(o.angle), math.sin(o.angle), o.a, o.b)


def _local(px: float, py: float, ax: tuple[float, float, float, float, float, float]
           ) -> tuple[float, float]:
    """The point in the oval's own frame (centre at the origin, ``a`` along x)."""
    cx, cy, c, s, _, _ = ax
    dx, dy = px - cx, py - cy
    return (dx * c + dy * s, -dx * s + dy * c)


def _root(r1: float, n0: float, z1: float, g: float) -> float:
    """The root ``u > 0`` of ``F(u) = (n0 / (u + r1))^2 + (z1 / u)^2 - 1`` (Eberly's scaled
    parameter ``s`` is ``u - 1``; kept as ``u`` so that a root next to 0, a point near the
    major axis, keeps its precision). ``F`` is convex and decreasing for ``u > 0``."""
    lo = max(z1, n0 - r1)  # F(lo) >= 0: one of the two terms is 1 there
    hi = math.hypot(n0, z1) if g >= 0.0 else 1.0  # F(hi) <= 0
    u = lo
    for _ in range(_ITERATIONS):
        p = n0 / (u + r1)
        q = z1 / u
        f = p * p + q * q - 1.0
        if f == 0.0:
            return u
        if f > 0.0:
            lo = u
        else:
            hi = u
        t = u + f / (2.0 * (p * p / (u + r1) + q * q / u))  # Newton
        if not lo < t < hi:
            t = 0.5 * (lo + hi)
            if not lo < t < hi:
                return u
        if t == u:
            return u
        u = t
    return u


def _quadrant(e0: float, e1: float, y0: float, y1: float) -> float:
    """Signed distance from (y0, y1) (both >= 0) to the ellipse x^2/e0^2 + y^2/e1^2 = 1 with
    e0 >= e1 > 0 (negative inside)."""
    if y1 > 0.0:
        if y0 > 0.0:
            z0, z1 = y0 / e0, y1 / e1
            g = z0 * z0 + z1 * z1 - 1.0
            if g == 0.0:
                return 0.0
            r0 = (e0 / e1) ** 2
            r1 = (e0 - e1) * (e0 + e1) / (e1 * e1)  # r0 - 1 without cancellation
            u = _root(r1, r0 * z0, z1, g)
            x0 = r0 * y0 / (u + r1)
            x1 = y1 / u
            d = math.hypot(x0 - y0, x1 - y1)
            return d if g > 0.0 else -d
        return y1 - e1  # on the minor axis: the closest point is its end
    numer, denom = e0 * y0, e0 * e0 - e1 * e1
    if numer < denom:  # on the major axis, inside, nearer a point off the axis
        xde = numer / denom
        return -math.hypot(e0 * xde - y0, e1 * math.sqrt(1.0 - xde * xde))
    return y0 - e0


def point_oval(px: float, py: float, o: Round) -> float:
    """Signed distance from the point to the oval's edge: the exact closest distance outside,
    minus the distance to the edge inside (the separating-axis value of a point and the oval)."""
    if isinstance(o, Circle):
        return math.hypot(px - o.cx, py - o.cy) - o.r
    ax = _axes(o)
    u, v = _local(px, py, ax)
    a, b = ax[4], ax[5]
    if a >= b:
        return _quadrant(a, b, abs(u), abs(v))
    return _quadrant(b, a, abs(v), abs(u))


def _scaled_reach(u0: float, v0: float, u1: float, v1: float, a: float, b: float) -> float:
    """The least value of ``(u/a)^2 + (v/b)^2`` on the segment (<= 1: it meets the oval)."""
    p0, q0, p1, q1 = u0 / a, v0 / b, u1 / a, v1 / b
    dp, dq = p1 - p0, q1 - q0
    ll = dp * dp + dq * dq
    t = 0.0 if ll == 0.0 else min(1.0, max(0.0, -(p0 * dp + q0 * dq) / ll))
    x, y = p0 + t * dp, q0 + t * dq
    return x * x + y * y


def segment_oval(p0: tuple[float, float], p1: tuple[float, float], o: Round) -> float | None:
    """The exact distance from the segment ``p0``-``p1`` to the oval, or None when they meet
    (touching or overlapping)."""
    ax = _axes(o)
    a, b = ax[4], ax[5]
    if a <= 0.0 or b <= 0.0:
        return None
    u0, v0 = _local(p0[0], p0[1], ax)
    u1, v1 = _local(p1[0], p1[1], ax)
    if _scaled_reach(u0, v0, u1, v1, a, b) <= 1.0:
        return None
    du, dv = u1 - u0, v1 - v0
    length = math.hypot(du, dv)
    if length > 0.0:
        nu, nv = -dv / length, du / length  # the segment's normal, away from the centre
        if nu * u0 + nv * v0 < 0.0:
            nu, nv = -nu, -nv
        h = math.hypot(a * nu, b * nv)
        gap = nu * u0 + nv * v0 - h
        if gap > 0.0:
            qu, qv = a * a * nu / h, b * b * nv / h  # the oval's point nearest the line
            t = ((qu - u0) * du + (qv - v0) * dv) / (length * length)
            if 0.0 <= t <= 1.0:
                return gap
    if a >= b:
        d0 = _quadrant(a, b, abs(u0), abs(v0))
        d1 = _quadrant(a, b, abs(u1), abs(v1))
    else:
        d0 = _quadrant(b, a, abs(v0), abs(u0))
        d1 = _quadrant(b, a, abs(v1), abs(u1))
    return min(d0, d1)


def _inside_convex(px: float, py: float, pts: Sequence[tuple[float, float]]) -> bool:
    """The point is inside or on the convex polygon (either winding)."""
    sign = 0.0
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        c = (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0)
        if c != 0.0:
            if sign == 0.0:
                sign = c
            elif (c > 0.0) != (sign > 0.0):
                return False
    return True


def polygon_oval(pts: Sequence[tuple[float, float]], o: Round) -> float | None:
    """The exact distance from a convex polygon (or a segment, two points) to the oval, or None
    when they meet."""
    if len(pts) == 1:
        gap = point_oval(pts[0][0], pts[0][1], o)
        return gap if gap > 0.0 else None
    if len(pts) == 2:
        return segment_oval(pts[0], pts[1], o)
    if _inside_convex(o.cx, o.cy, pts):
        return None
    best = math.inf
    n = len(pts)
    for i in range(n):
        d = segment_oval(pts[i], pts[(i + 1) % n], o)
        if d is None:
            return None
        best = min(best, d)
    return best



def segment_depth(p0: tuple[float, float], p1: tuple[float, float], o: Round) -> float:
    """A lower bound on how deep the segment reaches into the oval (0 when it stays out): a
    point at scaled radius ``rho < 1`` has the oval shrunk by ``1 - rho`` around it inside
    the oval, so every direction's overlap is at least ``(1 - rho) * min(a, b)``."""
    ax = _axes(o)
    a, b = ax[4], ax[5]
    if a <= 0.0 or b <= 0.0:
        return 0.0
    u0, v0 = _local(p0[0], p0[1], ax)
    u1, v1 = _local(p1[0], p1[1], ax)
    rho = math.sqrt(_scaled_reach(u0, v0, u1, v1, a, b))
    return max(0.0, (1.0 - rho) * min(a, b))


_GRID = 256
"""Directions sampled before the Newton steps of :func:`oval_oval` (as the general search)."""
_GRID_T = np.linspace(0.0, 2 * math.pi, _GRID, endpoint=False)
_GRID_C2, _GRID_S2 = np.cos(2 * _GRID_T), np.sin(2 * _GRID_T)
_GRID_C, _GRID_S = np.cos(_GRID_T), np.sin(_GRID_T)


def _quadratic(o: Round) -> tuple[float, float, float]:
    """``q(t) = n(t)^T M n(t)`` (the support's square root part) as ``m + p cos 2t + r sin 2t``."""
    if isinstance(o, Circle):
        return (o.r * o.r, 0.0, 0.0)
    c, s = math.cos(o.angle), math.sin(o.angle)
    a2, b2 = o.a * o.a, o.b * o.b
    xx = a2 * c * c + b2 * s * s
    yy = a2 * s * s + b2 * c * c
    xy = (a2 - b2) * c * s
    return ((xx + yy) / 2, (xx - yy) / 2, xy)


def oval_oval(a: Round, b: Round) -> float | None:
    """The exact distance between two ovals that are apart, or None when they meet (or are
    too close for the sampled directions to find a separating one).

    The gap in direction ``n(t)`` is ``g(t) = (c_b - c_a).n - sqrt(q_a) - sqrt(q_b)``, smooth,
    with a single maximum over the directions that separate the two (the distance, at the
    direction of their closest points). It is sampled in 256 directions, and the best
    sample's neighbours bracket that maximum: safeguarded Newton steps on ``g'`` pin it to
    the last bit."""
    dx, dy = b.cx - a.cx, b.cy - a.cy
    qa, qb = _quadratic(a), _quadratic(b)
    g = (dx * _GRID_C + dy * _GRID_S
         - np.sqrt(np.maximum(qa[0] + qa[1] * _GRID_C2 + qa[2] * _GRID_S2, 0.0))
         - np.sqrt(np.maximum(qb[0] + qb[1] * _GRID_C2 + qb[2] * _GRID_S2, 0.0)))
    i = int(np.argmax(g))
    if not g[i] > 0.0:
        return None

    def derivatives(t: float) -> tuple[float, float, float]:
        c, s = math.cos(t), math.sin(t)
        c2, s2 = c * c - s * s, 2 * s * c
        val = dx * c + dy * s
        d1 = -dx * s + dy * c
        d2 = -val
        for q0, q1, q2 in (qa, qb):
            q = q0 + q1 * c2 + q2 * s2
            if q <= 0.0:
                return (-math.inf, math.nan, math.nan)
            dq = -2 * q1 * s2 + 2 * q2 * c2
            ddq = -4 * q1 * c2 - 4 * q2 * s2
            root = math.sqrt(q)
            val -= root
            d1 -= dq / (2 * root)
            d2 -= ddq / (2 * root) - dq * dq / (4 * root * q)
        return (val, d1, d2)

    step = 2 * math.pi / _GRID
    t = float(_GRID_T[i])
    lo, hi = t - step, t + step
    if not (derivatives(lo)[1] > 0.0 > derivatives(hi)[1]):
        return None
    best = -math.inf
    for _ in range(100):
        val, d1, d2 = derivatives(t)
        best = max(best, val)
        if d1 == 0.0:
            break
        if d1 > 0.0:
            lo = t
        else:
            hi = t
        nt = t - d1 / d2 if d2 < 0.0 else 0.5 * (lo + hi)
        if not lo < nt < hi:
            nt = 0.5 * (lo + hi)
        if nt == t or not lo < nt < hi:
            break
        t = nt
    return best if best > 0.0 else None
