"""The bound pre-tests of the pile-in placement's spots, all at once (``pile_in_propose``).

``place_among`` tests a chunk of spots of one model: ending closer to its closest target
(R12.03-d), still engaged with the units it started engaged with (R12.03-e), on no other model
of its unit and, surely, on no model of the other units (03.01 Ending a Move). Each test was
settled by bounds first (``battlefield.spot_bounds`` and ``engaged_bounds``, one distance
matrix per test, and ``Occupied.taken``, a fourth); here one matrix of the spots' centre
distances to every model those tests measure serves them all (the same elementwise float
operations, column by column, so the same bounds), and the columns that stay while the model
is placed (its target unit, the units it started engaged with, the other units' models near
it) are gathered once per model (:class:`Fixed`).

A bound only settles a spot where it proves the exact answer (by :data:`battlefield.MARGIN`);
every other spot is measured exactly by the caller, so the answers are those of the exact
tests.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import cast

import numpy as np

from w40k.core import kept
from w40k.engine.propose_moves import CLEARANCE as TAKEN_CLEARANCE
from w40k.geometry import Model, Terrain
from w40k.geometry.battlefield import MARGIN, bounding_radius, inner_radius
from w40k.geometry.measure import (
    ENGAGEMENT_HORIZONTAL,
    ENGAGEMENT_VERTICAL,
    separation,
    vertical_distance,
)
from w40k.geometry.movement import ending_violations
from w40k.geometry.shapes import EPS, Polygon

Disc = tuple[float, float, float, Model]
"""A model's position (x, y), its reach (``Model.reach``) and the model."""

Row = tuple[float, float, float, float]
"""A model's footprint centre (x, y), bounding radius and inner radius (-inf for a hull): the
columns of ``battlefield.spot_bounds`` and ``Occupied.taken``."""

CLOSER = 1
"""Code bit: the spot's closer test (R12.03-d) is measured exactly."""
STILL = 2
"""Code bit: the spot's still-engaged test (R12.03-e) is measured exactly."""
CLEAR = 4
"""Code bit: the spot's clear-of-friends test (03.01) is measured exactly."""

_ROWS: dict[int, tuple[Model, Row]] = kept.table()
""":func:`row`'s answers by model object (an entry holds the model, immutable, so an ``id``
is not reused while kept); emptied past :data:`ROWS_LIMIT`."""
ROWS_LIMIT = 8192


def row(m: Model) -> Row:
    """``m``'s :data:`Row` (kept per model object)."""
    hit = _ROWS.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    fp = m.footprint()
    cx, cy = fp.center
    out = (cx, cy, bounding_radius(fp), -math.inf if isinstance(fp, Polygon)
           else inner_radius(fp))
    if len(_ROWS) >= ROWS_LIMIT:
        _ROWS.clear()
    _ROWS[id(m)] = (m, out)
    return out


def table(rows: Sequence[Iterable[float]], width: int) -> np.ndarray:
    """``rows`` (each ``width`` floats) as an (n, ``width``) array: the same floats as
    ``np.array(rows, dtype=np.float64).reshape(-1, width)``, read with ``np.fromiter`` from
    the rows one after the other (a few times faster for the short lists of tuples here)."""
    return np.fromiter(chain.from_iterable(rows), dtype=np.float64,
                       count=len(rows) * width).reshape(-1, width)


@dataclass(frozen=True)
class Fixed:
    """One model's columns that stay while it is placed, in this order: its closest target
    unit's models, the models of each unit it started engaged with, the other units' models
    near its move (``Occupied.taken``'s neighbours)."""

    cols: np.ndarray
    """The columns' rows (:data:`Row`), an (n, 4) array."""
    targets: int
    """How many leading columns are the target unit's (-1: no target, an objective)."""
    groups: tuple[tuple[int, int], ...]
    """Each engaged-with unit's columns (from, to)."""
    near: tuple[int, int]
    """The other units' nearby models' columns (from, to): those of :attr:`discs` a spot
    within the move may involve (:func:`fixed`)."""
    v_ok: np.ndarray
    """Per column: within engagement range vertically of the model's start (groups only)."""
    discs: tuple[Disc, ...]
    """The other units' nearby models' :data:`Disc`, in order: every model :func:`free`
    measures a spot within the move against."""
    reach: _Reach
    """Which columns a spot within the move can involve (the friends' too,
    :func:`candidates`)."""
    level: tuple[bool, ...] = ()
    """Per group of :attr:`groups`: every one of its columns is :attr:`v_ok` (its tests
    need no vertical mask, :func:`candidates`)."""
    even: bool = False
    """Every column's bounding radius is its inner radius (round bases: :func:`candidates`'
    lower and upper bounds are then the same floats where the moved model's are too)."""


