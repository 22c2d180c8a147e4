"""06.01 fully visible, point by point: every part of the target that faces the observer is
visible from some part of the observer.

:func:`hull_blockers` (convention HULL_RAMP) lists the obstacles that *may* stop a model from
being fully visible; when it lists none the model is fully visible. When it lists some,
:func:`fully_visible` decides exactly which is the case (up to the PARTIAL_HEIGHT convention):
a small obscuring area on the centre line between two wide bases, or a gap of a few mm
between two third-party bases, can leave every facing point of the target visible from some
point of the observer.

**Method.** A facing point ``p`` of the target's outline (a point whose outward normal has some
of the observer on its side) is visible when a 1 mm line joins the observer to the point
``p`` at the target's base level (the lowest part of its column; obstacles are columns from
the ground, so the rest of the column above a visible foot is visible too): the exact
:func:`line_of_sight` with the target replaced by that point. As ``p`` slides along the
outline it changes from visible to hidden only where its last clear line is tangent to two of
{the observer, the grown obstacles}, so the outline is cut at every common tangent of those
discs (the observer as discs: a circle, a hull's vertices, an oval's 64-gon; the obstacles as
their vertices grown by the line's half width), and one point between each two cuts is
tested, with a base sample of the facing arc. For a round observer the walls' shadows
(:mod:`cover_shadows`, in plain floats: :mod:`shadow_point`) are tried on a few points of
the base sample first; tested points go through the
batched :func:`batch_sight` when the observer is round, then a few cheap lines through each point
(:mod:`cover_lines`), then the per-point search for what is left open. Docs:
docs/geometry.md "Fully visible" and "Full visibility proven cheaply".
"""

from __future__ import annotations

import functools
import math

import numpy as np

from w40k.geometry.cover_lines import clear_through_points
from w40k.geometry.cover_near import blocker_sure, capsule_blockers
from w40k.geometry.los import (
    Obstacles,
    Sight,
    _as_discs,
    evaluate_lines,
    line_of_sight,
)
from w40k.geometry.los_batch import BLOCKED, CLEAR, batch_sight
from w40k.geometry.los_hull import hull_blockers, kept_blockers
from w40k.geometry.shadow_point import first_shadowed
from w40k.geometry.shapes import Circle, FloatArray, Oval, Shape
from w40k.geometry.tangents import disc_tangents

BASE_SAMPLES = 24
"""Points of the facing arc always tested (the cuts add one between each two)."""
OUTLINE_POINTS = 256
"""Outline resolution of an oval or a circle target (points on the curve itself)."""


def _read_only(a: FloatArray) -> FloatArray:
    a.setflags(write=False)
    return a


_TH = np.linspace(0.0, 2 * math.pi, OUTLINE_POINTS, endpoint=False)
"""The outline's angles (a circle's or an oval's parameter)."""
_COS, _SIN = _read_only(np.cos(_TH)), _read_only(np.sin(_TH))
_UNIT = _read_only(np.stack([_COS, _SIN], axis=1))
"""A round outline's unit normals (the same arrays for every circle: read only)."""


