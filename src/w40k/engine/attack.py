"""Attacks inside a game: the per-die attack sequence (``rules.attack_sequence``) as a frame.

The frame holds the attack request (weapons, the units' models at the start, the context) and
the resumable attack machine's state (``rules.attack_machine``): within a game the frozen
objects themselves, in a position their JSON (written by the frame's ``to_json``, read back by
:func:`frame_request` / :func:`frame_state`). Each run advances the machine from where it
stopped to its next pause: a decision (allocation order, [PRECISION], [LETHAL HITS], Select
Model, asked through the engine's one boundary with the player's name), a batch of dice just
rolled (logged as a ``roll`` event), or the result.
Nothing is re-run, and a game saved in the middle of an attack loads and continues exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar, cast

from w40k.core import kept
from w40k.core.dice import Modifier, RollKind
from w40k.core.profiles import WeaponProfile
from w40k.engine.ability_effects import adjust_attack
from w40k.engine.context import Context
from w40k.engine.death import cast_attacker, push_deaths
from w40k.engine.frames import FrameData
from w40k.engine.model_states import model_states
from w40k.engine.options import ruleset
from w40k.engine.registry import Handler
from w40k.engine.requests import Request
from w40k.engine.serial import JSON, weapon_from_json, weapon_to_json
from w40k.engine.state import UnitData
from w40k.engine.units import centre, destroy
from w40k.engine.windows import Window, open_window, open_window_run_next
from w40k.rules.allocation import policy_answer
from w40k.rules.attack_machine import AttackState, Pause, Rolled, advance, start
from w40k.rules.attack_profile import AttackContext, Reroll, Ruleset, WeaponEntry
from w40k.rules.attack_types import AttackRequest
from w40k.rules.decisions import DecisionKind, DecisionRequest, Player
from w40k.rules.primitives import ModelState

_CTX_FIELDS = ("half_range", "charged", "remained_stationary", "cover", "plunging_fire",
               "target_engaged", "attacker_engaged_with_target", "close_quarters_monster",
               "indirect", "target_visible_to_friendly", "own_shooting_phase", "single_target",
               "precision", "lethal_hits_auto", "psychic_drops_harmful", "snap_shooting")


def context_to_json(ctx: AttackContext) -> dict[str, JSON]:
    """The JSON form of the context fields the engine sets (the abilities' re-rolls and
    modifiers only when set: engine/ability_effects.py)."""
    out: dict[str, JSON] = {f: bool(getattr(ctx, f)) for f in _CTX_FIELDS}
    out["target_models_at_select"] = ctx.target_models_at_select
    if ctx.reroll_hits is not Reroll.NONE:
        out["reroll_hits"] = str(ctx.reroll_hits)
    for name in ("hit_modifiers", "wound_modifiers"):
        mods = cast(tuple[Modifier, ...], getattr(ctx, name))
        if mods:
            out[name] = [[m.source, m.value] for m in mods]
    return out


def context_from_json(d: dict[str, JSON]) -> AttackContext:
    """The inverse of :func:`context_to_json`."""
    ctx = AttackContext()
    flags = {f: bool(d[f]) for f in _CTX_FIELDS if f in d}
    at = d.get("target_models_at_select")
    mods = {name: tuple(Modifier(str(cast(list[JSON], m)[0]), int(cast(int, cast(
        list[JSON], m)[1]))) for m in cast(list[JSON], d[name]))
        for name in ("hit_modifiers", "wound_modifiers") if name in d}
    return dataclasses.replace(ctx, target_models_at_select=None if at is None else int(
        cast(int, at)), reroll_hits=Reroll(str(d.get("reroll_hits", "none"))),
        **mods, **flags)  # type: ignore[arg-type]


_WEAPONS: dict[str, WeaponProfile] = {}
"""The weapons read from attack frames, by their JSON's ``repr``: a JSON value's repr is
exact (every str, number and bool written as it is, so two reprs are equal only for the same
JSON in the same key order) and :func:`weapon_from_json` is a function of the JSON alone. An
attack frame holds its weapons as JSON (the position form) and every attack reads them again;
the profiles are frozen, so one is shared. Emptied past :data:`_WEAPONS_LIMIT` entries."""
_WEAPONS_LIMIT = 512


def _weapon(data: dict[str, JSON]) -> WeaponProfile:
    """``weapon_from_json(data)``, kept for the same JSON."""
    key = repr(data)
    got = _WEAPONS.get(key)
    if got is None:
        if len(_WEAPONS) >= _WEAPONS_LIMIT:
            _WEAPONS.clear()
        got = _WEAPONS[key] = weapon_from_json(data)
    return got


_CONTEXTS: dict[tuple[str, Ruleset], AttackContext] = {}
"""The attack contexts read from attack frames, by their JSON's ``repr`` (exact, as for
:data:`_WEAPONS`) and the ruleset: :func:`context_from_json` is a function of the JSON alone,
and the context is frozen. Emptied past :data:`_WEAPONS_LIMIT` entries."""


def _context(data: dict[str, JSON], rules: Ruleset) -> AttackContext:
    """``context_from_json(data)`` under ``rules``, kept for the same JSON and ruleset."""
    key = (repr(data), rules)
    got = _CONTEXTS.get(key)
    if got is None:
        if len(_CONTEXTS) >= _WEAPONS_LIMIT:
            _CONTEXTS.clear()
        got = _CONTEXTS[key] = dataclasses.replace(context_from_json(data), ruleset=rules)
    return got


_DECODED: dict[int, tuple[JSON, AttackRequest | AttackState]] = kept.table()
"""Decoded attack requests and machine states of frames read from a position (JSON), by the id
of their JSON (which is held, so an id is never reused while cached): a frame's JSON is never
changed in place, so a second read reuses the value instead of decoding it again (frames made
within a game hold the values themselves: :func:`with_state`). Emptied past
:data:`_DECODED_LIMIT` entries; nothing here is saved."""
_DECODED_LIMIT = 256
_D = TypeVar("_D", AttackRequest, AttackState)


def _keep(data: JSON, value: AttackRequest | AttackState) -> JSON:
    """Remember ``value`` as the decoding of ``data`` (its exact JSON form); returns ``data``."""
    if len(_DECODED) >= _DECODED_LIMIT:
        _DECODED.clear()
    _DECODED[id(data)] = (data, value)
    return data


def _decoded(data: JSON, kind: type[_D], decode: Callable[[dict[str, JSON]], _D]) -> _D:
    """``decode(data)``, remembered for this very ``data`` object."""
    hit = _DECODED.get(id(data))
    if hit is not None and hit[0] is data and isinstance(hit[1], kind):
        return hit[1]
    value = decode(cast(dict[str, JSON], data))
    _keep(data, value)
    return value


def frame_request(frame: AttackFrame) -> AttackRequest:
    """The frame's attack request (decoded once when the frame was read from JSON)."""
    held: object = frame.request  # an annotation, not a cast() call: read at every step
    if isinstance(held, AttackRequest):
        return held
    return _decoded(frame.request, AttackRequest, AttackRequest.from_json)