def discs(models: Iterable[Model]) -> list[Disc]:
    """Each model's :data:`Disc` (``Occupied``'s discs)."""
    return [(m.x, m.y, m.reach(), m) for m in models]


Block = tuple[float, float, float, float, tuple[Disc, ...]]
"""One unit's models as :func:`fixed`'s ``occupied`` takes them: the box of their reach
discs (x0, y0, x1, y1: the least ``x - reach``, ``y - reach``, the largest ``x + reach``,
``y + reach``) and their :data:`Disc`, in order."""

_BLOCKS: dict[int, tuple[tuple[Model, ...], Block]] = kept.table()
""":func:`block`'s answers by models tuple (an entry holds it, so its ``id`` is not reused
while kept; a layout's tuple never changes); emptied past :data:`BLOCKS_LIMIT`."""
BLOCKS_LIMIT = 1024


def block(models: tuple[Model, ...]) -> Block:
    """``models``' :data:`Block` (kept per tuple: a unit's kept layout holds one while its
    models stand still, so a proposal reads the units that did not move again)."""
    hit = _BLOCKS.get(id(models))
    if hit is not None and hit[0] is models:
        return hit[1]
    ds = tuple(discs(models))
    out = (min((x - r for x, _, r, _ in ds), default=math.inf),
           min((y - r for _, y, r, _ in ds), default=math.inf),
           max((x + r for x, _, r, _ in ds), default=-math.inf),
           max((y + r for _, y, r, _ in ds), default=-math.inf), ds)
    if len(_BLOCKS) >= BLOCKS_LIMIT:
        _BLOCKS.clear()
    _BLOCKS[id(models)] = (models, out)
    return out


_BLOCK_SPARE = 1e-6
"""Inches to spare in :func:`fixed`'s box test: far beyond the floats' rounding (~1e-13)."""


def fixed(start: Model, targets: Sequence[Model] | None, groups: Sequence[Sequence[Model]],
          occupied: Sequence[Block], budget: float, move: float | None = None) -> Fixed:
    """:class:`Fixed` of ``start``: ``targets`` (None: an objective), ``groups`` (the models
    of each unit it started engaged with), and of ``occupied`` (the :func:`block` of each
    unit of ``Occupied.models``, whose discs in order are :func:`discs` of them) those
    whose reach disc comes within ``budget + start.reach() + 1.0`` of the start, as
    ``Occupied.taken(start, spots, budget)`` picks them. A block whose box lies farther
    than that from the start along x or y (1e-6" to spare) holds none of them (a disc's
    ``hypot`` to the start is at least its x or y offset, which exceeds the limit plus its
    reach there): passed over, the same discs in the same order.

    Given ``move`` (every spot :func:`candidates` will be asked of lies within ``move`` of
    the start), a group's or a nearby model's column that no such spot can involve is left
    out of ``cols`` (:func:`_involved`; ``discs`` keeps every nearby model: :func:`free`
    measures them all): the same spots and codes, fewer columns to measure."""
    rows: list[Row] = []
    if targets is not None:
        rows += [row(t) for t in targets]
    v: list[bool] = [False] * len(rows)
    fp = start.footprint()
    reach = _Reach(fp.center, bounding_radius(fp), move)
    spans: list[tuple[int, int]] = []
    for g in groups:
        a = len(rows)
        g_rows = [row(o) for o in g]
        kept = [(o, r) for o, r, ok in zip(g, g_rows, reach.mask(g_rows, _GROUP_GAP),
                                             strict=True) if ok]
        rows += [r for _, r in kept]
        v += [vertical_distance(start, o) <= ENGAGEMENT_VERTICAL + EPS for o, _ in kept]
        spans.append((a, len(rows)))
    a = len(rows)
    near, even = _near_discs(start, occupied, budget, reach, rows)
    v += [False] * (len(rows) - a)
    # every column even: the nearby ones as _near_discs found them, the others measured
    return Fixed(table(rows, 4),
                 -1 if targets is None else len(targets), tuple(spans), (a, len(rows)),
                 np.array(v, dtype=bool), near, reach,
                 tuple(all(v[g0:g1]) for g0, g1 in spans),
                 even and all(r[2] == r[3] for r in rows[:a]))


