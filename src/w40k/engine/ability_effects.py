"""What the catalog's datasheet abilities do (engine/ability_catalog.py), through the engine's
hooks: the attack sequence (:func:`adjust_attack`, called when a unit's attacks are pushed),
the Command phase (:func:`start_of_command_phase`, :func:`end_of_command_phase`) and the
windows (:data:`REACTIONS`: Oath of Moment, Waaagh!, 'Ere We Go).

A model's abilities are the names in ``ModelData.abilities``; a player's effects in force and
once-per-battle uses are ``PlayerData.effects`` (both in positions). A position without them
plays exactly as before: every hook returns at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from w40k.core import kept
from w40k.core.abilities import LethalHits
from w40k.core.dice import Modifier, RollKind
from w40k.core.jsonval import JSON
from w40k.engine import geo
from w40k.engine.abilities import Ability, AbilityKind, within_aura
from w40k.engine.ability_catalog import (
    ERE_WE_GO,
    GOOD_BITZ,
    OATH_OF_MOMENT,
    OBJECTIVE_SECURED,
    SNEAKY_GITS,
    TACTICAL_COMMAND,
    TACTICAL_PRECISION,
    WAAAGH,
    entry,
)
from w40k.engine.state import GameState, ModelData, UnitData, placement_count
from w40k.engine.units import model_oc
from w40k.engine.windows import Facts, Reaction, Window
from w40k.geometry.shapes import EPS
from w40k.rules.attack_profile import AttackContext, Reroll, WeaponEntry

if TYPE_CHECKING:
    from w40k.engine.context import Context

WAAAGH_ACTIVE = "Waaagh! active"
"""The ``effects`` key set while a called Waaagh! lasts (``effects["Waaagh!"]``: the round
it was called in, its once-per-battle record)."""

SECURING = (OBJECTIVE_SECURED, GOOD_BITZ)
"""The abilities that secure an objective at the end of the Command phase."""


def has(m: ModelData, name: str) -> bool:
    """Whether a living model has the catalog ability ``name``."""
    return not m.destroyed and name in m.abilities


def unit_has(u: UnitData, name: str) -> bool:
    """Whether a living model of ``u`` has ``name``."""
    return any(has(m, name) for m in u.models)


def army_has(ctx: Context, player: str, name: str) -> list[UnitData]:
    """``player``'s units on the battlefield with a living model that has ``name``."""
    return [u for u in ctx.state.units_of(player) if unit_has(u, name)]


def _any_abilities(state: GameState, player: str) -> bool:
    """Whether a model of ``player``'s units on the battlefield has a catalog ability, or the
    player has an effect in force (plain loops: called for every estimated attack)."""
    if state.player(player).effects:
        return True
    for u in state.units:
        if u.player != player or u.destroyed:
            continue
        for m in u.models:
            if m.abilities:
                return True
    return False


def _in_aura(state: GameState, unit: UnitData, name: str) -> bool:
    """:func:`_in_aura_now`, kept per (state, unit, aura) while no model of any game is placed
    (``placement_count``: positions, facings, profiles and destroyed flags) and the state's
    units on the battlefield are the same objects; the entry holds the state, the unit and
    the units, so their ids are not reused while it is kept. A model's abilities are set once,
    from its position (never assigned after)."""
    now = placement_count()
    units = state.units
    ids = tuple(map(id, units))
    key = (id(state), id(unit), name)
    hit = _IN_AURA.get(key)
    if hit is not None and hit[0] is state and hit[1] is unit and hit[2] == now \
            and hit[3] == ids:
        return hit[5]
    answer = _in_aura_now(state, unit, name)
    if len(_IN_AURA) >= 256:
        _IN_AURA.clear()
    _IN_AURA[key] = (state, unit, now, ids, tuple(units), answer)
    return answer


_IN_AURA: dict[tuple[int, int, str],
               tuple[GameState, UnitData, int, tuple[int, ...], tuple[UnitData, ...],
                     bool]] = kept.table()
