"""A unit-level proof of BLOCKED (06.01, 13.10, 13.11): one wall that separates two whole
units settles the raw sight of every model pair of them at once.

:func:`w40k.geometry.los._single_wall_separates` proves one pair BLOCKED when a convex
obstacle (or one edge, or a run of edges, of a wall) above both tops joins the two sides of
the convex hull of the two footprints without touching either. The same argument holds for
any two convex sets: put for each unit a convex polygon that holds every footprint of the
unit (the convex hull of the footprints' circumscribed polygons, :func:`unit_stand_in`),
and take the obstacles that are not models of either unit. A wall among them, higher than
every model of both units, that separates the two polygons lies between any observer model
and any target model, and every pair keeps it among its obstacles (an obscuring area or an
R13.11-b gap filler that far from the polygons holds no model of either unit): every line
joining the two models crosses it closer than half its grow, so the per-pair search finds
no clear line, and that wall alone leaves none (the per-pair answer is BLOCKED, with no
witness). The proof only skips searches: when it fails, the pairs are searched as before.

Most tries fail (every try of the k = 5 greedy games: no wall separates crowds of models
that far apart), and the stand-ins cost most of a try (a hull of every footprint's
16-gon): :func:`wall_candidates` first keeps only the walls that cross every segment
between the two units' model centres, which the separating wall must (a cheap necessary
condition), and the proof runs only when one is left, among those alone
(:func:`units_apart`).
"""

from __future__ import annotations

import numpy as np

from w40k.core import kept
from w40k.geometry.los import Obstacles, _single_wall_separates
from w40k.geometry.shapes import Circle, FloatArray, Oval, Polygon, Shape, convex_hull

STAND_IN_SIDES = 16
"""Sides of the circumscribed polygon of each round or oval footprint."""


def _outline(fp: Shape) -> FloatArray:
    """A polygon that holds the footprint: the circumscribed 16-gon of a circle or an oval
    (``Circle.outline`` / ``Oval.outline``), a polygon itself."""
    if isinstance(fp, Circle | Oval):
        return fp.outline(STAND_IN_SIDES)
    return fp.array()


_STAND_INS: dict[tuple[Shape, ...], Polygon | None] = kept.table()
"""Unit stand-ins by footprints (a unit that did not move has the same one in the next
scene)."""


def unit_stand_in(footprints: tuple[Shape, ...]) -> Polygon | None:
    """A convex polygon holding every footprint (None for fewer than three hull points)."""
    if footprints in _STAND_INS:
        return _STAND_INS[footprints]
    hull = convex_hull(np.concatenate([_outline(fp) for fp in footprints]))
    out = Polygon(hull) if len(hull) >= 3 else None
    if len(_STAND_INS) >= 1024:
        _STAND_INS.clear()
    _STAND_INS[footprints] = out
    return out


def units_apart(fps: list[list[Shape]], centres: list[FloatArray], highest: float,
                obs: Obstacles, keep: np.ndarray) -> bool:
    """One wall of ``obs`` (of the obstacles ``keep`` marks: not the two units' models)
    separates two units (their footprints ``fps`` and the centres of them ``centres``, the
    observer's then the target's; ``highest``: their tallest model's top): the walls that
    may (:func:`wall_candidates`) first, since most tries end there, then the proof of
    :func:`walled_apart` on the units' stand-ins among those walls alone (it accepts a wall
    by that wall's own edges, so the same answer as among every obstacle)."""
    cand = wall_candidates(centres[0], centres[1], highest, obs, keep)
    if not cand.any():
        return False
    stand = [unit_stand_in(tuple(f)) for f in fps]
    if stand[0] is None or stand[1] is None:
        return False
    return walled_apart(stand[0], stand[1], highest,
                        obs.subset(cand[obs.owner], cand[obs.vert_owner]))


def walled_apart(o: Polygon, t: Polygon, highest: float, common: Obstacles) -> bool:
    """Some obstacle of ``common`` (the obstacles of every model pair of the two units)
    higher than ``highest`` (the tallest model of either unit) separates the polygons ``o``
    and ``t`` (:func:`_single_wall_separates` with both tops at ``highest``: the obstacles
    no higher are left out, as for any pair; the hull's sides from :func:`bridges`)."""
    if len(common.a) == 0:
        return False
    sides = bridges(o.array(), t.array())
    if sides is None:
        return False
    return _single_wall_separates(o, highest, t, highest, common, sides)


