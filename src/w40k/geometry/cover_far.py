"""Model pairs that no terrain can give cover, for a whole unit pair at once (13.08 (ii)).

A target model whose raw sight is CLEAR has the benefit of cover from terrain only when
HULL_RAMP (:func:`w40k.geometry.los_hull.hull_blockers`) names a terrain feature or an
obscuring area among the obstacles that may stop it being fully visible (06.01), and that
convention counts an edge only if its box, grown by its ``grow``, meets the box of the pair
hull (``_blockers``' first cull: ``emax >= lo`` and ``emin <= hi`` on both axes). The pair
hull is the convex hull of the two footprints' 48-gons, so its vertices are points of those
outlines (the same floats) and its box lies within any box that holds the two outlines
(:func:`outline_box`). An edge whose grown box misses that box (here by more than 1e-9
besides) therefore counts for no obstacle set that holds it: a pair with no such terrain
edge near has no terrain among its HULL_RAMP blockers, whatever areas it ignores (13.10)
and whichever models stand between.
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
def outline_box(s: Shape) -> tuple[float, float, float, float]:
    """(xmin, ymin, xmax, ymax) of a box that holds the shape's 48-gon (the outline the pair
    hull is built from; kept per shape): a round base's 48-gon has its vertices at
    ``r / cos(pi / 48)`` from the centre and an oval's within its long semi-axis scaled so
    (1e-9 added for the roundings of ``Circle.outline`` / ``Oval.outline``); a polygon's
    box is its vertices'."""
    if isinstance(s, Polygon):
        p = s.array()
        lo, hi = p.min(axis=0), p.max(axis=0)
        return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
    reach = (s.r if isinstance(s, Circle) else max(s.a, s.b)) / _SCALE + 1e-9
    return (s.cx - reach, s.cy - reach, s.cx + reach, s.cy + reach)


_SCALE = math.cos(math.pi / 48)
"""A 48-gon circumscribing a disc of radius r has its vertices at r / _SCALE."""


def terrain_far(
    terrain: Obstacles, emin: FloatArray, emax: FloatArray,
    observers: list[Shape], targets: list[Shape],
) -> np.ndarray:
    """``far[i, j]``: no edge of ``terrain`` (its grown boxes ``emin`` / ``emax``, (E, 2)
    each) comes within ``MARGIN`` of the box that holds the 48-gons of ``observers[i]`` and
    ``targets[j]``: then HULL_RAMP counts no terrain edge for that pair (module docstring),
    so its bit 2 is 0 and a target model seen CLEAR has no cover from terrain."""
    ob = np.array([outline_box(s) for s in observers], dtype=np.float64).reshape(-1, 4)
    tb = np.array([outline_box(s) for s in targets], dtype=np.float64).reshape(-1, 4)
    far = np.ones((len(ob), len(tb)), dtype=bool)
    if len(terrain.a) == 0 or far.size == 0:
        return far
    # the edges near the box of every outline of both units first (most are not)
    lo = np.minimum(ob[:, :2].min(axis=0), tb[:, :2].min(axis=0)) - MARGIN
    hi = np.maximum(ob[:, 2:].max(axis=0), tb[:, 2:].max(axis=0)) + MARGIN
    near = np.nonzero(((emax >= lo) & (emin <= hi)).all(axis=1))[0]
    if len(near) == 0:
        return far
    en, ex = emin[near], emax[near]
    # per pair the box of the two outlines: (no, nt) corners
    plo = np.minimum(ob[:, None, :2], tb[None, :, :2]) - MARGIN
    phi = np.maximum(ob[:, None, 2:], tb[None, :, 2:]) + MARGIN
    meets = ((ex[:, None, None, :] >= plo[None]) & (en[:, None, None, :] <= phi[None])).all(
        axis=3)
    far &= ~meets.any(axis=0)
    return far
