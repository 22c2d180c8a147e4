"""The Fight phase (12): Pile In (12.02), Fight (12.04 with Fights First, Remaining Combats and
the Appendix pass rule), Consolidate (12.07).

Frames: ``fight`` (the phase), ``melee_step`` (the Pile In / Consolidate steps: the player whose
turn it is moves all their units first, then the opponent), ``fight_seq`` (who selects the next
unit to fight), ``fight_unit`` (``fight_sequence.py``) and ``melee_move`` (``melee_moves.py``).

Requests:
- ``select_unit_to_pile_in`` / ``select_unit_to_consolidate``: options = eligible unit ids not
  yet moved this step + ``"done"`` (the player's moves in this step are over).
- ``select_unit_to_fight``: options = the selecting player's units that may fight now (Fights
  First units in the Fights First step), plus ``"pass"`` when all of their eligible units are
  more than 5" from every enemy unit (RA-Unable-a).
- ``pile_in_targets`` / ``consolidate_targets``: subsets of enemy unit ids (+ ``"skip"``);
  ``consolidate_objective``: objective names; ``positions`` (``melee_moves.py``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from w40k.engine import geo
from w40k.engine.aircraft import visible_enemies
from w40k.engine.context import Context
from w40k.engine.frames import replace_frame
from w40k.engine.phases import fight_sequence as fs
from w40k.engine.phases.fight_frames import (
    FightFrame,
    FightMode,
    FightSeqFrame,
    FightStep,
    MeleeStepFrame,
)
from w40k.engine.phases.melee_measure import units_farther
from w40k.engine.phases.melee_moves import (
    objective_distance,
    push_move,
    subsets,
    units_within,
)
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import ObjectiveData, UnitData
from w40k.engine.stratagems.effects import counteroffensive_unit
from w40k.engine.windows import Window, open_window
from w40k.geometry import Model
from w40k.geometry.measure import MARKER_DIAMETER_MM
from w40k.geometry.shapes import mm

UNABLE_DISTANCE = 5.0
"""Appendix 'Eligible to Fight, but Unable to Fight': more than 5" from all enemy units."""
CONSOLIDATE_REACH = 3.0
"""12.08: within 3" of enemy units / objectives."""
MARKER_RADIUS = mm(MARKER_DIAMETER_MM) / 2
"""An objective marker's disc (``ObjectiveMarker.shape``)."""


# -- eligibility --
def eligible_to_fight(ctx: Context, u: UnitData, pd: FightFrame | None = None) -> bool:
    """12.04 (R12.04-a): not yet selected to fight this phase, and engaged, or engaged at the
    start of the Fight step, or charged this turn. ``pd``: the phase frame, when the caller
    has it."""
    if u.destroyed or u.flag("selected_to_fight"):
        return False
    if pd is None:
        pd = fs.phase_data(ctx)
    # the flag and the start-of-step record first: an "or" of side-effect-free tests, so the
    # same answer, without measuring whether a charged or start-engaged unit is engaged now
    return (u.flag("charged") or u.id in (pd.engaged_at_start or ())
            or geo.is_engaged(ctx, u))


def fight_eligible(ctx: Context) -> list[UnitData]:
    """Every unit eligible to fight now, army order."""
    pd = fs.phase_data(ctx)
    return [u for u in ctx.state.units if eligible_to_fight(ctx, u, pd)]


def may_pass(ctx: Context, player: str, eligible: list[UnitData] | None = None) -> bool:
    """RA-Unable-a: every eligible unit of the player is more than 5" from all enemy units.
    ``eligible``: :func:`fight_eligible`'s answer in this state, when the caller has it."""
    if eligible is None:
        eligible = fight_eligible(ctx)
    mine = [u for u in eligible if u.player == player]
    enemies = ctx.state.units_of(ctx.state.opponent(player))
    # the closest models' distance, kept while neither unit's models move (the same float
    # as ``unit_distance`` over both units' shapes), the units' boxes first
    return all(units_farther(u, e, UNABLE_DISTANCE) for u in mine for e in enemies)


