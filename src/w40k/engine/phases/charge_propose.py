"""The charge move's placement proposer (11.04): models are placed one at a time, closest to
the targets first, each at the best free spot within its move that keeps the unit coherent.

``melee_moves._greedy`` moves every model on its own toward base contact and leaves a model
that cannot reach where it is, which breaks coherency (R03.03-d) whenever part of the unit is
blocked; this generator builds the move as a chain instead:

- the first model goes to a base contact spot of a target model (as the greedy move does);
- every later model goes to a spot within 2" of a model already placed (R03.03-a) and within
  9" of every placed model (R03.03-b), preferring within 1" of a target model, then engaged
  with one (R11.04-c), else as close to a target as it can get; it must end closer to a target
  (R11.04-b) and engaged with no enemy unit that is not a target (R11.04-d);
- candidate spots: rings around the target models (base contact, within 1", engaged) and
  around the placed models of the unit, at a few radii and 24 bearings, plus the straight move
  toward the nearest target model; a spot on another model or partway through a terrain
  feature (03.01 Ending a Move, ``Occupied.free``) or whose straight path ``validate_move``
  refuses (terrain, enemy models, the battlefield edge) is skipped;
- a repair pass then moves a model that *could* end within 1"/engaged (the search
  ``check_move`` uses for R11.04-c) to such a spot.

The caller still validates the answer with ``check_move``: nothing here decides legality.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
import numpy.typing as npt

from w40k.core import kept
from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.phases.charge_order import (
    SLACK,
    _ordered,
    _round,
    _round_arr,
    _within_rows,
)
from w40k.engine.propose_moves import (
    Occupied,
    Rings,
    occupied_around,
    overlapping_parts,
    ring,
    terrain_crossed,
    through_enemy,
    through_terrain,
)
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData, placement_count
from w40k.geometry import Model, Scene, engaged
from w40k.geometry.battlefield import (
    MARGIN,
    _rows,
    bounding_radius,
    engaged_spots,
    gap_tri,
)
from w40k.geometry.measure import (
    ENGAGEMENT_HORIZONTAL,
    horizontal_distance,
)
from w40k.geometry.movement import (
    ENDS_CHECKED,
    MoveType,
    Step,
    scene_others,
    validate_move,
)
from w40k.geometry.shapes import EPS, Circle

BEARINGS = 24
TARGET_GAPS = (0.03, 0.5, 0.95, 1.45, 1.9)
"""Edge-to-edge gaps of the rings around target models (contact, within 1", engaged)."""
FRIEND_GAPS = (0.1, 0.7, 1.3, 1.85)
"""Edge-to-edge gaps of the rings around placed models of the unit (within 2", R03.03-a)."""
MAX_SPOT_CHECKS = 96
"""Straight paths the placement of one model validates (``validate_move``) before the chain
is given up: a big unit's search is bounded (the best spots come first)."""
MAX_PATH_CHECKS = 24
"""The same for the repair pass's search of one model (an improvement, never needed); it
also screens at most :data:`MAX_SPOT_CHECKS` spots (``surely_refused``)."""
PATH_RULES_IGNORED = ("R03.03-d", "R03.01-c")
"""Checked by the proposer itself for a single model's move (the rest of the unit has not
moved yet): coherency and ending on a model (``Occupied.free``)."""


def propose_charge(ctx: Context, u: UnitData, targets: Sequence[UnitData], budget: float,
                   rng: random.Random, attempt: int, memo: Spots | None = None
                   ) -> dict[str, JSON] | None:
    """A charge move's positions answer built as a coherent chain (module docstring), or
    None when some model finds no spot. ``memo``: the repair pass's candidate spots, kept
    between attempts of the same move (:func:`_repair`)."""
    return _chain(ctx, u, targets, budget, rng, attempt, memo, [0])


class NonTargets:
    """The models of the enemy units that are not targets (R11.04-d), as ``mm_.Group``
    names them (``models``): the chain and the repair read only the list, so the discs and
    box a ``Group`` makes of them are not made."""

    __slots__ = ("models",)

    def __init__(self, models: list[Model]) -> None:
        self.models = models


Avoided = NonTargets | mm_.Group
"""What the repair's searches read the avoided models from (``models``)."""


def _chain(ctx: Context, u: UnitData, targets: Sequence[UnitData], budget: float,
           rng: random.Random, attempt: int, memo: Spots | None, drawn: list[int]
           ) -> dict[str, JSON] | None:
    """:func:`propose_charge`, counting in ``drawn[0]`` its draws: one ``rng.uniform`` for
    each model it comes to (none else)."""
    if not targets:
        return None
    tshapes = [(t.id, s) for t in targets for s in geo.unit_shapes(t)]
    target_ids = {t.id for t in targets}
    others = [(e, s) for e in ctx.state.units if e.id != u.id and not e.destroyed
              for s in geo.unit_shapes(e)]
    non_targets = NonTargets([s for e, s in others
                              if e.player != u.player and e.id not in target_ids])
    placed = occupied_around(ctx, u)  # the models of ``others``, in order
    _, ter = geo.terrain(ctx)
    scene = geo.scene(ctx)
    # each start's distance to each target unit measured once, the models sorted by the
    # least (the same floats in the targets' order: the same ``min``, the same stable sort)
    start_d = {m.id: {t.id: mm_.model_to_unit(geo.model_shape(m), t) for t in targets}
               for m in u.alive}
    models = sorted(u.alive, key=lambda m: min(start_d[m.id].values()))
    ends: dict[str, Model] = {}
    engaged_targets: set[str] = set()
    for m in models:
        start = geo.model_shape(m)
        r = mm_._radius(start)
        # the target models by distance (a stable sort), each distance measured once
        dists = [horizontal_distance(start, t) for _, t in tshapes]
        order = sorted(range(len(tshapes)), key=dists.__getitem__)
        near_t = [tshapes[i] for i in order]
        jitter = rng.uniform(-0.5, 0.5) * attempt * 2 * math.pi / BEARINGS
        drawn[0] += 1
        # only the spots that can be within the move are made (``_within_pts`` keeps the
        # same spots, in order: ``Rings.add_near``); a ring's radius ``r + rt + g`` is
        # ``(r + rt) + g``, the sum of the radii made once a centre
        rings = Rings()
        reach = budget - SLACK + 1e-9
        for i in order[:6]:
            if dists[i] > budget + 2.0 + mm_.EPS:
                continue
            t = tshapes[i][1]
            rr = r + mm_._radius(t)
            rings.add_near(t.x, t.y, [rr + g for g in TARGET_GAPS], start, jitter, BEARINGS,
                           reach)
        for f in ends.values():
            rr = r + mm_._radius(f)
            rings.add_near(f.x, f.y, [rr + g for g in FRIEND_GAPS], start, jitter, BEARINGS,
                           reach)
        t0 = near_t[0][1]
        dist = math.hypot(t0.x - start.x, t0.y - start.y)
        last = None
        if dist > 0:
            k = min(1.0, (budget - SLACK) / dist)
            last = (start.x + k * (t0.x - start.x), start.y + k * (t0.y - start.y))
        # The spots surely on another model (``Occupied.taken``) or engaged with a model of
        # an enemy unit that is not a target (R11.04-d) are skipped without counting as a
        # try; those whose path surely crosses a feature (``terrain_crossed``) are refused
        # as ``through_terrain`` refuses them, and with every spot among them no placement
        # is found (a one-model VEHICLE or MONSTER walled off: the same None, after the same
        # draw). ``_Screen`` tests the spots as they come (:class:`_Screen`).
        sc = _Screen(start, _within_pts(start, rings.points(last), budget), placed, budget,
                     non_targets.models, scene, u.id)
        if sc.all_crossed:
            return None

        def free(x: float, y: float, s: Model = start) -> bool:
            return placed.free(s.moved(x, y), ter)

        # the spots in their keys' order (a stable sort), less those where the model may not
        # end (``Occupied.free``: skipped without counting as a try); an oval or hull's
        # keys are exact measures, made only for the spots that can come next
        chosen = None
        tries = 0
        for _, x, y, eng in _ordered(start, sc.pts, list(ends.values()), tshapes,
                                     engaged_targets, budget, start_d[m.id], sc.keep(free)):
            if sc.all_crossed:
                return None  # settled by a test below: every spot is refused
            end = start.moved(x, y)
            tries += 1
            if tries > MAX_SPOT_CHECKS:
                break  # the best spots' paths are blocked: give this chain up
            if sc.walled_at(x, y) \
                    or through_enemy(scene, u.id, u.player, start, x, y, MoveType.CHARGE):
                continue  # R03.01-d, R13.06-c: validate_move refuses it (counted as validated)
            if through_terrain(scene, u.id, start, x, y, MoveType.CHARGE):
                if sc.settle():
                    return None  # every spot's path crosses a feature (``terrain_crossed``)
                continue  # R13.06-c
            if validate_move(scene, u.id, {m.id: [Step(x, y)]}, MoveType.CHARGE, budget,
                             skip=(*PATH_RULES_IGNORED, ENDS_CHECKED), first=True):
                continue
            chosen = (x, y, end, eng)
            break
        if chosen is None:
            return None
        x, y, end, eng = chosen
        ends[m.id] = end
        engaged_targets |= eng
        placed.append(end)
    answer: dict[str, JSON] = {mid: [[round(e.x, 6), round(e.y, 6)]] for mid, e in ends.items()}
    return _repair(ctx, u, answer, [s for _, s in tshapes], non_targets, budget, memo)


class _Screen:
    """One model's chain spots (rows x, y, within the move) and the tests that skip them
    before their path tests: ``Occupied.taken`` and R11.04-d's ``_engaged_mask`` (skipped
    without counting as a try), and ``terrain_crossed`` of the rest (refused as
    ``through_terrain`` refuses them; all of them: no placement).

    ``taken`` is measured for every spot at once (the best keyed spots are mostly on the
    models placed before). The rest are measured at once (:meth:`settle`, the arrays as the
    chain always built them) where the model is not a round base at ground level, where a
    model that is not one could be engaged at one of the spots, or once a spot's answer is
    not settled below. Else (most models take their first spot) each spot is tested as it
    comes (:meth:`keep`): the engagement of the round bases near enough (``_engaged_mask``'s
    measure, centre distance less both radii, in ``math.hypot``, settled where it is more
    than :data:`HYPOT_SLACK` from engagement range: numpy's hypot differs by a few ulps;
    nearer, :meth:`settle`); ``terrain_crossed`` is measured (:meth:`settle`) only once
    ``through_terrain`` refuses a spot (it refuses every spot ``terrain_crossed`` names:
    until then none is walled). Every test is the spot's own, so the spots that come, in
    order, and the tries are the chain's, and an all-crossed answer is None either way
    (each try refused)."""

    def __init__(self, start: Model, pts: npt.NDArray[np.float64], placed: Occupied,
                 budget: float, others: Sequence[Model], scene: Scene, unit: str) -> None:
        # the spots surely on another model first, at once (the best keyed spots are often
        # taken: by the models placed before); a stable sort of the kept spots is the kept
        # spots of the sorted list
        taken = placed.taken_mask(start, pts, budget)
        if taken is not None:
            pts = pts[~taken]
        self.start, self.pts, self.budget = start, pts, budget
        self.others, self.scene, self.unit = others, scene, unit
        self.all_crossed = False
        self.walled: set[tuple[float, float]] | None = None
        self.allowed: set[tuple[float, float]] | None = None
        self.kept = pts
        self.near: list[tuple[float, float, float]] | None = \
            _near_round(start, others, budget) if len(pts) else None
        self.eager = self.near is None
        if self.eager:  # the spots left are those the tests keep
            self.settle()
            self.pts = self.kept

    def settle(self) -> bool:
        """The tests for every spot at once, as the chain made them (once); whether every
        spot left is crossed (then no spot is placed)."""
        if self.walled is not None:
            return self.all_crossed
        pts, start = self.pts, self.start
        if len(pts):
            bad = _engaged_mask(start, pts, self.others)  # R11.04-d
            pts = pts[~np.asarray(bad, dtype=bool)]
        crossed = terrain_crossed(self.scene, self.unit, start, pts, MoveType.CHARGE)
        self.all_crossed = bool(crossed.all())
        self.walled = {(x, y) for x, y in pts[crossed].tolist()} if crossed.any() else set()
        self.kept = pts
        if not self.eager:
            self.allowed = {(x, y) for x, y in pts.tolist()}
        return self.all_crossed

    def walled_at(self, x: float, y: float) -> bool:
        """The spot's path surely crosses a feature (``terrain_crossed``, once measured)."""
        return self.walled is not None and (x, y) in self.walled

    def keep(self, free: Callable[[float, float], bool]) -> Callable[[float, float], bool]:
        """``_ordered``'s test of a spot: not taken, not engaged with another enemy unit
        (R11.04-d), and ``free``."""
        if self.eager:
            return free  # ``pts``: the spots the tests keep
        near = cast(list[tuple[float, float, float]], self.near)
        r = cast(Circle, self.start.footprint()).r
        lo, hi = ENGAGED_LIMIT - HYPOT_SLACK, ENGAGED_LIMIT + HYPOT_SLACK
        hypot = math.hypot

        def test(x: float, y: float) -> bool:
            if self.allowed is not None:
                return (x, y) in self.allowed and free(x, y)
            for ox, oy, orad in near:
                d = hypot(x - ox, y - oy) - r - orad
                if d <= hi:
                    if d > lo:  # too near engagement range to tell: as measured at once
                        self.settle()
                        return (x, y) in cast(set[tuple[float, float]], self.allowed) \
                            and free(x, y)
                    return False  # R11.04-d
            return free(x, y)
        return test


ENGAGED_LIMIT = ENGAGEMENT_HORIZONTAL + EPS
"""``_engaged_mask``'s test of a round pair: centre distance less both radii at most this."""
HYPOT_SLACK = 1e-9
"""Inches from :data:`ENGAGED_LIMIT` within which :class:`_Screen` does not settle a spot's
engagement by ``math.hypot`` (it and numpy's hypot are each within an ulp or two of the
exact distance, ~1e-14" here)."""
NEAR_SLACK = 1e-3
"""Inches beyond the farthest spot's reach that :func:`_near_round` keeps a model."""


def _near_round(start: Model, others: Sequence[Model], budget: float
                ) -> list[tuple[float, float, float]] | None:
    """The round bases at ground level among ``others`` (``_round_split``'s rows: x, y,
    radius) that a round ``start`` could be engaged with at a spot of the move (within
    ``budget`` of it): the others are farther from every such spot than engagement range
    by :data:`NEAR_SLACK`. None where ``start`` is not such a base, or one of ``others``
    that is not may come within engagement range (:class:`_Screen` measures at once)."""
    if not _round(start):
        return None
    if not others:
        return []
    o, rest = _round_split(others)
    sx, sy = start.x, start.y
    r = cast(Circle, start.footprint()).r
    reach = budget + r + ENGAGED_LIMIT + NEAR_SLACK
    if rest:  # the footprint at a spot is within ``reach()`` of it
        oc, outer, _ = _rows(rest)
        far = budget + start.reach() + ENGAGED_LIMIT + NEAR_SLACK
        if bool((np.hypot(oc[:, 0] - sx, oc[:, 1] - sy) - outer <= far).any()):
            return None
    if o is None:
        return []
    hypot = math.hypot
    return [(ox, oy, orad) for ox, oy, orad in _round_list(o)
            if hypot(ox - sx, oy - sy) - orad <= reach]


_LISTS: dict[int, tuple[npt.NDArray[np.float64], list[tuple[float, float, float]]]] = kept.table()
""":func:`_round_list`'s answers by array (an entry holds it; a few entries)."""


def _round_list(o: npt.NDArray[np.float64]) -> list[tuple[float, float, float]]:
    """``_round_split``'s rows as tuples of floats (kept per array, which it keeps)."""
    hit = _LISTS.get(id(o))
    if hit is not None and hit[0] is o:
        return hit[1]
    rows = [(x, y, r) for x, y, r in o.tolist()]
    if len(_LISTS) >= 16:
        _LISTS.clear()
    _LISTS[id(o)] = (o, rows)
    return rows


_FIRST: dict[tuple[int, str, tuple[str, ...], float, int],
             tuple[object, int, dict[str, JSON] | None, object]] = kept.table()
"""Attempt 0s of :func:`propose_charge` by (state, unit, targets, budget,
``placement_count``): the draws of ``random()`` they made and their answer (an entry holds
the state, so its ``id`` is not reused while kept; a few entries)."""


def first_chain(ctx: Context, u: UnitData, targets: Sequence[UnitData], budget: float,
                rng: random.Random, memo: Spots | None = None) -> dict[str, JSON] | None:
    """``propose_charge(ctx, u, targets, budget, rng, 0, memo)``. Attempt 0 turns nothing by
    the drawn numbers (its jitter is a draw times 0), so while no model is placed the same
    state gives the same answer: one found before is given again, as a new copy, after the
    same number of draws (the heuristic asks a declined charge again; ``memo`` only keeps
    candidates, so an attempt that does not fill it answers the same). The draws are
    counted as they are made (``_chain``), not found by comparing generator states."""
    from w40k.engine.phases.pile_in_propose import _copied, _draws
    key = (id(ctx.state), u.id, tuple(t.id for t in targets), budget, placement_count())
    hit = _FIRST.get(key)
    scene = geo.scene(ctx)  # the same scene too (the units' flags it reads)
    if hit is not None and hit[0] is ctx.state and hit[3] is scene:
        for _ in range(hit[1]):
            rng.random()
        return _copied(hit[2])
    # the draws counted as made (``uniform`` draws one ``random()``), or, for a generator
    # whose ``uniform`` is its own, found by stepping a copy of the state before
    counted = type(rng).uniform is random.Random.uniform
    before = None if counted else rng.getstate()
    drawn = [0]
    out = _chain(ctx, u, targets, budget, rng, 0, memo, drawn)
    n = drawn[0] if before is None else _draws(before, rng, 64)
    if n is not None:
        if len(_FIRST) >= 8:
            _FIRST.clear()
        _FIRST[key] = (ctx.state, n, _copied(out), scene)
    return out


_MEMOS: dict[tuple[int, str, tuple[str, ...], float, int],
             tuple[object, object, Spots]] = kept.table()
""":func:`repair_memo`'s memos by (state, unit, targets, budget, ``placement_count``), with
the state and scene they were built in (an entry holds them, so an ``id`` is not reused
while kept; a few entries)."""


def repair_memo(ctx: Context, u: UnitData, targets: Sequence[UnitData], budget: float
                ) -> Spots:
    """The repair pass's memo (:data:`Spots`) of ``u``'s charge move toward ``targets``: the
    one given before for the same state and scene while no model is placed (the heuristic
    asks a declined charge again, up to four times), else a new one. What it keeps depends
    only on where the models stand, the targets, the other enemy units and the budget."""
    key = (id(ctx.state), u.id, tuple(t.id for t in targets), budget, placement_count())
    scene = geo.scene(ctx)
    hit = _MEMOS.get(key)
    if hit is not None and hit[0] is ctx.state and hit[1] is scene:
        return hit[2]
    if len(_MEMOS) >= 8:
        _MEMOS.clear()
    memo: Spots = {}
    _MEMOS[key] = (ctx.state, scene, memo)
    return memo


def _within_pts(start: Model, pts: npt.NDArray[np.float64], budget: float
                ) -> npt.NDArray[np.float64]:
    """:func:`_within_move` on rows (x, y): the same rows kept, in order."""
    if not len(pts):
        return pts
    keep = np.hypot(pts[:, 0] - start.x, pts[:, 1] - start.y) <= budget - SLACK + 1e-9
    return pts[keep]


def _within_move(start: Model, spots: list[tuple[float, float]], budget: float
                 ) -> list[tuple[float, float]]:
    """The spots not surely beyond the move (``_scored`` tests it exactly: this keeps a
    superset, in order, so that the tests between measure fewer spots)."""
    if not spots:
        return spots
    pts = np.asarray(spots, dtype=np.float64)
    keep = np.hypot(pts[:, 0] - start.x, pts[:, 1] - start.y) <= budget - SLACK + 1e-9
    return [p for p, k in zip(spots, keep.tolist(), strict=True) if k]


_SPLITS: dict[int,
              tuple[Sequence[Model], npt.NDArray[np.float64] | None, list[Model]]] = kept.table()
""":func:`_round_split`'s answers by the list of models (an entry holds it: the same list,
unchanged, within a chain placement; a few entries)."""


def _round_split(others: Sequence[Model]
                 ) -> tuple[npt.NDArray[np.float64] | None, list[Model]]:
    """``others``' round bases at ground level as rows (x, y, radius), None if there are
    none, and the other models, in order (kept for the same list: a chain placement asks it
    for every model and repair search)."""
    hit = _SPLITS.get(id(others))
    if hit is not None and hit[0] is others:
        return hit[1], hit[2]
    rs = [o for o in others if _round(o)]
    arr = np.array([(m.x, m.y, cast(Circle, m.footprint()).r) for m in rs]) if rs else None
    rest = [o for o in others if not _round(o)] if rs else list(others)
    if len(_SPLITS) >= 16:
        _SPLITS.clear()
    _SPLITS[id(others)] = (others, arr, rest)
    return arr, rest


def _engaged_mask(start: Model,
                  spots: Sequence[tuple[float, float]] | npt.NDArray[np.float64],
                  others: Sequence[Model]) -> list[bool]:
    """For each spot, whether ``start`` moved there is engaged with one of ``others`` (03.04):
    measured all at once for round bases; for other shapes by ``engaged_spots`` (bounds
    settle most pairs; the others are measured exactly). Only the models that come within
    engagement range of the spots' bounding box (:func:`_box_near`) are measured: the others
    are engaged with no spot."""
    out = [False] * len(spots)
    if not len(spots) or not others:
        return out
    pts = np.asarray(spots, dtype=np.float64)
    o, others_rest = _round_split(others) if _round(start) else (None, others)
    fp = start.footprint()
    box = _box(pts, fp.center[0] - start.x, fp.center[1] - start.y, bounding_radius(fp))
    if o is not None:
        o = o[_box_near(box, o[:, 0], o[:, 1], o[:, 2])]
        r = cast(Circle, fp).r
        d = np.hypot(pts[:, 0, None] - o[None, :, 0], pts[:, 1, None] - o[None, :, 1]) \
            - r - o[None, :, 2]
        out = np.asarray((d <= ENGAGEMENT_HORIZONTAL + EPS).any(axis=1)).tolist()
    rest = others_rest if o is not None else others
    if rest:
        oc, outer, _ = _rows(rest)
        near = _box_near(box, oc[:, 0], oc[:, 1], outer).tolist()
        rest = [m for m, k in zip(rest, near, strict=True) if k]
    if rest:
        out = [a or b for a, b in zip(out, engaged_spots(start, pts, rest), strict=True)]
    return out


BOX_SLACK = 1e-6
"""Inches beyond engagement range (and ``battlefield.MARGIN``) a model must be from the
spots' box before :func:`_engaged_mask` leaves it out (far more than the rounding)."""


def _box(pts: npt.NDArray[np.float64], ox: float, oy: float, reach: float
         ) -> tuple[float, float, float, float, float]:
    """The bounding box of the footprint centres of a model at the spots (rows (x, y);
    the centre ``(ox, oy)`` from the model's position) and the footprint's bounding radius."""
    xs, ys = pts[:, 0] + ox, pts[:, 1] + oy
    return float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()), reach


