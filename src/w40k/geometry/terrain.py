"""Terrain features (prisms) and terrain areas (13.01-13.11)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar

import numpy as np

from w40k.geometry.measure import (
    point_segment_distance,
    polygon_distance,
    shape_inside_region,
    shape_region_distance,
)
from w40k.geometry.shapes import EPS, LINE_WIDTH, FloatArray, Model, convex_hull

SOLID_HEIGHT = 3.0
"""13.11: dense features are Solid up to 3" from ground level."""
DENSE_CROSSING_HEIGHT = 2.0
"""13.06: other models cross dense sections 2" or less in height horizontally."""
SUPER_HEAVY_CROSSING_HEIGHT = 4.0
"""24.35: Super-heavy Walkers cross sections 4" or less in height horizontally."""
PLUNGING_FIRE_HEIGHT = 3.0
"""22.05: attacking from a section 3" or more in height."""
SOLID_GAP = 3.0
"""R13.11-b reading: gaps of 3" or less between dense features of one terrain area are filled
for line of sight (``Terrain.solid_gap``; None switches the reading off)."""


BOX_MARGIN = 1e-6
"""How far apart (inches) the bounding boxes of a footprint and an area must be for
:meth:`TerrainArea.holds` to answer False without measuring: far more than the rounding of
the measure, and more than its ``EPS``, so the answer is the measured one."""


class Category(Enum):
    """13.02: every terrain feature belongs to exactly one category."""

    EXPOSED = "exposed"
    LIGHT = "light"
    DENSE = "dense"


@dataclass(frozen=True)
class Surface:
    """A surface of a feature above ground level that models can stand on (a floor, a roof)."""

    footprint: tuple[tuple[float, float], ...]
    """Plan outline of the surface (inches)."""
    height: float
    """Its height above ground level."""
    stable: bool = True
    """13.06: whether a model can stand on it stably."""

    def array(self) -> FloatArray:
        """Footprint as an (k, 2) array."""
        return np.asarray(self.footprint, dtype=np.float64)


@dataclass(frozen=True)
class TerrainFeature:
    """A terrain feature: a vertical prism ``footprint x [0, height]`` of one category.

    For line of sight the prism is opaque up to ``opaque_height`` (default: its full height)
    and see-through above it (the open upper storeys of a ruin). Dense features are Solid
    (13.11), so their opaque height is never below ``min(3", height)``.
    """

    name: str
    """Display name."""
    category: Category
    """Exposed, light or dense."""
    footprint: tuple[tuple[float, float], ...]
    """Plan outline (inches); may be non-convex (an L-shaped wall)."""
    height: float
    """Height of its tallest section (inches)."""
    area: str | None = None
    """Name of the terrain area holding it."""
    opaque_height: float | None = None
    """Height up to which it blocks sight (None: its full height)."""
    surfaces: tuple[Surface, ...] = field(default_factory=tuple)
    """Surfaces above ground level models may stand on (the top of the prism is one by
    default if no surfaces are given)."""

    def array(self) -> FloatArray:
        """Footprint as an (k, 2) array."""
        return np.asarray(self.footprint, dtype=np.float64)

    @property
    def sight_height(self) -> float:
        """Height up to which the feature blocks lines of sight (13.11 for dense)."""
        h = self.height if self.opaque_height is None else min(self.opaque_height, self.height)
        if self.category is Category.DENSE:
            h = max(h, min(SOLID_HEIGHT, self.height))
        return h

    def standing_surfaces(self) -> tuple[Surface, ...]:
        """Upper surfaces (the prism top when none are listed)."""
        if self.surfaces:
            return self.surfaces
        return (Surface(self.footprint, self.height),)

    def touches(self, m: Model) -> bool:
        """True if the model's footprint overlaps this feature's footprint in plan."""
        return shape_region_distance(m.footprint(), self.array()) <= EPS


