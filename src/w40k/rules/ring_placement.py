"""A disembark set-up placed model by model around the transport's hull (18.04).

A block of the unit (rows of five, :func:`w40k.rules.placement.first_legal`) rarely fits
wholly within 3" of a transport: two rows of 32mm bases are already more than 3" deep. Here
each model in turn gets a spot in the band around the hull where it is wholly within the
set-up distance (its centre at least its radius and at most the distance less its radius from
the hull), wholly on the battlefield, on no other model (the hull, friends, the models already
placed), more than engagement range from every enemy model and where it may stand (the
terrain, 03.01 Ending a Move), and in coherency with the models already placed: within 2" of
one of them and within 9" of all of them (03.03), so the unit is a chain. The next spot is the
free one closest to the models already placed, so the unit stays compact and leaves the band
around the rest of the hull open. Several first spots are tried, and the whole placement is
checked by the move's own check at the end (R18.04-c, 03.02); R18.04-c in docs/rulings.md.

An ingress (20.04, Deep Strike 24.09) whose block fits nowhere (a unit of twenty in rows of
five is deeper than the 6" strip along an edge, R20.04-a) is set up the same way over the
whole battlefield (:func:`arrival_placement`): the spots wholly within 6" of an edge (anywhere
with Deep Strike), out of the opponent's zone before the third round (R20.04-b) and more than
8" from every enemy (R20.04-a, R24.09-a); R20.04-a in docs/rulings.md.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from w40k.geometry.measure import (
    COHERENCY_ALL,
    COHERENCY_NEIGHBOUR,
    point_polygon_distance,
)
from w40k.geometry.shapes import Battlefield, Circle, FloatArray, Model, Oval
from w40k.rules.placement import ENGAGEMENT, Check, _outline, centre_gaps

STEP = 0.25
"""The spacing of the candidate spots (inches)."""
MARGIN = 0.02
"""How far inside each limit a candidate spot keeps (inches): the exact check decides."""
STARTS = 16
"""How many first spots are tried, spread around the hull."""
GAP_ROWS = 1024
"""The most points one :func:`gaps` call measures at once: a polygon's distances hold (points x
edges) arrays (a battlefield grid against a 128-gon: tens of MB); the rows are independent, so
measuring them in parts gives the same values."""

BoolArray = np.ndarray[Any, np.dtype[np.bool_]]
Stands = Callable[[Model], bool]
"""Whether a model may end a move where it is (the terrain, 03.01)."""


def by_rows(measure: Callable[[FloatArray], FloatArray], points: FloatArray) -> FloatArray:
    """``measure(points)`` (one value per point, each from its own row alone) in parts of at
    most :data:`GAP_ROWS` points, never of one point (the one-point forms of
    :mod:`w40k.geometry.measure` are other code, although of the same values)."""
    n = len(points)
    if n <= GAP_ROWS:
        return measure(points)
    parts = np.array_split(points, -(-n // GAP_ROWS))  # sizes differ by at most one
    return np.concatenate([measure(p) for p in parts])


def gaps(points: FloatArray, m: Model) -> FloatArray:
    """:func:`centre_gaps` measured :func:`by_rows` (the same values, bounded memory)."""
    return by_rows(lambda p: centre_gaps(p, m), points)


def _radius(m: Model) -> float:
    """The radius of a circle round the model's base (half its largest extent)."""
    x0, y0, x1, y1 = m.footprint().bbox()
    return max(x1 - x0, y1 - y0) / 2


@dataclass(frozen=True)
class Band:
    """The candidate spots around the hull and, for each, its distance to the hull and its
    room: how far it is from the nearest blocker, or from engagement range of the nearest
    enemy (screened with the other models' outlines; computed once for every base size)."""

    points: FloatArray
    """The spots (n x 2)."""
    to_hull: FloatArray
    """Each spot's distance to the hull (negative inside it)."""
    room: FloatArray
    """Each spot's distance to the nearest blocker or to engagement range of an enemy."""
    distance: float
    """The set-up distance."""
    battlefield: Battlefield
    """The battlefield."""

    def spots(self, m: Model) -> FloatArray:
        """Where model ``m`` (a circle round its base) is wholly within the set-up distance,
        off the hull, on the battlefield, on no blocker and unengaged."""
        r = _radius(m)
        pts = self.points
        ok = (self.to_hull >= r + MARGIN) & (self.to_hull + r <= self.distance - MARGIN)
        ok &= self.room - r > MARGIN
        ok &= (pts[:, 0] - r >= 0) & (pts[:, 1] - r >= 0)
        ok &= (pts[:, 0] + r <= self.battlefield.width) & \
            (pts[:, 1] + r <= self.battlefield.depth)
        return pts[ok]


