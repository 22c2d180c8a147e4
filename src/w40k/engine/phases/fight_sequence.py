"""One unit fights (12.04-12.06): fight type, the overrun pile-in, Select Weapons/Targets for
melee (04.01-04.03 via ``rules.select`` with ``AttackKind.FIGHT``), then one ``attack`` frame
per target in declaration order.

Requests:
- ``fight_type``: options ``["normal", "overrun"]``, asked only when both are open (12.05,
  12.06: a unit unengaged at the start of the Fight step that became engaged).
- ``declare_fight`` (free form ``"fight_declaration"``)::

      {"<model id>": {"<melee weapon name>": "<target unit id>"
                                              | {"<target unit id>": attacks, ...}}}

  each listed weapon is selected; a string target takes all its attacks, an object splits them
  (04.03). Models with no enemy unit engaged with them may be left out (they make no attacks);
  every other model must be listed (R04.02-e). ``context``: ``unit``, ``models`` (model id ->
  melee weapon names), ``targets`` (model id -> unit ids engaged with it), ``default`` (a legal
  answer).
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

from w40k.core import kept
from w40k.core.abilities import ExtraAttacks, FightsFirst, Precision
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.core.profiles import WeaponProfile
from w40k.engine import geo
from w40k.engine.aircraft import ignores, melee_refusal, visible_enemies
from w40k.engine.attack import push_attack
from w40k.engine.context import Context
from w40k.engine.frames import FrameData, replace_frame
from w40k.engine.phases.fight_frames import FightFrame
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData, placement_count
from w40k.engine.stratagems.effects import epic_challenge_model
from w40k.engine.windows import Window, open_window
from w40k.rules.attack_profile import AttackContext, WeaponEntry
from w40k.rules.select import (
    AttackingModel,
    AttackKind,
    FactKey,
    ModelChoice,
    Selection,
    TargetUnit,
    WeaponChoice,
    WeaponFacts,
    gather_requests,
)

DECLARATION = "fight_declaration"
"""The free-form shape of ``declare_fight`` answers."""
PILE_IN_REACH = 5.0
"""12.03: an unengaged unit selects pile-in targets within 5"."""


def is_fights_first(u: UnitData) -> bool:
    """24.13 (R24.13-a): every model has Fights First (a charge gives it to all, R11.04-e)."""
    if u.flag("fights_first"):
        return True
    alive = u.alive
    return bool(alive) and all(any(isinstance(a, FightsFirst) for a in m.profile.abilities)
                               for m in alive)


def phase_data(ctx: Context) -> FightFrame:
    """The Fight phase frame (the start-of-step records live there)."""
    for f in reversed(ctx.state.frames):
        if isinstance(f, FightFrame):
            return f
    raise RuntimeError("no Fight phase in progress")


def engaged_targets(ctx: Context, u: UnitData) -> dict[str, list[str]]:
    """Model id -> enemy unit ids engaged with that model (04.02 facts)."""
    # only the units engaged with ``u``: an enemy none of whose models is engaged with one of
    # u's adds nothing (``models_engaged`` is the same pair test row by row, R03.04-a)
    enemies = geo.engaged_enemies(ctx, u)
    per_enemy = [(e.id, geo.models_engaged(u, e)) for e in enemies]
    return {m.id: [eid for eid, hits in per_enemy if hits[i]] for i, m in enumerate(u.alive)}


