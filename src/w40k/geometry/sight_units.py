"""A unit-level proof of BLOCKED (06.01, 13.10, 13.11): one wall that separates two whole
units settles the raw sight of every model pair of them at once.

:func:`w40k.geometry.los._single_wall_separates` proves one pair BLOCKED when a convex
obstacle (or one edge, or a run of edges, of a wall) above both tops joins the two sides of
the convex hull of the two footprints without touching either. The same argument holds for
any two convex sets: put for each unit a convex polygon that holds every footprint of the
unit (the convex hull of the footprints' circumscribed polygons, :func:`unit_stand_in`),
and take the obstacles that are not models of either unit. A wall among them, higher than
every model of both units, that separates the two polygons lies between any observer model
and any target model, and every pair keeps it among its obstacles (an obscuring area or an
R13.11-b gap filler that far from the polygons holds no model of either unit): every line
joining the two models crosses it closer than half its grow, so the per-pair search finds
no clear line, and that wall alone leaves none (the per-pair answer is BLOCKED, with no
witness). The proof only skips searches: when it fails, the pairs are searched as before.
"""

from __future__ import annotations

import numpy as np

from w40k.core import kept
from w40k.geometry.los import Obstacles, _single_wall_separates
from w40k.geometry.shapes import Circle, FloatArray, Oval, Polygon, Shape, convex_hull

STAND_IN_SIDES = 16
"""Sides of the circumscribed polygon of each round or oval footprint."""


def _outline(fp: Shape) -> FloatArray:
    """A polygon that holds the footprint: the circumscribed 16-gon of a circle or an oval
    (``Circle.outline`` / ``Oval.outline``), a polygon itself."""
    if isinstance(fp, Circle | Oval):
        return fp.outline(STAND_IN_SIDES)
    return fp.array()


_STAND_INS: dict[tuple[Shape, ...], Polygon | None] = kept.table()
"""Unit stand-ins by footprints (a unit that did not move has the same one in the next
scene)."""


def unit_stand_in(footprints: tuple[Shape, ...]) -> Polygon | None:
    """A convex polygon holding every footprint (None for fewer than three hull points)."""
    if footprints in _STAND_INS:
        return _STAND_INS[footprints]
    hull = convex_hull(np.concatenate([_outline(fp) for fp in footprints]))
    out = Polygon(hull) if len(hull) >= 3 else None
    if len(_STAND_INS) >= 1024:
        _STAND_INS.clear()
    _STAND_INS[footprints] = out
    return out


def walled_apart(o: Polygon, t: Polygon, highest: float, common: Obstacles) -> bool:
    """Some obstacle of ``common`` (the obstacles of every model pair of the two units)
    higher than ``highest`` (the tallest model of either unit) separates the polygons ``o``
    and ``t`` (:func:`_single_wall_separates` with both tops at ``highest``: the obstacles
    no higher are left out, as for any pair; the hull's sides from :func:`bridges`)."""
    if len(common.a) == 0:
        return False
    sides = bridges(o.array(), t.array())
    if sides is None:
        return False
    return _single_wall_separates(o, highest, t, highest, common, sides)


def bridges(p: FloatArray, q: FloatArray) -> list[tuple[FloatArray, FloatArray]] | None:
    """The two sides of the convex hull of two convex polygons that join them (each from a
    vertex of ``p`` to a vertex of ``q``): the hull edges between vertices of different
    polygons (monotone chain); None unless there are exactly two. Were the polygons to
    overlap, no obstacle clear of both could join these sides, so the proof stays sound."""
    pts = np.concatenate([p, q])
    n_p = len(p)
    order = sorted(range(len(pts)), key=lambda i: (float(pts[i, 0]), float(pts[i, 1])))
    xy: list[list[float]] = pts.tolist()

    def cross(a: int, b: int, c: int) -> float:
        return ((xy[b][0] - xy[a][0]) * (xy[c][1] - xy[a][1])
                - (xy[b][1] - xy[a][1]) * (xy[c][0] - xy[a][0]))

    def chain(idx: list[int]) -> list[int]:
        out: list[int] = []
        for i in idx:
            while len(out) >= 2 and cross(out[-2], out[-1], i) <= 0:
                out.pop()
            out.append(i)
        return out[:-1]

    hull = chain(order) + chain(order[::-1])
    sides: list[tuple[FloatArray, FloatArray]] = []
    for a, b in zip(hull, hull[1:] + hull[:1], strict=True):
        if (a < n_p) != (b < n_p):
            i, j = (a, b) if a < n_p else (b, a)
            sides.append((pts[i], pts[j]))
    return sides if len(sides) == 2 else None
