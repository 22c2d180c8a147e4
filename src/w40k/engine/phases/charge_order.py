"""The order of a charging model's candidate spots (11.04), for ``charge_propose``: each spot's
sort key (within 1" of a target model (R11.04-c), a fresh target engaged, the distance to the
nearest target, the distance moved), the targets it is engaged with, the spots in that order
(round bases by one stable sort; ovals and hulls measured exactly only when a spot could come
next), and the coherency test against the models placed so far (R03.03-a/b)."""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterator, Sequence
from itertools import compress
from typing import cast

import numpy as np
import numpy.typing as npt

from w40k.core import kept
from w40k.engine.phases import melee_moves as mm_
from w40k.geometry import Model, engaged
from w40k.geometry.battlefield import (
    MARGIN,
    coherent_tri,
    spot_bounds,
)
from w40k.geometry.measure import (
    ENGAGEMENT_HORIZONTAL,
    ENGAGEMENT_VERTICAL,
    horizontal_distance,
    vertical_distance,
)
from w40k.geometry.shapes import EPS, Circle

COHERENCY_MARGIN = 1.98
"""Within 2" of a placed model, with a margin for rounding (R03.03-a)."""
ALL_MARGIN = 8.95
"""Within 9" of every placed model, with a margin (R03.03-b)."""
SLACK = 1e-3
"""Inches of the move budget left unused (rounding of the answer's coordinates)."""


Scored = tuple[tuple[int, int, float, float], float, float, set[str]]
"""A candidate spot: its sort key (within 1" of a target, a fresh target engaged, the
distance to the nearest target, the distance moved), x, y, the targets it is engaged
with."""


def _round(m: Model) -> bool:
    """A round base at ground level (its distances are centre distance less radii)."""
    return isinstance(m.footprint(), Circle) and m.z == 0.0 and not m.has("FRAME")


def _scored(start: Model, spots: Sequence[tuple[float, float]] | npt.NDArray[np.float64],
            ends: Sequence[Model], tshapes: Sequence[tuple[str, Model]],
            engaged_targets: set[str], budget: float, start_d: dict[str, float]
            ) -> list[Scored]:
    """The spots within the move that keep the unit coherent (R03.03-a/b against the models
    placed so far) and end closer to a target unit than ``start_d`` (R11.04-b), with their
    sort keys. Round bases at ground level are measured for every spot at once (the same
    distances as ``horizontal_distance``: centre distance less both radii, never below 0);
    other shapes one by one. ``spots``: pairs or rows (x, y)."""
    if not len(spots):
        return []
    pts = np.asarray(spots, dtype=np.float64)
    shapes = [start, *ends, *(t for _, t in tshapes)]
    if not all(_round(m) for m in shapes):
        return _scored_mixed(start, [(x, y) for x, y in pts.tolist()], ends, tshapes,
                             engaged_targets, budget, start_d)
    k = _round_keys(start, pts, ends, tshapes, engaged_targets, budget, start_d)
    if k is None:
        return []
    return [k.scored(i) for i in range(len(k.rows))]


class _RoundKeys:
    """:func:`_round_keys`' answer: the kept spots (their rows of ``pts``), their keys'
    parts and engaged target models, in the spots' order, as arrays (the floats and ints a
    spot's key is made of: :meth:`scored` turns them into Python's)."""

    def __init__(self, pts: npt.NDArray[np.float64], rows: npt.NDArray[np.intp],
                 cls: npt.NDArray[np.int64], fresh: npt.NDArray[np.int64],
                 near3: npt.NDArray[np.float64], moved: npt.NDArray[np.float64],
                 eng: npt.NDArray[np.bool_], eng_any: npt.NDArray[np.bool_],
                 tids: list[str]) -> None:
        self.pts, self.rows = pts, rows
        self.cls, self.fresh, self.near3, self.moved = cls, fresh, near3, moved
        self.eng, self.eng_any, self.tids = eng, eng_any, tids

    def engs(self, i: int) -> set[str]:
        """Kept spot ``i``'s engaged target units (``compress`` of its row; a set built only
        where it has one)."""
        return set(compress(self.tids, self.eng[i].tolist())) if self.eng_any[i] else set()

    def scored(self, i: int) -> Scored:
        """Kept spot ``i`` as :data:`Scored` (its key, x, y, engaged targets)."""
        x, y = self.pts[self.rows[i]].tolist()
        return ((int(self.cls[i]), int(self.fresh[i]), float(self.near3[i]),
                 float(self.moved[i])), x, y, self.engs(i))