def frame_state(frame: AttackFrame) -> AttackState:
    """The frame's attack machine state (decoded once when the frame was read from JSON;
    ``to_json`` and ``from_json`` are an exact round trip)."""
    held: object = frame.state
    if isinstance(held, AttackState):
        return held
    return _decoded(frame.state, AttackState, AttackState.from_json)


def with_state(frame: AttackFrame, state: AttackState, **changes: Any) -> AttackFrame:
    """``frame`` holding the machine's ``state`` (and ``changes``): the frozen state itself,
    written as JSON only when the frame is (:meth:`AttackFrame.to_json`: a save). A battle
    stores a state at every step of the machine and saves none of them."""
    # A copy of the frame's fields with the changes: ``dataclasses.replace`` would check
    # the fields and call ``__init__`` (its frozen per-field sets) at every step.
    out: AttackFrame = object.__new__(AttackFrame)
    fields = out.__dict__
    fields.update(frame.__dict__)
    # the field's declared type is its position form (the frame codec reads JSON there)
    fields["state"] = state
    fields.update(changes)
    return out


class AttackStep(StrEnum):
    """Where an attack frame is."""

    START = "start"
    """Not started: the next run builds the attack request and starts the machine."""
    RUNNING = "running"
    """The machine runs to its next pause."""
    ASKING = "asking"
    """The machine waits at a decision: the next run asks it (or a policy answers)."""


@dataclass(frozen=True)
class AttackFrame(FrameData):
    """One unit's attacks on one target (module docstring)."""

    KIND = "attack"
    attacker: str
    """The attacking unit."""
    target: str
    """The target unit."""
    melee: bool
    """Melee attacks (else ranged)."""
    weapons: JSON
    """``[{"weapon", "count", "half_range"}, ...]`` (weapon JSON as in positions)."""
    context: JSON
    """The attack context the engine set (:func:`context_to_json`)."""
    step: AttackStep = AttackStep.START
    """Where it is."""
    request: JSON = None
    """The attack request (``rules.attack_types.AttackRequest`` JSON), once started; within
    a game the frozen request itself (read it with :func:`frame_request`)."""
    state: JSON = None
    """The attack machine's state (``rules.attack_machine.AttackState`` JSON), once
    started; within a game the frozen state itself (read it with :func:`frame_state`, set it
    with :func:`with_state`)."""

    def to_json(self) -> dict[str, JSON]:
        """The position form: the request and the state as JSON (held as objects within a
        game: :func:`with_state`; the same JSON their ``to_json`` gave when stored)."""
        out = super().to_json()
        for name in ("request", "state"):
            held = cast(object, out[name])
            if isinstance(held, AttackRequest | AttackState):
                out[name] = held.to_json()
        return out

    @classmethod
    def legacy(cls, data: dict[str, JSON]) -> dict[str, JSON]:
        """Saves before typed frames had no ``step``: no ``state`` key meant not started, an
        ``asking`` key that the machine waited at a decision."""
        if "step" in data:
            return data
        out = {k: v for k, v in data.items() if k != "asking"}
        out["step"] = (AttackStep.START if "state" not in data else
                       AttackStep.ASKING if data.get("asking") else AttackStep.RUNNING).value
        return out


