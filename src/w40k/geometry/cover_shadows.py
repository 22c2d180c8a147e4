"""A cheap exact proof that facing points are hidden (06.01 fully visible, for 13.08 (ii)
cover): the walls' shadows seen from each point cover the round observer.

A point ``p`` (a target of radius 0 at height ``level_t``) is hidden from a round observer
``O`` (centre ``c``, radius ``r``, ``D = |c - p| > r``) when every line through ``p`` and
``O`` is blocked. Seen from ``p``, those lines leave in the directions within ``alpha =
asin(r / D)`` of ``u = (c - p) / D``, and the part of such a line that the exact test
checks (:func:`~w40k.geometry.los.evaluate_lines`) runs from ``p`` to where it meets ``O``.
Every point of ``O`` lies at least ``D - r`` along ``u`` from ``p``, and a ray from ``p`` at
less than 90 degrees from ``u`` advances along ``u`` as it goes, so a ray's points whose
offset along ``u`` is below ``D - r`` come before ``O``: the checked part.

A *wall* edge (top above both tops by 1e-9", or an obscuring area's infinite top: it blocks a
line wherever the line comes within ``grow - TOUCH`` of it, whatever the line's height there)
is clipped to the slab of offsets along ``u`` in ``[1e-9, D - r - grow - 1e-9]``. A ray from
``p`` in a direction between those of the clipped segment's two ends crosses it, in the
checked part; a ray within ``delta = asin(reach / |e - p|) / 2`` (``reach = grow - TOUCH -
1e-8``) of the direction of an end ``e`` passes within ``reach`` of ``e`` at a point ahead of
``p`` whose offset is below ``D - r`` (at most ``reach`` more than ``e``'s). When those
directions, for all the wall edges together, cover ``[-alpha - 1e-9, alpha + 1e-9]`` (as
angles from ``u``), every line through ``p`` and ``O`` is blocked by the walls alone: the exact
search finds no clear line and answers BLOCKED. Points it cannot prove are left to the other
tests (the proof only says "hidden", never "visible").

*Partial obstacles* (``partial``; top ``H`` above ``level_t`` by 1e-9" but not a wall, with
the observer higher than the point): a line falls linearly from ``top_o`` at the observer's
near rim ``o1`` (its 3-D end there, at least ``D - r`` from ``p``) to ``level_t`` at ``p``,
so the exact test counts the edge over the stretch within ``f |o1 - p|`` of ``p``, ``f = (H -
level_t) / (top_o - level_t)`` (capped at 1), which holds every point within ``f (D - r)``
of ``p``. Their edges are clipped to that disc and to the slab, both shrunk by
:data:`_PART` (the rounding of the exact test's chord ends, module constant), the clipped
ends checked inside them; a crossing, or the foot of an end on a ray (no farther from ``p``
than the end, and ahead of it), then lies in the counted stretch. Every line blocked means
no clear line: BLOCKED, or PARTIAL_HEIGHT when the walls alone leave a line
(:func:`~w40k.geometry.los.line_of_sight`), which is hidden to a caller that does not count
PARTIAL_HEIGHT as visible (cover in the engine's games).
"""

from __future__ import annotations

import numpy as np

from w40k.geometry.los_obstacles import TOUCH, Obstacles
from w40k.geometry.shapes import Circle, FloatArray

_EPS = 1e-9
"""Margins (inches, radians) that dwarf the rounding of the tests above."""
_PART = 1e-5
"""The margins of a partial obstacle (inches): the exact test's target point chord has a
half-length of up to ~2e-6" from the rounding of ``perp2`` (a radius-0 target's chord is
``s -+ sqrt(-perp2)`` when ``perp2`` rounds below 0), which moves both ends of the stretch
where the line is under the obstacle's top by that much."""


