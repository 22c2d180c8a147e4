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
from dataclasses import dataclass, replace
from typing import Any, cast

from w40k.core.abilities import CloseQuarters, IndirectFire, OneShot
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.core.profiles import WeaponProfile
from w40k.engine.actions import blocks_shooting
from w40k.engine.attack import push_attack
from w40k.engine.context import Context
from w40k.engine.frames import FrameData
from w40k.engine.phases.firing_deck import check_deck, deck_request, lend, take_back
from w40k.engine.phases.shooting_facts import (
    ShooterFacts,
    attacking_models,
    has,
    has_shooting_type,
    heavy_condition,
    model_by_id,
    one_shots,
    shooter_facts,
    shooting_types,
)
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.engine.stratagems.effects import smokescreen_units, smokescreened
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

DECLARATION = "shooting_declaration"
"""The free-form shape of ``declare_shooting`` answers."""


# -- 10.02 the shoot loop ----------------------------------------------------------------------
def can_shoot(ctx: Context, u: UnitData) -> bool:
    """R10.02-a: on the battlefield, not yet selected to shoot this phase, and eligible for at
    least one shooting type (fell-back units are not, 09.07)."""
    return (not u.flag("selected_to_shoot") and not blocks_shooting(ctx, u)
            and not u.flag("firing_deck")  # R24.14-a: its transport used its weapons
            and has_shooting_type(ctx, u))


@dataclass(frozen=True)
class ShootingFrame(FrameData):
    """10: the Shooting phase, the shoot loop."""

    KIND = "shooting"
    started: bool = False
    """The start of the phase has passed (10.01)."""
    done: bool = False
    """The player has ended the Shoot step (``"done"``)."""

    @classmethod
    def legacy(cls, data: dict[str, JSON]) -> dict[str, JSON]:
        """Saves before typed frames gave every phase frame ``step: 0``."""
        return {k: v for k, v in data.items() if not (k == "step" and v == 0)}


@dataclass(frozen=True)
class ShootUnitFrame(FrameData):
    """10.02: one selected unit: its shooting type, its declaration, then its attacks."""

    KIND = "shoot_unit"
    unit: str
    """The unit."""
    type: AttackKind | None = None
    """The shooting type, once selected (10.04-10.07)."""
    resolved: bool = False
    """The declaration is made and its attack frames pushed."""
    snap: str | None = None
    """15.09 snap shooting (Fire Overwatch): the one enemy unit it may target; None for a
    unit selected in its own Shooting phase."""
    deck: tuple[str, ...] | None = None
    """24.14 Firing Deck: the weapons lent to this transport (None: not asked yet)."""


def _phase(ctx: Context, frame: ShootingFrame) -> Request | None:
    s = ctx.state
    player = s.turn_player
    s.active = player  # 01.03
    if not frame.started:
        ctx.replace(frame, replace(frame, started=True))  # 10.01: no start-of-phase rules yet
        return None
    units = [] if frame.done else [u for u in s.units_of(player) if can_shoot(ctx, u)]
    if not units:
        ctx.log("shooting_end")  # 10.03
        ctx.pop()
        return None
    return request(player, K.SELECT_UNIT_TO_SHOOT, "R10.02-a",
                   "Select a unit to shoot, or end the phase",
                   (*[u.id for u in units], "done"),
                   context={"units": [u.id for u in units]},
                   labels=(*[u.name for u in units], "End the Shooting phase"))


def _phase_apply(ctx: Context, frame: ShootingFrame, request: Request, choice: JSON) -> None:
    if choice == "done":
        ctx.replace(frame, replace(frame, done=True))
        return
    u = ctx.state.unit(str(choice))
    u.flags["selected_to_shoot"] = True
    ctx.log("selected_to_shoot", unit=u.id)
    ctx.push(ShootUnitFrame(u.id))
    open_window(ctx, Window.UNIT_SELECTED, unit=u.id, action="shoot")