def _near_discs(start: Model, occupied: Sequence[Block], budget: float, reach: _Reach,
                rows: list[Row]) -> tuple[tuple[Disc, ...], bool]:
    """:func:`fixed`'s nearby discs: of each block not passed over by its box, every disc
    within ``budget + start.reach() + 1.0`` of the start plus its reach, in order; the row
    (:func:`row`, kept with the block, :func:`_block_rows`) of each of them that
    ``reach.within(row, _TAKEN_GAP)`` keeps is appended to ``rows``, in order. One pass over
    the discs with each disc's row at hand: the same floats, tests and order as filtering
    the discs, then their rows, then ``reach.mask`` of those rows. Also whether every row
    appended is even (bounding radius equal to the inner one): a block whose rows are all
    even (:func:`_block_rows`) appends even rows; another's are measured as appended."""
    far = budget + start.reach() + 1.0
    sx, sy = start.x, start.y
    hypot = math.hypot
    grown = far + _BLOCK_SPARE
    found: list[Disc] = []
    take, add = found.append, rows.append
    move = reach.move
    cx, cy = reach.center
    radius, limit = reach.radius, _TAKEN_GAP + _INVOLVED_SPARE  # _Reach.mask's floats
    even = True
    for x0, y0, x1, y1, ds in occupied:
        if sx < x0 - grown or sx > x1 + grown or sy < y0 - grown or sy > y1 + grown:
            continue  # every disc of the block is farther (fixed's docstring)
        b_rows, b_even = _block_rows(ds)
        for dc, r in zip(ds, b_rows, strict=True):
            if hypot(dc[0] - sx, dc[1] - sy) <= far + dc[2]:
                take(dc)
                if move is None or \
                        hypot(r[0] - cx, r[1] - cy) - move - radius - r[2] <= limit:
                    add(r)
                    if not b_even:
                        even = even and r[2] == r[3]
    return tuple(found), even


_BLOCK_ROWS: dict[int, tuple[tuple[Disc, ...], tuple[tuple[Row, ...], bool]]] = kept.table()
""":func:`_block_rows`' answers by discs tuple (an entry holds it, so its ``id`` is not
reused while kept; a block's discs never change); emptied past :data:`BLOCKS_LIMIT`."""


def _block_rows(ds: tuple[Disc, ...]) -> tuple[tuple[Row, ...], bool]:
    """The :func:`row` of each disc's model, in order, and whether every one of them is
    even (kept per discs tuple: a block's are read by every model of a proposal, and its
    models are immutable)."""
    hit = _BLOCK_ROWS.get(id(ds))
    if hit is not None and hit[0] is ds:
        return hit[1]
    b_rows = tuple(row(dc[3]) for dc in ds)
    out = (b_rows, all(r[2] == r[3] for r in b_rows))
    if len(_BLOCK_ROWS) >= BLOCKS_LIMIT:
        _BLOCK_ROWS.clear()
    _BLOCK_ROWS[id(ds)] = (ds, out)
    return out


_GROUP_GAP = ENGAGEMENT_HORIZONTAL + EPS + MARGIN
"""The largest lower bound (:func:`candidates`' ``lower``) a still-engaged column acts on:
its refusal and its sure test both need ``lower <= ENGAGEMENT_HORIZONTAL + EPS + MARGIN``
(``upper >= lower``)."""
_TAKEN_GAP = TAKEN_CLEARANCE
"""The largest lower bound a nearby model's column acts on (``Occupied.taken``'s refusal:
``upper <= TAKEN_CLEARANCE - MARGIN``, ``upper >= lower``)."""
_INVOLVED_SPARE = 1e-6
"""Inches to spare in :class:`_Reach`'s proof: far beyond the floats' rounding (~1e-13 on a
battlefield's coordinates)."""