def _box_near(box: tuple[float, float, float, float, float], cx: npt.NDArray[np.float64],
              cy: npt.NDArray[np.float64], radii: npt.NDArray[np.float64]
              ) -> npt.NDArray[np.bool_]:
    """Per model (footprint centre and bounding radius): whether it may be engaged with
    the model at one of the spots of ``box`` (:func:`_box`). A model left out is farther
    from every spot's footprint centre than the box is, so ``spot_bounds``' lower bound (the
    centre distance less both bounding radii) and every exact measure put it out of
    engagement range (R03.04) with a margin."""
    x0, y0, x1, y1, reach = box
    dx = np.maximum(0.0, np.maximum(x0 - cx, cx - x1))
    dy = np.maximum(0.0, np.maximum(y0 - cy, cy - y1))
    gap = np.sqrt(dx * dx + dy * dy) - reach - radii
    out: npt.NDArray[np.bool_] = gap <= ENGAGEMENT_HORIZONTAL + EPS + MARGIN + BOX_SLACK
    return out


def _ring(cx: float, cy: float, dist: float, base: float, n: int = BEARINGS
          ) -> list[tuple[float, float]]:
    """``propose_moves.ring`` with this proposer's bearings by default."""
    return ring(cx, cy, dist, base, n)


class _Cands:
    """One (model, gap)'s repair candidates (:func:`_reach_cands`: the tests that do not
    depend on where the rest of the unit is) and, once measured, which of the first that
    :func:`_reach_spot` screens surely overlap a model of another unit (``overlapping_parts``
    of the scene's other models: they stand still while the unit's are moved, so the verdicts
    are kept with the list of other models and the model they were measured for)."""

    __slots__ = ("far", "far_of", "spots", "xy")

    def __init__(self, spots: list[tuple[float, float, Model | None]]) -> None:
        self.spots = spots
        self.far: list[bool] = []
        self.far_of: tuple[object, object] | None = None
        self.xy: npt.NDArray[np.float64] | None = None

    def rows(self) -> npt.NDArray[np.float64]:
        """The (x, y) of the spots :func:`_reach_spot` screens (the first
        :data:`MAX_SPOT_CHECKS` + 1) as rows of an array, made once (the same floats)."""
        if self.xy is None:
            self.xy = np.array([(x, y) for x, y, _ in self.spots[:MAX_SPOT_CHECKS + 1]],
                               dtype=np.float64).reshape(-1, 2)
        return self.xy


