"""Attacks inside a game: the per-die attack sequence (``rules.attack_sequence``) as a frame.

The frame holds the attack request (weapons, the units' models at the start, the context) and
the resumable attack machine's state (``rules.attack_machine``), both as JSON. Each run
advances the machine from where it stopped to its next pause: a decision (allocation order,
[PRECISION], [LETHAL HITS], Select Model, asked through the engine's one boundary with the
player's name), a batch of dice just rolled (logged as a ``roll`` event), or the result.
Nothing is re-run, and a game saved in the middle of an attack loads and continues exactly.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, cast

from w40k.core.dice import RollKind
from w40k.engine.death import push_deaths
from w40k.engine.options import ruleset
from w40k.engine.registry import Handler
from w40k.engine.requests import Request
from w40k.engine.serial import JSON, weapon_from_json, weapon_to_json
from w40k.engine.state import Frame, UnitData
from w40k.engine.units import centre, destroy, model_states
from w40k.engine.windows import Window, open_window
from w40k.rules.allocation import policy_answer
from w40k.rules.attack_machine import AttackState, Done, Pause, Rolled, advance, start
from w40k.rules.attack_profile import AttackContext, WeaponEntry
from w40k.rules.attack_types import AttackRequest
from w40k.rules.decisions import DecisionKind, DecisionRequest, Player
from w40k.rules.primitives import ModelState

if TYPE_CHECKING:
    from w40k.engine.game import Game

_CTX_FIELDS = ("half_range", "charged", "remained_stationary", "cover", "plunging_fire",
               "target_engaged", "attacker_engaged_with_target", "close_quarters_monster",
               "indirect", "target_visible_to_friendly", "own_shooting_phase", "single_target",
               "precision", "lethal_hits_auto", "psychic_drops_harmful", "snap_shooting")


def context_to_json(ctx: AttackContext) -> dict[str, JSON]:
    """The JSON form of the context fields the engine sets."""
    out: dict[str, JSON] = {f: bool(getattr(ctx, f)) for f in _CTX_FIELDS}
    out["target_models_at_select"] = ctx.target_models_at_select
    return out


def context_from_json(d: dict[str, JSON]) -> AttackContext:
    """The inverse of :func:`context_to_json`."""
    ctx = AttackContext()
    flags = {f: bool(d[f]) for f in _CTX_FIELDS if f in d}
    at = d.get("target_models_at_select")
    return dataclasses.replace(ctx, target_models_at_select=None if at is None else int(
        cast(int, at)), **flags)  # type: ignore[arg-type]


def push_attack(game: Game, attacker: UnitData, target: UnitData,
                weapons: list[WeaponEntry], ctx: AttackContext, *, melee: bool) -> None:
    """Push one unit's attacks on one target (04.03: a target's weapons are resolved before
    the next target's). The first of an activation sits on a ``deaths`` frame: the models it
    destroys resolve their on-death rules after all of the unit's attacks (RA-Destroyed-b)."""
    frames = game.state.frames
    top = frames[-1] if frames else None
    if top is None or top.kind not in ("attack", "deaths") \
            or top.data.get("attacker") != attacker.id:
        push_deaths(game, attacker.id)
    game.push("attack", attacker=attacker.id, target=target.id, melee=melee,
              weapons=[{"weapon": weapon_to_json(e.weapon), "count": e.count,
                        "half_range": e.half_range} for e in weapons],
              context=context_to_json(ctx))


def _roll_unit(kind: str, attacker: UnitData, target: UnitData) -> str:
    """Whose dice a batch is: the target's saves and Feel No Pain, else the attacker's."""
    return target.id if kind in (RollKind.SAVE, RollKind.FNP) else attacker.id


def _store(game: Game, frame: Frame, state: AttackState, pause: Pause) -> None:
    """Keep the machine's state in the frame; a batch just rolled is logged (``roll``)."""
    d = frame.data
    d["state"] = state.to_json()
    if isinstance(pause, Rolled):
        attacker = game.state.unit(str(d["attacker"]))
        target = game.state.unit(str(d["target"]))
        unit = _roll_unit(pause.kind, attacker, target)
        game.log_roll(pause.kind, pause.dice, unit=unit)
        # After the roll, before its result is used: the machine waits at its Rolled pause.
        open_window(game, Window.AFTER_ROLL, kind=str(pause.kind), unit=unit,
                    faces=[d.face for d in pause.dice],
                    rerollable=list[JSON](pause.indices), frame=len(game.state.frames) - 1)


