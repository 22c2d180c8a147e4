"""The batch line of sight's prefilters before the sight7 pass (``los_batch.batch_sight``
and ``_single_wall_blocked`` at a41a3e9), kept as the reference that the tighter prefilters
must answer exactly like (tests/geometry/test_los_prefilters.py)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from w40k.geometry.los import TOUCH, Obstacles
from w40k.geometry.los_batch import BLOCKED, CLEAR, _centre_chords
from w40k.geometry.los_dist import _seg_dist
from w40k.geometry.shapes import FloatArray

AllowedFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


def reference_batch_sight(
    oc: FloatArray,
    ro: FloatArray,
    top_o: FloatArray,
    tc: FloatArray,
    rt: FloatArray,
    top_t: FloatArray,
    obs: Obstacles,
    allowed: AllowedFn | None = None,
) -> tuple[np.ndarray, FloatArray, FloatArray]:
    """Decide the pairs (observer disc ``oc``/``ro`` with top ``top_o``, target disc
    ``tc``/``rt`` with top ``top_t``; arrays over pairs) that the cheap tests can decide.

    Returns (status (P,) int8, observer-side witness points (P, 2), target-side (P, 2)); the
    witness is meaningful where the status is CLEAR."""
    oc = np.asarray(oc, dtype=np.float64).reshape(-1, 2)
    tc = np.asarray(tc, dtype=np.float64).reshape(-1, 2)
    ro = np.asarray(ro, dtype=np.float64)
    rt = np.asarray(rt, dtype=np.float64)
    top_o = np.asarray(top_o, dtype=np.float64)
    top_t = np.asarray(top_t, dtype=np.float64)
    n_p = len(oc)
    status = np.zeros(n_p, dtype=np.int8)
    pn = oc.copy()
    qn = tc.copy()
    if n_p == 0:
        return status, pn, qn
    rad = np.maximum(ro, rt)
    if len(obs.a):
        # whole obstacles with no edge near the box of every pair's centre segment (by the
        # slack of the prefilter below) are left out: they can meet no pair's reach, and the
        # others keep every edge and their indices (the same couples, tests and answers)
        slack0 = float(rad.max()) + float(obs.grow.max()) + 1e-5
        box_lo = np.minimum(oc.min(axis=0), tc.min(axis=0)) - slack0
        box_hi = np.maximum(oc.max(axis=0), tc.max(axis=0)) + slack0
        near = ((np.maximum(obs.a, obs.b) >= box_lo) & (np.minimum(obs.a, obs.b) <= box_hi)
                ).all(axis=1)
        if not near.all():
            keep = np.zeros(int(obs.owner.max()) + 1, dtype=bool)
            keep[obs.owner[near]] = True
            obs = obs.subset(keep[obs.owner], np.zeros(len(obs.verts), dtype=bool))
    n_e = len(obs.a)
    if n_e == 0:
        status[:] = CLEAR
        return status, pn, qn
    lowest = np.minimum(top_o, top_t)
    highest = np.maximum(top_o, top_t)
    seg_lo = np.minimum(oc, tc)
    seg_hi = np.maximum(oc, tc)
    e_lo = np.minimum(obs.a, obs.b)
    e_hi = np.maximum(obs.a, obs.b)

    # ---- (pair, edge) couples that may come within reach of the centre segment: a
    # prefilter by the edge end points' offsets across and along the centre line (two small
    # matrix products), with a margin; the exact relevance test below decides
    slack = float(rad.max()) + float(obs.grow.max()) + 1e-5
    dvec0 = tc - oc
    len0 = np.hypot(dvec0[:, 0], dvec0[:, 1])
    with np.errstate(divide="ignore", invalid="ignore"):
        u = np.where((len0 > 1e-12)[:, None], dvec0 / len0[:, None], np.array([1.0, 0.0]))
    nrm = np.stack([-u[:, 1], u[:, 0]], axis=1)
    c_n = (nrm * oc).sum(axis=1)
    c_u = (u * oc).sum(axis=1)
    point = (obs.a == obs.b).all(axis=1)  # model bases: one degenerate edge each
    across = np.empty((n_e, n_p), dtype=bool)
    sp_ = obs.a[point] @ nrm.T - c_n  # (E, P) offsets across the line
    across[point] = np.abs(sp_) <= slack
    if not point.all():
        sa = obs.a[~point] @ nrm.T - c_n
        sb = obs.b[~point] @ nrm.T - c_n
        across[~point] = (np.minimum(np.abs(sa), np.abs(sb)) <= slack) | ((sa > 0) != (sb > 0))
    ei, pi = np.nonzero(across)
    ua = (obs.a[ei] * u[pi]).sum(axis=1) - c_u[pi]
    ub = (obs.b[ei] * u[pi]).sum(axis=1) - c_u[pi]
    along = (np.maximum(ua, ub) >= -slack) & (np.minimum(ua, ub) <= len0[pi] + slack)
    ei, pi = ei[along], pi[along]
    own = obs.owner[ei]
    if allowed is not None and len(pi):
        ok = allowed(pi, own)
        pi, ei, own = pi[ok], ei[ok], own[ok]

    # ---- relevance exactly as _relevant_edges: box by the pair's reach, then distance
    reach = rad[pi] + obs.grow[ei] + 1e-9
    box = (
        (e_hi[ei] + reach[:, None] >= seg_lo[pi]) & (e_lo[ei] - reach[:, None] <= seg_hi[pi])
    ).all(axis=1)
    rel_pi, rel_ei = pi[box], ei[box]
    dist = _seg_dist(oc[rel_pi], tc[rel_pi], obs.a[rel_ei], obs.b[rel_ei])
    close = dist <= reach[box]
    n_own = int(obs.owner.max(initial=-1)) + 1
    rel_owner = np.zeros((n_p, max(n_own, 1)), dtype=bool)
    rel_owner[rel_pi[close], obs.owner[rel_ei[close]]] = True
    # whole obstacles are kept; those no higher than the lower top never block
    top_e = obs.top[ei]
    kept = rel_owner[pi, own] & ~((top_e <= lowest[pi] + 1e-12) & np.isfinite(top_e))
    kp, ke = pi[kept], ei[kept]
    any_kept = np.zeros(n_p, dtype=bool)
    any_kept[kp] = True
    status[~any_kept] = CLEAR  # witness: the two centres

    # ---- the centre line (as evaluate_lines with a = oc, d = (tc - oc) / L)
    dvec = tc - oc
    length = np.hypot(dvec[:, 0], dvec[:, 1])
    long_enough = length > 1e-12
    with np.errstate(divide="ignore", invalid="ignore"):
        d = dvec / length[:, None]
    with np.errstate(invalid="ignore"):
        valid, o1, t0, te_o, te_t, lo0, hi0, dd = _centre_chords(oc, ro, tc, rt, d, top_o, top_t)
    overlap = o1 >= t0
    pn_c = oc + dd * o1[:, None]
    qn_c = oc + dd * t0[:, None]
    span = np.maximum(te_t - te_o, 1e-12)
    h = obs.top[ke]
    lo = lo0[kp].copy()
    hi = hi0[kp].copy()
    dz = top_t - top_o
    dzk = dz[kp]
    slope = np.abs(dzk) > 1e-12
    with np.errstate(divide="ignore", invalid="ignore"):
        tstar = te_o[kp] + (h - top_o[kp]) / dzk * span[kp]
    fin = np.isfinite(tstar)
    fall = slope & (dzk < 0)
    rise = slope & (dzk > 0)
    lo = np.where(fall, np.maximum(lo, np.where(fin, tstar, -np.inf)), lo)
    hi = np.where(rise, np.minimum(hi, np.where(fin, tstar, np.inf)), hi)
    never = (lowest[kp] + 1e-12 >= h) & np.isfinite(h)
    active = (hi > lo) & ~never
    ak = np.nonzero(active)[0]
    p1 = oc[kp[ak]] + dd[kp[ak]] * lo[ak, None]
    p2 = oc[kp[ak]] + dd[kp[ak]] * hi[ak, None]
    hdist = _seg_dist(p1, p2, obs.a[ke[ak]], obs.b[ke[ak]])
    hit_k = hdist < obs.grow[ke[ak]] - TOUCH
    hit = np.zeros(n_p, dtype=bool)
    hit[kp[ak[hit_k]]] = True
    centre_clear = any_kept & long_enough & valid & (overlap | ~hit)
    status[centre_clear] = CLEAR
    pn[centre_clear] = pn_c[centre_clear]
    qn[centre_clear] = qn_c[centre_clear]

    # ---- the single-wall proof of BLOCKED
    todo = any_kept & ~centre_clear
    if todo.any():
        status[_reference_single_wall(oc, ro, tc, rt, highest, obs, kp, ke, todo)] = BLOCKED
    return status, pn, qn


def _reference_single_wall(
    oc: FloatArray,
    ro: FloatArray,
    tc: FloatArray,
    rt: FloatArray,
    highest: FloatArray,
    obs: Obstacles,
    kp: np.ndarray,
    ke: np.ndarray,
    todo: np.ndarray,
) -> np.ndarray:
    """Vectorised ``_single_wall_separates`` for disc pairs over their kept edges (kp, ke):
    an obstacle higher than both tops, convex and within half its grow of both outer hull
    sides, or (convex or not) with one edge within half its grow of both sides, and more
    than grow + 1e-6 from both discs (neither disc centre inside it). (The per-pair proof
    also takes runs of a wall's edges and partial obstacles; the search decides those.)"""
    n_p = len(oc)
    out = np.zeros(n_p, dtype=bool)
    if obs.convex is None or len(obs.owner) == 0:
        return out
    if bool((np.diff(obs.owner) < 0).any()):
        return out  # edges of one obstacle must be contiguous for the per-obstacle reductions
    dx = tc[:, 0] - oc[:, 0]
    dy = tc[:, 1] - oc[:, 1]
    length = np.hypot(dx, dy)
    apart = todo & (length > ro + rt + 1e-6)
    sel = apart[kp] & (obs.top[ke] > highest[kp] + 1e-12)
    wp, we = kp[sel], ke[sel]
    if len(wp) == 0:
        return out
    # outer common tangents of the two discs (closed form, as _outer_sides)
    with np.errstate(divide="ignore", invalid="ignore"):
        hx, hy = dx / length, dy / length
        cosv = (ro - rt) / length
    sv = np.sqrt(np.maximum(1.0 - cosv * cosv, 0.0))
    half = 0.5 * obs.grow[we]
    meets = []
    for sign in (1.0, -1.0):
        nx = hx * cosv - sign * hy * sv
        ny = hy * cosv + sign * hx * sv
        sp = np.stack([oc[:, 0] + ro * nx, oc[:, 1] + ro * ny], axis=1)
        sq = np.stack([tc[:, 0] + rt * nx, tc[:, 1] + rt * ny], axis=1)
        meets.append(_seg_dist(sp[wp], sq[wp], obs.a[we], obs.b[we]) <= half)
    n_own = int(obs.owner.max()) + 1
    own = obs.owner[we]
    convex = obs.convex[own]
    m0, m1 = meets[0] & convex, meets[1] & convex
    key0 = np.unique(wp[m0] * n_own + own[m0])
    key1 = np.unique(wp[m1] * n_own + own[m1])
    # one edge meeting both sides: that edge grown by half the grow is convex
    one = meets[0] & meets[1]
    cand = np.union1d(np.intersect1d(key0, key1, assume_unique=True),
                      wp[one] * n_own + own[one])
    if len(cand) == 0:
        return out
    cp, ck = cand // n_own, cand % n_own
    # every edge of each candidate obstacle
    start = np.searchsorted(obs.owner, ck, side="left")
    stop = np.searchsorted(obs.owner, ck, side="right")
    count = stop - start
    rep = np.repeat(np.arange(len(cand)), count)
    offs = np.arange(len(rep)) - np.repeat(np.cumsum(count) - count, count)
    edge = start[rep] + offs
    ea, eb = obs.a[edge], obs.b[edge]
    gap = obs.grow[start] + 1e-6
    first = np.cumsum(count) - count
    ok = np.ones(len(cand), dtype=bool)
    for c, r in ((oc, ro), (tc, rt)):
        p = c[cp[rep]]
        ab = eb - ea
        ap = p - ea
        den = np.maximum((ab * ab).sum(axis=1), 1e-300)
        u = np.clip((ap * ab).sum(axis=1) / den, 0.0, 1.0)
        off = ap - ab * u[:, None]
        dist = np.sqrt((off * off).sum(axis=1))
        ok &= np.minimum.reduceat(dist, first) > r[cp] + gap
        # centre inside the polygon (3+ edges; even-odd, convex or not: the centre is far
        # from every edge here, so no crossing is in doubt)
        cond = (ea[:, 1] > p[:, 1]) != (eb[:, 1] > p[:, 1])
        with np.errstate(divide="ignore", invalid="ignore"):
            xint = ea[:, 0] + (p[:, 1] - ea[:, 1]) * ab[:, 0] / ab[:, 1]
        odd = np.add.reduceat((cond & (p[:, 0] < xint)).astype(np.int64), first) % 2 == 1
        ok &= ~(odd & (count >= 3))
    out[cp[ok]] = True
    return out
