"""Helpers for the move proposers (``engine/moves.py``, ``engine/phases/melee_moves.py``):
candidates are checked against only what they can touch, with the kept battlefield model
(``geometry/battlefield.py``), before the full validation the proposer still runs.

Every test here is a *necessary* condition of a legal move (the full ``validate_move`` or the
phase's own check would refuse the candidate too), so a proposer that skips a candidate for it
returns the same first legal candidate as before: agents choose exactly as they did."""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from w40k.core import kept
from w40k.engine import field, geo
from w40k.engine.state import ModelData, UnitData, placement_count
from w40k.geometry import Model, MoveType, Scene, Terrain
from w40k.geometry.battlefield import CELL, MARGIN, inner_radius
from w40k.geometry.measure import (
    point_segment,
    separation,
)
from w40k.geometry.movement import (
    CLIMBERS,
    crosses_feature,
    ending_violations,
    passable,
    scene_others,
    sweep_box,
)
from w40k.geometry.movement_ends import translated_refused
from w40k.geometry.outlines import outlines
from w40k.geometry.shapes import EPS, Circle, Oval, Polygon

if TYPE_CHECKING:
    from w40k.engine.context import Context

SpotRows = Sequence[tuple[float, float]] | npt.NDArray[np.float64]
"""Spots (x, y): pairs, or rows of an array (the same floats, measured the same)."""
CLEARANCE = 1e-4
"""Inches between bases that the melee proposer keeps (its historical figure)."""


def ring(cx: float, cy: float, dist: float, base: float, n: int
         ) -> list[tuple[float, float]]:
    """``n`` spots at ``dist`` of (cx, cy), the nearest bearing to ``base`` first (then
    alternately either side): the candidate spots of the chain proposers."""
    offs = _OFFSETS.get(n)
    if offs is None:
        offs = _OFFSETS[n] = ring_offsets(n)
    cos, sin = math.cos, math.sin
    return [(cx + dist * cos(base + o), cy + dist * sin(base + o)) for o in offs]


def bearings(base: float, n: int) -> list[tuple[float, float]]:
    """The cosine and sine of each of :func:`ring`'s bearings (the same angles): rings of
    several radii around one centre share them, ``(cx + dist * c, cy + dist * s)`` being
    :func:`ring`'s floats."""
    offs = _OFFSETS.get(n)
    if offs is None:
        offs = _OFFSETS[n] = ring_offsets(n)
    cos, sin = math.cos, math.sin
    return [(cos(base + o), sin(base + o)) for o in offs]


_OFFSETS: dict[int, tuple[float, ...]] = {}
""":func:`ring`'s bearing offsets from ``base`` by ``n`` (constants)."""