def shadowed_points(
    o: Circle, top_o: float, pts: FloatArray, level_t: float, obs: Obstacles,
    partial: bool = False,
) -> np.ndarray:
    """Per point of ``pts`` (targets of radius 0 at height ``level_t``): proven hidden from
    round observer ``o`` (top ``top_o``) by the walls among ``obs`` (module docstring).
    ``partial``: the obstacles between the two heights count too, each over the stretch
    near the point where every line is below its top (module docstring): a proof that no
    line is clear, i.e. the exact search's BLOCKED or PARTIAL_HEIGHT, so only for a caller
    to whom PARTIAL_HEIGHT is hidden."""
    n = len(pts)
    out = np.zeros(n, dtype=bool)
    if n == 0 or len(obs.a) == 0:
        return out
    cx, cy, r = o.cx, o.cy, o.r
    # the wall edges whose box meets the box of the observer and the points (a clipped
    # segment lies in the hull of the observer and the point) and whose reach is positive
    lo = np.minimum(pts.min(axis=0), (cx - r, cy - r))
    hi = np.maximum(pts.max(axis=0), (cx + r, cy + r))
    high = obs.top > max(top_o, level_t) + _EPS
    # a partial obstacle: above the point's height, not above the observer's top (the
    # lines fall from the observer to the point, module docstring)
    part = partial and top_o > level_t + _EPS
    tall = (obs.top > level_t + _EPS) if part else high
    e = np.nonzero(
        tall
        & (obs.grow > TOUCH + 1e-8)
        & ((np.maximum(obs.a, obs.b) >= lo) & (np.minimum(obs.a, obs.b) <= hi)).all(axis=1)
    )[0]
    if len(e) == 0:
        return out
    # plan points as complex numbers: (x - p) * conj(u) is x's offset along u (real part)
    # and across it (imaginary part)
    pz = pts[:, 0] + 1j * pts[:, 1]
    v = complex(cx, cy) - pz
    dist = np.abs(v)
    far = dist > r + _EPS
    uc = (np.conj(v) / np.where(far, dist, 1.0))[:, None]
    wa = (obs.a[e, 0] + 1j * obs.a[e, 1] - pz[:, None]) * uc
    wb = (obs.b[e, 0] + 1j * obs.b[e, 1] - pz[:, None]) * uc
    grow = obs.grow[e]
    s_hi = (dist - r)[:, None] - grow - _EPS
    sa, sb = wa.real, wb.real
    # a partial obstacle's slab starts _PART ahead of the point (module docstring)
    low = np.nonzero(~high[e])[0]
    s_lo = _EPS if len(low) == 0 else np.where(high[e], _EPS, _PART)
    keep = (np.maximum(sa, sb) >= s_lo) & (np.minimum(sa, sb) <= s_hi)
    # clip each segment to the slab s_lo <= s <= s_hi (the ends' fractions along it)
    ds = sb - sa
    flat = np.abs(ds) <= 1e-15
    ds = np.where(flat, 1.0, ds)
    f_lo, f_hi = (s_lo - sa) / ds, (s_hi - sa) / ds
    f0 = np.where(flat, 0.0, np.clip(np.minimum(f_lo, f_hi), 0.0, 1.0))
    f1 = np.where(flat, 1.0, np.clip(np.maximum(f_lo, f_hi), 0.0, 1.0))
    if len(low):
        # a partial obstacle of top H blocks a line only within f (D - r) of the point,
        # f = (H - level) / (top_o - level): the line falls linearly from top_o at the
        # observer's near rim (at least D - r from the point) to level at the point. Its
        # edges are clipped further to the disc of that radius (less 2e-9) about the point
        frac = np.minimum((obs.top[e[low]] - level_t) / (top_o - level_t), 1.0)
        lim = (dist - r)[:, None] * frac[None, :] - _PART
        za, zb = wa[:, low], wb[:, low]
        dw = zb - za
        qa = dw.real ** 2 + dw.imag ** 2
        qb = 2.0 * (za.real * dw.real + za.imag * dw.imag)
        qc = za.real ** 2 + za.imag ** 2 - lim ** 2
        disc = qb * qb - 4.0 * qa * qc
        # (a 0-long edge: not clipped, its one point checked below)
        fin = qa > 1e-24
        den = 2.0 * np.where(fin, qa, 1.0)
        root = np.sqrt(np.maximum(disc, 0.0))
        g0 = np.where(fin, (-qb - root) / den, 0.0)
        g1 = np.where(fin, (-qb + root) / den, 1.0)
        f0[:, low] = np.maximum(f0[:, low], g0)
        f1[:, low] = np.minimum(f1[:, low], g1)
        keep[:, low] &= (disc >= 0.0) | ~fin
    w0, w1 = wa + (wb - wa) * f0, wa + (wb - wa) * f1
    # the clipped ends themselves in the slab (the clip's rounding, a flat segment)
    keep &= (np.minimum(w0.real, w1.real) >= 0.5 * s_lo) & (
        np.maximum(w0.real, w1.real) <= s_hi + 0.5 * _EPS)
    if len(low):
        # and within the partial obstacles' discs, _PART less 1e-9 inside the radius (the
        # farthest point of a segment from the point is one of its ends); an empty clip
        # (f0 > f1) is dropped
        keep[:, low] &= (f0[:, low] <= f1[:, low]) & (
            np.maximum(np.abs(w0[:, low]), np.abs(w1[:, low])) <= lim + _EPS)
    # the directions the clipped segment (and its ends' reach) covers, as angles from u
    reach = grow - TOUCH - 1e-8
    with np.errstate(divide="ignore"):  # a 0-long end is outside the slab (not kept)
        d0 = 0.5 * np.arcsin(np.minimum(reach / np.abs(w0), 1.0))
        d1 = 0.5 * np.arcsin(np.minimum(reach / np.abs(w1), 1.0))
    th0, th1 = np.angle(w0), np.angle(w1)
    start = np.where(keep, np.minimum(th0 - d0, th1 - d1), np.inf)
    end = np.where(keep, np.maximum(th0 + d0, th1 + d1), -np.inf)
    # the observer's directions from each point, within alpha of u: covered by the union?
    alpha = np.arcsin(np.minimum(r / np.where(far, dist, 1.0), 1.0)) + _EPS
    order = np.argsort(start, axis=1)
    rows = np.arange(n)[:, None]  # (take_along_axis's indexing, without its set-up)
    ss = start[rows, order]
    reached = np.maximum.accumulate(end[rows, order], axis=1)
    # sweeping the intervals by their starts: the first uncovered direction from -alpha is
    # max(-alpha, the ends so far); a start beyond it, before alpha is reached, is a gap
    cur = np.maximum(reached, -alpha[:, None])
    gap = (ss[:, 1:] > cur[:, :-1]) & (cur[:, :-1] < alpha[:, None])
    out[:] = (far & (alpha < 1.0) & (ss[:, 0] <= -alpha) & (cur[:, -1] > alpha)
              & ~gap.any(axis=1))
    return out