def _remember_eligible(ctx: Context, eligible: list[UnitData] | None = None) -> None:
    """R12.08-a: record the units eligible to fight now (``eligible``: :func:`fight_eligible`'s
    answer in this state, when the caller has it)."""
    pd = fs.phase_data(ctx)
    seen = list(pd.ever_eligible)
    for u in fight_eligible(ctx) if eligible is None else eligible:
        if u.id not in seen:
            seen.append(u.id)
    if len(seen) != len(pd.ever_eligible):
        ctx.replace(pd, replace_frame(pd, ever_eligible=tuple(seen)))


# -- the phase --
def _phase(ctx: Context, frame: FightFrame) -> Request | None:
    s = ctx.state
    step = frame.step
    s.active = s.turn_player
    players = (s.turn_player, s.opponent(s.turn_player))
    if step is FightStep.PILE_IN:  # 12.01 Start of Fight phase; 12.02 Pile In
        ctx.replace(frame, replace_frame(frame, step=FightStep.FIGHT, engaged_at_start=None,
                                   unengaged_at_start=(), ever_eligible=()))
        ctx.push(MeleeStepFrame("pile_in", players))
    elif step is FightStep.FIGHT:  # 12.04 Fight: the start of the Fight step
        engaged = [u.id for u in s.units if not u.destroyed and geo.is_engaged(ctx, u)]
        ctx.replace(frame, replace_frame(
            frame, step=FightStep.CONSOLIDATE, engaged_at_start=tuple(engaged),
            unengaged_at_start=tuple(u.id for u in s.units
                                     if not u.destroyed and u.id not in engaged)))
        _remember_eligible(ctx)
        ctx.push(FightSeqFrame(FightMode.FIGHTS_FIRST, s.turn_player))
    elif step is FightStep.CONSOLIDATE:  # 12.07 Consolidate
        ctx.replace(frame, replace_frame(frame, step=FightStep.END))
        _remember_eligible(ctx)
        ctx.push(MeleeStepFrame("consolidate", players))
    else:  # 12.09 End of Fight phase
        ctx.pop()
    return None


# -- Pile In / Consolidate steps --
def _can_pile_in(ctx: Context, u: UnitData) -> bool:
    """R12.03-a: engaged or charged this turn (overruns pile in inside their fight)."""
    if u.destroyed or u.flag("surged"):  # R21.02-c
        return False
    # the flag before the measure (the same "or"): a charged unit is not measured here
    return (u.flag("charged") or geo.is_engaged(ctx, u)) and fs.pile_in_options(ctx, u)


def _consolidation_modes(ctx: Context, u: UnitData) -> Iterator[tuple[str, Iterator[str]]]:
    """12.08 Before moving, in the order they are tried: each mode with its candidate
    targets or objectives, found lazily."""
    s = ctx.state
    enemies = visible_enemies(u, s.units_of(s.opponent(u.player)))  # R23.02-d
    yield "ongoing", (e.id for e in enemies if geo.units_engaged(u, e))  # R12.08-b
    yield "engaging", (e.id for e in enemies
                       if units_within(u, e, CONSOLIDATE_REACH))  # R12.08-c
    yield "objective", (o.name for o in s.objectives
                        if any(_within_reach(ctx, geo.model_shape(m), o)
                               for m in u.alive))  # R12.08-d


MARKER_SLACK = 1e-6
"""Inches beyond :data:`CONSOLIDATE_REACH` the discs' gap must be before
:func:`_within_reach` leaves a marker unmeasured (far more than the floats' rounding)."""


def _within_reach(ctx: Context, m: Model, o: ObjectiveData) -> bool:
    """``objective_distance(ctx, m, o) <= CONSOLIDATE_REACH + 1e-9`` (R12.08-d). A marker
    whose disc is farther than that (and :data:`MARKER_SLACK`) from the disc of radius
    ``m.reach()`` around the model is not measured: the footprint lies within that disc and
    the marker within its own, so their separation is at least the discs' gap: the same
    answer (False)."""
    if o.area is None and (math.hypot(m.x - o.x, m.y - o.y) - m.reach() - MARKER_RADIUS
                           > CONSOLIDATE_REACH + MARKER_SLACK):
        return False
    return objective_distance(ctx, m, o) <= CONSOLIDATE_REACH + 1e-9


