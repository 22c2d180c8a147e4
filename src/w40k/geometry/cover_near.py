"""Model pairs that terrain surely stands between, without the pair hull (13.08 (ii)).

HULL_RAMP (:func:`w40k.geometry.los_hull.hull_blockers`) counts an edge of an obstacle when
it meets the pair hull (its start inside the hull, or the edge within ``grow - TOUCH`` of a
hull edge) and its top is above the ramp at its closest approach to the target
(:func:`~w40k.geometry.los_hull.above_ramp`, elementwise). The pair hull is the convex hull of
the two footprints' 48-gons, which circumscribe the footprints, so it holds the capsule of
radius ``rin`` (the smaller footprint's inner radius: a round base's radius, an oval's half
minor axis, 0 for a polygon, whose centre is inside it) around the segment between the two
centres. Hence an edge meets the hull when

- its ``grow`` exceeds ``TOUCH`` (by ``GROW_SLACK``) and it comes within ``rin + grow -
  TOUCH - MARGIN`` of that segment: a point of the edge is then within ``grow - TOUCH -
  MARGIN`` of the capsule (inside it for an obscuring area, grown by only 1e-6"), so either
  inside the hull (the edge starts inside or crosses a hull edge: distance 0, or a rounding
  of it, less than ``grow - TOUCH``) or within that distance of the hull's boundary; or
- its start is within ``rin - MARGIN`` of the segment: it is inside the hull, ``MARGIN``
  (1e-6") from its boundary, far beyond the roundings of the inside test.

Such an edge whose top is above the ramp (the very floats the hull test computes) is a
blocker: the pair's blockers are not empty. Where this proves nothing the hull test runs as
before; it only ever spares the hull (the HULL_RAMP flags of a model pair not seen CLEAR,
the blockers that the terrain-only full visibility test asks before its walls' shadows).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from w40k.geometry.edge_rows import edge_rows
from w40k.geometry.los_dist import _seg_dist1
from w40k.geometry.los_hull import _NONE, above_ramp1, ramp_of
from w40k.geometry.los_obstacles import TOUCH, Obstacles, unique_ids
from w40k.geometry.measure import point_segment
from w40k.geometry.shapes import Circle, Oval, Shape

MARGIN = 1e-6
"""How far inside the bounds above an edge must be (inches): the roundings are ~1e-14."""

GROW_SLACK = 1e-9
"""How far an edge's ``grow`` must exceed ``TOUCH`` for a crossing (computed distance 0, or
a rounding of it) to count (an obscuring area's 1e-6" does, a bare polygon's 0 does not)."""


@functools.lru_cache(maxsize=4096)
def _inner(s: Shape) -> tuple[float, float, float]:
    """(cx, cy, rin): the shape's centre and the radius of a disc about it inside the shape
    (kept per shape)."""
    cx, cy = s.center
    if isinstance(s, Circle):
        rin = s.r
    elif isinstance(s, Oval):
        rin = min(s.a, s.b)
    else:
        rin = 0.0
    return float(cx), float(cy), float(rin)


def blocker_sure(o: Shape, t: Shape, level_t: float, top_o: float, obs: Obstacles) -> bool:
    """Some edge of ``obs`` is surely one of HULL_RAMP's blockers of observer ``o`` (top
    ``top_o``) and target ``t`` (base level ``level_t``): ``hull_blockers(o, t, level_t,
    top_o, obs)`` is not empty (module docstring). False: not known."""
    if len(obs.a) == 0:
        return False
    ox, oy, ro = _inner(o)
    tx, ty, rt = _inner(t)
    rin = min(ro, rt)
    # an edge near the capsule has its grown box within rin of the segment's box (the
    # grown box as los_hull._edge_boxes computes it: each side of the box and the grow)
    lox, hix = min(ox, tx) - rin, max(ox, tx) + rin
    loy, hiy = min(oy, ty) - rin, max(oy, ty) + rin
    # edge by edge, the first that meets the capsule and is above the ramp answers (the
    # answer is whether any does: the same in any order)
    ramp: tuple[float, float, float, float] | None = None
    for xlo, ylo, xhi, yhi, ax, ay, bx, by, g, top in edge_rows(obs):
        if xhi + g < lox or xlo - g > hix or yhi + g < loy or ylo - g > hiy:
            continue
        if not ((g > TOUCH + GROW_SLACK
                 and _seg_dist1(ox, oy, tx, ty, ax, ay, bx, by) < rin + g - TOUCH - MARGIN)
                or point_segment(ax, ay, ox, oy, tx, ty) < rin - MARGIN):
            continue
        if ramp is None:
            ramp = ramp_of(o, t)
        if above_ramp1(ramp, level_t, top_o, ax, ay, bx, by, g, top):
            return True
    return False


_OUT48 = 1.0 / math.cos(math.pi / 48) * (1.0 + 1e-9)
"""A circle's 48-gon (``Circle.outline(48)``, the pair hull's) has its vertices at ``r /
cos(pi / 48)`` from the centre: this factor and a hair more bounds them."""


def capsule_blockers(
    o: Shape, t: Shape, level_t: float, top_o: float, obs: Obstacles
) -> np.ndarray | None:
    """``hull_blockers(o, t, level_t, top_o, obs)`` without the pair hull, for two round
    footprints, when every edge is surely in or surely out of it; None when some edge is
    neither (or a footprint is not round). The hull lies between two capsules about the
    segment between the centres: the inner one of the smaller radius (the 48-gons
    circumscribe the discs: :func:`blocker_sure`'s bounds, an edge surely meeting the hull)
    and the outer one of the larger 48-gon's vertex radius (the hull of points within it).
    An edge farther than that radius plus ``max(grow - TOUCH, 0)`` and ``MARGIN`` from the
    segment neither starts inside the hull nor comes within ``grow - TOUCH`` of a hull edge
    (the roundings are ~1e-14"), nor does one whose grown box misses the outer capsule's
    box. The edges surely in count when above the ramp (:func:`los_hull.above_ramp1`, the
    same floats as ``above_ramp``): the same owners, sorted and distinct as
    ``hull_blockers`` gives them."""
    if not (isinstance(o, Circle) and isinstance(t, Circle)) or len(obs.a) == 0:
        return None
    ox, oy, ro = o.cx, o.cy, o.r
    tx, ty, rt = t.cx, t.cy, t.r
    rin = min(ro, rt)
    rout = max(ro, rt) * _OUT48
    lox, hix = min(ox, tx) - rout, max(ox, tx) + rout
    loy, hiy = min(oy, ty) - rout, max(oy, ty) + rout
    ramp: tuple[float, float, float, float] | None = None
    hit: list[int] = []
    for k, (xlo, ylo, xhi, yhi, ax, ay, bx, by, g, top) in enumerate(edge_rows(obs)):
        if xhi + g < lox or xlo - g > hix or yhi + g < loy or ylo - g > hiy:
            continue
        d = _seg_dist1(ox, oy, tx, ty, ax, ay, bx, by)
        if d > rout + max(g - TOUCH, 0.0) + MARGIN:
            continue
        if not ((g > TOUCH + GROW_SLACK and d < rin + g - TOUCH - MARGIN)
                or point_segment(ax, ay, ox, oy, tx, ty) < rin - MARGIN):
            return None
        if ramp is None:
            ramp = ramp_of(o, t)
        if above_ramp1(ramp, level_t, top_o, ax, ay, bx, by, g, top):
            hit.append(k)
    if not hit:
        return _NONE
    return unique_ids(obs.owner[np.array(hit, dtype=np.int64)])