def _maybe_in_band(pts: FloatArray, transport: Model, distance: float) -> BoolArray:
    """The points that may lie in the band round an oval hull (all points for other hulls):
    a cheap screen before the 128-gon of :func:`centre_gaps`. A point at ellipse radius ``s``
    (1 on the hull) is inside the hull when ``s`` < 1, and at least (``s`` - 1) times the
    smaller semi-axis from it (the hull grown by that much lies within the hull scaled by
    ``s``); the 128-gon is at most the larger semi-axis times 1/cos(pi/128) - 1 outside the
    hull. So the screen drops only points the band drops too."""
    fp = transport.footprint()
    if not isinstance(fp, Oval):
        return np.ones(len(pts), dtype=bool)
    c, sn = math.cos(fp.angle), math.sin(fp.angle)
    dx, dy = pts[:, 0] - fp.cx, pts[:, 1] - fp.cy
    s = np.hypot((dx * c + dy * sn) / fp.a, (-dx * sn + dy * c) / fp.b)
    error = max(fp.a, fp.b) * (1 / math.cos(math.pi / 128) - 1)
    far = (s - 1.0) * min(fp.a, fp.b) - error - 1e-9 >= distance
    return np.asarray((s >= 1.0 - 1e-9) & ~far, dtype=bool)


def band(transport: Model, distance: float, battlefield: Battlefield,
         blockers: Sequence[Model], enemies: Sequence[Model], step: float = STEP) -> Band:
    """The :class:`Band` of spots ``step`` apart within ``distance`` of the transport."""
    x0, y0, x1, y1 = transport.footprint().bbox()
    xs = np.arange(x0 - distance, x1 + distance + step / 2, step)
    ys = np.arange(y0 - distance, y1 + distance + step / 2, step)
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    pts = np.stack([gx.ravel(), gy.ravel()], axis=1).round(4)
    pts = pts[_maybe_in_band(pts, transport, distance)]
    to_hull = gaps(pts, transport)
    keep = (to_hull > 0.0) & (to_hull < distance)
    pts, to_hull = pts[keep], to_hull[keep]
    room = np.full(len(pts), np.inf)
    reach = distance + ENGAGEMENT + 2.0
    limits = [0.0] * len(blockers) + [ENGAGEMENT] * len(enemies)
    near: list[tuple[Model, float]] = []
    for o, limit in zip((*blockers, *enemies), limits, strict=True):
        ox0, oy0, ox1, oy1 = o.footprint().bbox()
        if ox0 > x1 + reach or ox1 < x0 - reach or oy0 > y1 + reach or oy1 < y0 - reach:
            continue  # too far from the hull to matter
        if o is transport or o == transport:
            # the hull is a blocker too: measured once, and first (a minimum of floats is
            # the same in any order), so that the others can skip what it settles
            room = np.minimum(room, to_hull - limit)
        else:
            near.append((o, limit))
    for o, limit in near:
        room = _room_with(room, pts, o, limit)
    return Band(pts, to_hull, room, distance, battlefield)


