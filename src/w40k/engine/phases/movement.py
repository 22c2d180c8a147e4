"""The Movement phase (09).

Steps: Start of Movement phase (no rules trigger there in this engine), Move Units (09.02),
End of Movement phase (nothing triggers either). This engine has no stratagems, strategic
reserves, transports or reinforcements yet, so every unit is on the battlefield and the move
types are remain stationary, normal, advance and fall back (Ordered Retreat / Desperate
Escape); no Super-heavy Walker MOBILE choice (24.35) yet.

Requests (player = the active player, who is the unit's controller, R01.03-c):

- ``select_unit_to_move`` (R09.02-a): options = ids of the player's units not yet selected
  this phase; asked until every unit has been selected (R09.01-a).
- ``move_type`` (R09.02-b): options among ``remain_stationary``, ``normal``, ``advance``
  (unengaged units, or engaged only with AIRCRAFT, R23.02-e), ``fall_back_ordered``
  (engaged, not battle-shocked), ``fall_back_desperate`` (engaged); only
  ``remain_stationary`` when no model can move (M '-', R02.02-a) or after a surge move this
  phase (R21.02-c).
- ``take_to_skies`` (R21.03-a): options ``false`` / ``true``, for a unit whose every model has
  FLY making a normal, advance or fall-back move.
- ``mortal_wound_model`` (R06.02-a): which model takes the next mortal wound (Desperate
  Escape hazards), asked only when the 06.02 candidates are not interchangeable.
- ``positions`` (03.01, free-form ``positions``): the waypoints per model
  (``{"<model id>": [[x, y], [x, y, z], ...]}``, see ``engine/moves.py``) or the string
  ``"cancel"``: the unit cannot complete its move, its models stay where they were and it goes
  back to the unit selection, not selected (03.01 Ending a Move, 03.02 sidebar). Context:
  ``unit``, ``move_type`` (geometry MoveType value), ``max_distance`` (before 21.03's -2"),
  ``model_budgets`` (each model's own maximum, RA-Move-a), ``take_to_skies``,
  ``advance_roll`` (advance only), ``start`` ({model id: [x, y, z]}), ``can_cancel``.

Dice: the advance roll (09.06, one D6, before the positions are asked; it stands if the move
is cancelled and is reused if the unit advances again this phase), the Desperate Escape
hazard rolls (one per model, 06.03, with their mortal wounds and Feel No Pain before the
move; not repeated after a cancel), and the battle-shock roll after a voluntary Desperate
Escape (09.07, 01.07).
"""

from __future__ import annotations

from typing import Any, cast

from w40k.core.dice import RollKind
from w40k.core.errors import IllegalChoice
from w40k.engine import geo, offtable
from w40k.engine.actions import interrupt
from w40k.engine.aircraft import engaged_only_with_aircraft
from w40k.engine.context import Context
from w40k.engine.frames import replace_frame
from w40k.engine.hazards import unit_hazard_rolls
from w40k.engine.model_states import model_states
from w40k.engine.moves import (
    SKIES_PENALTY,
    apply_positions,
    can_take_to_skies,
    check_move,
    is_hover,
    parse_positions,
)
from w40k.engine.phases.movement_frames import MortalWoundsFrame, MovementFrame, MoveUnitFrame
from w40k.engine.phases.set_up import SetUpFrame, SetUpKind
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.engine.units import centre, destroy, leadership_roll
from w40k.engine.windows import Window, open_window
from w40k.geometry import Model, MoveType
from w40k.rules.allocation import policy_answer
from w40k.rules.primitives import (
    fnp_prevents,
    interchangeable,
    mortal_wound_candidates,
)
from w40k.rules.transport import embark_violations

MOVE_TYPES: dict[str, MoveType | None] = {
    "remain_stationary": None,
    "normal": MoveType.NORMAL,
    "advance": MoveType.ADVANCE,
    "fall_back_ordered": MoveType.FALL_BACK,
    "fall_back_desperate": MoveType.DESPERATE_ESCAPE,
}
"""Answers of ``move_type`` -> the geometry move type (None: no model moves)."""

