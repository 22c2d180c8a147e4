"""The kept battlefield model: models as arrays, a uniform-grid spatial index, and vectorised
engagement, coherency and distance queries (docs/geometry.md "The kept battlefield model").

A :class:`Layout` is built once from a group of :class:`~w40k.geometry.shapes.Model` objects
(their footprints, computed once each) and answers the same questions as the pairwise
functions of :mod:`w40k.geometry.measure`, with the **same answers**:

* every footprint gets a centre and a *bounding radius* (the exact radius for a round base;
  the farthest point for an oval or a hull), so ``|c_a - c_b| - R_a - R_b`` is the exact
  horizontal distance for two round bases and a lower bound otherwise;
* a pair is decided from those arrays only when the answer cannot depend on rounding: when it
  lies within :data:`MARGIN` of the threshold, or involves a footprint that is not round and
  the lower bound does not already settle it, the pair is measured again with the exact
  pairwise function (:func:`~w40k.geometry.measure.within`). So a fast answer never differs
  from the plain one.

:class:`Grid` is the spatial index: model indices bucketed by the cells their bounding discs
cover, answering "which models are within ``d`` of this disc" without looking at the rest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from w40k.core import kept
from w40k.geometry.measure import (
    COHERENCY_ALL,
    COHERENCY_NEIGHBOUR,
    COHERENCY_VERTICAL,
    ENGAGEMENT_HORIZONTAL,
    ENGAGEMENT_VERTICAL,
    CoherencyBreak,
    coherency_breaks,
    distance,
    vertical_distance,
    vertical_extent,
    within,
)
from w40k.geometry.shapes import EPS, Circle, FloatArray, Model, Oval, Polygon, Shape

MARGIN = 1e-7
"""Inches: a vectorised distance this close to a threshold is measured again exactly."""
CELL = 4.0
"""Grid cell size in inches (about two 32 mm bases plus engagement range)."""


def bounding_radius(shape: Shape) -> float:
    """The radius of the smallest disc around the shape's centre that holds it."""
    if isinstance(shape, Circle):
        return shape.r
    if isinstance(shape, Oval):
        return max(shape.a, shape.b)
    pts = shape.array()
    cx, cy = shape.center
    return float(np.sqrt(((pts - np.array([cx, cy])) ** 2).sum(axis=1)).max())


@dataclass(frozen=True, eq=False)
class Layout:
    """A group of models as arrays (built once; a model that moves needs a new layout)."""

    models: tuple[Model, ...]
    """The models, in the order given."""
    centres: FloatArray
    """(n, 2) footprint centres."""
    radii: FloatArray
    """(n,) bounding radii (exact for round bases)."""
    round: np.ndarray
    """(n,) True where the footprint is a round base (a :class:`Circle`)."""
    z0: FloatArray
    """(n,) bottom of the vertical extent (the base level)."""
    z1: FloatArray
    """(n,) top of the vertical extent (the base level, or the top of a FRAME model)."""
    box: tuple[float, float, float, float] = field(default=(0.0, 0.0, 0.0, 0.0))
    """(xmin, ymin, xmax, ymax) of all bounding discs."""

    @staticmethod
    def of(models: Sequence[Model]) -> Layout:
        """The layout of ``models`` (footprints computed once here)."""
        fps = [m.footprint() for m in models]
        n = len(fps)
        centres = np.array([f.center for f in fps], dtype=np.float64).reshape(n, 2)
        radii = np.array([bounding_radius(f) for f in fps], dtype=np.float64)
        ext = [vertical_extent(m) for m in models]
        z0 = np.array([e[0] for e in ext], dtype=np.float64)
        z1 = np.array([e[1] for e in ext], dtype=np.float64)
        rnd = np.array([isinstance(f, Circle) for f in fps], dtype=bool)
        if n:
            box = (float((centres[:, 0] - radii).min()), float((centres[:, 1] - radii).min()),
                   float((centres[:, 0] + radii).max()), float((centres[:, 1] + radii).max()))
        else:
            box = (math.inf, math.inf, -math.inf, -math.inf)
        return Layout(tuple(models), centres, radii, rnd, z0, z1, box)

    def __len__(self) -> int:
        return len(self.models)

    def box_gap(self, other: Layout) -> float:
        """The gap between the two layouts' boxes (a lower bound of every pair's distance)."""
        a, b = self.box, other.box
        return max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])


