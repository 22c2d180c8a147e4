"""Kept outlines of terrain features for the move checks (``movement.py``).

A move step or a model's end spot meets only the features whose box it meets. The footprint
array of a feature and its bounding box used to be built again for every feature at every
step (``TerrainFeature.array()`` and four ``min``/``max``), most of them only to reject the
feature. :func:`outlines` builds them once per :class:`Terrain` (a frozen object: its
features never change), in the order of ``terrain.features``, with the same float values as
before, so every answer is the same.

Entries hold the terrain they describe (an ``id`` is never reused while it is kept); the table
is emptied when it grows past :data:`LIMIT` terrains. Nothing here is saved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from w40k.core import kept
from w40k.geometry.measure import point_segment
from w40k.geometry.shapes import FloatArray
from w40k.geometry.terrain import Terrain, TerrainFeature

LIMIT = 64
"""Terrains kept before the table is emptied (each loaded game has its own)."""


@dataclass(frozen=True, slots=True)
class Outline:
    """A feature's footprint as an array (read-only) and its bounding box."""

    feature: TerrainFeature
    """The feature."""
    region: FloatArray
    """``feature.array()``, built once (not writeable)."""
    x0: float
    """Smallest x of the footprint."""
    y0: float
    """Smallest y of the footprint."""
    x1: float
    """Largest x of the footprint."""
    y1: float
    """Largest y of the footprint."""
    nxt: FloatArray
    """Each vertex's successor (``np.roll(region, -1, axis=0)``; not writeable)."""
    edges: tuple[tuple[float, float, float, float], ...]
    """The edges (x1, y1, x2, y2): each vertex to its successor, as Python floats."""

    def misses(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """The box ``(x0, y0, x1, y1)`` is strictly apart from the footprint's box (so the
        exact tests would find a positive gap)."""
        return x1 < self.x0 or x0 > self.x1 or y1 < self.y0 or y0 > self.y1

    def holds_point(self, x: float, y: float) -> bool:
        """``measure.point_in_polygon`` for one point (even-odd, the same float operations
        in the same order, so the same answer)."""
        inside = False
        for x1, y1, x2, y2 in self.edges:
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside

    def disc_distance(self, cx: float, cy: float, r: float) -> float:
        """``measure.shape_region_distance(Circle(cx, cy, r), region)`` with the same float
        operations (scalar, no arrays): 0 when the centre is inside, else the gap."""
        if self.holds_point(cx, cy):
            return 0.0
        return max(0.0, min(point_segment(cx, cy, x1, y1, x2, y2)
                            for x1, y1, x2, y2 in self.edges) - r)

    def disc_meets(self, cx: float, cy: float, r: float) -> bool:
        """``disc_distance(cx, cy, r) <= 0.0``, stopping at the first edge that decides it."""
        if self.holds_point(cx, cy):
            return True
        return any(point_segment(cx, cy, x1, y1, x2, y2) - r <= 0.0
                   for x1, y1, x2, y2 in self.edges)

    def segment_within(self, px: float, py: float, qx: float, qy: float, t: float) -> bool:
        """``segment_distance(px, py, qx, qy) < t``, stopping at the first distance below
        ``t`` (a crossing edge counts as 0, as there)."""
        for x1, y1, x2, y2 in self.edges:
            if _crossing(px, py, qx, qy, x1, y1, x2, y2):
                if t > 0.0:
                    return True
                continue
            if (point_segment(px, py, x1, y1, x2, y2) < t
                    or point_segment(qx, qy, x1, y1, x2, y2) < t
                    or point_segment(x1, y1, px, py, qx, qy) < t
                    or point_segment(x2, y2, px, py, qx, qy) < t):
                return True
        return False

    def segment_distance(self, px: float, py: float, qx: float, qy: float) -> float:
        """The smallest of ``measure.segment_segment_distance`` between the segment p-q and
        every edge (the same float operations, scalar)."""
        best = math.inf
        for x1, y1, x2, y2 in self.edges:
            if _crossing(px, py, qx, qy, x1, y1, x2, y2):
                return 0.0
            best = min(best, point_segment(px, py, x1, y1, x2, y2),
                       point_segment(qx, qy, x1, y1, x2, y2),
                       point_segment(x1, y1, px, py, qx, qy),
                       point_segment(x2, y2, px, py, qx, qy))
        return best


def _orient(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> float:
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def _crossing(px: float, py: float, qx: float, qy: float, ax: float, ay: float, bx: float,
              by: float) -> bool:
    """``measure._segments_intersect`` for segments p-q and a-b, scalar."""
    d1, d2 = _orient(ax, ay, bx, by, px, py), _orient(ax, ay, bx, by, qx, qy)
    d3, d4 = _orient(px, py, qx, qy, ax, ay), _orient(px, py, qx, qy, bx, by)
    return (((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 != 0 and d3 != 0)


def outline(f: TerrainFeature) -> Outline:
    """One feature's outline (not kept: :func:`outlines` keeps a terrain's)."""
    region = f.array()
    region.flags.writeable = False
    nxt = np.roll(region, -1, axis=0)
    nxt.flags.writeable = False
    edges = tuple((float(a[0]), float(a[1]), float(b[0]), float(b[1]))
                  for a, b in zip(region.tolist(), nxt.tolist(), strict=True))
    return Outline(f, region, float(region[:, 0].min()), float(region[:, 1].min()),
                   float(region[:, 0].max()), float(region[:, 1].max()), nxt, edges)


_KEPT: dict[int, tuple[Terrain, tuple[Outline, ...]]] = kept.table()


def outlines(terrain: Terrain) -> tuple[Outline, ...]:
    """The outlines of ``terrain.features``, in order (kept per terrain)."""
    hit = _KEPT.get(id(terrain))
    if hit is not None and hit[0] is terrain:
        return hit[1]
    out = tuple(outline(f) for f in terrain.features)
    if len(_KEPT) >= LIMIT:
        _KEPT.clear()
    _KEPT[id(terrain)] = (terrain, out)
    return out
