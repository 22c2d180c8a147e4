"""Terrain features (prisms) and terrain areas (13.01-13.11)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from w40k.geometry.measure import shape_inside_region, shape_region_distance
from w40k.geometry.shapes import EPS, FloatArray, Model

SOLID_HEIGHT = 3.0
"""13.11: dense features are Solid up to 3" from ground level."""
DENSE_CROSSING_HEIGHT = 2.0
"""13.06: other models cross dense sections 2" or less in height horizontally."""
SUPER_HEAVY_CROSSING_HEIGHT = 4.0
"""24.35: Super-heavy Walkers cross sections 4" or less in height horizontally."""
PLUNGING_FIRE_HEIGHT = 3.0
"""22.05: attacking from a section 3" or more in height."""


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

    def array(self) -> FloatArray:
        """Footprint as an (k, 2) array."""
        return np.asarray(self.footprint, dtype=np.float64)

    def holds(self, m: Model) -> bool:
        """The model is within the area: any part of its footprint in it (14.01, 13.08)."""
        return shape_region_distance(m.footprint(), self.array()) <= EPS

    def wholly_holds(self, m: Model) -> bool:
        """The model is wholly within the area."""
        return shape_inside_region(m.footprint(), self.array())


@dataclass(frozen=True)
class Terrain:
    """All terrain on a battlefield."""

    areas: tuple[TerrainArea, ...] = ()
    """Terrain areas."""
    features: tuple[TerrainFeature, ...] = ()
    """Terrain features."""

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
