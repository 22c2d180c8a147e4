"""Model pairs that no terrain can give cover, for a whole unit pair at once (13.08 (ii)).

A target model whose raw sight is CLEAR has the benefit of cover from terrain only when
HULL_RAMP (:func:`w40k.geometry.los_hull.hull_blockers`) names a terrain feature or an
obscuring area among the obstacles that may stop it being fully visible (06.01), and that
convention counts an edge only if it starts inside the pair hull or comes within its
``grow`` (less ``TOUCH``) of it. The pair hull is the convex hull of the two footprints'
48-gons, whose vertices lie within ``reach`` of each footprint's centre
(:func:`outline_disc`), so the hull lies within the box of those two discs and within the
strip of half-width ``max(reach_o, reach_t)`` around the line through the two centres (the
capsule the compiled kernel's first pass culls by lies within it). An edge whose grown box
misses that box, or that keeps to one side of the line with both ends farther from it than
the strip's half-width plus its ``grow`` (+1e-9 either way, a margin over the roundings),
therefore counts for no obstacle set that holds it, nor does an edge of an area (or gap
filler) either model is within, which the pair's obstacles leave out (13.10, R13.11-b): a
pair with no other terrain edge has no terrain among its HULL_RAMP blockers, whichever
models stand between.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np

from w40k.geometry.los_obstacles import Obstacles
from w40k.geometry.shapes import Circle, FloatArray, Polygon, Shape

MARGIN = 1e-9
"""How far an edge's grown box must miss the outlines' box (inches)."""


@functools.lru_cache(maxsize=4096)
def outline_disc(s: Shape) -> tuple[float, float, float]:
    """(cx, cy, reach): the shape's centre and a radius that holds its 48-gon (the outline
    the pair hull is built from; kept per shape): a round base's 48-gon has its vertices
    at ``r / cos(pi / 48)`` from the centre and an oval's within its long semi-axis scaled
    so; a polygon's outline is its vertices. 1e-9 is added for the roundings."""
    cx, cy = s.center
    if isinstance(s, Polygon):
        p = s.array()
        reach = float(np.hypot(p[:, 0] - cx, p[:, 1] - cy).max())
    else:
        reach = (s.r if isinstance(s, Circle) else max(s.a, s.b)) / _SCALE
    return (float(cx), float(cy), reach + 1e-9)


_SCALE = math.cos(math.pi / 48)
"""A 48-gon circumscribing a disc of radius r has its vertices at r / _SCALE."""


