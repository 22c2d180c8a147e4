"""Compiled full-visibility flags for one pair (numba; the ``fast`` extra): the twin of
:func:`w40k.geometry.los_hull.hull_blockers` (HULL_RAMP)."""

from __future__ import annotations

import math

import numpy as np

from w40k.geometry.kernel_geometry import _inside, _orient, _segdist, jit
from w40k.geometry.kernel_layout import _X, MODEL, OVAL, POLY, ROUND, TOUCH
from w40k.geometry.kernel_sight import _allowed
from w40k.geometry.shapes import FloatArray


@jit
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


@jit
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


@jit
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
    """``los_hull.hull_blockers`` for a pair row (HULL_RAMP convention, 06.01 fully visible):
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
