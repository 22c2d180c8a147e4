"""Plan-view shapes (inches, y down) and the models and battlefield built from them.

Every shape is convex (circle, oval, convex polygon) and exposes its *support function*
``h(n) = max_{x in shape} n . x``; the exact distance and tangent computations in
:mod:`w40k.geometry.measure` and :mod:`w40k.geometry.los` only need that.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

MM_PER_INCH = 25.4
"""25.4 mm = 1 inch."""
LINE_WIDTH = 1.0 / MM_PER_INCH
"""06.01: a line of sight is 1 mm wide (in inches)."""
HALF_LINE = LINE_WIDTH / 2.0
"""Half the width of a line of sight: blockers are grown by this much."""
EPS = 1e-9
"""Numerical tolerance (inches) for touching/equal comparisons."""


def mm(value: float) -> float:
    """Millimetres to inches."""
    return value / MM_PER_INCH


@dataclass(frozen=True)
class Circle:
    """A disc in plan view."""

    cx: float
    """Centre x (inches)."""
    cy: float
    """Centre y (inches)."""
    r: float
    """Radius (inches)."""

    @property
    def center(self) -> tuple[float, float]:
        """The centre point."""
        return (self.cx, self.cy)

    def support(self, n: FloatArray) -> FloatArray:
        """Support function for unit normals ``n`` of shape (k, 2)."""
        return n[:, 0] * self.cx + n[:, 1] * self.cy + self.r

    def bbox(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax)."""
        return (self.cx - self.r, self.cy - self.r, self.cx + self.r, self.cy + self.r)

    def outline(self, k: int = 64) -> FloatArray:
        """A k-gon circumscribing the disc (for drawing and set-up code only)."""
        t = np.linspace(0.0, 2 * math.pi, k, endpoint=False)
        rr = self.r / math.cos(math.pi / k)
        return np.stack([self.cx + rr * np.cos(t), self.cy + rr * np.sin(t)], axis=1)


@dataclass(frozen=True)
class Oval:
    """An ellipse in plan view: semi-axis ``a`` along ``angle`` (radians), ``b`` across it."""

    cx: float
    """Centre x (inches)."""
    cy: float
    """Centre y (inches)."""
    a: float
    """Semi-axis along the facing direction (inches)."""
    b: float
    """Semi-axis across the facing direction (inches)."""
    angle: float = 0.0
    """Rotation of the ``a`` axis from +x (radians)."""

    @property
    def center(self) -> tuple[float, float]:
        """The centre point."""
        return (self.cx, self.cy)

    def support(self, n: FloatArray) -> FloatArray:
        """Support function: ``c.n + sqrt((a n.u)^2 + (b n.v)^2)``."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        nu = n[:, 0] * c + n[:, 1] * s
        nv = -n[:, 0] * s + n[:, 1] * c
        return (
            n[:, 0] * self.cx + n[:, 1] * self.cy + np.sqrt((self.a * nu) ** 2 + (self.b * nv) ** 2)
        )

    def bbox(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax)."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        hx = math.hypot(self.a * c, self.b * s)
        hy = math.hypot(self.a * s, self.b * c)
        return (self.cx - hx, self.cy - hy, self.cx + hx, self.cy + hy)

    def outline(self, k: int = 64) -> FloatArray:
        """A k-gon approximating the ellipse (drawing and set-up code only)."""
        t = np.linspace(0.0, 2 * math.pi, k, endpoint=False)
        f = 1.0 / math.cos(math.pi / k)
        x = self.a * f * np.cos(t)
        y = self.b * f * np.sin(t)
        c, s = math.cos(self.angle), math.sin(self.angle)
        return np.stack([self.cx + c * x - s * y, self.cy + s * x + c * y], axis=1)


@dataclass(frozen=True)
class Polygon:
    """A convex polygon in plan view (vertices in order; used for FRAME hulls)."""

    points: tuple[tuple[float, float], ...]
    """Vertices (inches)."""

    def array(self) -> FloatArray:
        """Vertices as an (k, 2) array."""
        return np.asarray(self.points, dtype=np.float64)

    @property
    def center(self) -> tuple[float, float]:
        """Vertex centroid (the 'central axis' used for rotation, 17.02)."""
        a = self.array()
        return (float(a[:, 0].mean()), float(a[:, 1].mean()))

    def support(self, n: FloatArray) -> FloatArray:
        """Support function: max over vertices."""
        return np.asarray((n @ self.array().T).max(axis=1), dtype=np.float64)

    def bbox(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax)."""
        a = self.array()
        return (
            float(a[:, 0].min()),
            float(a[:, 1].min()),
            float(a[:, 0].max()),
            float(a[:, 1].max()),
        )

    def outline(self, k: int = 64) -> FloatArray:
        """The vertices."""
        return self.array()


Shape = Circle | Oval | Polygon
"""A convex plan-view shape."""


def convex_hull(points: FloatArray) -> tuple[tuple[float, float], ...]:
    """Counter-clockwise (in x-right, y-up terms) convex hull of points (monotone chain)."""
    pts = sorted({(float(x), float(y)) for x, y in points})
    if len(pts) <= 2:
        return tuple(pts)

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return tuple(lower[:-1] + upper[:-1])


@dataclass(frozen=True)
class Battlefield:
    """The battlefield rectangle: origin at a corner, x across ``width``, y down ``depth``."""

    width: float = 60.0
    """Width in inches (x)."""
    depth: float = 44.0
    """Depth in inches (y)."""


