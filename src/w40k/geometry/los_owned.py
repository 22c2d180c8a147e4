"""The last step of the relevance of :func:`~w40k.geometry.los.line_of_sight`: the edges and
vertices of the obstacles a pair keeps, less the parts no higher than the lower column.

A search of a pair the batch left open (``SightTables._search_sight``) passes the scene's
whole obstacles (some 150-180 edges at k = 5) with the few obstacles the batch found relevant
(three or four, a dozen edges at most). :func:`owned_above_masks` builds boolean masks over
every edge and vertex and fancy-indexes nine arrays with them: some 25 numpy calls a search,
each on the whole scene. :func:`owned_above` gives the same arrays from the marked obstacles'
own edges and vertices (their indices kept per obstacles object, with the tops as floats):
the same tests on the same floats, the same indices in the same order, so the same arrays.
"""

from __future__ import annotations

import math

import numpy as np

from w40k.core import kept
from w40k.geometry.los_obstacles import Obstacles

_INDEX = kept.table()
"""Per obstacles object (by id, holding it): :func:`_index_of`'s answer."""
_INDEX_LIMIT = 256
"""Entries before the table is emptied (each keeps its obstacles alive, as
``edge_rows._ROWS``)."""

_Index = tuple[int, list[int], list[int], list[int], list[int], list[float], list[float]]
"""(size; the edge indices by obstacle index, and where each obstacle index's run of them
starts; the same for the vertices; the edges' tops, the vertices' tops)."""


def _runs(owner: np.ndarray, size: int) -> tuple[list[int], list[int]]:
    """The indices ordered by owner (a stable sort: each owner's in increasing order) and
    the start of each owner's run in that order (``size + 1`` starts)."""
    order = np.argsort(owner, kind="stable")
    starts = np.searchsorted(owner.take(order), np.arange(size + 1))
    return order.tolist(), starts.tolist()


def _index_of(obs: Obstacles) -> _Index:
    """The obstacles' edges and vertices by obstacle index (:func:`_runs`), with ``size``
    (one past the largest obstacle index of an edge or vertex) and the tops as Python floats
    (the arrays' values)."""
    hit = _INDEX.get(id(obs))
    if hit is not None and hit[0] is obs:
        out: _Index = hit[1]
        return out
    if len(_INDEX) >= _INDEX_LIMIT:
        _INDEX.clear()
    size = int(max(obs.owner.max(initial=-1), obs.vert_owner.max(initial=-1))) + 1
    eo, es = _runs(obs.owner, size)
    vo, vs = _runs(obs.vert_owner, size)
    out = (size, eo, es, vo, vs, obs.top.tolist(), obs.vert_top.tolist())
    _INDEX[id(obs)] = (obs, out)
    return out


def owned_above_masks(obs: Obstacles, owners: np.ndarray, lowest: float) -> Obstacles:
    """The edges and vertices of the obstacles ``owners`` marks (a boolean row by obstacle
    index; indices past its end are not marked) less the parts no higher than ``lowest``
    (:func:`~w40k.geometry.los.relevant_obstacles`' last step), by masks over every edge and
    vertex: the plain form of :func:`owned_above` (its reference)."""
    size = int(max(obs.owner.max(initial=-1), obs.vert_owner.max(initial=-1))) + 1
    if len(owners) < size:
        owners = np.concatenate([owners, np.zeros(size - len(owners), dtype=bool)])
    keep = owners[obs.owner] & ~((obs.top <= lowest + 1e-12) & np.isfinite(obs.top))
    vkeep = owners[obs.vert_owner] & ~(
        (obs.vert_top <= lowest + 1e-12) & np.isfinite(obs.vert_top)
    )
    return obs.subset(keep, vkeep)


def owned_above(obs: Obstacles, owners: np.ndarray, lowest: float) -> Obstacles:
    """:func:`owned_above_masks`, read off the marked obstacles' own edges and vertices: an
    edge (vertex) is kept when its obstacle is marked and not (its top ``<= lowest + 1e-12``
    and finite), the same float tests (``lowest + 1e-12`` one IEEE addition either way;
    ``math.isfinite`` is ``np.isfinite`` of a float); the kept indices sorted are those of
    the masks in their order, and ``take`` of them gives the masks' arrays (same values,
    dtypes and shapes, an empty selection included)."""
    size, eo, es, vo, vs, tops, vtops = _index_of(obs)
    lim = lowest + 1e-12
    ke: list[int] = []
    kv: list[int] = []
    for j in owners[:size].nonzero()[0].tolist():
        ke += [i for i in eo[es[j]:es[j + 1]]
               if not (tops[i] <= lim and math.isfinite(tops[i]))]
        kv += [i for i in vo[vs[j]:vs[j + 1]]
               if not (vtops[i] <= lim and math.isfinite(vtops[i]))]
    # (an obstacle's edges need not follow the previous obstacle's: the masks' order is by
    # index)
    ke.sort()
    kv.sort()
    ie, iv = np.array(ke, dtype=np.intp), np.array(kv, dtype=np.intp)
    return Obstacles(obs.a.take(ie, axis=0), obs.b.take(ie, axis=0), obs.grow.take(ie),
                     obs.top.take(ie), obs.owner.take(ie), obs.verts.take(iv, axis=0),
                     obs.vert_grow.take(iv), obs.vert_top.take(iv), obs.vert_owner.take(iv),
                     obs.convex)
