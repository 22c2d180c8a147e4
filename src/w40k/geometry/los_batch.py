"""Line of sight for many pairs of round bases at once (same answers as :func:`line_of_sight`).

:func:`batch_sight` runs the cheap decisive steps of :func:`w40k.geometry.los.line_of_sight`
for every pair in single array operations over (pair, edge) couples:

1. relevance (edges within reach of the centre segment, whole obstacles kept) and the height
   filter (obstacles no higher than the lower top never block);
2. no obstacle left: CLEAR with the centre-to-centre witness;
3. the centre line, evaluated exactly as :func:`~w40k.geometry.los.evaluate_lines` does
   (same formulas, element by element, so the same witness bit for bit);
4. the single-wall proof of BLOCKED (:func:`~w40k.geometry.los._single_wall_separates`).

Pairs it cannot decide come back as :data:`UNDECIDED` for the per-pair exact search. Only
round (circular) footprints are handled; callers send other shapes to the per-pair code.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from w40k.geometry.los import TOUCH, Obstacles
from w40k.geometry.los_dist import _seg_dist
from w40k.geometry.shapes import FloatArray

UNDECIDED = 0
"""Status: the per-pair exact search must decide."""
CLEAR = 1
"""Status: a clear line (the witness is in the returned points)."""
BLOCKED = 2
"""Status: no clear line (exact, by the single-wall proof)."""

AllowedFn = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""``allowed(pair_idx, owner_idx)``: whether the obstacle counts for the pair (e.g. not one of
the two units' own models, not an area either model is in)."""