def consolidation_mode(ctx: Context, u: UnitData) -> tuple[str, list[str]]:
    """12.08 Before moving: (mode, candidate targets/objectives); ('', []) when none applies
    (R12.08-e)."""
    for mode, names in _consolidation_modes(ctx, u):
        found = list(names)
        if found:
            return mode, found
    return "", []


def _has_consolidation(ctx: Context, u: UnitData) -> bool:
    """``bool(consolidation_mode(ctx, u)[0])``, each mode's search stopping at its first
    candidate."""
    return any(next(names, None) is not None for _, names in _consolidation_modes(ctx, u))


def _can_consolidate(ctx: Context, u: UnitData) -> bool:
    """R12.08-a: the unit was eligible to fight this phase, and a mode applies."""
    if u.destroyed or u.flag("surged"):  # R21.02-c
        return False
    return u.id in fs.phase_data(ctx).ever_eligible and _has_consolidation(ctx, u)


def _step_units(ctx: Context, frame: MeleeStepFrame, player: str) -> list[UnitData]:
    done = frame.done
    test = _can_pile_in if frame.what == "pile_in" else _can_consolidate
    return [u for u in ctx.state.units_of(player) if u.id not in done and test(ctx, u)]


def _step(ctx: Context, frame: MeleeStepFrame) -> Request | None:
    players = frame.players
    idx = frame.idx
    if idx >= len(players):
        ctx.pop()
        return None
    player = players[idx]
    units = _step_units(ctx, frame, player)
    if not units:
        ctx.replace(frame, replace_frame(frame, idx=idx + 1))  # R12.02-a / R12.07-a: the opponent
        return None
    what = frame.what
    rule = "R12.02-a" if what == "pile_in" else "R12.07-a"
    kind = K.SELECT_UNIT_TO_PILE_IN if what == "pile_in" else K.SELECT_UNIT_TO_CONSOLIDATE
    return request(player, kind, rule,
                   f"Select a unit to make a {what.replace('_', '-')} move, or 'done'",
                   tuple[JSON, ...]([u.id for u in units] + ["done"]),
                   labels=tuple([u.name for u in units] + ["done"]))


def _step_apply(ctx: Context, frame: MeleeStepFrame, request: Request, choice: JSON) -> None:
    if choice == "done":
        ctx.replace(frame, replace_frame(frame, idx=frame.idx + 1))
        return
    u = ctx.state.unit(str(choice))
    # each unit at most once per step
    ctx.replace(frame, replace_frame(frame, done=(*frame.done, u.id)))
    if frame.what == "pile_in":
        fs._push_pile_in(ctx, u, overrun=False)
        return
    mode, cands = consolidation_mode(ctx, u)
    ctx.log("consolidation_mode", unit=u.id, mode=mode)
    if mode == "ongoing":
        push_move(ctx, u, "consolidate", 3.0, targets=cands, mode=mode)
    elif mode == "engaging":
        push_move(ctx, u, "consolidate", 3.0, target_options=[*subsets(cands), "skip"],
                  mode=mode)
    else:
        push_move(ctx, u, "consolidate", 3.0, targets=[], mode=mode,
                  objective_options=cands)


# -- the Fight step: who selects next (12.04) --
def _counteroffensive(pool: list[UnitData], ctx: Context, chooser: str) -> list[UnitData]:
    """15.12: the unit targeted by the chooser's Counteroffensive must be the next selected."""
    forced = counteroffensive_unit(ctx, chooser)
    return [u for u in pool if u.id == forced] or pool if forced else pool