# -- one unit ----------------------------------------------------------------------------------
def _shoot_unit(ctx: Context, frame: ShootUnitFrame) -> Request | None:
    u = ctx.state.unit(frame.unit)
    ctx.state.active = u.player  # 01.03: the shooting unit's controller
    if frame.resolved or u.destroyed:
        take_back(u, frame.deck or ())  # R24.14-a: until it has resolved its attacks
        ctx.pop()
        return None
    if frame.deck is None:
        deck = deck_request(ctx, u) if frame.snap is None else None  # 'in your Shooting phase'
        if deck is not None:
            return deck
        ctx.replace(frame, replace(frame, deck=()))
        return None
    if frame.type is None:
        types = shooting_types(ctx, u)
        if len(types) == 1:
            ctx.replace(frame, replace(frame, type=types[0]))
            ctx.log("shooting_type", unit=u.id, type=types[0].value)
            return None
        return request(u.player, K.SHOOTING_TYPE, "R10.02-b",
                       f"{u.name}: select a shooting type",
                       tuple[JSON, ...](t.value for t in types), context={"unit": u.id},
                       labels=tuple(t.value.replace("_", "-") for t in types))
    kind = frame.type
    facts = shooter_facts(ctx, u)
    models, targets = _listing(facts, kind, frame.snap)
    if not any(cast(list[JSON], v) for per in targets.values()
               for v in cast(dict[str, JSON], per).values()):
        # Nothing can be targeted (or no ranged weapons, RF-1): the unit still shot, with no
        # attacks (R04.02-e).
        _resolve(ctx, frame, facts, _selection(facts, kind, {}, ()), kind, [])
        return None
    return request(u.player, K.DECLARE_SHOOTING, "R04.02-a",
                   f"{u.name} ({kind.value.replace('_', '-')} shooting): select weapons and "
                   "targets", free_form=DECLARATION,
                   context={"unit": u.id, "type": kind.value, "models": models,
                            "targets": targets,
                            "answer": '{"<model id>": {"<weapon name>": "<target unit id>" '
                                      '| null | [target | null, ...]}}'})


def _listing(facts: ShooterFacts, kind: AttackKind,
             snap: str | None) -> tuple[dict[str, JSON], dict[str, JSON]]:
    """The declare_shooting listing: per model, its ranged weapons' names, and per weapon the
    enemy units it may target (04.02). The rules other than visibility are checked first, as
    if every target were visible: visibility only ever adds a violation (R06.01-f), so a
    target they refuse needs no sight search. The sight of the models left (only their rows
    of each unit pair) is staged in one batch (``Visibility.stage_rows``: the same answers),
    then the sight of each candidate is read."""
    u = facts.unit
    models: dict[str, JSON] = {}
    targets: dict[str, JSON] = {}
    left: list[tuple[str, str, WeaponProfile, tuple[int, bool, bool], list[str]]] = []
    # the unit's part of every one-weapon selection, built once (the unit does not change
    # during a listing): only the facts and the declaration differ
    base = _selection(facts, kind, {}, ())
    # whether a one-weapon selection breaks a rule is a function of the weapon, its model's
    # MONSTER/VEHICLE keyword, whether it is a used [ONE SHOT] (24.26), the target unit's
    # facts (engaged, engaged with this unit, MONSTER/VEHICLE: 04.02, 10.06, 17.03, 24.05;
    # every target listed is one of ``base.targets``, so never unknown) and the weapon's
    # facts (the rest is ``base``: 04.01, 04.02, 10.04-10.07, 24.07, 24.24): kept per
    # listing, as a unit's models mostly carry the same weapons and most enemy units share
    # their facts
    vehicle = {a.name: a.monster_or_vehicle for a in base.models}
    profiles: dict[WeaponProfile, int] = {}  # equal profiles (each model has its own copy)
    tkeys = {t.name: (t.engaged, t.engaged_with_attacker, t.monster_or_vehicle)
             for t in base.targets}
    verdicts: dict[tuple[tuple[int, bool, bool], tuple[bool, bool, bool], WeaponFacts],
                   bool] = {}

    def refused(mid: str, name: str, wkey: tuple[int, bool, bool], tid: str,
                f: WeaponFacts) -> bool:
        key = (wkey, tkeys[tid], f)
        hit = verdicts.get(key)
        if hit is None:
            hit = verdicts[key] = bool(validate_selection(_one(base, mid, name, tid, f)))
        return hit

    # 04.02: an enemy unit beyond the longest range of the unit's weapons is in range of
    # none (its distances are then never needed)
    longest = max((w.range for m in u.alive for w in m.weapons
                   if not w.is_melee and w.range is not None), default=0.0)
    near = [e for e in facts.enemies if snap in (None, e.id)  # R15.09-a: snap: the one unit
            and not facts.beyond(e.id, longest)]
    facts.measure([e.id for e in near])  # every near unit's distances, at once
    for m in u.alive:
        names = list(dict.fromkeys(w.name for w in m.weapons if not w.is_melee))
        models[m.id] = list[JSON](names)
        targets[m.id] = {}
        for name in names:
            # the weapon the selection names (R04.01-a: the model's first of that name)
            w = next(x for x in m.weapons if x.name == name)
            wkey = (profiles.setdefault(w, len(profiles)), vehicle[m.id],
                    (m.id, name) in base.one_shots_used)
            ok: list[str] = []
            for e in near:
                f = facts.range_facts(m.id, w, e.id)
                if f.in_range and not refused(m.id, name, wkey, e.id, f):
                    ok.append(e.id)
            left.append((m.id, name, w, wkey, ok))
    # the rows asked: per target, the models with a weapon that may target it
    wanted: dict[str, dict[str, None]] = {e.id: {} for e in near}
    for mid, *_, ok in left:
        for t in ok:
            wanted[t][mid] = None
    facts.stage_targets({t: list(ms) for t, ms in wanted.items() if ms})
    for mid, name, w, wkey, ok in left:
        legal: list[JSON] = []
        for tid in ok:
            if not facts.visible(mid, tid) and refused(
                    mid, name, wkey, tid, facts.weapon_facts(mid, w, tid)):
                continue
            legal.append(tid)
        cast(dict[str, JSON], targets[mid])[name] = legal
    return models, targets


