"""The walls' shadows of :func:`cover_shadows.shadowed_points` for one point, in plain floats
(06.01 fully visible, for 13.08 (ii) cover): a proof that the array pass marks that point
hidden, without its ~80 array operations.

:func:`point_shadowed` answers True only when ``shadowed_points(o, top_o, pts, level_t, obs,
partial)`` surely marks the row of that point True, whatever the other rows of ``pts``
(:func:`full_visibility.hidden_facing_point` asks it for the first point of the base sample,
the answer point when the array marks it: ``argmax`` of the mask). Each step repeats the
array pass's operations on one (point, edge) cell in Python floats, which need not round as
numpy's do (a complex product, ``abs``, ``arcsin``, ``angle``), so every quantity carries a
bound on how far the array's value can be from this one:

- the edges used are a subset of the array's: the same height and grow tests, and a box of
  the observer and this point (inside the box of the observer and every point);
- an edge is used only when the array surely keeps it (each of its tests passes here with
  its bound to spare), and its interval of directions is shrunk by the bounds of its ends'
  angles and half-widths (so the array's interval holds it);
- the cone of the observer's directions is grown by the bound of its half-angle.

The array's sweep answers whether the union of its closed intervals covers ``[-alpha,
alpha]`` (with an end beyond ``alpha``): a question whose answer can only turn to yes when
intervals grow or are added and the cone shrinks. So when the intervals here cover the grown
cone, the array's do. A case near a margin (an edge nearly across the line of sight, a
clipped end whose place is ill-conditioned, a tangent to a partial obstacle's disc) leaves
its edge out or the proof unproven: the array pass answers then (the same answer either way:
this function only says when the array's answer is known).

The bounds are generous (``1e-14`` per unit of coordinate where a few ulps, ``2.2e-16``
each, would do; coordinates of a battlefield are below 100"). Tests:
tests/engine/test_20_shadow_point.py (against the array pass on random scenes).
"""

from __future__ import annotations

import math

from w40k.geometry.edge_rows import edge_rows
from w40k.geometry.los_obstacles import TOUCH, Obstacles
from w40k.geometry.shapes import Circle

_EPS = 1e-9
""":mod:`cover_shadows`' margin (the same value)."""
_PART = 1e-5
""":mod:`cover_shadows`' partial obstacles' margin (the same value)."""
_REL = 1e-14
"""Bound per unit of magnitude on the difference of an input-derived quantity here and in
numpy (a few roundings, each at most 1.1e-16 of the magnitude)."""
_ULP = 1e-15
"""Bound per unit of a result's magnitude on the roundings of one step on both sides."""
"""Bound per unit of magnitude on the difference of a rounded quantity here and in numpy."""


def point_shadowed(
    o: Circle, top_o: float, px: float, py: float, level_t: float, obs: Obstacles,
    partial: bool,
) -> bool:
    """True when :func:`cover_shadows.shadowed_points` surely marks the point ``(px, py)``
    hidden (module docstring); False when it does not or when this cannot tell."""
    if len(obs.a) == 0:
        return False
    return _proven(o, top_o, px, py, level_t, edge_rows(obs), partial)


def first_shadowed(
    o: Circle, top_o: float, xy: list[list[float]], level_t: float, obs: Obstacles,
    partial: bool,
) -> int | None:
    """The index of the first point ``(x, y)`` of ``xy`` that :func:`point_shadowed` proves
    (None when it proves none). Each point's answer is :func:`point_shadowed`'s: its edge
    filter (the height and grow tests, and the box of the observer and the point) is
    applied to the edges that pass the same tests with the box of the observer and all the
    points, a box holding each point's, so every edge a point's filter keeps is among them,
    in the same order (the edges' list is read once instead of once per point)."""
    if len(obs.a) == 0 or not xy:
        return None
    cx, cy, r = o.cx, o.cy, o.r
    lox, loy = cx - r, cy - r
    hix, hiy = cx + r, cy + r
    for px, py in xy:
        lox, loy = min(px, lox), min(py, loy)
        hix, hiy = max(px, hix), max(py, hiy)
    high_at = max(top_o, level_t) + _EPS
    tall_at = level_t + _EPS if partial and top_o > level_t + _EPS else high_at
    grow_min = TOUCH + 1e-8
    rows = [row for row in edge_rows(obs)
            if not (row[2] < lox or row[0] > hix or row[3] < loy or row[1] > hiy
                    or not row[9] > tall_at or not row[8] > grow_min)]
    for i, (px, py) in enumerate(xy):
        if _proven(o, top_o, px, py, level_t, rows, partial):
            return i
    return None


