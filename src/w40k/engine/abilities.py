"""Other rules and abilities (22) as typed data: aura, faction, psychic and wargear abilities
a datasheet can list, with the rules that decide where each applies. A passive ability changes
a characteristic (``modifiers``); a triggered one is a reaction of an engine window
(``reaction``), so a datasheet's abilities are written without touching the phases.

Which models carry which abilities is given by the caller (``Carried``): positions do not
list datasheet abilities yet (docs/battle.md "Abilities")."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from w40k.core.keywords import canonical_keyword
from w40k.engine import geo
from w40k.engine.state import GameState, ModelData, UnitData
from w40k.engine.windows import Reaction
from w40k.geometry.measure import horizontal_distance

if TYPE_CHECKING:
    from w40k.engine.context import Context

PSYCHIC_CAUSE = "psychic attack"
"""22.03: the ``cause`` prefix of wounds inflicted by a psychic ability."""


class AbilityKind(StrEnum):
    """The kinds of 22."""

    AURA = "aura"
    """22.01: affects models or units within a range."""
    FACTION = "faction"
    """22.02: applies only for the army faction."""
    PSYCHIC = "psychic"
    """22.03: its wounds are inflicted by a psychic attack."""
    WARGEAR = "wargear"
    """22.04: gained from an item of wargear; the bearer's ability until it is destroyed."""
    DATASHEET = "datasheet"
    """Any other datasheet ability."""


@dataclass(frozen=True)
class Ability:
    """One ability as a datasheet states it."""

    name: str
    """Its name (two sources of one aura have the same name: 22.01)."""
    kind: AbilityKind
    """Which rules of 22 apply to it."""
    rule: str = ""
    """Where it is defined."""
    range: float | None = None
    """22.01: the aura's range in inches."""
    faction: str | None = None
    """22.02: the faction keyword it belongs to."""
    wargear: str | None = None
    """22.04: the item of wargear (a weapon name) that gives it."""
    modifiers: dict[str, int] = field(default_factory=dict)
    """A passive effect: characteristic -> modifier (``{"OC": 1}``)."""
    reaction: Reaction | None = None
    """A triggered effect: the reaction offered in an engine window."""
    while_leading: bool = False
    """A leader's or support model's "while this model is leading a unit" ability: it applies
    while its bearer is a leader/support model of an attached unit, even once the bodyguard
    models are all destroyed (19.04 footnote, R19.04-c; ``UnitData.attached`` stays set)."""
    model_only: bool = False
    """19.04 (R19.04-a): it affects only the specified model that has it (an enhancement, an
    item of wargear), never the rest of an attached unit: :func:`model_modifier`."""


Carried = Callable[[ModelData], Iterable[Ability]]
"""The abilities a model has (from its datasheet)."""


def within_aura(source: ModelData, ability: Ability, unit: UnitData) -> bool:
    """22.01 (R22.01-a): a model of ``unit`` is within range of ``source``'s aura; a model is
    always within range of its own aura."""
    if source.destroyed or ability.range is None:
        return False
    if any(m.id == source.id for m in unit.alive):
        return True
    s = geo.model_shape(source)
    return any(horizontal_distance(s, geo.model_shape(m)) <= ability.range + 1e-9
               for m in unit.alive)


def auras_on(ctx: Context, unit: UnitData, carried: Carried) -> list[Ability]:
    """22.01 (R22.01-b): the auras that apply to ``unit``: each aura once however many sources
    have it in range (friendly auras: the sources are the unit's player's models); different
    auras all apply."""
    return auras_in(ctx.state, unit, carried)


def auras_in(state: GameState, unit: UnitData, carried: Carried) -> list[Ability]:
    """:func:`auras_on` read from a state alone (no game context: the players' estimates)."""
    out: dict[str, Ability] = {}
    for u in state.units_of(unit.player):
        for m in u.alive:
            for a in carried(m):
                if a.kind is AbilityKind.AURA and a.name not in out and within_aura(m, a, unit):
                    out[a.name] = a
    return list(out.values())


def faction_applies(ability: Ability, army_faction: str, unit: UnitData) -> bool:
    """22.02 (R22.02-a): a faction ability applies only when the army faction is one of the
    unit's faction keywords."""
    if ability.kind is not AbilityKind.FACTION:
        return True
    key = canonical_keyword(army_faction)
    return key == canonical_keyword(ability.faction or army_faction) and unit.has(key)


def wargear_applies(ability: Ability, unit: UnitData) -> bool:
    """22.04 (R22.04-a): a wargear ability applies while a living model of the unit bears the
    item (a model's item: until that bearer is destroyed)."""
    if ability.kind is not AbilityKind.WARGEAR:
        return True
    return any(w.name == ability.wargear for m in unit.alive for w in m.weapons)


def modifier(ctx: Context, unit: UnitData, characteristic: str, carried: Carried, *,
             army_faction: str | None = None) -> int:
    """The net modifier to ``characteristic`` of ``unit``'s models from the abilities in force:
    its own models' (faction and wargear rules applied) and the auras in range (once each)."""
    own: dict[str, Ability] = {}
    for m in unit.alive:
        for a in carried(m):
            if a.kind is AbilityKind.AURA or a.model_only:
                continue
            if a.while_leading and not leading(unit, m):
                continue
            if army_faction is not None and not faction_applies(a, army_faction, unit):
                continue
            if wargear_applies(a, unit):
                own.setdefault(a.name, a)
    found = [*own.values(), *auras_on(ctx, unit, carried)]
    return sum(a.modifiers.get(characteristic, 0) for a in found)


def leading(unit: UnitData, m: ModelData) -> bool:
    """Whether ``m`` is leading ``unit``: a leader/support model of an attached unit (19.04;
    the unit stays attached when its bodyguard models are all destroyed, R19.04-c)."""
    return unit.attached and m.leader


def model_modifier(ctx: Context, unit: UnitData, m: ModelData, characteristic: str,
                   carried: Carried, *, army_faction: str | None = None) -> int:
    """:func:`modifier` for one model ``m`` of ``unit``: the unit-wide abilities in force plus
    ``m``'s own single-model abilities (19.04, R19.04-a: another model's never count)."""
    mine = sum(a.modifiers.get(characteristic, 0) for a in carried(m)
               if a.model_only and not m.destroyed)
    return modifier(ctx, unit, characteristic, carried, army_faction=army_faction) + mine


def psychic_mortal_wounds(ctx: Context, ability: Ability, target: UnitData, amount: int) -> None:
    """22.03 (R22.03-a): mortal wounds from a psychic ability are inflicted by a psychic
    attack: the ``mortal_wounds`` frame and each ``mortal_wound`` event carry the cause
    ``"psychic attack: <name>"`` (rules such as Feel No Pain against psychic attacks read it)."""
    from w40k.engine.phases.movement import push_mortal_wounds

    cause = f"{PSYCHIC_CAUSE}: {ability.name}" if ability.kind is AbilityKind.PSYCHIC \
        else ability.name
    push_mortal_wounds(ctx, target, amount, cause=cause)


def is_psychic(cause: str) -> bool:
    """Whether wounds with this ``cause`` were inflicted by a psychic attack (22.03)."""
    return cause.startswith(PSYCHIC_CAUSE)