_TARGET_ROWS: dict[int, tuple[object, list[tuple[float, float, float]], list[str],
                              dict[str, list[int]]]] = kept.table()
""":func:`_target_rows`' answers by the list of target models (an entry holds it: the chain
passes the same list for every model of a placement; a few entries)."""


def _target_rows(tshapes: Sequence[tuple[str, Model]], start_d: dict[str, float]
                 ) -> tuple[list[tuple[float, float, float]], list[str], dict[str, list[int]]]:
    """The target models' rows (x, y, radius), their units' ids and, per unit of
    ``start_d``, its columns (kept per list of target models)."""
    hit = _TARGET_ROWS.get(id(tshapes))
    if hit is not None and hit[0] is tshapes and hit[3].keys() == start_d.keys():
        return hit[1], hit[2], hit[3]
    rows = [(m.x, m.y, cast(Circle, m.footprint()).r) for _, m in tshapes]
    tids = [tid for tid, _ in tshapes]
    cols = {tid: [j for j, k in enumerate(tids) if k == tid] for tid in start_d}
    if len(_TARGET_ROWS) >= 8:
        _TARGET_ROWS.clear()
    _TARGET_ROWS[id(tshapes)] = (tshapes, rows, tids, cols)
    return rows, tids, cols


def _round_keys(start: Model, pts: npt.NDArray[np.float64], ends: Sequence[Model],
                tshapes: Sequence[tuple[str, Model]], engaged_targets: set[str],
                budget: float, start_d: dict[str, float]) -> _RoundKeys | None:
    """:func:`_scored`'s measures of round bases at ground level, for every spot at once: the
    kept spots and their keys' parts (None if none is kept). The placed models' and the
    targets' distances are one matrix (the same elementwise floats as two), a row a model
    and a column a spot: the few models' rows are reduced column-wise (numpy's reductions
    along a short last axis cost a loop per spot; the same minima, maxima and ``any``)."""
    r = cast(Circle, start.footprint()).r
    moved = np.hypot(pts[:, 0] - start.x, pts[:, 1] - start.y)
    keep = moved <= budget - SLACK
    trows, tids, tcols = _target_rows(tshapes, start_d)
    ne = len(ends)
    o = np.array([(m.x, m.y, cast(Circle, m.footprint()).r) for m in ends] + trows) \
        if ne else np.array(trows)
    dd = np.maximum(0.0, np.hypot(pts[None, :, 0] - o[:, 0, None],
                                  pts[None, :, 1] - o[:, 1, None]) - r - o[:, 2, None])
    if ne:
        de = dd[:ne]
        keep &= (de.min(axis=0) <= COHERENCY_MARGIN) & (de.max(axis=0) <= ALL_MARGIN)
        dt = dd[ne:]
    else:
        dt = dd
    eng_all = dt <= ENGAGEMENT_HORIZONTAL + EPS
    near_all = dt.min(axis=0)
    if len(start_d) == 1 and len(tcols[next(iter(start_d))]) == len(tids):
        # one target unit, every column its own: its nearest is the nearest of all (a
        # minimum is the same whatever the order; only a zero's sign may differ, which no
        # comparison sees)
        keep &= near_all < next(iter(start_d.values())) - mm_.EPS  # R11.04-b
    else:
        closer = np.zeros(len(pts), dtype=bool)
        for tid, d0 in start_d.items():  # R11.04-b: closer to some target unit
            cols = tcols[tid]
            if cols:
                closer |= dt[cols].min(axis=0) < d0 - mm_.EPS
        keep &= closer
    rows = keep.nonzero()[0]  # ``np.flatnonzero`` of a vector, without its wrappers
    if not len(rows):
        return None
    eng_kept = eng_all[:, rows]
    near = near_all[rows]
    # the keys' classes for every kept spot at once (the same float comparisons): within
    # 1" (0), else engaged with a target model (1), else 2; ``fresh`` 0 where one of the
    # engaged target models is of a unit not engaged yet (``eng - engaged_targets``)
    eng_any = eng_kept.any(axis=0)
    cls = np.where(near <= 1.0 + mm_.EPS, 0, np.where(eng_any, 1, 2))
    new_cols = [j for j, tid in enumerate(tids) if tid not in engaged_targets]
    fresh = np.where(eng_kept[new_cols].any(axis=0), 0, 1) if new_cols \
        else np.ones(len(rows), dtype=np.int64)
    return _RoundKeys(pts, rows, cls, fresh, _round_arr(near, 3), moved[rows], eng_kept.T,
                      eng_any, tids)