"""The kept answers of :func:`_in_aura` (bounded)."""


def _in_aura_now(state: GameState, unit: UnitData, name: str) -> bool:
    """Whether ``unit`` is within range of the catalog aura ``name`` (a catalog name) of a
    living model of its own army (22.01): whether ``auras_in(state, unit, carried)`` lists
    ``name``, read from the models that carry it (no other model's auras built; a unit that
    is destroyed has no living model, so ``units_of``'s filter changes nothing)."""
    e = entry(name)
    if e is None or e.kind is not AbilityKind.AURA:
        return False
    aura = _aura(e.name, e.range)
    player = unit.player
    kept = _AURA_NAMES
    for u in state.units:
        if u.player != player:
            continue
        for m in u.models:
            names = m.abilities
            if m.destroyed or not names:
                continue
            auras = kept.get(names)
            if auras is None:
                auras = _aura_names(names)
            if name in auras and within_aura(m, aura, unit):
                return True
    return False


_AURA_NAMES: dict[tuple[str, ...], frozenset[str]] = {}
""":func:`_aura_names` kept per abilities tuple (a plain dict: read for every model of an army
at every estimated attack; a few distinct tuples per army)."""


def _aura_names(names: tuple[str, ...]) -> frozenset[str]:
    """The catalog names of the auras among ``names`` (as :func:`carried` names them)."""
    out = frozenset(a.name for a in _auras(names))
    if len(_AURA_NAMES) >= 256:
        _AURA_NAMES.clear()
    _AURA_NAMES[names] = out
    return out


@lru_cache(maxsize=64)
def _aura(name: str, range_: float | None) -> Ability:
    return Ability(name, AbilityKind.AURA, rule="22.01", range=range_)


def carried(m: ModelData) -> Iterable[Ability]:
    """A model's catalog auras as typed abilities (22.01), for ``engine.abilities``."""
    return _auras(m.abilities) if m.abilities else ()


@lru_cache(maxsize=256)
def _auras(names: tuple[str, ...]) -> tuple[Ability, ...]:
    """The catalog auras among ``names`` (a few distinct tuples per army: kept)."""
    out: list[Ability] = []
    for name in names:
        e = entry(name)
        if e is not None and e.kind is AbilityKind.AURA:
            out.append(_aura(e.name, e.range))
    return tuple(out)


# -- the Command phase ------------------------------------------------------------------------
def start_of_command_phase(ctx: Context, player: str) -> None:
    """Effects that last 'until the start of your next Command phase' end (Oath of Moment's
    target, a called Waaagh!)."""
    effects = ctx.state.player(player).effects
    for key in (OATH_OF_MOMENT, WAAAGH_ACTIVE):
        if key in effects:
            del effects[key]
            ctx.log("ability_ends", ability=key, player=player)


def end_of_command_phase(ctx: Context, player: str) -> None:
    """Objective Secured / Get da Good Bitz: each objective ``player`` controls at the end of
    their Command phase that a unit with the ability controls (14.02: a model with OC 1 or
    more within range) is secured by their army (14.03, engine/flow.py keeps it)."""
    s = ctx.state
    units = [u for name in SECURING for u in army_has(ctx, player, name)]
    if not units:
        return
    for obj in s.objectives:
        if obj.controller != player or obj.secured_by == player:
            continue
        holders = [u.id for u in units
                   if any(model_oc(u, m) >= 1 and geo.in_objective_range(ctx, m, obj)
                          for m in u.alive)]
        if holders:
            obj.secured_by = player
            ctx.log("objective_secured", objective=obj.name, player=player,
                    units=list[JSON](holders))


# -- the attack sequence ----------------------------------------------------------------------
def adjust_attack(ctx: Context, attacker: UnitData, target: UnitData,
                  weapons: list[WeaponEntry], actx: AttackContext, *, melee: bool
                  ) -> tuple[list[WeaponEntry], AttackContext]:
    """The attack as the abilities in force change it (:func:`attack_abilities`), each logged
    as an ``ability`` event."""
    weapons, actx, applied = attack_abilities(ctx.state, attacker, target, weapons, actx,
                                              melee=melee)
    if applied:
        ctx.log("ability", abilities=list[JSON](applied), unit=attacker.id, target=target.id)
    return weapons, actx


