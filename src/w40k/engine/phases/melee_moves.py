"""Charge, pile-in, consolidation and surge moves (11.04, 12.03, 12.08, 21.02): one frame kind,
``melee_move`` (a surge is pushed by ``engine/phases/surge.py``; its checks are there).

The frame asks (optionally) for the move's targets, then for the positions; an answer is
checked by ``geometry.validate_move`` plus the move type's own constraints, each refused with
its checklist ID, and applied when legal. Declining the move is always legal (charge: answer
``"fail"``; pile-in/consolidation: ``"skip"``; 12 sidebar: these moves are optional).

Positions answer (docs/battle.md): ``{"<model id>": [[x, y], ...]}`` -- a path of waypoints per
moved model; models left out do not move. ``[x, y, z]`` waypoints change level.

"Can end within 1"/engaged/within range" (11.04, 12.03, 12.08) is decided by a search: the
model *can* when a straight-line move of it alone, with the rest of its unit where the answer
puts them, reaches a spot next to a target model and passes ``validate_move`` (24 bearings
around each target model in reach). A spot the search does not find is never demanded, so a
legal move is never refused for it (docs/rulings.md R11.04-c).

The measures (distances, engagement with a group, objective range, base contact) live in
``melee_measure.py`` and are re-exported here.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from w40k.core import kept
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine import field, geo
from w40k.engine import moves as moves_mod
from w40k.engine.actions import interrupt
from w40k.engine.context import Context
from w40k.engine.frames import FrameData
from w40k.engine.phases.melee_greedy import REFUSED as REFUSED
from w40k.engine.phases.melee_greedy import _greedy as _greedy
from w40k.engine.phases.melee_greedy import _Refused as _Refused
from w40k.engine.phases.melee_measure import BEARINGS as BEARINGS
from w40k.engine.phases.melee_measure import CONTACT as CONTACT
from w40k.engine.phases.melee_measure import EPS as EPS
from w40k.engine.phases.melee_measure import MARKER_RADIUS as MARKER_RADIUS
from w40k.engine.phases.melee_measure import Group as Group
from w40k.engine.phases.melee_measure import _base_contact_enemy as _base_contact_enemy
from w40k.engine.phases.melee_measure import _objective_spots as _objective_spots
from w40k.engine.phases.melee_measure import _radius as _radius
from w40k.engine.phases.melee_measure import _shapes_distance as _shapes_distance
from w40k.engine.phases.melee_measure import base_contact_enemy as base_contact_enemy
from w40k.engine.phases.melee_measure import closer_to_unit as closer_to_unit
from w40k.engine.phases.melee_measure import engaged_with_unit as engaged_with_unit
from w40k.engine.phases.melee_measure import in_objective_range as in_objective_range
from w40k.engine.phases.melee_measure import model_to_unit as model_to_unit
from w40k.engine.phases.melee_measure import objective_distance as objective_distance
from w40k.engine.phases.melee_measure import unit_distance as unit_distance
from w40k.engine.phases.melee_measure import units_within as units_within
from w40k.engine.phases.melee_near_kept import near_codes
from w40k.engine.propose_moves import Rings, overlapping_rows, through_enemy
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import ObjectiveData, UnitData, placement_count
from w40k.engine.windows import Window, open_window
from w40k.geometry import Model, Scene, engaged
from w40k.geometry.battlefield import Layout, any_engaged, engaged_bounds
from w40k.geometry.measure import (
    COHERENCY_NEIGHBOUR,
    ENGAGEMENT_HORIZONTAL,
    coherency_breaks,
    horizontal_distance,
    overlaps,
)
from w40k.geometry.movement import (
    ENDS_CHECKED,
    MoveType,
    Step,
    centre_in_solid,
    ending_violations,
    scene_others,
    share_others,
    solid_outlines,
    validate_move,
)
from w40k.geometry.shapes import EPS as GEPS
from w40k.geometry.shapes import Circle

MOVE_TYPES = {"charge": MoveType.CHARGE, "pile_in": MoveType.PILE_IN,
              "consolidate": MoveType.CONSOLIDATE, "surge": MoveType.OTHER}
DECLINE = {"charge": "fail", "pile_in": "skip", "consolidate": "skip", "surge": "skip"}
"""The answer that declines each move."""
ENGAGE_SCREEN = ENGAGEMENT_HORIZONTAL + 1e-3
"""Inches between two units' layout boxes past which no model of one is engaged with a
model of the other (03.04; as ``melee_measure.Group.engaged_any``'s screen)."""


_TARGETS_KIND = {"charge": K.CHARGE_TARGETS, "pile_in": K.PILE_IN_TARGETS,
                 "consolidate": K.CONSOLIDATE_TARGETS}
"""The targets request of each move type."""


def subsets(ids: Sequence[str], cap: int = 6) -> list[JSON]:
    """Non-empty subsets as sorted id lists (all of them up to ``cap`` ids; beyond, subsets of
    at most three)."""
    ids = sorted(ids)
    top = len(ids) if len(ids) <= cap else 3
    return [list[JSON](c) for k in range(1, top + 1) for c in combinations(ids, k)]


# -- parsing and applying positions ----------------------------------------------------------
def parse_positions(u: UnitData, choice: JSON) -> dict[str, list[Step]]:
    """``engine.moves.parse_positions``, plus: every listed model is a living model of ``u``."""
    out = moves_mod.parse_positions(choice, [m.id for m in u.models])
    alive = {m.id for m in u.alive}
    for mid in out:
        if mid not in alive:
            raise MalformedChoice(f"positions: {mid!r} is not a living model of {u.id}")
    return out


def finals_of(u: UnitData, moves: Mapping[str, Sequence[Step]]) -> dict[str, Model]:
    """Each living model's shape where the move leaves it."""
    out: dict[str, Model] = {}
    for m in u.alive:
        shape = geo.model_shape(m)
        for s in moves.get(m.id, ()):
            shape = shape.moved(s.x, s.y, shape.z if s.z is None else s.z,
                                shape.facing if s.facing is None else s.facing)
        out[m.id] = shape
    return out


def _scene_with(ctx: Context, u: UnitData, finals: Mapping[str, Model],
                keep: str | None = None) -> Scene:
    """The scene with ``u``'s models at ``finals`` (except ``keep``, left where it is)."""
    base = geo.scene(ctx)
    units = []
    found = False
    for gu in base.units:
        if gu.name == u.id:
            gu = dataclasses.replace(gu, models=_placed(gu.models, finals, keep))
            found = True
        units.append(gu)
    out = Scene(base.battlefield, base.terrain, tuple(units))
    if found:
        share_others(out, base, u.id)  # the other units are base's: the same others' discs
    return out


def _placed(models: Sequence[Model], finals: Mapping[str, Model], keep: str | None
            ) -> tuple[Model, ...]:
    """:func:`_scene_with`'s models of the unit: ``finals``' in the scene unit's order, but
    ``keep``'s own (``models``: the scene unit's)."""
    return tuple(m if m.name == keep else finals[m.name] for m in models)


def _overlapping(ctx: Context, u: UnitData, finals: Mapping[str, Model], mid: str,
                 start: Model,
                 spots: Sequence[tuple[float, float]] | npt.NDArray[np.float64], *,
                 ovals: bool = False) -> list[bool]:
    """``surely_overlapping(_scene_with(ctx, u, finals, keep=mid), u.id, mid, start,
    spots, ovals=ovals)`` without that scene: its unit's models (:func:`_placed`) and its
    other models (the base scene's ``scene_others`` list, which ``share_others`` enters for
    it), so the same rows and answer; the scene is built only where a spot is left to
    validate."""
    base = geo.scene(ctx)
    gu = base.unit(u.id)
    others, _ = scene_others(base, u.id, gu.player)
    return overlapping_rows(_placed(gu.models, finals, mid), others, mid, start, spots,
                            ovals=ovals)


# -- "can": a search over straight-line moves ----------------------------------------------
_CANDIDATES: dict[tuple[int, tuple[int, ...], float, float],
                  tuple[Model, tuple[Model, ...], list[tuple[float, float]],
                        npt.NDArray[np.float64]]] = kept.table()
""":func:`_candidates`' answers by (model, targets, gap, budget), the models' ids, with the
models (an entry holds them, so an ``id`` is not reused while kept; a few entries)."""


def _candidates(m: Model, targets: Sequence[Model], gap: float, budget: float
                ) -> list[tuple[float, float]]:
    """The spots of ``can_reach``'s search (callers only read the list): the one built
    before for the same model objects (kept while they stand still, ``engine/field.py``),
    gap and budget; the charge repair's search and ``check_move``'s ask the same."""
    return candidate_rows(m, targets, gap, budget)[0]


def candidate_rows(m: Model, targets: Sequence[Model], gap: float, budget: float
                   ) -> tuple[list[tuple[float, float]], npt.NDArray[np.float64]]:
    """:func:`_candidates` and the same spots as rows (x, y) of an array (callers only read
    it): the floats of the list, kept with it, so that each search need not convert the list
    again (``can_reach`` measured it three times, the charge repair once)."""
    key = (id(m), tuple(id(t) for t in targets), gap, budget)
    hit = _CANDIDATES.get(key)
    if hit is not None and hit[0] is m and all(
            a is b for a, b in zip(hit[1], targets, strict=True)):
        return hit[2], hit[3]
    out, rows = _spots_and_rows(m, targets, gap, budget)
    if len(_CANDIDATES) >= 64:
        _CANDIDATES.clear()
    _CANDIDATES[key] = (m, tuple(targets), out, rows)
    return out, rows


def _candidate_spots(m: Model, targets: Sequence[Model], gap: float, budget: float
                     ) -> list[tuple[float, float]]:
    """:func:`_candidates`, built: per target model in reach, rings at two gaps (in order)
    of :data:`BEARINGS` spots, the nearest bearing first, within the move."""
    return _spots_and_rows(m, targets, gap, budget)[0]


def _spots_and_rows(m: Model, targets: Sequence[Model], gap: float, budget: float
                    ) -> tuple[list[tuple[float, float]], npt.NDArray[np.float64]]:
    """:func:`_candidate_spots` and its rows (:func:`candidate_rows`): the kept rows of the
    rings' array, whose ``tolist`` makes the list."""
    from w40k.engine.phases.charge_order import _within_rows
    r = _radius(m)
    gaps = sorted({min(gap * 0.5, 0.25), gap * 0.95})
    rings = Rings()
    for t in targets:
        if horizontal_distance(m, t) > budget + gap + EPS:
            continue
        # ``bearings``' cosines and sines of ``base + (k + 1) // 2 * (+-1) * 2 * pi /
        # BEARINGS``, the angles of the search (the same floats, one set per target model),
        # less the spots beyond the move (``Rings.add_near``: dropped below anyway)
        rt = _radius(t)
        rings.add_near(t.x, t.y, [r + rt + g for g in gaps], m, 0.0, BEARINGS, budget + EPS)
    pts = rings.points(None)
    if not len(pts):
        return [], pts
    # every ring's spots at once, ring by ring, bearing by bearing: ``t.x + d * cos(a)``,
    # numpy's float64 products and sums being Python's; ``math.hypot(x - m.x, y - m.y) <=
    # budget + EPS`` per spot (``_within_rows``: ``_within_exact``'s verdicts)
    rows = pts[_within_rows(m, pts, budget + EPS)]
    return [(x, y) for x, y in rows.tolist()], rows


def can_reach(ctx: Context, u: UnitData, mid: str, finals: Mapping[str, Model],
              targets: Sequence[Model], gap: float, budget: float, move_type: MoveType,
              ok: object = None, *, avoid: Sequence[Model] = (),
              memo: dict[tuple[str, float, float], bool] | None = None) -> bool:
    """Whether model ``mid`` alone could end within ``gap`` of one of ``targets`` by a legal
    straight-line move, with the rest of its unit at ``finals``; a spot engaged with one of
    ``avoid`` does not count (a charge: the non-target enemy models, R11.04-d). ``memo``
    keeps each spot's verdict for the same ``finals`` (a second search of the same model
    repeats none)."""
    start = geo.model_shape(next(m for m in u.alive if m.id == mid))
    cands, rows = candidate_rows(start, targets, gap, budget)  # rows: the list's floats
    if not cands:
        return False
    memo = {} if memo is None else memo
    avoid_group: Group | None = None  # built when a spot needs it (most searches none)
    scene: Scene | None = None
    # Both spot tests for every candidate at once where bounds settle them (1: passes,
    # 0: fails, -1: measured exactly below; the same answers).
    # gap_tri's, kept (the check's repeat); with round bases throughout every spot is
    # surely within (:func:`_rings_within`): all 1, not measured
    near = [1] * len(cands) if _rings_within(start, targets) else \
        near_codes(start, rows, targets, gap + EPS)
    if avoid:
        sure, maybe = engaged_bounds(start, rows, avoid)
        clear = np.where(sure, 0, np.where(maybe, -1, 1)).tolist()
    else:
        clear = [1] * len(cands)
    over: list[bool] | None = None
    for i, ((x, y), k, c) in enumerate(zip(cands, near, clear, strict=True)):
        if not k or not c:
            continue
        # the model at the spot is made where a test reads it (most spots are settled by
        # the bounds, then by ``over``)
        end = start.moved(x, y) if k < 0 or c < 0 else None
        if end is not None and k < 0 and \
                not any(horizontal_distance(end, t) <= gap + EPS for t in targets):
            continue
        if end is not None and c < 0:
            if avoid_group is None:
                avoid_group = Group(avoid)
            if avoid_group.engaged_any(end):
                continue
        key = (mid, x, y)
        legal = memo.get(key)
        if legal is None:
            if over is None:
                over = _overlapping(ctx, u, finals, mid, start, rows)
            if over[i]:
                legal = memo[key] = False
                continue
            if scene is None:
                scene = _scene_with(ctx, u, finals, keep=mid)
            if end is None:
                end = start.moved(x, y)
            legal = memo[key] = not surely_refused(scene, u.id, mid, end, move_type) \
                and not validate_move(scene, u.id, {mid: [Step(x, y)]}, move_type, budget,
                                      skip=(ENDS_CHECKED,), first=True)
        if legal:
            return True
    return False


def _rings_within(start: Model, targets: Sequence[Model]) -> bool:
    """Whether ``start`` and every one of ``targets`` have a round base (a ``Circle``
    footprint: ``Model.base``'s, centred on the model with radius :func:`_radius`): then
    every spot of ``candidate_rows(start, targets, gap, budget)`` is within ``gap + EPS``
    of a target model horizontally, as ``gap_tri`` would find it (1) or measure it. Each
    spot lies on a ring of radius ``r + rt + g`` (``g``: half the gap capped at 1/4", or
    0.95 of it) around a target model's centre (``cx + d * cos(a)``, ``cy + d * sin(a)``:
    its distance to the centre is ``d`` within ~1e-13" of rounding), so its horizontal
    distance to that model, ``hypot - r - rt`` for two circles, is ``g`` within that
    rounding: below ``gap + EPS`` by at least ``0.05 * gap + EPS``."""
    if type(start.footprint()) is not Circle:
        return False
    return all(type(t.footprint()) is Circle for t in targets)


def surely_refused(scene: Scene, unit: str, mid: str, end: Model,
                   move_type: MoveType | None = None) -> bool:
    """Whether ``validate_move`` surely refuses moving model ``mid`` of ``unit`` to ``end`` in
    ``scene`` (the rest of the unit where the scene has it), by four of its own cheap tests:
    the battlefield edge (R03.01-f), ending on another model (R03.01-c), coherency
    (R03.03-d), ending partway through a terrain feature (``ending_violations``, R03.01-i /
    R13.06); given the move type, a fifth: the straight path through an enemy model
    (R03.01-d, ``propose_moves.through_enemy``). False says nothing: ``validate_move`` still
    decides (a prefilter, same answers, without its other path tests)."""
    bf = scene.battlefield
    fp = end.footprint()
    x0, y0, x1, y1 = fp.bbox()
    if x0 < -GEPS or y0 < -GEPS or x1 > bf.width + GEPS or y1 > bf.depth + GEPS:
        return True
    # a round base centred inside a solid feature ends partway through it (its
    # ``ending_violations`` are not empty, tested below): settled before the other tests
    if type(fp) is Circle and centre_in_solid(solid_outlines(scene.terrain, end.z),
                                              fp.cx, fp.cy):
        return True
    gu = scene.unit(unit)
    placed = [end if m.name == mid else m for m in gu.models]
    ex, ey, reach = end.x, end.y, end.reach() + 1e-6  # farther apart: no overlap
    if any(o.name != mid and math.hypot(o.x - ex, o.y - ey) <= reach + o.reach()
           and overlaps(end, o) for o in placed):
        return True
    others, discs = scene_others(scene, unit, gu.player)
    if any(others[i][1].name != mid and overlaps(end, others[i][1])
           for i in discs.near_segment(end.x, end.y, end.x, end.y, end.reach(), 0.0)):
        return True
    if len(placed) > 1 and all(
            math.hypot(o.x - ex, o.y - ey) - reach - o.reach() > COHERENCY_NEIGHBOUR + GEPS + 1e-6
            for o in placed if o.name != mid):
        return True  # R03.03-a: no other model within 2" (the reach discs' gap bounds it)
    # ending partway through a feature before the whole unit's coherency: the answer is the
    # same (either refuses), and the charge searches' spots mostly end in a ruin's walls
    if ending_violations(scene.terrain, end):
        return True
    if coherency_breaks(placed):
        return True
    start = next(m for m in gu.models if m.name == mid)
    return move_type is not None and through_enemy(scene, unit, gu.player, start, end.x,
                                                   end.y, move_type)


# -- the frame ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class MeleeMoveFrame(FrameData):
    """A charge, pile-in or consolidation move (module docstring): its targets (given or
    asked), the objective (objective consolidation), then the positions."""

    KIND = "melee_move"
    unit: str
    """The moving unit."""
    move_type: str
    """``charge``, ``pile_in`` or ``consolidate`` (:data:`MOVE_TYPES`)."""
    max_distance: float
    """The most a model may move."""
    targets: tuple[str, ...] | None = None
    """The targets (None: not selected yet, asked among ``target_options``)."""
    target_options: JSON = None
    """The options of the targets request (sorted id lists and the declining answer)."""
    mode: str = ""
    """The consolidation mode (12.08: ``ongoing``, ``engaging``, ``objective``)."""
    objective: str | None = None
    """The objective consolidated toward, once selected."""
    objective_options: tuple[str, ...] | None = None
    """The objectives to select from (objective consolidation)."""
    parent: str = ""
    """``overrun`` for the pile-in of an overrun fight."""
    result: str | None = None
    """``moved`` or ``declined`` once the move is over."""
    before_active: str = ""
    """The player active before the move (active again after it, R01.03-c)."""


def push_move(ctx: Context, unit: UnitData, move_type: str, max_distance: float, *,
              targets: list[str] | None = None, target_options: list[JSON] | None = None,
              mode: str = "", objective_options: list[str] | None = None,
              parent: str = "") -> None:
    """Push a ``melee_move`` frame. Give ``targets`` (fixed) or ``target_options`` (asked),
    or for objective consolidation ``objective_options``."""
    ctx.push(MeleeMoveFrame(
        unit.id, move_type, float(max_distance),
        targets=None if targets is None else tuple(targets),
        target_options=None if target_options is None else list(target_options), mode=mode,
        objective_options=None if objective_options is None else tuple(objective_options),
        parent=parent, before_active=ctx.state.active))


def _targets_json(frame: MeleeMoveFrame) -> JSON:
    return None if frame.targets is None else list[JSON](frame.targets)


def _run(ctx: Context, frame: MeleeMoveFrame) -> Request | None:
    u = ctx.state.unit(frame.unit)
    mt = frame.move_type
    if u.destroyed or frame.result is not None:
        # R01.03-c: the move has ended; whoever was active before it is active again.
        ctx.state.active = frame.before_active or ctx.state.turn_player
        ctx.pop()
        return None
    ctx.state.active = u.player  # R01.03-c: the moving unit's controller, until it ends
    rule = {"charge": "R11.04-a", "pile_in": "R12.03-b", "consolidate": "R12.08-c",
            "surge": "R21.02-b"}[mt]
    if frame.targets is None and frame.objective_options is None:
        opts = cast(list[JSON], frame.target_options)
        return request(u.player, _TARGETS_KIND[mt], rule,
                       f"{u.name}: select the {mt.replace('_', '-')} targets", tuple(opts),
                       context={"unit": u.id})
    if frame.objective_options is not None and frame.objective is None:
        return request(u.player, K.CONSOLIDATE_OBJECTIVE, "R12.08-d",
                       f"{u.name}: select the objective to consolidate toward",
                       tuple[JSON, ...](frame.objective_options), context={"unit": u.id})
    return request(u.player, K.POSITIONS, {"charge": "R11.04-b", "pile_in": "R12.03-d",
                                           "consolidate": "R12.08-b",
                                           "surge": "R21.02-b"}[mt],
                   f"{u.name}: {mt.replace('_', '-')} move (up to "
                   f"{frame.max_distance:g}\"), or "
                   f"{DECLINE[mt]!r}", free_form="positions",
                   context={"unit": u.id, "move_type": mt, "max_distance": frame.max_distance,
                            "targets": _targets_json(frame),
                            "toward": _centre(ctx, _targets_json(frame)),
                            "mode": frame.mode,
                            "objective": frame.objective, "decline": DECLINE[mt]})


def _centre(ctx: Context, targets: JSON) -> JSON:
    ms = [m for t in cast(list[JSON], targets or []) for m in ctx.state.unit(str(t)).alive]
    if not ms:
        return None
    return [sum(m.x for m in ms) / len(ms), sum(m.y for m in ms) / len(ms)]


def _apply(ctx: Context, frame: MeleeMoveFrame, request: Request, choice: JSON) -> None:
    u = ctx.state.unit(frame.unit)
    mt = frame.move_type
    if request.kind in _TARGETS_KIND.values():
        if choice == DECLINE[mt]:
            ctx.replace(frame, replace(frame, result="declined"))
            ctx.log(f"{mt}_declined", unit=u.id)
            return
        ctx.replace(frame, replace(frame, targets=tuple(
            str(t) for t in cast(list[JSON], choice))))
        if mt == "charge":
            ctx.log("charge_targets", unit=u.id, targets=choice)
            open_window(ctx, Window.TARGETS_SELECTED, unit=u.id, action="charge",
                        targets=choice)
        return
    if request.kind == "consolidate_objective":
        ctx.replace(frame, replace(frame, objective=str(choice)))
        return
    if choice == DECLINE[mt]:
        ctx.replace(frame, replace(frame, result="declined"))
        ctx.log(f"{mt}_declined", unit=u.id)
        return
    moves = parse_positions(u, choice)
    violations = check_move(ctx, u, moves, frame)
    if violations:
        rule, msg = violations[0]
        raise IllegalChoice(f"{mt.replace('_', '-')} move of {u.id}: {msg}", rule=rule)
    dist = moves_mod.apply_positions(ctx, u, moves)
    u.max_move = max([u.max_move, *dist.values()])
    u.flags["moved_this_phase"] = True  # R21.02-a / R21.02-c
    ctx.replace(frame, replace(frame, result="moved"))
    if mt == "surge":
        u.flags["surged"] = True  # R21.02-c: no further move this phase
        interrupt(ctx, u.id, "surge move")  # R16.01-c
    if mt == "charge":
        # R11.04-e: a charge move gives Fights First until the end of the turn.
        u.flags["charged"] = True
        u.flags["fights_first"] = True
        interrupt(ctx, u.id, "charge move")  # R16.01-c
    ctx.log(f"{mt}_move", unit=u.id,
            positions={m.id: [m.x, m.y] for m in u.alive if m.id in moves})
    if mt == "charge":
        open_window(ctx, Window.CHARGE_MOVE_ENDED, unit=u.id)  # 15.06 Crushing Impact


# -- the constraints -----------------------------------------------------------------------------
def _enemies(ctx: Context, u: UnitData) -> list[UnitData]:
    return [e for e in ctx.state.units if e.player != u.player and not e.destroyed]


_CHECKED: dict[tuple[int, int, int, int, tuple[object, ...]],
               tuple[object, object, UnitData, Scene, list[tuple[str, str]]]] = kept.table()
""":func:`check_move`'s answers by (state, frame, unit, ``placement_count``, moves): the
state, the frame, the unit and the scene they were checked in (an entry holds them, so their
``id`` is not reused while kept); a few entries (the proposer checks its answer, then the
frame checks the same answer when it is submitted)."""


def check_move(ctx: Context, u: UnitData, moves: Mapping[str, Sequence[Step]],
               d: MeleeMoveFrame) -> list[tuple[str, str]]:
    """Every rule the move breaks, as (checklist ID, message); empty when legal. The same
    moves of the same unit, asked again by the same frame in the same state and scene while
    no model is placed, get the answer found before (a copy): the proposer checks its answer
    and ``_apply`` checks it again when it is submitted."""
    scene = geo.scene(ctx)
    key = (id(ctx.state), id(d), id(u), placement_count(), _moves_key(moves))
    hit = _CHECKED.get(key)
    if (hit is not None and hit[0] is ctx.state and hit[1] is d and hit[2] is u
            and hit[3] is scene):
        return list(hit[4])
    out = _check_move(ctx, u, moves, d)
    if len(_CHECKED) >= 8:
        _CHECKED.clear()
    _CHECKED[key] = (ctx.state, d, u, scene, list(out))
    return out


def _check_move(ctx: Context, u: UnitData, moves: Mapping[str, Sequence[Step]],
                d: MeleeMoveFrame) -> list[tuple[str, str]]:
    """:func:`check_move`, checked."""
    mt = d.move_type
    budget = d.max_distance
    move_type = MOVE_TYPES[mt]
    out = [(v.rule, f"{v.model}: {v.message}") for v in
           validate_move(geo.scene(ctx), u.id, moves, move_type, budget)]
    if out:
        return out
    finals = finals_of(u, moves)
    targets = [ctx.state.unit(t) for t in d.targets or ()]
    enemies = _enemies(ctx, u)
    if mt == "charge":
        out += _check_charge(ctx, u, moves, finals, targets, enemies, budget)
    elif mt == "pile_in" or (mt == "consolidate" and d.mode in ("ongoing", "engaging")):
        out += _check_toward(ctx, u, moves, finals, targets, budget, move_type, mt, d.mode)
    elif mt == "consolidate":
        obj = next(o for o in ctx.state.objectives if o.name == d.objective)
        out += _check_objective(ctx, u, moves, finals, obj, budget)
    elif mt == "surge":
        from w40k.engine.phases.surge import check_surge  # surge.py pushes this frame
        out += check_surge(ctx, u, moves, finals, targets, enemies, budget)
    return out


def _check_charge(ctx: Context, u: UnitData, moves: Mapping[str, Sequence[Step]],
                  finals: Mapping[str, Model], targets: list[UnitData],
                  enemies: list[UnitData], budget: float) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    tshapes = [s for t in targets for s in geo.unit_shapes(t)]
    # R11.04-c read with R11.04-d (docs/rulings.md): a spot engaged with an enemy unit that
    # is not a charge target is no spot the model "can" end at (the move would fail there).
    avoid = [s for e in enemies if e not in targets for s in geo.unit_shapes(e)]
    for m in u.alive:
        start, end = geo.model_shape(m), finals[m.id]
        # R11.04-b: each model ends closer to one or more charge targets.
        if not any(closer_to_unit(end, t, model_to_unit(start, t) - EPS) for t in targets):
            out.append(("R11.04-b", f"{m.id} does not end closer to a charge target"))
            continue
        # R11.04-c: within 1" if it can; engaged if it can.
        memo: dict[tuple[str, float, float], bool] = {}
        for gap, what in ((1.0, 'within 1"'), (2.0, "engaged with")):
            if any(horizontal_distance(end, t) <= gap + EPS and
                   (gap < 2.0 or engaged(end, t)) for t in tshapes):
                continue
            if can_reach(ctx, u, m.id, finals, tshapes, gap, budget, MoveType.CHARGE,
                         avoid=avoid, memo=memo):
                out.append(("R11.04-c", f"{m.id} can end {what} a charge target but does not"))
                break
    if out:
        return out
    if _engagement_clear(ctx, u, moves, targets):
        return []  # surely_refused_charge measured these finals just now
    return _engagement_violations(finals, targets, enemies)


def _engagement_violations(finals: Mapping[str, Model], targets: Sequence[UnitData],
                           enemies: Sequence[UnitData]) -> list[tuple[str, str]]:
    """R11.04-d: engaged with every charge target and with no other enemy unit (every pair
    of models at once: battlefield.any_engaged, the answer of engaged over the pairs)."""
    out: list[tuple[str, str]] = []
    ends = Layout.of(list(finals.values()))
    for t in targets:
        if not any_engaged(ends, field.layout(t)):
            out.append(("R11.04-d", f"the unit does not end engaged with charge target {t.id}"))
    for e in enemies:
        if e not in targets and any_engaged(ends, field.layout(e)):
            out.append(("R11.04-d", f"the unit ends engaged with {e.id}, not a charge target"))
    return out


def surely_refused_charge(ctx: Context, u: UnitData, answer: JSON,
                          targets: Sequence[UnitData]) -> bool:
    """Whether :func:`check_move` surely refuses a charge answer (parsed by
    :func:`parse_positions`) because the unit would end out of engagement with a charge
    target or engaged with another enemy unit (R11.04-d): ``_check_charge``'s last test, which
    refuses the answer whatever the tests before it say (they refuse it or let it reach this
    one); a cheap test, before their ``can_reach`` searches. False says nothing."""
    moves = parse_positions(u, answer)
    out = _engagement_violations(finals_of(u, moves), targets, _enemies(ctx, u))
    _CLEAR[:] = [] if out else [(ctx.state, placement_count(), u,
                                 tuple(t.id for t in targets), _moves_key(moves))]
    return bool(out)


_CLEAR: list[tuple[object, int, UnitData, tuple[str, ...], tuple[object, ...]]] = kept.slot()
"""The last :func:`surely_refused_charge` that found no R11.04-d violation: the state,
``placement_count``, unit, targets' ids and moves (:func:`_moves_key`) it measured."""


def _moves_key(moves: Mapping[str, Sequence[Step]]) -> tuple[object, ...]:
    """The moves as a key (``check_move``'s: equal steps, the same move)."""
    return tuple((mid, tuple(moves[mid])) for mid in sorted(moves))


def _engagement_clear(ctx: Context, u: UnitData, moves: Mapping[str, Sequence[Step]],
                      targets: Sequence[UnitData]) -> bool:
    """Whether :func:`surely_refused_charge` found no R11.04-d violation for these very
    moves of ``u`` toward these targets in this state while no model was placed since: the
    same finals (``finals_of`` of the same steps and starts), targets and enemies, so
    ``_engagement_violations`` would find none again (the proposer's chain is screened by
    it, then checked)."""
    if not _CLEAR:
        return False
    state, now, unit, tids, key = _CLEAR[0]
    return (state is ctx.state and now == placement_count() and unit is u
            and tids == tuple(t.id for t in targets) and key == _moves_key(moves))


def _check_toward(ctx: Context, u: UnitData, moves: Mapping[str, Sequence[Step]],
                  finals: Mapping[str, Model], targets: list[UnitData], budget: float,
                  move_type: MoveType, mt: str, mode: str) -> list[tuple[str, str]]:
    """12.03 pile-in; 12.08 ongoing/engaging consolidation."""
    out: list[tuple[str, str]] = []
    pile = mt == "pile_in"
    base_rule = "R12.03-c" if pile else "R12.08-b"
    toward_rule = "R12.03-d" if pile else ("R12.08-b" if mode == "ongoing" else "R12.08-c")
    contact_locked = pile or mode == "ongoing"
    engaged_seen = False  # some moved model found engaged with an enemy unit (R12.03-e)
    for m in u.alive:
        if m.id not in moves:
            continue
        start, end = geo.model_shape(m), finals[m.id]
        if contact_locked and base_contact_enemy(ctx, u, m):
            out.append((base_rule, f"{m.id} is in base contact with an enemy model and "
                                   "cannot be moved"))
            continue
        if not targets:
            continue
        closest = min(targets, key=lambda t: model_to_unit(start, t))
        if not closer_to_unit(end, closest, model_to_unit(start, closest) - EPS):
            out.append((toward_rule, f"{m.id} does not end closer to the closest target "
                                     f"{closest.id}"))
            continue
        # engaged with a model of the closest target (Group.engaged_any: measured only
        # where the bounding discs come within range, the answer of engaged over them all)
        if Group.of_unit(closest).engaged_any(end):
            engaged_seen = engaged_seen or closest.player != u.player
        elif can_reach(ctx, u, m.id, finals, geo.unit_shapes(closest), 2.0, budget,
                       move_type):
            out.append((toward_rule, f"{m.id} can end engaged with {closest.id} but does not"))
    if out:
        return out
    # R12.03-e: the unit ends engaged. A moved model found engaged above with a model of an
    # enemy unit settles it: ``engaged_any`` and ``any_engaged`` both give ``engaged`` over
    # their pairs, and that end and the enemy's living models are among those pairs.
    if pile and not engaged_seen:
        ends = Layout.of(list(finals.values()))
        if not any(any_engaged(ends, field.layout(e)) for e in _enemies(ctx, u)):
            out.append(("R12.03-e", "the unit does not end engaged"))
    if pile or mode == "ongoing":
        # R12.03-e (R12.08-f reading for ongoing consolidation): a model that started engaged
        # with an enemy unit is still engaged with it.
        rule = "R12.03-e" if pile else "R12.08-f"
        # An enemy unit whose layout box is out of engagement range of the unit's box (1e-3"
        # to spare: the boxes hold every bounding disc, so their gap is a lower bound of
        # every pair's distance) is engaged with none of its models' starts (03.04): it
        # adds no entry, so it is not measured (as pile_in_propose screens them).
        box = field.layout(u)
        groups = [(e, Group.of_unit(e)) for e in _enemies(ctx, u)
                  if box.box_gap(field.layout(e)) <= ENGAGE_SCREEN]
        for m in u.alive:
            start, end = geo.model_shape(m), finals[m.id]
            if end is start:
                continue  # not moved (``finals_of`` keeps its shape): engaged as it started
            for e, g in groups:
                if engaged_with_unit(start, e) and not g.engaged_any(end):
                    out.append((rule, f"{m.id} started engaged with {e.id} and no longer is"))
    return out


def _check_objective(ctx: Context, u: UnitData, moves: Mapping[str, Sequence[Step]],
                     finals: Mapping[str, Model], obj: ObjectiveData, budget: float
                     ) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for m in u.alive:
        if m.id not in moves:
            continue
        start, end = geo.model_shape(m), finals[m.id]
        if in_objective_range(ctx, end, obj):
            continue
        if _can_reach_objective(ctx, u, m.id, finals, obj, budget):
            out.append(("R12.08-d", f"{m.id} can end within range of {obj.name} but does not"))
        elif not objective_distance(ctx, end, obj) < objective_distance(ctx, start, obj) - EPS:
            out.append(("R12.08-d", f"{m.id} does not end closer to {obj.name}"))
    return out


def _can_reach_objective(ctx: Context, u: UnitData, mid: str, finals: Mapping[str, Model],
                         obj: ObjectiveData, budget: float) -> bool:
    start = geo.model_shape(next(m for m in u.alive if m.id == mid))
    scene = _scene_with(ctx, u, finals, keep=mid)
    for x, y in _objective_spots(ctx, obj, _radius(start)):
        if math.hypot(x - start.x, y - start.y) > budget + EPS:
            continue
        if not in_objective_range(ctx, start.moved(x, y), obj):
            continue
        if surely_refused(scene, u.id, mid, start.moved(x, y), MoveType.CONSOLIDATE):
            continue
        if not validate_move(scene, u.id, {mid: [Step(x, y)]}, MoveType.CONSOLIDATE, budget,
                             skip=(ENDS_CHECKED,), first=True):  # surely_refused: no ending
            return True
    return False


# -- the proposer -----------------------------------------------------------------------------
def propose_melee_move(ctx: Context, request: Request, rng: random.Random) -> JSON:
    """A legal answer to a charge/pile-in/consolidation ``positions`` request: a greedy move
    toward the targets (a few random variations), for a charge then a coherent chain
    placement (``charge_propose.py``), else declining."""
    d = cast(MeleeMoveFrame, ctx.top)
    u = ctx.state.unit(d.unit)
    mt = d.move_type
    budget = d.max_distance
    if mt in ("pile_in", "consolidate"):
        # The models placed one by one, each spot checked on its own (pile_in_propose.py).
        from w40k.engine.phases.pile_in_propose import first_toward, propose_toward
        for attempt in range(TOWARD_ATTEMPTS):
            placed = first_toward(ctx, u, d, rng) if attempt == 0 else \
                propose_toward(ctx, u, d, rng, attempt)
            if placed is None:
                return DECLINE[mt]  # no model has a spot to move to
            if not check_move(ctx, u, parse_positions(u, placed), d):
                return placed
    for attempt in range(GREEDY_ATTEMPTS):
        answer = _greedy(ctx, u, d, budget, rng, attempt)
        if answer is None:
            break
        if isinstance(answer, _Refused):
            continue  # a charging model left where it is: surely refused (R11.04-b)
        if not check_move(ctx, u, parse_positions(u, answer), d):
            return answer
    if mt == "charge":
        # The greedy move leaves blocked models behind (R03.03-d): place the unit as a
        # coherent chain instead (charge_propose.py), still checked here.
        from w40k.engine.phases.charge_propose import first_chain, propose_charge, repair_memo
        targets = [ctx.state.unit(t) for t in d.targets or ()]
        memo = repair_memo(ctx, u, targets, budget)  # kept while the state is unchanged
        for attempt in range(CHAIN_ATTEMPTS):
            chain = first_chain(ctx, u, targets, budget, rng, memo) if attempt == 0 else \
                propose_charge(ctx, u, targets, budget, rng, attempt, memo)
            if chain is not None and not surely_refused_charge(ctx, u, chain, targets) \
                    and not check_move(ctx, u, parse_positions(u, chain), d):
                return chain
    return DECLINE[mt]


CHAIN_ATTEMPTS = 3
"""Tries of the chain placement (bearings jittered after the first)."""
TOWARD_ATTEMPTS = 2
"""Tries of the pile-in/consolidation placement (bearings jittered after the first)."""
GREEDY_ATTEMPTS = 4
"""Tries of the greedy move (random variations after the first)."""


FRAMES: tuple[Handler[Any], ...] = (Handler(MeleeMoveFrame, _run, _apply),)
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
