"""Model pairs that no terrain can give cover, for a whole unit pair at once (13.08 (ii)).

A target model whose raw sight is CLEAR has the benefit of cover from terrain only when
HULL_RAMP (:func:`w40k.geometry.los_hull.hull_blockers`) names a terrain feature or an
obscuring area among the obstacles that may stop it being fully visible (06.01), and that
convention counts an edge only if it starts inside the pair hull or comes within its
``grow`` (less ``TOUCH``) of it. The pair hull is the convex hull of the two footprints'
48-gons, whose vertices lie within ``reach`` of each footprint's centre
(:func:`outline_disc`), so the hull lies within the box of those two discs and within the
strip of half-width ``max(reach_o, reach_t)`` around the line through the two centres (the
capsule the compiled kernel's first pass culls by lies within it). An edge whose grown box
misses that box, or that keeps to one side of the line with both ends farther from it than
the strip's half-width plus its ``grow`` (+1e-9 either way, a margin over the roundings),
therefore counts for no obstacle set that holds it, nor does an edge of an area (or gap
filler) either model is within, which the pair's obstacles leave out (13.10, R13.11-b): a
pair with no other terrain edge has no terrain among its HULL_RAMP blockers, whichever
models stand between.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from w40k.geometry.los_obstacles import Obstacles
from w40k.geometry.shapes import Circle, FloatArray, Polygon, Shape

MARGIN = 1e-9
"""How far an edge's grown box must miss the outlines' box (inches)."""


@functools.lru_cache(maxsize=4096)
def outline_disc(s: Shape) -> tuple[float, float, float]:
    """(cx, cy, reach): the shape's centre and a radius that holds its 48-gon (the outline
    the pair hull is built from; kept per shape): a round base's 48-gon has its vertices
    at ``r / cos(pi / 48)`` from the centre and an oval's within its long semi-axis scaled
    so; a polygon's outline is its vertices. 1e-9 is added for the roundings."""
    cx, cy = s.center
    if isinstance(s, Polygon):
        p = s.array()
        reach = float(np.hypot(p[:, 0] - cx, p[:, 1] - cy).max())
    else:
        reach = (s.r if isinstance(s, Circle) else max(s.a, s.b)) / _SCALE
    return (float(cx), float(cy), reach + 1e-9)


_SCALE = math.cos(math.pi / 48)
"""A 48-gon circumscribing a disc of radius r has its vertices at r / _SCALE."""


def terrain_far(
    terrain: Obstacles, emin: FloatArray, emax: FloatArray,
    observers: list[Shape], targets: list[Shape],
    ignored: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """``far[i, j]``: no edge of ``terrain`` (its grown boxes ``emin`` / ``emax``, (E, 2)
    each) comes within its ``grow`` + ``MARGIN`` of both the box and the strip that hold
    the pair hull of ``observers[i]`` and ``targets[j]``, leaving out with ``ignored`` (the
    region owning each edge, -1 for none, and the observers' and targets' rows of region
    membership) the edges of regions either model is within, which the pair's obstacles
    leave out (13.10): then HULL_RAMP counts no terrain edge for that pair (module
    docstring), so its bit 2 is 0 and a target model seen CLEAR has no cover from terrain."""
    od = np.array([outline_disc(s) for s in observers], dtype=np.float64).reshape(-1, 3)
    td = np.array([outline_disc(s) for s in targets], dtype=np.float64).reshape(-1, 3)
    far = np.ones((len(od), len(td)), dtype=bool)
    if len(terrain.a) == 0 or far.size == 0:
        return far
    # the discs' boxes: an edge whose grown box misses a pair's two boxes' box (by MARGIN)
    # is farther than its grow from the hull; the edges near every disc of both units
    # first (most are not), then per pair
    ob = np.concatenate([od[:, :2] - od[:, 2:], od[:, :2] + od[:, 2:]], axis=1)
    tb = np.concatenate([td[:, :2] - td[:, 2:], td[:, :2] + td[:, 2:]], axis=1)
    lo = np.minimum(ob[:, :2].min(axis=0), tb[:, :2].min(axis=0)) - MARGIN
    hi = np.maximum(ob[:, 2:].max(axis=0), tb[:, 2:].max(axis=0)) + MARGIN
    near = np.nonzero(((emax >= lo) & (emin <= hi)).all(axis=1))[0]
    if len(near) == 0:
        return far
    en, ex = emin[near], emax[near]
    plo = np.minimum(ob[:, None, :2], tb[None, :, :2]) - MARGIN
    phi = np.maximum(ob[:, None, 2:], tb[None, :, 2:]) + MARGIN
    e, i, j = np.nonzero(
        ((ex[:, None, None, :] >= plo[None]) & (en[:, None, None, :] <= phi[None])).all(axis=3))
    if len(e) == 0:
        return far
    # each such edge against the line through the pair's centres: an edge that does not
    # cross it and whose two ends are farther from it than the strip's half-width + its grow
    # (+MARGIN) is that far from the whole strip (the distance from a line is linear along
    # an edge that stays on one side)
    k = near[e]
    ax, ay, bx, by = terrain.a[k, 0], terrain.a[k, 1], terrain.b[k, 0], terrain.b[k, 1]
    ox, oy = od[i, 0], od[i, 1]
    dx, dy = td[j, 0] - ox, td[j, 1] - oy
    ln = np.hypot(dx, dy)
    sa = ((ax - ox) * dy - (ay - oy) * dx) / np.maximum(ln, 1e-300)
    sb = ((bx - ox) * dy - (by - oy) * dx) / np.maximum(ln, 1e-300)
    lim = np.maximum(od[i, 2], td[j, 2]) + terrain.grow[k] + MARGIN
    hit = (ln <= 1e-6) | (sa * sb <= 0.0) | (np.minimum(np.abs(sa), np.abs(sb)) <= lim)
    if ignored is not None:
        # 13.10 (R13.11-b): the region owning each edge (-1: none) and which regions hold
        # each observer and target; a pair's obstacles leave out the regions either holds
        col, o_in, t_in = ignored
        c = col[k]
        own = np.nonzero(hit & (c >= 0))[0]
        hit[own] = ~(o_in[i[own], c[own]] | t_in[j[own], c[own]])
    far[i[hit], j[hit]] = False
    return far