_LABELS = {"remain_stationary": "Remain stationary", "normal": "Normal move",
           "advance": "Advance", "fall_back_ordered": "Fall back (Ordered Retreat)",
           "fall_back_desperate": "Fall back (Desperate Escape)",
           "ingress": "Ingress move (arrive from strategic reserves)",
           "remain_in_reserves": "Stay in strategic reserves",
           "disembark": "Disembark move", "remain_embarked": "Stay embarked"}
OFF_TABLE_MOVES = ("ingress", "remain_in_reserves", "disembark", "remain_embarked")
"""Move types of a unit off the battlefield (09.02: ingress 20.04, disembark 18.04)."""


# -- eligibility ---------------------------------------------------------------------------
def eligible_move_types(ctx: Context, u: UnitData) -> list[str]:
    """09.02-09.07: the move types ``u`` may select now."""
    if u.location == offtable.RESERVES:
        return ["remain_in_reserves", *(["ingress"] if offtable.can_ingress(ctx.state, u)
                                        else [])]
    if u.location == offtable.EMBARKED:
        return ["remain_embarked", *(["disembark"] if offtable.can_disembark(ctx.state, u)
                                     else [])]
    out = ["remain_stationary"]  # 09.04: any unit
    if all(m.profile.M is None for m in u.alive) or offtable.is_aircraft(u):
        return out  # R02.02-a: no model can move; R23.02-a: AIRCRAFT only make ingress moves
    if u.flag("surged"):
        return out  # R21.02-c: a unit that has surged cannot move again this phase
    engaged = geo.engaged_enemies(ctx, u)
    if engaged:
        if not u.flag("battle_shocked"):
            out.append("fall_back_ordered")  # R09.07-b
        out.append("fall_back_desperate")
    if not engaged or engaged_only_with_aircraft(engaged):
        out += ["normal", "advance"]  # R09.05-a, R09.06-a; R23.02-e
    return out


def model_budgets(u: UnitData, move_type: str, advance_roll: int, skies: bool
                  ) -> dict[str, float]:
    """Each model's own maximum (RA-Move-a): M (+ the advance roll), -2" when taking to the
    skies without Hover (21.03); 0 for M '-' (R02.02-a)."""
    penalty = SKIES_PENALTY if skies and not is_hover(u) else 0.0
    out: dict[str, float] = {}
    for m in u.alive:
        if m.profile.M is None:
            out[m.id] = 0.0
        else:
            extra = advance_roll if move_type == "advance" else 0
            out[m.id] = max(0.0, m.profile.M + extra - penalty)
    return out


def _raw_max(u: UnitData, move_type: str, advance_roll: int) -> float:
    ms = [m.profile.M for m in u.alive if m.profile.M is not None]
    return float(max(ms, default=0) + (advance_roll if move_type == "advance" else 0))


# -- the phase frame -----------------------------------------------------------------------
def _phase(ctx: Context, frame: MovementFrame) -> Request | None:
    s = ctx.state
    selected = frame.selected
    todo = [u for u in (*s.units_of(s.turn_player),
                        *offtable.movable_off_table(s, s.turn_player)) if u.id not in selected]
    if not todo:
        # 09.03 End of Movement phase: nothing triggers in this engine.
        s.active = s.turn_player
        ctx.pop()
        return None
    return request(s.turn_player, K.SELECT_UNIT_TO_MOVE, "R09.02-a",
                   "Select a unit to move", tuple[JSON, ...](u.id for u in todo),
                   labels=tuple(u.name for u in todo))


def _phase_apply(ctx: Context, frame: MovementFrame, request: Request, choice: JSON) -> None:
    u = ctx.state.any_unit(str(choice))
    ctx.replace(frame, replace_frame(frame, selected=(*frame.selected, u.id)))
    u.flags["selected_to_move"] = True
    ctx.state.active = u.player  # R01.03-c
    ctx.push(MoveUnitFrame(u.id))
    open_window(ctx, Window.UNIT_SELECTED, unit=u.id, action="move")


