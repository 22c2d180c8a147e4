"""Common tangent lines of convex plan-view shapes, the candidate lines of the exact line of
sight (geometry/los.py): between discs in closed form, and between an oval and another shape
by bisection on the difference of their support functions."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from w40k.core import kept
from w40k.geometry.shapes import FloatArray, Oval, Shape


def disc_tangents(
    c1: FloatArray, r1: FloatArray, c2: FloatArray, r2: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """All common tangent lines of disc pairs (vectorised): (normals (k, 2), offsets (k,))."""
    d = c2 - c1
    length = np.sqrt((d * d).sum(axis=1))
    good = length > 1e-12
    d, length, c1, r1, r2 = d[good], length[good], c1[good], r1[good], r2[good]
    dh = d / length[:, None]
    dp = np.stack([-dh[:, 1], dh[:, 0]], axis=1)
    ns: list[FloatArray] = []
    cs: list[FloatArray] = []
    for cosv in ((r1 - r2) / length, (r1 + r2) / length):
        ok = np.abs(cosv) <= 1.0
        cv = cosv[ok]
        sv = np.sqrt(np.maximum(1.0 - cv * cv, 0.0))
        # the rows of both signs taken once (the same values, fewer numpy calls)
        dh_cv, dp_ok, c1_ok, r1_ok = dh[ok] * cv[:, None], dp[ok], c1[ok], r1[ok]
        sv_c = sv[:, None]
        for sign in (1.0, -1.0):
            n = dh_cv + sign * dp_ok * sv_c
            ns.append(n)
            cs.append((n * c1_ok).sum(axis=1) + r1_ok)
    return np.concatenate(ns), np.concatenate(cs)


SupportFn = Callable[[FloatArray], FloatArray]


def numeric_tangents(h1: SupportFn, h2: SupportFn) -> tuple[FloatArray, FloatArray]:
    """Common tangents of two convex sets given support functions (roots of
    h1(n) - h2(n) and h1(n) + h2(-n) over the normal's angle, bisected to 1e-13 rad)."""
    theta = np.linspace(0.0, 2 * math.pi, 181)
    ns: list[FloatArray] = []
    cs: list[FloatArray] = []

    def unit(t: FloatArray) -> FloatArray:
        return np.stack([np.cos(t), np.sin(t)], axis=1)

    def f_diff(t: FloatArray) -> FloatArray:  # h1(n) - h2(n), the unit normals made once
        u = unit(t)
        return h1(u) - h2(u)

    def f_sum(t: FloatArray) -> FloatArray:  # h1(n) + h2(-n)
        u = unit(t)
        return h1(u) + h2(-u)

    funcs: list[Callable[[FloatArray], FloatArray]] = [f_diff, f_sum]
    for f in funcs:
        v = f(theta)
        idx = np.nonzero(np.sign(v[:-1]) != np.sign(v[1:]))[0]
        if len(idx) == 0:
            continue
        lo, hi = theta[idx].copy(), theta[idx + 1].copy()
        slo = np.sign(v[idx])  # the sign at ``lo`` never changes (it moves to the same sign)
        for _ in range(45):
            mid = 0.5 * (lo + hi)
            same = np.sign(f(mid)) == slo
            lo = np.where(same, mid, lo)
            hi = np.where(same, hi, mid)
        t = 0.5 * (lo + hi)
        n = unit(t)
        ns.append(n)
        cs.append(h1(n))
    if not ns:
        return np.zeros((0, 2)), np.zeros(0)
    return np.concatenate(ns), np.concatenate(cs)


OVAL_DISC_LIMIT = 8192
"""Entries of :data:`_OVAL_DISC` before it is emptied."""

_OVAL_DISC: dict[tuple[Oval, bytes], tuple[FloatArray, FloatArray]] = kept.table()
"""The tangents of :func:`oval_circle_tangents` by oval and disc (the disc's three floats'
bytes): the same oval meets the same terrain vertices for every target model of a scene, and
in the next scenes while it does not move."""


def oval_circle_tangents(ov: Oval, cx: FloatArray, cy: FloatArray,
                          r: FloatArray) -> tuple[FloatArray, FloatArray]:
    """:func:`numeric_tangents` of oval ``ov`` and each of the discs ``(cx, cy, r)``, all
    at once: the same scan and bisection element by element (so the same bits), in the order
    the discs would give one call at a time (disc, then function, then angle). Each disc's
    tangents are kept (:data:`_OVAL_DISC`): a disc met before takes its kept rows (the
    bisection of one disc does not depend on the others), the others are computed together."""
    k = len(cx)
    if k == 0:
        return np.zeros((0, 2)), np.zeros(0)
    raw = np.ascontiguousarray(np.stack([cx, cy, r], axis=1), dtype=np.float64).tobytes()
    keys = [(ov, raw[24 * i:24 * i + 24]) for i in range(k)]
    got = [_OVAL_DISC.get(key) for key in keys]
    miss = [i for i, g in enumerate(got) if g is None]
    if miss:
        mi = np.asarray(miss, dtype=np.int64)
        n, c, kk = _oval_circle_batch(ov, cx[mi], cy[mi], r[mi])
        n.setflags(write=False)  # kept (as views): read only
        c.setflags(write=False)
        if len(_OVAL_DISC) + len(miss) > OVAL_DISC_LIMIT:
            _OVAL_DISC.clear()
        ends = np.cumsum(np.bincount(kk, minlength=len(miss))).tolist()
        lo = 0
        for j, i in enumerate(miss):
            got[i] = _OVAL_DISC[keys[i]] = (n[lo:ends[j]], c[lo:ends[j]])
            lo = ends[j]
        if len(miss) == k:
            return n, c
    rows = [g for g in got if g is not None]
    return np.concatenate([g[0] for g in rows]), np.concatenate([g[1] for g in rows])


def _oval_circle_batch(ov: Oval, cx: FloatArray, cy: FloatArray,
                       r: FloatArray) -> tuple[FloatArray, FloatArray, np.ndarray]:
    """The tangents of :func:`oval_circle_tangents` computed (normals, offsets) and the disc
    of each row (ascending)."""
    theta = np.linspace(0.0, 2 * math.pi, 181)
    cth, sth = np.cos(theta), np.sin(theta)
    ca, sa = math.cos(ov.angle), math.sin(ov.angle)
    a, b, ox, oy = ov.a, ov.b, ov.cx, ov.cy

    def h_oval(n0: FloatArray, n1: FloatArray) -> FloatArray:  # Oval.support, elementwise
        nu = n0 * ca + n1 * sa
        nv = -n0 * sa + n1 * ca
        return n0 * ox + n1 * oy + np.sqrt((a * nu) ** 2 + (b * nv) ** 2)

    def f(which: int, n0: FloatArray, n1: FloatArray, x: FloatArray, y: FloatArray,
          rad: FloatArray) -> FloatArray:
        if which == 0:  # h1(n) - h2(n)
            return h_oval(n0, n1) - (n0 * x + n1 * y + rad)
        return h_oval(n0, n1) + ((-n0) * x + (-n1) * y + rad)  # h1(n) + h2(-n)

    # the roots of both functions bisected together (one loop, half the numpy calls): each
    # element still takes its own function's value, so the same bits as one loop per function
    parts: list[tuple[np.ndarray, ...]] = []
    for which in (0, 1):
        v = f(which, cth[None, :], sth[None, :], cx[:, None], cy[:, None], r[:, None])
        sg = np.sign(v)
        kk, idx = np.nonzero(sg[:, :-1] != sg[:, 1:])
        if len(kk):
            parts.append((kk, idx, v[kk, idx], np.full(len(kk), which == 1)))
    if not parts:
        return np.zeros((0, 2)), np.zeros(0), np.zeros(0, dtype=np.int64)
    kk = np.concatenate([q[0] for q in parts])
    idx = np.concatenate([q[1] for q in parts])
    flo = np.concatenate([q[2] for q in parts])
    second = np.concatenate([q[3] for q in parts])
    which_of = second.astype(np.int64)
    lo, hi = theta[idx].copy(), theta[idx + 1].copy()
    x, y, rad = cx[kk], cy[kk], r[kk]
    # f of each row as h - (n.c + rs), rs = -r for the second function: (-n0) x + (-n1) y
    # + r is exactly -(n.c - r) (negation commutes with rounding), so the second function's
    # h + ((-n0) x + (-n1) y + r) is h - (n.c - r), the same float up to the sign of a zero
    # (np.sign reads both zeros alike; only the signs steer the bisection)
    rs = np.where(second, -rad, rad)
    # the sign at ``lo`` never changes (``lo`` moves only to a point of the same sign), so
    # it is read once
    slo = np.sign(flo)
    for _ in range(45):
        mid = 0.5 * (lo + hi)
        n0, n1 = np.cos(mid), np.sin(mid)
        fm = h_oval(n0, n1) - (n0 * x + n1 * y + rs)
        same = np.sign(fm) == slo
        lo = np.where(same, mid, lo)
        hi = np.where(same, hi, mid)
    t = 0.5 * (lo + hi)
    n0, n1 = np.cos(t), np.sin(t)
    order = np.argsort((kk * 2 + which_of) * 181 + idx, kind="stable")
    return np.stack([n0, n1], axis=1)[order], h_oval(n0, n1)[order], kk[order]


def support_of(shape: Shape) -> SupportFn:
    return shape.support