def wall_candidates(po: FloatArray, pt: FloatArray, highest: float, obs: Obstacles,
                    keep: np.ndarray) -> np.ndarray:
    """Per obstacle of ``obs`` (a boolean row by obstacle index): it may be the wall of
    :func:`walled_apart` for two units whose models' centres are ``po`` and ``pt`` (the
    obstacles ``keep`` marks: not the two units' models). A necessary condition, far cheaper
    than the units' stand-ins: the wall of the proof is higher than ``highest`` (as
    :func:`_single_wall_separates` takes walls) and the set it joins the hull sides with
    (the obstacle, one edge of it or a run of its edges, grown by at most half its grow)
    cuts the stand-ins' hull with the two units apart, so every segment from a point of one
    stand-in to a point of the other crosses it: each segment joining two models' centres
    (inside their footprints, inside the stand-ins) comes within half the grow of one of
    its edges. An edge is kept unless proven farther than that (and 1e-6: far above the
    offsets' rounding, which scales with the segment's length) by :func:`_near`. The
    segment joining the two first models is tried against every wall first, then every
    segment against the obstacles left."""
    out = np.zeros(len(keep), dtype=bool)
    top = obs.top
    e = np.nonzero(keep[obs.owner] & ~((top <= highest + 1e-12) & np.isfinite(top)))[0]
    if len(e) == 0 or len(po) == 0 or len(pt) == 0:
        return out
    a, b, lim, own = obs.a[e], obs.b[e], 0.5 * obs.grow[e] + 1e-6, obs.owner[e]
    first = own[_near(po[:1], pt[:1], a, b, lim)[0]]
    if len(first) == 0:
        return out
    out[first] = True
    sel = out[own]
    a, b, lim, own = a[sel], b[sel], lim[sel], own[sel]
    near = _near(np.repeat(po, len(pt), axis=0), np.tile(pt, (len(po), 1)), a, b, lim)
    for k in np.nonzero(out)[0].tolist():
        out[k] = bool(near[:, own == k].any(axis=1).all())
    return out


def _near(p: FloatArray, q: FloatArray, a: FloatArray, b: FloatArray,
          lim: FloatArray) -> np.ndarray:
    """``out[s, e]``: edge ``a[e]``-``b[e]`` is not proven farther than ``lim[e]`` from the
    segment ``p[s]``-``q[s]``: proven farther when its two ends lie on one side of the
    segment's line both beyond ``lim``, or both before its start or both after its end by
    more than ``lim`` along it (offsets scaled by the segment's length: a segment of length
    0 keeps every edge)."""
    ux, uy = (q[:, 0] - p[:, 0])[:, None], (q[:, 1] - p[:, 1])[:, None]
    slen = np.hypot(ux, uy)
    ax, ay = a[None, :, 0] - p[:, 0:1], a[None, :, 1] - p[:, 1:2]
    bx, by = b[None, :, 0] - p[:, 0:1], b[None, :, 1] - p[:, 1:2]
    fa, fb = ux * ay - uy * ax, ux * by - uy * bx  # across the line (times its length)
    ga, gb = ux * ax + uy * ay, ux * bx + uy * by  # along it
    m = lim[None, :] * slen
    end = slen * slen + m
    far = (((fa > m) & (fb > m)) | ((fa < -m) & (fb < -m))
           | ((ga < -m) & (gb < -m)) | ((ga > end) & (gb > end)))
    out: np.ndarray = ~far
    return out


def bridges(p: FloatArray, q: FloatArray) -> list[tuple[FloatArray, FloatArray]] | None:
    """The two sides of the convex hull of two convex polygons that join them (each from a
    vertex of ``p`` to a vertex of ``q``): the hull edges between vertices of different
    polygons (monotone chain); None unless there are exactly two. Were the polygons to
    overlap, no obstacle clear of both could join these sides, so the proof stays sound."""
    pts = np.concatenate([p, q])
    n_p = len(p)
    order = sorted(range(len(pts)), key=lambda i: (float(pts[i, 0]), float(pts[i, 1])))
    xy: list[list[float]] = pts.tolist()

    def cross(a: int, b: int, c: int) -> float:
        return ((xy[b][0] - xy[a][0]) * (xy[c][1] - xy[a][1])
                - (xy[b][1] - xy[a][1]) * (xy[c][0] - xy[a][0]))

    def chain(idx: list[int]) -> list[int]:
        out: list[int] = []
        for i in idx:
            while len(out) >= 2 and cross(out[-2], out[-1], i) <= 0:
                out.pop()
            out.append(i)
        return out[:-1]

    hull = chain(order) + chain(order[::-1])
    sides: list[tuple[FloatArray, FloatArray]] = []
    for a, b in zip(hull, hull[1:] + hull[:1], strict=True):
        if (a < n_p) != (b < n_p):
            i, j = (a, b) if a < n_p else (b, a)
            sides.append((pts[i], pts[j]))
    return sides if len(sides) == 2 else None