@dataclass(frozen=True)
class _Reach:
    """Which columns a spot within ``move`` of the start can involve in :func:`candidates`.

    The moved footprint's centre lies within ``move`` of the start's (the spot's offset;
    the footprint keeps its offset from the model's position), so its distance ``d`` to a
    column's centre is at least ``D - move`` (``D``: the start's centre's distance, triangle
    inequality) and its ``lower`` bound (``d - bounding radius - the column's``) at least
    ``D - move - radii``; a column where that exceeds the largest ``lower`` its test acts on
    (``gap``) never refuses a spot nor marks one to measure: left out, the same answers.
    With no ``move`` every column is kept."""

    center: tuple[float, float]
    radius: float
    move: float | None

    def within(self, r: Row, gap: float) -> bool:
        """Whether column ``r`` may act on a spot (False: proven not to)."""
        if self.move is None:
            return True
        cx, cy = self.center
        return math.hypot(r[0] - cx, r[1] - cy) - self.move - self.radius - r[2] \
            <= gap + _INVOLVED_SPARE

    def mask(self, rows: Sequence[Row], gap: float) -> list[bool]:
        """:meth:`within` of each of ``rows`` (the same floats, one call for them all)."""
        move = self.move
        if move is None:
            return [True] * len(rows)
        cx, cy = self.center
        radius, limit, hypot = self.radius, gap + _INVOLVED_SPARE, math.hypot
        return [hypot(r[0] - cx, r[1] - cy) - move - radius - r[2] <= limit for r in rows]


def free(fx: Fixed, cand: Model, terrain: Terrain) -> bool:
    """03.01 Ending a Move: ``Occupied(models).free(cand, terrain)`` for ``cand``, the model
    of :func:`fixed`'s ``start`` moved at most ``budget`` (its ``budget`` less the 1.0 it is
    given), where :func:`discs` of ``models`` were its ``occupied``. The same answer with
    no ``Occupied`` built: a model ``Occupied.free`` refuses ``cand`` for passes its disc
    test, ``hypot(o - cand) - r_o - r <= CLEARANCE + MARGIN`` (the same floats), so its
    centre is within ``r_o + r + 1e-4`` (and a rounding) of the spot, within ``budget + r
    + r_o + 1e-4`` of the start: among ``fx.discs``, which hold every model within ``budget
    + r + 1.0 + r_o`` (the moved model's reach is the start's). The answer is a boolean
    (the order in which the models are measured changes nothing); the terrain test is
    ``Occupied.free``'s own (``ending_violations``)."""
    x, y, r = cand.x, cand.y, cand.reach()
    fp = cand.footprint()
    hypot = math.hypot
    for ox, oy, orr, o in fx.discs:
        if hypot(ox - x, oy - y) - orr - r <= TAKEN_CLEARANCE + MARGIN \
                and separation(fp, o.footprint()) <= TAKEN_CLEARANCE:
            return False
    return not ending_violations(terrain, cand)


def candidates(start: Model, spots: Sequence[tuple[float, float]] | np.ndarray, fx: Fixed,
               friends: Sequence[Model], than: float, keep: bool, clearance: float
               ) -> tuple[list[int], list[int]]:
    """The spots of ``spots`` that no bound refuses, in order, and per spot the code of the
    tests still to be measured exactly (:data:`CLOSER` | :data:`STILL` | :data:`CLEAR`); the
    same spots and codes as ``pile_in_propose``'s ``_closer_tri`` (``than``; with no target
    every spot is measured), ``_engaged_tri`` (``keep``: the move keeps its engagements),
    ``_clear_tri`` (``friends``, kept ``clearance`` apart) and ``Occupied.taken``.
    ``spots`` may be an (n, 2) array of them (the same floats); where :func:`fixed` was
    given a ``move``, every spot lies within it of the start. ``clearance`` is above
    ``MARGIN`` (the bounds below are left unclipped on that ground)."""
    idx, codes = candidates_of_rows(start, spots, fx, [row(f) for f in friends], than, keep,
                                    clearance)
    return idx, cast(list[int], codes)