def _ordered(start: Model, pts: npt.NDArray[np.float64], ends: Sequence[Model],
             tshapes: Sequence[tuple[str, Model]], engaged_targets: set[str], budget: float,
             start_d: dict[str, float], keep: Callable[[float, float], bool]
             ) -> Iterator[Scored]:
    """:func:`_scored`'s spots sorted by their keys (a stable sort), less the spots ``keep``
    refuses (asked in that order, as the spots come): round bases scored at once, other
    shapes lazily (:func:`_ordered_mixed`)."""
    if not len(pts):
        return iter(())
    if not all(_round(m) for m in (start, *ends, *(t for _, t in tshapes))):
        return _ordered_mixed(start, [(x, y) for x, y in pts.tolist()], ends, tshapes,
                              engaged_targets, budget, start_d, keep)
    k = _round_keys(start, pts, ends, tshapes, engaged_targets, budget, start_d)
    return iter(()) if k is None else _round_order(k, keep)


def _round_order(k: _RoundKeys, keep: Callable[[float, float], bool]) -> Iterator[Scored]:
    """The kept round-base spots of ``k`` in the stable sort's order of their keys (numpy's
    ``lexsort``, stable, on the same ints and floats, the last key first), less those
    ``keep`` refuses; each spot's key and targets built only as it comes."""
    pts, rows = k.pts, k.rows
    for i in np.lexsort((k.moved, k.near3, k.fresh, k.cls)).tolist():
        x, y = pts[rows[i]].tolist()
        if keep(x, y):
            yield ((int(k.cls[i]), int(k.fresh[i]), float(k.near3[i]), float(k.moved[i])),
                   x, y, k.engs(i))


def _round_arr(a: npt.NDArray[np.float64], n: int) -> npt.NDArray[np.float64]:
    """:func:`_round_to` as an array (the same floats)."""
    scale = 10.0 ** n
    y = a * scale
    out: npt.NDArray[np.float64] = np.rint(y) / scale
    for i in (np.abs(y - np.floor(y) - 0.5) < 1e-6).nonzero()[0].tolist():
        out[i] = round(float(a[i]), n)
    return out


def _round_to(a: npt.NDArray[np.float64], n: int) -> list[float]:
    """``[round(x, n) for x in a]`` for coordinates and distances (under 1e6"), ``n`` 3 or 6:
    ``rint(x * 10**n) / 10**n``, which is Python's answer wherever ``x * 10**n`` is not
    within 1e-6 of a half (the product's rounding, under 1e-8 here, cannot then change
    which integer is nearest, and an integer over ``10**n`` divides to the float nearest
    that decimal, as ``round`` gives, its sign included); Python's ``round`` for the
    others."""
    scale = 10.0 ** n
    y = a * scale
    out: list[float] = (np.rint(y) / scale).tolist()
    for i in (np.abs(y - np.floor(y) - 0.5) < 1e-6).nonzero()[0].tolist():
        out[i] = round(float(a[i]), n)
    return out


def _within_exact(start: Model, xs: Sequence[float], ys: Sequence[float], limit: float
                  ) -> list[bool]:
    """``math.hypot(x - start.x, y - start.y) <= limit`` per spot: numpy's hypot settles the
    spots more than 1e-9" from the limit (its error is a few ulps), ``math.hypot`` the
    others."""
    if not xs:
        return []
    sx, sy = start.x, start.y
    d = np.hypot(np.asarray(xs) - sx, np.asarray(ys) - sy)
    out: list[bool] = (d <= limit).tolist()
    for i in (np.abs(d - limit) <= 1e-9).nonzero()[0].tolist():
        out[i] = math.hypot(xs[i] - sx, ys[i] - sy) <= limit
    return out


def _within_rows(start: Model, rows: npt.NDArray[np.float64], limit: float
                 ) -> npt.NDArray[np.bool_]:
    """:func:`_within_exact` of the rows' x and y (the same verdicts: numpy's hypot
    of the same floats, ``math.hypot`` within 1e-9" of the limit), as a mask."""
    sx, sy = start.x, start.y
    xs, ys = rows[:, 0], rows[:, 1]
    d = np.hypot(xs - sx, ys - sy)
    out: npt.NDArray[np.bool_] = d <= limit
    for i in (np.abs(d - limit) <= 1e-9).nonzero()[0].tolist():
        out[i] = math.hypot(float(xs[i]) - sx, float(ys[i]) - sy) <= limit
    return out