def _vertical(a: Layout, b: Layout) -> FloatArray:
    """(n_a, n_b) vertical distances (``measure.vertical_distance``)."""
    return np.asarray(np.maximum(0.0, np.maximum(b.z0[None, :] - a.z1[:, None],
                                                 a.z0[:, None] - b.z1[None, :])),
                      dtype=np.float64)


def _horizontal_bound(a: Layout, b: Layout) -> FloatArray:
    """(n_a, n_b) centre distance less both bounding radii: exact for two round bases."""
    d = a.centres[:, None, :] - b.centres[None, :, :]
    return np.asarray(np.sqrt((d * d).sum(axis=2)) - a.radii[:, None] - b.radii[None, :],
                      dtype=np.float64)


def within_matrix(a: Layout, b: Layout, horizontal: float,
                  vertical: float | None = None, *, as_matrix: bool = False) -> np.ndarray:
    """(n_a, n_b) booleans: ``measure.within(a_i, b_j, horizontal, vertical)`` for every pair,
    vectorised, with pairs near the threshold or involving other footprints measured
    exactly. ``as_matrix``: decide as ``measure.coherency_breaks`` does (the same array
    formula as ``measure.distance_matrix`` for round bases, so no pair is re-measured)."""
    out = np.zeros((len(a), len(b)), dtype=bool)
    if not len(a) or not len(b):
        return out
    h = _horizontal_bound(a, b)
    limit = horizontal + EPS
    both_round = a.round[:, None] & b.round[None, :]
    v = _vertical(a, b) if vertical is not None else None
    vlimit = (vertical if vertical is not None else 0.0) + EPS
    if as_matrix:
        out = h <= limit
        if v is not None:
            out &= v <= vlimit
        out &= both_round
        check = ~both_round & (h <= limit + MARGIN)
        if v is not None:
            check &= v <= vlimit
        for i, j in zip(*np.nonzero(check), strict=True):
            out[i, j] = distance(a.models[i].footprint(), b.models[j].footprint()) <= limit
        return out
    ok = h <= limit - MARGIN
    unsure = h <= limit + MARGIN
    if v is not None:
        ok &= v <= vlimit - MARGIN
        unsure &= v <= vlimit + MARGIN
    sure = ok & both_round
    out |= sure
    check = unsure & ~sure
    for i, j in zip(*np.nonzero(check), strict=True):
        out[i, j] = within(a.models[i], b.models[j], horizontal, vertical)
    return out


def any_within(a: Layout, b: Layout, horizontal: float, vertical: float | None = None) -> bool:
    """Some model of ``a`` is within ``horizontal`` (and ``vertical``) of some model of
    ``b`` (same answer as ``any(within(x, y, ...))``)."""
    if not len(a) or not len(b) or a.box_gap(b) > horizontal + EPS + MARGIN:
        return False
    return bool(within_matrix(a, b, horizontal, vertical).any())


def any_engaged(a: Layout, b: Layout) -> bool:
    """03.04: a model of ``a`` within engagement range (2" / 5") of a model of ``b``."""
    return any_within(a, b, ENGAGEMENT_HORIZONTAL, ENGAGEMENT_VERTICAL)


def engaged_with(a: Layout, b: Layout) -> np.ndarray:
    """(n_a,) booleans: each model of ``a`` is engaged with some model of ``b``."""
    if not len(a) or not len(b) or a.box_gap(b) > ENGAGEMENT_HORIZONTAL + EPS + MARGIN:
        return np.zeros(len(a), dtype=bool)
    return np.asarray(within_matrix(a, b, ENGAGEMENT_HORIZONTAL,
                                    ENGAGEMENT_VERTICAL).any(axis=1))