def candidates_of_rows(start: Model, spots: Sequence[tuple[float, float]] | np.ndarray,
                       fx: Fixed, f_rows: Sequence[Row], than: float, keep: bool,
                       clearance: float, even: bool | None = None, lazy: bool = False
                       ) -> tuple[list[int], Iterable[int]]:
    """:func:`candidates` of the friends' :func:`row` (``f_rows``, in the friends' order:
    the caller keeps them as its models move). ``even`` True says that every one of
    ``f_rows`` has its bounding radius equal to its inner one (then so has every subset of
    them: the test below on the friends kept holds without measuring it; else measured).

    ``lazy``: the codes come as an iterator that measures each spot's code when it is
    read (:func:`_codes_at`: the same codes), for a caller that reads the first few only
    (the placement stops at its first acceptable spot: ~1.3 codes read of a chunk's
    spots); else as a list."""
    k = len(spots)
    pts = spots if isinstance(spots, np.ndarray) else table(spots, 2)
    nf = len(fx.cols)
    # a friend no spot within the move can come near is left out (fx.reach: it would
    # neither refuse a spot nor mark one to measure; ``_Reach.mask``'s floats, inline)
    move = fx.reach.move
    if move is None:
        rows = list(f_rows)
    else:
        hypot = math.hypot
        rx, ry = fx.reach.center
        radius, limit = fx.reach.radius, clearance + MARGIN + _INVOLVED_SPARE
        rows = [r for r in f_rows
                if hypot(r[0] - rx, r[1] - ry) - move - radius - r[2] <= limit]
    cols = np.concatenate((fx.cols, table(rows, 4))) if rows else fx.cols
    fp = start.footprint()
    cx, cy = fp.center
    ox, oy = cx - start.x, cy - start.y  # the footprint's centre moves with the model
    # column by column (a row per column, a column per spot), the same elementwise
    # operations in the same order as sqrt(dx * dx + dy * dy), d - r - r2 and d - s_in - r3
    # (a centred footprint adds no offset: x + 0.0 is x, or -0.0 made 0.0, whose
    # difference's square is the same)
    px, py = pts.T  # the spots' x and y (an array chunk's own rows: contiguous)
    if ox or oy:
        px, py = px + ox, py + oy  # (new arrays: the spots are the caller's)
    # (x - cx) ** 2 + (y - cy) ** 2 per (column, spot), a (columns, spots) array, rooted:
    # x less each column's x (a column vector), squared in place, the y's added
    d = px - cols[:, 0, None]
    d *= d
    dy = py - cols[:, 1, None]
    dy *= dy
    d += dy
    np.sqrt(d, out=d)
    s_in = -math.inf if isinstance(fp, Polygon) else inner_radius(fp)
    br = bounding_radius(fp)
    lower = d - br
    lower -= cols[:, 2, None]
    if s_in == br and fx.even and (even or all(r[2] == r[3] for r in rows)):
        # round bases throughout: (d - s_in) - r3 is (d - br) - r2, the same floats
        upper = lower
    else:
        upper = d - s_in
        upper -= cols[:, 3, None]
    # The reference's bounds are max(0, ...) of these; every "<= c" below has c > 0, where
    # max(0, x) <= c is x <= c, and a ">= c" (the closer test, min(max(0, x)) = max(0,
    # min(x))) is x >= c where c > 0, always true else: the clipping is left out.
    # Each test's "refused" needs no "and not sure": a spot its lower bound refuses is never
    # sure by its upper bound (lower <= upper column by column, the model's and each
    # column's bounding radius being at least the inner one, and float subtraction
    # monotone), so the refusals below are the reference's. The reductions are the ufuncs'
    # own (``.min`` / ``.any`` call them), and a group whose columns are all within range
    # vertically (``fx.level``) needs no mask (``x & True`` is ``x``).
    least, some = np.minimum.reduce, np.logical_or.reduce
    nt = fx.targets
    # the refusals first: a chunk no spot of which survives (about 40 % of the calls) needs
    # no code
    low_t = None
    if nt > 0:  # _closer_tri
        c = than + MARGIN
        if c > 0.0:
            low_t = least(lower[:nt], axis=0)
            refused = low_t >= c
        else:
            refused = np.ones(k, dtype=bool)
    else:
        refused = np.full(k, nt == 0)
    groups = fx.groups if keep else ()
    level = fx.level
    limit = ENGAGEMENT_HORIZONTAL + EPS
    for j, (a, b) in enumerate(groups):  # _engaged_tri's refusals
        if a == b:
            return [], []
        hit = lower[a:b] <= limit + MARGIN
        if not level[j]:
            hit &= fx.v_ok[a:b, None]
        refused |= ~some(hit, axis=0)
    a, b = fx.near
    if rows:  # _clear_tri's refusals
        if clearance == TAKEN_CLEARANCE:
            a = a if b > a else nf  # the near models' columns end where the friends' begin
            b = len(cols)
        else:
            refused |= some(upper[nf:] <= clearance - MARGIN, axis=0)
    if b > a:  # Occupied.taken (and the clear test's refusals, where the clearance is one)
        refused |= some(upper[a:b] <= TAKEN_CLEARANCE - MARGIN, axis=0)
    np.logical_not(refused, out=refused)
    idx = refused.nonzero()[0]  # the spots left (np.flatnonzero's answer)
    if not len(idx):
        return [], []
    if lazy:
        left = idx.tolist()
        return left, _codes_at(left, nt, than, low_t, lower, upper, groups, level, fx.v_ok,
                               nf if rows else -1, clearance)
    if nt > 0:
        c = than - MARGIN
        # (the targets' least upper bound is their least lower bound where they are the
        # same floats)
        code = ((low_t if upper is lower and low_t is not None
                 else least(upper[:nt], axis=0)) >= c) * CLOSER if c > 0.0 \
            else np.full(k, CLOSER, dtype=np.int64)
    else:
        code = np.full(k, 0 if nt == 0 else CLOSER, dtype=np.int64)
    if groups:
        # (each bit set where its test holds: ``code |= test * BIT``, the test's booleans
        # times the bit, 0 or the bit, or-ed in; one group's answer needs no running and)
        sure_all = None
        for j, (a, b) in enumerate(groups):
            hit = upper[a:b] <= limit - MARGIN
            if not level[j]:
                hit &= fx.v_ok[a:b, None]
            sure = some(hit, axis=0)
            if sure_all is None:
                sure_all = sure
            else:
                sure_all &= sure
        assert sure_all is not None
        code |= ~sure_all * STILL
    if rows:
        code |= some(lower[nf:] <= clearance + MARGIN, axis=0) * CLEAR
    out_idx: list[int] = idx.tolist()
    out_code: list[int] = code[idx].tolist()
    return out_idx, out_code


