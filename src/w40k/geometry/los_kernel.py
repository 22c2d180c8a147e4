"""Compiled line of sight and full visibility for round bases (the optional ``fast`` extra).

The same exact method as :func:`w40k.geometry.los.line_of_sight` and
:func:`w40k.geometry.los.hull_blockers` (06.01, 13.10, 13.11; docs/geometry.md), written as
scalar loops that numba compiles: the same relevance test, the same single-wall proof of
BLOCKED, the same critical lines in the same order, the same formulas evaluated in the same
order, so the answers and witnesses are those of the numpy code (the witnesses to the last
bits, ``tests/geometry/test_los_kernel.py``). Without numba installed :data:`AVAILABLE` is
False and :class:`w40k.geometry.visibility.Visibility` keeps to the numpy code.

Data layout (:class:`KernelScene`): every obstacle owner ``k`` has its edges
``ostart[k]:ostart[k + 1]`` in ``edges`` (rows ``ax, ay, bx, by, grow, top``) and its vertices
``vstart[k]:vstart[k + 1]`` in ``verts`` (rows ``x, y, grow``); ``oinfo[k]`` is
``(unit, area, kind, convex)`` (unit -1 for terrain, area -1 unless an obscuring area, kind
0 feature / 1 area / 2 model). A pair is ``(ox, oy, ro, top_o, tx, ty, rt, top_t,
target_level)`` with the two units and the areas to ignore (13.10: areas either model is in).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np

from w40k.geometry.los import TOUCH, Obstacles
from w40k.geometry.shapes import FloatArray

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


# ------------------------------------------------------------------ sight


@_jit
def _evaluate(
    pair: FloatArray,
    edges: FloatArray,
    eidx: np.ndarray,
    ne: int,
    ax: float,
    ay: float,
    dx: float,
    dy: float,
    out: FloatArray,
) -> bool:
    """One candidate line ``a + t d`` (``los.evaluate_lines`` for two circles) against the
    edges ``eidx[:ne]``; writes its plan end points to ``out[:4]`` and returns whether it is a
    clear 1 mm line."""
    ox, oy, ro, top_o = pair[0], pair[1], pair[2], pair[3]
    tx, ty, rt, top_t = pair[4], pair[5], pair[6], pair[7]
    # chords of the two circles (los._chords)
    cx = ox - ax
    cy = oy - ay
    s = cx * dx + cy * dy
    perp2 = cx * cx + cy * cy - s * s
    ook = perp2 <= ro * ro + 1e-9
    half = math.sqrt(max(ro * ro - perp2, 0.0))
    o0, o1 = s - half, s + half
    cx = tx - ax
    cy = ty - ay
    s = cx * dx + cy * dy
    perp2 = cx * cx + cy * cy - s * s
    tok = perp2 <= rt * rt + 1e-9
    half = math.sqrt(max(rt * rt - perp2, 0.0))
    t0, t1 = s - half, s + half
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
    for (outer, inner) x (+, -), every pair (i < j) of primitives row by row; primitive 0 is
    the observer disc, 1 the target disc, then the grown vertices ``pr[:npr]`` (rows of
    ``verts``). Stage 1: pairs touching the observer or target; 2: vertex-vertex; 0: all.
    Returns at the first clear line (its end points in ``out``)."""
    n = npr + 2
    for kind in range(2):
        for sgn in range(2):
            sign = 1.0 if sgn == 0 else -1.0
            for i in range(n):
                if stage == 1 and i >= 2:
                    break
                if stage == 2 and i < 2:
                    continue
                if i == 0:
                    c1x, c1y, r1 = pair[0], pair[1], pair[2]
                elif i == 1:
                    c1x, c1y, r1 = pair[4], pair[5], pair[6]
                else:
                    v = pr[i - 2]
                    c1x, c1y, r1 = verts[v, 0], verts[v, 1], verts[v, 2]
                for j in range(i + 1, n):
                    if j == 1:
                        c2x, c2y, r2 = pair[4], pair[5], pair[6]
                    else:
                        v = pr[j - 2]
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
                    if _evaluate(pair, edges, eidx, ne, nx * off, ny * off, -ny, nx, out):
                        return True
    return False


@_jit
def _wall_separates(
    pair: FloatArray,
    edges: FloatArray,
    ostart: np.ndarray,
    oinfo: np.ndarray,
    kept: np.ndarray,
    nk: int,
) -> bool:
    """``los._single_wall_separates`` for two circles: one convex obstacle above both tops
    that meets both outer hull sides (within half its grow) and stays clear of both discs
    proves BLOCKED."""
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
    ddx, ddy = tx - ox, ty - oy
    length = math.hypot(ddx, ddy)
    if length <= ro + rt + 1e-6:
        return False
    hx, hy = ddx / length, ddy / length
    cosv = (ro - rt) / length
    sv = math.sqrt(max(1.0 - cosv * cosv, 0.0))
    # the two outer sides (sign +1, -1)
    n1x, n1y = hx * cosv - hy * sv, hy * cosv + hx * sv
    n2x, n2y = hx * cosv + hy * sv, hy * cosv - hx * sv
    s1 = (ox + ro * n1x, oy + ro * n1y, tx + rt * n1x, ty + rt * n1y)
    s2 = (ox + ro * n2x, oy + ro * n2y, tx + rt * n2x, ty + rt * n2y)
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
            if not m1 and _segdist(s1[0], s1[1], s1[2], s1[3], a0, a1, b0, b1) <= half:
                m1 = True
            if not m2 and _segdist(s2[0], s2[1], s2[2], s2[3], a0, a1, b0, b1) <= half:
                m2 = True
        if not (m1 and m2):
            continue
        gap = edges[e0, 4] + 1e-6
        if _clear_of_disc(edges, e0, e1, gap, ox, oy, ro) and _clear_of_disc(
            edges, e0, e1, gap, tx, ty, rt
        ):
            return True
    return False


