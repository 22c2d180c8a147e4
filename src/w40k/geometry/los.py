"""Exact 1 mm line of sight between two convex footprints among blockers (06.01, 13.10, 13.11).

The model (see docs/geometry.md):

* Every blocker is an *obstacle*: a plan polygon (or a single point) grown by a radius
  ``grow`` (0.5 mm for physical blockers, so that the 1 mm line's half width is accounted
  for; a model base of radius r is a point grown by r + 0.5 mm; an obscuring terrain area
  grows by 0 because 13.10 asks whether the line *crosses* it), standing on the ground up
  to a height ``top`` (``inf`` for obscuring areas). A line of sight is blocked by an
  obstacle where its centre line comes closer than ``grow`` to the obstacle's polygon
  while the line is *below* ``top`` there.
* The observer and the target are vertical columns over convex footprints. For a given plan
  line, the highest 3-D line joins the two tops, so the tops are used (a lower line is
  blocked by everything that blocks the higher one). The end points on the plan line are
  chosen optimally: the lower model is seen at the far rim of its top (its top face shows),
  the higher one from the near rim.
* Critical lines: if some clear line exists, one can be moved until it touches two of the
  constraints: tangent to two of {observer, target, grown obstacle vertices}. Those common
  tangents (closed form for discs; numeric roots of the support-function equations for ovals)
  are the candidate lines; each is checked exactly (vectorised over candidates x edges).
* Height cases: obstacles no higher than both tops never block; obstacles higher than both
  tops block like walls (the 2-D problem above is exact for them). Obstacles in between
  ("partial") block only part of a line. A clear candidate is a witness (CLEAR); no clear
  line for the walls alone proves BLOCKED; otherwise no candidate line clears the partial
  obstacles and the result is ``Sight.CONVENTION`` (named ``PARTIAL_HEIGHT``), which the
  rules layer reads as "not visible" by default.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence

import numpy as np

from w40k.geometry.los_dist import (
    _centre,
    _chain_joins,
    _clear_of,
    _joining_reach,
    _seg_dist,
    _seg_dist1,
)
from w40k.geometry.los_obstacles import TOUCH as TOUCH
from w40k.geometry.los_obstacles import Obstacles as Obstacles
from w40k.geometry.los_obstacles import Sight as Sight
from w40k.geometry.los_obstacles import SightResult as SightResult
from w40k.geometry.los_owned import owned_above as owned_above
from w40k.geometry.los_owned import owned_above_masks as owned_above_masks
from w40k.geometry.los_sides import _as_discs as _as_discs
from w40k.geometry.los_sides import _box as _box
from w40k.geometry.los_sides import _box_of as _box_of
from w40k.geometry.los_sides import _circumradius as _circumradius
from w40k.geometry.los_sides import _hull_stand_in as _hull_stand_in
from w40k.geometry.los_sides import _may_meet_both as _may_meet_both
from w40k.geometry.los_sides import _outer_sides as _outer_sides
from w40k.geometry.los_sides import _outer_sides_of as _outer_sides_of
from w40k.geometry.los_sweep import shadows_cover
from w40k.geometry.shapes import Circle, FloatArray, Oval, Polygon, Shape
from w40k.geometry.tangents import (
    disc_tangents,
    numeric_tangents,
    oval_circle_tangents,
    support_of,
)

# ---------------------------------------------------------------- geometry kernels


def _chords(
    shape: Shape, a: FloatArray, d: FloatArray
) -> tuple[FloatArray, FloatArray, np.ndarray]:
    """For lines ``a + t d`` (unit d), the t-interval inside the shape and a validity mask."""
    if isinstance(shape, Circle):
        cx = shape.cx - a[:, 0]
        cy = shape.cy - a[:, 1]
        s = cx * d[:, 0] + cy * d[:, 1]
        perp2 = cx * cx + cy * cy - s * s
        ok = perp2 <= shape.r * shape.r + 1e-9
        half = np.sqrt(np.maximum(shape.r * shape.r - perp2, 0.0))
        return s - half, s + half, ok
    if isinstance(shape, Oval):
        c, sn = math.cos(shape.angle), math.sin(shape.angle)
        px, py = a[:, 0] - shape.cx, a[:, 1] - shape.cy
        u0 = (px * c + py * sn) / shape.a
        v0 = (-px * sn + py * c) / shape.b
        du = (d[:, 0] * c + d[:, 1] * sn) / shape.a
        dv = (-d[:, 0] * sn + d[:, 1] * c) / shape.b
        qa = du * du + dv * dv
        qb = 2 * (u0 * du + v0 * dv)
        qc = u0 * u0 + v0 * v0 - 1.0
        disc = qb * qb - 4 * qa * qc
        ok = disc >= -1e-9 * qa
        root = np.sqrt(np.maximum(disc, 0.0))
        return (-qb - root) / (2 * qa), (-qb + root) / (2 * qa), ok
    nrm, off = _planes(shape)
    num = off[None, :] - a @ nrm.T  # n.(a + t d) <= off  ->  t * (n.d) <= off - n.a
    den = d @ nrm.T
    with np.errstate(divide="ignore", invalid="ignore"):
        tt = num / den
    lo = np.where(den < -1e-15, tt, -np.inf).max(axis=1)
    hi = np.where(den > 1e-15, tt, np.inf).min(axis=1)
    par_ok = np.where(np.abs(den) <= 1e-15, num >= -1e-9, True).all(axis=1)
    ok = (lo <= hi + 1e-9) & par_ok
    return lo, hi, ok


@functools.lru_cache(maxsize=4096)
def _planes(shape: Polygon) -> tuple[FloatArray, FloatArray]:
    """A polygon's outward unit edge normals and their offsets (``n.x <= off`` inside), for
    :func:`_chords`; kept per polygon (a pure function of it), the arrays read-only."""
    pts = shape.array()
    nxt = np.roll(pts, -1, axis=0)
    e = nxt - pts
    cen = pts.mean(axis=0)
    nrm = np.stack([e[:, 1], -e[:, 0]], axis=1)
    side = ((cen - pts) * nrm).sum(axis=1)
    nrm = np.where((side > 0)[:, None], -nrm, nrm)  # outward normals
    nrm = nrm / np.maximum(np.linalg.norm(nrm, axis=1), 1e-300)[:, None]
    off = (nrm * pts).sum(axis=1)
    nrm.setflags(write=False)
    off.setflags(write=False)
    return nrm, off


def candidate_lines(
    o: Shape, t: Shape, obs: Obstacles, stage: int = 0
) -> tuple[FloatArray, FloatArray]:
    """Critical lines: common tangents of every pair among the observer, the target and the
    grown obstacle vertices, plus the centre line. Returns (points (k, 2), unit dirs (k, 2))."""
    oc, tc = np.asarray(o.center), np.asarray(t.center)
    dvec = tc - oc
    L = float(np.hypot(*dvec))
    pts_l: list[FloatArray] = []
    dirs_l: list[FloatArray] = []
    if L > 1e-12:
        pts_l.append(oc[None, :])
        dirs_l.append((dvec / L)[None, :])
    groups = list(_tangent_groups(o, t, obs, stage))
    if groups:
        a, d = _lines(np.concatenate([g[0] for g in groups]),
                      np.concatenate([g[1] for g in groups]))
        pts_l.append(a)
        dirs_l.append(d)
    if not pts_l:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(pts_l), np.concatenate(dirs_l)


OVAL_CHUNK = 8
"""Discs in the first group of oval tangents (:func:`_tangent_groups`; each next group four
times as many): a clear line among the first groups spares the numeric tangents of the
rest."""


def _lines(nn: FloatArray, oo: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Tangent lines (unit normals, offsets) as (points, unit directions)."""
    return nn * oo[:, None], np.stack([-nn[:, 1], nn[:, 0]], axis=1)


