"""The Shooting phase (10): the shoot loop, shooting types, Select Weapons/Targets and the
attacks.

Requests (docs/battle.md):

- ``select_unit_to_shoot`` (R10.02-a/b): options = ids of the active player's units that can
  shoot now (on the battlefield, not yet selected this phase, eligible for a shooting type),
  plus ``"done"`` to end the Shoot step.
- ``shooting_type`` (R10.02-b): options among ``normal``, ``assault``, ``close_quarters``,
  ``indirect`` (10.04-10.07). Not asked when only one type is eligible.
- ``declare_shooting`` (04.01/04.02), free-form shape ``shooting_declaration``: a JSON object
  ``{"<model id>": {"<weapon name>": "<target unit id>" | null | [target | null, ...]}}``.
  A list gives one target per copy of a weapon the model carries more than once; ``null`` or an
  omitted weapon makes no attacks (R04.02-e). The request's context lists, per model and
  weapon, the targets that weapon could legally select on its own (``targets``); the
  declaration as a whole must also keep 24.07 (either [PISTOL] weapons or the others).
  Malformed -> ``MalformedChoice``; a broken rule -> ``IllegalChoice`` with its ID.

Frames: ``shooting`` (the phase, loop state) and ``shoot_unit`` (one selected unit: type,
declaration, then its ``attack`` frames, one per target and circumstance group).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from w40k.core.abilities import CloseQuarters, IndirectFire, OneShot
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine.actions import blocks_shooting
from w40k.engine.attack import push_attack
from w40k.engine.phases.shooting_facts import (
    ShooterFacts,
    attacking_models,
    has,
    heavy_condition,
    model_by_id,
    one_shots,
    shooting_types,
)
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import Frame, UnitData
from w40k.engine.stratagems.effects import smokescreened
from w40k.engine.windows import Window, open_window
from w40k.rules.attack_profile import AttackContext, WeaponEntry
from w40k.rules.select import (
    AttackKind,
    FactKey,
    ModelChoice,
    Selection,
    WeaponChoice,
    WeaponFacts,
    gather_requests,
    validate_selection,
)

if TYPE_CHECKING:
    from w40k.engine.game import Game

DECLARATION = "shooting_declaration"
"""The free-form shape of ``declare_shooting`` answers."""


# -- 10.02 the shoot loop ----------------------------------------------------------------------
def can_shoot(game: Game, u: UnitData) -> bool:
    """R10.02-a: on the battlefield, not yet selected to shoot this phase, and eligible for at
    least one shooting type (fell-back units are not, 09.07)."""
    return (not u.flag("selected_to_shoot") and not blocks_shooting(game, u)
            and bool(shooting_types(game, u)))


def _phase(game: Game, frame: Frame) -> Request | None:
    s = game.state
    player = s.turn_player
    s.active = player  # 01.03
    if not frame.data.get("started"):
        frame.data["started"] = True  # 10.01: no start-of-phase rules yet
        return None
    units = [] if frame.data.get("done") else [u for u in s.units_of(player)
                                                if can_shoot(game, u)]
    if not units:
        game.log("shooting_end")  # 10.03
        game.pop()
        return None
    return request(player, K.SELECT_UNIT_TO_SHOOT, "R10.02-a",
                   "Select a unit to shoot, or end the phase",
                   (*[u.id for u in units], "done"),
                   context={"units": [u.id for u in units]},
                   labels=(*[u.name for u in units], "End the Shooting phase"))


def _phase_apply(game: Game, frame: Frame, request: Request, choice: JSON) -> None:
    if choice == "done":
        frame.data["done"] = True
        return
    u = game.state.unit(str(choice))
    u.flags["selected_to_shoot"] = True
    game.log("selected_to_shoot", unit=u.id)
    game.push("shoot_unit", unit=u.id)
    open_window(game, Window.UNIT_SELECTED, unit=u.id, action="shoot")


# -- one unit ----------------------------------------------------------------------------------
def _shoot_unit(game: Game, frame: Frame) -> Request | None:
    d = frame.data
    u = game.state.unit(str(d["unit"]))
    game.state.active = u.player  # 01.03: the shooting unit's controller
    if d.get("resolved") or u.destroyed:
        game.pop()
        return None
    if "type" not in d:
        types = shooting_types(game, u)
        if len(types) == 1:
            d["type"] = types[0].value
            game.log("shooting_type", unit=u.id, type=types[0].value)
            return None
        return request(u.player, K.SHOOTING_TYPE, "R10.02-b",
                       f"{u.name}: select a shooting type",
                       tuple[JSON, ...](t.value for t in types), context={"unit": u.id},
                       labels=tuple(t.value.replace("_", "-") for t in types))
    kind = AttackKind(str(d["type"]))
    facts = ShooterFacts(game, u)
    models: dict[str, JSON] = {}
    targets: dict[str, JSON] = {}
    for m in u.alive:
        names = list(dict.fromkeys(w.name for w in m.weapons if not w.is_melee))
        models[m.id] = list[JSON](names)
        per: dict[str, JSON] = {}
        for name in names:
            w = next(x for x in m.weapons if x.name == name)
            legal: list[JSON] = []
            for e in facts.enemies:
                if d.get("snap") not in (None, e.id):
                    continue  # R15.09-a: snap shooting targets only the one unit
                f = facts.weapon_facts(m.id, w, e.id, always_visibility=False)
                if not f.in_range:
                    continue
                sel = _selection(facts, kind, {(m.id, name, e.id): f},
                                 (ModelChoice(m.id, (WeaponChoice(name, (e.id,)),)),))
                if not validate_selection(sel):
                    legal.append(e.id)
            per[name] = legal
        targets[m.id] = per
    if not any(cast(list[JSON], v) for per in targets.values()
               for v in cast(dict[str, JSON], per).values()):
        # Nothing can be targeted (or no ranged weapons, RF-1): the unit still shot, with no
        # attacks (R04.02-e).
        _resolve(game, frame, facts, _selection(facts, kind, {}, ()), kind, [])
        return None
    return request(u.player, K.DECLARE_SHOOTING, "R04.02-a",
                   f"{u.name} ({kind.value.replace('_', '-')} shooting): select weapons and "
                   "targets", free_form=DECLARATION,
                   context={"unit": u.id, "type": kind.value, "models": models,
                            "targets": targets,
                            "answer": '{"<model id>": {"<weapon name>": "<target unit id>" '
                                      '| null | [target | null, ...]}}'})


def _selection(facts: ShooterFacts, kind: AttackKind, table: dict[FactKey, WeaponFacts],
               declaration: tuple[ModelChoice, ...]) -> Selection:
    u = facts.unit
    return Selection(kind, attacking_models(u), facts.target_units(), table, declaration,
                     one_shots_used=one_shots(u),
                     attacker_engaged=any(t.engaged_with_attacker
                                          for t in facts.target_units()),
                     advanced=u.flag("advanced"), your_shooting_phase=True)


def _parse(u: UnitData, choice: JSON) -> list[tuple[str, str, str]]:
    """The declaration as (model id, weapon name, target id) in declaration order, one entry
    per weapon copy that has a target (R04.02-e: none means no attacks). The order is the
    player's (R04.03-a: the first declared target resolves first); it is turned into lists
    before anything is stored, so a saved game never depends on the order of JSON keys."""
    if not isinstance(choice, dict):
        raise MalformedChoice("declare_shooting: expected an object {model id: {weapon: "
                              f"target}}, got {choice!r}")
    out: list[tuple[str, str, str]] = []
    for mid, weapons in choice.items():
        if not isinstance(weapons, dict):
            raise MalformedChoice(f"declare_shooting: {mid}: expected an object "
                                  f"{{weapon name: target}}, got {weapons!r}")
        for wname, target in weapons.items():
            copies = target if isinstance(target, list) else [target]
            for t in copies:
                if t is None:
                    continue
                if not isinstance(t, str):
                    raise MalformedChoice(f"declare_shooting: {mid} / {wname}: expected a "
                                          f"target unit id or null, got {t!r}")
                out.append((mid, wname, t))
    return out


def _shoot_unit_apply(game: Game, frame: Frame, request: Request, choice: JSON) -> None:
    d = frame.data
    u = game.state.unit(str(d["unit"]))
    if request.kind == "shooting_type":
        d["type"] = str(choice)
        game.log("shooting_type", unit=u.id, type=str(choice))
        return
    kind = AttackKind(str(d["type"]))
    shots = _parse(u, choice)
    if any(d.get("snap") not in (None, tid) for _, _, tid in shots):
        raise IllegalChoice(f"snap shooting: only {d['snap']} may be targeted", rule="R15.09-a")
    facts = ShooterFacts(game, u)
    enemy_ids = {e.id for e in facts.enemies}
    table: dict[FactKey, WeaponFacts] = {}
    grouped: dict[str, list[WeaponChoice]] = {}
    for mid, wname, tid in shots:
        grouped.setdefault(mid, []).append(WeaponChoice(wname, (tid,)))
        m = model_by_id(u, mid)
        w = None if m is None else next((x for x in m.weapons if x.name == wname), None)
        if w is not None and not w.is_melee and tid in enemy_ids:
            table[(mid, wname, tid)] = facts.weapon_facts(mid, w, tid)
    declaration = tuple(ModelChoice(mid, tuple(ws)) for mid, ws in grouped.items())
    sel = _selection(facts, kind, table, declaration)
    violations = validate_selection(sel)
    if violations:
        raise violations[0].error()
    _resolve(game, frame, facts, sel, kind, shots)


def _resolve(game: Game, frame: Frame, facts: ShooterFacts, sel: Selection, kind: AttackKind,
             shots: list[tuple[str, str, str]]) -> None:
    """Flags, [ONE SHOT] usage, and the attack frames (first target on top of the stack)."""
    u = facts.unit
    s = game.state
    heavy = heavy_condition(game, u)
    target_facts = {t.name: t for t in sel.targets}
    # Group the shots by target (04.03-a, first-declared target first), then by the
    # circumstances that differ per attacking model or weapon: cover and plunging fire (per
    # attacking model, 13.08/22.05), a MONSTER/VEHICLE model in close-quarters shooting (10.06),
    # an [INDIRECT FIRE] weapon in indirect shooting (10.07; the other weapons shoot normally).
    groups: dict[str, dict[tuple[bool, bool, bool, bool], list[tuple[str, str]]]] = {}
    for mid, wname, tid in shots:
        m = model_by_id(u, mid)
        assert m is not None
        w = next(x for x in m.weapons if x.name == wname)
        indirect = kind is AttackKind.INDIRECT and has(w, IndirectFire)
        cqm = kind is AttackKind.CLOSE_QUARTERS and any(
            a.name == mid and a.monster_or_vehicle for a in sel.models)
        # 15.10 Smokescreen: the target has the benefit of cover this phase.
        cover = smokescreened(game, tid) or facts.cover(mid, tid)
        key = (cover, facts.plunging_fire(mid, tid), cqm, indirect)
        groups.setdefault(tid, {}).setdefault(key, []).append((mid, wname))
    pushes: list[tuple[UnitData, list[WeaponEntry], AttackContext]] = []
    for tid, by_key in groups.items():
        target = s.unit(tid)
        tf = target_facts[tid]
        for (cover, plunging, cqm, indirect), pairs in by_key.items():
            per_model: dict[str, list[WeaponChoice]] = {}
            for mid, wname in pairs:
                per_model.setdefault(mid, []).append(WeaponChoice(wname, (tid,)))
            sub = Selection(sel.kind, sel.models, sel.targets, sel.facts,
                            tuple(ModelChoice(mid, tuple(ws)) for mid, ws in per_model.items()),
                            sel.one_shots_used, sel.attacker_engaged, sel.advanced,
                            sel.your_shooting_phase)
            entries = list(gather_requests(sub)[tid])
            spotted = True
            if indirect:
                # 10.07: 1-3 fail only if the unit remained stationary and a friendly unit
                # sees the target; the [HEAVY] condition stays in remained_stationary.
                spotted = u.flag("remained_stationary") and facts.visible_to_friendly(tid)
            ctx = AttackContext(
                charged=u.flag("charged"), remained_stationary=heavy, cover=cover,
                plunging_fire=plunging,
                target_engaged=tf.engaged and tf.monster_or_vehicle,
                attacker_engaged_with_target=tf.engaged_with_attacker,
                close_quarters_monster=cqm, indirect=indirect,
                target_visible_to_friendly=spotted,
                own_shooting_phase=frame.data.get("snap") is None,
                snap_shooting=frame.data.get("snap") is not None,
                target_models_at_select=len(target.alive))
            pushes.append((target, entries, ctx))
    # flags and bookkeeping
    u.flags["shot"] = True
    if shots:
        u.flags["ranged_attacks_this_turn"] = True  # 13.09 hidden bookkeeping
    for mid, wname, _ in shots:
        m = model_by_id(u, mid)
        assert m is not None
        w = next(x for x in m.weapons if x.name == wname)
        if has(w, OneShot) and wname not in m.one_shots_used:
            m.one_shots_used.append(wname)  # 24.26
    game.log("declare_shooting", unit=u.id, type=kind.value,
             shots=[[mid, wname, tid] for mid, wname, tid in shots])
    frame.data["resolved"] = True
    for target, weapons, ctx in reversed(pushes):  # the stack: first target on top
        push_attack(game, u, target, weapons, ctx, melee=False)
    open_window(game, Window.TARGETS_SELECTED, unit=u.id, action="shoot",
                targets=list[JSON](sorted({tid for _, _, tid in shots})))


# -- the random player's declaration -------------------------------------------------------------
def propose_declaration(game: Game, request: Request, rng: random.Random) -> JSON:
    """Every model fires every weapon that has a legal target at a random one; a model that
    is not a MONSTER/VEHICLE picks either its [PISTOL] weapons or the others (24.07)."""
    u = game.state.unit(str(request.context["unit"]))
    kind = AttackKind(str(request.context["type"]))
    targets = cast(dict[str, dict[str, list[str]]], request.context["targets"])
    out: dict[str, JSON] = {}
    models = {a.name: a for a in attacking_models(u)}
    for m in u.alive:
        per = targets.get(m.id, {})
        usable = [w for w in m.weapons if not w.is_melee and per.get(w.name)]
        if not usable:
            continue
        if kind is not AttackKind.CLOSE_QUARTERS and not models[m.id].monster_or_vehicle:
            cq = [w for w in usable if has(w, CloseQuarters)]
            other = [w for w in usable if not has(w, CloseQuarters)]
            usable = rng.choice([g for g in (cq, other) if g])
        answer: dict[str, list[JSON]] = {}
        for w in usable:
            answer.setdefault(w.name, []).append(rng.choice(per[w.name]))
        out[m.id] = {k: v[0] if len(v) == 1 else list(v) for k, v in answer.items()}
    return out



__all__ = ["DECLARATION", "can_shoot", "propose_declaration"]


FRAMES: dict[str, Handler] = {"shooting": Handler(_phase, _phase_apply),
          "shoot_unit": Handler(_shoot_unit, _shoot_unit_apply)}
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