Spots = dict[tuple[str, float], _Cands]
"""The repair search's candidate spots of each (model, gap) (:class:`_Cands`)."""


def _repair(ctx: Context, u: UnitData, answer: dict[str, JSON], tshapes: Sequence[Model],
            non_targets: Avoided, budget: float, memo: Spots | None = None
            ) -> dict[str, JSON]:
    """R11.04-c: a model not within 1"/engaged for which a legal straight move ending
    within 1"/engaged (and engaged with no other enemy unit, R11.04-d) is found is moved
    there (a few rounds). ``memo`` keeps each (model, gap)'s candidate spots (the same
    targets, other enemy models and budget: every round and chain attempt)."""
    memo = {} if memo is None else memo
    for _ in range(3):
        finals = mm_.finals_of(u, mm_.parse_positions(u, answer))
        moved = False
        for m in u.alive:
            end = finals[m.id]
            for gap in (1.0, 2.0):
                if any(horizontal_distance(end, t) <= gap + mm_.EPS and
                       (gap < 2.0 or engaged(end, t)) for t in tshapes):
                    continue
                cands = memo.get((m.id, gap))
                if cands is None:
                    cands = memo[(m.id, gap)] = _Cands(_reach_cands(
                        geo.model_shape(m), tshapes, non_targets, gap, budget))
                spot = _reach_spot(ctx, u, geo.model_shape(m), m.id, finals, cands, budget)
                if spot is not None:
                    answer[m.id] = [[spot[0], spot[1]]]
                    finals[m.id] = geo.model_shape(m).moved(*spot)
                    moved = True
                    break
        if not moved:
            break
    return answer