def _proven(
    o: Circle, top_o: float, px: float, py: float, level_t: float, rows: list[list[float]],
    partial: bool,
) -> bool:
    """:func:`point_shadowed` over the edge rows ``rows`` (those of the obstacles, or a
    part of them holding every edge its filter keeps)."""
    cx, cy, r = o.cx, o.cy, o.r
    vx, vy = cx - px, cy - py
    dist = math.hypot(vx, vy)
    ed = _REL * (1.0 + dist)
    if not dist - ed > r + _EPS:
        return False
    alpha = _asin_hi(r / (dist - ed)) + _EPS + 1e-14
    if not alpha < 1.0:
        return False
    ux, uy = vx / dist, -vy / dist
    # the box of the observer and this point (inside the array's box of every point)
    lox, loy = min(px, cx - r), min(py, cy - r)
    hix, hiy = max(px, cx + r), max(py, cy + r)
    high_at = max(top_o, level_t) + _EPS
    part = partial and top_o > level_t + _EPS
    tall_at = level_t + _EPS if part else high_at
    grow_min = TOUCH + 1e-8
    ivs: list[tuple[float, float]] = []
    for xlo, ylo, xhi, yhi, ax, ay, bx, by, g, top in rows:
        if (xhi < lox or xlo > hix or yhi < loy or ylo > hiy or not top > tall_at
                or not g > grow_min):
            continue
        iv = _interval(ax - px, ay - py, bx - px, by - py, ux, uy, dist, r, ed, g,
                       top, top > high_at, top_o, level_t)
        if iv is not None:
            ivs.append(iv)
    return _covers(ivs, alpha)


def _asin_hi(x: float) -> float:
    """An upper bound of numpy's ``arcsin(min(x', 1))`` for any ``x'`` within ~1e-15 of
    ``x`` relatively (``x >= 0``)."""
    return math.asin(min(x * (1.0 + 1e-14), 1.0)) * (1.0 + 1e-13)


def _covers(ivs: list[tuple[float, float]], alpha: float) -> bool:
    """The union of the closed intervals holds ``[-alpha, alpha]`` and reaches beyond
    ``alpha`` (the array's sweep, on intervals it holds and a cone it is inside)."""
    if not ivs:
        return False
    ivs.sort()
    if ivs[0][0] > -alpha:
        return False
    cur = -alpha
    for s, e in ivs:
        if s > cur:
            return False
        if e > cur:
            cur = e
            if cur > alpha:
                return True
    return False


def _interval(
    dxa: float, dya: float, dxb: float, dyb: float, ux: float, uy: float, dist: float,
    r: float, ed: float, g: float, top: float, high: bool, top_o: float, level_t: float,
) -> tuple[float, float] | None:
    """The directions (angles from ``u``) that the array's interval of this edge surely
    holds, or None when the array may not keep the edge (or this cannot tell)."""
    # the ends' offsets along u (real) and across it (imaginary): (d) * conj(v) / |v|
    sa, ia = dxa * ux - dya * uy, dxa * uy + dya * ux
    sb, ib = dxb * ux - dyb * uy, dxb * uy + dyb * ux
    e = _REL * (1.0 + abs(dxa) + abs(dya) + abs(dxb) + abs(dyb))
    s_lo = _EPS if high else _PART
    s_hi = dist - r - g - _EPS
    es = _REL * (1.0 + dist + g)
    s_min, s_max = (sa, sb) if sa < sb else (sb, sa)
    if not (s_max - e >= s_lo and s_min + e <= s_hi - es):
        return None
    dsr, dsi = sb - sa, ib - ia
    lo_in, hi_in = s_lo + e, s_hi - es - e
    if lo_in <= sa <= hi_in and lo_in <= sb <= hi_in:
        # both ends inside the slab: the array's clip is (0, 1) exactly (flat or not)
        f0, e0, f1, e1 = 0.0, 0.0, 1.0, 0.0
    else:
        if abs(dsr) <= 1e-15 + 4.0 * e:
            return None
        eds = 2.0 * e + _ULP * (abs(sa) + abs(sb))
        den = abs(dsr) - eds
        f_lo, f_hi = (s_lo - sa) / dsr, (s_hi - sa) / dsr
        el = (e + _ULP * (s_lo + abs(sa)) + abs(f_lo) * eds) / den + _ULP * abs(f_lo)
        eh = (e + es + _ULP * (abs(s_hi) + abs(sa)) + abs(f_hi) * eds) / den \
            + _ULP * abs(f_hi)
        em = max(el, eh)
        f0, e0 = _clip(min(f_lo, f_hi), em)
        f1, e1 = _clip(max(f_lo, f_hi), em)
    lim = 0.0
    dl = 0.0
    if not high:
        frac = min((top - level_t) / (top_o - level_t), 1.0)
        lim = (dist - r) * frac - _PART
        dl = ed + _REL * (1.0 + dist)
        g_ = _disc_clip(sa, ia, dsr, dsi, e, lim, dl)
        if g_ is None:
            return None
        g0, eg0, g1, eg1 = g_
        if g0 > f0:
            f0 = g0
        e0 = max(e0, eg0)
        if g1 < f1:
            f1 = g1
        e1 = max(e1, eg1)
        if not f0 + e0 <= f1 - e1:
            return None
    # the clipped ends and their bounds (per component)
    m1 = abs(dsr) + abs(dsi)
    base = 3.0 * e + _ULP * (abs(sa) + abs(ia) + m1)
    d0, d1 = base + m1 * e0, base + m1 * e1
    w0r, w0i = sa + dsr * f0, ia + dsi * f0
    w1r, w1i = sa + dsr * f1, ia + dsi * f1
    lo_w, hi_w = 0.5 * s_lo, s_hi - es + 0.5 * _EPS
    if not (w0r - d0 >= lo_w and w1r - d1 >= lo_w and w0r + d0 <= hi_w and w1r + d1 <= hi_w):
        return None
    n0, n1 = math.hypot(w0r, w0i), math.hypot(w1r, w1i)
    q0, q1 = 1.5 * d0 + 1e-15 * n0, 1.5 * d1 + 1e-15 * n1
    if not high and not max(n0 + q0, n1 + q1) <= lim - dl - 1e-14 + _EPS:
        return None
    if not (n0 > 4.0 * q0 and n1 > 4.0 * q1):
        return None
    reach = g - TOUCH - 1e-8
    # half-widths: lower bounds of numpy's 0.5 * arcsin(min(x', 1)) for any x' >= x
    # (arcsin rising, numpy's within a few ulps of it)
    x0, x1 = reach / (n0 + q0) * (1.0 - 1e-15), reach / (n1 + q1) * (1.0 - 1e-15)
    h0 = 0.5 * math.asin(x0 if x0 < 1.0 else 1.0) * (1.0 - 1e-13)
    h1 = 0.5 * math.asin(x1 if x1 < 1.0 else 1.0) * (1.0 - 1e-13)
    t0, t1 = math.atan2(w0i, w0r), math.atan2(w1i, w1r)
    a0, a1 = q0 / (n0 - q0) + 1e-14, q1 / (n1 - q1) + 1e-14
    s0, s1 = t0 + a0 - h0, t1 + a1 - h1
    z0, z1 = t0 - a0 + h0, t1 - a1 + h1
    start = (s0 if s0 < s1 else s1) + 1e-14
    end = (z0 if z0 > z1 else z1) - 1e-14
    return (start, end) if start < end else None