# -- one unit's move -----------------------------------------------------------------------
def _finish(ctx: Context, u: UnitData) -> None:
    ctx.state.active = ctx.state.turn_player
    ctx.pop()


def _off_table(ctx: Context, frame: MoveUnitFrame, u: UnitData) -> None:
    """An ingress or disembark move sets the unit up (engine/phases/set_up.py); staying in
    reserves or embarked moves nothing."""
    mt = str(frame.move_type)
    if frame.moved or mt in ("remain_in_reserves", "remain_embarked"):
        if not frame.moved:
            ctx.log("move", unit=u.id, move_type=mt, models={})
        _finish(ctx, u)
        return
    ctx.replace(frame, replace_frame(frame, moved=True))
    ctx.push(SetUpFrame(u.id, SetUpKind(mt)))


def _embark_options(ctx: Context, u: UnitData, mt: str) -> list[UnitData]:
    """18.02: the friendly TRANSPORT units ``u`` may embark within after this move."""
    s = ctx.state
    move = "fall_back" if mt.startswith("fall_back") else mt
    # the moved models' shapes are made for the first transport only (most units have none
    # near: every unit is refused by the tests before): the same shapes, the same answer
    models: list[Model] | None = None
    out = []
    for t in s.units:
        if t.id == u.id or t.player != u.player or t.destroyed or offtable.capacity_of(t) is None:
            continue
        if models is None:
            models = [geo.model_shape(m) for m in u.alive]
        hull = geo.model_shape(next(m for m in t.alive if m.profile.transport is not None))
        if embark_violations(models, hull, battle_round=s.round,
                             set_up_this_turn=u.flag("set_up_this_turn"), move=move):
            continue
        if not offtable.can_carry(s, t, u):
            out.append(t)
    return out