def coherent(layout: Layout) -> bool:
    """03.03 (``measure.in_coherency``): every model within 2"/5" of another and within
    9"/5" of every other."""
    n = len(layout)
    if n <= 1:
        return True
    near = within_matrix(layout, layout, COHERENCY_NEIGHBOUR, COHERENCY_VERTICAL,
                         as_matrix=True)
    np.fill_diagonal(near, False)
    if not near.any(axis=1).all():
        return False
    return bool(within_matrix(layout, layout, COHERENCY_ALL, COHERENCY_VERTICAL,
                              as_matrix=True).all())


def breaks(layout: Layout) -> list[CoherencyBreak]:
    """``measure.coherency_breaks`` of the layout's models (the plain function when some
    model breaks coherency, for its exact report)."""
    if coherent(layout):
        return []
    return coherency_breaks(layout.models)


def inner_radius(shape: Shape) -> float:
    """The radius of a disc around the shape's centre that lies inside it: a round base's
    radius, an oval's smaller semi-axis; 0 for a hull (its centre may lie on its edge)."""
    if isinstance(shape, Circle):
        return shape.r
    if isinstance(shape, Oval):
        return min(shape.a, shape.b)
    return 0.0


def spot_bounds(start: Model, pts: FloatArray, others: Sequence[Model]
                ) -> tuple[FloatArray, FloatArray]:
    """(k, n) lower and upper bounds of ``horizontal_distance(start.moved(x, y), o)`` for
    every spot (x, y) of ``pts`` (k, 2) and every model ``o`` of ``others``: the footprints'
    centre distance less both bounding radii, and less both inner radii (a footprint holds
    the disc of its inner radius and lies in the disc of its bounding radius), never below 0;
    both are the distance itself (to rounding) for two round bases. A hull's upper bound is
    infinite."""
    fp = start.footprint()
    cx, cy = fp.center
    ox, oy = cx - start.x, cy - start.y  # the footprint's centre moves with the model
    oc, outer, inner = _rows(others)
    dx = pts[:, 0, None] + ox - oc[None, :, 0]
    dy = pts[:, 1, None] + oy - oc[None, :, 1]
    d = np.sqrt(dx * dx + dy * dy)
    s_in = -math.inf if isinstance(fp, Polygon) else inner_radius(fp)
    lower = np.maximum(0.0, d - bounding_radius(fp) - outer[None, :])
    upper = np.maximum(0.0, d - s_in - inner[None, :])
    return np.asarray(lower, dtype=np.float64), np.asarray(upper, dtype=np.float64)


_ROWS: dict[tuple[int, ...],
            tuple[tuple[Model, ...], FloatArray, FloatArray, FloatArray]] = kept.table()
""":func:`_rows`' answers by the models' ids (an entry holds the models, immutable
objects, so an ``id`` is not reused while it is kept); emptied past :data:`ROWS_LIMIT`."""
ROWS_LIMIT = 512


def _rows(others: Sequence[Model]) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(n, 2) footprint centres, (n,) bounding radii and (n,) inner radii (-inf for a hull)
    of ``others``, for :func:`spot_bounds`: built once per group of model objects (a proposer
    measures its spots against the same groups chunk after chunk; the same floats)."""
    key = tuple(map(id, others))
    hit = _ROWS.get(key)
    if hit is not None:
        return hit[1], hit[2], hit[3]
    fps = [o.footprint() for o in others]
    oc = np.array([f.center for f in fps], dtype=np.float64).reshape(-1, 2)
    outer = np.array([bounding_radius(f) for f in fps], dtype=np.float64)
    inner = np.array([inner_radius(f) if not isinstance(f, Polygon) else -math.inf
                      for f in fps], dtype=np.float64)
    if len(_ROWS) >= ROWS_LIMIT:
        _ROWS.clear()
    _ROWS[key] = (tuple(others), oc, outer, inner)
    return oc, outer, inner


def _engaged_parts(start: Model, pts: FloatArray, others: Sequence[Model]
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(k,) sure and (k, n) maybe of :func:`engaged_bounds`, per pair."""
    lower, upper = spot_bounds(start, pts, others)
    v_ok = np.array([vertical_distance(start, o) <= ENGAGEMENT_VERTICAL + EPS
                     for o in others], dtype=bool)
    limit = ENGAGEMENT_HORIZONTAL + EPS
    sure = ((upper <= limit - MARGIN) & v_ok[None, :]).any(axis=1)
    maybe = (lower <= limit + MARGIN) & v_ok[None, :]
    return np.asarray(sure), np.asarray(maybe)