def _outline(t: Shape) -> tuple[FloatArray, FloatArray]:
    """Points on the target's outline and their outward unit normals (a circle's normals
    are the shared :data:`_UNIT`, read only)."""
    if isinstance(t, Circle | Oval):
        if isinstance(t, Circle):
            return np.array(t.center) + t.r * _UNIT, _UNIT
        c, s = math.cos(t.angle), math.sin(t.angle)
        x, y = t.a * _COS, t.b * _SIN
        pts = np.stack([t.cx + c * x - s * y, t.cy + s * x + c * y], axis=1)
        nx, ny = _COS / t.a, _SIN / t.b  # gradient of the implicit equation
        n = np.stack([c * nx - s * ny, s * nx + c * ny], axis=1)
        return pts, n / np.hypot(n[:, 0], n[:, 1])[:, None]
    v = t.array()
    k = len(v)
    # each edge sampled evenly; the normal of the edge (outward for either orientation)
    per = max(2, OUTLINE_POINTS // max(k, 1))
    pts_l: list[FloatArray] = []
    nrm_l: list[FloatArray] = []
    cen = v.mean(axis=0)
    for i in range(k):
        a, b = v[i], v[(i + 1) % k]
        e = b - a
        n = np.array([e[1], -e[0]]) / max(float(np.hypot(*e)), 1e-12)
        if float(n @ (a - cen)) < 0:
            n = -n
        frac = (np.arange(per) + 0.5) / per
        pts_l.append(a + frac[:, None] * e)
        nrm_l.append(np.repeat(n[None, :], per, axis=0))
    return np.concatenate(pts_l), np.concatenate(nrm_l)


def _observer_discs(o: Shape) -> tuple[FloatArray, FloatArray]:
    discs = _as_discs(o)
    if discs is not None:
        return discs
    pts = o.outline(64)
    return pts, np.zeros(len(pts))


def _cuts(
    o: Shape, blockers: Obstacles, owners: np.ndarray, pts: FloatArray
) -> np.ndarray:
    """Indices into the outline ``pts`` where a common tangent of two discs of {observer,
    grown obstacle vertices} crosses the outline."""
    keep = _of_owners(blockers.vert_owner, owners)
    bc, br = blockers.verts[keep], blockers.vert_grow[keep]
    oc, orr = _observer_discs(o)
    c1 = [np.repeat(oc, len(bc), axis=0)]
    r1 = [np.repeat(orr, len(bc))]
    c2 = [np.tile(bc, (len(oc), 1))]
    r2 = [np.tile(br, len(oc))]
    i, j = _pairs_of(len(bc))
    c1.append(bc[i])
    r1.append(br[i])
    c2.append(bc[j])
    r2.append(br[j])
    n, c = disc_tangents(np.concatenate(c1), np.concatenate(r1), np.concatenate(c2),
                          np.concatenate(r2))
    if len(n) == 0:
        return np.zeros(0, dtype=np.int64)
    return _flip_rows(pts, n, c)


def _of_owners(ids: np.ndarray, owners: np.ndarray) -> np.ndarray:
    """``np.isin(ids, owners)``: one comparison per owner for the few owners of a pair's
    blockers (the same mask)."""
    if len(owners) > 8:
        return np.isin(ids, owners)
    keep = np.zeros(len(ids), dtype=bool)
    for k in owners.tolist():
        keep |= ids == k
    return keep


@functools.lru_cache(maxsize=256)
def _pairs_of(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.triu_indices(n, 1)`` (kept per size, read only)."""
    i, j = np.triu_indices(n, 1)
    i.setflags(write=False)
    j.setflags(write=False)
    return i, j


def _flip_rows(pts: FloatArray, n: FloatArray, c: FloatArray) -> np.ndarray:
    """The indices (ascending) of the outline points ``pts`` that some line ``n . x = c``
    separates from the next point (the last from the first)."""
    # A line that passes farther than 1e-9 (relative) from the points' box keeps every point
    # on one side: |n . p - c| >= |n . m - c| - (|nx| hx + |ny| hy) for p in the box of centre
    # m and half-sizes (hx, hy), and the float error of each product is ~1e-15 of those terms,
    # so it flips no point and is left out. The matrix product is taken on the lines left
    # (each value is the one the whole product gave: its columns are computed apart, for two
    # lines or more; tests/geometry/test_measure_scalar.py). Most tangents of a scene's
    # obstacle vertices pass far from a small base: 33122 -> 3321 lines in `w40k battle`'s
    # game, and the product of the rest stays under OpenBLAS's threading size (the threads'
    # CPU was most of this function's cost on a loaded 2-core machine).
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    mx, my = 0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1])
    hx, hy = 0.5 * (hi[0] - lo[0]), 0.5 * (hi[1] - lo[1])
    ax, ay = np.abs(n[:, 0]), np.abs(n[:, 1])
    reach = ax * hx + ay * hy
    at_m = n[:, 0] * mx + n[:, 1] * my - c
    near = np.abs(at_m) <= reach + 1e-9 * (1.0 + np.abs(c) + ax * abs(mx) + ay * abs(my) + reach)
    if not near.all():
        kept = np.nonzero(near)[0]
        if len(kept) == 0:
            return np.zeros(0, dtype=np.intp)
        if len(kept) == 1:
            # a product with one line is numpy's matrix-vector path, whose floats may differ
            # in the last bit from the matrix product's: a far line (no flip) is kept too
            kept = np.sort(np.append(kept, np.nonzero(~near)[0][0]))
        n, c = n[kept], c[kept]
    # The outline points on either side of each line, _ROWS points at a time (a points-by-
    # lines array of 4000 lines was 8 MB, twice over): point i is a cut when some line
    # separates it from point i + 1 (the last from the first).
    rows = len(pts)
    flip = np.zeros(rows, dtype=bool)
    first: np.ndarray | None = None
    prev: np.ndarray | None = None
    for r0 in range(0, rows, _ROWS):
        d = pts[r0:r0 + _ROWS] @ n.T
        d -= c[None, :]
        side = d > 0.0
        del d
        flip[r0:r0 + len(side) - 1] = (side[:-1] != side[1:]).any(axis=1)
        if prev is None:
            first = side[0].copy()
        else:
            flip[r0 - 1] = bool((prev != side[0]).any())
        prev = side[-1].copy()
    if prev is not None and first is not None:
        flip[rows - 1] = bool((prev != first).any())
    return np.nonzero(flip)[0]


_ROWS = 64
"""Outline points per block in :func:`_cuts` (a whole number of the matrix product's row
blocks: each point's value against each line is the one the whole product gave)."""


def facing_test_points(
    o: Shape, top_o: float, t: Shape, level_t: float, obs: Obstacles
) -> FloatArray | None:
    """The facing points of target ``t`` to test (module docstring), or None when HULL_RAMP
    finds nothing that could stop it being fully visible."""
    staged = _facing_base(o, top_o, t, level_t, obs)
    return None if staged is None else staged[1][_tested_rows(o, obs, *staged)]


def _facing_base(
    o: Shape, top_o: float, t: Shape, level_t: float, obs: Obstacles
) -> tuple[np.ndarray, FloatArray, np.ndarray, set[int]] | None:
    """HULL_RAMP's blockers, the outline, its facing mask and the base sample (outline
    indices) of :func:`facing_test_points`; None when it has no point to test."""
    owners = hull_blockers(o, t, level_t, top_o, obs)
    if len(owners) == 0:
        return None
    sample = _facing_sample(o, t)
    return None if sample is None else (owners, *sample)


def _facing_sample(o: Shape, t: Shape) -> tuple[FloatArray, np.ndarray, set[int]] | None:
    """The outline, its facing mask and the base sample (outline indices) of
    :func:`facing_test_points` (functions of the two shapes only); None when no outline
    point faces the observer."""
    pts, nrm = _outline(t)
    ext = o.support(nrm)
    facing = ext - (nrm * pts).sum(axis=1) > 1e-9
    idx = np.nonzero(facing)[0]
    if len(idx) == 0:
        return None
    base = set(idx[_sample_at(len(idx))].tolist())
    return pts, facing, base


@functools.lru_cache(maxsize=OUTLINE_POINTS + 1)
def _sample_at(n: int) -> np.ndarray:
    """The base sample's positions among ``n`` facing points (evenly spread; read only)."""
    return _read_only(np.linspace(0, n - 1, BASE_SAMPLES).round().astype(int))


def _tested_rows(
    o: Shape, obs: Obstacles, owners: np.ndarray, pts: FloatArray, facing: np.ndarray,
    base: set[int],
) -> np.ndarray:
    """The outline indices of the base sample and of one point between each two cuts (the
    index after the cut), ascending."""
    cuts = _cuts(o, obs, owners, pts)
    tested = base | {int(k) for k in (cuts + 1) % len(pts) if facing[(k + 1) % len(pts)]}
    return np.array(sorted(tested), dtype=np.int64)


def hidden_facing_point(
    o: Shape,
    top_o: float,
    t: Shape,
    level_t: float,
    obs: Obstacles,
    convention_visible: bool,
    prefer: FloatArray | None = None,
) -> tuple[bool, FloatArray | None]:
    """06.01 fully visible (the answer of :func:`fully_visible`) and, when it is not, a
    tested facing point that is hidden. The base sample is a part of the tested points, so
    when the walls' shadows prove one of its points hidden (round observer, or an oval's
    circumscribed disc, :func:`cover_shadows.shadowed_points`: the exact search's BLOCKED,
    or with the partial obstacles, when PARTIAL_HEIGHT is not visible, no clear line; asked
    in plain floats for a few points of the sample, :func:`shadow_point.first_shadowed`)
    the answer is known without the cuts (the common tangents) and the batched test; else
    every tested point goes through :func:`first_hidden` (one batched call for them all).
    Which hidden point is returned is not part of the answer (the first proven probe, or
    :func:`first_hidden`'s).
    ``prefer``: a facing point of ``t`` known hidden among a subset of ``obs`` (the terrain
    alone): it is hidden among ``obs`` too (a line clear among ``obs`` is clear among any
    subset of it), so when it is one of the base sample (tested here too: the sample
    depends on the two shapes only) the answer is no without a search; else it is tried
    first. When :func:`cover_near.blocker_sure` proves HULL_RAMP's blockers not empty (in
    the battles, nearly every target model that terrain hides), the pair hull they need is
    computed only for the cuts, after the shadows: the same answers."""
    owners: np.ndarray | None = None
    if blocker_sure(o, t, level_t, top_o, obs):
        sample = _facing_sample(o, t)
        if sample is None:
            return True, None
        pts, facing, base = sample
    else:
        staged = _facing_base(o, top_o, t, level_t, obs)
        if staged is None:
            return True, None
        owners, pts, facing, base = staged
    base_rows = np.array(sorted(base), dtype=np.int64)
    if prefer is not None:
        at = np.all(pts[base_rows] == prefer, axis=1)
        if at.any():
            return False, pts[base_rows[int(np.argmax(at))]].copy()
    disc = _shadow_disc(o)
    if disc is not None:
        # the walls' shadows (cover_shadows.py) of a few points of the base sample, in plain
        # floats (shadow_point.py): a point they prove is hidden (the exact search finds no
        # clear line), so the answer is no and that point a hidden tested point (the
        # point is only ever a hint: sight_tables' terrain test passes it as ``prefer``).
        # Where none is proven the array pass over the whole sample is not asked: it too
        # only proves points hidden, which first_hidden then finds hidden among the tested
        # points (the base sample among them), so the answer is the same without it, and
        # a model fully visible no longer pays it (cover22). The probes spread over the
        # facing arc (a hidden arc is a run of the sample: in the games every hidden call
        # has one of them proven)
        probe = base_rows[_probes(len(base_rows))]
        k = first_shadowed(disc, top_o, pts[probe].tolist(), level_t, obs,
                           not convention_visible)
        if k is not None:
            return False, pts[probe[k]].copy()
    if owners is None:
        # the answer kept for the pair, or two round footprints' by the capsules about
        # the hull (cover_near.capsule_blockers: the same owners), else the hull's
        owners = kept_blockers(o, t, level_t, top_o, obs)
        if owners is None:
            owners = capsule_blockers(o, t, level_t, top_o, obs)
        if owners is None:
            owners = hull_blockers(o, t, level_t, top_o, obs)
    rows = _tested_rows(o, obs, owners, pts, facing, base)
    tested = pts[rows]
    k = first_hidden(o, top_o, tested, level_t, obs, convention_visible, prefer)
    return (True, None) if k is None else (False, tested[k].copy())


@functools.lru_cache(maxsize=BASE_SAMPLES + 1)
def _probes(n: int) -> np.ndarray:
    """The positions among ``n`` base sample rows whose walls' shadows are proven in floats:
    the first, the middle, the last, then the quarters (distinct, in that order; read
    only)."""
    order = dict.fromkeys((0, n // 2, n - 1, n // 4, (3 * n) // 4))
    return _read_only(np.array([i for i in order if 0 <= i < n], dtype=np.int64))


def _shadow_disc(o: Shape) -> Circle | None:
    """The round observer the walls' shadows are cast from: a circle itself; an oval's
    circumscribed disc (its half major axis, and 1e-6" for the exact test's tolerance of a
    line grazing the oval). A line through a point and the oval is one through the disc,
    and the oval's near rim is no nearer the point than the disc's, so the disc's proof
    (every line blocked within the offsets and the stretch it counts, nearer the point than
    the disc) holds for the oval: the shadows of :func:`cover_shadows.shadowed_points`
    never need the footprint to be the observer's own. None for other shapes."""
    if isinstance(o, Circle):
        return o
    if isinstance(o, Oval):
        return Circle(o.cx, o.cy, max(o.a, o.b) + 1e-6)
    return None


def _batch(
    o: Circle, top_o: float, pts: FloatArray, level_t: float, obs: Obstacles
) -> tuple[np.ndarray, FloatArray]:
    """:func:`batch_sight` from round observer ``o`` to the points ``pts`` (targets of radius
    0 at height ``level_t``): the status and the observer-side witness points per point."""
    n = len(pts)
    status, wit, _ = batch_sight(
        np.repeat(np.array([o.center]), n, axis=0), np.full(n, o.r), np.full(n, top_o),
        pts, np.zeros(n), np.full(n, level_t), obs,
    )
    return status, wit


def fully_visible(
    o: Shape,
    top_o: float,
    t: Shape,
    level_t: float,
    obs: Obstacles,
    convention_visible: bool = False,
) -> bool:
    """06.01: is every part of target ``t`` (base level ``level_t``) that faces observer ``o``
    (top ``top_o``) visible from some part of ``o``, among ``obs`` (the pair's obstacles: the
    two units' own models and the areas either model is within already left out)?"""
    return hidden_facing_point(o, top_o, t, level_t, obs, convention_visible)[0]


def points_seen(
    o: Shape,
    top_o: float,
    pts: FloatArray,
    level_t: float,
    obs: Obstacles,
    convention_visible: bool,
) -> bool:
    """Every point (at height ``level_t``) is visible from ``o``."""
    return first_hidden(o, top_o, pts, level_t, obs, convention_visible) is None


def first_hidden(
    o: Shape,
    top_o: float,
    pts: FloatArray,
    level_t: float,
    obs: Obstacles,
    convention_visible: bool,
    prefer: FloatArray | None = None,
) -> int | None:
    """The index of a point (at height ``level_t``) not visible from ``o``, or None when
    every point is. The batched answer first (a BLOCKED point ends the search), then a few
    cheap lines through each point it leaves open (:func:`_shown_by_cheap_lines`: a clear
    line proves the point visible), then the exact search point by point for the rows left,
    starting with the point equal to ``prefer`` if there is one (a point known hidden by
    fewer obstacles), then deepest in a run of points not shown first: the answer is the
    same in any order, a hidden point is only found sooner."""
    n = len(pts)
    open_rows = np.arange(n)
    anchors: list[FloatArray] = []
    if isinstance(o, Circle):
        # each row's batched answer is its own (whichever rows share the batch)
        status, wit = _batch(o, top_o, pts, level_t, obs)
        blocked = status == BLOCKED
        if blocked.any():
            return int(np.argmax(blocked))
        open_rows = np.nonzero(status != CLEAR)[0]
        clear_rows = np.nonzero(status == CLEAR)[0]
    else:
        clear_rows, wit = np.zeros(0, dtype=np.int64), pts
    near = obs
    if len(open_rows):
        near = _edges_near(o, pts[open_rows], obs)
        shown = _shown_by_cheap_lines(o, top_o, pts, open_rows, clear_rows, wit, level_t, near)
        open_rows = _deepest_first(open_rows[~shown], n)
    if prefer is not None and len(open_rows):
        first = np.all(pts[open_rows] == prefer, axis=1)
        if first.any():
            open_rows = np.concatenate([open_rows[first], open_rows[~first]])
    seen = {Sight.CLEAR} | ({Sight.CONVENTION} if convention_visible else set())
    for k in open_rows:
        p = pts[int(k)]
        target = Circle(float(p[0]), float(p[1]), 0.0)
        if anchors and _clear_through(o, top_o, target, level_t, near, anchors):
            continue
        res = line_of_sight(o, top_o, target, level_t, obs)
        if res.sight not in seen:
            return int(k)
        if res.witness is not None:
            anchors = [np.array(res.witness[0], dtype=np.float64), *anchors[:3]]
    return None


def _deepest_first(rows: np.ndarray, n: int) -> np.ndarray:
    """The rows left for the exact search (of ``n`` in outline order, the others shown
    visible), those farthest along the outline from a visible one first: a hidden point lies
    in a run of points not shown, its middle most often (the order changes only how soon a
    hidden point is found, not whether there is one)."""
    if len(rows) < 2:
        return rows
    if len(rows) == n:
        return _spread(rows)
    known = np.ones(n, dtype=bool)
    known[rows] = False
    vis = np.nonzero(known)[0]
    pos = np.searchsorted(vis, rows)
    before = (rows - vis[pos - 1]) % n
    after = (vis[pos % len(vis)] - rows) % n
    depth = np.minimum(before, after)
    out: np.ndarray = rows[np.argsort(-depth, kind="stable")]
    return out


def _spread(rows: np.ndarray) -> np.ndarray:
    """``rows`` in an order that spreads over them (every 2^k-th first, k falling), so that a
    long run of hidden points is met early."""
    n = len(rows)
    step = 1 << max(n - 1, 1).bit_length()
    taken = np.zeros(n, dtype=bool)
    order: list[int] = []
    while step >= 1:
        new = [i for i in range(0, n, step) if not taken[i]]
        taken[new] = True
        order += new
        step //= 2
    out: np.ndarray = rows[np.array(order, dtype=np.int64)]
    return out


def _shown_by_cheap_lines(
    o: Shape, top_o: float, pts: FloatArray, rows: np.ndarray, clear_rows: np.ndarray,
    wit: FloatArray, level_t: float, obs: Obstacles,
) -> np.ndarray:
    """Per row of ``rows``: point ``pts[row]`` is proven visible by one of a few lines through
    it (:func:`cover_lines.clear_through_points`, exact per line), all rows at once: from the
    observer-side witness points ``wit`` of the nearest clear rows before and after it
    (``clear_rows``, outline order), from points across the observer (at 0.9 and 0.5 of its
    reach either side of the line from its centre), and from its centre when the batched test
    did not try that line (an observer that is not round)."""
    c = np.asarray(o.center, dtype=np.float64)
    p = pts[rows]
    m = len(rows)
    dv = p - c
    ln = np.maximum(np.hypot(dv[:, 0], dv[:, 1]), 1e-12)
    side = np.stack([-dv[:, 1] / ln, dv[:, 0] / ln], axis=1)
    reach = o.support(side) - side @ c
    anchors = [c + side * (reach * f)[:, None] for f in (0.9, -0.9, 0.5, -0.5)]
    if len(clear_rows):
        pos = np.searchsorted(clear_rows, rows)
        for nb in (clear_rows[pos - 1], clear_rows[pos % len(clear_rows)]):
            anchors.append(c + (wit[nb] - c) * (1.0 - ANCHOR_PULL))
    elif not isinstance(o, Circle):
        anchors.append(np.repeat(c[None, :], m, axis=0))
    k = len(anchors)
    a = np.stack(anchors, axis=1).reshape(m * k, 2)
    clear = clear_through_points(o, top_o, level_t, obs, a, np.repeat(p, k, axis=0))
    out: np.ndarray = np.asarray(clear.reshape(m, k).any(axis=1), dtype=bool)
    return out


def _edges_near(o: Shape, pts: FloatArray, obs: Obstacles) -> Obstacles:
    """The edges of ``obs`` whose box, grown by the edge's grow, meets the box of the
    observer and the points ``pts``: the part of a line from the observer to one of the
    points that :func:`evaluate_lines` tests lies in that box, and an edge farther than its
    grow from the box is farther than that from the line, so it hits no such line (the
    answer per line is per edge: the same answers)."""
    if len(obs.a) == 0:
        return obs
    x0, y0, x1, y1 = o.bbox()
    lo = np.minimum(pts.min(axis=0), [x0, y0])
    hi = np.maximum(pts.max(axis=0), [x1, y1])
    g = obs.grow[:, None] + 1e-6
    keep = ((np.maximum(obs.a, obs.b) + g >= lo) & (np.minimum(obs.a, obs.b) - g <= hi)
            ).all(axis=1)
    return obs.subset(keep, np.zeros(len(obs.verts), dtype=bool))


ANCHOR_PULL = 1e-6
"""How far (a fraction of the way to the centre) a known clear line's observer-side point is
pulled into the observer before a line through it is tried (:func:`_clear_through`)."""


def _clear_through(
    o: Shape, top_o: float, p: Circle, level_t: float, obs: Obstacles,
    anchors: list[FloatArray],
) -> bool:
    """A cheap exact proof that point ``p`` (a target of radius 0 at height ``level_t``) is
    visible: some line from a point of the observer through ``p`` is clear
    (:func:`evaluate_lines`, exact per line: the definition of a 1 mm line of sight). The
    lines tried start at the observer-side ends of clear lines to nearby points (``anchors``,
    pulled a hair into the footprint) and at points across the observer; when none is clear
    the exact search decides."""
    c = np.asarray(o.center, dtype=np.float64)
    q = [c + (a - c) * (1.0 - ANCHOR_PULL) for a in anchors]
    dx, dy = p.cx - float(c[0]), p.cy - float(c[1])
    length = math.hypot(dx, dy)
    if length <= 1e-9:
        return False
    side = np.array([-dy / length, dx / length])
    reach = float(o.support(side[None, :])[0] - side @ c)
    q += [c + side * (reach * f) for f in (0.9, -0.9, 0.5, -0.5)]
    a = np.array(q)
    d = np.array([p.cx, p.cy]) - a
    ln = np.hypot(d[:, 0], d[:, 1])
    ok = ln > 1e-9
    if not ok.any():
        return False
    a, d = a[ok], d[ok] / ln[ok, None]
    clear, _, _ = evaluate_lines(o, top_o, p, level_t, obs, a, d)
    return bool(clear.any())