def push_attack(ctx: Context, attacker: UnitData, target: UnitData,
                weapons: list[WeaponEntry], actx: AttackContext, *, melee: bool) -> None:
    """Push one unit's attacks on one target (04.03: a target's weapons are resolved before
    the next target's). The first of an activation sits on a ``deaths`` frame: the models it
    destroys resolve their on-death rules after all of the unit's attacks (RA-Destroyed-b)."""
    # the datasheet abilities in force (engine/ability_effects.py)
    weapons, actx = adjust_attack(ctx, attacker, target, weapons, actx, melee=melee)
    frames = ctx.state.frames
    top = frames[-1] if frames else None
    if top is None or top.KIND not in ("attack", "deaths") \
            or cast_attacker(top) != attacker.id:
        push_deaths(ctx, attacker.id)
    ctx.push(AttackFrame(attacker.id, target.id, melee,
                         [{"weapon": weapon_to_json(e.weapon), "count": e.count,
                           "half_range": e.half_range} for e in weapons],
                         context_to_json(actx)))


def _roll_unit(kind: str, frame: AttackFrame) -> str:
    """Whose dice a batch is: the target's saves and Feel No Pain, else the attacker's."""
    return frame.target if kind in (RollKind.SAVE, RollKind.FNP) else frame.attacker


def _store(ctx: Context, frame: AttackFrame, state: AttackState, pause: Pause,
           step: AttackStep, *, run: bool = True) -> AttackFrame | None:
    """Keep the machine's state in the frame; a batch just rolled is logged (``roll``).
    The new frame, or None when a reaction window was pushed on top of it. ``run``: called
    from the frame's run, which returns at once when a window is pushed, so the engine runs
    the window next with nothing in between (``open_window_run_next``); not from an
    answer (``Game.submit`` returns to its caller first)."""
    new = with_state(frame, state, step=step)
    ctx.replace(frame, new)
    if isinstance(pause, Rolled):
        unit = _roll_unit(pause.kind, frame)
        ctx.log_roll(pause.kind, pause.dice, unit=unit)
        # After the roll, before its result is used: the machine waits at its Rolled pause.
        # list(), not list[JSON](): calling the generic alias costs ten times more
        rerollable: list[JSON] = list(pause.indices)
        opener = open_window_run_next if run else open_window
        if opener(ctx, Window.AFTER_ROLL, kind=str(pause.kind), unit=unit,
                  faces=[d.face for d in pause.dice], rerollable=rerollable,
                  frame=len(ctx.state.frames) - 1):
            return None
    return new


def _run(ctx: Context, frame: AttackFrame) -> Request | None:
    """The attack machine (rules/attack_machine.py) runs from where it stopped, pause after
    pause (nothing is re-run), until it asks a decision, a reaction window opens on top of
    the frame, or the attack ends. Going on within this call is what the engine's loop
    would do next: the frame is still on top and nothing else has run."""
    current: AttackFrame | None = frame
    while current is not None:
        asked, current = _run_once(ctx, current)
        if asked is not None:
            return asked
    return None


def _on_top(ctx: Context, frame: AttackFrame | None) -> AttackFrame | None:
    """``frame`` when it is (still) the top frame, else None (the engine runs the top)."""
    frames = ctx.state.frames
    return frame if frame is not None and frames and frames[-1] is frame else None


