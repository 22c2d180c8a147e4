"""A proof of BLOCKED over the set of lines (06.01, 13.10, 13.11): the walls' shadows cover
every line between the two footprints, swept by direction.

The single-wall and chain proofs of :mod:`w40k.geometry.los` need a connected barrier across
the hull of the footprints. Walls often block together without linking ("shadow" blocking):
one ruin wall near the observer hides part of the view, another near the target the rest, a
row of bases with gaps that no straight line threads. This proof works in line space:

* the *pieces* are the edges of the walls (obstacles that block every line crossing them,
  :func:`~w40k.geometry.los._wall_owners`), each grown by its *reach*
  ``grow - TOUCH - REACH_MARGIN`` (as in :mod:`w40k.geometry.los_chain`): a line that comes
  within the reach of a piece, between the two footprints, is blocked by the exact test;
* the footprints are apart: their circumscribed discs (centres ``c_O``, ``c_T``, radii
  ``R_O``, ``R_T``, distance ``L``) do not meet, so every line through both, oriented from the
  observer to the target, has a direction ``d`` within ``beta = asin((R_O + R_T) / L)`` of
  the centre direction ``u``;
* a piece counts only when it lies *between* the footprints along every such line: a line
  of normal ``nu`` separates it from the observer (``min nu.x`` over the piece's grown set
  above the observer's support ``h_O(nu)``) with ``nu`` within ``90 deg - beta`` of ``u``
  (so ``nu.d > 0``: along every line, the observer's chord comes before the piece), and
  likewise one separates it from the target. Where such a line meets the piece it does so
  after leaving the observer and before reaching the target, in the part the exact test
  checks;
* a line of direction ``theta`` (``d = (cos, sin)``, normal ``n = (-sin, cos)``) and offset
  ``c = n.(x - z)`` (``z`` the midpoint of the centres) meets a footprint ``S`` iff ``c`` lies
  in ``[-h_S(-n), h_S(n)]`` (support functions about ``z``), and comes within ``r`` of a
  segment ``a``-``b`` iff ``c`` lies in ``[min(n.a, n.b) - r, max(n.a, n.b) + r]``;
* the directions are swept in intervals ``[theta_m - h, theta_m + h]``: ``n(theta).(x - z)``
  moves by at most ``|x - z| h`` over the interval, so each piece's offset interval at
  ``theta_m`` shrunk by ``h max(|a - z|, |b - z|)`` is inside its interval at every direction
  of the interval, and the footprints' common interval grown by ``h K`` (``K`` the largest
  distance from ``z`` to a footprint point) holds theirs. If the shrunk pieces' intervals
  cover the grown common interval, every line of those directions through both footprints
  is blocked. Intervals not covered are halved (up to :data:`MAX_DEPTH` levels and
  :data:`MAX_NODES` in all); an interval whose middle direction itself has an uncovered
  offset ends the proof (it cannot succeed).

Every line through both footprints with a direction in the swept range is then blocked by a
wall, so no candidate line of the exact search is clear and the walls alone leave none: the
search's answer is BLOCKED, which the proof gives without enumerating the lines. The
tolerances: the search's chords admit lines that miss a footprint by ~1e-9 and the pieces
keep :data:`SIDE_MARGIN` from the footprints; both intervals have :data:`OFFSET_MARGIN` to
spare. When the proof fails the search runs as before (it only skips work).
"""

from __future__ import annotations

import math

import numpy as np

from w40k.geometry.los_dist import _centre, _ring
from w40k.geometry.los_obstacles import TOUCH, Obstacles
from w40k.geometry.los_sides import _circumradius
from w40k.geometry.shapes import Circle, FloatArray, Oval, Polygon, Shape

REACH_MARGIN = 1e-8
"""How much less than ``grow - TOUCH`` a piece's reach is (as in ``los_chain``)."""
SIDE_MARGIN = 1e-6
"""A piece's grown set keeps this much clear of the separating lines."""
OFFSET_MARGIN = 1e-6
"""The footprints' common offset interval is grown by this much (a line the search's chords
admit misses a footprint by far less)."""
ANGLE_MARGIN = 1e-6
"""The swept directions reach this much (radians) beyond ``beta``; separating normals keep
this much inside ``90 deg - beta``."""
FIRST_SPLIT = 8
"""The swept range is first cut into this many equal direction intervals."""
MAX_DEPTH = 12
"""At most this many halvings of a direction interval."""
MAX_NODES = 1024
"""At most this many direction intervals tested in all."""
SEPARATORS = 9
"""Normals tried per piece and footprint, spread evenly over the admissible cone."""
_SPREAD = np.linspace(-1.0, 1.0, SEPARATORS)
PLAIN_CELLS = 64
"""With round footprints, a direction interval level of at most this many (direction, piece)
cells is tested with plain floats (numpy's per-call cost is most of a small level's)."""
PLAIN_PIECES = 14
"""With round footprints, at most this many pieces are sorted into between and not with plain
floats (the plain loop stops at the first separating normals)."""