@dataclass(frozen=True)
class TerrainArea:
    """13.01: a terrain area (the boundary of a mat, base, or agreed outline)."""

    name: str
    """Display name."""
    footprint: tuple[tuple[float, float], ...]
    """Plan outline (inches)."""

    # The kept box and array (not fields): None on the class until an area sets its own.
    # Read as attributes, never through ``__dict__``: reading an object's ``__dict__`` makes
    # CPython 3.11 give it a real dict in place of its inline attribute values, and every
    # later attribute read of the area then costs ~270 instructions more (as ``Model``'s
    # kept footprint, ``geometry/shapes.py``).
    _box: ClassVar[tuple[float, float, float, float] | None] = None
    _array: ClassVar[FloatArray | None] = None

    def array(self) -> FloatArray:
        """Footprint as an (k, 2) array."""
        return np.asarray(self.footprint, dtype=np.float64)

    def holds(self, m: Model) -> bool:
        """The model is within the area: any part of its footprint in it (14.01, 13.08).
        A footprint whose bounding box is clear of the area's by more than
        :data:`BOX_MARGIN` is not (the same answer, without measuring)."""
        fp = m.footprint()
        x0, y0, x1, y1 = fp.bbox()
        ax0, ay0, ax1, ay1 = self.box()
        if (x0 > ax1 + BOX_MARGIN or x1 < ax0 - BOX_MARGIN or y0 > ay1 + BOX_MARGIN
                or y1 < ay0 - BOX_MARGIN):
            return False
        return shape_region_distance(fp, self.kept_array()) <= EPS

    def box(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of the footprint (computed once: the area is frozen)."""
        cached = self._box  # the class's None until set (see _box)
        if cached is None:
            xs = [float(x) for x, _ in self.footprint]
            ys = [float(y) for _, y in self.footprint]
            cached = (min(xs), min(ys), max(xs), max(ys))
            object.__setattr__(self, "_box", cached)
        return cached

    def kept_array(self) -> FloatArray:
        """:meth:`array`, made once and read-only (do not change it)."""
        cached = self._array  # the class's None until set (see _box)
        if cached is None:
            cached = self.array()
            cached.flags.writeable = False
            object.__setattr__(self, "_array", cached)
        return cached

    def wholly_holds(self, m: Model) -> bool:
        """The model is wholly within the area."""
        return shape_inside_region(m.footprint(), self.array())


@dataclass(frozen=True)
class GapFiller:
    """R13.11-b reading: the gap between two dense features of one terrain area, opaque for
    line of sight up to ``height`` = min(3", both heights), like the features' Solid part.

    ``footprint`` is the convex hull of the parts of the two features at their smallest
    distance from each other (the vertices of each at that distance from the other and their
    closest points on it): the opening of a broken wall, the narrowest cross-section of two
    walls at an angle, or the whole corridor between two parallel walls. A segment (two points)
    when the closest parts are a vertex and a point."""

    features: tuple[str, str]
    """The two features' names."""
    footprint: tuple[tuple[float, float], ...]
    """The filled region (inches): a convex polygon, or a segment."""
    height: float
    """Opaque up to this height."""

    def array(self) -> FloatArray:
        """Footprint as an (k, 2) array."""
        return np.asarray(self.footprint, dtype=np.float64)


def _closest_on(p: FloatArray, poly: FloatArray) -> tuple[float, FloatArray]:
    """Distance from point ``p`` to a polygon's boundary and the closest boundary point."""
    a = poly
    b = np.roll(poly, -1, axis=0) if len(poly) >= 3 else poly[::-1]
    d = point_segment_distance(p[None, :], a, b)
    k = int(np.argmin(d))
    ab = b[k] - a[k]
    t = float(np.clip(np.dot(p - a[k], ab) / max(float(np.dot(ab, ab)), 1e-300), 0.0, 1.0))
    return float(d[k]), a[k] + ab * t


def gap_filler(a: TerrainFeature, b: TerrainFeature, limit: float) -> GapFiller | None:
    """The filler of the gap between two dense features (R13.11-b reading), or None when they
    are farther apart than ``limit`` or closer than the 1 mm line's width (a gap that narrow
    already blocks)."""
    pa, pb = a.array(), b.array()
    gap = polygon_distance(pa, pb)
    if gap > limit + EPS or gap <= LINE_WIDTH:
        return None
    pts: list[FloatArray] = []
    for p_from, p_to in ((pa, pb), (pb, pa)):
        for v in p_from:
            d, q = _closest_on(v, p_to)
            if d <= gap + 1e-6:
                pts += [v, q]
    hull = convex_hull(np.asarray(pts))
    if len(hull) < 2:
        return None
    height = min(SOLID_HEIGHT, a.height, b.height)
    return GapFiller((a.name, b.name), hull, height)


@dataclass(frozen=True)
class Terrain:
    """All terrain on a battlefield."""

    areas: tuple[TerrainArea, ...] = ()
    """Terrain areas."""
    features: tuple[TerrainFeature, ...] = ()
    """Terrain features."""
    solid_gap: float | None = SOLID_GAP
    """R13.11-b reading: fill gaps up to this wide between dense features of one area for
    line of sight (None: only each feature's own surface is Solid)."""

    def gap_fillers(self) -> tuple[GapFiller, ...]:
        """R13.11-b: the filled gaps between the dense features of each terrain area."""
        if self.solid_gap is None:
            return ()
        out: list[GapFiller] = []
        for area in self.areas:
            dense = [f for f in self.features_in(area.name) if f.category is Category.DENSE]
            for i, fa in enumerate(dense):
                for fb in dense[i + 1 :]:
                    g = gap_filler(fa, fb, self.solid_gap)
                    if g is not None:
                        out.append(g)
        return tuple(out)

    def features_in(self, area: str) -> tuple[TerrainFeature, ...]:
        """The features an area holds."""
        return tuple(f for f in self.features if f.area == area)

    def contains_dense(self, area: str) -> bool:
        """The area holds one or more dense features (13.09)."""
        return any(f.category is Category.DENSE for f in self.features_in(area))

    def is_obscuring(self, area: str) -> bool:
        """13.10: an area holding one or more light or dense features is obscuring."""
        return any(f.category in (Category.LIGHT, Category.DENSE) for f in self.features_in(area))

    def area(self, name: str) -> TerrainArea:
        """Look an area up by name."""
        for a in self.areas:
            if a.name == name:
                return a
        raise KeyError(name)

    def areas_holding(self, m: Model) -> tuple[TerrainArea, ...]:
        """Every area the model is within."""
        return tuple(a for a in self.areas if a.holds(m))

    def in_terrain_area(self, m: Model) -> bool:
        """The model is within one or more terrain areas."""
        return bool(self.areas_holding(m))

    def in_dense_area(self, m: Model) -> bool:
        """The model is within an area containing a dense feature (13.09)."""
        return any(self.contains_dense(a.name) for a in self.areas_holding(m))

    def section_height_under(self, m: Model) -> float:
        """Height of the tallest terrain section the model stands on (0 at ground level).

        22.05 asks whether the attacker 'is on a section of a terrain feature that is 3" or
        more in height': we read that as the model's level ``z`` when it stands on a surface
        of a feature it overlaps in plan."""
        if m.z <= EPS:
            return 0.0
        for f in self.features:
            for s in f.standing_surfaces():
                on = shape_region_distance(m.footprint(), s.array()) <= EPS
                if abs(s.height - m.z) <= EPS and on:
                    return m.z
        return 0.0
