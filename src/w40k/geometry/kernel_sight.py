"""Compiled line of sight for one pair (numba; the ``fast`` extra): the twin of
:func:`w40k.geometry.los.line_of_sight` (:mod:`w40k.geometry.los_kernel`)."""

from __future__ import annotations

import math

import numpy as np

from w40k.geometry.kernel_geometry import (
    _chord,
    _disc,
    _inside,
    _ndisc,
    _pseg,
    _segdist,
    _sgn,
    _support,
    _tangent_f,
    jit,
)
from w40k.geometry.kernel_layout import (
    _X,
    BLOCKED,
    CLEAR,
    CONVENTION,
    GRID,
    GRID_COS,
    GRID_SIN,
    OVAL,
    POLY,
    ROUND,
    TOUCH,
)
from w40k.geometry.shapes import FloatArray


@jit
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


@jit
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
    """``tangents.numeric_tangents`` of oval ``m`` and the other footprint (``vg`` NaN) or a
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


@jit
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


@jit
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


@jit
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


@jit
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


@jit
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


@jit
def _allowed(oinfo: np.ndarray, k: int, ou: int, tu: int, area_ex: np.ndarray) -> bool:
    """06.01: not the two units' own models; 13.10: not an area either model is in."""
    u = oinfo[k, 0]
    if u == ou or u == tu:  # noqa: SIM109 (scalar compares compile simplest)
        return False
    a = oinfo[k, 1]
    return not (a >= 0 and area_ex[a])


@jit
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
