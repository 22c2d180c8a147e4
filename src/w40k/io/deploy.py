"""Setting armies up wholly within their deployment zones for a mission's starting position
(docs/missions.md, "Setting up").

Each unit keeps the default column (io/battle_setup.py) when every model is wholly within its
player's zone, clear of terrain features and of other models; otherwise it is set up in rows of
at most five, 0.5" apart, at the free spot of the zone closest to the battlefield's centre
(this automatic set-up is ``--auto-deploy``'s; the pre-battle sequence asks the players). A
unit whose rows would put two models more than 9" apart (03.03: a big mob with a leader on a
large base) is set up as a round cluster instead (:func:`block`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
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
"""The spacing of the candidate spots, in inches (wider on a huge zone)."""
MAX_SPOTS = 4000
"""About the most candidate spots tried per unit (the work stays bounded on a 240" table)."""
COHERENCY_ALL = 9.0
"""03.03 (R03.03-b): every model of a unit within 9" of every other model."""
CLUSTER_STEP = 0.1
"""Inches between the candidate centres of a round cluster."""


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


def spread(offsets: np.ndarray, radii: Sequence[float]) -> float:
    """The largest distance between two bases (closest edges) at ``offsets``."""
    r = np.asarray(radii, dtype=float)
    d = np.hypot(offsets[:, None, 0] - offsets[None, :, 0],
                 offsets[:, None, 1] - offsets[None, :, 1]) - r[:, None] - r[None, :]
    return float(d.max(initial=0.0))


def _cluster(radii: Sequence[float]) -> np.ndarray:
    """Offsets of bases of ``radii`` in a round cluster centred on 0: the largest base first,
    each at the candidate spot closest to the centre that keeps GAP from every placed base
    (so each model has a neighbour within 2", and the cluster stays as small as it can).
    Kept per radii (a fresh copy each call)."""
    return _cluster_of(tuple(float(r) for r in radii)).copy()


_CHUNK = 2048
"""Candidates tested together by :func:`_cluster_of` (the first fitting one is usually among
the first few hundred: testing all 30000 for every base was most of the set-up's time)."""


@cache
def _cluster_of(radii: tuple[float, ...]) -> np.ndarray:
    n = len(radii)
    r = np.asarray(radii, dtype=float)
    reach = math.sqrt(n) * (2 * float(r.max()) + GAP) + 2 * float(r.max())
    ax = np.arange(-reach, reach + 1e-9, CLUSTER_STEP)
    gx, gy = np.meshgrid(ax, ax)
    cand = np.column_stack([gx.ravel(), gy.ravel()])
    cand = cand[np.lexsort((cand[:, 0], cand[:, 1], np.round(np.hypot(cand[:, 0], cand[:, 1]),
                                                               6)))]
    out = np.zeros((n, 2))
    placed: list[int] = []
    for i in sorted(range(n), key=lambda k: (-radii[k], k)):
        if placed:
            p = out[placed]
            need = r[placed][None, :] + r[i] + GAP - 1e-9
            out[i] = cand[0]  # none fits (as argmax of no True): the first candidate
            for start in range(0, len(cand), _CHUNK):
                c = cand[start:start + _CHUNK]
                d = np.hypot(c[:, None, 0] - p[None, :, 0], c[:, None, 1] - p[None, :, 1])
                ok = np.all(d >= need, axis=1)
                if ok.any():
                    out[i] = c[int(np.argmax(ok))]
                    break
        placed.append(i)
    res = out - out.mean(axis=0)
    res.flags.writeable = False
    return cast(np.ndarray, res)


def block(radii: Sequence[float], along_x: bool = True) -> np.ndarray:
    """Offsets, centred on 0, of a unit's bases (``radii``, in model order): rows of at most
    five, ``2 r + GAP`` apart for the largest ``r``, when every base is then within 9" of
    every other (R03.03-b); otherwise :func:`_cluster`."""
    rows = _rows(len(radii), max(radii), along_x)
    if spread(rows, radii) <= COHERENCY_ALL - CLEAR:
        return rows
    return _cluster(radii)


class _Zone:
    """One player's zone with the bases already placed and the terrain to keep clear of."""

    def __init__(self, polygon: Sequence[tuple[float, float]], blockers: shapely.Geometry,
                 placed: list[tuple[float, float, float]]) -> None:
        self.poly = Polygon(polygon)
        self.blockers = blockers
        self.placed = np.asarray(placed, dtype=float).reshape(-1, 3)
        self._inner: dict[float, shapely.Geometry] = {}

    def inner(self, r: float) -> shapely.Geometry:
        """The zone shrunk by ``r``: where a base of radius ``r`` is wholly within it."""
        if r not in self._inner:
            self._inner[r] = self.poly.buffer(-r - 1e-3)  # the 4-decimal rounding stays inside
        return self._inner[r]

    def fits(self, xy: np.ndarray, r: float) -> bool:
        """Every base of radius ``r`` at ``xy`` is wholly within the zone and clear."""
        inner = self.inner(r)
        if inner.is_empty or not shapely.contains_xy(inner, xy[:, 0], xy[:, 1]).all():
            return False
        if not self.blockers.is_empty and np.any(
                shapely.distance(self.blockers, shapely.points(xy)) < r + CLEAR):
            return False
        if len(self.placed):
            d = np.hypot(xy[:, None, 0] - self.placed[None, :, 0],
                         xy[:, None, 1] - self.placed[None, :, 1])
            if np.any(d < r + self.placed[None, :, 2] + CLEAR):
                return False
        return True

    def spots(self, r: float, centre: tuple[float, float]) -> np.ndarray:
        """Candidate centres in the zone (at most about MAX_SPOTS), closest to ``centre``
        first."""
        inner = self.inner(r)
        if inner.is_empty:
            return np.empty((0, 2))
        x0, y0, x1, y1 = inner.bounds
        step = max(STEP, math.sqrt((x1 - x0) * (y1 - y0) / MAX_SPOTS))
        gx, gy = np.meshgrid(np.arange(x0, x1 + 1e-9, step), np.arange(y0, y1 + 1e-9, step))
        pts = np.column_stack([gx.ravel(), gy.ravel()])
        pts = pts[shapely.contains_xy(inner, pts[:, 0], pts[:, 1])]
        d = np.hypot(pts[:, 0] - centre[0], pts[:, 1] - centre[1])
        return cast(np.ndarray, pts[np.lexsort((pts[:, 0], pts[:, 1], np.round(d, 6)))])


def deploy_in_zones(units: list[dict[str, JSON]], zones: dict[str, list[tuple[float, float]]],
                    terrain: dict[str, JSON], battlefield: tuple[float, float], *,
                    strict: bool = True) -> None:
    """Move each unit's models (in place) wholly within its player's zone. Not ``strict``
    (a position that starts with the pre-battle sequence, where the players deploy): a unit
    that does not fit keeps its place instead of being refused."""
    feats = [Polygon([(float(x), float(y)) for x, y in cast(list[list[float]], f["footprint"])])
             for f in cast(list[dict[str, JSON]], terrain.get("terrain", []))]
    blockers = shapely.union_all(feats) if feats else Polygon()
    placed: list[tuple[float, float, float]] = []
    centre = (battlefield[0] / 2, battlefield[1] / 2)
    for unit in units:
        player = str(unit["player"])
        zone = _Zone(zones[player], blockers, placed)
        models = cast(list[dict[str, JSON]], unit["models"])
        radii = [_radius(m) for m in models]
        r = max(radii)
        here = np.asarray([(float(cast(float, m["x"])), float(cast(float, m["y"])))
                           for m in models])
        if not zone.fits(here, r):
            try:
                here = _search(zone, radii, centre, str(unit["name"]), player)
            except DataError:
                if strict:
                    raise
                continue
        for m, (x, y) in zip(models, here, strict=True):
            fx, fy = round(float(x), 4), round(float(y), 4)
            m["x"], m["y"] = fx, fy
            placed.append((fx, fy, r))


def _search(zone: _Zone, radii: Sequence[float], centre: tuple[float, float], name: str,
            player: str) -> np.ndarray:
    n, r = len(radii), max(radii)
    for along_x in (True, False):
        offsets = block(radii, along_x)
        for spot in zone.spots(r, centre):
            xy = offsets + spot
            if zone.fits(xy, r):
                return np.asarray(xy, dtype=float)
    raise DataError(f"unit {name!r} ({n} models) does not fit wholly within {player}'s "
                    "deployment zone clear of terrain and other units", where="mission")