def attack_abilities(state: GameState, attacker: UnitData, target: UnitData,
                     weapons: list[WeaponEntry], actx: AttackContext, *, melee: bool,
                     distance: float | None = None
                     ) -> tuple[list[WeaponEntry], AttackContext, tuple[str, ...]]:
    """The attack as the abilities in force change it, and the names of those that apply
    (read-only: the engine's :func:`adjust_attack` and the players' estimates share it): Oath
    of Moment (re-roll failed hits against the target), Tactical Command (aura, re-roll hits
    of 1), Tactical Precision ([LETHAL HITS] while leading), Waaagh! (+1 to hit and wound in
    melee), and the target's Sneaky Gits (-1 to hit when shot at from more than 12" away).
    ``distance``: the units' distance for an estimate of a move not made yet (Sneaky Gits;
    the units' positions by default)."""
    player = attacker.player
    sneaky = not melee and unit_has(target, SNEAKY_GITS) \
        and _shot_from_afar(attacker, target, distance)
    if not sneaky and not _any_abilities(state, player):
        return weapons, actx, ()
    effects = state.player(player).effects
    applied: list[str] = []
    reroll = actx.reroll_hits
    if effects.get(OATH_OF_MOMENT) == target.id:
        reroll = Reroll.FAILED
        applied.append(OATH_OF_MOMENT)
    elif reroll is Reroll.NONE and _in_aura(state, attacker, TACTICAL_COMMAND):
        reroll = Reroll.ONES  # 22.01: once, however many sources are in range
        applied.append(TACTICAL_COMMAND)
    hit_mods, wound_mods = actx.hit_modifiers, actx.wound_modifiers
    if melee and effects.get(WAAAGH_ACTIVE) and attacker.has("ORKS"):
        hit_mods = (*hit_mods, Modifier(WAAAGH, +1))
        wound_mods = (*wound_mods, Modifier(WAAAGH, +1))
        applied.append(WAAAGH)
    if sneaky:
        hit_mods = (*hit_mods, Modifier(SNEAKY_GITS, -1))
        applied.append(SNEAKY_GITS)
    if attacker.attached and any(has(m, TACTICAL_PRECISION) and m.leader
                                 for m in attacker.models):
        weapons = [dataclasses.replace(e, weapon=dataclasses.replace(
            e.weapon, abilities=(*e.weapon.abilities, LethalHits())))
            if not e.weapon.abilities_of(LethalHits) else e for e in weapons]
        applied.append(TACTICAL_PRECISION)
    if not applied:
        return weapons, actx, ()
    return weapons, _changed(actx, reroll, hit_mods, wound_mods), tuple(applied)


@lru_cache(maxsize=1024)
def _changed(actx: AttackContext, reroll: Reroll, hit_mods: tuple[Modifier, ...],
             wound_mods: tuple[Modifier, ...]) -> AttackContext:
    """``actx`` with these re-rolls and modifiers (frozen values: an equal context is as
    good; kept, as the players' estimates ask for the same few again and again)."""
    return dataclasses.replace(actx, reroll_hits=reroll, hit_modifiers=hit_mods,
                               wound_modifiers=wound_mods)


def _shot_from_afar(attacker: UnitData, target: UnitData, distance: float | None = None
                    ) -> bool:
    """Sneaky Gits: the shooting unit is more than 12" away, unit to unit (01.04: the closest
    models; docs/rulings.md); ``distance``: that distance given (an estimate)."""
    from w40k.engine.phases.melee_moves import units_within

    e = entry(SNEAKY_GITS)
    assert e is not None and e.range is not None
    if distance is not None:
        return distance > e.range + EPS  # as units_within measures
    return not units_within(attacker, target, e.range)