@_jit
def _clear_of_disc(
    edges: FloatArray, e0: int, e1: int, gap: float, cx: float, cy: float, r: float
) -> bool:
    """``los._clear_of`` for a circle: farther than ``gap`` from every edge, not inside."""
    best = math.inf
    for e in range(e0, e1):
        d = _pseg(cx, cy, edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3])
        if d < best:
            best = d
    if best <= r + gap:
        return False
    return e1 - e0 < 3 or not _inside(cx, cy, edges, e0, e1)


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
    out: FloatArray,
) -> int:
    """``los.line_of_sight`` for two circles; returns the status and writes the witness (plan
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
    if _wall_separates(pair, edges, ostart, oinfo, kept, nk):
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
    if length > 1e-12 and _evaluate(pair, edges, eidx, ne, ox, oy, ddx / length, ddy / length, out):
        return CLEAR
    for stage in (1, 2):
        if _tangent_lines(pair, verts, pr, nv, stage, edges, eidx, ne, out):
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
        pair, edges, weidx, nwe, ox, oy, ddx / length, ddy / length, scratch
    ):
        return CONVENTION
    if _tangent_lines(pair, verts, wpr, nwv, 0, edges, weidx, nwe, scratch):
        return CONVENTION
    return BLOCKED


# ------------------------------------------------------------------ full visibility


@_jit
def _hull_outline(
    pair: FloatArray, cos_t: FloatArray, sin_t: FloatArray, scale: float
) -> FloatArray:
    """``los._hull_outline`` for two circles: the convex hull of their 48-gon outlines
    (Akl-Toussaint filter, then the monotone chain of ``shapes.convex_hull``)."""
    k = len(cos_t)
    pts = np.empty((2 * k, 2))
    for m in range(2):
        cx, cy, r = pair[4 * m], pair[4 * m + 1], pair[4 * m + 2]
        rr = r / scale
        for i in range(k):
            pts[m * k + i, 0] = cx + rr * cos_t[i]
            pts[m * k + i, 1] = cy + rr * sin_t[i]
    n = 2 * k
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
        while (
            h >= 2
            and _orient(
                hull[h - 2, 0],
                hull[h - 2, 1],
                hull[h - 1, 0],
                hull[h - 1, 1],
                uniq[i, 0],
                uniq[i, 1],
            )
            <= 0
        ):
            h -= 1
        hull[h, 0], hull[h, 1] = uniq[i, 0], uniq[i, 1]
        h += 1
    lower = h - 1
    base = h
    for i in range(nu - 1, -1, -1):  # upper chain, after the lower one
        while (
            h - base >= 2
            and _orient(
                hull[h - 2, 0],
                hull[h - 2, 1],
                hull[h - 1, 0],
                hull[h - 1, 1],
                uniq[i, 0],
                uniq[i, 1],
            )
            <= 0
        ):
            h -= 1
        hull[h, 0], hull[h, 1] = uniq[i, 0], uniq[i, 1]
        h += 1
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
    cos_t: FloatArray,
    sin_t: FloatArray,
    scale: float,
) -> int:
    """``los.hull_blockers`` for two circles (HULL_RAMP convention, 06.01 fully visible):
    bit 1 set if some obstacle counts, bit 2 if a terrain feature or area does.

    First pass, the same answer sooner: the hull of the two 48-gons lies inside the capsule
    of radius ``r_max / scale`` around the centre segment, so an edge farther than its
    ``grow`` (+1e-9) from that capsule can neither come within ``grow`` of the hull nor start
    inside it; the hull itself is built only if some edge is that close."""
    ox, oy, ro, top_o = pair[0], pair[1], pair[2], pair[3]
    tx, ty, rt = pair[4], pair[5], pair[6]
    level = pair[8]
    cap = max(ro, rt) / scale + 1e-9
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
    hull = _hull_outline(pair, cos_t, sin_t, scale)
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
    out: FloatArray,
) -> int:
    """:func:`sight_pair` for models ``og`` and ``tg`` (rows of ``geo``: cx, cy, r, top,
    level; rows of ``in_area``: the areas holding each model)."""
    pair = np.empty(9)
    pair[:4] = geo[og, :4]
    pair[4:] = geo[tg]
    ex = in_area[og] | in_area[tg]
    return sight_pair(pair, ou, tu, ex, edges, verts, ostart, vstart, oinfo, out)


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
    cos_t: FloatArray,
    sin_t: FloatArray,
    scale: float,
) -> int:
    """:func:`hull_flags` for models ``og`` and ``tg`` (as :func:`sight_models`)."""
    pair = np.empty(9)
    pair[:4] = geo[og, :4]
    pair[4:] = geo[tg]
    ex = in_area[og] | in_area[tg]
    return hull_flags(pair, ou, tu, ex, edges, ostart, oinfo, cos_t, sin_t, scale)


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
    cos_t: FloatArray,
    sin_t: FloatArray,
    scale: float,
    status: np.ndarray,
    witness: FloatArray,
    flags: np.ndarray,
) -> None:
    """Every row of ``pairs`` (P, 9) with ``units`` (P, 2) and ``area_ex`` (P, A): the sight
    status and witness, and (``want_hull``) the fully-visible flags of :func:`hull_flags`."""
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
                cos_t,
                sin_t,
                scale,
            )
