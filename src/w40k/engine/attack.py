"""Attacks inside a game: the per-die attack sequence (``rules.attack_sequence``) as a frame.

The sequence asks its questions (allocation order, [PRECISION], [LETHAL HITS], model choices)
through the engine's one boundary. The frame stores the RNG state at the start of the attack
and the answers given so far; each run replays the sequence from there with those answers, so
the frame is plain data and a game saved in the middle of an attack loads and continues
exactly (a replay costs microseconds; attacks ask a handful of questions).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, cast

from w40k.core.dice import RollKind, SerializableDice, dice_from_json
from w40k.engine.death import push_deaths
from w40k.engine.options import ruleset
from w40k.engine.registry import Handler
from w40k.engine.requests import Request
from w40k.engine.serial import JSON, weapon_from_json, weapon_to_json
from w40k.engine.state import Frame, UnitData
from w40k.engine.units import destroy
from w40k.rules.attack_profile import AttackContext, WeaponEntry
from w40k.rules.attack_sequence import AttackRequest, AttackResult, resolve_attack
from w40k.rules.decisions import DecisionRequest, Player
from w40k.rules.primitives import ModelState

if TYPE_CHECKING:
    from w40k.engine.game import Game

_CTX_FIELDS = ("half_range", "charged", "remained_stationary", "cover", "plunging_fire",
               "target_engaged", "attacker_engaged_with_target", "close_quarters_monster",
               "indirect", "target_visible_to_friendly", "own_shooting_phase", "single_target",
               "precision", "lethal_hits_auto", "psychic_drops_harmful")


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
              context=context_to_json(ctx), answers=[])


class _Need(Exception):
    def __init__(self, request: DecisionRequest) -> None:
        self.request = request


class _Replay:
    def __init__(self, answers: list[JSON]) -> None:
        self.answers = answers
        self.asked = 0

    def decide(self, request: DecisionRequest) -> JSON:
        if self.asked >= len(self.answers):
            raise _Need(request)
        answer = self.answers[self.asked]
        self.asked += 1
        return answer


class _Recording:
    """The game's dice as they were at the start of the attack, recording the faces drawn
    per kind (logged as ``roll`` events when the attack completes)."""

    def __init__(self, inner: SerializableDice) -> None:
        self.inner = inner
        self.faces: dict[str, list[int]] = {}

    def d6(self, kind: str) -> int:
        face = self.inner.d6(kind)
        self.faces.setdefault(kind, []).append(face)
        return face


def _models(u: UnitData) -> tuple[ModelState, ...]:
    return tuple(ModelState(m.id, m.profile.W, m.profile.T, m.profile.Sv, m.profile.InSv,
                            m.wounds_lost, m.profile.keywords, m.profile.fnp, m.leader)
                 for m in u.alive)


def _attempt(game: Game, frame: Frame) -> tuple[AttackResult | None, DecisionRequest | None,
                                                _Recording]:
    d = frame.data
    attacker = game.state.unit(str(d["attacker"]))
    target = game.state.unit(str(d["target"]))
    weapons = tuple(WeaponEntry(weapon_from_json(cast(dict[str, JSON], w["weapon"])),
                                int(cast(int, w["count"])),
                                None if w.get("half_range") is None else bool(w["half_range"]))
                    for w in cast(list[dict[str, JSON]], d["weapons"]))
    ctx = dataclasses.replace(context_from_json(cast(dict[str, JSON], d["context"])),
                              ruleset=ruleset(game.state.options))
    rng = _Recording(dice_from_json(d["dice"]))
    request = AttackRequest(weapons, _models(target), _models(attacker), ctx)
    try:
        return resolve_attack(request, rng,
                              _Replay(cast(list[JSON], d["answers"]))), None, rng
    except _Need as need:
        return None, need.request, rng


def _run(game: Game, frame: Frame) -> Request | None:
    d = frame.data
    target = game.state.unit(str(d["target"]))
    if target.destroyed:
        game.pop()  # R05.04-g: nothing left to attack
        return None
    if "dice" not in d:
        d["dice"] = game.dice.to_json()
        return None
    result, ask, rng = _attempt(game, frame)
    attacker = game.state.unit(str(d["attacker"]))
    if ask is not None:
        player = attacker.player if ask.player is Player.ATTACKER else target.player
        return dataclasses.replace(ask, player=player,
                                   context={"attacker": attacker.id, "target": target.id})
    assert result is not None
    game.dice.inner = rng.inner
    for kind, faces in rng.faces.items():
        game.dice.drawn += len(faces)
        game.log("roll", kind=kind, unit=attacker.id if kind == RollKind.HAZARD else target.id,
                 faces=list[JSON](faces), rerolled=[])
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
    cast(list[JSON], frame.data["answers"]).append(choice)


FRAMES: dict[str, Handler] = {"attack": Handler(_run, _apply)}
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
