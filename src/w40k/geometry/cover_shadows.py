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
"""

from __future__ import annotations

import numpy as np

from w40k.geometry.los_obstacles import TOUCH, Obstacles
from w40k.geometry.shapes import Circle, FloatArray

_EPS = 1e-9
"""Margins (inches, radians) that dwarf the rounding of the tests above."""


def shadowed_points(
    o: Circle, top_o: float, pts: FloatArray, level_t: float, obs: Obstacles
) -> np.ndarray:
    """Per point of ``pts`` (targets of radius 0 at height ``level_t``): proven hidden from
    round observer ``o`` (top ``top_o``) by the walls among ``obs`` (module docstring)."""
    n = len(pts)
    out = np.zeros(n, dtype=bool)
    if n == 0 or len(obs.a) == 0:
        return out
    cx, cy, r = o.cx, o.cy, o.r
    # the wall edges whose box meets the box of the observer and the points (a clipped
    # segment lies in the hull of the observer and the point) and whose reach is positive
    lo = np.minimum(pts.min(axis=0), (cx - r, cy - r))
    hi = np.maximum(pts.max(axis=0), (cx + r, cy + r))
    e = np.nonzero(
        (obs.top > max(top_o, level_t) + _EPS)
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
    keep = (np.maximum(sa, sb) >= _EPS) & (np.minimum(sa, sb) <= s_hi)
    # clip each segment to the slab _EPS <= s <= s_hi (the ends' fractions along it)
    ds = sb - sa
    flat = np.abs(ds) <= 1e-15
    ds = np.where(flat, 1.0, ds)
    f_lo, f_hi = (_EPS - sa) / ds, (s_hi - sa) / ds
    f0 = np.where(flat, 0.0, np.clip(np.minimum(f_lo, f_hi), 0.0, 1.0))
    f1 = np.where(flat, 1.0, np.clip(np.maximum(f_lo, f_hi), 0.0, 1.0))
    w0, w1 = wa + (wb - wa) * f0, wa + (wb - wa) * f1
    # the clipped ends themselves in the slab (the clip's rounding, a flat segment)
    keep &= (np.minimum(w0.real, w1.real) >= 0.5 * _EPS) & (
        np.maximum(w0.real, w1.real) <= s_hi + 0.5 * _EPS)
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
    ss = np.take_along_axis(start, order, axis=1)
    reached = np.maximum.accumulate(np.take_along_axis(end, order, axis=1), axis=1)
    # sweeping the intervals by their starts: the first uncovered direction from -alpha is
    # max(-alpha, the ends so far); a start beyond it, before alpha is reached, is a gap
    cur = np.maximum(reached, -alpha[:, None])
    gap = (ss[:, 1:] > cur[:, :-1]) & (cur[:, :-1] < alpha[:, None])
    out[:] = (far & (alpha < 1.0) & (ss[:, 0] <= -alpha) & (cur[:, -1] > alpha)
              & ~gap.any(axis=1))
    return out