def _reach_cands(start: Model, tshapes: Sequence[Model], non_targets: Avoided, gap: float,
                 budget: float) -> list[tuple[float, float, Model | None]]:
    """The spots (and the model there; None where the bounds settle the gap: built when
    screened) like ``melee_moves.can_reach``'s search finds (its candidates first, then finer
    rings), rounded, within the move, within ``gap`` of a
    target model (engaged with it for 2"), engaged with no enemy model outside the targets
    (R11.04-d): the tests that do not depend on where the rest of the unit is."""
    first, first_rows = mm_.candidate_rows(start, tshapes, gap, budget)
    r = mm_._radius(start)
    rings = Rings()
    for t in tshapes:
        if horizontal_distance(start, t) > budget + gap + mm_.EPS:
            continue
        # _ring(t.x, t.y, r + rt + g, base, 48) a gap at a time, from one set of bearings,
        # less the spots beyond the move (dropped below: ``Rings.add_near``)
        rt = mm_._radius(t)
        rings.add_near(t.x, t.y, [r + rt + g for g in (0.05, gap * 0.3, gap * 0.6, gap * 0.9)],
                       start, 0.0, 48, budget)
    pts = rings.points(None)
    if first:
        pts = np.concatenate((first_rows, pts))  # the list's floats
    if not len(pts):
        return []
    # beyond the move even once rounded: dropped
    pts = pts[~(np.hypot(pts[:, 0] - start.x, pts[:, 1] - start.y) > budget)]
    # every test is each spot's own, so the spots are tested a chunk at a time, in order,
    # until more are kept than ``_reach_spot`` ever screens (the same first ones)
    out: list[tuple[float, float, Model | None]] = []
    for lo in range(0, len(pts), REACH_CHUNK):
        out += _reach_chunk(start, pts[lo:lo + REACH_CHUNK], tshapes, non_targets, gap,
                            budget)
        if len(out) > MAX_SPOT_CHECKS:
            break
    return out