# -- the reactions -----------------------------------------------------------------------------
def _own_command_phase(ctx: Context, player: str) -> bool:
    s = ctx.state
    return s.turn_player == player and s.phase == "command"


def _oath_options(ctx: Context, facts: Facts, player: str) -> list[JSON]:
    s = ctx.state
    if not _own_command_phase(ctx, player) or OATH_OF_MOMENT in s.player(player).effects \
            or not army_has(ctx, player, OATH_OF_MOMENT):
        return []
    return [{"unit": u.id} for u in s.units_of(s.opponent(player))]


def _oath_use(ctx: Context, facts: Facts, player: str, answer: JSON) -> None:
    uid = str(cast(dict[str, JSON], answer)["unit"])
    ctx.state.player(player).effects[OATH_OF_MOMENT] = uid
    ctx.log("ability_used", ability=OATH_OF_MOMENT, player=player, unit=uid)


def _waaagh_options(ctx: Context, facts: Facts, player: str) -> list[JSON]:
    s = ctx.state
    if facts.get("phase") != "command" or not _own_command_phase(ctx, player) \
            or WAAAGH in s.player(player).effects:
        return []  # once per battle
    holders = army_has(ctx, player, WAAAGH)
    return [{"unit": holders[0].id}] if holders else []


def _waaagh_use(ctx: Context, facts: Facts, player: str, answer: JSON) -> None:
    effects = ctx.state.player(player).effects
    effects[WAAAGH] = ctx.state.round
    effects[WAAAGH_ACTIVE] = ctx.state.round
    ctx.log("ability_used", ability=WAAAGH, player=player,
            unit=cast(dict[str, JSON], answer)["unit"])


def _ere_options(ctx: Context, facts: Facts, player: str) -> list[JSON]:
    uid = facts.get("unit")
    if facts.get("kind") != RollKind.CHARGE or not isinstance(uid, str):
        return []  # (asked after every attack roll: the import below only for a charge)
    from w40k.engine.stratagems.reroll import _charge_frame

    s = ctx.state
    u = s.unit(uid)
    if u.player != player or ERE_WE_GO in s.player(player).effects \
            or not unit_has(u, ERE_WE_GO):
        return []
    cf = _charge_frame(ctx, uid)
    return [] if cf is None or cf.rerolled else [{"unit": uid}]


def _ere_use(ctx: Context, facts: Facts, player: str, answer: JSON) -> None:
    from w40k.engine.stratagems.reroll import _charge_frame, _reroll_charge

    uid = str(cast(dict[str, JSON], answer)["unit"])
    cf = _charge_frame(ctx, uid)
    assert cf is not None
    old, new = _reroll_charge(ctx, cf, uid)
    ctx.state.player(player).effects[ERE_WE_GO] = ctx.state.round  # once per battle
    ctx.log("ability_used", ability=ERE_WE_GO, player=player, unit=uid, old=old, new=new)
    ctx.log("charge_roll", unit=uid, dice=new, roll=sum(cast(list[int], new)))


OATH_REACTION = Reaction(OATH_OF_MOMENT, Window.COMMAND_ABILITIES, "R08.04-a", _oath_options,
                         _oath_use)
"""Oath of Moment: select the target in the Command Abilities step (08.04)."""
WAAAGH_REACTION = Reaction(WAAAGH, Window.START_OF_PHASE, "22.02", _waaagh_options,
                           _waaagh_use)
"""Waaagh!: called at the start of the Command phase, once per battle."""
ERE_WE_GO_REACTION = Reaction(ERE_WE_GO, Window.AFTER_ROLL, "datasheet", _ere_options, _ere_use)
"""'Ere We Go: re-roll a charge roll, once per battle."""

REACTIONS: tuple[Reaction, ...] = (OATH_REACTION, WAAAGH_REACTION, ERE_WE_GO_REACTION)
"""The abilities' reactions (engine/reactions_table.py lists them after the stratagems)."""