def _tangent_groups(
    o: Shape, t: Shape, obs: Obstacles, stage: int
) -> Iterator[tuple[FloatArray, FloatArray]]:
    """The tangent lines of :func:`candidate_lines` (normals, offsets) without the centre
    line, in groups whose concatenation is its order: the disc pairs (stage 1: those touching
    the observer or the target; stage 2: vertex-vertex pairs), then per oval footprint its
    tangents with the other footprint and with the obstacles' discs, :data:`OVAL_CHUNK` discs
    at a time (each line is computed element by element, so the same bits in any group).
    Made lazily: a caller that stops at its first clear line skips the rest."""
    yield from _disc_groups(o, t, obs, stage)
    yield from _oval_groups(o, t, obs, stage)


def _disc_groups(
    o: Shape, t: Shape, obs: Obstacles, stage: int
) -> Iterator[tuple[FloatArray, FloatArray]]:
    """The first part of :func:`_tangent_groups`: the common tangents of the disc pairs (the
    footprints' discs, the obstacles' grown vertices) of the stage, in one group."""
    prims_c: list[FloatArray] = []
    prims_r: list[FloatArray] = []
    odisc, tdisc = _as_discs(o), _as_discs(t)
    for dsc in (odisc, tdisc):
        if dsc is not None:
            prims_c.append(dsc[0])
            prims_r.append(dsc[1])
    prims_c.append(obs.verts)
    prims_r.append(obs.vert_grow)
    cc = np.concatenate(prims_c)
    rr = np.concatenate(prims_r)
    n = len(cc)
    n_ot = sum(len(c) for c in prims_c[:-1])
    if n >= 2:
        # stage 1: lines touching the observer or target; stage 2: vertex-vertex lines
        i, j = _pairs(n, n_ot, stage)
        yield disc_tangents(cc[i], rr[i], cc[j], rr[j])


def _oval_groups(
    o: Shape, t: Shape, obs: Obstacles, stage: int
) -> Iterator[tuple[FloatArray, FloatArray]]:
    """The rest of :func:`_tangent_groups` (stages 0 and 1 only): per oval footprint its
    tangents with the other footprint and with the obstacles' discs, in chunks."""
    ovals = [s for s in (o, t) if isinstance(s, Oval)] if stage in (0, 1) else []
    for ov in ovals:
        other = t if ov is o else o
        vx, vy, vr = obs.verts[:, 0], obs.verts[:, 1], obs.vert_grow
        if isinstance(other, Circle):  # with the obstacles' discs, in the same order
            vx = np.concatenate([[other.cx], vx])
            vy = np.concatenate([[other.cy], vy])
            vr = np.concatenate([[other.r], vr])
        else:
            yield numeric_tangents(support_of(ov), support_of(other))
        lo, size = 0, OVAL_CHUNK
        while lo < len(vx):
            hi = lo + size
            yield oval_circle_tangents(ov, vx[lo:hi], vy[lo:hi], vr[lo:hi])
            lo, size = hi, size * 4


