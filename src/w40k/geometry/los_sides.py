"""The hull of a footprint pair for the BLOCKED proofs of :mod:`w40k.geometry.los` (06.01):
footprints as discs, their circumradius, the two outer hull sides joining two footprints, the
stand-in polygon of an oval or hull footprint, bounding boxes, and the cheap pre-test that no
obstacle can meet both hull sides (before the exact side distances of the single-wall proof).
Every function is a pure function of its shapes (several kept per shape or pair)."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

from w40k.geometry.los_dist import _centre, _ring
from w40k.geometry.shapes import Circle, FloatArray, Oval, Polygon, Shape


def _as_discs(shape: Shape) -> tuple[FloatArray, FloatArray] | None:
    """A shape as discs whose convex hull it is (circle: itself; polygon: its vertices)."""
    if isinstance(shape, Circle):
        return np.array([[shape.cx, shape.cy]]), np.array([shape.r])
    if isinstance(shape, Polygon):
        pts = _ring(shape)[0]
        return pts, np.zeros(len(pts))
    return None


@functools.lru_cache(maxsize=4096)
def _circumradius(shape: Shape) -> float:
    """The largest distance from the shape's centre to its outline (kept per shape: a pure
    function of it, asked several times by every search)."""
    if isinstance(shape, Circle):
        return shape.r
    if isinstance(shape, Oval):
        return max(shape.a, shape.b)
    pts = shape.array()
    c = np.asarray(shape.center)
    return float(np.sqrt(((pts - c) ** 2).sum(axis=1)).max())


@functools.lru_cache(maxsize=4096)
def _outer_sides(o: Shape, t: Shape) -> tuple[tuple[FloatArray, FloatArray], ...] | None:
    """The two hull sides joining the footprints (outer common tangent segments, from a
    point of ``o`` to a point of ``t``), for circles and polygons; None otherwise or when
    the footprints are not clearly apart. Kept per footprint pair (a pure function of the
    two shapes; the single-wall and chain proofs of one search both ask it, and the same
    pair is searched again in later scenes); the arrays are read-only."""
    out = _outer_sides_of(o, t)
    if out is None:
        return None
    for pair in out:
        for arr in pair:
            arr.setflags(write=False)
    return tuple(out)


def _outer_sides_of(o: Shape, t: Shape) -> list[tuple[FloatArray, FloatArray]] | None:
    """The computation of :func:`_outer_sides`."""
    od, td = _as_discs(o), _as_discs(t)
    if od is None or td is None:
        return None
    (ox, oy), (tx, ty) = _centre(o), _centre(t)
    if float(np.hypot(ox - tx, oy - ty)) <= (
        _circumradius(o) + _circumradius(t) + 1e-6
    ):
        return None
    if isinstance(o, Circle) and isinstance(t, Circle):
        dx, dy = t.cx - o.cx, t.cy - o.cy
        length = math.hypot(dx, dy)
        hx, hy = dx / length, dy / length
        cosv = (o.r - t.r) / length
        sv = math.sqrt(max(1.0 - cosv * cosv, 0.0))
        out: list[tuple[FloatArray, FloatArray]] = []
        for sign in (1.0, -1.0):
            nx, ny = hx * cosv - sign * hy * sv, hy * cosv + sign * hx * sv
            out.append(
                (
                    np.array([o.cx + o.r * nx, o.cy + o.r * ny]),
                    np.array([t.cx + t.r * nx, t.cy + t.r * ny]),
                )
            )
        return out
    ci, ri = od
    cj, rj = td
    ii = np.repeat(np.arange(len(ci)), len(cj))
    jj = np.tile(np.arange(len(cj)), len(ci))
    c1, r1, c2, r2 = ci[ii], ri[ii], cj[jj], rj[jj]
    d = c2 - c1
    length = np.sqrt((d * d).sum(axis=1))
    dh = d / length[:, None]
    dp = np.stack([-dh[:, 1], dh[:, 0]], axis=1)
    cosv = (r1 - r2) / length
    sv = np.sqrt(np.maximum(1.0 - cosv * cosv, 0.0))
    sides: list[tuple[FloatArray, FloatArray]] = []
    for sign in (1.0, -1.0):
        n = dh * cosv[:, None] + sign * dp * sv[:, None]
        off = (n * c1).sum(axis=1) + r1
        # a hull side supports both footprints: every disc stays on the inner side
        so = (n[:, None, :] * ci[None, :, :]).sum(axis=2) + ri[None, :]
        st = (n[:, None, :] * cj[None, :, :]).sum(axis=2) + rj[None, :]
        tol = 1e-9 * (1.0 + np.abs(off))
        ok = (so <= (off + tol)[:, None]).all(axis=1) & (st <= (off + tol)[:, None]).all(axis=1)
        k = np.nonzero(ok)[0]
        if len(k) == 0:
            return None
        m = int(k[0])
        sides.append((c1[m] + r1[m] * n[m], c2[m] + r2[m] * n[m]))
    return sides


def _may_meet_both(
    sides: Sequence[tuple[FloatArray, FloatArray]], a: FloatArray, b: FloatArray,
    half: FloatArray, own: np.ndarray,
) -> bool:
    """A cheap necessary condition for :func:`_single_wall_separates`'s "some obstacle meets
    both hull sides": some obstacle ``own`` has an edge ``a``-``b`` that may come within
    ``half`` of side 1 and one that may come within ``half`` of side 2. An edge is farther
    than ``half`` from a side (and so than its exact distance's test) when its two ends lie
    on one side of the side's line, both farther than ``half`` (and a hair, far more than
    rounding) from it, or both before the side's start or both after its end by that much
    along it. False: no obstacle meets both sides, the proof's answer without the exact
    distances. (The few edges of most searches in float arithmetic, many as arrays.)"""
    if len(a) <= MAY_MEET_LOOP:
        return _may_meet_both1(sides, a, b, half, own)
    p = np.array([sides[0][0], sides[1][0]])  # (2, 2): each side's start, end, unit direction
    q = np.array([sides[0][1], sides[1][1]])
    u = q - p
    slen = np.hypot(u[:, 0], u[:, 1])
    if not bool((slen > 1e-9).all()):
        return True
    u = u / slen[:, None]
    ux, uy = u[:, 0:1], u[:, 1:2]
    ax, ay = a[None, :, 0] - p[:, 0:1], a[None, :, 1] - p[:, 1:2]  # (2, N)
    bx, by = b[None, :, 0] - p[:, 0:1], b[None, :, 1] - p[:, 1:2]
    fa, fb = ux * ay - uy * ax, ux * by - uy * bx  # across the side's line
    ga, gb = ux * ax + uy * ay, ux * bx + uy * by  # along it
    lim = half[None, :] + 1e-9
    end = slen[:, None] + lim
    far = (((fa > lim) & (fb > lim)) | ((fa < -lim) & (fb < -lim))
           | ((ga < -lim) & (gb < -lim)) | ((ga > end) & (gb > end)))
    return not set(own[~far[0]].tolist()).isdisjoint(own[~far[1]].tolist())


MAY_MEET_LOOP = 24
"""Up to this many edges :func:`_may_meet_both` loops in floats (numpy's per-call cost is
more than the loop's below it)."""


def _may_meet_both1(
    sides: Sequence[tuple[FloatArray, FloatArray]], a: FloatArray, b: FloatArray,
    half: FloatArray, own: np.ndarray,
) -> bool:
    """:func:`_may_meet_both` edge by edge in float arithmetic (the same tests; side 2 only
    for the obstacles that may meet side 1)."""
    first: set[int] = set()
    rows = list(zip(a.tolist(), b.tolist(), half.tolist(), own.tolist(), strict=True))
    for side, (p, q) in enumerate(sides):
        px, py = float(p[0]), float(p[1])
        ux, uy = float(q[0]) - px, float(q[1]) - py
        slen = math.hypot(ux, uy)
        if not slen > 1e-9:
            return True
        ux, uy = ux / slen, uy / slen
        for (ax, ay), (bx, by), h, k in rows:
            if side == 1 and k not in first:
                continue
            lim = h + 1e-9
            ax, ay, bx, by = ax - px, ay - py, bx - px, by - py
            fa, fb = ux * ay - uy * ax, ux * by - uy * bx
            if (fa > lim and fb > lim) or (fa < -lim and fb < -lim):
                continue
            ga, gb = ux * ax + uy * ay, ux * bx + uy * by
            if (ga < -lim and gb < -lim) or (ga > slen + lim and gb > slen + lim):
                continue
            if side == 1:
                return True
            first.add(k)
        if not first:
            return False
    return False


STAND_IN_SIDES = 16
"""Sides of the polygon that stands in for an oval footprint in the separation proof."""


@functools.lru_cache(maxsize=4096)
def _box(s: Shape) -> tuple[FloatArray, FloatArray]:
    """A footprint's bounding box (lower corner, upper corner), a circle or a polygon (kept
    per shape; the arrays are read-only)."""
    lo, hi = _box_of(s)
    lo.setflags(write=False)
    hi.setflags(write=False)
    return lo, hi


def _box_of(s: Shape) -> tuple[FloatArray, FloatArray]:
    """The computation of :func:`_box`."""
    if isinstance(s, Circle):
        c = np.array([s.cx, s.cy])
        return c - s.r, c + s.r
    pts = s.array() if isinstance(s, Polygon) else s.outline(STAND_IN_SIDES)
    return pts.min(axis=0), pts.max(axis=0)


@functools.lru_cache(maxsize=1024)
def _hull_stand_in(s: Shape) -> Shape:
    """The footprint itself, or for an oval its circumscribed polygon (``Oval.outline``: the
    oval's affine image of a regular polygon around the unit circle, so it holds the oval).
    :func:`_single_wall_separates` stays a proof with a larger footprint: every line between
    the footprints is a line between the larger ones, and a wall clear of the larger ones is
    clear of the footprints."""
    if isinstance(s, Oval):
        return Polygon(tuple((float(x), float(y)) for x, y in s.outline(STAND_IN_SIDES)))
    return s