def _room_with(room: FloatArray, pts: FloatArray, o: Model, limit: float) -> FloatArray:
    """``np.minimum(room, gaps(pts, o) - limit)``, the same floats, measuring the outline of a
    base that is not round only at the points where it may lower ``room``: outside the
    outline's box, a point's distance to the outline is at least its distance to the box, so a
    point whose room is already below that bound (less ``limit``, with 1e-9 to spare for the
    rounding of either distance) keeps its room. Round bases are cheap: measured everywhere."""
    if isinstance(o.footprint(), Circle):
        return np.minimum(room, gaps(pts, o) - limit)
    poly = _outline(o)
    bx0, by0 = poly.min(axis=0).tolist()
    bx1, by1 = poly.max(axis=0).tolist()
    dx = np.maximum(np.maximum(bx0 - pts[:, 0], pts[:, 0] - bx1), 0.0)
    dy = np.maximum(np.maximum(by0 - pts[:, 1], pts[:, 1] - by1), 0.0)
    inside_box = (dx == 0.0) & (dy == 0.0)
    need = np.flatnonzero(inside_box | (np.hypot(dx, dy) - limit <= room + 1e-9))
    if len(need) == len(pts):
        return np.minimum(room, gaps(pts, o) - limit)
    if len(need) == 0:
        return room
    if len(need) == 1:
        # never one point alone: the one-point forms of the measures are other code
        need = np.array([need[0], (need[0] + 1) % len(pts)])
    out = room.copy()
    out[need] = np.minimum(room[need], gaps(pts[need], o) - limit)
    return out


def ring_placement(models: Sequence[Model], transport: Model, distance: float,
                   battlefield: Battlefield, blockers: Sequence[Model],
                   enemies: Sequence[Model], check: Check, stands: Stands = lambda m: True,
                   toward: tuple[float, float] | None = None,
                   starts: int = STARTS) -> list[Model] | None:
    """The unit's models set up one by one around the transport (see the module), the first
    placement that ``check`` accepts, or None. First spots closest to ``toward`` are tried
    first (else around the hull from its +x side)."""
    if not models:
        return None
    around = band(transport, distance, battlefield, blockers, enemies)
    spots = {id(m): around.spots(m) for m in models}
    first = spots[id(models[0])]
    if len(first) == 0:
        return None
    bearings = np.arctan2(first[:, 1] - transport.y, first[:, 0] - transport.x)
    order = np.argsort(bearings, kind="stable")
    picks = [int(order[round(i * len(order) / starts) % len(order)]) for i in range(starts)]
    if toward is not None:
        tx, ty = toward
        picks.sort(key=lambda i: math.hypot(first[i, 0] - tx, first[i, 1] - ty))
    return _first_chain(models, spots, first, picks, check, stands)


def _first_chain(models: Sequence[Model], spots: dict[int, FloatArray], first: FloatArray,
                 picks: Sequence[int], check: Check, stands: Stands) -> list[Model] | None:
    """The first chain from the first model's spots ``picks`` (in order) that ``check``
    accepts."""
    bad: set[tuple[int, float, float]] = set()
    for i in dict.fromkeys(picks):
        placed = _chain(models, spots, (float(first[i, 0]), float(first[i, 1])), stands, bad)
        if placed is not None and not check(placed):
            return placed
    return None


ARRIVAL_STEP = 0.5
"""The spacing of the candidate spots of an arrival (inches; the whole table is searched)."""


@dataclass(frozen=True)
class Arrival:
    """The candidate spots of an ingress (20.04, 24.09) over the whole battlefield and, for
    each, its room (from the nearest blocker, or from 8" of the nearest enemy), its distance
    from the inner part of the table more than 6" from every edge (infinite with Deep Strike)
    and from the opponent's deployment zone (infinite from the third round or with Deep
    Strike)."""

    points: FloatArray
    """The spots (n x 2)."""
    room: FloatArray
    """Each spot's distance to the nearest blocker or to 8" of an enemy."""
    inner: FloatArray
    """Each spot's distance to the table's part more than 6" from every edge."""
    zone: FloatArray
    """Each spot's distance to the opponent's deployment zone (0 inside)."""
    battlefield: Battlefield
    """The battlefield."""

    def spots(self, m: Model) -> FloatArray:
        """Where model ``m`` (a circle round its base) is wholly within 6" of an edge, out of
        the opponent's zone, on the battlefield, on no blocker and more than 8" from every
        enemy."""
        r = _radius(m)
        pts = self.points
        ok = (self.room - r > MARGIN) & (self.inner >= r + MARGIN) & (self.zone > r + MARGIN)
        ok &= (pts[:, 0] - r >= 0) & (pts[:, 1] - r >= 0)
        ok &= (pts[:, 0] + r <= self.battlefield.width) & \
            (pts[:, 1] + r <= self.battlefield.depth)
        return pts[ok]