def _one(base: Selection, mid: str, name: str, tid: str, f: WeaponFacts) -> Selection:
    """The selection of one weapon of one model against one target, with these facts
    (``base``: the unit's selection with no facts and no declaration). Built field by field
    (``dataclasses.replace`` costs several times more, and a listing builds hundreds)."""
    return Selection(base.kind, base.models, base.targets, {(mid, name, tid): f},
                     (ModelChoice(mid, (WeaponChoice(name, (tid,)),)),), base.one_shots_used,
                     base.attacker_engaged, base.advanced, base.your_shooting_phase)


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


def _shoot_unit_apply(ctx: Context, frame: ShootUnitFrame, request: Request,
                      choice: JSON) -> None:
    u = ctx.state.unit(frame.unit)
    if request.kind == "firing_deck":
        names = lend(ctx, u, check_deck(ctx, u, choice))
        ctx.replace(frame, replace(frame, deck=names))
        return
    if request.kind == "shooting_type":
        ctx.replace(frame, replace(frame, type=AttackKind(str(choice))))
        ctx.log("shooting_type", unit=u.id, type=str(choice))
        return
    assert frame.type is not None
    kind = frame.type
    shots = _parse(u, choice)
    if any(frame.snap not in (None, tid) for _, _, tid in shots):
        raise IllegalChoice(f"snap shooting: only {frame.snap} may be targeted", rule="R15.09-a")
    facts = shooter_facts(ctx, u)
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
    _resolve(ctx, frame, facts, sel, kind, shots)