def _clip(f: float, ef: float) -> tuple[float, float]:
    """``clip(f, 0, 1)`` and its bound for an ``f`` known within ``ef`` (exact when ``f``
    is surely beyond an end)."""
    if f - ef >= 1.0:
        return 1.0, 0.0
    if f + ef <= 0.0:
        return 0.0, 0.0
    return min(max(f, 0.0), 1.0), ef


def _disc_clip(
    zr: float, zi: float, dr: float, di: float, e: float, lim: float, dl: float,
) -> tuple[float, float, float, float] | None:
    """The array's fractions where segment ``z + t d`` crosses the circle of radius
    ``lim`` (a partial obstacle's disc), with their bounds; None when the array may find no
    crossing (a negative discriminant) or a 0-long segment (then it does not clip)."""
    ez = e
    edw = 2.0 * e + _ULP * (abs(dr) + abs(di))
    qa = dr * dr + di * di
    qb = 2.0 * (zr * dr + zi * di)
    qc = zr * zr + zi * zi - lim * lim
    eqa = 2.0 * (abs(dr) + abs(di)) * edw + 2.0 * edw * edw + _ULP * qa
    eqb = 2.0 * ((abs(zr) + abs(zi)) * edw + (abs(dr) + abs(di)) * ez + 2.0 * ez * edw) \
        + _ULP * (abs(qb) + 2.0 * (abs(zr * dr) + abs(zi * di)))
    eqc = 2.0 * (abs(zr) + abs(zi)) * ez + 2.0 * ez * ez + 2.0 * abs(lim) * dl + dl * dl \
        + _ULP * (zr * zr + zi * zi + lim * lim)
    if not qa - eqa > 1e-24:
        return None
    disc = qb * qb - 4.0 * qa * qc
    edisc = 2.0 * (2.0 * abs(qb) * eqb + eqb * eqb
                   + 4.0 * (qa * eqc + abs(qc) * eqa + eqa * eqc)
                   + _ULP * (qb * qb + 4.0 * qa * abs(qc)))
    if not disc - edisc >= 0.0:
        return None
    root = math.sqrt(disc)
    eroot = (min(math.sqrt(edisc), edisc / root) if root > 0.0 else math.sqrt(edisc)) \
        + _ULP * root
    den = 2.0 * qa
    eden = 2.0 * eqa
    g0, g1 = (-qb - root) / den, (-qb + root) / den
    eg0 = (eqb + eroot + abs(g0) * eden) / (den - eden) + _ULP * abs(g0)
    eg1 = (eqb + eroot + abs(g1) * eden) / (den - eden) + _ULP * abs(g1)
    return g0, eg0, g1, eg1