REACH_CHUNK = 160
"""Spots :func:`_reach_cands` tests at once (a few target models' rings: most searches that
keep more than :data:`MAX_SPOT_CHECKS` spots stop after one or two chunks)."""


def _reach_chunk(start: Model, pts: npt.NDArray[np.float64], tshapes: Sequence[Model],
                 non_targets: Avoided, gap: float, budget: float
                 ) -> list[tuple[float, float, Model | None]]:
    """:func:`_reach_cands`' tests of some of its spots (rows (x, y), none beyond the move),
    in order: rounded to 6 decimals, within the move, within ``gap`` of a target model,
    engaged with no other enemy model."""
    # rounded elementwise (the rows' x, y in turn: ``_round_to``'s floats), the rows kept as
    # an array through the tests (the same floats as pairs: no conversions between)
    rows = _round_arr(pts.ravel(), 6).reshape(-1, 2)
    rows = rows[_within_rows(start, rows, budget - 1e-5)]
    near = gap_tri(start, rows, tshapes, gap - 1e-4, engaged_only=gap >= 2.0)
    keep = [i for i, k in enumerate(near) if k]
    rows = rows[keep]
    near = [near[i] for i in keep]
    out: list[tuple[float, float, Model | None]] = []
    for (x, y), k, bad in zip(rows.tolist(), near,
                              _engaged_mask(start, rows, non_targets.models), strict=True):
        if bad:
            continue  # R11.04-d
        if k > 0:
            out.append((x, y, None))  # the model there is built when it is screened
            continue
        end = start.moved(x, y)
        if not any(horizontal_distance(end, t) <= gap - 1e-4
                   and (gap < 2.0 or engaged(end, t)) for t in tshapes):
            continue
        out.append((x, y, end))
    return out