def _scored_mixed(start: Model, spots: Sequence[tuple[float, float]], ends: Sequence[Model],
                  tshapes: Sequence[tuple[str, Model]], engaged_targets: set[str],
                  budget: float, start_d: dict[str, float]) -> list[Scored]:
    """:func:`_scored_each`'s answer (any shapes), with its tests settled for every spot at
    once where ``battlefield.spot_bounds`` can (coherency, closer, engaged with each target
    model) and the distance to the nearest target measured only to the target models that
    can be the nearest (the least upper bound is not below their lower bound): the same
    minimum, the same keys, the same order."""
    sc = _MixedScores(start, spots, ends, tshapes, engaged_targets, budget, start_d)
    return [s for s in map(sc.score, range(len(sc.spots))) if s is not None]


def _ordered_mixed(start: Model, spots: Sequence[tuple[float, float]],
                   ends: Sequence[Model], tshapes: Sequence[tuple[str, Model]],
                   engaged_targets: set[str], budget: float, start_d: dict[str, float],
                   keep: Callable[[float, float], bool]) -> Iterator[Scored]:
    """``sorted(_scored_mixed(...), key=lambda s: s[0])`` less the spots ``keep`` refuses,
    lazily: each spot's exact tests and key (exact oval and hull measures) only when it can
    come next. A heap holds every spot under a lower bound of its key (the class 0 where the
    bounds allow a target within 1", the class 1 where they allow an engaged target, the
    fresh target where they allow one, the nearest distance's lower bound rounded: rounding
    is monotone, so each part is at most the exact one) and its index; a spot popped under
    its bound is measured (``keep``, then :meth:`_MixedScores.score`) and pushed back under
    its exact key; one popped under its exact key comes next: every spot left has a bound,
    or a key, not below it with a larger index where equal, so the order is the stable
    sort's (key, then the spots' order)."""
    sc = _MixedScores(start, spots, ends, tshapes, engaged_targets, budget, start_d)
    n = len(sc.spots)
    if not n:
        return
    near_lo = np.maximum(0.0, sc.lower.min(axis=1) - KEY_SLACK)
    maybe = sc.eng_maybe_arr
    cls = np.where(near_lo <= 1.0 + mm_.EPS, 0, np.where(maybe.any(axis=1), 1, 2)).tolist()
    new_cols = [j for j, (tid, _) in enumerate(tshapes) if tid not in engaged_targets]
    fresh = np.where(maybe[:, new_cols].any(axis=1), 0, 1).tolist() if new_cols else [1] * n
    heap: list[tuple[tuple[int, int, float, float], int, int]] = [
        ((c, f, round(d, 3), mv), i, 0) for i, (c, f, d, mv, coh) in enumerate(zip(
            cls, fresh, near_lo.tolist(), sc.moved, sc.coherent, strict=True)) if coh]
    heapq.heapify(heap)
    exact: dict[int, Scored] = {}
    while heap:
        _, i, done = heapq.heappop(heap)
        if done:
            yield exact.pop(i)
            continue
        x, y = sc.spots[i]
        if not keep(x, y):
            continue
        s = sc.score(i)
        if s is not None:
            exact[i] = s
            heapq.heappush(heap, (s[0], i, 1))


KEY_SLACK = 1e-6
"""Inches taken off ``spot_bounds``' lower bound of the nearest distance for
:func:`_ordered_mixed`'s key bounds (its rounding is far smaller)."""


