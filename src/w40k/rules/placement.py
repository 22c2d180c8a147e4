"""Finding legal places to set a unit up: the proposers of deployment, ingress, Deep Strike,
disembark and emergency disembark answers (issue 12) build on these.

A unit is placed as a block (rows of at most five, bases ½" apart, so it is in coherency)
around candidate anchor points, and the first block the rule's check accepts is kept
(:func:`first_legal`). An emergency disembark (18.05) places model by model, each as close
as possible to the transport (:func:`emergency_placement`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from w40k.geometry.measure import (
    engaged,
    overlaps,
    point_in_polygon,
    point_polygon_distance,
)
from w40k.geometry.movement import MoveViolation
from w40k.geometry.shapes import EPS, Battlefield, Circle, FloatArray, Model
from w40k.rules.setup import COMBAT_DISTANCE, wholly_within_of

ENGAGEMENT = 2.0
"""03.04: engagement range (horizontal; set-up is on one level here)."""
GAP = 0.5
"""The gap between bases in a block (well inside 03.03's 2")."""
PER_ROW = 5
"""Models per row of a block."""

Check = Callable[[list[Model]], list[MoveViolation]]
"""A set-up rule: the violations of a placement (empty = legal)."""


def _size(m: Model) -> float:
    """The model's largest horizontal extent (inches)."""
    x0, y0, x1, y1 = m.footprint().bbox()
    return max(x1 - x0, y1 - y0)


def block(models: Sequence[Model], x: float, y: float, facing: float = 0.0) -> list[Model]:
    """The models in rows of at most five centred on (x, y), the rows running across
    ``facing`` (radians; 0 = rows along x, stacked toward +y)."""
    if not models:
        return []
    step = max(_size(m) for m in models) + GAP
    per_row = min(PER_ROW, len(models))
    rows = math.ceil(len(models) / per_row)
    c, s = math.cos(facing), math.sin(facing)
    out: list[Model] = []
    for i, m in enumerate(models):
        row, col = divmod(i, per_row)
        u = (col - (per_row - 1) / 2) * step
        v = (row - (rows - 1) / 2) * step
        out.append(dataclasses.replace(m, x=round(x + u * c - v * s, 4),
                                       y=round(y + u * s + v * c, 4), facing=facing))
    return out


PACK = 0.4
"""The gap between neighbouring bases in a :func:`packed` block (inches)."""


def packed(models: Sequence[Model], x: float, y: float, per_row: int = PER_ROW,
           along_y: bool = False, gap: float = PACK) -> list[Model]:
    """The models in rows of ``per_row`` centred on (x, y), each row packed by the models'
    own base sizes ``gap`` apart (rows along x, or along y), every model keeping its own
    facing. Tighter than :func:`block` when one base is much larger than the others: a
    unit of 21 stays within 9" of itself (R03.03-b) where a block of fives does not."""
    if not models:
        return []
    per_row = max(1, min(per_row, len(models)))

    def size(m: Model) -> tuple[float, float]:
        x0, y0, x1, y1 = m.footprint().bbox()
        return (y1 - y0, x1 - x0) if along_y else (x1 - x0, y1 - y0)
    laid: list[tuple[Model, float, float]] = []
    depth = 0.0
    for i in range(0, len(models), per_row):
        row = list(models[i:i + per_row])
        sizes = [size(m) for m in row]
        deep = max(d for _, d in sizes)
        if i:
            depth += deep / 2
        along = -(sum(w for w, _ in sizes) + gap * (len(row) - 1)) / 2
        for m, (w, _) in zip(row, sizes, strict=True):
            laid.append((m, along + w / 2, depth))
            along += w + gap
        depth += deep / 2 + gap
    mid = (laid[0][2] + laid[-1][2]) / 2
    out: list[Model] = []
    for m, a, b in laid:
        dx, dy = (b - mid, a) if along_y else (a, b - mid)
        out.append(dataclasses.replace(m, x=round(x + dx, 4), y=round(y + dy, 4)))
    return out


def grid(battlefield: Battlefield, step: float = 2.0) -> Iterator[tuple[float, float]]:
    """Anchor points over the whole battlefield, ``step`` apart."""
    nx = max(1, int(battlefield.width // step))
    ny = max(1, int(battlefield.depth // step))
    for i in range(nx):
        for j in range(ny):
            yield ((i + 0.5) * battlefield.width / nx, (j + 0.5) * battlefield.depth / ny)


Screen = Callable[[FloatArray], "np.ndarray[Any, np.dtype[np.bool_]]"]
"""A cheap necessary condition of a set-up rule, for many blocks at once: given the centres
of the models of n blocks (n x k x 2, the models in the unit's order), which blocks the rule
may accept. False only where the exact check would refuse the block, so that screening
blocks out never changes which block :func:`first_legal` returns."""

ROUNDING = 1e-4
"""How far a screened centre may be from the block's own (rounded to 4 places) centre: a
screen keeps this much slack."""


def block_offsets(models: Sequence[Model], facing: float = 0.0) -> FloatArray:
    """Each model's offset (k x 2) from the centre of :func:`block` (before its rounding)."""
    step = max(_size(m) for m in models) + GAP
    per_row = min(PER_ROW, len(models))
    rows = math.ceil(len(models) / per_row)
    c, s = math.cos(facing), math.sin(facing)
    out = np.empty((len(models), 2))
    for i in range(len(models)):
        row, col = divmod(i, per_row)
        u = (col - (per_row - 1) / 2) * step
        v = (row - (rows - 1) / 2) * step
        out[i] = (u * c - v * s, u * s + v * c)
    return out


def first_legal(models: Sequence[Model], anchors: Iterable[tuple[float, float]],
                check: Check, facings: Sequence[float] = (0.0, math.pi / 2),
                screen: Screen | None = None) -> list[Model] | None:
    """The first block around an anchor (in the order given) that ``check`` accepts, or None
    when no anchor gives one (03.02: the unit then stays where it was). ``screen`` first
    drops, all at once, the blocks the check would refuse anyway (the same answer, sooner)."""
    spots = list(anchors)
    maybe = np.ones((len(spots), len(facings)), dtype=bool)
    if screen is not None and models and spots:
        at = np.asarray(spots, dtype=float)
        for f, facing in enumerate(facings):
            maybe[:, f] = screen(at[:, None, :] + block_offsets(models, facing)[None, :, :])
    for i, (x, y) in enumerate(spots):
        for f, facing in enumerate(facings):
            if not maybe[i, f]:
                continue
            placed = block(models, x, y, facing)
            if not check(placed):
                return placed
    return None


def by_distance(anchors: Iterable[tuple[float, float]],
                point: tuple[float, float]) -> list[tuple[float, float]]:
    """Anchors closest to ``point`` first (ties keep their order)."""
    px, py = point
    return sorted(anchors, key=lambda a: (a[0] - px) ** 2 + (a[1] - py) ** 2)


def emergency_placement(models: Sequence[Model], transport: Model, battlefield: Battlefield,
                        others: Sequence[Model], enemies: Sequence[Model],
                        step: float = 0.25) -> tuple[list[Model], list[str]]:
    """18.05: each model in turn, wholly within 6" of the transport and as close as possible
    to it, on the battlefield, on no other model and unengaged (03.02); a model with no such
    place is destroyed. Returns (placed models, names of the destroyed ones).

    "As close as possible" is searched on rings around the transport ``step`` apart (closest
    ring first, 32 bearings a ring); R18.05-a in docs/rulings.md."""
    placed: list[Model] = []
    lost: list[str] = []
    x0, y0, x1, y1 = transport.footprint().bbox()
    reach = max(x1 - x0, y1 - y0) / 2
    for m in models:
        spot = _closest_spot(m, transport, battlefield, [*others, *placed], enemies, reach,
                             step)
        if spot is None:
            lost.append(m.name)
        else:
            placed.append(spot)
    return placed, lost


def _outline(m: Model) -> FloatArray:
    """A polygon that contains the model's footprint (128 sides for round and oval bases)."""
    return m.footprint().outline(128)


def centre_gaps(points: FloatArray, m: Model) -> FloatArray:
    """For each point: its distance to the model's footprint (or a polygon just containing
    it), negative inside."""
    fp = m.footprint()
    if isinstance(fp, Circle):
        return np.hypot(points[:, 0] - fp.cx, points[:, 1] - fp.cy) - fp.r
    poly = _outline(m)
    d = point_polygon_distance(points, poly)
    return np.where(point_in_polygon(points, poly), -d, d)


def _closest_spot(m: Model, transport: Model, battlefield: Battlefield,
                  blockers: Sequence[Model], enemies: Sequence[Model], reach: float,
                  step: float) -> Model | None:
    """The candidate closest to the transport that passes the exact check. Candidates are
    screened together with a slightly enlarged outline of every other model; the one kept is
    then checked exactly (:func:`_free`)."""
    r = _size(m) / 2
    angles = np.linspace(0.0, 2 * math.pi, 32, endpoint=False)
    others = [*blockers, *enemies]
    limit = [0.0] * len(blockers) + [ENGAGEMENT] * len(enemies)
    ring = reach + r
    while ring <= reach + COMBAT_DISTANCE + r:
        pts = np.stack([transport.x + ring * np.cos(angles),
                        transport.y + ring * np.sin(angles)], axis=1).round(4)
        ok = ((pts[:, 0] - r >= 0) & (pts[:, 1] - r >= 0)
              & (pts[:, 0] + r <= battlefield.width) & (pts[:, 1] + r <= battlefield.depth))
        to_transport = centre_gaps(pts, transport)
        ok &= (to_transport >= r - 1e-6) & (to_transport + r <= COMBAT_DISTANCE + 1e-6)
        for o, lim in zip(others, limit, strict=True):
            if not ok.any():
                break
            ok &= centre_gaps(pts, o) - r > lim - 1e-6
        for i in sorted(np.flatnonzero(ok), key=lambda i: float(to_transport[i])):
            cand = dataclasses.replace(m, x=float(pts[i, 0]), y=float(pts[i, 1]))
            if _free(cand, transport, battlefield, blockers, enemies):
                return cand
        ring += step
    return None


def _near(a: Model, b: Model, d: float) -> bool:
    """The footprints' boxes are within ``d`` of each other (a cheap pre-test)."""
    ax0, ay0, ax1, ay1 = a.footprint().bbox()
    bx0, by0, bx1, by1 = b.footprint().bbox()
    return max(bx0 - ax1, ax0 - bx1, by0 - ay1, ay0 - by1) <= d


def _free(m: Model, transport: Model, battlefield: Battlefield, blockers: Sequence[Model],
          enemies: Sequence[Model]) -> bool:
    x0, y0, x1, y1 = m.footprint().bbox()
    if x0 < 0 or y0 < 0 or x1 > battlefield.width or y1 > battlefield.depth:
        return False
    if overlaps(m, transport) or not wholly_within_of(m, transport, COMBAT_DISTANCE):
        return False
    fp = m.footprint()
    for o in (*blockers, *enemies):
        ofp = o.footprint()
        if isinstance(fp, Circle) and isinstance(ofp, Circle):  # the common case, exact
            gap = math.hypot(fp.cx - ofp.cx, fp.cy - ofp.cy) - fp.r - ofp.r
            if gap < -1e-6 or (o in enemies and gap <= ENGAGEMENT + EPS):
                return False
        elif _near(m, o, ENGAGEMENT) and (overlaps(m, o) or (o in enemies and engaged(m, o))):
            return False
    return True