def _run_once(ctx: Context, frame: AttackFrame) -> tuple[Request | None, AttackFrame | None]:
    """One step of the attack machine: from where it stopped to its next pause. The decision
    to ask, else None; and the frame to go on with (None: the engine runs the top frame)."""
    if frame.step is AttackStep.START:
        attacker = ctx.state.unit(frame.attacker)
        target = ctx.state.unit(frame.target)
        if target.destroyed:
            ctx.pop()  # R05.04-g: nothing left to attack
            return None, None
        weapons = tuple(WeaponEntry(_weapon(cast(dict[str, JSON], w["weapon"])),
                                    int(cast(int, w["count"])),
                                    None if w.get("half_range") is None
                                    else bool(w["half_range"]))
                        for w in cast(list[dict[str, JSON]], frame.weapons))
        actx = _context(cast(dict[str, JSON], frame.context), ruleset(ctx.state.options))
        req = AttackRequest(weapons, model_states(target), model_states(attacker), actx)
        new = with_state(frame, start(req), request=req, step=AttackStep.RUNNING)
        ctx.replace(frame, new)
        return None, _on_top(ctx, new)
    req = frame_request(frame)
    reached = _reached(frame)
    after, pause = (reached if reached is not None
                    else advance(frame_state(frame), req, ctx.dice))
    if isinstance(pause, Rolled):  # (the units are looked up by a scan: only when needed)
        return None, _on_top(ctx, _store(ctx, frame, after, pause, frame.step))
    attacker = ctx.state.unit(frame.attacker)
    target = ctx.state.unit(frame.target)
    if isinstance(pause, DecisionRequest):
        if frame.step is not AttackStep.ASKING:
            # Reached the decision: the frame now waits at it. Asking it at once is what the
            # next run would do: there advance changes nothing and gives the same request.
            asking = _store(ctx, frame, after, pause, AttackStep.ASKING)
            if asking is None or _on_top(ctx, asking) is None:
                return None, None
            frame = asking
        player = attacker.player if pause.player == Player.ATTACKER else target.player
        policy = ctx.state.policies.get(player)
        if policy is not None and pause.kind is DecisionKind.SELECT_MODEL:
            # The player's standing allocation policy answers (05.04/06.02), measured from
            # the attacking unit.
            models = after.attacker if pause.player == Player.ATTACKER else after.target
            answer = policy_answer(policy, pause, models, centre(attacker))
            ctx.log("allocation_policy", unit=target.id if pause.player == Player.DEFENDER
                    else attacker.id, policy=policy, answer=answer)
            return None, _on_top(ctx, _store(ctx, frame, *advance(after, req, ctx.dice, answer),
                                             AttackStep.RUNNING))
        return pause.remade(player, {"attacker": attacker.id, "target": target.id},
                            pause.id), None
    result = pause.result
    for e in result.events:
        ctx.log("attack_step", attacker=attacker.id, target=target.id, step=e.step,
                rule=e.rule, text=e.text)
    ctx.log("attack", attacker=attacker.id, target=target.id, melee=frame.melee,
            hits=result.hits, wounds=result.wounds, unsaved=result.unsaved,
            wounds_lost=result.wounds_lost, models_destroyed=result.models_destroyed,
            hazard_wounds_lost=result.attacker_wounds_lost)
    _apply_models(ctx, target, result.target, cause=f"attack by {attacker.id}")
    _apply_models(ctx, attacker, result.attacker, cause="hazard")
    ctx.pop()
    return None, None


def _apply_models(ctx: Context, unit: UnitData, after: tuple[ModelState, ...], cause: str) -> None:
    by_id = {m.name: m for m in after}
    for m in unit.alive:
        new = by_id.get(m.id)
        if new is None or new.wounds_lost == m.wounds_lost:
            continue
        m.wounds_lost = new.wounds_lost
        if new.destroyed:
            destroy(ctx, unit, m, cause=cause)


_REACHED: list[tuple[AttackFrame, AttackState, DecisionRequest]] = kept.slot()
"""The decision an answer's ``advance`` reached (:func:`_apply`), with the frame that stores
its state: the frame's next run would advance that state again to the very same decision
(at a decision the machine draws no die and changes nothing: the same state and request, a
function of the frame's frozen state and request alone), so it reads it here instead. One
entry, read (and forgotten) by the next attack frame run, used only for that frame object."""


def _reached(frame: AttackFrame) -> tuple[AttackState, DecisionRequest] | None:
    """The state and decision kept for ``frame`` by :func:`_apply`, if any (and forgets
    them)."""
    if not _REACHED:
        return None
    stored, after, pause = _REACHED.pop()
    return (after, pause) if stored is frame else None


def _apply(ctx: Context, frame: AttackFrame, request: Request, choice: JSON) -> None:
    """Answer the machine's decision (validated by the machine) and go on to its next
    pause."""
    after, pause = advance(frame_state(frame), frame_request(frame), ctx.dice, choice)
    new = _store(ctx, frame, after, pause, AttackStep.RUNNING, run=False)
    if new is not None and isinstance(pause, DecisionRequest):
        _REACHED[:] = [(new, after, pause)]


FRAMES: tuple[Handler[Any], ...] = (Handler(AttackFrame, _run, _apply),)
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