class _MixedScores:
    """:func:`_scored_mixed`'s measures of every spot within the move, made at once, and
    :meth:`score`, one spot's exact tests and key."""

    def __init__(self, start: Model, spots: Sequence[tuple[float, float]],
                 ends: Sequence[Model], tshapes: Sequence[tuple[str, Model]],
                 engaged_targets: set[str], budget: float, start_d: dict[str, float]
                 ) -> None:
        self.start, self.ends, self.tshapes = start, ends, tshapes
        self.engaged_targets, self.start_d = engaged_targets, start_d
        sx, sy, lim = start.x, start.y, budget - SLACK
        moved = [math.hypot(x - sx, y - sy) for x, y in spots]
        self.spots = [p for p, d in zip(spots, moved, strict=True) if d <= lim]
        self.moved = [d for d in moved if d <= lim]
        self.tmodels = [t for _, t in tshapes]
        if not self.spots:
            return
        pts = np.asarray(self.spots, dtype=np.float64)
        self.lower, upper = spot_bounds(start, pts, self.tmodels)
        self.coherent = coherent_tri(start, pts, ends, COHERENCY_MARGIN, ALL_MARGIN) if ends \
            else [1] * len(self.spots)
        v_ok = np.array([vertical_distance(start, t) <= ENGAGEMENT_VERTICAL + EPS
                         for t in self.tmodels], dtype=bool)[None, :]
        limit = ENGAGEMENT_HORIZONTAL + EPS
        self.eng_sure = ((upper <= limit - MARGIN) & v_ok).tolist()
        self.eng_maybe_arr = (self.lower <= limit + MARGIN) & v_ok
        self.eng_maybe = self.eng_maybe_arr.tolist()
        self.nearest = (self.lower <= upper.min(axis=1)[:, None] + MARGIN).tolist()
        self.cols = {tid: [j for j, (k, _) in enumerate(tshapes) if k == tid]
                     for tid in start_d}
        self.low, self.up = self.lower.tolist(), upper.tolist()

    def score(self, i: int) -> Scored | None:
        """Spot ``i``'s key, x, y and engaged targets (:data:`Scored`), or None where the
        unit is not coherent (R03.03-a/b) or the model ends closer to no target (R11.04-b)."""
        if not self.coherent[i]:
            return None
        x, y = self.spots[i]
        end = self.start.moved(x, y)
        if self.coherent[i] < 0 and not _coherent_with(end, self.ends):
            return None
        tmodels, low, up = self.tmodels, self.low[i], self.up[i]
        if not any(_closer(end, tmodels, self.cols[tid], low, up, d0 - mm_.EPS)
                   for tid, d0 in self.start_d.items()):
            return None  # R11.04-b
        near = min(horizontal_distance(end, tmodels[j])
                   for j, n in enumerate(self.nearest[i]) if n)
        sure, maybe = self.eng_sure[i], self.eng_maybe[i]
        eng = {self.tshapes[j][0] for j in range(len(tmodels))
               if sure[j] or (maybe[j] and engaged(end, tmodels[j]))}
        cls = 0 if near <= 1.0 + mm_.EPS else 1 if eng else 2
        fresh = 0 if eng - self.engaged_targets else 1  # a target not engaged yet first
        return ((cls, fresh, round(near, 3), self.moved[i]), x, y, eng)


def _closer(end: Model, tmodels: Sequence[Model], cols: Sequence[int], low: Sequence[float],
            up: Sequence[float], than: float) -> bool:
    """``min(horizontal_distance(end, tmodels[j]) for j in cols) < than``, from the bounds
    where they settle it (R11.04-b)."""
    if cols and min(up[j] for j in cols) < than - MARGIN:
        return True
    if cols and min(low[j] for j in cols) >= than + MARGIN:
        return False
    return min(horizontal_distance(end, tmodels[j]) for j in cols) < than


def _scored_each(start: Model, spots: Sequence[tuple[float, float]], ends: Sequence[Model],
                 tshapes: Sequence[tuple[str, Model]], engaged_targets: set[str],
                 budget: float, start_d: dict[str, float]) -> list[Scored]:
    """:func:`_scored` one spot at a time (any shapes)."""
    out: list[Scored] = []
    for x, y in spots:
        if math.hypot(x - start.x, y - start.y) > budget - SLACK:
            continue
        end = start.moved(x, y)
        if ends and not _coherent_with(end, ends):
            continue
        if not any(min(horizontal_distance(end, t) for k, t in tshapes if k == tid)
                   < d0 - mm_.EPS for tid, d0 in start_d.items()):
            continue  # R11.04-b
        near = min(horizontal_distance(end, t) for _, t in tshapes)
        eng = {tid for tid, t in tshapes if engaged(end, t)}
        cls = 0 if near <= 1.0 + mm_.EPS else 1 if eng else 2
        fresh = 0 if eng - engaged_targets else 1  # a target not engaged yet first
        out.append(((cls, fresh, round(near, 3), math.hypot(x - start.x, y - start.y)),
                    x, y, eng))
    return out


def _coherent_with(end: Model, placed: Sequence[Model]) -> bool:
    """R03.03-a/b against the models placed so far: within 2" of one, 9" of every one."""
    ds = [horizontal_distance(end, p) for p in placed]
    return min(ds) <= COHERENCY_MARGIN and max(ds) <= ALL_MARGIN