def arrival(battlefield: Battlefield, blockers: Sequence[Model], enemies: Sequence[Model],
            edge: float | None, enemy_distance: float, zone: FloatArray | None,
            step: float = ARRIVAL_STEP) -> Arrival:
    """The :class:`Arrival` of spots ``step`` apart: within ``edge`` of an edge (None: Deep
    Strike, anywhere), more than ``enemy_distance`` from every enemy, out of ``zone``."""
    w, d = battlefield.width, battlefield.depth
    xs = np.arange(step / 2, w, step)
    ys = np.arange(step / 2, d, step)
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    pts = np.stack([gx.ravel(), gy.ravel()], axis=1).round(4)
    if edge is not None and w > 2 * edge and d > 2 * edge:
        dx = np.maximum(np.maximum(edge - pts[:, 0], pts[:, 0] - (w - edge)), 0.0)
        dy = np.maximum(np.maximum(edge - pts[:, 1], pts[:, 1] - (d - edge)), 0.0)
        inner = np.hypot(dx, dy)
        pts = pts[inner > 0.0]
        inner = inner[inner > 0.0]
    else:
        inner = np.full(len(pts), np.inf)
    room = np.full(len(pts), np.inf)
    for o in blockers:
        room = np.minimum(room, gaps(pts, o))
    for o in enemies:
        room = np.minimum(room, gaps(pts, o) - enemy_distance)
    near = np.full(len(pts), np.inf)
    if zone is not None:
        near = by_rows(lambda p: point_polygon_distance(p, zone), pts)
    return Arrival(pts, room, inner, near, battlefield)


def arrival_placement(models: Sequence[Model], area: Arrival, check: Check,
                      stands: Stands = lambda m: True,
                      toward: tuple[float, float] | None = None,
                      starts: int = STARTS) -> list[Model] | None:
    """The unit's models set up one by one in ``area`` (as round the hull: each at the free
    spot closest to the models already placed that keeps the unit in coherency), the first
    placement that ``check`` accepts, or None. First spots: ``starts`` of the first model's
    spots from the closest to ``toward`` to the farthest (else in the table's order)."""
    if not models:
        return None
    spots = {id(m): area.spots(m) for m in models}
    first = spots[id(models[0])]
    if len(first) == 0:
        return None
    order = np.arange(len(first))
    if toward is not None:
        tx, ty = toward
        order = np.argsort(np.hypot(first[:, 0] - tx, first[:, 1] - ty), kind="stable")
    picks = [int(order[round(i * len(order) / starts) % len(order)]) for i in range(starts)]
    return _first_chain(models, spots, first, picks, check, stands)


def _chain(models: Sequence[Model], spots: dict[int, FloatArray], start: tuple[float, float],
           stands: Stands, bad: set[tuple[int, float, float]]) -> list[Model] | None:
    """The models placed in turn from ``start`` (the first model's spot), each at the free
    spot closest to the models already placed that keeps the unit in coherency; None when a
    model has no such spot. ``bad`` remembers the spots where a model may not stand."""
    placed: list[Model] = []
    radii: list[float] = []
    for k, m in enumerate(models):
        pts = spots[id(m)]
        r = _radius(m)
        if k == 0:
            pts = np.array([start])
        ok = np.ones(len(pts), dtype=bool)
        near = np.zeros(len(pts), dtype=bool)
        for p, pr in zip(placed, radii, strict=True):
            gaps = np.hypot(pts[:, 0] - p.x, pts[:, 1] - p.y) - r - pr
            ok &= (gaps > MARGIN) & (gaps <= COHERENCY_ALL - MARGIN)
            near |= gaps <= COHERENCY_NEIGHBOUR - MARGIN
        if placed:
            ok &= near
            cx = sum(p.x for p in placed) / len(placed)
            cy = sum(p.y for p in placed) / len(placed)
            score = np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)
        else:
            score = np.zeros(len(pts))
        spot = None
        for i in sorted(np.flatnonzero(ok).tolist(), key=lambda i: float(score[i])):
            x, y = float(pts[i, 0]), float(pts[i, 1])
            key = (id(m), x, y)
            if key in bad:
                continue
            cand = dataclasses.replace(m, x=x, y=y, z=0.0)
            if stands(cand):
                spot = cand
                break
            bad.add(key)
        if spot is None:
            return None
        placed.append(spot)
        radii.append(r)
    return placed