def _resolve(ctx: Context, frame: ShootUnitFrame, facts: ShooterFacts, sel: Selection,
             kind: AttackKind, shots: list[tuple[str, str, str]]) -> None:
    """Flags, [ONE SHOT] usage, and the attack frames (first target on top of the stack)."""
    u = facts.unit
    s = ctx.state
    heavy = heavy_condition(ctx, u)
    target_facts = {t.name: t for t in sel.targets}
    # Group the shots by target (04.03-a, first-declared target first), then by the
    # circumstances that differ per attacking model or weapon: cover and plunging fire (per
    # attacking model, 13.08/22.05), a MONSTER/VEHICLE model in close-quarters shooting (10.06),
    # an [INDIRECT FIRE] weapon in indirect shooting (10.07; the other weapons shoot normally).
    groups: dict[str, dict[tuple[bool, bool, bool, bool], list[tuple[str, str]]]] = {}
    # cover and plunging fire depend on the attacking model and the target only: measured
    # once per pair, not per weapon (nothing moves while the shots are grouped)
    circumstances: dict[tuple[str, str], tuple[bool, bool]] = {}
    # per target (the stratagems used this phase do not change while the shots are grouped):
    # 15.10 whether it used Smokescreen, and whether some other unit of its player did (when
    # none did, ShooterFacts.smoke_cover is False: it reads only those units' models)
    smoke: dict[str, tuple[bool, bool]] = {}
    for mid, wname, tid in shots:
        m = model_by_id(u, mid)
        assert m is not None
        w = next(x for x in m.weapons if x.name == wname)
        indirect = kind is AttackKind.INDIRECT and has(w, IndirectFire)
        cqm = kind is AttackKind.CLOSE_QUARTERS and any(
            a.name == mid and a.monster_or_vehicle for a in sel.models)
        pair = circumstances.get((mid, tid))
        if pair is None:
            # 15.10 Smokescreen: the SMOKE unit, and a unit not fully visible to this model
            # because of the SMOKE unit's models, have the benefit of cover this phase.
            used = smoke.get(tid)
            if used is None:
                player = facts.vis.scene.units[facts.tu(tid)].player  # smoke_cover's
                others = smokescreen_units(facts.ctx, player) - {tid}
                used = smoke[tid] = (smokescreened(ctx, tid), bool(others))
            cover = (used[0] or facts.cover(mid, tid)
                     or (used[1] and facts.smoke_cover(mid, tid)))
            pair = circumstances[(mid, tid)] = (cover, facts.plunging_fire(mid, tid))
        key = (pair[0], pair[1], cqm, indirect)
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
            # (``sel`` passed validate_selection, and each part of a legal shooting
            # declaration is legal: not checked again)
            entries = list(gather_requests(sub, checked=True)[tid])
            spotted = True
            if indirect:
                # 10.07: 1-3 fail only if the unit remained stationary and a friendly unit
                # sees the target; the [HEAVY] condition stays in remained_stationary.
                spotted = u.flag("remained_stationary") and facts.visible_to_friendly(tid)
            actx = AttackContext(
                charged=u.flag("charged"), remained_stationary=heavy, cover=cover,
                plunging_fire=plunging,
                target_engaged=tf.engaged and tf.monster_or_vehicle,
                attacker_engaged_with_target=tf.engaged_with_attacker,
                close_quarters_monster=cqm, indirect=indirect,
                target_visible_to_friendly=spotted,
                own_shooting_phase=frame.snap is None,
                snap_shooting=frame.snap is not None,
                target_models_at_select=len(target.alive))
            pushes.append((target, entries, actx))
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
    ctx.log("declare_shooting", unit=u.id, type=kind.value,
            shots=[[mid, wname, tid] for mid, wname, tid in shots])
    ctx.replace(frame, replace(frame, resolved=True))
    for target, weapons, actx in reversed(pushes):  # the stack: first target on top
        push_attack(ctx, u, target, weapons, actx, melee=False)
    open_window(ctx, Window.TARGETS_SELECTED, unit=u.id, action="shoot",
                targets=list[JSON](sorted({tid for _, _, tid in shots})))


# -- the random player's declaration -------------------------------------------------------------
def propose_declaration(ctx: Context, request: Request, rng: random.Random) -> JSON:
    """Every model fires every weapon that has a legal target at a random one; a model that
    is not a MONSTER/VEHICLE picks either its [PISTOL] weapons or the others (24.07)."""
    u = ctx.state.unit(str(request.context["unit"]))
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


FRAMES: tuple[Handler[Any], ...] = (Handler(ShootingFrame, _phase, _phase_apply),
                                    Handler(ShootUnitFrame, _shoot_unit, _shoot_unit_apply))
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