def _unit_run(ctx: Context, frame: MoveUnitFrame) -> Request | None:
    u = ctx.state.any_unit(frame.unit)
    if frame.move_type in OFF_TABLE_MOVES:
        _off_table(ctx, frame, u)
        return None
    if u.destroyed:  # e.g. by Desperate Escape hazards
        ctx.log("move", unit=u.id, move_type=frame.move_type, models={},
                destroyed=True)
        _finish(ctx, u)
        return None
    mt = frame.move_type
    if mt is None:
        options = eligible_move_types(ctx, u)
        return request(u.player, K.MOVE_TYPE, "R09.02-b", f"How does {u.name} move?",
                       tuple[JSON, ...](options), context={"unit": u.id},
                       labels=tuple(_LABELS[o] for o in options))
    if mt == "remain_stationary":  # 09.04: nothing moves, no start/end-of-move triggers
        u.flags["remained_stationary"] = True
        ctx.log("move", unit=u.id, move_type=mt, models={})
        _finish(ctx, u)
        return None
    if frame.skies is None:
        if can_take_to_skies(u):
            return request(u.player, K.TAKE_TO_SKIES, "R21.03-a",
                           f"Does {u.name} take to the skies?", (False, True),
                           context={"unit": u.id}, labels=("No", "Take to the skies"))
        ctx.replace(frame, replace_frame(frame, skies=False))
        return None
    phase = ctx.need(MovementFrame)
    if mt == "advance" and frame.advance_roll is None:
        rolls = phase.advance_rolls
        if u.id in rolls:  # rolled before a cancelled attempt: it stands (docs/rulings)
            ctx.replace(frame, replace_frame(frame, advance_roll=rolls[u.id]))
        else:
            roll = ctx.roll(RollKind.ADVANCE, unit=u.id)[0].unmodified
            ctx.replace(phase, replace_frame(phase, advance_rolls={**rolls, u.id: roll}))
            ctx.replace(frame, replace_frame(frame, advance_roll=roll))
            ctx.log("advance_roll", unit=u.id, roll=roll)
            open_window(ctx, Window.AFTER_ROLL, kind="advance", unit=u.id, faces=[roll])
        return None
    if mt == "fall_back_desperate" and frame.hazards is None:
        if u.id in phase.hazards_done:
            ctx.replace(frame, replace_frame(frame, hazards=()))
            return None
        ctx.replace(phase, replace_frame(phase, hazards_done=(*phase.hazards_done, u.id)))
        # R09.07-c: one per model, together (06.03); their mortal wounds resolve first
        ctx.replace(frame, replace_frame(frame, hazards=unit_hazard_rolls(ctx, u,
                                                                          "desperate escape")))
        return None
    if frame.answer is None:
        roll = frame.advance_roll or 0
        skies = bool(frame.skies)
        move = MOVE_TYPES[mt]
        assert move is not None
        context: dict[str, JSON] = {
            "unit": u.id, "move_type": move.value,
            "max_distance": _raw_max(u, mt, roll),
            "model_budgets": cast(JSON, model_budgets(u, mt, roll, skies)),
            "take_to_skies": skies, "can_cancel": True,
            "start": {m.id: [m.x, m.y, m.z] for m in u.alive},
        }
        if mt == "advance":
            context["advance_roll"] = roll
        return request(u.player, K.POSITIONS, "03.01", f"Move {u.name} ({_LABELS[mt]})",
                       free_form="positions", context=context)
    if frame.answer == "cancel":
        ctx.replace(phase, replace_frame(phase, selected=tuple(
            x for i, x in enumerate(phase.selected) if i != phase.selected.index(u.id))))
        u.flags.pop("selected_to_move", None)
        ctx.log("move_cancelled", unit=u.id, move_type=mt)
        _finish(ctx, u)
        return None
    if not frame.moved:
        skies = bool(frame.skies)
        dist = apply_positions(ctx, u, parse_positions(frame.answer, [m.id for m in u.models]),
                               take_to_skies=skies)
        ctx.replace(frame, replace_frame(frame, moved=True))
        interrupt(ctx, u.id, f"{mt} move")  # R16.01-c
        u.flags["moved"] = True
        u.flags["moved_this_phase"] = True  # R21.02-a
        if mt == "advance":
            u.flags["advanced"] = True
        if mt.startswith("fall_back"):
            u.flags["fell_back"] = True
        if mt == "fall_back_desperate":
            u.flags["desperate_escape"] = True
        u.max_move = max([u.max_move, *dist.values()])
        ctx.log("move", unit=u.id, move_type=mt, take_to_skies=skies,
                models={m.id: [round(m.x, 4), round(m.y, 4), round(m.z, 4), round(dist[m.id], 4)]
                        for m in u.alive if m.id in dist})
        return None
    if mt == "fall_back_desperate" and not u.flag("battle_shocked") \
            and not frame.shock_rolled:
        # R09.07-f: a unit not battle-shocked that chose Desperate Escape rolls (01.07).
        ctx.replace(frame, replace_frame(frame, shock_rolled=True))
        ok, shock = leadership_roll(ctx, u)
        if not ok:
            u.flags["battle_shocked"] = True
        ctx.log("battle_shock_roll", unit=u.id, dice=list[JSON](shock), passed=ok,
                battle_shocked=u.flag("battle_shocked"), cause="desperate escape")
        return None
    if not frame.embark_asked and not u.destroyed:
        carriers = _embark_options(ctx, u, mt)
        if carriers:
            return request(u.player, K.EMBARK, "R18.02-a",
                           f"Does {u.name} embark within a transport?",
                           ("no", *(t.id for t in carriers)), context={"unit": u.id},
                           labels=("No", *(t.name for t in carriers)), default="no")
    _finish(ctx, u)
    return None