@dataclass(frozen=True)
class Model:
    """One model: where it stands, what it is, and its plan footprint.

    ``base_mm`` is a diameter (round base) or (w, h) for an oval whose ``w`` axis lies along
    ``facing``; ``None`` for a model without a base, which must then have a ``hull``.
    ``hull`` is a convex polygon in the model's own frame (inches, centred on the model's
    position, x along ``facing``) and is used for FRAME models (17.02): it should cover the
    whole model as seen from above.
    """

    name: str
    """Display name (``Boy 3``)."""
    x: float
    """Centre x (inches)."""
    y: float
    """Centre y (inches)."""
    z: float = 0.0
    """Height of the surface the model stands on (0 = ground level)."""
    base_mm: float | tuple[float, float] | None = 32.0
    """Round diameter or oval (w, h) in mm, or None for baseless models."""
    height: float = 1.6
    """Height of the model above the surface it stands on (inches)."""
    facing: float = 0.0
    """Facing in radians (rotates ovals and hulls)."""
    keywords: frozenset[str] = field(default_factory=frozenset)
    """Upper-case keywords (``INFANTRY``, ``FRAME``, ``FLY``, ...)."""
    hull: tuple[tuple[float, float], ...] | None = None
    """Convex hull footprint in the model's frame (FRAME models), or None."""

    # The kept footprint and reach (not fields): None on the class until a model sets its
    # own. Read as attributes, never through ``__dict__``: reading an object's ``__dict__``
    # makes CPython 3.11 give it a real dict in place of its inline attribute values, and
    # every later attribute read of that model (``m.x``, ``m.z``, ...) then costs ~270
    # instructions more.
    _footprint: ClassVar[Shape | None] = None
    _reach: ClassVar[float | None] = None

    def has(self, *keywords: str) -> bool:
        """True if the model has any of the keywords."""
        kw = self.keywords
        if type(kw) is frozenset:  # the same answer, one set operation (no generator)
            return not kw.isdisjoint(keywords)
        return any(k in kw for k in keywords)

    @property
    def top(self) -> float:
        """Height of the top of the model above ground level."""
        return self.z + self.height

    def base(self) -> Shape | None:
        """The base in world coordinates (None for a baseless model)."""
        if self.base_mm is None:
            return None
        if isinstance(self.base_mm, tuple):
            w, h = self.base_mm
            if w == h:
                return Circle(self.x, self.y, mm(w) / 2)
            return Oval(self.x, self.y, mm(w) / 2, mm(h) / 2, self.facing)
        return Circle(self.x, self.y, mm(self.base_mm) / 2)

    def hull_shape(self) -> Polygon | None:
        """The hull polygon in world coordinates, if any."""
        if self.hull is None:
            return None
        c, s = math.cos(self.facing), math.sin(self.facing)
        pts = tuple((self.x + c * px - s * py, self.y + s * px + c * py) for px, py in self.hull)
        return Polygon(convex_hull(np.asarray(pts, dtype=np.float64)))

    def footprint(self) -> Shape:
        """The shape distances are measured from (01.04 base; 17.02 FRAME: the hull); computed
        once per model object (a model is immutable: a moved model is a new object)."""
        cached = self._footprint  # the class's None until set (see _footprint)
        if cached is None:
            cached = self._make_footprint()
            object.__setattr__(self, "_footprint", cached)
        return cached

    def reach(self) -> float:
        """The radius of the smallest disc centred on (x, y) that holds the footprint, at any
        facing (a bound the spatial queries of ``geometry/battlefield.py`` filter with)."""
        cached = self._reach
        if cached is None:
            fp = self.footprint()
            if isinstance(fp, Circle):
                cached = math.hypot(fp.cx - self.x, fp.cy - self.y) + fp.r
            elif isinstance(fp, Oval):
                cached = math.hypot(fp.cx - self.x, fp.cy - self.y) + max(fp.a, fp.b)
            else:
                pts = fp.array()
                cached = float(np.sqrt(((pts - np.array([self.x, self.y])) ** 2)
                                       .sum(axis=1)).max())
            object.__setattr__(self, "_reach", cached)
        return cached

    def _make_footprint(self) -> Shape:
        if self.hull is not None and ("FRAME" in self.keywords or self.base_mm is None):
            hull = self.hull_shape()
            assert hull is not None
            return hull
        b = self.base()
        if b is None:
            raise ValueError(f"model {self.name!r} has neither a base nor a hull")
        return b

    def moved(
        self, x: float, y: float, z: float | None = None, facing: float | None = None
    ) -> Model:
        """A copy at a new position (and optionally level and facing): :func:`new_model`."""
        return new_model(
            self.name,
            x,
            y,
            self.z if z is None else z,
            self.base_mm,
            self.height,
            self.facing if facing is None else facing,
            self.keywords,
            self.hull,
        )


_new_object = object.__new__
_set = object.__setattr__


def new_model(
    name: str,
    x: float,
    y: float,
    z: float,
    base_mm: float | tuple[float, float] | None,
    height: float,
    facing: float,
    keywords: frozenset[str],
    hull: tuple[tuple[float, float], ...] | None = None,
) -> Model:
    """``Model(name, x, y, z, base_mm, height, facing, keywords, hull)`` without the call
    of the frozen dataclass's ``__init__``: the same nine ``object.__setattr__`` in the same
    order (no ``__post_init__``, no conversion: an equal model, the same hash, ``repr`` and
    ``vars``), ~13k instructions instead of ~16k (thousands of models a game: the ends of
    the tried moves, each step of a validated path, a moved unit's shapes). Not through
    ``__dict__`` (cheaper still, ~5k, but the model then loses its inline attributes and
    every read of it costs more: measured worse on a whole game)."""
    m: Model = _new_object(Model)
    _set(m, "name", name)
    _set(m, "x", x)
    _set(m, "y", y)
    _set(m, "z", z)
    _set(m, "base_mm", base_mm)
    _set(m, "height", height)
    _set(m, "facing", facing)
    _set(m, "keywords", keywords)
    _set(m, "hull", hull)
    return m
