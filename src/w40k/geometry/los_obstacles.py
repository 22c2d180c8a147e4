"""The data of a line-of-sight question (06.01, 13.10, 13.11): the blockers flattened to edges
(:class:`Obstacles`), the three-valued answer (:class:`Sight`, :class:`SightResult`) and the
touching tolerance. The search itself is :mod:`w40k.geometry.los` (which re-exports these)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np

from w40k.geometry.shapes import FloatArray

TOUCH = 1e-7
"""Lines that come within ``grow - TOUCH`` of an obstacle are blocked; touching is clear."""


def unique_ids(ids: np.ndarray) -> np.ndarray:
    """``np.unique`` of a 1-D integer array (sorted distinct values, the same array). numpy
    2.4's ``np.unique`` imports ``numpy.ma`` on its first call (7-30 ms inside the first game
    that asks an obstacle's owners); this sort-and-compare does not."""
    s = np.sort(ids, kind="stable")
    if len(s) < 2:
        return s
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


class Sight(Enum):
    """Three-valued line-of-sight answer."""

    CLEAR = "clear"
    """A witness line exists (exact)."""
    BLOCKED = "blocked"
    """No 1 mm line exists (exact)."""
    CONVENTION = "convention"
    """Only lines past obstacles of intermediate height could exist and none of the critical
    lines clears them: decided by the PARTIAL_HEIGHT convention (not visible by default)."""


@dataclass(frozen=True)
class Obstacles:
    """Blockers flattened to edges for vectorised tests.

    Each edge ``a[i]``-``b[i]`` belongs to obstacle ``owner[i]`` and carries that obstacle's
    ``grow`` and ``top``. A point obstacle is one degenerate edge. ``polys`` keeps each
    obstacle's polygon (or None) for the inside test."""

    a: FloatArray
    """Edge start points (E, 2)."""
    b: FloatArray
    """Edge end points (E, 2)."""
    grow: FloatArray
    """Grow radius per edge (E,)."""
    top: FloatArray
    """Top height per edge (E,)."""
    owner: np.ndarray
    """Obstacle index per edge (E,)."""
    verts: FloatArray
    """Obstacle vertices (V, 2) (for tangents)."""
    vert_grow: FloatArray
    """Grow radius per vertex (V,)."""
    vert_top: FloatArray
    """Top per vertex (V,)."""
    vert_owner: np.ndarray
    """Obstacle index per vertex (V,)."""
    convex: np.ndarray | None = None
    """Per obstacle index (not per edge): its polygon is convex (points and segments are)."""

    @staticmethod
    def build(items: list[tuple[FloatArray, float, float]]) -> Obstacles:
        """From (polygon-or-point (k, 2), grow, top) items."""
        ea: list[FloatArray] = []
        eb: list[FloatArray] = []
        g: list[float] = []
        t: list[float] = []
        o: list[int] = []
        vg: list[float] = []
        vt: list[float] = []
        vo: list[int] = []
        vs: list[FloatArray] = []
        cv: list[bool] = []
        for k, (poly, grow, top) in enumerate(items):
            p = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
            cv.append(_is_convex(p))
            q = np.roll(p, -1, axis=0) if len(p) >= 3 else (p[::-1] if len(p) == 2 else p)
            if len(p) == 2:
                p, q = p[:1], p[1:]
            ea.append(p)
            eb.append(q)
            g += [grow] * len(p)
            t += [top] * len(p)
            o += [k] * len(p)
            full = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
            vs.append(full)
            vg += [grow] * len(full)
            vt += [top] * len(full)
            vo += [k] * len(full)
        z2 = np.zeros((0, 2))
        return Obstacles(
            np.concatenate(ea) if ea else z2,
            np.concatenate(eb) if eb else z2,
            np.asarray(g, dtype=np.float64),
            np.asarray(t, dtype=np.float64),
            np.asarray(o, dtype=np.int64),
            np.concatenate(vs) if vs else z2,
            np.asarray(vg, dtype=np.float64),
            np.asarray(vt, dtype=np.float64),
            np.asarray(vo, dtype=np.int64),
            np.asarray(cv, dtype=bool),
        )

    def subset(self, edge_mask: np.ndarray, vert_mask: np.ndarray) -> Obstacles:
        """Keep only some edges and vertices."""
        return Obstacles(
            self.a[edge_mask],
            self.b[edge_mask],
            self.grow[edge_mask],
            self.top[edge_mask],
            self.owner[edge_mask],
            self.verts[vert_mask],
            self.vert_grow[vert_mask],
            self.vert_top[vert_mask],
            self.vert_owner[vert_mask],
            self.convex,
        )


_CONVEX: dict[bytes, bool] = {}
""":func:`_is_convex` answers by polygon (the same terrain and model outlines recur in every
scene's obstacles)."""


def _is_convex(p: FloatArray) -> bool:
    """A simple convex polygon (turns all one way, once around); points and segments are."""
    if len(p) < 3:
        return True
    key = np.ascontiguousarray(p).tobytes()
    hit = _CONVEX.get(key)
    if hit is None:
        if len(_CONVEX) >= 4096:
            _CONVEX.clear()
        hit = _CONVEX[key] = _convex_test(p)
    return hit


def _convex_test(p: FloatArray) -> bool:
    """The test of :func:`_is_convex` (three or more vertices)."""
    e = np.roll(p, -1, axis=0) - p
    f = np.roll(e, -1, axis=0)
    cross = e[:, 0] * f[:, 1] - e[:, 1] * f[:, 0]
    if not ((cross >= 0).all() or (cross <= 0).all()) or not np.any(cross != 0):
        return False
    ang = np.arctan2(cross, (e * f).sum(axis=1))
    return bool(abs(abs(float(ang.sum())) - 2 * math.pi) < 1e-6)


@dataclass(frozen=True)
class SightResult:
    """A line-of-sight answer with a witness line when CLEAR."""

    sight: Sight
    """CLEAR, BLOCKED or CONVENTION."""
    witness: tuple[tuple[float, float], tuple[float, float]] | None = None
    """Plan end points (observer side, target side) of a clear line."""

    def turned(self) -> SightResult:
        """The same answer for the pair the other way round (raw sight is symmetric, 06.01):
        the witness line turned round."""
        w = self.witness
        return self if w is None else SightResult(self.sight, (w[1], w[0]))