def _seq(ctx: Context, frame: FightSeqFrame) -> Request | None:
    """12.04: who selects the next unit to fight. Each change of the frame below that would
    return None (the engine runs the same frame, now changed, next with nothing in between)
    goes on here instead with the units eligible to fight listed once: the changes touch
    only this frame and the phase frame's ``ever_eligible``, which eligibility does not
    read (:func:`eligible_to_fight`: the units' flags, the models' places and the phase
    frame's ``engaged_at_start``)."""
    s = ctx.state
    eligible: list[UnitData] | None = None
    while True:
        resolving = frame.resolving
        if resolving is not None:
            # A fight was resolved: the other player selects next; after a Remaining Combats
            # fight, back to Fights First if a Fights First unit is eligible (R12.04-e).
            # one answer for both: replacing this frame changes nothing eligibility reads
            now = fight_eligible(ctx)
            mode = frame.mode
            if mode is FightMode.REMAINING and any(fs.is_fights_first(u) for u in now):
                mode = FightMode.FIGHTS_FIRST
            new = replace_frame(frame, resolving=None, passed=(), chooser=s.opponent(resolving),
                          mode=mode)
            ctx.replace(frame, new)
            _remember_eligible(ctx, now)
            frame, eligible = new, now
            continue
        if eligible is None:
            eligible = fight_eligible(ctx)
        ended = frame.ended
        if ended:
            eligible = []
            new = replace_frame(frame, mode=FightMode.REMAINING)
            ctx.replace(frame, new)
            frame = new
        chooser = frame.chooser
        passed = frame.passed
        if frame.mode is FightMode.FIGHTS_FIRST:
            ff = [u for u in eligible if fs.is_fights_first(u) and u.player not in passed]
            if not ff:
                # R12.04-c: this player selects first in Remaining Combats
                new = replace_frame(frame, mode=FightMode.REMAINING)
                ctx.replace(frame, new)
                frame = new
                continue
            pool = _counteroffensive([u for u in ff if u.player == chooser], ctx, chooser)
            if not pool:
                # R12.04-c: the other player selects
                new = replace_frame(frame, chooser=s.opponent(chooser))
                ctx.replace(frame, new)
                frame = new
                continue
            rule = "R12.04-b"
        else:
            if not eligible:
                _remember_eligible(ctx, None if ended else eligible)
                ctx.log("fight_step_end")
                ctx.pop()
                return None
            pool = _counteroffensive([u for u in eligible if u.player == chooser], ctx,
                                     chooser)
            if not pool:
                new = replace_frame(frame, chooser=s.opponent(chooser))  # R12.04-d
                ctx.replace(frame, new)
                frame = new
                continue
            rule = "R12.04-d"
        break
    options: list[JSON] = [u.id for u in pool]
    labels = [u.name for u in pool]
    if may_pass(ctx, chooser, eligible):  # the same state: ``eligible`` is fight_eligible's
        options.append("pass")
        labels.append("pass")
        rule = "RA-Unable-a"
    step = "Fights First" if frame.mode is FightMode.FIGHTS_FIRST else "Remaining Combats"
    return request(chooser, K.SELECT_UNIT_TO_FIGHT, rule,
                   f"{step}: select a unit to fight" + (" (or pass)" if "pass" in options
                                                         else ""),
                   tuple(options), context={"step": frame.mode.value}, labels=tuple(labels))


def _seq_apply(ctx: Context, frame: FightSeqFrame, request: Request, choice: JSON) -> None:
    s = ctx.state
    chooser = request.player
    if choice == "pass":
        ctx.log("fight_pass", by=chooser)
        other = s.opponent(chooser)
        others_left = any(u.player == other for u in fight_eligible(ctx))
        if other in frame.passed or not others_left:
            # RA-Unable-a: both passed in succession, or the opponent has nothing left.
            ctx.replace(frame, replace_frame(frame, ended=True))
            return
        ctx.replace(frame, replace_frame(frame, passed=(*frame.passed, chooser), chooser=other))
        return
    u = s.unit(str(choice))
    u.flags["selected_to_fight"] = True
    s.active = u.player  # R01.03-d: the selecting player is active while the unit fights
    ctx.replace(frame, replace_frame(frame, resolving=u.player))
    ctx.log("select_to_fight", unit=u.id, step=frame.mode.value)
    ctx.push(fs.FightUnitFrame(u.id))
    open_window(ctx, Window.UNIT_SELECTED, unit=u.id, action="fight")


FRAMES: tuple[Handler[Any], ...] = (
    Handler(FightFrame, _phase), Handler(MeleeStepFrame, _step, _step_apply),
    Handler(FightSeqFrame, _seq, _seq_apply))
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
