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

from w40k.core import kept
from w40k.geometry.los import TOUCH, Obstacles
from w40k.geometry.los_dist import seg_dist_rows
from w40k.geometry.shapes import FloatArray

UNDECIDED = 0
"""Status: the per-pair exact search must decide."""
CLEAR = 1
"""Status: a clear line (the witness is in the returned points)."""
BLOCKED = 2
"""Status: no clear line (exact, by the single-wall proof)."""
SPARED = 3
"""Status: not decided, and not to be searched by the caller: another pair of its group
(``spare_groups``) is CLEAR in this call, so the single-wall proof was not tried on it."""

AllowedFn = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""``allowed(pair_idx, owner_idx)``: whether the obstacle counts for the pair (e.g. not one of
the two units' own models, not an area either model is in)."""


# The constants of the array expressions below as 0-d arrays of the arrays' own types
# (float64; int64 for the parity): the same values and result types as the Python scalars
# (a Python float with a float64 array is taken as float64, NEP 50), so the same floats and
# booleans, without numpy's conversion of a Python scalar at every operation (~1.3 k
# instructions each, some 35 a call)
_ZERO, _ONE, _MINUS_ONE, _HALF = np.array(0.0), np.array(1.0), np.array(-1.0), np.array(0.5)
_E6, _E9, _E12 = np.array(1e-6), np.array(1e-9), np.array(1e-12)
_INF, _NEG_INF, _TOUCH = np.array(np.inf), np.array(-np.inf), np.array(TOUCH)
_TWO, _ONE_INT = np.array(2, dtype=np.int64), np.array(1, dtype=np.int64)
_UX = np.array([[1.0], [0.0]])
"""The direction taken for a pair of coincident centres (a column: x, y rows)."""

# one floating-point error state for the whole call (its divisions by zero lengths and square
# roots of negative rounding are masked where they matter), not one per step: each
# ``np.errstate`` costs about as much as a small array operation
@np.errstate(divide="ignore", invalid="ignore")
def batch_sight(
    oc: FloatArray,
    ro: FloatArray,
    top_o: FloatArray,
    tc: FloatArray,
    rt: FloatArray,
    top_t: FloatArray,
    obs: Obstacles,
    allowed: AllowedFn | None = None,
    kept_owners: np.ndarray | None = None,
    relevant: list[np.ndarray] | None = None,
    spare_groups: np.ndarray | None = None,
) -> tuple[np.ndarray, FloatArray, FloatArray]:
    """Decide the pairs (observer disc ``oc``/``ro`` with top ``top_o``, target disc
    ``tc``/``rt`` with top ``top_t``; arrays over pairs) that the cheap tests can decide.

    Returns (status (P,) int8, observer-side witness points (P, 2), target-side (P, 2)); the
    witness is meaningful where the status is CLEAR. ``kept_owners`` (P,), when given, is
    filled with the number of obstacles each pair keeps after the relevance and height
    steps (those of :func:`~w40k.geometry.los.relevant_obstacles`: the per-pair searches
    order the pairs left open by it); it changes no answer. ``relevant``, when given, gets
    the (P, obstacles) boolean matrix of the obstacles relevant to each pair (an edge within
    the pair's reach of its centre segment, by the tests and floats of
    :func:`~w40k.geometry.los._relevant_edges`, among the obstacles ``allowed`` keeps)
    appended (unless every pair is CLEAR before that step): the per-pair search of a pair
    left undecided reads its row instead of running the relevance step again
    (:func:`~w40k.geometry.los.line_of_sight`'s ``owners``). ``spare_groups`` (P,) ints,
    when given: a pair left for the single-wall proof whose group has a pair CLEAR by the
    steps before it is not tried and comes back :data:`SPARED` (a caller that asks only
    whether some pair of a group sees: every other pair's status is its own, as without)."""
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
    # the centres as (2, P) rows, the boxes of the centre segments, and the box of them all
    # (the least and greatest of every centre coordinate: ``min`` and ``max`` round nothing,
    # so the same floats as over the centres' columns)
    oc_t, tc_t = np.ascontiguousarray(oc.T), np.ascontiguousarray(tc.T)
    seg_lo = np.minimum(oc_t, tc_t)
    seg_hi = np.maximum(oc_t, tc_t)
    box_lo, box_hi = seg_lo.min(axis=1), seg_hi.max(axis=1)
    # (the boxes' coordinates as rows, (2, E): each operation runs along the edges)
    slack0 = float(rad.max()) + 1e-5 + obs.grow
    near_xy = (sc.e_hi_t + slack0 >= box_lo[:, None]) & (sc.e_lo_t - slack0 <= box_hi[:, None])
    near = near_xy[0] & near_xy[1]
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

    # ---- (pair, edge) couples that may come within reach of the centre segment: a
    # prefilter by the edge end points' offsets across and along the centre line (small
    # matrix products), with a margin: the couple's ``slack`` = the pair's radius + the
    # edge's grow + 1e-5, more than its reach ``rad + grow + 1e-9`` in the exact relevance
    # test below, which decides. (An edge of a relevant obstacle left out here is farther
    # than its grow from the centre segment, and farther than half its grow from the hull
    # sides, which lie within the pair's radius of it: it can neither block the centre line
    # nor join the sides, so the answers are those of any looser prefilter.)
    # (Only the edges near the box of every pair's centre segment, ``near`` above, are
    # tried: the others are farther than their slack from every centre segment. The
    # prefilter's floats need not be those of the exact tests: its margin, 1e-5 - 1e-9,
    # is far more than their rounding.)
    ne = near.nonzero()[0]
    # (the centre segments' vectors, lengths and directions, computed once: the centre line
    # below and the single-wall proof read the same floats; on the (2, P) rows, the same
    # operations element by element as on the (P, 2) rows, without numpy's buffered loop
    # for a length broadcast along the rows' short axis; ``d`` is the (P, 2) view of them)
    dvec_t = tc_t - oc_t
    len0 = np.hypot(dvec_t[0], dvec_t[1])
    long_enough = len0 > _E12
    d_t = dvec_t / len0
    d = d_t.T
    ux0, uy0 = np.where(long_enough, d_t, _UX)
    # the centre lines' unit normals (-uy, ux) and both offsets, by components (prefilter
    # floats: see above)
    nx, ny = -uy0, ux0
    c_n = nx * oc_t[0] + ny * oc_t[1]
    c_u = ux0 * oc_t[0] + uy0 * oc_t[1]
    # the edge ends' offsets across the centre lines, element by element (no matrix
    # product: a large one goes to the threaded BLAS, slower here than the plain products);
    # an edge crosses a band of half-width ``slack`` about the line where its two offsets
    # across are not both beyond it on one side (a model base's one point: the offset
    # within the slack)
    # (every edge near: the scene's own columns, no gather)
    all_near = len(ne) == len(near)
    if all_near:
        ax, ay, bx, by, g5 = sc.ax, sc.ay, sc.bx, sc.by, sc.grow5
        n_seg = sc.n_seg
    else:
        ax, ay, bx, by, g5 = sc.ax[ne], sc.ay[ne], sc.bx[ne], sc.by[ne], sc.grow5[ne]
        n_seg = int(np.searchsorted(ne, sc.n_seg))
    slack = rad[None, :] + g5[:, None]  # (E near, P)
    sa, sb, across = _offsets_across(ax, ay, bx, by, n_seg, nx, ny, c_n, slack)
    fl = across.ravel().nonzero()[0]  # (the couples' flat indices in ``sa`` / ``sb``)
    en, pi = np.divmod(fl, n_p)
    # (gathers over the couples by ``take``: the same elements as fancy indexing, about half
    # its cost on large index arrays)
    ei = en if all_near else ne.take(en)
    ux, uy, cu = ux0.take(pi), uy0.take(pi), c_u.take(pi)
    ua = ax.take(en) * ux + ay.take(en) * uy - cu
    ub = bx.take(en) * ux + by.take(en) * uy - cu
    sl = slack.ravel().take(fl)  # rad[pi] + g5[en], the same sum
    along = (np.maximum(ua, ub) >= -sl) & (np.minimum(ua, ub) <= len0.take(pi) + sl)
    ix = along.nonzero()[0]
    ei, pi, fl, ua, ub = ei.take(ix), pi.take(ix), fl.take(ix), ua.take(ix), ub.take(ix)
    own = obs.owner[ei]
    if allowed is not None and len(pi):
        ok = allowed(pi, own)
        pi, ei, own, fl, ua, ub = pi[ok], ei[ok], own[ok], fl[ok], ua[ok], ub[ok]

    # ---- relevance exactly as _relevant_edges: box by the pair's reach, then distance
    reach = rad[pi] + obs.grow[ei] + _E9
    n_w = max(sc.n_own, 1)
    rel_owner = np.zeros((n_p, n_w), dtype=bool)
    # (the (pair, obstacle) matrices read and written by flat index: a view of the matrix,
    # the same cells as by (row, column) pairs, without numpy's two-index path)
    rel_flat = rel_owner.ravel()
    po = pi * n_w + own
    # an edge with an end whose offsets put it, by more than 1e-6, within its reach of the
    # centre line with its foot on the centre segment is within its reach of the segment
    # (the offsets' rounding is far below 1e-6), so it passes the exact tests below: its
    # obstacle is relevant to the pair, and that obstacle's other edges need no test
    lim, seg_len = reach - _E6, len0[pi]
    sure = (((np.abs(sa.ravel()[fl]) <= lim) & (ua >= _ZERO) & (ua <= seg_len))
            | ((np.abs(sb.ravel()[fl]) <= lim) & (ub >= _ZERO) & (ub <= seg_len)))
    rel_flat[po[sure]] = True
    rest = ~rel_flat[po]
    pr, er, rr, por = pi[rest], ei[rest], reach[rest], po[rest]
    if len(pr):  # (no couple left to test: nothing more is relevant; ~a quarter of calls)
        _relevant_rest(pr, er, rr, por, rel_flat, sc, (oc_t, tc_t, seg_lo, seg_hi))
    if relevant is not None:
        relevant.append(rel_owner)
    # whole obstacles are kept; those no higher than the lower top never block
    top_e = obs.top[ei]
    kept = rel_flat[po] & ~((top_e <= lowest[pi] + _E12) & np.isfinite(top_e))
    kp, ke = pi[kept], ei[kept]
    if kept_owners is not None:
        # the obstacles each pair keeps (whole obstacles: those of ``rel_owner`` with an edge
        # above the lower top), counted once each
        # (by the flat (pair, obstacle) cells: each pair's count of True cells, as
        # ``sum(axis=1)`` of the matrix gives it, without its row by row bool-to-int cast)
        ko = np.zeros(n_p * n_w, dtype=bool)
        ko[po[kept]] = True
        kept_owners[:] = np.bincount(ko.nonzero()[0] // n_w, minlength=n_p)
    any_kept = np.zeros(n_p, dtype=bool)
    any_kept[kp] = True
    status[~any_kept] = CLEAR  # witness: the two centres
    if len(kp) == 0:
        # (every pair CLEAR: the steps below would leave every status and witness as it is,
        # the centre line and the single-wall proof being tried on kept obstacles only)
        return status, pn, qn

    # ---- the centre line (as evaluate_lines with a = oc, d = (tc - oc) / L: ``d`` above)
    valid, o1, t0, te_o, te_t, lo0, hi0, dd = _centre_chords(oc, ro, tc, rt, d, top_o, top_t)
    overlap = o1 >= t0
    # (the witness ends as (2, P) rows: ``oc + dd * o1[:, None]`` element by element)
    dd_t = np.ascontiguousarray(dd.T)
    pn_c = oc_t + dd_t * o1
    qn_c = oc_t + dd_t * t0
    span = np.maximum(te_t - te_o, _E12)
    h = obs.top[ke]
    lo = lo0[kp]  # (fancy indexing copies)
    hi = hi0[kp]
    dz = top_t - top_o
    dzk = dz[kp]
    slope = np.abs(dzk) > _E12
    tstar = te_o[kp] + (h - top_o[kp]) / dzk * span[kp]
    fin = np.isfinite(tstar)
    fall = slope & (dzk < _ZERO)
    rise = slope & (dzk > _ZERO)
    lo = np.where(fall, np.maximum(lo, np.where(fin, tstar, _NEG_INF)), lo)
    hi = np.where(rise, np.minimum(hi, np.where(fin, tstar, _INF)), hi)
    never = (lowest[kp] + _E12 >= h) & np.isfinite(h)
    active = (hi > lo) & ~never
    ak = active.nonzero()[0]
    kpa, kea = kp[ak], ke[ak]
    oca, dda = _cols(oc_t, kpa), _cols(dd_t, kpa)
    p1 = oca + dda * lo[ak]
    p2 = oca + dda * hi[ak]
    ea_, eb_ = _cols(sc.a_t, kea), _cols(sc.b_t, kea)
    hdist = seg_dist_rows(p1, p2, ea_, eb_)
    hit_k = hdist < obs.grow[ke[ak]] - _TOUCH
    hit = np.zeros(n_p, dtype=bool)
    hit[kp[ak[hit_k]]] = True
    centre_clear = any_kept & long_enough & valid & (overlap | ~hit)
    status[centre_clear] = CLEAR
    np.copyto(pn, pn_c.T, where=centre_clear[:, None])
    np.copyto(qn, qn_c.T, where=centre_clear[:, None])

    # ---- the single-wall proof of BLOCKED
    todo = any_kept & ~centre_clear
    if spare_groups is not None and todo.any():
        seen = np.zeros(int(spare_groups.max()) + 1, dtype=bool)
        seen[spare_groups[status == CLEAR]] = True
        spared = todo & seen[spare_groups]
        status[spared] = SPARED
        todo &= ~spared
    if todo.any():
        status[_single_wall_blocked(oc, ro, tc, rt, highest, obs, kp, ke, todo, sc,
                                    (len0, d))] = BLOCKED
    return status, pn, qn


def _relevant_rest(pr: np.ndarray, er: np.ndarray, rr: FloatArray, por: np.ndarray,
                   rel_flat: np.ndarray, sc: _SceneArrays,
                   rows: tuple[FloatArray, FloatArray, FloatArray, FloatArray]) -> None:
    """The exact relevance tests of :func:`batch_sight` on the couples (pair ``pr``, edge
    ``er``, reach ``rr``, flat (pair, obstacle) cell ``por``) its sure test left: the box of
    the centre segment grown by the reach, then the segment distance; ``rel_flat`` gets the
    cells of the couples within reach. ``rows``: the centres as (2, P) rows and the boxes of
    the centre segments."""
    oc_t, tc_t, seg_lo, seg_hi = rows
    # (coordinates as (2, N) rows gathered by ``take``: the same elements and operations as
    # the (N, 2) rows and columns, each operation along the couples)
    box_xy = ((_cols(sc.e_hi_t, er) + rr >= _cols(seg_lo, pr))
              & (_cols(sc.e_lo_t, er) - rr <= _cols(seg_hi, pr)))
    box = box_xy[0] & box_xy[1]
    rel_pi, rel_ei = pr[box], er[box]
    dist = seg_dist_rows(_cols(oc_t, rel_pi), _cols(tc_t, rel_pi),
                         _cols(sc.a_t, rel_ei), _cols(sc.b_t, rel_ei))
    close = dist <= rr[box]
    rel_flat[por[box][close]] = True  # (the owners of ``rel_ei``: ``own`` of those couples)


class _SceneArrays:
    """What :func:`batch_sight` reads off a scene's obstacles whatever the pairs (the edges'
    boxes, vectors and squared lengths, the owners and each obstacle's edge range), kept
    for the scene's next calls (:func:`_scene_arrays`)."""

    def __init__(self, obs: Obstacles) -> None:
        self.obs = obs
        # the edges' boxes and end points as (2, E) rows (x, y), for the operations along
        # the edges or couples
        self.e_lo_t = np.ascontiguousarray(np.minimum(obs.a, obs.b).T)
        self.e_hi_t = np.ascontiguousarray(np.maximum(obs.a, obs.b).T)
        self.a_t = np.ascontiguousarray(obs.a.T)
        self.b_t = np.ascontiguousarray(obs.b.T)
        # the edges' end coordinates as contiguous columns and the prefilter's slack less
        # the pair's radius (``grow + 1e-5``), for the (edge x pair) prefilter
        self.ax, self.ay = obs.a[:, 0].copy(), obs.a[:, 1].copy()
        self.bx, self.by = obs.b[:, 0].copy(), obs.b[:, 1].copy()
        self.grow5 = obs.grow + 1e-5
        # the edges from ``n_seg`` on are points (model bases: ``a == b``, bit for bit), as
        # ``SightTables`` joins them after the terrain; ``n_seg`` = E where they are not a
        # tail (then every edge is taken as a segment)
        # (the two coordinates' tests joined by ``&``: ``all(axis=1)`` of two columns, without
        # numpy's row by row reduction)
        pt = (obs.a[:, 0] == obs.b[:, 0]) & (obs.a[:, 1] == obs.b[:, 1])
        seg = np.nonzero(~pt)[0]
        self.n_seg = int(seg[-1]) + 1 if len(seg) else 0
        if len(seg) and int(seg[-1]) + 1 != len(seg):
            self.n_seg = len(pt)  # (a point among the segments)
        self.n_own = int(obs.owner.max(initial=-1)) + 1
        # edges of one obstacle contiguous, for the single-wall proof's per-obstacle
        # reductions
        self.contiguous = not bool((np.diff(obs.owner) < 0).any())
        if self.contiguous:
            # each obstacle's edges (start, stop), and each edge's vector and squared
            # length (at least 1e-300), for the single-wall proof's clearance test
            ids = np.arange(self.n_own)
            self.own_start = np.searchsorted(obs.owner, ids, side="left")
            self.own_stop = np.searchsorted(obs.owner, ids, side="right")
            ab = obs.b - obs.a
            self.ab_t = np.ascontiguousarray(ab.T)
            # (``(ab * ab).sum(axis=1)``: the sum of two terms is their one addition)
            self.den = np.maximum(ab[:, 0] * ab[:, 0] + ab[:, 1] * ab[:, 1], 1e-300)


_SIGNS = np.array([[1.0], [-1.0]])
"""The two outer hull sides' signs, as a column (:func:`_single_wall_blocked`)."""

def _offsets_across(
    ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray, n_seg: int,
    nx: FloatArray, ny: FloatArray, c_n: FloatArray, slack: FloatArray,
) -> tuple[FloatArray, FloatArray, np.ndarray]:
    """The prefilter's offsets across the centre lines of the edges' two ends (``sa``,
    ``sb``: (E, P)) and which couples cross the band of half-width ``slack``. Rows from
    ``n_seg`` on are points (``a == b``): their ``sb`` is their ``sa`` (the same operations
    on the same floats), copied, and their test ``|sa| <= slack`` is the two-end test with
    ``sb == sa`` (``max`` and ``min`` of equal values are that value; NaN fails both): the
    same offsets and booleans with about half the operations on those rows."""
    sa = ax[:, None] * nx + ay[:, None] * ny - c_n
    if n_seg >= len(ax):
        sb = bx[:, None] * nx + by[:, None] * ny - c_n
        across = (np.maximum(sa, sb) >= -slack) & (np.minimum(sa, sb) <= slack)
        return sa, sb, across
    sb = np.empty_like(sa)
    sb[n_seg:] = sa[n_seg:]
    across = np.empty(sa.shape, dtype=bool)
    np.less_equal(np.abs(sa[n_seg:]), slack[n_seg:], out=across[n_seg:])
    if n_seg:
        sas, sbs, sls = sa[:n_seg], sb[:n_seg], slack[:n_seg]
        np.multiply(bx[:n_seg, None], nx, out=sbs)
        sbs += by[:n_seg, None] * ny
        sbs -= c_n
        np.logical_and(np.maximum(sas, sbs) >= -sls, np.minimum(sas, sbs) <= sls,
                       out=across[:n_seg])
    return sa, sb, across


def _cols(x: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``x[:, idx]`` for a (2, N) array, by ``take`` (the same elements)."""
    return x.take(idx, axis=1)


def _nz2(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``x.nonzero()`` for a 2-D boolean array: the flat nonzero indices split by ``divmod``
    (the same (row, column) pairs in the same row-major order; the 2-D ``nonzero`` steps an
    iterator element by element, ~5x the cost)."""
    if x.shape[1] == 0:
        r0, c0 = x.nonzero()
        return r0, c0
    r, c = np.divmod(x.ravel().nonzero()[0], x.shape[1])
    return r, c


_SCENE: list[_SceneArrays] = kept.slot()
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
    the 3-D end points' parameters (same formulas as ``evaluate_lines``), under the caller's
    error state (:func:`batch_sight`'s: invalid square roots are masked)."""
    n = len(oc)
    # both discs at once, the observer's chords then the target's: each centre from the
    # observer's (``oc - oc``, ``tc - oc``), the same operations element by element as disc
    # by disc
    c = np.concatenate((oc - oc, tc - oc))
    d2 = np.concatenate((d, d))
    r = np.concatenate((ro, rt))
    cx, cy = c[:, 0], c[:, 1]
    s = cx * d2[:, 0] + cy * d2[:, 1]
    perp2 = cx * cx + cy * cy - s * s
    rr = r * r
    ok = perp2 <= rr + _E9
    half = np.sqrt(np.maximum(rr - perp2, _ZERO))
    lo, hi = s - half, s + half  # (o0, t0), (o1, t1)
    valid = ok[:n] & ok[n:]
    flip = (lo[:n] + hi[:n]) > (lo[n:] + hi[n:])
    sgn = np.where(flip, _MINUS_ONE, _ONE)
    # (turned round where flipped: o0, o1 = -o1, -o0, and t0, t1 = -t1, -t0)
    flip2 = np.concatenate((flip, flip))
    lo, hi = np.where(flip2, -hi, lo), np.where(flip2, -lo, hi)
    o0, o1, t0, t1 = lo[:n], hi[:n], lo[n:], hi[n:]
    dd = d * sgn[:, None]
    # the observer's end: o1 unless the observer is lower (o0); the target's: t1 where the
    # observer is higher, else t0 (``top_o > top_t`` and ``top_o < top_t`` both false on
    # equal tops, as in the nested choice of ``evaluate_lines``)
    te_o = np.where(top_o < top_t, o0, o1)
    te_t = np.where(top_o > top_t, t1, t0)
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
    centre: tuple[FloatArray, FloatArray],
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
    # (the centre segments' lengths and directions ``(tc - oc) / length``, batch_sight's:
    # the same operations on the same floats as computed here before)
    length, d = centre
    apart = todo & (length > ro + rt + _E6)
    sel = apart[kp] & (obs.top[ke] > highest[kp] + _E12)
    wp, we = kp[sel], ke[sel]
    if len(wp) == 0:
        return out
    # outer common tangents of the two discs (closed form, as _outer_sides)
    hx, hy = d[:, 0], d[:, 1]
    cosv = (ro - rt) / length
    sv = np.sqrt(np.maximum(_ONE - cosv * cosv, _ZERO))
    half = _HALF * obs.grow[we]
    wa, wb = _cols(sc.a_t, we), _cols(sc.b_t, we)  # (2, W): x, y rows
    # both sides at once, row 0 the side of sign +1, row 1 that of sign -1 (the same
    # operations element by element as side by side, so the same floats)
    sign = _SIGNS
    nx = hx * cosv - sign * hy * sv  # (2, P)
    ny = hy * cosv + sign * hx * sv
    spx, spy = oc[:, 0] + ro * nx, oc[:, 1] + ro * ny
    sqx, sqy = tc[:, 0] + rt * nx, tc[:, 1] + rt * ny
    # an edge whose two ends lie on one side of the side's line (unit normal ``n``, through
    # both tangent points), both more than half its grow (and a hair) away, is farther
    # than that from the side; so is one whose two ends lie, along the side (unit
    # direction ``n`` turned a quarter, its length ``slen``), both before its start or
    # both after its end by that much: the exact distances only for the other couples
    # (the sides' start points, normals and far ends along them, (2, P) each, gathered for
    # the couples' pairs by one ``take``: the same elements as ``x[:, wp]`` of each)
    g_end = nx * (sqy - spy) - ny * (sqx - spx)  # the side's far end, along it
    cw = _cols(np.concatenate((spx, spy, nx, ny, g_end)), wp).reshape(5, 2, len(wp))
    wx, wy, nxw, nyw, g_end = cw  # (2, W) each
    ax_, ay_, bx_, by_ = wa[0] - wx, wa[1] - wy, wb[0] - wx, wb[1] - wy
    fa, fb = nxw * ax_ + nyw * ay_, nxw * bx_ + nyw * by_
    ga, gb = nxw * ay_ - nyw * ax_, nxw * by_ - nyw * bx_
    lim = half + _E9
    g_lo, g_hi = np.minimum(g_end, _ZERO) - lim, np.maximum(g_end, _ZERO) + lim
    far = (((fa > lim) & (fb > lim)) | ((fa < -lim) & (fb < -lim))
           | ((ga < g_lo) & (gb < g_lo)) | ((ga > g_hi) & (gb > g_hi)))
    # (by flat indices: ``fw`` into the (2, W) arrays, ``fp`` into the (2, P) ones)
    fw = (~far).ravel().nonzero()[0]
    si, wi = np.divmod(fw, len(wp))
    fp = si * n_p + wp[wi]
    wei = we[wi]
    meets = np.zeros((2, len(wp)), dtype=bool)
    # (the sides' end points as (side end, x / y, side x pair) rows, gathered at once: the
    # four (2, P) arrays one after the other are that layout)
    ends = np.concatenate((spx, spy, sqx, sqy)).reshape(2, 2, 2 * n_p).take(fp, axis=2)
    meets.ravel()[fw] = seg_dist_rows(ends[0], ends[1], _cols(sc.a_t, wei),
                                      _cols(sc.b_t, wei)) <= half[wi]
    n_own = sc.n_own
    own = obs.owner[we]
    convex = obs.convex[own]
    # the (pair, obstacle) candidates: a convex obstacle with edges meeting both sides, or
    # one edge meeting both (that edge grown by half the grow is convex); as a pair x
    # obstacle matrix, read in (pair, obstacle) order
    m0, m1 = meets[0] & convex, meets[1] & convex
    one = meets[0] & meets[1]
    side0 = np.zeros((n_p, n_own), dtype=bool)
    side1 = np.zeros((n_p, n_own), dtype=bool)
    both = np.zeros((n_p, n_own), dtype=bool)
    pwo = wp * n_own + own
    side0.ravel()[pwo[m0]] = True
    side1.ravel()[pwo[m1]] = True
    both.ravel()[pwo[one]] = True
    both |= side0 & side1
    cp, ck = _nz2(both)
    if len(cp) == 0:
        return out
    # every edge of each candidate obstacle
    start = sc.own_start[ck]
    count = sc.own_stop[ck] - start
    first = np.cumsum(count) - count
    rep = np.repeat(np.arange(len(cp)), count)
    edge = start[rep] + (np.arange(len(rep)) - first[rep])
    # (points and vectors as (2, N) rows (x, y): the same operations element by element as
    # on (N, 2) rows, each along the edges; a sum of two terms is their one addition, as
    # ``sum(axis=1)`` adds them)
    # (both discs at once: the couples' edge rows for the observer's disc, then the same
    # rows for the target's, side by side; element by element the floats of the disc by
    # disc test, the reductions over each disc's own groups, and a candidate kept where
    # both discs are clear)
    n_c, n_e = len(cp), len(edge)
    edge2 = np.concatenate((edge, edge))
    ea, eb = _cols(sc.a_t, edge2), _cols(sc.b_t, edge2)
    ab, den = _cols(sc.ab_t, edge2), sc.den.take(edge2)
    cpr = cp[rep]
    p = _cols(np.concatenate((oc.T, tc.T), axis=1), np.concatenate((cpr, cpr + n_p)))
    first2 = np.concatenate((first, first + n_e))
    ap = p - ea
    u = np.minimum(np.maximum((ap[0] * ab[0] + ap[1] * ab[1]) / den, _ZERO), _ONE)
    off_x, off_y = ap[0] - ab[0] * u, ap[1] - ab[1] * u
    dist = np.sqrt(off_x * off_x + off_y * off_y)
    gap = obs.grow[start] + _E6
    reach = np.concatenate((ro.take(cp) + gap, rt.take(cp) + gap))
    ok2 = np.minimum.reduceat(dist, first2) > reach
    # centre inside the polygon (3+ edges; even-odd, convex or not: the centre is far
    # from every edge here, so no crossing is in doubt)
    cond = (ea[1] > p[1]) != (eb[1] > p[1])
    xint = ea[0] + (p[1] - ea[1]) * ab[0] / ab[1]
    odd = np.add.reduceat((cond & (p[0] < xint)).astype(np.int64), first2) % _TWO == _ONE_INT
    big = count >= 3
    ok2 &= ~(odd & np.concatenate((big, big)))
    ok = ok2[:n_c] & ok2[n_c:]
    out[cp[ok]] = True
    return out