def attackable_targets(ctx: Context, u: UnitData,
                       engaged: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """:func:`engaged_targets` without the pairs 23.04 forbids (``aircraft.melee_refusal``).
    ``engaged``: :func:`engaged_targets`' answer in this state, when the caller has it (read,
    not changed)."""
    out: dict[str, list[str]] = {}
    if engaged is None:
        engaged = engaged_targets(ctx, u)  # once, not per model: nothing moves in this loop
    for m in u.alive:
        out[m.id] = [t for t in engaged[m.id] if melee_refusal(u, m, ctx.state.unit(t)) is None]
    return out


# -- the declaration --
def _melee_names(u: UnitData) -> dict[str, list[str]]:
    return {m.id: list(dict.fromkeys(w.name for w in m.weapons if w.is_melee)) for m in u.alive}


def _targets(choice: JSON) -> set[str]:
    """The target unit ids a (validated) fight declaration names."""
    out: set[str] = set()
    for weapons in cast(dict[str, dict[str, JSON]], choice).values():
        for tgt in weapons.values():
            if isinstance(tgt, str):
                out.add(tgt)
            elif isinstance(tgt, dict):
                out |= set(tgt)
    return out


def _to_pairs(value: JSON) -> JSON:
    """A declaration's objects as ``[[key, value], ...]`` lists, in their order."""
    if isinstance(value, dict):
        return [[k, _to_pairs(v)] for k, v in value.items()]
    return value


def _from_pairs(value: JSON) -> dict[str, JSON]:
    """The inverse of :func:`_to_pairs` for a declaration (model -> weapon -> target)."""
    out: dict[str, JSON] = {}
    for mid, weapons in cast(list[list[JSON]], value):
        per: dict[str, JSON] = {}
        for name, tgt in cast(list[list[JSON]], weapons):
            per[str(name)] = ({str(t): n for t, n in cast(list[list[JSON]], tgt)}
                              if isinstance(tgt, list) else tgt)
        out[str(mid)] = per
    return out


def parse_declaration(u: UnitData, choice: JSON) -> tuple[ModelChoice, ...]:
    """The answer as ``rules.select`` model choices; MalformedChoice on a wrong shape."""
    if not isinstance(choice, dict):
        raise MalformedChoice("declare_fight: expected {model id: {weapon: target | "
                              f"{{target: attacks}}}}, got {choice!r}")
    out: list[ModelChoice] = []
    for mid, weapons in choice.items():
        if not isinstance(weapons, dict):
            raise MalformedChoice(f"declare_fight: {mid}: expected {{weapon: target}}")
        wcs: list[WeaponChoice] = []
        for name, tgt in weapons.items():
            if isinstance(tgt, str):
                wcs.append(WeaponChoice(name, (tgt,)))
            elif isinstance(tgt, dict) and all(
                    isinstance(n, int) and not isinstance(n, bool) for n in tgt.values()):
                wcs.append(WeaponChoice(name, tuple(tgt),
                                        tuple(int(cast(int, n)) for n in tgt.values())))
            elif tgt is None:
                wcs.append(WeaponChoice(name, ()))
            else:
                raise MalformedChoice(f"declare_fight: {mid}/{name}: expected a target unit id "
                                      f"or {{target: attacks}}, got {tgt!r}")
        out.append(ModelChoice(str(mid), tuple(wcs)))
    return tuple(out)


def _with_precision(weapons: tuple[WeaponProfile, ...]) -> tuple[WeaponProfile, ...]:
    """15.03 Epic Challenge: the model's melee weapons have [PRECISION] (once: 24.02)."""
    return tuple(dataclasses.replace(w, abilities=(*w.abilities, Precision()))
                 if w.is_melee and not any(isinstance(a, Precision) for a in w.abilities)
                 else w for w in weapons)


def selection(ctx: Context, u: UnitData, declaration: tuple[ModelChoice, ...],
              engaged_with: dict[str, list[str]] | None = None) -> Selection:
    """The Select Weapons/Targets problem for a fighting unit (facts from geometry).
    ``engaged_with``: :func:`engaged_targets`' answer in this state, when the caller has it
    (read, not changed)."""
    if engaged_with is None:
        engaged_with = engaged_targets(ctx, u)
    enemies = [e for e in ctx.state.units if e.player != u.player and not e.destroyed]
    challenger = epic_challenge_model(ctx, u.id)
    models = tuple(AttackingModel(m.id, _with_precision(m.weapons) if m.id == challenger
                                  else m.weapons, bool(m.keys & {"MONSTER", "VEHICLE"}))
                   for m in u.alive)
    facts: dict[FactKey, WeaponFacts] = {}
    for m in u.alive:
        for w in m.weapons:
            if w.is_melee:
                for t in engaged_with[m.id]:
                    facts[(m.id, w.name, t)] = WeaponFacts(engaged_with_model=True)
    targets = tuple(TargetUnit(e.id, geo.is_engaged(ctx, e), geo.units_engaged(u, e),
                               e.has("MONSTER") or e.has("VEHICLE")) for e in enemies)
    return Selection(AttackKind.FIGHT, models, targets, facts, declaration,
                     attacker_engaged=geo.is_engaged(ctx, u), your_shooting_phase=False)


def check_declaration(ctx: Context, u: UnitData, choice: JSON) -> Selection:
    """Parse and validate; IllegalChoice names the first rule broken."""
    return _checked(ctx, u, choice).sel


def _check_declaration(ctx: Context, u: UnitData, choice: JSON
                       ) -> tuple[Selection, dict[str, tuple[WeaponEntry, ...]]]:
    """:func:`check_declaration`, checked; with ``gather_requests``' entries."""
    decl = parse_declaration(u, choice)
    models = {m.id: m for m in u.alive}
    enemies = {e.id: e for e in ctx.state.units if e.player != u.player}
    for c in decl:
        m = models.get(c.model)
        for wc in c.weapons:
            for t in wc.targets:
                enemy = enemies.get(t)
                why = None if enemy is None or m is None else melee_refusal(u, m, enemy)
                if why is not None:
                    raise IllegalChoice(f"{c.model}: cannot make melee attacks against {t} "
                                        "(AIRCRAFT fight only FLYING units; only FLYING models "
                                        "fight AIRCRAFT)", rule=why)
    # one engagement table for the selection and R04.02-e's test: nothing moves between
    engaged = engaged_targets(ctx, u)
    sel = selection(ctx, u, decl, engaged)
    per_target = gather_requests(sel)  # raises the first violation
    listed = {c.model for c in decl}
    for mid, ts in attackable_targets(ctx, u, engaged).items():
        if ts and mid not in listed and _melee_names(u)[mid]:
            raise IllegalChoice(f"{mid}: a model with an enemy unit engaged with it must "
                                "select its melee weapons and targets", rule="R04.02-e")
    return sel, per_target


@dataclass(frozen=True)
class _Checked:
    """A declaration :func:`check_declaration` accepted, and everything its answer read."""

    state: object
    """The game state it was checked in (held: its ``id`` is not reused while kept)."""
    unit: UnitData
    """The fighting unit."""
    count: int
    """``placement_count()`` then: every model's place, level, facing, profile (keywords)
    and destroyed flag, so the engagement answers and the living models."""
    units: tuple[UnitData, ...]
    """The state's units then (the same objects in the same order: the enemies)."""
    models: tuple[object, ...]
    """The unit's models and each one's weapons tuple then (the same objects)."""
    challenger: str | None
    """15.03 Epic Challenge's model then (the stratagems used this phase)."""
    choice: tuple[object, ...]
    """The declaration (:func:`_choice_key`)."""
    sel: Selection
    """The answer."""
    per_target: dict[str, tuple[WeaponEntry, ...]]
    """``gather_requests(sel)`` (the attacks step's entries)."""


_CHECKED: dict[tuple[int, int], _Checked] = kept.table()
"""The last declaration accepted per (state, unit): the proposer (or an agent) checks its
answer, the frame checks it again when it is submitted and once more when the attacks are
made, in the same state (a Targets Selected window between them may change it: then it is
checked again)."""


def _choice_key(choice: JSON) -> tuple[object, ...] | None:
    """The declaration as nested tuples, each key and value with its type (``1``, ``1.0``
    and ``True`` are equal but parse differently); None for a shape that is not kept."""
    if not isinstance(choice, dict):
        return None
    out: list[object] = []
    for mid, weapons in choice.items():
        if not isinstance(weapons, dict):
            return None
        per: list[object] = []
        for name, tgt in weapons.items():
            if isinstance(tgt, dict):
                per.append((type(name), name, tuple((type(t), t, type(n), n)
                                                    for t, n in tgt.items())))
            elif isinstance(tgt, str) or tgt is None:
                per.append((type(name), name, tgt))
            else:
                return None
        out.append((type(mid), mid, tuple(per)))
    return tuple(out)


def _model_key(u: UnitData) -> tuple[object, ...]:
    return tuple(x for m in u.models for x in (m, m.weapons))


def _checked(ctx: Context, u: UnitData, choice: JSON) -> _Checked:
    """:func:`check_declaration`'s answer and its gathered entries: the kept one when the same
    declaration of the same unit was accepted in the same state with nothing it reads
    changed since (the same objects, placement count and Epic Challenge model), else
    checked (a copy of the entries for the caller either way)."""
    s = ctx.state
    key = (id(s), id(u))
    hit = _CHECKED.get(key)
    choice_key = _choice_key(choice)
    if (hit is not None and choice_key is not None and hit.state is s and hit.unit is u
            and hit.count == placement_count() and hit.choice == choice_key
            and len(hit.units) == len(s.units)
            and all(a is b for a, b in zip(hit.units, s.units, strict=True))
            and len(hit.models) == 2 * len(u.models)
            and all(a is b for a, b in zip(hit.models, _model_key(u), strict=True))
            and hit.challenger == epic_challenge_model(ctx, u.id)):
        return hit
    count = placement_count()
    sel, per_target = _check_declaration(ctx, u, choice)
    out = _Checked(s, u, count, tuple(s.units), _model_key(u),
                   epic_challenge_model(ctx, u.id), choice_key or (), sel, per_target)
    if choice_key is not None and count == placement_count():
        if len(_CHECKED) >= 16:
            _CHECKED.clear()
        _CHECKED[key] = out
    return out


def default_declaration(ctx: Context, u: UnitData, rng: random.Random | None = None,
                        engaged: dict[str, list[str]] | None = None) -> dict[str, JSON]:
    """A legal declaration: per model one melee weapon (plus every [EXTRA ATTACKS] weapon),
    each at one engaged target (random when ``rng`` is given, else the first). ``engaged``:
    :func:`engaged_targets`' answer in this state, when the caller has it."""
    out: dict[str, JSON] = {}
    allowed = attackable_targets(ctx, u, engaged)  # 23.04
    for m in u.alive:
        ts = allowed[m.id]
        if not ts:
            continue
        melee = [w for w in m.weapons if w.is_melee]
        extra = [w for w in melee if any(isinstance(a, ExtraAttacks) for a in w.abilities)]
        others = [w for w in melee if w not in extra]
        picked = ([rng.choice(others) if rng else others[0]] if others else []) + extra
        out[m.id] = {w.name: (rng.choice(ts) if rng else ts[0]) for w in picked}
    return out


def propose_declaration(ctx: Context, request: Request, rng: random.Random) -> JSON:
    u = ctx.state.unit(str(request.context["unit"]))
    for _ in range(5):
        answer = default_declaration(ctx, u, rng)
        try:
            check_declaration(ctx, u, answer)
        except IllegalChoice:
            continue
        return answer
    return request.context["default"]




# -- the fight_unit frame --
class FightUnitStep(StrEnum):
    """Where a unit's fight is."""

    TYPE = "type"
    """Normal or overrun fight (12.05/12.06)."""
    PILE = "pile"
    """The overrun pile-in move."""
    DECLARE = "declare"
    """Select weapons and targets."""
    ATTACKS = "attacks"
    """Push the attacks."""
    DONE = "done"
    """It has fought."""


@dataclass(frozen=True)
class FightUnitFrame(FrameData):
    """12.04-12.06: one selected unit fights."""

    KIND = "fight_unit"
    unit: str
    """The unit."""
    step: FightUnitStep = FightUnitStep.TYPE
    """Where it is."""
    fight_type: str | None = None
    """``normal`` or ``overrun``, once known."""
    declaration: JSON = None
    """The declaration as ``[[model, [[weapon, target | [[target, n], ...]], ...]], ...]``
    lists (the declared order survives a save whose keys get sorted)."""


def _run(ctx: Context, frame: FightUnitFrame) -> Request | None:
    s = ctx.state
    u = s.unit(frame.unit)
    step = frame.step
    if u.destroyed and step is not FightUnitStep.DONE:
        ctx.replace(frame, replace_frame(frame, step=FightUnitStep.DONE))
        return None
    if step is FightUnitStep.TYPE:
        pd = phase_data(ctx)
        now = geo.is_engaged(ctx, u)
        normal = now  # R12.05-a
        # R12.06-a: unengaged, or unengaged at the start of the Fight step and engaged since.
        overrun = not now or u.id in pd.unengaged_at_start
        if normal and overrun:
            return request(u.player, K.FIGHT_TYPE, "R12.06-a",
                           f"{u.name}: normal fight or overrun fight?", ("normal", "overrun"),
                           context={"unit": u.id})
        fight_type = "normal" if normal else "overrun"
        ctx.replace(frame, replace_frame(frame, fight_type=fight_type, step=FightUnitStep.DECLARE
                                   if normal else FightUnitStep.PILE))
        ctx.log("fight_type", unit=u.id, type=fight_type)
        return None
    if step is FightUnitStep.PILE:
        ctx.replace(frame, replace_frame(frame, step=FightUnitStep.DECLARE))
        _push_pile_in(ctx, u, overrun=True)
        return None
    if step is FightUnitStep.DECLARE:
        table = engaged_targets(ctx, u)
        if not any(table.values()):
            ctx.log("fight_no_targets", unit=u.id)  # R04.02-e: no attacks
            ctx.replace(frame, replace_frame(frame, step=FightUnitStep.DONE))
            return None
        default = default_declaration(ctx, u, engaged=table)  # the same state
        return request(u.player, K.DECLARE_FIGHT, "R04.02-c",
                       f"{u.name}: select melee weapons and targets", free_form=DECLARATION,
                       context={"unit": u.id, "models": cast(JSON, _melee_names(u)),
                                "targets": cast(JSON, table), "default": default,
                                "answer": '{"<model id>": {"<weapon>": "<target unit id>" | '
                                          '{"<target unit id>": attacks}}}'})
    if step is FightUnitStep.ATTACKS:
        per_target = dict(_checked(ctx, u, _from_pairs(frame.declaration)).per_target)
        ctx.replace(frame, replace_frame(frame, step=FightUnitStep.DONE))
        # 04.03: one target's attacks resolve before the next (the stack runs the last first).
        for tid, entries in reversed(list(per_target.items())):
            target = s.unit(tid)
            actx = AttackContext(charged=u.flag("charged"), attacker_engaged_with_target=True,
                                 target_models_at_select=len(target.alive), single_target=True)
            push_attack(ctx, u, target, list(entries), actx, melee=True)
        return None
    # done
    u.flags["fought"] = True
    s.active = s.turn_player
    ctx.log("fought", unit=u.id)
    ctx.pop()
    open_window(ctx, Window.AFTER_FIGHT, unit=u.id)
    return None


def _apply(ctx: Context, frame: FightUnitFrame, request: Request, choice: JSON) -> None:
    u = ctx.state.unit(frame.unit)
    if request.kind == "fight_type":
        ctx.replace(frame, replace_frame(frame, fight_type=str(choice), step=FightUnitStep.PILE
                                   if choice == "overrun" else FightUnitStep.DECLARE))
        ctx.log("fight_type", unit=u.id, type=str(choice))
        return
    check_declaration(ctx, u, choice)
    # Kept as lists: the declared order (R04.03-a) survives a save whose keys get sorted.
    ctx.replace(frame, replace_frame(frame, declaration=_to_pairs(choice),
                               step=FightUnitStep.ATTACKS))
    ctx.log("declare_fight", unit=u.id, declaration=choice)
    open_window(ctx, Window.TARGETS_SELECTED, unit=u.id, action="fight",
                targets=list[JSON](sorted(_targets(choice))))


def _push_pile_in(ctx: Context, u: UnitData, *, overrun: bool) -> None:
    """A pile-in move frame for ``u`` if it has pile-in targets (12.03 Before moving)."""
    from w40k.engine.phases.melee_moves import push_move, subsets, units_within
    enemies = visible_enemies(u, ctx.state.units_of(ctx.state.opponent(u.player)))  # R23.02-d
    engaged_with = [e.id for e in enemies if geo.units_engaged(u, e)]
    if engaged_with:
        push_move(ctx, u, "pile_in", 3.0, targets=engaged_with,
                  parent="overrun" if overrun else "")
        return
    near = [e.id for e in enemies if units_within(u, e, PILE_IN_REACH)]
    if near:
        push_move(ctx, u, "pile_in", 3.0, target_options=[*subsets(near), "skip"],
                  parent="overrun" if overrun else "")


def pile_in_options(ctx: Context, u: UnitData) -> bool:
    """Whether ``u`` has pile-in targets (engaged, or an enemy within 5")."""
    from w40k.engine.phases.melee_moves import units_within
    s = ctx.state
    opponent = s.opponent(u.player)
    # the engaged terms first when the engaged enemies are known now (the same "or" over
    # the same enemies: ``units_engaged(u, e)`` is that list's pair test), so an engaged unit
    # is not measured against every enemy's 5" (nothing is measured to know it)
    kept = geo.kept_engaged_enemies(ctx, u)
    if kept is not None and any(e.player == opponent and not ignores(u, e) for e in kept):
        return True
    enemies = visible_enemies(u, s.units_of(opponent))  # R23.02-d
    return any(geo.units_engaged(u, e) or units_within(u, e, PILE_IN_REACH) for e in enemies)


FRAMES: tuple[Handler[Any], ...] = (Handler(FightUnitFrame, _run, _apply),)
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
