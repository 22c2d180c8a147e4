"""The catalog of named datasheet abilities the engine applies (22; docs/battle.md
"Abilities"): an ability written in a datasheet as ``{name: Objective Secured}`` is matched by
name (case and spacing ignored) to an entry here, and its behaviour lives in
``engine/ability_effects.py`` behind the engine's hooks (the attack sequence, the Command
phase, the windows, objective control). A model in a position lists the catalog names it has
(``abilities``); the phases read them there.

An ability the catalog does not know is never silently dropped: :func:`not_applied` lists it,
and ``w40k army`` / ``w40k battle`` print it as ``note: ... not applied``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from w40k.engine.abilities import AbilityKind


def ability_key(name: str) -> str:
    """How ability names are matched: case and spacing ignored."""
    return " ".join(name.strip().casefold().split())


@dataclass(frozen=True)
class CatalogEntry:
    """One ability the engine applies."""

    name: str
    """Its name as a datasheet writes it (the name positions store)."""
    kind: AbilityKind
    """Which rules of 22 apply to it."""
    hook: str
    """Where the engine applies it (for people: the hook in engine/ability_effects.py)."""
    does: str
    """What it does, as this project reads it."""
    range: float | None = None
    """An aura's range in inches (22.01)."""


OBJECTIVE_SECURED = "Objective Secured"
GOOD_BITZ = "Get da Good Bitz"
OATH_OF_MOMENT = "Oath of Moment"
WAAAGH = "Waaagh!"
TACTICAL_PRECISION = "Tactical Precision"
TACTICAL_COMMAND = "Tactical Command"
ERE_WE_GO = "'Ere We Go"
SNEAKY_GITS = "Sneaky Gits"
OMNI_SCRAMBLERS = "Omni-scramblers"

CATALOG: tuple[CatalogEntry, ...] = (
    CatalogEntry(OBJECTIVE_SECURED, AbilityKind.DATASHEET, "end of the Command phase",
                 "At the end of your Command phase, each objective this unit controls is "
                 "secured by your army (14.03: it stays yours until the opponent's level of "
                 "control is greater at the end of a phase)."),
    CatalogEntry(GOOD_BITZ, AbilityKind.DATASHEET, "end of the Command phase",
                 "As Objective Secured."),
    CatalogEntry(OATH_OF_MOMENT, AbilityKind.FACTION, "Command Abilities window; attacks",
                 "In your Command phase, select one unit from your opponent's army: until "
                 "the start of your next Command phase, each time a model from your army "
                 "makes an attack that targets it, you can re-roll the Hit roll (the "
                 "failed ones are re-rolled)."),
    CatalogEntry(WAAAGH, AbilityKind.FACTION, "start of the Command phase; attacks",
                 "Once per battle, at the start of your Command phase, you can call a "
                 "Waaagh!: until the start of your next Command phase, each time an ORKS "
                 "model from your army makes a melee attack, add 1 to the Hit roll and "
                 "to the Wound roll."),
    CatalogEntry(TACTICAL_PRECISION, AbilityKind.DATASHEET, "attacks",
                 "While this model is leading a unit, weapons equipped by models in that "
                 "unit have [LETHAL HITS]."),
    CatalogEntry(TACTICAL_COMMAND, AbilityKind.AURA, "attacks",
                 "Aura: while a friendly unit is within 6\" of this model, each time a model "
                 "in that unit makes an attack, you can re-roll a Hit roll of 1.", range=6.0),
    CatalogEntry(ERE_WE_GO, AbilityKind.DATASHEET, "after a charge roll",
                 "Once per battle, just after making a charge roll for this model's unit, "
                 "you can re-roll it."),
    CatalogEntry(SNEAKY_GITS, AbilityKind.DATASHEET, "attacks (as the target)",
                 "Each time an enemy unit shoots at this unit from more than 12\" away (the "
                 "closest models of the two units more than 12\" apart), subtract 1 from the "
                 "Hit roll.", range=12.0),
    CatalogEntry(OMNI_SCRAMBLERS, AbilityKind.DATASHEET, "set-up from reserves",
                 "Enemy units that are set up on the battlefield from reserves (an ingress "
                 "move, Deep Strike, or a Rapid Disembark following its transport's ingress) "
                 "cannot be set up within 12\" of this unit.", range=12.0),
)
"""Every ability the engine applies."""

_BY_KEY = {ability_key(e.name): e for e in CATALOG}


def entry(name: str) -> CatalogEntry | None:
    """The catalog entry for an ability as a datasheet writes it, or None."""
    return _BY_KEY.get(ability_key(name))


def known(names: Iterable[str]) -> tuple[str, ...]:
    """The catalog names of the abilities the engine applies among ``names`` (each once, in
    order)."""
    out: list[str] = []
    for n in names:
        e = entry(n)
        if e is not None and e.name not in out:
            out.append(e.name)
    return tuple(out)


def not_applied(names: Iterable[tuple[str, str]]) -> list[str]:
    """``(where, ability name)`` pairs whose ability the catalog does not know, one line
    each (``"'Rites of Battle' (Captain) is not applied"``), each pair once."""
    out: list[str] = []
    for where, name in names:
        line = f"{name!r} ({where}) is not applied"
        if entry(name) is None and line not in out:
            out.append(line)
    return out