def _run(game: Game, frame: Frame) -> Request | None:
    """One step of the attack machine (rules/attack_machine.py): it runs from where it
    stopped to its next pause; nothing is re-run."""
    d = frame.data
    attacker = game.state.unit(str(d["attacker"]))
    target = game.state.unit(str(d["target"]))
    if "state" not in d:
        if target.destroyed:
            game.pop()  # R05.04-g: nothing left to attack
            return None
        weapons = tuple(WeaponEntry(weapon_from_json(cast(dict[str, JSON], w["weapon"])),
                                    int(cast(int, w["count"])),
                                    None if w.get("half_range") is None
                                    else bool(w["half_range"]))
                        for w in cast(list[dict[str, JSON]], d["weapons"]))
        ctx = dataclasses.replace(context_from_json(cast(dict[str, JSON], d["context"])),
                                  ruleset=ruleset(game.state.options))
        req = AttackRequest(weapons, model_states(target), model_states(attacker), ctx)
        d["request"] = req.to_json()
        d["state"] = start(req).to_json()
        return None
    req = AttackRequest.from_json(cast(dict[str, JSON], d["request"]))
    state = AttackState.from_json(cast(dict[str, JSON], d["state"]))
    after, pause = advance(state, req, game.dice)
    if isinstance(pause, DecisionRequest):
        if not d.get("asking"):
            _store(game, frame, after, pause)  # reached the decision: ask on the next run
            d["asking"] = True
            return None
        # At the decision, advance changes nothing and gives the same request again.
        player = attacker.player if pause.player == Player.ATTACKER else target.player
        policy = game.state.policies.get(player)
        if policy is not None and pause.kind is DecisionKind.SELECT_MODEL:
            # The player's standing allocation policy answers (05.04/06.02), measured from
            # the attacking unit.
            models = after.attacker if pause.player == Player.ATTACKER else after.target
            answer = policy_answer(policy, pause, models, centre(attacker))
            game.log("allocation_policy", unit=target.id if pause.player == Player.DEFENDER
                     else attacker.id, policy=policy, answer=answer)
            _store(game, frame, *advance(after, req, game.dice, answer))
            d.pop("asking")
            return None
        return dataclasses.replace(pause, player=player,
                                   context={"attacker": attacker.id, "target": target.id})
    if not isinstance(pause, Done):
        _store(game, frame, after, pause)
        return None
    result = pause.result
    for e in result.events:
        game.log("attack_step", attacker=attacker.id, target=target.id, step=e.step,
                 rule=e.rule, text=e.text)
    game.log("attack", attacker=attacker.id, target=target.id, melee=bool(d["melee"]),
             hits=result.hits, wounds=result.wounds, unsaved=result.unsaved,
             wounds_lost=result.wounds_lost, models_destroyed=result.models_destroyed,
             hazard_wounds_lost=result.attacker_wounds_lost)
    _apply_models(game, target, result.target, cause=f"attack by {attacker.id}")
    _apply_models(game, attacker, result.attacker, cause="hazard")
    game.pop()
    return None


def _apply_models(game: Game, unit: UnitData, after: tuple[ModelState, ...], cause: str) -> None:
    by_id = {m.name: m for m in after}
    for m in unit.alive:
        new = by_id.get(m.id)
        if new is None or new.wounds_lost == m.wounds_lost:
            continue
        m.wounds_lost = new.wounds_lost
        if new.destroyed:
            destroy(game, unit, m, cause=cause)


def _apply(game: Game, frame: Frame, request: Request, choice: JSON) -> None:
    """Answer the machine's decision (validated by the machine) and go on to its next
    pause."""
    d = frame.data
    state = AttackState.from_json(cast(dict[str, JSON], d["state"]))
    req = AttackRequest.from_json(cast(dict[str, JSON], d["request"]))
    after, pause = advance(state, req, game.dice, choice)
    _store(game, frame, after, pause)
    d.pop("asking")


FRAMES: dict[str, Handler] = {"attack": Handler(_run, _apply)}
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