def shadows_cover(o: Shape, t: Shape, obs: Obstacles, walls: np.ndarray) -> bool:
    """The pieces of the obstacles ``walls`` (owner indices of ``obs`` that block every line
    crossing them) block every line between footprints ``o`` and ``t`` (module docstring)."""
    if len(walls) == 0 or len(obs.a) == 0:
        return False
    (ox, oy), (tx, ty) = _centre(o), _centre(t)
    big_l = math.hypot(tx - ox, ty - oy)
    spread = _circumradius(o) + _circumradius(t)
    if big_l <= 0.0 or spread >= big_l * (1.0 - 1e-9):
        return False
    beta = math.asin(spread / big_l) + ANGLE_MARGIN
    cone = 0.5 * math.pi - beta - ANGLE_MARGIN
    if cone <= 0.0:
        return False
    ux, uy = (tx - ox) / big_l, (ty - oy) / big_l
    zx, zy = 0.5 * (ox + tx), 0.5 * (oy + ty)
    reach_all = obs.grow - TOUCH - REACH_MARGIN
    is_wall = np.zeros(int(obs.owner.max()) + 1, dtype=bool)
    is_wall[walls[walls < len(is_wall)]] = True
    keep = is_wall[obs.owner] & (reach_all > 0)
    idx = np.nonzero(keep)[0]
    if len(idx) == 0:
        return False
    a = obs.a[idx] - (zx, zy)
    b = obs.b[idx] - (zx, zy)
    r = reach_all[idx]
    round_pair = isinstance(o, Circle) and isinstance(t, Circle)
    if round_pair and len(idx) <= PLAIN_PIECES:
        assert isinstance(o, Circle) and isinstance(t, Circle)
        between = np.array(_between_round(o, t, a.tolist(), b.tolist(), r.tolist(), ux, uy,
                                          zx, zy, cone), dtype=bool)
    else:
        between = _between(o, t, a, b, r, ux, uy, zx, zy, cone)
    if not between.any():
        return False
    a, b, r = a[between], b[between], r[between]
    m_piece = np.maximum(np.hypot(a[:, 0], a[:, 1]), np.hypot(b[:, 0], b[:, 1]))
    k_foot = max(math.hypot(ox - zx, oy - zy) + _circumradius(o),
                 math.hypot(tx - zx, ty - zy) + _circumradius(t))
    th_u = math.atan2(uy, ux)
    # the direction intervals still to prove, as (middle, half width): FIRST_SPLIT at first
    half = beta / FIRST_SPLIT
    mids = th_u - beta + half * (2 * np.arange(FIRST_SPLIT) + 1)
    nodes = 0
    pieces: list[tuple[float, float, float, float, float, float]] = []
    for _ in range(MAX_DEPTH + 1):
        nodes += len(mids)
        if nodes > MAX_NODES:
            return False
        if round_pair and len(mids) * len(r) <= PLAIN_CELLS:
            assert isinstance(o, Circle) and isinstance(t, Circle)
            if not pieces:
                pieces = list(zip(a[:, 0].tolist(), a[:, 1].tolist(), b[:, 0].tolist(),
                                  b[:, 1].tolist(), r.tolist(), m_piece.tolist(), strict=True))
            found = _level_round(o, t, pieces, mids, half, zx, zy, k_foot)
            if found is None:
                return False
            if not found:
                return True
            half *= 0.5
            mids = np.array([m - half for m in found] + [m + half for m in found])
            continue
        nx, ny = -np.sin(mids), np.cos(mids)
        flo, fhi = _common(o, t, nx, ny, zx, zy)
        plo, phi = _piece_offsets(a, b, r, nx, ny)
        slack = half * k_foot + OFFSET_MARGIN
        shrink = half * m_piece[None, :]
        ok = _covered(flo - slack, fhi + slack, plo + shrink, phi - shrink)
        if ok.all():
            return True
        open_mids = mids[~ok]
        # a middle direction that has an uncovered offset itself: the proof cannot succeed
        exact = _covered(flo[~ok] - OFFSET_MARGIN, fhi[~ok] + OFFSET_MARGIN,
                         plo[~ok], phi[~ok])
        if not exact.all():
            return False
        half *= 0.5
        mids = np.concatenate([open_mids - half, open_mids + half])
    return False