def _pairs(n: int, n_ot: int, stage: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``i < j`` of ``np.triu_indices(n, 1)`` in its order (by ``i``, then ``j``):
    all (stage 0), those with ``i < n_ot`` (stage 1), those with ``i >= n_ot`` (stage 2),
    built directly instead of selected from all ``n * (n - 1) / 2``."""
    if stage == 2:
        i, j = np.triu_indices(n - n_ot, 1)
        return i + n_ot, j + n_ot
    if stage != 1:
        return np.triu_indices(n, 1)
    rows = [np.arange(k + 1, n) for k in range(min(n_ot, n))]
    i = np.repeat(np.arange(len(rows)), [len(r) for r in rows])
    return i, np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)


def evaluate_lines(
    o: Shape, top_o: float, t: Shape, top_t: float, obs: Obstacles, a: FloatArray, d: FloatArray,
    wall_edge: np.ndarray | None = None, wall_free: list[bool] | None = None,
) -> tuple[np.ndarray, FloatArray, FloatArray]:
    """Which candidate lines give a clear 1 mm line of sight (exact per line).

    Returns (clear mask, observer-side plan points, target-side plan points). With
    ``wall_edge`` (a mask of the edges of ``obs``) and ``wall_free``, True is appended to
    ``wall_free`` when some line through both footprints (not overlapping) is blocked by no
    edge of the mask (:func:`lines_hit`'s own tests: the answer is unchanged)."""
    o0, o1, ook = _chords(o, a, d)
    t0, t1, tok = _chords(t, a, d)
    valid = ook & tok
    o1, t0, d, te_o, te_t = oriented(o0, o1, t0, t1, d, top_o, top_t)
    a = a.copy()
    overlap = o1 >= t0
    pn = a + d * o1[:, None]
    qn = a + d * t0[:, None]
    if len(obs.a) == 0:
        return valid, pn, qn
    # the obstacles are tested only on the lines that can still be clear: through both
    # footprints and not overlapping (row by row, so the same answers)
    rows = np.nonzero(valid & ~overlap)[0]
    clear = valid & overlap
    if len(rows) == 0:
        return clear, pn, qn
    wall_hit = None if wall_free is None else np.zeros(len(rows), dtype=bool)
    clear[rows] = ~lines_hit(a[rows], d[rows], o1[rows], t0[rows], te_o[rows], te_t[rows],
                             top_o, top_t, obs, wall_edge, wall_hit)
    if wall_free is not None and wall_hit is not None and not wall_hit.all():
        wall_free.append(True)
    return clear, pn, qn


def oriented(o0: FloatArray, o1: FloatArray, t0: FloatArray, t1: FloatArray, d: FloatArray,
             top_o: float, top_t: float
             ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """Each line oriented from the observer to the target (its direction and both chords
    flipped where the target's chord comes first): the observer's far rim ``o1``, the
    target's near rim ``t0``, the direction, and the 3-D end points ``te_o``, ``te_t`` (the
    lower model's far rim, the higher model's near rim). Shared by :func:`evaluate_lines`
    and ``cover_lines`` (the same floats)."""
    flip = (o0 + o1) > (t0 + t1)
    sgn = np.where(flip, -1.0, 1.0)
    o0, o1 = np.where(flip, -o1, o0), np.where(flip, -o0, o1)
    t0, t1 = np.where(flip, -t1, t0), np.where(flip, -t0, t1)
    d = d * sgn[:, None]
    if top_o > top_t:
        return o1, t0, d, o1, t1
    if top_o < top_t:
        return o1, t0, d, o0, t0
    return o1, t0, d, o1, t0


def lines_hit(a: FloatArray, d: FloatArray, o1: FloatArray, t0: FloatArray,
              te_o: FloatArray, te_t: FloatArray, top_o: float, top_t: float,
              obs: Obstacles, wall_edge: np.ndarray | None = None,
              wall_hit: np.ndarray | None = None) -> np.ndarray:
    """Per line (start ``a``, unit direction ``d`` oriented from the observer to the
    target): an obstacle edge blocks the part between the observer's far rim ``o1`` and
    the target's near rim ``t0`` (:func:`evaluate_lines`, the lines through both
    footprints that do not overlap; ``te_o``/``te_t`` the 3-D end points). Shared with
    ``cover_lines`` so both give the same floats. ``wall_hit`` (per line), when given
    with an edge mask ``wall_edge``, is set where an edge of the mask blocks the line."""
    span = np.maximum(te_t - te_o, 1e-12)
    H = obs.top[None, :]
    lo = np.broadcast_to(o1[:, None], (len(a), len(obs.a))).copy()
    hi = np.broadcast_to(t0[:, None], (len(a), len(obs.a))).copy()
    dz = top_t - top_o
    if abs(dz) > 1e-12:
        with np.errstate(divide="ignore", invalid="ignore"):
            tstar = te_o[:, None] + (H - top_o) / dz * span[:, None]
        if dz < 0:  # height falls towards the target: blocked beyond tstar
            lo = np.maximum(lo, np.where(np.isfinite(tstar), tstar, -np.inf))
        else:  # blocked before tstar
            hi = np.minimum(hi, np.where(np.isfinite(tstar), tstar, np.inf))
    never = (min(top_o, top_t) + 1e-12 >= H) & np.isfinite(H)
    active = (hi > lo) & ~never
    # an edge whose two ends lie on one side of a line, both at least its grow away from the
    # (infinite, unit-direction) line, is farther than that from the line's segment: it is
    # not hit (the test below needs ``grow - TOUCH``; the margin dwarfs rounding), so the
    # exact distances are computed only for the other (line, edge) pairs, element by element
    # as they were for every pair (the same floats)
    # (likewise an edge whose two ends lie, along the line, both before the tested part's
    # start or both after its end by the grow or more)
    ax, ay = obs.a[None, :, 0] - a[:, 0:1], obs.a[None, :, 1] - a[:, 1:2]
    bx, by = obs.b[None, :, 0] - a[:, 0:1], obs.b[None, :, 1] - a[:, 1:2]
    dx, dy = d[:, 0:1], d[:, 1:2]
    sa, sb = dx * ay - dy * ax, dx * by - dy * bx
    ua, ub = dx * ax + dy * ay, dx * bx + dy * by
    g = obs.grow[None, :]
    far = ((sa >= g) & (sb >= g)) | ((sa <= -g) & (sb <= -g))
    far |= (np.maximum(ua, ub) <= lo - g) | (np.minimum(ua, ub) >= hi + g)
    near = active & ~far
    ri, ei = np.nonzero(near)
    p1 = a[ri] + d[ri] * lo[ri, ei][:, None]
    p2 = a[ri] + d[ri] * hi[ri, ei][:, None]
    dist = _seg_dist(p1, p2, obs.a[ei], obs.b[ei])
    hit_rows = np.zeros(len(a), dtype=bool)
    blocks = dist < obs.grow[ei] - TOUCH
    hit_rows[ri[blocks]] = True
    if wall_hit is not None and wall_edge is not None:
        wall_hit[ri[blocks & wall_edge[ei]]] = True
    return hit_rows


def _chord1(s: Shape, ax: float, ay: float, dx: float, dy: float) -> tuple[float, float, bool]:
    """:func:`_chords` for one line (point ``ax, ay``, unit direction ``dx, dy``): a circle or
    an oval in float arithmetic (the same operations in the same order, so the same floats),
    a polygon by :func:`_chords` itself (its matrix product is not written out)."""
    if isinstance(s, Circle):
        cx = s.cx - ax
        cy = s.cy - ay
        sp = cx * dx + cy * dy
        perp2 = cx * cx + cy * cy - sp * sp
        ok = perp2 <= s.r * s.r + 1e-9
        half = math.sqrt(max(s.r * s.r - perp2, 0.0))
        return sp - half, sp + half, ok
    if isinstance(s, Oval):
        c, sn = math.cos(s.angle), math.sin(s.angle)
        px, py = ax - s.cx, ay - s.cy
        u0 = (px * c + py * sn) / s.a
        v0 = (-px * sn + py * c) / s.b
        du = (dx * c + dy * sn) / s.a
        dv = (-dx * sn + dy * c) / s.b
        qa = du * du + dv * dv
        qb = 2 * (u0 * du + v0 * dv)
        qc = u0 * u0 + v0 * v0 - 1.0
        disc = qb * qb - 4 * qa * qc
        ok = disc >= -1e-9 * qa
        root = math.sqrt(max(disc, 0.0))
        return (-qb - root) / (2 * qa), (-qb + root) / (2 * qa), ok
    lo, hi, okk = _chords(s, np.array([[ax, ay]]), np.array([[dx, dy]]))
    return float(lo[0]), float(hi[0]), bool(okk[0])


EdgeRow = tuple[float, float, float, float, float, float]
"""One obstacle edge in Python floats: its ends ``ax, ay, bx, by``, grow and top."""


def _edge_rows(obs: Obstacles) -> list[EdgeRow]:
    """The obstacle edges as :data:`EdgeRow` rows (the arrays' own floats), for the float
    line tests of :func:`_line_clear`."""
    return [(qa[0], qa[1], qb[0], qb[1], g, h)
            for qa, qb, g, h in zip(obs.a.tolist(), obs.b.tolist(), obs.grow.tolist(),
                                    obs.top.tolist(), strict=True)]


def _line_clear(
    o: Shape, top_o: float, t: Shape, top_t: float, obs: Obstacles,
    ax: float, ay: float, dx: float, dy: float, rows: list[EdgeRow] | None = None,
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """:func:`evaluate_lines` for one line (the centre line, asked first by every search):
    its (observer side, target side) plan points when it is clear, else None. The line's
    values and each edge's in float arithmetic, edge by edge: the same operations in the
    same order as the (lines x edges) arrays of :func:`evaluate_lines` (``max``/``min`` keep
    the first of equal values as ``np.maximum``/``np.minimum`` do; the distance is
    :func:`_seg_dist1`), so the same floats and the same answer, without numpy's per-call
    cost on the few dozen edges near the pair. ``rows``: ``_edge_rows(obs)`` when the caller
    has them."""
    o0, o1, ook = _chord1(o, ax, ay, dx, dy)
    t0, t1, tok = _chord1(t, ax, ay, dx, dy)
    if not (ook and tok):
        return None
    # orient the line from the observer to the target
    if (o0 + o1) > (t0 + t1):
        dx, dy = dx * -1.0, dy * -1.0
        o0, o1 = -o1, -o0
        t0, t1 = -t1, -t0
    pts = ((ax + dx * o1, ay + dy * o1), (ax + dx * t0, ay + dy * t0))
    if o1 >= t0 or len(obs.a) == 0:
        return pts
    # 3-D end points: the lower model's far rim, the higher model's near rim
    if top_o > top_t:
        te_o, te_t = o1, t1
    elif top_o < top_t:
        te_o, te_t = o0, t0
    else:
        te_o, te_t = o1, t0
    span = max(te_t - te_o, 1e-12)
    dz = top_t - top_o
    sloped = abs(dz) > 1e-12
    lowest = min(top_o, top_t) + 1e-12
    inf = math.inf
    for qax, qay, qbx, qby, g, h in _edge_rows(obs) if rows is None else rows:
        if lowest >= h and math.isfinite(h):  # never blocks (not above both tops)
            continue
        lo, hi = o1, t0
        if sloped:
            tstar = te_o + (h - top_o) / dz * span
            fin = math.isfinite(tstar)
            if dz < 0:  # height falls towards the target: blocked beyond tstar
                lo = max(lo, tstar if fin else -inf)
            else:  # blocked before tstar
                hi = min(hi, tstar if fin else inf)
        if not hi > lo:
            continue
        ex, ey = qax - ax, qay - ay
        fx, fy = qbx - ax, qby - ay
        sa, sb = dx * ey - dy * ex, dx * fy - dy * fx
        if (sa >= g and sb >= g) or (sa <= -g and sb <= -g):
            continue
        ua, ub = dx * ex + dy * ey, dx * fx + dy * fy
        if max(ua, ub) <= lo - g or min(ua, ub) >= hi + g:
            continue
        if _seg_dist1(ax + dx * lo, ay + dy * lo, ax + dx * hi, ay + dy * hi,
                      qax, qay, qbx, qby) < g - TOUCH:
            return None
    return pts


FIRST_LINES = 8
"""Stage 1's first lines that :func:`_first_clear` tries one by one in floats (most searches
that find a clear line find it among these)."""


def _first_clear(
    o: Circle, top_o: float, t: Circle, top_t: float, obs: Obstacles, rows: list[EdgeRow],
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The first :data:`FIRST_LINES` lines of stage 1 (round footprints), one by one in
    floats: the witness of the first clear one, or None (then none of them is clear). They
    are the first lines of :func:`disc_tangents`' first group (the outer tangents of sign
    +1 of the pairs of :func:`_pairs`, stage 1, in order, the pairs of coincident centres
    or nested discs left out), each made by the same operations in the same order as there
    and in :func:`_lines` (a two-element ``sum`` is one addition; ``sign * dp * sv`` with
    ``sign`` 1.0), and tested by :func:`_line_clear` (the floats of
    :func:`evaluate_lines`). So the same line, answer and witness as the arrays give for
    it: the first clear line among them is the search's first clear line of stage 1."""
    od, td = (o.cx, o.cy, o.r), (t.cx, t.cy, t.r)
    verts = [(v[0], v[1], g) for v, g in zip(obs.verts.tolist(), obs.vert_grow.tolist(),
                                             strict=True)]
    made = 0
    # the pairs (observer, target), (observer, each vertex), (target, each vertex)
    for (c1x, c1y, r1), others in ((od, [td, *verts]), (td, verts)):
        for c2x, c2y, r2 in others:
            dx, dy = c2x - c1x, c2y - c1y
            length = math.sqrt(dx * dx + dy * dy)
            if not length > 1e-12:
                continue
            cosv = (r1 - r2) / length
            if not abs(cosv) <= 1.0:
                continue
            dhx, dhy = dx / length, dy / length
            sv = math.sqrt(max(1.0 - cosv * cosv, 0.0))
            nx = dhx * cosv + 1.0 * -dhy * sv
            ny = dhy * cosv + 1.0 * dhx * sv
            off = nx * c1x + ny * c1y + r1
            hit = _line_clear(o, top_o, t, top_t, obs, nx * off, ny * off, -ny, nx, rows)
            if hit is not None:
                return hit
            made += 1
            if made == FIRST_LINES:
                return None
    return None


def relevant(o: Shape, t: Shape, obs: Obstacles) -> Obstacles:
    """Obstacles whose grown outline comes near the hull of the two footprints."""
    if len(obs.a) == 0:
        return obs
    owners = _owner_mask(obs, _relevant_edges(o, t, obs))
    return obs.subset(owners[obs.owner], owners[obs.vert_owner])


def _relevant_edges(o: Shape, t: Shape, obs: Obstacles) -> np.ndarray:
    """Edges within reach of the capsule around the centre segment that holds both
    footprints (boxes first, then exact distances for the few that pass)."""
    oc = np.asarray(_centre(o))
    tc = np.asarray(_centre(t))
    rad = max(_circumradius(o), _circumradius(t))
    reach = rad + obs.grow + 1e-9
    lo, hi = np.minimum(oc, tc), np.maximum(oc, tc)
    emin = np.minimum(obs.a, obs.b) - reach[:, None]
    emax = np.maximum(obs.a, obs.b) + reach[:, None]
    near = ((emax >= lo) & (emin <= hi)).all(axis=1)
    idx = np.nonzero(near)[0]
    dist = _seg_dist(oc[None, :], tc[None, :], obs.a[idx], obs.b[idx])
    out = np.zeros(len(obs.a), dtype=bool)
    out[idx[dist <= reach[idx]]] = True
    return out


def _owner_mask(obs: Obstacles, edges: np.ndarray) -> np.ndarray:
    """Boolean lookup by obstacle index: some selected edge belongs to it."""
    size = int(max(obs.owner.max(initial=-1), obs.vert_owner.max(initial=-1))) + 1
    owners = np.zeros(size, dtype=bool)
    owners[obs.owner[edges]] = True
    return owners


def relevant_obstacles(o: Shape, t: Shape, lowest: float, obstacles: Obstacles) -> Obstacles:
    """The obstacles a line between the two footprints can meet: those with an edge near the
    pair, less the parts no higher than the lower column (``lowest``: a line over them)."""
    obs = obstacles
    if len(obs.a):
        obs = owned_above_masks(obs, _owner_mask(obs, _relevant_edges(o, t, obs)), lowest)
    return obs


def line_of_sight(
    o: Shape, top_o: float, t: Shape, top_t: float, obstacles: Obstacles,
    owners: np.ndarray | None = None, centre_blocked: bool = False,
) -> SightResult:
    """Whether a 1 mm line of sight joins the two columns among the obstacles (exact up to
    the PARTIAL_HEIGHT convention, see module docstring). ``owners``: the obstacles of
    ``obstacles`` that :func:`relevant_obstacles` keeps for the pair, when the caller knows
    them already (a boolean row by obstacle index, e.g. :func:`~w40k.geometry.los_batch.
    batch_sight`'s relevance for a pair it left open: the same edges by the same tests), so
    the relevance step is not run again; the answer is the same. ``centre_blocked``: the
    caller knows the centre line is not clear among these obstacles (the batch evaluates it
    as :func:`_line_clear` does for the pairs it leaves open), so it is not evaluated again."""
    lowest = min(top_o, top_t)
    obs = (relevant_obstacles(o, t, lowest, obstacles) if owners is None
           else owned_above(obstacles, owners, lowest) if len(obstacles.a) else obstacles)
    oc = np.asarray(_centre(o), dtype=np.float64)
    tc = np.asarray(_centre(t), dtype=np.float64)
    if len(obs.a) == 0:
        return SightResult(Sight.CLEAR, (_centre(o), _centre(t)))
    dvec = tc - oc
    L = float(np.hypot(*dvec))
    rows = _edge_rows(obs)
    if L > 1e-12 and not centre_blocked:
        d = dvec / L
        hit = _line_clear(o, top_o, t, top_t, obs, float(oc[0]), float(oc[1]), float(d[0]),
                          float(d[1]), rows)
        if hit is not None:
            return SightResult(Sight.CLEAR, hit)
    round_pair = isinstance(o, Circle) and isinstance(t, Circle)
    if isinstance(o, Circle) and isinstance(t, Circle):
        # stage 1's first lines one by one (the first clear one is the search's witness)
        hit = _first_clear(o, top_o, t, top_t, obs, rows)
        if hit is not None:
            return SightResult(Sight.CLEAR, hit)
    # after the centre line: a clear centre line means no wall separates (the proof is
    # sound); round footprints leave it to the shadows' proof below, which proves those
    # cases too and many more (the batch tried the proof on most of them already)
    elif _single_wall_separates(o, top_o, t, top_t, obs):
        return SightResult(Sight.BLOCKED)
    # the candidate lines of stages 1 and 2 in their order, group by group: the first clear
    # one is the witness (each line is evaluated on its own, so the same answer and witness
    # as all at once; the centre line, first of each stage, is not clear). The proofs of
    # BLOCKED are tried before some groups (a proof holds only when no candidate line is
    # clear, so where it is tried changes no answer, and a BLOCKED answer has no witness):
    # the walls' shadows covering every line between the footprints (los_sweep), then a
    # chain of walls that separates them (los_chain), before the vertex-vertex lines (most
    # of the lines) and before an oval's numeric tangents (stage 1's costliest lines); with
    # round footprints, the shadows before all of stage 1's arrays (after its first lines)
    # and the chain before stage 2
    has_oval = isinstance(o, Oval) or isinstance(t, Oval)
    first = ((1, _disc_groups) if round_pair else (1, _oval_groups) if has_oval
             else (2, _disc_groups))
    chain_at = (2, _disc_groups) if round_pair else first
    # (both proofs say that the walls alone block every line between the footprints: a
    # line evaluated on the way that no wall edge blocks, ``wall_free``, refutes them, so
    # the chain is not tried after one; with round footprints, stage 1's lines come
    # between the shadows and the chain)
    wall_owner: np.ndarray | None = None
    is_wall = np.zeros(0, dtype=bool)  # (by obstacle index, once the walls are known)
    wall_free: list[bool] = []
    for stage in (1, 2):
        for part in (_disc_groups, _oval_groups):
            if (stage, part) == first:
                wall_owner = _wall_owners(o, top_o, t, top_t, obs, rows)
                if shadows_cover(o, t, obs, wall_owner):
                    return SightResult(Sight.BLOCKED)
                is_wall = np.zeros(int(max(obs.owner.max(), obs.vert_owner.max(initial=-1)))
                                   + 1, dtype=bool)
                is_wall[wall_owner] = True
            if (stage, part) == chain_at and not wall_free:
                from w40k.geometry.los_chain import walls_separate  # (los_chain imports los)

                assert wall_owner is not None
                if walls_separate(o, t, obs, wall_owner):
                    return SightResult(Sight.BLOCKED)
            for nn, oo in part(o, t, obs, stage):
                if len(nn) == 0:
                    continue
                a, d = _lines(nn, oo)
                refute = wall_owner is not None and stage == 1 and first != chain_at
                clear, pn, qn = evaluate_lines(o, top_o, t, top_t, obs, a, d,
                                               is_wall[obs.owner] if refute else None,
                                               wall_free if refute else None)
                if clear.any():
                    k = int(np.argmax(clear))
                    return SightResult(Sight.CLEAR, _pts(pn[k], qn[k]))
    assert wall_owner is not None  # (stage 2 computed it)
    wall = is_wall[obs.owner]  # (``np.isin(obs.owner, wall_owner)``)
    if wall.all():
        return SightResult(Sight.BLOCKED)
    walls = obs.subset(wall, is_wall[obs.vert_owner])
    a, d = candidate_lines(o, t, walls)
    clear, _, _ = evaluate_lines(o, top_o, t, top_t, walls, a, d)
    if not clear.any():
        return SightResult(Sight.BLOCKED)
    return SightResult(Sight.CONVENTION)


def _single_wall_separates(
    o: Shape, top_o: float, t: Shape, top_t: float, obs: Obstacles,
    sides: Sequence[tuple[FloatArray, FloatArray]] | None = None,
) -> bool:
    """Fast exact proof of BLOCKED: one convex obstacle that blocks every line crossing it (a
    wall: higher than both tops, an obscuring area, or a partial obstacle that
    :func:`_above_every_line` proves above every line near it) that, grown by some ``reach``
    of at most half its ``grow`` (:func:`_joining_reach`), meets both hull sides and stays
    clear of both footprints cuts the convex hull of the footprints in two, with the
    observer and the target on different sides. Every line from the observer to the target
    then crosses it closer than ``reach <= grow / 2 < grow - TOUCH`` (so no witness can
    exist), and the wall alone leaves no clear line (so the exact
    method answers BLOCKED too). The convex set may also be one edge of a wall that is not
    convex (an L-shaped ruin): that edge grown by half the grow is convex, and a footprint
    clear of the whole polygon is clear of it."""
    highest = max(top_o, top_t)
    # obstacles no higher than both tops never block (line_of_sight drops them); those not
    # above both tops are walls only when proven so, per candidate (below)
    wall = ~((obs.top <= min(top_o, top_t) + 1e-12) & np.isfinite(obs.top))
    if not wall.any():
        return False
    orig_o, orig_t = o, t
    o, t = _hull_stand_in(o), _hull_stand_in(t)
    a, b, g = obs.a[wall], obs.b[wall], obs.grow[wall]
    own = obs.owner[wall]
    half = 0.5 * g
    # only wall edges whose box, grown by half their grow (and a hair), meets the box of the
    # two footprints can come that close to a hull side (the others never meet one)
    lo_o, hi_o = _box(o)
    lo_t, hi_t = _box(t)
    lo, hi = np.minimum(lo_o, lo_t), np.maximum(hi_o, hi_t)
    reach = (half + 1e-9)[:, None]
    near = np.nonzero(((np.maximum(a, b) + reach >= lo) & (np.minimum(a, b) - reach <= hi))
                      .all(axis=1))[0]
    if len(near) == 0:
        return False
    sides = _outer_sides(o, t) if sides is None else sides  # given: the hull's two sides
    if sides is None:
        return False
    if obs.convex is None:
        return False
    an, bn, near_own = a[near], b[near], own[near]
    if not _may_meet_both(sides, an, bn, half[near], near_own):
        return False  # (most failures end here, before the exact distances)
    sp = np.array([sides[0][0], sides[1][0]])[:, None, :]
    sq = np.array([sides[0][1], sides[1][1]])[:, None, :]
    side_dist = _seg_dist(sp, sq, an[None, :, :], bn[None, :, :])
    meets = side_dist <= half[near][None, :]
    # a convex obstacle meeting each side (by any of its edges), or any obstacle (convex or
    # not) with one edge meeting both sides: that edge grown by half its grow is a convex
    # set joining the sides, as a convex obstacle is
    both = set(near_own[meets[0]].tolist()) & set(near_own[meets[1]].tolist())
    if not both:
        return False
    cand = {k for k in both if obs.convex[k]} | set(near_own[meets[0] & meets[1]].tolist())
    # the other obstacles meeting both sides (not convex, no one edge meeting both): a run
    # of its edges joined at vertices inside the hull (:func:`_chain_joins`)
    chains = both - cand
    m_all = np.zeros((2, len(a)), dtype=bool)
    m_all[:, near] = meets
    quad = np.array([sides[0][0], sides[0][1], sides[1][1], sides[1][0]])
    for k in sorted(cand) + sorted(chains):
        sel = own == k
        ea, eb, grow = a[sel], b[sel], float(g[sel][0])
        if k in chains and not _chain_joins(m_all[0][sel], m_all[1][sel], eb, quad):
            continue
        # the joining set: the obstacle (or its edge, or its run of edges) grown by ``r_join``
        # <= half its grow; it must keep clear of both footprints
        r_join = _joining_reach(side_dist[:, near_own == k], bool(obs.convex[k]),
                                k in chains, 0.5 * grow)
        if not (_clear_of(ea, eb, r_join + 1e-6, o) and _clear_of(ea, eb, r_join + 1e-6, t)):
            continue
        top = float(obs.top[wall][sel][0])
        if top > highest + 1e-12 or _above_every_line(orig_o, top_o, orig_t, top_t,
                                                       ea, eb, grow, top):
            return True
    return False


def _wall_owners(o: Shape, top_o: float, t: Shape, top_t: float, obs: Obstacles,
                 rows: list[EdgeRow] | None = None) -> FloatArray:
    """Obstacles that block every line crossing them: those above both tops, and partial
    ones whose top is above an upper bound of any line's height over them. With the lower
    model L (top hl, far-rim reach R_L(x) <= |x - c_L| + r_L) and the higher model U (top hu,
    distance d_U(x) >= |x - c_U| - r_U - grow), a line's height at x is at most
    ``hl + (hu - hl) * R_L / (R_L + d_U)``; the bound is maximised over the obstacle's
    vertices and edges' closest points to the higher model. Owner by owner in floats
    (``rows``: ``_edge_rows(obs)`` when the caller has them): each owner's edges in their
    order, its top and grow off its first edge, and the bound by :func:`_above_rows` (the
    floats of :func:`_above_every_line`), without a numpy mask per owner."""
    highest = max(top_o, top_t)
    by_owner: dict[int, list[EdgeRow]] = {}
    for k, r in zip(obs.owner.tolist(), _edge_rows(obs) if rows is None else rows,
                    strict=True):
        by_owner.setdefault(k, []).append(r)
    walls: list[int] = []
    bound: tuple[float, float, float, float, float, float, float, float] | None = None
    for k in sorted(by_owner):
        edges = by_owner[k]
        top = edges[0][5]
        if top > highest + 1e-12:
            walls.append(k)
            continue
        if bound is None:
            lower, upper = (t, o) if top_o > top_t else (o, t)
            cl, cu = _centre(lower), _centre(upper)
            bound = (cl[0], cl[1], cu[0], cu[1], _circumradius(lower), _circumradius(upper),
                     min(top_o, top_t), max(top_o, top_t))
        if _above_rows(*bound, edges, edges[0][4], top):
            walls.append(k)
    return np.asarray(walls, dtype=np.int64)


def _above_rows(clx: float, cly: float, cux: float, cuy: float, rl: float, ru: float,
                hl: float, hu: float, edges: list[EdgeRow], grow: float, top: float) -> bool:
    """:func:`_above_every_line` in floats for one obstacle's edges (``lower``'s centre and
    circumradius ``cl``, ``rl``; ``upper``'s ``cu``, ``ru``; the lower and higher tops): the
    same operations in the same order (the distance by :func:`_seg_dist1`, the floats of
    :func:`_seg_dist`; ``x ** 2`` of a float64 array is ``x * x``; a two-element row sum is
    one addition; ``math.sqrt`` is correctly rounded as ``np.sqrt`` is; ``min``/``max`` of
    the same values), so the same answer."""
    d = min(_seg_dist1(cux, cuy, cux, cuy, ax, ay, bx, by) for ax, ay, bx, by, _, _ in edges)
    d_u = d - ru - grow
    # the vertices: every edge's start, then every edge's end (``np.concatenate([a, b])``)
    far = max(max(math.sqrt((ax - clx) * (ax - clx) + (ay - cly) * (ay - cly)),
                  math.sqrt((bx - clx) * (bx - clx) + (by - cly) * (by - cly)))
              for ax, ay, bx, by, _, _ in edges)
    reach = far + rl + grow
    if d_u <= 0:
        return False
    return hl + (hu - hl) * reach / (reach + d_u) < top - 1e-12


def _above_every_line(
    o: Shape, top_o: float, t: Shape, top_t: float, a: FloatArray, b: FloatArray,
    grow: float, top: float,
) -> bool:
    """The bound of :func:`_wall_owners` for one obstacle of top ``top`` (edges ``a``-``b``
    grown by ``grow``): every line between the two columns is below ``top`` wherever it
    comes within ``grow`` of the obstacle."""
    lower, upper = (t, o) if top_o > top_t else (o, t)
    hl, hu = min(top_o, top_t), max(top_o, top_t)
    cl, cu = np.asarray(_centre(lower)), np.asarray(_centre(upper))
    rl, ru = _circumradius(lower), _circumradius(upper)
    d_u = float(_seg_dist(cu[None, :], cu[None, :], a, b).min()) - ru - grow
    reach = float(np.sqrt(((np.concatenate([a, b]) - cl) ** 2).sum(axis=1)).max()) + rl + grow
    if d_u <= 0:
        return False
    bound = hl + (hu - hl) * reach / (reach + d_u)
    return bound < top - 1e-12


def _pts(p: FloatArray, q: FloatArray) -> tuple[tuple[float, float], tuple[float, float]]:
    return ((float(p[0]), float(p[1])), (float(q[0]), float(q[1])))