def terrain_far(
    terrain: Obstacles, emin: FloatArray, emax: FloatArray,
    observers: list[Shape], targets: list[Shape],
    ignored: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """``far[i, j]``: no edge of ``terrain`` (its grown boxes ``emin`` / ``emax``, (E, 2)
    each) comes within its ``grow`` + ``MARGIN`` of both the box and the strip that hold
    the pair hull of ``observers[i]`` and ``targets[j]``, leaving out with ``ignored`` (the
    region owning each edge, -1 for none, and the observers' and targets' rows of region
    membership) the edges of regions either model is within, which the pair's obstacles
    leave out (13.10): then HULL_RAMP counts no terrain edge for that pair (module
    docstring), so its bit 2 is 0 and a target model seen CLEAR has no cover from terrain."""
    od = np.array([outline_disc(s) for s in observers], dtype=np.float64).reshape(-1, 3)
    td = np.array([outline_disc(s) for s in targets], dtype=np.float64).reshape(-1, 3)
    far = np.ones((len(od), len(td)), dtype=bool)
    if len(terrain.a) == 0 or far.size == 0:
        return far
    # the discs' boxes: an edge whose grown box misses a pair's two boxes' box (by MARGIN)
    # is farther than its grow from the hull; the edges near every disc of both units
    # first (most are not), then per pair
    ob = np.concatenate([od[:, :2] - od[:, 2:], od[:, :2] + od[:, 2:]], axis=1)
    tb = np.concatenate([td[:, :2] - td[:, 2:], td[:, :2] + td[:, 2:]], axis=1)
    lo = np.minimum(ob[:, :2].min(axis=0), tb[:, :2].min(axis=0)) - MARGIN
    hi = np.maximum(ob[:, 2:].max(axis=0), tb[:, 2:].max(axis=0)) + MARGIN
    near = np.nonzero(((emax >= lo) & (emin <= hi)).all(axis=1))[0]
    if len(near) == 0:
        return far
    en, ex = emin[near], emax[near]
    plo = np.minimum(ob[:, None, :2], tb[None, :, :2]) - MARGIN
    phi = np.maximum(ob[:, None, 2:], tb[None, :, 2:]) + MARGIN
    e, i, j = np.nonzero(
        ((ex[:, None, None, :] >= plo[None]) & (en[:, None, None, :] <= phi[None])).all(axis=3))
    if len(e) == 0:
        return far
    # each such edge against the line through the pair's centres: an edge that does not
    # cross it and whose two ends are farther from it than the strip's half-width + its grow
    # (+MARGIN) is that far from the whole strip (the distance from a line is linear along
    # an edge that stays on one side)
    k = near[e]
    ax, ay, bx, by = terrain.a[k, 0], terrain.a[k, 1], terrain.b[k, 0], terrain.b[k, 1]
    ox, oy = od[i, 0], od[i, 1]
    dx, dy = td[j, 0] - ox, td[j, 1] - oy
    ln = np.hypot(dx, dy)
    sa = ((ax - ox) * dy - (ay - oy) * dx) / np.maximum(ln, 1e-300)
    sb = ((bx - ox) * dy - (by - oy) * dx) / np.maximum(ln, 1e-300)
    lim = np.maximum(od[i, 2], td[j, 2]) + terrain.grow[k] + MARGIN
    hit = (ln <= 1e-6) | (sa * sb <= 0.0) | (np.minimum(np.abs(sa), np.abs(sb)) <= lim)
    if ignored is not None:
        # 13.10 (R13.11-b): the region owning each edge (-1: none) and which regions hold
        # each observer and target; a pair's obstacles leave out the regions either holds
        col, o_in, t_in = ignored
        c = col[k]
        own = np.nonzero(hit & (c >= 0))[0]
        hit[own] = ~(o_in[i[own], c[own]] | t_in[j[own], c[own]])
    far[i[hit], j[hit]] = False
    return far


class FarPairs:
    """``far[i, j]`` of :func:`terrain_far` for one unit pair, asked pair by pair (each
    answer kept): most of a unit pair's questions read one or two model pairs (the first
    target model seen CLEAR answers "no cover" for the unit), so the whole matrix is not
    made. The same test with the same floats per pair (the box of the two discs, then the
    strip, then the regions either model is within), in plain floats over the edges near
    the box of both units' discs (``edges``, rows of :func:`edge_rows`); the line's length
    is ``np.hypot``'s, as there."""

    __slots__ = ("_edges", "_kept", "_od", "_regions", "_rows", "_td")

    def __init__(
        self, edges: list[list[float]], od: list[tuple[float, float, float]],
        td: list[tuple[float, float, float]],
        regions: Callable[[], tuple[np.ndarray, np.ndarray]] | None,
    ) -> None:
        self._edges = edges
        self._od = od
        self._td = td
        self._regions = regions
        """The observers' and targets' rows of region membership, made on first need."""
        self._rows: tuple[list[list[bool]], list[list[bool]]] | None = None
        self._kept: dict[tuple[int, int], bool] = {}

    @property
    def shape(self) -> tuple[int, int]:
        """(observers, targets)."""
        return len(self._od), len(self._td)

    def __getitem__(self, ij: tuple[int, int]) -> bool:
        hit = self._kept.get(ij)
        if hit is None:
            hit = self._kept[ij] = not self._edges or self._far(*ij)
        return hit

    def matrix(self) -> np.ndarray:
        """Every pair's answer (``terrain_far``'s matrix)."""
        n, m = self.shape
        return np.array([[self[i, j] for j in range(m)] for i in range(n)], dtype=bool)

    def _far(self, i: int, j: int) -> bool:
        ox, oy, ro = self._od[i]
        tx, ty, rt = self._td[j]
        # the box of the two discs (terrain_far: ob / tb, plo / phi)
        plx, ply = min(ox - ro, tx - rt) - MARGIN, min(oy - ro, ty - rt) - MARGIN
        phx, phy = max(ox + ro, tx + rt) + MARGIN, max(oy + ro, ty + rt) + MARGIN
        dx, dy = tx - ox, ty - oy
        ln = float(np.hypot(dx, dy))
        den = max(ln, 1e-300)
        rad = max(ro, rt)
        for enx, eny, exx, exy, ax, ay, bx, by, g, c in self._edges:
            if not (exx >= plx and enx <= phx and exy >= ply and eny <= phy):
                continue
            sa = ((ax - ox) * dy - (ay - oy) * dx) / den
            sb = ((bx - ox) * dy - (by - oy) * dx) / den
            if ln <= 1e-6 or sa * sb <= 0.0 or min(abs(sa), abs(sb)) <= rad + g + MARGIN:
                if c < 0 or self._regions is None:
                    return False
                if self._rows is None:
                    o_in, t_in = self._regions()
                    self._rows = (o_in.tolist(), t_in.tolist())
                k = int(c)
                if not (self._rows[0][i][k] or self._rows[1][j][k]):
                    return False
        return True


def far_pairs(
    rows: np.ndarray, observers: list[Shape], targets: list[Shape],
    regions: Callable[[], tuple[np.ndarray, np.ndarray]] | None = None,
) -> FarPairs:
    """:class:`FarPairs` of these models over the terrain edges ``rows`` (:func:`edge_rows`):
    the edges whose grown box meets the box of every disc of both units (by MARGIN) are
    kept, the others being outside every pair's box. ``regions``: the observers' and
    targets' rows of region membership (``ignored`` of :func:`terrain_far`)."""
    od = [outline_disc(s) for s in observers]
    td = [outline_disc(s) for s in targets]
    if len(rows) == 0 or not od or not td:
        return FarPairs([], od, td, regions)
    lox = min(min(x - r for x, _, r in od), min(x - r for x, _, r in td)) - MARGIN
    loy = min(min(y - r for _, y, r in od), min(y - r for _, y, r in td)) - MARGIN
    hix = max(max(x + r for x, _, r in od), max(x + r for x, _, r in td)) + MARGIN
    hiy = max(max(y + r for _, y, r in od), max(y + r for _, y, r in td)) + MARGIN
    near = ((rows[:, 2] >= lox) & (rows[:, 0] <= hix) & (rows[:, 3] >= loy)
            & (rows[:, 1] <= hiy))
    return FarPairs(rows[near].tolist(), od, td, regions)


def edge_rows(terrain: Obstacles, emin: FloatArray, emax: FloatArray,
              col: np.ndarray | None) -> np.ndarray:
    """Per terrain edge, the row :class:`FarPairs` reads: its grown box (low, high
    corners), its ends, its grow and the region owning it (``col``, -1 for none; -1
    everywhere when None)."""
    c = np.full(len(terrain.a), -1.0) if col is None else col.astype(np.float64)
    return np.column_stack([emin, emax, terrain.a, terrain.b, terrain.grow, c])