def _reach_spot(ctx: Context, u: UnitData, start: Model, mid: str, finals: dict[str, Model],
                cands: _Cands, budget: float) -> tuple[float, float] | None:
    """The first of ``cands`` (:func:`_reach_cands`) whose straight move ``validate_move``
    accepts with the rest of the unit at ``finals`` (at most :data:`MAX_SPOT_CHECKS` screened,
    :data:`MAX_PATH_CHECKS` validated); ``start``: the model where it stands."""
    if not cands.spots:
        return None
    spots = cands.spots[:MAX_SPOT_CHECKS + 1]
    # the spots surely on another model first, without the scene (built for the others):
    # ``mm_._overlapping``'s verdict, its two parts or-ed (``overlapping_parts``), the other
    # units' part kept with the candidates (the same list of other models and model)
    base = geo.scene(ctx)
    gu = base.unit(u.id)
    others, _ = scene_others(base, u.id, gu.player)
    xy = cands.rows()
    if cands.far_of is None or cands.far_of[0] is not others or cands.far_of[1] is not start:
        cands.far = overlapping_parts((), others, mid, start, xy, unit=False, ovals=True)
        cands.far_of = (others, start)
    left = [i for i, f in enumerate(cands.far) if not f]
    if not left:
        return None
    near = overlapping_parts(mm_._placed(gu.models, finals, mid), others, mid, start,
                             xy[left], unit=True, ovals=True)
    scene = None
    tries = 0
    for i, over in zip(left, near, strict=True):
        if i >= MAX_SPOT_CHECKS:
            return None  # screened past the limit
        if over:
            continue
        x, y, end = spots[i]
        if scene is None:
            scene = mm_._scene_with(ctx, u, finals, keep=mid)
        if end is None:
            end = start.moved(x, y)
        if mm_.surely_refused(scene, u.id, mid, end, MoveType.CHARGE):
            continue
        tries += 1
        if tries > MAX_PATH_CHECKS:
            return None
        if not validate_move(scene, u.id, {mid: [Step(x, y)]}, MoveType.CHARGE, budget,
                             skip=(ENDS_CHECKED,), first=True):  # surely_refused: no ending
            return (x, y)
    return None