def _piece_offsets(a: FloatArray, b: FloatArray, r: FloatArray, nx: FloatArray,
                   ny: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per (direction, piece): the offsets of the lines that come within the piece's reach."""
    fa = nx[:, None] * a[None, :, 0] + ny[:, None] * a[None, :, 1]
    fb = nx[:, None] * b[None, :, 0] + ny[:, None] * b[None, :, 1]
    return np.minimum(fa, fb) - r[None, :], np.maximum(fa, fb) + r[None, :]


def _covered(flo: FloatArray, fhi: FloatArray, plo: FloatArray, phi: FloatArray) -> np.ndarray:
    """Per row: the closed intervals ``[plo, phi]`` (empty where ``plo > phi``) cover
    ``[flo, fhi]`` (true where that is empty)."""
    empty = plo > phi
    lo = np.where(empty, np.inf, plo)
    hi = np.where(empty, -np.inf, phi)
    order = np.argsort(lo, axis=1, kind="stable")
    rows = np.arange(len(lo))[:, None]
    lo, hi = lo[rows, order], hi[rows, order]
    run = np.maximum.accumulate(hi, axis=1)
    prev = np.maximum(np.concatenate([flo[:, None], run[:, :-1]], axis=1), flo[:, None])
    gap = ((lo > prev) & (prev < fhi[:, None])).any(axis=1)
    reach = np.maximum(run[:, -1], flo) if run.shape[1] else flo
    out: np.ndarray = (flo > fhi) | (~gap & (reach >= fhi))
    return out


def _support(s: Shape, nx: FloatArray, ny: FloatArray, zx: float, zy: float) -> FloatArray:
    """``max n.(x - z)`` over the footprint, per normal (unit ``nx``, ``ny``)."""
    if isinstance(s, Circle):
        out: FloatArray = nx * (s.cx - zx) + ny * (s.cy - zy) + s.r
        return out
    if isinstance(s, Oval):
        c, sn = math.cos(s.angle), math.sin(s.angle)
        nu = nx * c + ny * sn
        nv = -nx * sn + ny * c
        out = (nx * (s.cx - zx) + ny * (s.cy - zy)
               + np.sqrt((s.a * nu) ** 2 + (s.b * nv) ** 2))
        return out
    assert isinstance(s, Polygon)
    pts = _ring(s)[0]
    out = (np.multiply.outer(nx, pts[:, 0] - zx)
           + np.multiply.outer(ny, pts[:, 1] - zy)).max(axis=-1)
    return out


def _common(o: Shape, t: Shape, nx: FloatArray, ny: FloatArray, zx: float,
            zy: float) -> tuple[FloatArray, FloatArray]:
    """Per direction: the offsets of the lines that meet both footprints."""
    lo = np.maximum(-_support(o, -nx, -ny, zx, zy), -_support(t, -nx, -ny, zx, zy))
    hi = np.minimum(_support(o, nx, ny, zx, zy), _support(t, nx, ny, zx, zy))
    return lo, hi


def _between(o: Shape, t: Shape, a: FloatArray, b: FloatArray, r: FloatArray, ux: float,
             uy: float, zx: float, zy: float, cone: float) -> np.ndarray:
    """Per piece (ends ``a``, ``b`` relative to ``z``, reach ``r``): some normal within
    ``cone`` of ``u`` separates it from the observer (the piece beyond), and some separates
    it from the target (the piece before), with :data:`SIDE_MARGIN` to spare."""
    ang = math.atan2(uy, ux) + _SPREAD * cone
    nx, ny = np.cos(ang), np.sin(ang)
    fa = nx[:, None] * a[None, :, 0] + ny[:, None] * a[None, :, 1]
    fb = nx[:, None] * b[None, :, 0] + ny[:, None] * b[None, :, 1]
    lo = np.minimum(fa, fb) - r[None, :]
    hi = np.maximum(fa, fb) + r[None, :]
    after_o = (lo > (_support(o, nx, ny, zx, zy) + SIDE_MARGIN)[:, None]).any(axis=0)
    before_t = (hi < (-_support(t, -nx, -ny, zx, zy) - SIDE_MARGIN)[:, None]).any(axis=0)
    return np.asarray(after_o & before_t, dtype=bool)


# The plain-float path for round footprints: the same operations, in the same order, as the
# array code above on each (direction, piece) cell (IEEE doubles either way, no fused
# multiply-add; sines and cosines still come from numpy), so the same answers.


def _level_round(o: Circle, t: Circle,
                 pieces: list[tuple[float, float, float, float, float, float]],
                 mids: np.ndarray, half: float, zx: float, zy: float,
                 k_foot: float) -> list[float] | None:
    """One level of :func:`shadows_cover`'s sweep with plain floats: the middles of the
    direction intervals not proved (empty: all proved), or None where a middle direction has
    an uncovered offset itself (the proof cannot succeed)."""
    dox, doy, ro = o.cx - zx, o.cy - zy, o.r
    dtx, dty, rt = t.cx - zx, t.cy - zy, t.r
    slack = half * k_foot + OFFSET_MARGIN
    open_mids: list[float] = []
    for m, sn, cs in zip(mids.tolist(), np.sin(mids).tolist(), np.cos(mids).tolist(), strict=True):
        nx, ny, mx, my = -sn, cs, sn, -cs  # (the normal and its negation)
        # _common: -h(-n) and h(n) of each disc (_support's sums, in its order)
        flo = max(-(mx * dox + my * doy + ro), -(mx * dtx + my * dty + rt))
        fhi = min(nx * dox + ny * doy + ro, nx * dtx + ny * dty + rt)
        exact: list[tuple[float, float]] = []
        shrunk: list[tuple[float, float]] = []
        for ax, ay, bx, by, rr, mp in pieces:
            fa = nx * ax + ny * ay
            fb = nx * bx + ny * by
            plo = min(fa, fb) - rr
            phi = max(fa, fb) + rr
            shrink = half * mp
            exact.append((plo, phi))
            shrunk.append((plo + shrink, phi - shrink))
        if _covered_plain(flo - slack, fhi + slack, shrunk):
            continue
        if not _covered_plain(flo - OFFSET_MARGIN, fhi + OFFSET_MARGIN, exact):
            return None
        open_mids.append(m)
    return open_mids


def _covered_plain(flo: float, fhi: float, spans: list[tuple[float, float]]) -> bool:
    """:func:`_covered` for one row: the closed intervals (empty where ``lo > hi``) cover
    ``[flo, fhi]`` (true where that is empty). Sorted by start, the first start beyond the
    covered prefix while the prefix ends short of ``fhi`` is the array version's gap (the
    order among equal starts changes no gap)."""
    if flo > fhi:
        return True
    cur = flo
    for lo, hi in sorted(sp for sp in spans if not sp[0] > sp[1]):
        if cur >= fhi:
            return True
        if lo > cur:
            return False
        if hi > cur:
            cur = hi
    return cur >= fhi


def _between_round(o: Circle, t: Circle, a: list[list[float]], b: list[list[float]],
                   r: list[float], ux: float, uy: float, zx: float, zy: float,
                   cone: float) -> list[bool]:
    """:func:`_between` for two discs, with plain floats."""
    ang = math.atan2(uy, ux) + _SPREAD * cone
    cs, sn = np.cos(ang).tolist(), np.sin(ang).tolist()
    dox, doy, dtx, dty = o.cx - zx, o.cy - zy, t.cx - zx, t.cy - zy
    # _support(o, n) + margin and -_support(t, -n) - margin, per normal
    ns = list(zip(cs, sn, strict=True))
    above = [nx * dox + ny * doy + o.r + SIDE_MARGIN for nx, ny in ns]
    below = [-((-nx) * dtx + (-ny) * dty + t.r) - SIDE_MARGIN for nx, ny in ns]
    rows = list(zip(cs, sn, above, below, strict=True))
    out: list[bool] = []
    for (ax, ay), (bx, by), rr in zip(a, b, r, strict=True):
        after_o = before_t = False
        for nx, ny, ab, bl in rows:
            fa = nx * ax + ny * ay
            fb = nx * bx + ny * by
            if not after_o and min(fa, fb) - rr > ab:
                after_o = True
            if not before_t and max(fa, fb) + rr < bl:
                before_t = True
            if after_o and before_t:
                break
        out.append(after_o and before_t)
    return out