def _unit_apply(ctx: Context, frame: MoveUnitFrame, request: Request, choice: JSON) -> None:
    if request.kind == "move_type":
        ctx.replace(frame, replace_frame(frame, move_type=str(choice)))
        return
    if request.kind == K.EMBARK:
        ctx.replace(frame, replace_frame(frame, embark_asked=True))
        if choice != "no":
            s = ctx.state
            u, t = s.unit(frame.unit), s.unit(str(choice))
            offtable.embark(s, u, t)
            u.flags["embarked_this_phase"] = True
            ctx.log("embark", unit=u.id, transport=t.id)
        return
    if request.kind == K.TAKE_TO_SKIES:
        ctx.replace(frame, replace_frame(frame, skies=bool(choice)))
        return
    # positions
    if choice == "cancel":
        ctx.replace(frame, replace_frame(frame, answer="cancel"))
        return
    u = ctx.state.unit(frame.unit)
    moves = parse_positions(choice, [m.id for m in u.models])
    c = request.context
    move = MoveType(str(c["move_type"]))
    budgets = {str(k): float(cast(float, v))
               for k, v in cast(dict[str, JSON], c["model_budgets"]).items()}
    check_move(ctx, u, moves, move, float(cast(float, c["max_distance"])),
               take_to_skies=bool(c["take_to_skies"]), model_budgets=budgets)
    ctx.replace(frame, replace_frame(frame, answer=choice))


# -- mortal wounds (06.02) with Feel No Pain (24.12) ---------------------------------------
def push_mortal_wounds(ctx: Context, u: UnitData, amount: int, cause: str) -> None:
    """Inflict ``amount`` mortal wounds on ``u`` one at a time (06.02), each subject to Feel
    No Pain; the controlling player picks among non-interchangeable candidates."""
    ctx.push(MortalWoundsFrame(u.id, amount, cause))


def _mw_run(ctx: Context, frame: MortalWoundsFrame) -> Request | None:
    u = ctx.state.any_unit(frame.unit)  # a unit about to disembark takes them embarked
    amount = frame.amount
    if amount <= 0 or u.destroyed:
        if amount > 0:
            ctx.log("mortal_wounds_lost", unit=u.id, amount=amount)  # R06.02-b
        ctx.pop()
        return None
    alive = u.alive
    states = {s.name: s for s in model_states(u)}
    candidates = [alive[i] for i in mortal_wound_candidates(list(states.values()))]
    if frame.chosen is not None:
        model = next(m for m in candidates if m.id == frame.chosen)
    elif not interchangeable([states[m.id] for m in candidates]):
        ask = request(u.player, K.SELECT_MODEL, "R06.02-a",
                      f"{u.name} suffers a mortal wound: which model takes it?",
                      tuple[JSON, ...](m.id for m in candidates),
                      context={"unit": u.id, "left": amount},
                      labels=tuple(m.name for m in candidates))
        policy = ctx.state.policies.get(u.player)
        if policy is None:
            return ask
        # The player's standing policy answers (measured from the unit's own centre).
        chosen = str(policy_answer(policy, ask, list(states.values()), centre(u)))
        model = next(m for m in candidates if m.id == chosen)
    else:
        model = candidates[0]
    ctx.replace(frame, replace_frame(frame, chosen=None, amount=amount - 1))
    fnp = model.profile.fnp
    if fnp is not None:
        roll = ctx.roll(RollKind.FNP, unit=u.id)[0].unmodified
        saved = fnp_prevents(roll, fnp)
        ctx.log("feel_no_pain", unit=u.id, model=model.id, roll=roll, threshold=fnp,
                prevented=saved)
        if saved:
            return None
    model.wounds_lost += 1
    ctx.log("mortal_wound", unit=u.id, model=model.id, cause=frame.cause,
            wounds_remaining=model.remaining)
    if model.remaining <= 0:
        destroy(ctx, u, model, cause=frame.cause)
    return None


def _mw_apply(ctx: Context, frame: MortalWoundsFrame, request: Request, choice: JSON) -> None:
    if not isinstance(choice, str):
        raise IllegalChoice("expected a model id", rule="R06.02-a")
    ctx.replace(frame, replace_frame(frame, chosen=choice))


FRAMES: tuple[Handler[Any], ...] = (
    Handler(MovementFrame, _phase, _phase_apply), Handler(MoveUnitFrame, _unit_run, _unit_apply),
    Handler(MortalWoundsFrame, _mw_run, _mw_apply))
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
