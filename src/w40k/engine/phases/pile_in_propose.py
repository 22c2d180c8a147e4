"""The pile-in and consolidation moves' placement proposer (12.03, 12.08), built like the
charge move's (``charge_propose.py``): models are placed one at a time, each at the best spot
of its own move that keeps the whole unit coherent.

``melee_moves._greedy`` moves every model on its own toward base contact and is refused as a
whole when one model breaks a rule (a model that ends no closer, one that leaves a friend
behind, one that ends on a model): most of its answers were refused and the move declined.
Here every model's spot is checked on its own before the next model is placed:

- a model in base contact with an enemy model stays (R12.03-c, R12.08-b ongoing);
- the others, closest to their target first, go to the first spot, in this order of
  preference, that passes every test below: base contact with a model of its closest target
  (pile-in, ongoing/engaging consolidation) or within range of the objective (objective
  consolidation), then engaged with the closest target, then as close to it as the move gets;
  staying where it is comes last (a model that is not moved has no constraint, 12.03);
- tests of a spot: within the move's maximum (3"); ending closer to the closest target
  (R12.03-d, R12.08-b/c) or to the objective (R12.08-d); still engaged with every enemy unit it
  started engaged with (R12.03-e, R12.08-f reading); the unit, with this model there and the
  others where they are so far, no less coherent than before (R03.03-d: a coherent unit stays
  coherent after every placement, so after the last one); on no other model and not partway
  through a terrain feature (03.01 Ending a Move, ``Occupied.free``); a straight path that
  ``validate_move`` accepts (terrain, enemy models, the battlefield edge);
- candidate spots: rings around the nearest target models (base contact, 0.5", 1", 1.5", 1.9"
  edge to edge; 24 bearings, the one facing the model first), or around the objective, plus the
  straight move toward the nearest target model (the whole move, two thirds, one third);
- a repair pass then moves a model that ended unengaged but *could* end engaged (the search
  ``check_move`` uses, ``melee_moves.can_reach``) to such a spot, or back where it started.

The caller still validates the answer with ``check_move``: nothing here decides legality.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import cast

import numpy as np

from w40k.core import kept
from w40k.engine import field, geo
from w40k.engine.context import Context
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.phases import pile_in_bounds as pb
from w40k.engine.phases import pile_in_coherency as pic
from w40k.engine.phases import pile_in_friends as pf
from w40k.engine.propose_moves import ring, ring_offsets
from w40k.engine.serial import JSON
from w40k.engine.state import ModelData, ObjectiveData, UnitData, placement_count
from w40k.geometry import Model, ObjectiveMarker, engaged
from w40k.geometry.battlefield import (
    bounding_radius,
    inner_radius,
)
from w40k.geometry.measure import (
    MARKER_RANGE_HORIZONTAL,
    MARKER_RANGE_VERTICAL,
    coherency_breaks,
    horizontal_distance,
    separation,
    vertical_extent,
)
from w40k.geometry.movement import (
    ENDS_CHECKED,
    MoveType,
    Step,
    disc_in_solid,
    solid_outlines,
    validate_move,
)
from w40k.geometry.shapes import EPS as SHAPES_EPS
from w40k.geometry.shapes import Circle, Oval, Polygon

BEARINGS = 24
TARGET_GAPS = (0.01, 0.5, 1.0, 1.5, 1.9)
"""Edge-to-edge gaps of the rings around target models (base contact first, within
``melee_moves.CONTACT``; all engaged)."""
_GAPS_COL = np.array(TARGET_GAPS, dtype=np.float64)[:, None]
""":data:`TARGET_GAPS` as a (gaps, 1) array (:func:`_target_chunks`: each gap times a
ring's cosines and sines)."""
FRIEND_GAPS = pf.FRIEND_GAPS
"""Edge-to-edge gaps of the rings around the unit's other models (within 2", R03.03-a): a
model too far to reach its target keeps near the others as it closes in."""
OVAL_STEPS = 4
"""Steps of the touching distance along a bearing toward an oval base."""
FRIENDS = pf.FRIENDS
"""Models of the unit whose rings are tried (nearest to the model's goal)."""
FRIEND_BEARINGS = pf.FRIEND_BEARINGS
PASSES = 3
"""Rounds over the models not moved yet (a model whose every spot broke coherency may find
one once the models behind it have moved)."""
NEAREST = 4
"""Target models (nearest first) whose rings are tried for each model."""
STRAIGHT = (1.0, 2 / 3, 1 / 3)
"""Fractions of the move tried straight toward the nearest target model."""
SLACK = 1e-3
"""Inches of the move left unused (rounding of the answer's coordinates)."""
CLOSER = 1e-3
"""Inches a moved model ends closer than it started, at least (R12.03-d; ``check_move``
demands more than ``melee_moves.EPS``)."""
CLEARANCE = 1e-4
"""Inches kept between bases (as ``Occupied``)."""
ENGAGE_SCREEN = mm_.ENGAGE_SCREEN
"""Inches between two units' layout boxes past which no model of one is engaged with a
model of the other (03.04; ``melee_moves.ENGAGE_SCREEN``, ``check_move``'s screen too)."""
Spots = list[tuple[float, float]] | np.ndarray
"""A chunk of candidate spots: (x, y) tuples, or an (n, 2) array of them
(:func:`_target_chunks`)."""


PATH_RULES_IGNORED = ("R03.03-d", "R03.01-c")
"""Checked here for the whole unit (``validate_move`` sees one model moved, the rest at their
starts): coherency and ending on a model."""


def propose_toward(ctx: Context, u: UnitData, d: mm_.MeleeMoveFrame, rng: random.Random,
                   attempt: int) -> dict[str, JSON] | None:
    """A pile-in or consolidation positions answer placed model by model (module docstring);
    None when no model moves."""
    budget = d.max_distance
    mt = d.move_type
    targets, obj = _goals(ctx, d)
    if not targets and obj is None:
        return None  # before the one draw (first_toward counts on it)
    move_type = mm_.MOVE_TYPES[mt]
    locked = mt == "pile_in" or d.mode == "ongoing"
    keep = mt == "pile_in" or d.mode == "ongoing"
    scene = geo.scene(ctx)
    _, ter = geo.terrain(ctx)
    enemies = [e for e in ctx.state.units if e.player != u.player and not e.destroyed]
    starts = {m.id: geo.model_shape(m) for m in u.alive}
    cur: dict[str, Model] = dict(starts)
    movers = [m for m in u.alive if not (locked and mm_.base_contact_enemy(ctx, u, m))]
    # A model in base contact with an enemy model stays (R12.03-c, R12.08-b): its closest
    # target, gap and engagements are never asked (the moved models' only, below and in
    # _repair), so they are measured for the movers alone.
    closest: dict[str, UnitData | None] = {}
    start_gap: dict[str, float] = {}
    for m in movers:
        closest[m.id], start_gap[m.id] = _closest(ctx, starts[m.id], targets, obj)
    if keep and movers:
        # An enemy unit whose layout box is out of engagement range of the unit's box (1e-3"
        # to spare: the boxes hold every bounding disc, so their gap is a lower bound of
        # every pair's distance) is engaged with none of its models: not measured (03.04).
        box = field.layout(u)
        near = [e for e in enemies if box.box_gap(field.layout(e)) <= ENGAGE_SCREEN]
        groups = {e.id: mm_.Group.of_unit(e) for e in near}
        was_engaged = {m.id: [groups[e.id] for e in near
                              if mm_.engaged_with_unit(starts[m.id], e)] for m in movers}
    else:
        was_engaged = {}
    movers.sort(key=lambda m: (start_gap[m.id], m.id))
    # the generator's only use here (first_toward replays it: JITTER_DRAW)
    jitter = rng.uniform(*JITTER_DRAW) * attempt * 2 * math.pi / BEARINGS
    if not movers:
        return None  # every model in base contact stays: none moves (after the same draw)
    # every living model of the other units, in the state's order (``occupied_around``'s
    # models: pb.free measures a spot against them as its Occupied.free would), unit by
    # unit (each unit's block kept with its layout's models)
    occupied_discs = [pb.block(field.layout(e).models) for e in ctx.state.units
                      if e.id != u.id and not e.destroyed]
    moved: dict[str, Model] = {}
    fixed: dict[str, pb.Fixed] = {}
    goals: dict[str, _Goal] = {}  # each model's goal chunks, for the later passes
    # the unit's coherency breaks, kept as its models move (R03.03-d, pile_in_coherency.py)
    index = {mid: k for k, mid in enumerate(cur)}
    breaks = pic.Breaks(list(cur.values()))
    # each model's pb.row where it is so far (pb.candidates' friends' columns), and how many
    # of them are uneven (bounding radius not the inner one), kept as the models move
    rows = pf.Rows(cur)

    def place(m: ModelData) -> bool:
        """Move ``m`` to its first acceptable spot (module docstring); False: none. The
        spots come in chunks (:func:`_spot_chunks`: the target rings gap by gap, the
        straight move, the friends' rings), tested chunk by chunk: every test of a spot is
        its own, so the first acceptable spot is the same as testing them all at once, and
        the later chunks are mostly never built."""
        start = starts[m.id]
        t = closest[m.id]
        for spots in _spot_chunks(ctx, start, m.id, t, obj, cur, budget, jitter, goals):
            if len(spots) and place_among(m, start, t, spots):
                return True
        return False

    def place_among(m: ModelData, start: Model, t: UnitData | None, spots: Spots) -> bool:
        """:func:`place`'s tests of a chunk of spots, in order: the first that passes
        them all is where ``m`` goes (True)."""
        # The first three tests and Occupied.taken for every spot at once, where bounds
        # settle them (pile_in_bounds.py: the spots no bound refuses, each with the tests
        # still to measure exactly below; the same answers).
        fx = fixed.get(m.id)
        if fx is None:
            fx = fixed[m.id] = pb.fixed(
                start, geo.unit_shapes(t) if t is not None else None,
                [g.models for g in was_engaged[m.id]] if keep else (), occupied_discs,
                budget + 1.0, move=budget)  # every spot is within the move (SLACK spare)
        # (the codes measured as the loop below reads them: it mostly stops at the first)
        idx, codes = pb.candidates_of_rows(start, spots, fx, rows.others(m.id),
                                           start_gap[m.id] - CLOSER, keep, CLEARANCE,
                                           rows.even_others(m.id), lazy=True)
        if not idx:
            return False  # every spot refused by a bound (about 40 % of the chunks)
        # A round base meeting a solid feature (no surface at its level) is refused by
        # Occupied.free (ending_violations, the same test): such a spot is passed over
        # before it is built (movement.disc_in_solid).
        fp = start.footprint()
        solid = solid_outlines(ter, start.z) if type(fp) is Circle else ()
        r = cast(Circle, fp).r if solid else 0.0
        # the spots left, as floats (an array's rows read as a list: the same floats)
        left = spots[idx].tolist() if isinstance(spots, np.ndarray) else [spots[i] for i in idx]
        for (x, y), code in zip(left, codes, strict=True):
            if solid and disc_in_solid(solid, x, y, r):
                continue  # 03.01 Ending a Move: partway through a feature (R03.01-i)
            end = start.moved(x, y)
            if t is not None:
                if code & pb.CLOSER and not mm_.closer_to_unit(end, t,
                                                               start_gap[m.id] - CLOSER):
                    continue  # R12.03-d / R12.08-b/c: closer to the closest target
            elif obj is not None and not (
                    mm_.in_objective_range(ctx, end, obj)
                    or mm_.objective_distance(ctx, end, obj) < start_gap[m.id] - CLOSER):
                continue  # R12.08-d: within range, or closer
            if code & pb.STILL and not all(g.engaged_any(end) for g in was_engaged[m.id]):
                continue  # R12.03-e / R12.08-f: still engaged with the same units
            if (code & pb.CLEAR and not _clear_of_friends(end, m.id, cur)) \
                    or not pb.free(fx, end, ter):
                continue  # 03.01 Ending a Move
            if breaks.moved(index[m.id], end) > breaks.count:
                continue  # R03.03-d
            # the path (R03.01-d through an enemy model, terrain, the edge): validate_move
            # alone (propose_moves.through_enemy, a pre-test of one of its refusals, cost
            # more here than the few validate_move calls it saved: most spots reaching this
            # point are accepted)
            if validate_move(scene, u.id, {m.id: [Step(x, y)]}, move_type, budget,
                             skip=(*PATH_RULES_IGNORED, ENDS_CHECKED), first=True):
                continue
            cur[m.id] = moved[m.id] = end
            breaks.move(index[m.id], end)
            rows.move(m.id, end)
            return True
        return False

    for _ in range(PASSES):
        placed = [place(m) for m in movers if m.id not in moved]
        if not any(placed) or len(moved) == len(movers):
            break
    if not moved:
        return None
    _repair(ctx, u, d, starts, cur, moved, closest, budget, move_type)
    if not moved:
        return None
    return {mid: [[round(e.x, 6), round(e.y, 6)]] for mid, e in moved.items()}


JITTER_DRAW = (-0.5, 0.5)
"""The bounds of :func:`propose_toward`'s one draw, ``rng.uniform`` of them (its bearings'
jitter), made once it has a target unit or an objective (:func:`_goals`) and never else."""


def _goals(ctx: Context, d: mm_.MeleeMoveFrame
           ) -> tuple[list[UnitData], ObjectiveData | None]:
    """The frame's target units and its objective (None: none, or not in the state)."""
    return ([ctx.state.unit(t) for t in d.targets or ()],
            next((o for o in ctx.state.objectives if o.name == d.objective), None))


_FIRST: dict[tuple[int, int, int],
             tuple[object, object, int, dict[str, JSON] | None, object]] = kept.table()
"""Attempt 0s of :func:`propose_toward` by (state, frame, ``placement_count``): the draws
(:data:`JITTER_DRAW`) they made and their answer (an entry holds the state and the frame, so
their ``id`` is not reused while it is kept; a few entries: a player asks again at once)."""


def first_toward(ctx: Context, u: UnitData, d: mm_.MeleeMoveFrame, rng: random.Random
                 ) -> dict[str, JSON] | None:
    """``propose_toward(ctx, u, d, rng, 0)``. Attempt 0 turns nothing by the drawn numbers
    (its jitter is a draw times 0), so while no model is placed (``placement_count``) the same
    state and frame give the same answer: an answer found before (a move, or None) is given
    again, as a new copy, after the same number of draws (a player that asks again, e.g. the
    heuristic's retries of a declined melee move, gets the answer and the random stream it
    would have got). The draws are counted from the code, not the generator's states (two
    ``getstate`` copies and a probe generator cost more than a small search): the one
    :data:`JITTER_DRAW` where the frame has a target unit or an objective, none else."""
    key = (id(ctx.state), id(d), placement_count())
    hit = _FIRST.get(key)
    scene = geo.scene(ctx)  # the same scene too (the units' flags it reads)
    if hit is not None and hit[0] is ctx.state and hit[1] is d and hit[4] is scene:
        for _ in range(hit[2]):
            rng.uniform(*JITTER_DRAW)
        return _copied(hit[3])
    targets, obj = _goals(ctx, d)
    n = 1 if targets or obj is not None else 0
    out = propose_toward(ctx, u, d, rng, 0)
    if len(_FIRST) >= 8:
        _FIRST.clear()
    _FIRST[key] = (ctx.state, d, n, _copied(out), scene)
    return out


def _copied(answer: dict[str, JSON] | None) -> dict[str, JSON] | None:
    """A positions answer's copy (its own lists of waypoints)."""
    if answer is None:
        return None
    return {mid: [list(cast(list[JSON], p)) for p in cast(list[JSON], path)]
            for mid, path in answer.items()}


def _draws(before: tuple[object, ...], rng: random.Random, most: int = 8) -> int | None:
    """How many ``random()`` calls take a generator from state ``before`` to ``rng``'s (None:
    more than ``most - 1``, or other kinds of draws; ``charge_propose.first_chain``'s)."""
    probe = random.Random()
    probe.setstate(before)
    after = rng.getstate()
    for n in range(most):
        if probe.getstate() == after:
            return n
        probe.random()
    return None


_Goal = tuple[list[Spots], tuple[float, float] | None]
"""A model's goal chunks (:func:`_goal_chunks`) and the last of their spots (None: none)."""


def _spot_chunks(ctx: Context, start: Model, mid: str, t: UnitData | None,
                 obj: ObjectiveData | None, cur: dict[str, Model], budget: float,
                 jitter: float, kept: dict[str, _Goal] | None = None) -> Iterator[Spots]:
    """:func:`place`'s candidate spots in order, a chunk at a time: with a closest target,
    :func:`_target_chunks`; else the objective's spots; then :func:`_friend_spots` around
    the last of those (built only when asked for). The goal chunks depend on none of the
    unit's placements (the model's start, its target or the objective, the move and the
    jitter only), so a later pass of the same proposal reads them from ``kept`` (by model
    id, filled here) instead of making them again: the same arrays and lists, never
    written to (:func:`place` reads them)."""
    goal = None if kept is None else kept.get(mid)
    if goal is None:
        goal = _goal_chunks(ctx, start, t, obj, budget, jitter)
        if kept is not None:
            kept[mid] = goal
    chunks, last = goal
    yield from chunks
    yield _friend_spots(start, mid, cur, last, budget)


def _goal_chunks(ctx: Context, start: Model, t: UnitData | None, obj: ObjectiveData | None,
                 budget: float, jitter: float) -> _Goal:
    """:func:`_spot_chunks`' chunks before the friends' rings, those with a spot: with a
    closest target, :func:`_target_chunks`; else the objective's spots; and the last spot
    of them."""
    last: tuple[float, float] | None = None
    out: list[Spots] = []
    if t is not None:
        chunk, last = _target_spots(start, geo.unit_shapes(t), budget, jitter)
        if len(chunk):
            out.append(chunk)
    else:
        assert obj is not None
        spots = _objective_spots(ctx, start, obj, budget, jitter)
        if spots:
            last = spots[-1]
            out.append(spots)
    return out, last


def _closest(ctx: Context, s: Model, targets: Sequence[UnitData], obj: ObjectiveData | None
             ) -> tuple[UnitData | None, float]:
    """The model's closest target unit (the first of the nearest, as ``min`` picks it) and
    its :func:`_gap` (each unit measured once: the same floats as measuring the nearest
    again); with no target, None and the objective's distance."""
    if not targets:
        return None, _gap(ctx, s, None, obj)
    gaps = [mm_.model_to_unit(s, t) for t in targets]
    g = min(gaps)
    return targets[gaps.index(g)], g


def _gap(ctx: Context, s: Model, t: UnitData | None, obj: ObjectiveData | None) -> float:
    """How far the model is from its closest target (or the objective) at the start."""
    if t is not None:
        return mm_.model_to_unit(s, t)
    assert obj is not None
    return mm_.objective_distance(ctx, s, obj)


def _ring(cx: float, cy: float, dist: float, base: float, n: int = BEARINGS
          ) -> list[tuple[float, float]]:
    """``propose_moves.ring`` with this proposer's bearings by default."""
    return ring(cx, cy, dist, base, n)


def _reachable(start: Model, spots: list[tuple[float, float]], budget: float
               ) -> list[tuple[float, float]]:
    sx, sy, limit, hypot = start.x, start.y, budget - SLACK, math.hypot
    return [(x, y) for x, y in spots if hypot(x - sx, y - sy) <= limit]


def _target_chunks(start: Model, tshapes: Sequence[Model], budget: float, jitter: float
                   ) -> Iterator[np.ndarray]:
    """The target spots, as one chunk (:func:`_target_spots`)."""
    yield _target_spots(start, tshapes, budget, jitter)[0]


def _target_spots(start: Model, tshapes: Sequence[Model], budget: float, jitter: float
                  ) -> tuple[np.ndarray, tuple[float, float] | None]:
    """The target spots (an (n, 2) array of the spots' x and y) and the last of them (None:
    none; the straight move's last, the very floats the array holds, else read from it):
    rings around
    the nearest target models, gap by gap (base contact first), then the straight move
    toward the nearest one. The rings' spots are computed for every gap and bearing at
    once (``x + g * c``: the same floats elementwise, gap by gap, ring by ring; a round
    ring holds only its bearings some spot of which the move may reach,
    :func:`_reached`); the move's limit is settled by ``np.hypot`` away from it and by
    ``math.hypot``, as :func:`_reachable` measures, within 1e-9" of it. The spots stay in
    the array (the same floats as a list of them): :func:`place` reads the few it tests."""
    # each target model's distance measured once (the same floats as measuring it for the
    # sort, the reach filter and the straight move's nearest model)
    dist_to = [(horizontal_distance(start, t), t) for t in tshapes]
    by_gap = sorted(dist_to, key=lambda p: p[0])  # stable: ties keep the unit's order
    near = [t for h, t in by_gap[:NEAREST] if h <= budget + 2.0 + mm_.EPS]
    spots = _NO_SPOTS
    if near:
        # the rings one after the other, as one (n, 4) array (the same floats as each
        # ring's array concatenated), read as its (4, n) columns: x, y, cos, sin
        rings = np.ascontiguousarray(pb.table(
            [p for t in near
             for p in _contact_ring(start, t, math.atan2(start.y - t.y, start.x - t.x)
                                    + jitter, budget)], 4).T)
        # x + g * c and y + g * s gap by gap, ring by ring: a (2, gaps, n) array whose rows
        # ravelled are the spots' x and y in that order (the same floats elementwise; each
        # operand's last axis the rings' spots, contiguous: no inner loop over a pair)
        every = (rings[:2, None, :] + _GAPS_COL * rings[2:, None, :]).reshape(2, -1)
        limit = budget - SLACK
        sx, sy = start.x, start.y
        ex, ey = every
        d = _hypot(ex - sx, ey - sy)
        keep = d <= limit - 1e-9
        # the spots the array leaves within 1e-9" of the limit, either side (above limit -
        # 1e-9, at most limit + 1e-9: a NaN spot in neither), measured by math.hypot; every
        # other spot is settled by its array distance (np.hypot is within an ulp or so of
        # the exact distance, ~1e-14"); most chunks have none (one test of them all)
        edge = d <= limit + 1e-9
        edge ^= keep
        if edge.any():
            # (a vector's nonzero()[0]: np.flatnonzero's indices without its Python calls)
            for i in edge.nonzero()[0].tolist():
                x, y = every[:, i].tolist()
                keep[i] = math.hypot(x - sx, y - sy) <= limit
        spots = every.compress(keep, axis=1)  # every[:, keep], C-ordered
    # the nearest target model: min's first least distance, the stable sort's first
    t0 = by_gap[0][1]
    dist = math.hypot(t0.x - start.x, t0.y - start.y)
    last: tuple[float, float] | None = None
    if dist > 0:
        k = min(1.0, (budget - SLACK) / dist)
        # the straight move's x, then its y (a C-ordered (2, 3) array)
        xs = [start.x + f * k * (t0.x - start.x) for f in STRAIGHT]
        ys = [start.y + f * k * (t0.y - start.y) for f in STRAIGHT]
        spots = np.concatenate((spots, np.array((xs, ys))), axis=1)
        last = (xs[-1], ys[-1])
    elif spots.shape[1]:
        x, y = spots[:, -1].tolist()
        last = (x, y)
    # the (n, 2) rows of a C-ordered (2, n) array (a view: pb.candidates reads the (2, n)
    # array itself, place_among the rows; the same floats either way)
    return spots.T, last


_hypot = np.hypot
"""The chunk's array distances (``np.hypot``; a test perturbs them within 1e-9" to check
the guard of :func:`_target_chunks`)."""
_NO_SPOTS = np.empty((2, 0), dtype=np.float64)
"""No spot (:func:`_target_chunks`: no target model near)."""


_RINGS: dict[tuple[int, int, float, float | None],
             tuple[Model, Model, list[tuple[float, float, float, float]]]] = kept.table()
""":func:`_contact_ring`'s answers by (start, target, bearing, move) -- kept model objects
are the same while the models stay (``engine/field.py``), and an entry holds them, so an
``id`` is not reused while it is kept; emptied past :data:`RINGS_LIMIT` entries."""
RINGS_LIMIT = 4096


def _contact_ring(start: Model, t: Model, base: float, budget: float | None = None
                  ) -> list[tuple[float, float, float, float]]:
    """(x, y, cos, sin of the bearing) of ``start``'s centre touching ``t`` on each of
    ``BEARINGS`` bearings from ``t``'s centre (the nearest to ``base`` first). Round bases:
    the sum of the radii; an oval base: found along each bearing from the bounding discs'
    touching distance (the gap shrinks at most as fast as the distance, so each step stays
    outside). Given the move's ``budget``, an oval's bearing none of whose ring spots
    (``TARGET_GAPS`` beyond the touching point) the move reaches gets x and y NaN instead
    (:func:`_touching_ring`: :func:`_target_chunks` drops it, as it drops a spot out of
    reach). Kept for the passes and attempts that ask again (:data:`_RINGS`)."""
    key = (id(start), id(t), base, budget)
    hit = _RINGS.get(key)
    if hit is not None and hit[0] is start and hit[1] is t:
        return hit[2]
    out = _touching_ring(start, t, base, budget)
    if len(_RINGS) >= RINGS_LIMIT:
        _RINGS.clear()
    _RINGS[key] = (start, t, out)
    return out


def _touching_ring(start: Model, t: Model, base: float, budget: float | None = None
                   ) -> list[tuple[float, float, float, float]]:
    """:func:`_contact_ring`, computed (each bearing's cosine and sine once: the same
    floats as computing them again). An oval's touching distance ``d`` along a bearing lies
    between the bases' inner radii summed (the bases do not overlap: each holds its inner
    disc) and ``r``, so its ring spots lie on the bearing between ``lo`` and ``hi`` from
    ``t``'s centre; where that whole stretch is beyond the move (``far``, a micro-inch
    beyond :func:`_target_chunks`' limit), the bearing's touching distance is not sought."""
    fs, ft = start.footprint(), t.footprint()
    r = bounding_radius(fs) + bounding_radius(ft)
    out: list[tuple[float, float, float, float]] = []
    oval = not (isinstance(t.base_mm, (int, float)) and isinstance(start.base_mm, (int, float)))
    if not oval:  # round bases: the loop below with nothing skipped or sought (same floats)
        tx, ty = t.x, t.y
        atan2, cos, sin = math.atan2, math.cos, math.sin
        offs = _OFFS if budget is None else _OFFS[:_reached(start, t, r, base, budget)]
        add = out.append
        for o in offs:
            b = base + o
            x, y = tx + r * cos(b), ty + r * sin(b)  # ring()'s spot
            a = atan2(y - ty, x - tx)
            c, s = cos(a), sin(a)
            add((tx + r * c, ty + r * s, c, s))
        return out
    lo = hi = far = math.nan
    skip = (oval and budget is not None and isinstance(fs, (Circle, Oval))
            and isinstance(ft, (Circle, Oval)) and fs.center == (start.x, start.y)
            and ft.center == (t.x, t.y))
    if skip:
        assert budget is not None
        lo = inner_radius(fs) + inner_radius(ft) - 1e-6 + TARGET_GAPS[0]
        hi = r + TARGET_GAPS[-1]
        far = budget - SLACK + 1e-6
    px, py = start.x - t.x, start.y - t.y
    for x, y in _ring(t.x, t.y, r, base):
        a = math.atan2(y - t.y, x - t.x)
        c, s = math.cos(a), math.sin(a)
        if skip:
            k = min(max(px * c + py * s, lo), hi)  # the stretch's point nearest the start
            if math.hypot(k * c - px, k * s - py) > far:
                out.append((math.nan, math.nan, c, s))
                continue
        d = r
        if oval:
            for _ in range(OVAL_STEPS):
                h = horizontal_distance(start.moved(t.x + d * c, t.y + d * s), t)
                if h < 1e-3:
                    break
                d -= h
        out.append((t.x + d * c, t.y + d * s, c, s))
    return out


_OFFS = ring_offsets(BEARINGS)
"""``propose_moves.ring``'s bearing offsets from its base, in ring order; their sizes never
decrease."""
_SIZES = [abs(o) for o in _OFFS]


def _reached(start: Model, t: Model, r: float, base: float, budget: float) -> int:
    """How many leading bearings of a round contact ring (:data:`_OFFS` from ``base``,
    radius ``r`` around ``t``'s centre) may have a ring spot the move reaches; every
    later bearing has none (R12.03-d: :func:`_target_chunks` would drop its spots).

    A ring spot at gap ``g`` lies ``rho = r + g`` from ``t``'s centre (``TARGET_GAPS``:
    ``rho`` in [r1, r2]), on a bearing at angle ``delta`` from the start's (at ``dist``
    from ``t``): it is within ``L`` of the start only if ``cos(delta) >= (dist**2 + rho**2
    - L**2) / (2 * dist * rho)`` for some such ``rho``; that bound's least value on [r1,
    r2] is at ``rho = sqrt(dist**2 - L**2)`` clamped (where ``dist > L``; else at r1), so
    past ``acos`` of it no spot is reached. The bearing ``k`` is ``base + _OFFS[k]`` and
    ``base`` is the start's bearing plus ``j``: ``delta >= |_OFFS[k]| - |j|`` (a ring's
    offsets are at most pi). ``L`` is the move's limit plus 1e-6" and the angle 1e-6 more:
    far beyond the floats' rounding (1e-14) in the spots, the bearings and here."""
    sx, sy, tx, ty = start.x, start.y, t.x, t.y
    dist = math.hypot(sx - tx, sy - ty)
    if dist == 0.0:
        return BEARINGS
    far = budget - SLACK + 1e-6
    r1, r2 = r + TARGET_GAPS[0], r + TARGET_GAPS[-1]
    rho = min(max(math.sqrt(max(dist * dist - far * far, 0.0)), r1), r2)
    least = (dist * dist + rho * rho - far * far) / (2.0 * dist * rho)
    if least <= -1.0:
        return BEARINGS
    if least > 1.0 + 1e-9:
        return 0
    j = abs(math.remainder(base - math.atan2(sy - ty, sx - tx), 2 * math.pi))
    return bisect_right(_SIZES, math.acos(min(least, 1.0)) + j + 1e-6)


def _objective_spots(ctx: Context, start: Model, obj: ObjectiveData, budget: float,
                     jitter: float) -> list[tuple[float, float]]:
    """``melee_moves``' objective spots, rings around the marker (or the area's centre),
    then the straight move toward it."""
    spots = mm_._objective_spots(ctx, obj, mm_._radius(start))
    cx, cy = (spots[0] if obj.area is not None else (obj.x, obj.y))
    base = math.atan2(start.y - cy, start.x - cx) + jitter
    for d in (0.5, 1.5, 2.5, 3.5):
        spots += _ring(cx, cy, mm_.MARKER_RADIUS + mm_._radius(start) + d, base)
    spots = _reachable(start, spots, budget)
    dist = math.hypot(cx - start.x, cy - start.y)
    if dist > 0:
        k = min(1.0, (budget - SLACK) / dist)
        spots += [(start.x + f * k * (cx - start.x), start.y + f * k * (cy - start.y))
                  for f in STRAIGHT]
    flags = _in_range_flags(ctx, start, spots, obj)
    # (a spot equal to one in range is in range too: ``s not in in_range``'s split)
    return ([s for s, f in zip(spots, flags, strict=True) if f]
            + [s for s, f in zip(spots, flags, strict=True) if not f])


_RANGE_SPARE = 1e-6
"""Inches to spare in :func:`_in_range_flags`' bounds: far beyond the floats' rounding
(~1e-14" on a battlefield's coordinates)."""


def _in_range_flags(ctx: Context, start: Model, spots: Sequence[tuple[float, float]],
                    obj: ObjectiveData) -> list[bool]:
    """``mm_.in_objective_range(ctx, start.moved(x, y), obj)`` of each spot, the same
    answers. A marker (Appendix: ``in_range_of_marker``, within 3" horizontally of the
    marker's disc once within 5" vertically) is settled by the footprint's bounding and
    inner discs where they decide it by :data:`_RANGE_SPARE`: the moved model keeps its
    level, height and keywords (the vertical test is the start's) and its footprint's
    offset from its position, lies within its bounding disc (its distance to the marker's
    disc is at least the centres' distance less both radii) and holds its inner disc (at
    most that distance less the inner radius, never below 0). A hull (no inner disc used
    here), a spot within the spare of either bound and an area objective are measured."""
    if obj.area is not None:
        return [mm_.in_objective_range(ctx, start.moved(x, y), obj) for x, y in spots]
    marker = ObjectiveMarker(obj.x, obj.y)
    z0, z1 = vertical_extent(start)
    if max(0.0, marker.z - z1, z0 - marker.z) > MARKER_RANGE_VERTICAL + SHAPES_EPS:
        return [False] * len(spots)  # in_range_of_marker's vertical refusal, every spot
    fp = start.footprint()
    cx, cy = fp.center
    ox, oy = cx - start.x - obj.x, cy - start.y - obj.y
    mr = marker.shape().r
    far = bounding_radius(fp) + mr + MARKER_RANGE_HORIZONTAL + SHAPES_EPS + _RANGE_SPARE
    near = (-math.inf if isinstance(fp, Polygon) else
            inner_radius(fp) + mr + MARKER_RANGE_HORIZONTAL + SHAPES_EPS - _RANGE_SPARE)
    hypot = math.hypot
    out: list[bool] = []
    for x, y in spots:
        d = hypot(x + ox, y + oy)
        out.append(False if d > far else True if d <= near
                   else mm_.in_objective_range(ctx, start.moved(x, y), obj))
    return out


def _friend_spots(start: Model, mid: str, cur: dict[str, Model],
                  goal: tuple[float, float] | None, budget: float) -> Spots:
    """Rings around the unit's ``FRIENDS`` other models nearest to ``goal`` (the straight
    move's end; where they are so far), the spots the move reaches (as :func:`_reachable`
    measures), the spots nearest to ``goal`` first (a stable sort by
    ``math.hypot(x - goal x, y - goal y)``): ``pile_in_friends.friend_spots``, an (n, 2)
    array of them (the same floats in the same order)."""
    if goal is None:
        return []
    r = mm_._radius(start)
    gx, gy = goal
    hypot = math.hypot
    near = sorted((f for oid, f in cur.items() if oid != mid),
                  key=lambda f: hypot(f.x - gx, f.y - gy))[:FRIENDS]
    return pf.friend_spots(start, [(f.x, f.y, r + mm_._radius(f)) for f in near], goal,
                           budget - SLACK)


def _clear_of_friends(end: Model, mid: str, cur: dict[str, Model]) -> bool:
    """On no other model of the unit, where they are so far (03.01 Ending a Move)."""
    reach = end.reach()
    fp = end.footprint()
    for oid, o in cur.items():
        if oid == mid or math.hypot(o.x - end.x, o.y - end.y) > reach + o.reach() + CLEARANCE:
            continue
        if separation(fp, o.footprint()) <= CLEARANCE:
            return False
    return True


def _repair(ctx: Context, u: UnitData, d: mm_.MeleeMoveFrame, starts: dict[str, Model],
            cur: dict[str, Model], moved: dict[str, Model], closest: dict[str, UnitData | None],
            budget: float, move_type: MoveType) -> None:
    """R12.03-d / R12.08-b/c / R12.08-d: a moved model that ends unengaged (out of the
    objective's range) where the search of ``check_move`` finds a spot engaged (in range) is
    moved to the first such spot, else put back where it started, when the unit stays
    coherent (``cur``/``moved`` updated in place)."""
    obj = next((o for o in ctx.state.objectives if o.name == d.objective), None)
    for mid in list(moved):
        t = closest[mid]
        end = cur[mid]
        if t is not None:
            if mm_.Group.of_unit(t).engaged_any(end):  # engaged over t's models, R12.03-d
                continue
            if not mm_.can_reach(ctx, u, mid, cur, geo.unit_shapes(t), 2.0, budget, move_type):
                continue
        else:
            assert obj is not None
            if mm_.in_objective_range(ctx, end, obj):
                continue
            if not mm_._can_reach_objective(ctx, u, mid, cur, obj, budget):
                continue
        spot = _reach_spot(ctx, u, mid, cur, t, obj, budget, move_type)
        if spot is not None:
            cur[mid] = moved[mid] = starts[mid].moved(*spot)
            continue
        back = {**cur, mid: starts[mid]}
        if not coherency_breaks(list(back.values())):
            cur[mid] = starts[mid]
            del moved[mid]


def _reach_spot(ctx: Context, u: UnitData, mid: str, cur: dict[str, Model],
                t: UnitData | None, obj: ObjectiveData | None, budget: float,
                move_type: MoveType) -> tuple[float, float] | None:
    """The first spot ``check_move``'s search accepts (``melee_moves._candidates`` or the
    objective spots), with the unit as ``cur``."""
    start = geo.model_shape(next(m for m in u.alive if m.id == mid))
    scene = mm_._scene_with(ctx, u, cur, keep=mid)
    if t is not None:
        tshapes = geo.unit_shapes(t)
        cands = mm_._candidates(start, tshapes, 2.0, budget)
    else:
        assert obj is not None
        cands = mm_._objective_spots(ctx, obj, mm_._radius(start))
    for x, y in cands:
        x, y = round(x, 6), round(y, 6)
        if math.hypot(x - start.x, y - start.y) > budget - 1e-5:
            continue
        end = start.moved(x, y)
        if t is not None:
            if not any(engaged(end, s) for s in tshapes):
                continue
        elif obj is None or not mm_.in_objective_range(ctx, end, obj):
            continue
        if mm_.surely_refused(scene, u.id, mid, end, move_type):
            continue
        if not validate_move(scene, u.id, {mid: [Step(x, y)]}, move_type, budget,
                             skip=(ENDS_CHECKED,), first=True):  # surely_refused: no ending
            return (x, y)
    return None