def _codes_at(idx: list[int], nt: int, than: float, low_t: np.ndarray | None,
              lower: np.ndarray, upper: np.ndarray, groups: Sequence[tuple[int, int]],
              level: Sequence[bool], v_ok: np.ndarray, nf: int, clearance: float
              ) -> Iterator[int]:
    """:func:`candidates_of_rows`' code of each spot of ``idx``, in order, measured when it
    is read: each bit's test on the spot's own column of the bounds (``lower`` / ``upper``,
    a row per column) -- the least of the targets' upper bounds (or their least lower
    bound, ``low_t``, where the bounds are the same floats: the vector code's choice), each
    group's "some column surely engaged", the friends' (from ``nf``; -1: none) "some
    column near" -- the same floats, comparisons and reductions as the whole chunk's
    vector code at that spot, so the same code.

    The spot's column is read as Python floats (one ``tolist`` a bound) and reduced by
    ``min``: the least of the same floats is the same float (numpy's ``minimum`` and
    ``min`` differ only where a NaN is among them, and a bound is never NaN: a spot's
    and a column's coordinates and radii are finite), and "some value ``<= x``" is "the
    least ``<= x``" (of a non-empty span: an empty one's is False, as ``some`` of
    nothing). A group not level is measured value by value with its vertical mask, as
    ``hit &= v_ok``. ``low_t`` is not read (its values are ``min(up[:nt])`` where it would
    be: the targets' least lower bound, the same floats as their least upper one)."""
    c = than - MARGIN
    limit = ENGAGEMENT_HORIZONTAL + EPS - MARGIN
    near = clearance + MARGIN
    ok_v: list[bool] | None = None
    for i in idx:
        up: list[float] = upper[:, i].tolist()
        if nt > 0:
            # (low_t[i] is min(lower[:nt, i]): where upper is lower, min(up[:nt]))
            code = CLOSER if not c > 0.0 or min(up[:nt]) >= c else 0
        else:
            code = 0 if nt == 0 else CLOSER
        for j, (a, b) in enumerate(groups):
            if level[j]:
                hit = a < b and min(up[a:b]) <= limit
            else:
                if ok_v is None:
                    ok_v = v_ok.tolist()
                hit = any(v <= limit and ok for v, ok in zip(up[a:b], ok_v[a:b],
                                                             strict=True))
            if not hit:
                code |= STILL  # a group not surely engaged: measured
                break
        if nf >= 0:
            rest = up[nf:] if upper is lower else lower[nf:, i].tolist()
            if rest and min(rest) <= near:
                code |= CLEAR
        yield code