def ring_offsets(n: int) -> tuple[float, ...]:
    """The offsets ``(k + 1) // 2 * (+-1) * 2 * pi / n`` of :func:`ring`'s bearings, each the
    float the expression ``base + (k + 1) // 2 * (1 if k % 2 else -1) * 2 * math.pi / n``
    adds to ``base`` (it is evaluated before the addition: the same bearings)."""
    return tuple((k + 1) // 2 * (1 if k % 2 else -1) * 2 * math.pi / n for k in range(n))


RING_SLACK = 1e-6
"""Inches beyond a caller's reach that :meth:`Rings.add_near` keeps (the spots' rounding,
~1e-13", is far smaller)."""
WINDOW_TOL = 1e-9
"""The relative tolerance of :meth:`Rings.add_near`'s cosine test (its float error, ~1e-15
of the terms, is far smaller)."""


class Rings:
    """Candidate spots as arrays: rings of several radii around a centre from one set of
    bearings, ``(cx + d * c, cy + d * s)`` (:func:`bearings`' cosines and sines; numpy's
    float64 products and sums being Python's, the same floats as :func:`ring`), ring by
    ring, bearing by bearing; :meth:`add_near` leaves out the spots that cannot come within
    the caller's reach (a subsequence of the spots, in order, holding every spot within)."""

    def __init__(self) -> None:
        self._cx: list[float] = []
        self._cy: list[float] = []
        self._d: list[float] = []
        self._c: list[float] = []
        self._s: list[float] = []

    def add(self, cx: float, cy: float, ds: Sequence[float],
            cs: Sequence[tuple[float, float]]) -> None:
        """Rings of radii ``ds`` (in order) around (cx, cy) at the bearings ``cs`` (cosine,
        sine)."""
        self._add(cx, cy, ds, [c for c, _ in cs], [s for _, s in cs])

    def _add(self, cx: float, cy: float, ds: Sequence[float], cos_: list[float],
             sin_: list[float]) -> None:
        """:meth:`add` of the bearings' cosines and sines as two lists."""
        n = len(cos_)
        if not n:
            return
        for d in ds:
            self._cx += [cx] * n
            self._cy += [cy] * n
            self._d += [d] * n
            self._c += cos_
            self._s += sin_

    def add_near(self, cx: float, cy: float, ds: Sequence[float], start: Model, turn: float,
                 n: int, reach: float) -> None:
        """``add(cx, cy, ds, bearings(atan2(start - centre) + turn, n))`` less the spots
        farther than ``reach`` from ``start`` by the law of cosines: a spot of the ring of
        radius ``d`` at the angle ``phi`` from the centre's bearing to the start (``turn`` +
        its offset) is ``sqrt(D^2 + d^2 - 2 D d cos(phi))`` from it (``D``: the centre's
        distance), so it is within ``reach`` only where ``cos(phi)`` is at least ``(D^2 + d^2
        - reach^2) / (2 D d)``; a bearing is kept where that holds for some radius (with
        :data:`RING_SLACK` on the reach and :data:`WINDOW_TOL` on the cosine, far more than
        the floats' errors), a ring whose every bearing fails is not made. The kept bearings'
        trigonometry is :func:`bearings`' own (the same angle ``base + offset``)."""
        keep, offs = near_window(cx, cy, ds, start, turn, n, reach)
        if not keep:
            return
        base = math.atan2(start.y - cy, start.x - cx) + turn
        angles = [base + o for o in offs]  # each bearing's angle, as :func:`bearings` adds it
        self._add(cx, cy, keep, list(map(math.cos, angles)), list(map(math.sin, angles)))

    def points(self, last: tuple[float, float] | None) -> npt.NDArray[np.float64]:
        """Every ring's spots as rows (x, y), then ``last`` if given: ``cx + d * c`` and
        ``cy + d * s`` per spot (float64 products and sums, Python's floats), written into
        the rows in place (no stacking of columns)."""
        n = len(self._d)
        out = np.empty((n + (last is not None), 2), dtype=np.float64)
        if n:
            f, f64 = np.fromiter, np.float64
            d = f(self._d, f64, n)
            np.add(f(self._cx, f64, n), d * f(self._c, f64, n), out=out[:n, 0])
            np.add(f(self._cy, f64, n), d * f(self._s, f64, n), out=out[:n, 1])
        if last is not None:
            out[n] = last
        return out


def near_window(cx: float, cy: float, ds: Sequence[float], start: Model, turn: float,
                n: int, reach: float) -> tuple[list[float], Sequence[float]]:
    """:meth:`Rings.add_near`'s choice: the radii of ``ds`` (in order) and the offsets of
    :func:`ring_offsets` of ``n`` (in order) whose spots it keeps, ``([], ())`` where none
    (the law of cosines, with :data:`RING_SLACK` and :data:`WINDOW_TOL` to spare): every
    spot ``(cx + d * cos(a), cy + d * sin(a))``, ``a = atan2(start - centre) + turn +
    offset``, within ``reach`` of ``start`` is of a kept radius and a kept offset."""
    sx, sy = start.x, start.y
    dist = math.hypot(cx - sx, cy - sy)
    lim = reach + RING_SLACK
    thr = math.inf
    # the terms that do not depend on ``d`` made once: ``dist * dist + d * d - lim * lim``
    # is ``(dist2 + d * d) - lim2`` and ``2.0 * dist * d`` is ``two_dist * d`` (Python's
    # left-to-right order: the same floats); ``min(thr, v)`` is ``v`` only where ``v < thr``
    dist2, lim2, two_dist = dist * dist, lim * lim, 2.0 * dist
    for d in ds:
        if dist * d <= 0.0:
            thr = -math.inf  # every spot at distance d: the ring is kept whole
            break
        near = dist2 + d * d
        den = two_dist * d
        v = (near - lim2) / den - WINDOW_TOL * (1.0 + (near + lim2) / den)
        if v < thr:
            thr = v
    if thr > 1.0:
        return [], ()  # every spot beyond the reach
    # ``_ring_beyond`` inline (the same floats)
    keep = [d for d in ds if not dist - d - RING_SLACK > lim] if thr > -1.0 else list(ds)
    if not keep:
        return [], ()
    return keep, _window(n, turn, thr)


def _ring_beyond(dist: float, d: float, lim: float) -> bool:
    """Every spot of the ring of radius ``d`` around a centre ``dist`` from the start is
    farther than ``lim`` (less :data:`RING_SLACK` for the floats): the triangle inequality."""
    return dist - d - RING_SLACK > lim


_COS: dict[int, tuple[list[float], list[float], list[float]]] = {}
""":func:`_window`'s tables by ``n``: the cosines and sines of :func:`ring_offsets`, and the
cosines negated (nondecreasing: the offsets' sizes grow, 0, +a, -a, +2a, ... up to pi)."""


def _window(n: int, turn: float, thr: float) -> Sequence[float]:
    """The offsets of :func:`ring_offsets` (in order) whose angle ``turn + offset`` has a
    cosine of at least ``thr``: for ``turn`` 0 a prefix (the cosines do not grow along the
    offsets), found by bisection; else each tested (the cosine of the sum from the tables,
    within 1e-15 of ``cos(turn + offset)``)."""
    offs = _OFFSETS.get(n)
    if offs is None:
        offs = _OFFSETS[n] = ring_offsets(n)
    if thr <= -1.0:
        return offs
    tab = _COS.get(n)
    if tab is None:
        cs = [math.cos(o) for o in offs]
        tab = _COS[n] = (cs, [math.sin(o) for o in offs], [-c for c in cs])
    if turn == 0.0:
        return offs[:bisect.bisect_right(tab[2], -thr)]
    ct, st = math.cos(turn), math.sin(turn)
    return [o for o, c, s in zip(offs, tab[0], tab[1], strict=True) if ct * c - st * s >= thr]


Span = tuple[int, int, float, float, float, float]
"""A run of :class:`Occupied`'s models, indices ``from`` to ``to`` (past the last), and the
box of their discs (the least ``x - r``, ``y - r``, the largest ``x + r``, ``y + r``)."""
_SPAN_SPARE = 1e-6
"""Inches to spare in :meth:`Occupied._near`'s box test: far beyond the floats' rounding
(~1e-13 on a battlefield's coordinates)."""


class Occupied:
    """The models a proposer places around: :meth:`free` measures a candidate against the
    models whose disc comes near it only."""

    def __init__(self, models: Iterable[Model]) -> None:
        self.models: list[Model] = []
        self._cells: dict[tuple[int, int], list[int]] = {}
        self._discs: list[tuple[float, float, float]] = []
        self._bounds: list[tuple[float, float, float]] = []
        """Per model: its footprint's centre and inner radius (``battlefield.spot_bounds``'s
        upper bound; -inf for a hull)."""
        self._spans: list[Span] = []
        """The models in runs (:data:`Span`): a unit's joined by :meth:`extend`, those
        appended one by one since (:meth:`_near`)."""
        self._open = False
        """Whether the last span takes the next :meth:`append`."""
        for m in models:
            self.append(m)

    def copy(self) -> Occupied:
        """Another ``Occupied`` with the same models in the same order (its own lists:
        appending to one leaves the other as it was)."""
        out = Occupied(())
        out.models = self.models[:]
        out._cells = {k: v[:] for k, v in self._cells.items()}
        out._discs = self._discs[:]
        out._bounds = self._bounds[:]
        out._spans = self._spans[:]
        out._open = self._open
        return out

    def extend(self, other: Occupied) -> None:
        """``append`` of each of ``other``'s models, in order: its discs, bounds and cells
        (its indices shifted past this one's models; each cell's list stays in increasing
        order, and a cell first entered here comes after those entered before, as the
        appends would make them)."""
        off = len(self.models)
        self.models += other.models
        self._discs += other._discs
        self._bounds += other._bounds
        self._spans += [(a + off, b + off, x0, y0, x1, y1)
                        for a, b, x0, y0, x1, y1 in other._spans]
        self._open = False
        cells = self._cells
        for key, idx in other._cells.items():
            mine = cells.get(key)
            shifted = [i + off for i in idx] if off else idx[:]
            if mine is None:
                cells[key] = shifted
            else:
                mine += shifted

    def append(self, m: Model) -> None:
        """One more model placed (its disc entered in the cells it touches)."""
        i = len(self.models)
        self.models.append(m)
        x, y, r = m.x, m.y, m.reach()
        self._discs.append((x, y, r))
        fp = m.footprint()
        cx, cy = fp.center
        self._bounds.append((cx, cy, -math.inf if isinstance(fp, Polygon) else inner_radius(fp)))
        spans = self._spans
        if self._open:
            a, _, x0, y0, x1, y1 = spans[-1]
            spans[-1] = (a, i + 1, min(x0, x - r), min(y0, y - r), max(x1, x + r),
                         max(y1, y + r))
        else:
            spans.append((i, i + 1, x - r, y - r, x + r, y + r))
            self._open = True
        for gx in range(math.floor((x - r) / CELL), math.floor((x + r) / CELL) + 1):
            for gy in range(math.floor((y - r) / CELL), math.floor((y + r) / CELL) + 1):
                self._cells.setdefault((gx, gy), []).append(i)

    def taken(self, start: Model,
              spots: Sequence[tuple[float, float]] | npt.NDArray[np.float64], budget: float
              ) -> list[bool]:
        """For each spot (within ``budget`` of ``start``; pairs or rows (x, y)), whether
        ``start`` moved there surely overlaps one of the models (within :data:`CLEARANCE` by
        ``battlefield.spot_bounds``), so that :meth:`free` refuses it too; False says
        nothing."""
        mask = self.taken_mask(start, spots, budget)
        out: list[bool] = [False] * len(spots) if mask is None else mask.tolist()
        return out

    def taken_mask(self, start: Model,
                   spots: Sequence[tuple[float, float]] | npt.NDArray[np.float64],
                   budget: float) -> npt.NDArray[np.bool_] | None:
        """:meth:`taken` as a boolean array (None: no spot is taken), for a caller that
        selects rows of an array with it."""
        if not len(spots) or not self.models:
            return None
        reach = budget + start.reach() + 1.0
        sx, sy = start.x, start.y
        near = self._near(sx, sy, reach)
        if not near:
            return None
        # ``battlefield.spot_bounds``' upper bound, its operations on the kept centres and
        # inner radii (the same floats; only the upper bound is needed), a row a near model
        # and a column a spot (the few rows reduced column-wise: numpy's reductions along a
        # short last axis cost a loop per spot; the same ``any``)
        fp = start.footprint()
        cx, cy = fp.center
        ox, oy = cx - sx, cy - sy
        b = np.array([self._bounds[i] for i in near], dtype=np.float64)
        pts = np.asarray(spots, dtype=np.float64)
        dx = pts[None, :, 0] + ox - b[:, 0, None]
        dy = pts[None, :, 1] + oy - b[:, 1, None]
        d = np.sqrt(dx * dx + dy * dy)
        s_in = -math.inf if isinstance(fp, Polygon) else inner_radius(fp)
        upper = np.maximum(0.0, d - s_in - b[:, 2, None])
        mask: npt.NDArray[np.bool_] = np.asarray((upper <= CLEARANCE - MARGIN).any(axis=0))
        return mask

    def taken_test(self, start: Model, budget: float) -> Callable[[float, float], bool]:
        """:meth:`taken` of one spot at a time (for a caller that needs the first spots
        only): the same models near the start, the same float operations in the same order
        (Python's floats are numpy's float64; the upper bound's ``max(0, .)`` left out, the
        threshold being above 0, and no NaN arising), so the same answer per spot."""
        if not self.models:
            return _never
        reach = budget + start.reach() + 1.0
        sx, sy = start.x, start.y
        bounds = self._bounds
        near = [bounds[i] for i in self._near(sx, sy, reach)]
        if not near:
            return _never
        fp = start.footprint()
        cx, cy = fp.center
        ox, oy = cx - sx, cy - sy
        s_in = -math.inf if isinstance(fp, Polygon) else inner_radius(fp)
        limit = CLEARANCE - MARGIN
        sqrt = math.sqrt

        def test(x: float, y: float) -> bool:
            px, py = x + ox, y + oy
            for bx, by, b_in in near:
                dx, dy = px - bx, py - by
                if sqrt(dx * dx + dy * dy) - s_in - b_in <= limit:
                    return True
            return False
        return test

    def _near(self, sx: float, sy: float, reach: float) -> list[int]:
        """The indices (ascending) of the models whose disc passes ``hypot(x - sx, y - sy)
        <= reach + r`` (x, y, r: :attr:`_discs`), measured only in the spans whose box
        comes within ``reach`` (1e-6" to spare) of (sx, sy) along x and y: a disc of a span
        farther along x (or y) is farther than ``reach + r`` along it (the box holds ``x -
        r`` to ``x + r`` of each), and ``hypot`` is at least either offset, so it fails the
        test too: the same indices as testing every disc."""
        grown = reach + _SPAN_SPARE
        discs = self._discs
        hypot = math.hypot
        out: list[int] = []
        for a, b, x0, y0, x1, y1 in self._spans:
            if sx < x0 - grown or sx > x1 + grown or sy < y0 - grown or sy > y1 + grown:
                continue
            out += [i for i in range(a, b)
                    if hypot(discs[i][0] - sx, discs[i][1] - sy) <= reach + discs[i][2]]
        return out

    def free(self, cand: Model, terrain: Terrain) -> bool:
        """03.01 Ending a Move: on no other model (more than :data:`CLEARANCE` apart), and not
        partway through a terrain feature (``ending_violations``)."""
        x, y, r = cand.x, cand.y, cand.reach()
        reach = r + CLEARANCE + MARGIN
        near: set[int] = set()
        for gx in range(math.floor((x - reach) / CELL), math.floor((x + reach) / CELL) + 1):
            for gy in range(math.floor((y - reach) / CELL), math.floor((y + reach) / CELL) + 1):
                near.update(self._cells.get((gx, gy), ()))
        fp = cand.footprint()
        discs = self._discs
        # Only the models whose disc comes within CLEARANCE (and MARGIN) of the candidate's
        # are measured (as ``battlefield.Discs.near_segment`` filters: same answer).
        for i in sorted(near):
            ox, oy, orr = discs[i]
            if math.hypot(ox - x, oy - y) - orr - r <= CLEARANCE + MARGIN \
                    and separation(fp, self.models[i].footprint()) <= CLEARANCE:
                return False
        return not ending_violations(terrain, cand)


def _never(x: float, y: float) -> bool:
    """:meth:`Occupied.taken_test` where no model is near: no spot is taken."""
    return False


_AROUND: dict[tuple[int, str], tuple[object, int, int, Occupied]] = kept.table()
""":func:`occupied_around`'s kept answers by (state, unit): the state (an entry holds it, so
its ``id`` is not reused while kept), ``placement_count``, the number of units."""


def occupied_around(ctx: Context, u: UnitData, *, shared: bool = False) -> Occupied:
    """``Occupied`` of every living model of the other units, in the state's order (the
    models a melee proposer places ``u``'s around): a copy of the one kept while no model is
    placed (``state.placement_count``, which also counts a destroyed flag set), so the same
    models in the same order as building it again. ``shared``: the kept one itself, for a
    caller that only measures against it (never :meth:`Occupied.append`)."""
    s = ctx.state
    now = placement_count()
    key = (id(s), u.id)
    hit = _AROUND.get(key)
    if hit is None or hit[0] is not s or hit[1] != now or hit[2] != len(s.units):
        occ = Occupied(())
        for e in s.units:
            if e.id != u.id and not e.destroyed:
                occ.extend(_unit_occupied(e))  # ``geo.unit_shapes(e)``'s models, in order
        if len(_AROUND) >= 64:
            _AROUND.clear()
        hit = _AROUND[key] = (s, now, len(s.units), occ)
    return hit[3] if shared else hit[3].copy()


_UNIT_OCC: dict[int, tuple[object, Occupied]] = kept.table()
""":func:`_unit_occupied`'s answers by layout (an entry holds it, so its ``id`` is not reused
while kept); emptied past 256 entries."""


def _unit_occupied(e: UnitData) -> Occupied:
    """``Occupied(geo.unit_shapes(e))``, kept with the unit's layout (``engine/field.py``: the
    same object while the unit's models stand as they did, its ``models`` being the shapes
    ``unit_shapes`` lists): :func:`occupied_around` joins the other units' (a move changes
    one unit; the others' are not measured again). Never appended to."""
    lay = field.layout(e)
    hit = _UNIT_OCC.get(id(lay))
    if hit is not None and hit[0] is lay:
        return hit[1]
    occ = Occupied(lay.models)
    if len(_UNIT_OCC) >= 256:
        _UNIT_OCC.clear()
    _UNIT_OCC[id(lay)] = (lay, occ)
    return occ


OVAL_SLACK = 1e-3
"""Inches beyond ``overlaps``' 1e-6" by which :func:`surely_overlapping` proves an oval's
overlap from its inner disc (far more than the oval measure's rounding)."""


def surely_overlapping(scene: Scene, unit: str, mid: str, start: Model,
                       spots: Sequence[tuple[float, float]], *,
                       ovals: bool = False) -> list[bool]:
    """Per spot: ``start`` (model ``mid`` of ``unit``) moved there overlaps another model of
    ``scene`` (its unit's others where the scene has them) by more than touching, as
    ``measure.overlaps`` measures, so that ``melee_moves.surely_refused`` refuses it (R03.01-c).
    Proven against round bases only (their separation is the centre distance less both radii),
    deeper than ``overlaps``' 1e-6" by ``battlefield.MARGIN``; with ``ovals``, also for an
    oval ``start``: it holds the disc of its smaller semi-axis around its centre, so its signed
    separation from a round base (``point_oval`` of the base's centre less its radius) is at
    most that disc's, and a disc overlapping deeper by :data:`OVAL_SLACK` is proof. False says
    nothing."""
    fp = start.footprint()
    if not (type(fp) is Circle or (ovals and type(fp) is Oval)):
        return [False] * len(spots)  # no proof (as ``overlapping_rows``, without the scene)
    gu = scene.unit(unit)
    return overlapping_rows(gu.models, scene_others(scene, unit, gu.player)[0], mid, start,
                            spots, ovals=ovals)


def overlapping_rows(models: Sequence[Model], others: list[tuple[bool, Model]], mid: str,
                     start: Model, spots: SpotRows, *, ovals: bool = False) -> list[bool]:
    """:func:`surely_overlapping` of the scene whose unit has ``models`` (in order) and whose
    ``scene_others`` list is ``others``: the same rows, so the same answer, for a caller that
    has not built that scene (``melee_moves.can_reach`` builds it only where a spot is left
    to validate)."""
    k = len(spots)
    if not k:
        return []
    disc = _proof_disc(start, ovals)
    if disc is None:
        return [False] * k
    a0, a1 = start.z, start.top
    rows = [r for r in _round_rows(models, a0, a1) if r[3] != mid]
    far = _others_rows(others, a0, a1, mid)
    if not rows and far is None:
        return [False] * k
    c = np.array([r[:3] for r in rows], dtype=np.float64).reshape(-1, 3)
    if far is not None:
        c = np.concatenate((c, far)) if rows else far
    return _overlap_any(disc, spots, c)


def overlapping_parts(models: Sequence[Model], others: list[tuple[bool, Model]], mid: str,
                      start: Model, spots: SpotRows, *, unit: bool, ovals: bool = False
                      ) -> list[bool]:
    """:func:`overlapping_rows` measured against one of its two parts of rows: the unit's
    models (``unit``) or the other models (``others``' rows). Each spot's measures are its
    own row's, elementwise the same floats whatever the other columns, so
    ``overlapping_rows`` is the two parts' answers or-ed, spot by spot (a caller keeps the
    other models' part while only the unit's models move: the charge repair)."""
    k = len(spots)
    if not k:
        return []
    disc = _proof_disc(start, ovals)
    if disc is None:
        return [False] * k
    a0, a1 = start.z, start.top
    if unit:
        rows = [r[:3] for r in _round_rows(models, a0, a1) if r[3] != mid]
        c = np.array(rows, dtype=np.float64) if rows else None
    else:
        c = _others_rows(others, a0, a1, mid)
    return [False] * k if c is None else _overlap_any(disc, spots, c)


def _proof_disc(start: Model, ovals: bool) -> tuple[float, float, float, float] | None:
    """:func:`overlapping_rows`' disc of ``start``: its radius, the depth of overlap that
    proves (``battlefield.MARGIN``, :data:`OVAL_SLACK` for an oval's inner disc) and the
    footprint's centre from the model's position; None for a shape it proves nothing of."""
    fp = start.footprint()
    if type(fp) is Circle:
        return fp.r, MARGIN, fp.cx - start.x, fp.cy - start.y
    if ovals and type(fp) is Oval:
        return min(fp.a, fp.b), OVAL_SLACK, fp.cx - start.x, fp.cy - start.y
    return None


def _overlap_any(disc: tuple[float, float, float, float], spots: SpotRows,
                 c: npt.NDArray[np.float64]) -> list[bool]:
    """Per spot: the disc (:func:`_proof_disc`) of the model moved there overlaps one of the
    round rows ``c`` (cx, cy, r) deeper than ``overlaps``' 1e-6" and the margin."""
    radius, margin, ox, oy = disc
    pts = np.asarray(spots, dtype=np.float64)
    dx = pts[:, 0, None] + ox - c[None, :, 0]
    dy = pts[:, 1, None] + oy - c[None, :, 1]
    sep = np.sqrt(dx * dx + dy * dy) - radius - c[None, :, 2]
    out: list[bool] = np.asarray((sep < -1e-6 - margin).any(axis=1)).tolist()
    return out


def _round_rows(models: Iterable[Model], a0: float, a1: float
                ) -> list[tuple[float, float, float, str]]:
    """The round bases among ``models`` that a model standing from ``a0`` to ``a1`` can
    overlap (``measure.overlaps``: not apart in height), as (cx, cy, r, name), in order."""
    out = []
    for m in models:
        f = m.footprint()
        if type(f) is not Circle or a1 <= m.z + EPS or m.top <= a0 + EPS:
            continue  # not round, or apart in height (``overlaps``)
        out.append((f.cx, f.cy, f.r, m.name))
    return out


_OTHERS_ROWS: dict[tuple[int, float, float],
                   tuple[object, npt.NDArray[np.float64] | None, frozenset[str]]] = kept.table()
""":func:`_others_rows`' answers by (list of other models, height band), with the list (an
entry holds it, so its ``id`` is not reused while kept; ``scene_others`` keeps one list per
scene and unit, never changed) and the names of its round rows; emptied past 64 entries."""


def _others_rows(others: list[tuple[bool, Model]], a0: float, a1: float, mid: str
                 ) -> npt.NDArray[np.float64] | None:
    """:func:`_round_rows` of the models of ``others`` (``scene_others``' list) but one
    named ``mid``, as rows (cx, cy, r), None if there are none: kept per list and band (the
    charge's repair and ``can_reach`` ask it per model and search, on scenes sharing the
    list: ``melee_moves._scene_with``)."""
    key = (id(others), a0, a1)
    hit = _OTHERS_ROWS.get(key)
    if hit is None or hit[0] is not others:
        rows = _round_rows((o for _, o in others), a0, a1)
        arr = np.array([r[:3] for r in rows], dtype=np.float64) if rows else None
        if len(_OTHERS_ROWS) >= 64:
            _OTHERS_ROWS.clear()
        hit = _OTHERS_ROWS[key] = (others, arr, frozenset(r[3] for r in rows))
    if mid not in hit[2]:
        return hit[1]
    kept = [r[:3] for r in _round_rows((o for _, o in others), a0, a1) if r[3] != mid]
    return np.array(kept, dtype=np.float64) if kept else None  # a name shared: as before


MELEE_MOVES = (MoveType.CHARGE, MoveType.PILE_IN, MoveType.CONSOLIDATE)
"""Move types through whose path no enemy model may be, but an AIRCRAFT (R03.01-d: for these
``validate_move`` lets no other enemy model be passed)."""


def through_enemy(scene: Scene, unit: str, player: str, start: Model, x: float, y: float,
                  move_type: MoveType) -> bool:
    """True when ``validate_move`` certainly refuses the straight move of ``start`` (a model
    of ``unit``, ``player``'s) to (x, y), a move of :data:`MELEE_MOVES`, for moving through an
    enemy model (R03.01-d): its own test of a round base swept past a round enemy model
    (the same models, found by the same ``near_segment`` call, at the same level, no
    AIRCRAFT, and the same ``point_segment`` distance). False says nothing (other shapes,
    other move types): the proposer still validates the move."""
    fa = start.footprint()
    if move_type not in MELEE_MOVES or type(fa) is not Circle:
        return False
    if not math.hypot(x - start.x, y - start.y) > EPS:
        return False  # no horizontal step: no path test
    others, discs = scene_others(scene, unit, player)
    for i in discs.near_segment(start.x, start.y, x, y, start.reach(), 0.0):
        friendly, o = others[i]
        if friendly or abs(o.z - start.z) > max(o.height, start.height) or o.has("AIRCRAFT"):
            continue
        f = o.footprint()
        if type(f) is Circle and \
                point_segment(f.cx, f.cy, fa.cx, fa.cy, x, y) < fa.r + f.r - 1e-6:
            return True
    return False


def through_terrain(scene: Scene, unit: str, start: Model, x: float, y: float,
                    move_type: MoveType) -> bool:
    """True when ``validate_move`` certainly refuses the straight move of ``start`` (a model
    of ``unit``) to (x, y), on its level, for crossing a terrain feature it may not move
    through (R13.06-c, R24.35-a): its own feature loop (the same features, box test,
    ``passable`` and ``crosses_feature``), without taking to the skies or the 24.35
    choice. A model that passes every feature (CLIMBERS, MOBILE) returns False at once."""
    if start.has(*CLIMBERS, "MOBILE"):
        return False
    if not math.hypot(x - start.x, y - start.y) > EPS:
        return False  # no horizontal step: no path test
    super_heavy = any(a.strip().lower() == "super-heavy walker"
                      for a in scene.unit(unit).abilities)
    end = start.moved(x, y)
    bx0, by0, bx1, by1 = sweep_box(start, end)
    z = start.z
    for ol in outlines(scene.terrain):
        if bx1 < ol.x0 or bx0 > ol.x1 or by1 < ol.y0 or by0 > ol.y1:
            continue  # the boxes are apart
        f = ol.feature
        if z >= f.height - EPS:
            continue  # over the top of it
        ok, _ = passable(start, f, move_type, False, False, super_heavy)
        if not ok and crosses_feature(start, end, ol):
            return True
    return False


def terrain_crossed(scene: Scene, unit: str, start: Model, pts: npt.NDArray[np.float64],
                    move_type: MoveType, *, ovals: bool = False) -> npt.NDArray[np.bool_]:
    """Per spot of ``pts`` (rows x, y): True where :func:`through_terrain` answers True for
    the straight move of ``start`` (a model of ``unit``) there (R13.06-c, R24.35-a), for
    every spot at once; False says nothing. A round base is screened by
    ``crosses_feature``'s own tests of it on the features it may not move through (the same
    features, level and ``passable`` tests): its disc at the start meeting the feature
    (``disc_meets``, every spot), or its centre's path within the radius less 1e-6 of an
    edge (``segment_within``: the edge's ``_crossing`` and its four ``point_segment``
    distances, the same float operations elementwise, numpy's float64 arithmetic and square
    root being Python's). Either lies within the swept box (1e-6" inside it), so
    ``through_terrain``'s box test keeps the feature.

    With ``ovals``, an oval base is screened by the disc of its smaller semi-axis around its
    centre, less :data:`OVAL_SLACK` (the oval holds that disc at any facing): where that
    smaller disc's capsule meets a feature, the oval, moved without turning, enters the
    feature by more than ``OVAL_SLACK`` on the way, so ``crosses_feature``'s exact sweep
    (its reach capsule holds the smaller one; ``swept_region_distance`` finds the edge the
    swept-back oval meets, or the sweep's centre inside) meets it too: True still says
    ``through_terrain`` refuses the spot (the converse is not claimed). Hulls (and ovals
    without ``ovals``): all False."""
    n = len(pts)
    out = np.zeros(n, dtype=bool)
    fa = start.footprint()
    if not n or start.has(*CLIMBERS, "MOBILE"):
        return out
    if type(fa) is Circle:
        r, slack = fa.r, 1e-6
    elif ovals and type(fa) is Oval:
        r, slack = min(fa.a, fa.b), OVAL_SLACK
    else:
        return out
    t = r - slack
    if r <= 1e-3 or t <= 0.0:
        return out
    super_heavy = any(a.strip().lower() == "super-heavy walker"
                      for a in scene.unit(unit).abilities)
    sx, sy, z = fa.cx, fa.cy, start.z
    xs, ys = pts[:, 0], pts[:, 1]
    bx0, by0 = min(sx, float(xs.min())) - r, min(sy, float(ys.min())) - r
    bx1, by1 = max(sx, float(xs.max())) + r, max(sy, float(ys.max())) + r
    for ol in outlines(scene.terrain):
        if ol.misses(bx0, by0, bx1, by1):
            continue  # apart from every spot's swept box
        f = ol.feature
        if z >= f.height - EPS or passable(start, f, move_type, False, False, super_heavy)[0]:
            continue
        if ol.disc_meets(sx, sy, t):
            out[:] = True  # the disc at the start meets it: every path does
            break
        for ax, ay, bx, by in ol.edges:
            d1 = (bx - ax) * (sy - ay) - (by - ay) * (sx - ax)
            d2 = (bx - ax) * (ys - ay) - (by - ay) * (xs - ax)
            d3 = (xs - sx) * (ay - sy) - (ys - sy) * (ax - sx)
            d4 = (xs - sx) * (by - sy) - (ys - sy) * (bx - sx)
            cross = ((d1 > 0) != (d2 > 0)) & ((d3 > 0) != (d4 > 0)) & (d3 != 0)
            if d1 == 0:
                cross[:] = False
            near = (_point_segment(xs, ys, ax, ay, bx, by) < t) \
                | (_point_segment(ax, ay, sx, sy, xs, ys) < t) \
                | (_point_segment(bx, by, sx, sy, xs, ys) < t)
            if point_segment(sx, sy, ax, ay, bx, by) < t:
                near[:] = True
            out |= cross | near
    # through_terrain's own first test: no horizontal step, no path test (numpy's hypot is
    # within a few ulps of math.hypot: 2 * EPS to spare)
    out &= np.hypot(xs - sx, ys - sy) > 2 * EPS
    return out


def _point_segment(px: npt.ArrayLike, py: npt.ArrayLike, ax: npt.ArrayLike, ay: npt.ArrayLike,
                   bx: npt.ArrayLike, by: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """``measure.point_segment`` elementwise (the same operations in the same order, so the
    same floats)."""
    abx, aby = np.subtract(bx, ax), np.subtract(by, ay)
    apx, apy = np.subtract(px, ax), np.subtract(py, ay)
    denom = np.maximum(abx * abx + aby * aby, 1e-300)
    u = np.minimum(np.maximum((apx * abx + apy * aby) / denom, 0.0), 1.0)
    dx, dy = apx - abx * u, apy - aby * u
    return np.asarray(np.sqrt(dx * dx + dy * dy), dtype=np.float64)


UNENGAGED_MOVES = (MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK,
                   MoveType.DESPERATE_ESCAPE)
"""Move types that must end unengaged (``validate_move``'s default; R09.05-a, R09.07-e)."""


def translation_refused(ctx: Context, unit: UnitData, movers: Sequence[ModelData], dx: float,
                        dy: float, move_type: MoveType, take_to_skies: bool = False) -> bool:
    """True when ``validate_move`` would certainly refuse moving ``movers`` of ``unit`` by
    (dx, dy) in one straight step: a base ends over the battlefield edge (R03.01-f), on a model
    of another unit (R03.01-c), engaged with an enemy model after a move that must end
    unengaged (R09.05-a, R09.07-e), or where it may not end in terrain (``ending_violations``,
    R03.01-i, R13.06-e/f/g): ``movement.ends_refused`` of the ends. False says the ends are
    clear of all of these (``movement.ENDS_CLEAR``); the proposer still validates the move."""
    # the ends ``geo.model_shape(m).moved(m.x + dx, m.y + dy)`` (the kept shape's x is m.x),
    # made only where measured (``movement_ends``: the same answer as ``ends_refused``'s)
    return translated_refused(geo.scene(ctx), unit.id, unit.player,
                              [geo.model_shape(m) for m in movers], dx, dy,
                              move_type in UNENGAGED_MOVES, take_to_skies)