def batch_sight(
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
    if len(obs.a) == 0:
        status[:] = CLEAR
        return status, pn, qn
    sc = _scene_arrays(obs)
    # whole obstacles with no edge near the box of every pair's centre segment (by the
    # edge's slack in the prefilter below, ``rad.max() + grow + 1e-5``) are left out:
    # they can meet no pair's reach, and the others keep every edge and their indices
    # (the same couples, tests and answers). The obstacle arrays are not cut down: the
    # couples below index the scene's own edges, and the whole obstacles of the kept ones
    # are the same edges (owners are not renumbered).
    box_lo = np.minimum(oc.min(axis=0), tc.min(axis=0))
    box_hi = np.maximum(oc.max(axis=0), tc.max(axis=0))
    slack0 = float(rad.max()) + 1e-5 + sc.grow_col
    near = ((sc.e_hi + slack0 >= box_lo) & (sc.e_lo - slack0 <= box_hi)).all(axis=1)
    if not near.any():
        status[:] = CLEAR
        return status, pn, qn
    if not sc.contiguous and not near.all():
        # (a scene whose obstacles' edges are not in owner order: cut down as before, for
        # the single-wall proof's contiguity test on the kept obstacles)
        keep = np.zeros(sc.n_own, dtype=bool)
        keep[obs.owner[near]] = True
        kept_e = keep[obs.owner]
        obs = obs.subset(kept_e, np.zeros(len(obs.verts), dtype=bool))
        near = near[kept_e]
        sc = _SceneArrays(obs)
    lowest = np.minimum(top_o, top_t)
    highest = np.maximum(top_o, top_t)
    seg_lo = np.minimum(oc, tc)
    seg_hi = np.maximum(oc, tc)
    e_lo = sc.e_lo
    e_hi = sc.e_hi

    # ---- (pair, edge) couples that may come within reach of the centre segment: a
    # prefilter by the edge end points' offsets across and along the centre line (small
    # matrix products), with a margin: the couple's ``slack`` = the pair's radius + the
    # edge's grow + 1e-5, more than its reach ``rad + grow + 1e-9`` in the exact relevance
    # test below, which decides. (An edge of a relevant obstacle left out here is farther
    # than its grow from the centre segment, and farther than half its grow from the hull
    # sides, which lie within the pair's radius of it: it can neither block the centre line
    # nor join the sides, so the answers are those of any looser prefilter.)
    # (Only the edges near the box of every pair's centre segment, ``near`` above, are
    # tried: the others are farther than their slack from every centre segment. The model
    # bases' one-point edges first, then the walls' edges: the couples' order changes
    # nothing below, every step being per couple, per pair or per obstacle.)
    ne_pt = sc.point_idx[near[sc.point_idx]]
    ne_wall = sc.wall_idx[near[sc.wall_idx]]
    ne = np.concatenate([ne_pt, ne_wall])
    ea_n, eb_n = obs.a[ne], obs.b[ne]
    dvec0 = tc - oc
    len0 = np.hypot(dvec0[:, 0], dvec0[:, 1])
    with np.errstate(divide="ignore", invalid="ignore"):
        u = np.where((len0 > 1e-12)[:, None], dvec0 / len0[:, None], np.array([1.0, 0.0]))
    nrm = np.stack([-u[:, 1], u[:, 0]], axis=1)
    c_n = (nrm * oc).sum(axis=1)
    c_u = (u * oc).sum(axis=1)
    slack_pt = rad[None, :] + (obs.grow[ne_pt] + 1e-5)[:, None]
    across_pt = np.abs(obs.a[ne_pt] @ nrm.T - c_n) <= slack_pt  # (E, P) offsets across
    if len(ne_wall):
        slack_w = rad[None, :] + (obs.grow[ne_wall] + 1e-5)[:, None]
        sa = obs.a[ne_wall] @ nrm.T - c_n
        sb = obs.b[ne_wall] @ nrm.T - c_n
        across_w = ((np.minimum(np.abs(sa), np.abs(sb)) <= slack_w) | ((sa > 0) != (sb > 0)))
        across = np.concatenate([across_pt, across_w])
    else:
        across = across_pt
    en, pi = np.nonzero(across)
    ei = ne[en]
    ua = (ea_n[en] * u[pi]).sum(axis=1) - c_u[pi]
    ub = (eb_n[en] * u[pi]).sum(axis=1) - c_u[pi]
    sl = rad[pi] + (obs.grow[ei] + 1e-5)
    along = (np.maximum(ua, ub) >= -sl) & (np.minimum(ua, ub) <= len0[pi] + sl)
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
    rel_owner = np.zeros((n_p, max(sc.n_own, 1)), dtype=bool)
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
        status[_single_wall_blocked(oc, ro, tc, rt, highest, obs, kp, ke, todo, sc)] = BLOCKED
    return status, pn, qn


class _SceneArrays:
    """What :func:`batch_sight` reads off a scene's obstacles whatever the pairs (the edges'
    boxes, the one-point edges of the model bases and the walls' edges, the owners), kept
    for the scene's next calls (:func:`_scene_arrays`)."""

    def __init__(self, obs: Obstacles) -> None:
        self.obs = obs
        self.e_lo = np.minimum(obs.a, obs.b)
        self.e_hi = np.maximum(obs.a, obs.b)
        self.grow_col = obs.grow[:, None]
        point = (obs.a == obs.b).all(axis=1)  # model bases: one degenerate edge each
        self.point_idx = np.nonzero(point)[0]
        self.wall_idx = np.nonzero(~point)[0]
        self.n_own = int(obs.owner.max(initial=-1)) + 1
        # edges of one obstacle contiguous, for the single-wall proof's per-obstacle
        # reductions
        self.contiguous = not bool((np.diff(obs.owner) < 0).any())


_SCENE: list[_SceneArrays] = []
"""The last scene's arrays (a scene's obstacles are asked many times, then left)."""


def _scene_arrays(obs: Obstacles) -> _SceneArrays:
    """:class:`_SceneArrays` of these obstacles, kept while the same obstacles are asked."""
    if _SCENE and _SCENE[0].obs is obs:
        return _SCENE[0]
    sc = _SceneArrays(obs)
    _SCENE[:] = [sc]
    return sc


def _centre_chords(
    oc: FloatArray,
    ro: FloatArray,
    tc: FloatArray,
    rt: FloatArray,
    d: FloatArray,
    top_o: FloatArray,
    top_t: FloatArray,
) -> tuple[
    np.ndarray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray
]:
    """``_chords`` of both discs along the centre lines, oriented observer to target, and
    the 3-D end points' parameters (same formulas as ``evaluate_lines``)."""

    def chords(c: FloatArray, r: FloatArray) -> tuple[FloatArray, FloatArray, np.ndarray]:
        cx = c[:, 0] - oc[:, 0]
        cy = c[:, 1] - oc[:, 1]
        s = cx * d[:, 0] + cy * d[:, 1]
        perp2 = cx * cx + cy * cy - s * s
        ok = perp2 <= r * r + 1e-9
        half = np.sqrt(np.maximum(r * r - perp2, 0.0))
        return s - half, s + half, ok

    with np.errstate(invalid="ignore"):
        o0, o1, ook = chords(oc, ro)
        t0, t1, tok = chords(tc, rt)
    valid = ook & tok
    flip = (o0 + o1) > (t0 + t1)
    sgn = np.where(flip, -1.0, 1.0)
    o0, o1 = np.where(flip, -o1, o0), np.where(flip, -o0, o1)
    t0, t1 = np.where(flip, -t1, t0), np.where(flip, -t0, t1)
    dd = d * sgn[:, None]
    te_o = np.where(top_o > top_t, o1, np.where(top_o < top_t, o0, o1))
    te_t = np.where(top_o > top_t, t1, np.where(top_o < top_t, t0, t0))
    return valid, o1, t0, te_o, te_t, o1, t0, dd


def _single_wall_blocked(
    oc: FloatArray,
    ro: FloatArray,
    tc: FloatArray,
    rt: FloatArray,
    highest: FloatArray,
    obs: Obstacles,
    kp: np.ndarray,
    ke: np.ndarray,
    todo: np.ndarray,
    sc: _SceneArrays,
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
    if not sc.contiguous:
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
    wa, wb = obs.a[we], obs.b[we]
    meets = []
    for sign in (1.0, -1.0):
        nx = hx * cosv - sign * hy * sv
        ny = hy * cosv + sign * hx * sv
        spx, spy = oc[:, 0] + ro * nx, oc[:, 1] + ro * ny
        sqx, sqy = tc[:, 0] + rt * nx, tc[:, 1] + rt * ny
        # an edge whose two ends lie on one side of the side's line (unit normal ``n``, through
        # both tangent points), both more than half its grow (and a hair) away, is farther
        # than that from the side; so is one whose two ends lie, along the side (unit
        # direction ``n`` turned a quarter, its length ``slen``), both before its start or
        # both after its end by that much: the exact distances only for the other couples
        wx, wy = spx[wp], spy[wp]
        ax_, ay_, bx_, by_ = wa[:, 0] - wx, wa[:, 1] - wy, wb[:, 0] - wx, wb[:, 1] - wy
        nxw, nyw = nx[wp], ny[wp]
        fa, fb = nxw * ax_ + nyw * ay_, nxw * bx_ + nyw * by_
        ga, gb = nxw * ay_ - nyw * ax_, nxw * by_ - nyw * bx_
        g_end = (nx * (sqy - spy) - ny * (sqx - spx))[wp]  # the side's far end, along it
        lim = half + 1e-9
        g_lo, g_hi = np.minimum(g_end, 0.0) - lim, np.maximum(g_end, 0.0) + lim
        maybe = np.nonzero(~(((fa > lim) & (fb > lim)) | ((fa < -lim) & (fb < -lim))
                             | ((ga < g_lo) & (gb < g_lo)) | ((ga > g_hi) & (gb > g_hi))))[0]
        sp = np.stack([spx, spy], axis=1)
        sq = np.stack([sqx, sqy], axis=1)
        m = np.zeros(len(wp), dtype=bool)
        m[maybe] = _seg_dist(sp[wp[maybe]], sq[wp[maybe]], wa[maybe], wb[maybe]) <= half[maybe]
        meets.append(m)
    n_own = sc.n_own
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
