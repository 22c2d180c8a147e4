"""Setting armies up wholly within their deployment zones for a mission's starting position
(docs/missions.md, "Setting up").

Each unit keeps the default column (io/battle_setup.py) when every model is wholly within its
player's zone, clear of terrain features and of other models; otherwise it is set up in rows of
at most five, 0.5" apart, at the free spot of the zone closest to the battlefield's centre
(deployment is automatic: the engine has no deployment decisions yet).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import numpy as np
import shapely
from shapely.geometry import Polygon

from w40k.core.errors import DataError
from w40k.engine.serial import JSON

GAP = 0.5
"""Inches between neighbouring bases in a row (well inside coherency, 03.03)."""
CLEAR = 0.1
"""Inches kept between a base and any terrain feature or other base."""
STEP = 1.0
"""The spacing of the candidate spots, in inches."""


def _radius(model: dict[str, JSON]) -> float:
    profile = cast(dict[str, JSON], model["profile"])
    base = profile.get("base_mm")
    if isinstance(base, list):
        return max(float(cast(float, b)) for b in base) / 25.4 / 2
    return float(cast(float, base or 32.0)) / 25.4 / 2


def _rows(n: int, r: float, along_x: bool) -> np.ndarray:
    """Offsets of ``n`` bases of radius ``r`` in rows of at most five, centred on 0."""
    gap = 2 * r + GAP
    per_row = min(5, n)
    rows = math.ceil(n / per_row)
    out = []
    for i in range(n):
        row, col = divmod(i, per_row)
        a, b = (col - (per_row - 1) / 2) * gap, (row - (rows - 1) / 2) * gap
        out.append((a, b) if along_x else (b, a))
    return np.asarray(out, dtype=float)


class _Zone:
    """One player's zone with the bases already placed and the terrain to keep clear of."""

    def __init__(self, polygon: Sequence[tuple[float, float]], blockers: shapely.Geometry,
                 placed: list[tuple[float, float, float]]) -> None:
        self.poly = Polygon(polygon)
        self.blockers = blockers
        self.placed = placed

    def fits(self, xy: np.ndarray, r: float) -> bool:
        """Every base of radius ``r`` at ``xy`` is wholly within the zone and clear."""
        inner = self.poly.buffer(-r)
        if inner.is_empty or not all(shapely.contains_xy(inner, xy[:, 0], xy[:, 1])
                                     | shapely.intersects_xy(inner.boundary, xy[:, 0],
                                                             xy[:, 1])):
            return False
        if not self.blockers.is_empty:
            pts = shapely.points(xy)
            if np.any(shapely.distance(self.blockers, pts) < r + CLEAR):
                return False
        for x, y, r2 in self.placed:
            if np.any(np.hypot(xy[:, 0] - x, xy[:, 1] - y) < r + r2 + CLEAR):
                return False
        return True

    def spots(self, r: float, centre: tuple[float, float]) -> np.ndarray:
        """Candidate centres in the zone, closest to ``centre`` first."""
        x0, y0, x1, y1 = self.poly.bounds
        xs = np.arange(math.floor(x0) + r, x1 - r + 1e-9, STEP)
        ys = np.arange(math.floor(y0) + r, y1 - r + 1e-9, STEP)
        gx, gy = np.meshgrid(xs, ys)
        pts = np.column_stack([gx.ravel(), gy.ravel()])
        inner = self.poly.buffer(-r)
        if inner.is_empty:
            return np.empty((0, 2))
        pts = pts[shapely.contains_xy(inner, pts[:, 0], pts[:, 1])]
        d = np.hypot(pts[:, 0] - centre[0], pts[:, 1] - centre[1])
        return cast(np.ndarray, pts[np.lexsort((pts[:, 0], pts[:, 1], np.round(d, 6)))])


def deploy_in_zones(units: list[dict[str, JSON]], zones: dict[str, list[tuple[float, float]]],
                    terrain: dict[str, JSON], battlefield: tuple[float, float]) -> None:
    """Move each unit's models (in place) wholly within its player's zone."""
    feats = [Polygon([(float(x), float(y)) for x, y in cast(list[list[float]], f["footprint"])])
             for f in cast(list[dict[str, JSON]], terrain.get("terrain", []))]
    blockers = shapely.union_all(feats) if feats else Polygon()
    placed: list[tuple[float, float, float]] = []
    centre = (battlefield[0] / 2, battlefield[1] / 2)
    for unit in units:
        player = str(unit["player"])
        zone = _Zone(zones[player], blockers, placed)
        models = cast(list[dict[str, JSON]], unit["models"])
        r = max(_radius(m) for m in models)
        here = np.asarray([(float(cast(float, m["x"])), float(cast(float, m["y"])))
                           for m in models])
        if not zone.fits(here, r):
            here = _search(zone, len(models), r, centre, str(unit["name"]), player)
        for m, (x, y) in zip(models, here, strict=True):
            m["x"], m["y"] = round(float(x), 4), round(float(y), 4)
            placed.append((float(x), float(y), r))


def _search(zone: _Zone, n: int, r: float, centre: tuple[float, float], name: str,
            player: str) -> np.ndarray:
    for along_x in (True, False):
        offsets = _rows(n, r, along_x)
        for spot in zone.spots(r, centre):
            xy = offsets + spot
            if zone.fits(xy, r):
                return np.asarray(xy, dtype=float)
    raise DataError(f"unit {name!r} ({n} models) does not fit wholly within {player}'s "
                    "deployment zone clear of terrain and other units", where="mission")