def engaged_bounds(start: Model, pts: FloatArray, others: Sequence[Model]
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(k,) ``sure`` and ``maybe`` of "``start`` moved to each spot of ``pts`` is engaged
    (03.04) with one of ``others``": ``sure`` where some pair's upper bound
    (:func:`spot_bounds`) is inside engagement range by :data:`MARGIN`, ``maybe`` unless every
    pair's lower bound is outside it by :data:`MARGIN` (the vertical distance, which a move on
    the level does not change, measured exactly once per model). Where ``maybe`` but not
    ``sure``, only the exact test answers."""
    k = len(pts)
    if not k or not others:
        return np.zeros(k, dtype=bool), np.zeros(k, dtype=bool)
    sure, maybe = _engaged_parts(start, pts, others)
    return sure, np.asarray(maybe.any(axis=1))


def engaged_spots(start: Model, pts: FloatArray, others: Sequence[Model]) -> list[bool]:
    """For each spot (x, y) of ``pts``: ``start`` moved there is engaged (03.04) with one of
    ``others`` -- the same answers as ``any(engaged(start.moved(x, y), o) for o in others)``:
    settled by :func:`engaged_bounds` where it can be, else measured exactly."""
    k = len(pts)
    if not k or not others:
        return [False] * k
    sure, maybe = _engaged_parts(start, pts, others)
    out: list[bool] = sure.tolist()
    for i in np.flatnonzero(maybe.any(axis=1) & ~sure).tolist():
        end = start.moved(float(pts[i, 0]), float(pts[i, 1]))
        out[i] = any(within(end, others[j], ENGAGEMENT_HORIZONTAL, ENGAGEMENT_VERTICAL)
                     for j in np.flatnonzero(maybe[i]).tolist())
    return out


def gap_tri(start: Model, spots: Sequence[tuple[float, float]] | FloatArray,
            others: Sequence[Model], limit: float, *, engaged_only: bool = False
            ) -> list[int]:
    """Per spot (x, y; pairs or rows of an array, the same floats): whether ``start`` moved
    there is within ``limit`` horizontally of one of ``others`` (``horizontal_distance(end,
    o) <= limit``; with ``engaged_only`` also within 5" vertically, as ``engaged`` demands,
    for a ``limit`` under 2"), where :func:`spot_bounds` settles it: 1 surely, 0 surely not,
    -1 measure it exactly."""
    k = len(spots)
    if not k or not others:
        return [0] * k
    lower, upper = spot_bounds(start, np.asarray(spots, dtype=np.float64), others)
    if engaged_only:
        v_ok = np.array([vertical_distance(start, o) <= ENGAGEMENT_VERTICAL + EPS
                         for o in others], dtype=bool)[None, :]
        sure = ((upper <= limit - MARGIN) & v_ok).any(axis=1)
        maybe = ((lower <= limit + MARGIN) & v_ok).any(axis=1)
    else:
        sure = (upper <= limit - MARGIN).any(axis=1)
        maybe = (lower <= limit + MARGIN).any(axis=1)
    out: list[int] = np.where(sure, 1, np.where(maybe, -1, 0)).tolist()
    return out


def coherent_tri(start: Model, pts: FloatArray, ends: Sequence[Model], near: float,
                 every: float) -> list[int]:
    """Per spot of ``pts``: ``start`` moved there is within ``near`` of one of ``ends`` and
    within ``every`` of all of them (horizontal distances, the proposers' coherency test,
    03.03), where :func:`spot_bounds` settles it: 1 surely, 0 surely not, -1 measure it."""
    lower, upper = spot_bounds(start, pts, ends)
    sure = (upper.min(axis=1) <= near - MARGIN) & (upper.max(axis=1) <= every - MARGIN)
    fails = (lower.min(axis=1) > near + MARGIN) | (lower.max(axis=1) > every + MARGIN)
    out: list[int] = np.where(sure, 1, np.where(fails, 0, -1)).tolist()
    return out


@dataclass
class Grid:
    """A uniform grid over model bounding discs: :meth:`near` lists the indices of the models
    whose bounding disc comes within ``d`` of a disc (a superset of those within ``d`` of a
    footprint inside that disc: callers then measure exactly)."""

    layout: Layout
    """The models indexed."""
    cell: float = CELL
    """Cell size in inches."""
    cells: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    """Cell -> model indices whose bounding disc touches it."""

    def __post_init__(self) -> None:
        lo = self.layout.centres - self.layout.radii[:, None]
        hi = self.layout.centres + self.layout.radii[:, None]
        c = self.cell
        for i in range(len(self.layout)):
            for gx in range(math.floor(lo[i, 0] / c), math.floor(hi[i, 0] / c) + 1):
                for gy in range(math.floor(lo[i, 1] / c), math.floor(hi[i, 1] / c) + 1):
                    self.cells.setdefault((gx, gy), []).append(i)

    def near(self, x: float, y: float, r: float, d: float) -> list[int]:
        """Indices (ascending) of models whose bounding disc is within ``d`` of the disc of
        radius ``r`` at (x, y)."""
        reach = r + d + MARGIN
        c = self.cell
        found: set[int] = set()
        for gx in range(math.floor((x - reach) / c), math.floor((x + reach) / c) + 1):
            for gy in range(math.floor((y - reach) / c), math.floor((y + reach) / c) + 1):
                found.update(self.cells.get((gx, gy), ()))
        if not found:
            return []
        idx = np.fromiter(sorted(found), dtype=np.intp, count=len(found))
        cen = self.layout.centres[idx]
        gap = (np.sqrt(((cen - np.array([x, y])) ** 2).sum(axis=1))
               - self.layout.radii[idx] - r)
        return [int(i) for i in idx[gap <= d + MARGIN]]


@dataclass(frozen=True, eq=False)
class Discs:
    """Models as discs around their positions (``Model.reach``): the spatial filter of move
    validation. A model whose disc stays clear of a moving model's swept disc cannot be
    touched by that move, so validation measures only the models :meth:`near_segment`
    lists (docs/geometry.md)."""

    models: tuple[Model, ...]
    """The models, in order."""
    xs: FloatArray
    """(n,) positions x."""
    ys: FloatArray
    """(n,) positions y."""
    rs: FloatArray
    """(n,) reach radii."""

    @staticmethod
    def of(models: Sequence[Model]) -> Discs:
        """The discs of ``models``."""
        return Discs(tuple(models), np.array([m.x for m in models], dtype=np.float64),
                     np.array([m.y for m in models], dtype=np.float64),
                     np.array([m.reach() for m in models], dtype=np.float64))

    def near_segment(self, x0: float, y0: float, x1: float, y1: float, r: float,
                     d: float) -> list[int]:
        """Indices (ascending) of the models whose disc comes within ``d`` of a disc of
        radius ``r`` swept from (x0, y0) to (x1, y1)."""
        if not len(self.models):
            return []
        px, py = self.xs - x0, self.ys - y0
        ax, ay = x1 - x0, y1 - y0
        den = ax * ax + ay * ay
        if den > 0.0:
            t = np.minimum(np.maximum((px * ax + py * ay) / den, 0.0), 1.0)  # = np.clip, faster
            px = px - t * ax
            py = py - t * ay
        gap = np.sqrt(px * px + py * py) - self.rs - r
        return [int(i) for i in np.nonzero(gap <= d + MARGIN)[0]]


__all__ = ["CELL", "MARGIN", "Discs", "Grid", "Layout", "any_engaged", "any_within",
           "bounding_radius", "breaks", "coherent", "coherent_tri", "engaged_bounds",
           "engaged_spots", "engaged_with", "gap_tri", "inner_radius", "spot_bounds",
           "within_matrix"]
