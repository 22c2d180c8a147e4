"""Per unit, the parts of a scene's sight tables that depend on its models alone: their
footprints, their obstacle rows (each model a column from the ground to its top, COLUMN
convention, 06.01) and their kernel footprint rows, kept by the identity of the unit's models
tuple (a unit's layout keeps one tuple until one of its models is placed or removed, so most
units of a new scene find theirs again: a casualty or a move rebuilds that unit's block only).

:func:`join_obstacles` and :func:`join_rows` join the blocks of a scene's units after the
terrain's part: the same arrays as :func:`sight_build.build_models` and
:func:`kernel_layout.shape_rows` over every model of the scene (both build model by model
and join in model order, so joining unit by unit gives the same floats and indices: only the
obstacle indices and the polygon table offsets are shifted, by exact integer additions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import accumulate

import numpy as np

from w40k.core import kept
from w40k.geometry import kernel_layout, sight_build, sight_memo
from w40k.geometry.los_obstacles import Obstacles
from w40k.geometry.shapes import FloatArray, Model, Shape


@dataclass(frozen=True)
class UnitBlock:
    """One unit's models as the sight tables need them (arrays read-only, views of the
    arrays built for every unit built with it)."""

    models: tuple[Model, ...]
    """The models tuple it was built from (held: the table's key is its ``id``)."""
    footprints: tuple[Shape, ...]
    """Each model's footprint, in order."""
    edges: tuple[FloatArray, ...]
    """The models' edge rows of :func:`sight_build.build_models`: ``a``, ``b``, ``grow``,
    ``top``, then the vertex rows ``verts``, ``vert_grow``, ``vert_top``."""
    ne: np.ndarray
    """Per model, its number of edges."""
    nv: np.ndarray
    """Per model, its number of vertices."""
    convex: np.ndarray
    """Per model, its obstacle is convex."""
    geo: FloatArray
    """The models' kernel footprint rows (:func:`kernel_layout.shape_rows`), polygon table
    offsets counted from the table built with it (:attr:`poly_base` is the block's first)."""
    poly: FloatArray
    """The block's polygon table (P, 5)."""
    poly_rows: np.ndarray
    """The rows of :attr:`geo` with a polygon (whose offsets a join shifts)."""
    poly_base: int
    """The offset of :attr:`poly` in the table it was built with."""
    built: tuple[np.ndarray, ...] = field(default=(), compare=False)
    """The arrays of the build it was cut from (every unit built with it): the seven edge
    and vertex columns of :attr:`edges`, then ``ne``, ``nv`` and ``convex``, each whole."""
    span: tuple[int, int, int, int, int, int] = field(default=(0, 0, 0, 0, 0, 0),
                                                      compare=False)
    """Its rows in :attr:`built`: models ``s:t``, edges ``e0:e1``, vertices ``v0:v1`` (its
    :attr:`edges`, :attr:`ne`, :attr:`nv` and :attr:`convex` are those slices)."""
    area_rows: dict[int, tuple[object, np.ndarray]] = field(default_factory=dict,
                                                            compare=False)
    """Per terrain part (by identity, held): the models' rows of the region membership
    matrix (``sight_terrain.fill_area_rows``: a function of the footprints and that terrain's
    areas and gap fillers), read-only."""
    hides: dict[int, tuple[object, np.ndarray]] = field(default_factory=dict, compare=False)
    """Per terrain part (by identity, held): ``Visibility._hidden_models`` of the unit when it
    made no ranged attacks recently (13.09: a model with a cover keyword within an area with
    a dense feature; a function of the models' keywords and region rows), read-only."""
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list, compare=False)
    """:meth:`box`, once asked."""
    tokens: list[int] = field(default_factory=list, compare=False)
    """:meth:`token`, once asked."""

    def token(self) -> int:
        """:func:`sight_memo.token` of the unit's obstacles' content (each model's footprint
        and top, in order: a model blocks as its footprint up to its top). A token is never
        given to other content, so the one kept here names this content in any memo key."""
        if not self.tokens:
            self.tokens.append(sight_memo.token(tuple(
                (fp, m.top) for fp, m in zip(self.footprints, self.models, strict=True))))
        return self.tokens[0]

    def box(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax): the box that holds every footprint of the unit."""
        if not self.boxes:
            boxes = [fp.bbox() for fp in self.footprints]
            self.boxes.append((min(b[0] for b in boxes), min(b[1] for b in boxes),
                               max(b[2] for b in boxes), max(b[3] for b in boxes)))
        return self.boxes[0]


_BLOCKS: dict[int, UnitBlock] = kept.table()
""":func:`unit_block` by the identity of the models tuple (held by its entry)."""

LIMIT = 4096
"""Blocks kept before :data:`_BLOCKS` is emptied."""

_NO_ITEMS: tuple[sight_build.Item, ...] = ()
"""No terrain (a block's obstacles are its models' alone)."""


def unit_blocks(groups: list[tuple[Model, ...]]) -> list[UnitBlock]:
    """The blocks of these units' models tuples (kept while the same tuples are asked), the
    missing ones built together (:func:`_build`)."""
    out: list[UnitBlock | None] = []
    todo: list[tuple[Model, ...]] = []
    for models in groups:
        hit = _BLOCKS.get(id(models))
        if hit is None or hit.models is not models:
            todo.append(models)
            hit = None
        out.append(hit)
    if not todo:
        return [b for b in out if b is not None]  # (every entry found)
    built = iter(_build(todo))
    return [b if b is not None else next(built) for b in out]


def _build(groups: list[tuple[Model, ...]]) -> list[UnitBlock]:
    """The blocks of these models tuples: the arrays of every model built at once
    (``build_models`` with no terrain, ``shape_rows``), cut per unit (each model's rows are
    its own: the build is model by model)."""
    models = [m for g in groups for m in g]
    fps = [m.footprint() for m in models]
    tops = [m.top for m in models]
    obs = sight_build.build_models(_NO_ITEMS, fps, tops)
    geo, poly = kernel_layout.shape_rows(fps, tops, [m.z for m in models])
    n = len(models)
    ne = np.bincount(obs.owner, minlength=n)
    nv = np.bincount(obs.vert_owner, minlength=n)
    assert obs.convex is not None
    is_poly = geo[:, 5] == kernel_layout.POLY
    arrays = (obs.a, obs.b, obs.grow, obs.top, obs.verts, obs.vert_grow, obs.vert_top,
              ne, nv, obs.convex, geo, poly)
    for arr in arrays:
        arr.setflags(write=False)
    # the cuts (first model, edge, vertex and polygon row of each unit) as Python integer
    # sums over the per-model counts: the same offsets as cumulative sums of the arrays
    starts = [0, *accumulate(len(g) for g in groups)]
    e_sum = [0, *accumulate(ne.tolist())]
    v_sum = [0, *accumulate(nv.tolist())]
    polys = is_poly.tolist()
    if any(polys):
        p_len = [int(p1 - p0) if is_p else 0
                 for is_p, p0, p1 in zip(polys, geo[:, 10].tolist(), geo[:, 11].tolist(),
                                         strict=True)]
        p_sum = [0, *accumulate(p_len)]
    else:
        p_sum = [0] * (n + 1)
    built = (obs.a, obs.b, obs.grow, obs.top, obs.verts, obs.vert_grow, obs.vert_top, ne, nv,
             obs.convex)
    no_rows = np.zeros(0, dtype=np.int64)  # (``np.nonzero`` of no polygon row)
    no_rows.setflags(write=False)
    if len(_BLOCKS) + len(groups) > LIMIT:
        _BLOCKS.clear()
    out: list[UnitBlock] = []
    for j, g in enumerate(groups):
        s, t = starts[j], starts[j + 1]
        e0, e1, v0, v1, p0, p1 = e_sum[s], e_sum[t], v_sum[s], v_sum[t], p_sum[s], p_sum[t]
        blk = UnitBlock(
            g, tuple(fps[s:t]),
            (obs.a[e0:e1], obs.b[e0:e1], obs.grow[e0:e1], obs.top[e0:e1],
             obs.verts[v0:v1], obs.vert_grow[v0:v1], obs.vert_top[v0:v1]),
            ne[s:t], nv[s:t], obs.convex[s:t], geo[s:t], poly[p0:p1],
            np.nonzero(is_poly[s:t])[0] if p1 > p0 else no_rows, p0, built,
            (s, t, e0, e1, v0, v1))
        _BLOCKS[id(g)] = blk
        out.append(blk)
    return out


def join_obstacles(items: tuple[sight_build.Item, ...],
                   blocks: list[UnitBlock]) -> Obstacles:
    """The terrain's obstacles (of ``items``), then every block's in order, the models'
    obstacle indices following the terrain's items: ``sight_build.build_models(items, every
    footprint, every top)``. Blocks that follow each other in one build, in the same order,
    are joined as one slice of that build's arrays (:func:`_runs`: the same rows in the same
    order, so the same arrays, with fewer pieces to join)."""
    if not blocks:
        return sight_build.build_models(items, [], [])
    ter = sight_build.terrain_obstacles(items)
    first = len(items)
    n = sum(len(b.models) for b in blocks)
    owner = np.arange(first, first + n, dtype=np.int64)
    runs = _runs(blocks)
    ters = (ter.a, ter.b, ter.grow, ter.top, ter.verts, ter.vert_grow, ter.vert_top)
    a, bb, grow, top = (np.concatenate([ters[k], *(r[k][e0:e1] for r, (_, _, e0, e1, _, _)
                                                  in runs)]) for k in range(4))
    verts, vert_grow, vert_top = (
        np.concatenate([ters[k], *(r[k][v0:v1] for r, (_, _, _, _, v0, v1) in runs)])
        for k in range(4, 7))
    ne = np.concatenate([r[7][s:t] for r, (s, t, _, _, _, _) in runs])
    nv = np.concatenate([r[8][s:t] for r, (s, t, _, _, _, _) in runs])
    assert ter.convex is not None
    return Obstacles(
        a, bb, grow, top,
        np.concatenate([ter.owner, np.repeat(owner, ne)]),
        verts, vert_grow, vert_top,
        np.concatenate([ter.vert_owner, np.repeat(owner, nv)]),
        np.concatenate([ter.convex, *(r[9][s:t] for r, (s, t, _, _, _, _) in runs)]),
    )


def _runs(blocks: list[UnitBlock]) -> list[tuple[tuple[np.ndarray, ...], list[int]]]:
    """The blocks as runs of one build's rows, in order: a block that starts where the
    previous one ends in the same build extends its run (its rows follow in the build's
    arrays, models, edges and vertices alike: the build cuts them in order)."""
    runs: list[tuple[tuple[np.ndarray, ...], list[int]]] = []
    for b in blocks:
        s, t, e0, e1, v0, v1 = b.span
        if runs and runs[-1][0] is b.built and runs[-1][1][1] == s:
            last = runs[-1][1]
            last[1], last[3], last[5] = t, e1, v1
        else:
            runs.append((b.built, [s, t, e0, e1, v0, v1]))
    return runs


def join_rows(blocks: list[UnitBlock]) -> tuple[FloatArray, FloatArray]:
    """Every block's kernel rows and polygon tables in order, each polygon row's offsets
    moved to the table joined here: ``kernel_layout.shape_rows`` of every model."""
    if not blocks:
        return kernel_layout.shape_rows([], [], [])
    geo = np.concatenate([b.geo for b in blocks])
    tables: list[FloatArray] = []
    start = nfp = 0
    for b in blocks:
        if len(b.poly):
            if nfp != b.poly_base:
                geo[start + b.poly_rows, 10:12] += nfp - b.poly_base
            tables.append(b.poly)
            nfp += len(b.poly)
        start += len(b.geo)
    table = np.concatenate(tables) if tables else np.zeros((0, 5))
    return geo, np.ascontiguousarray(table)
