"""Strategic reserves (20) and aircraft deployment (23.01): what may start in reserve, when
reserve units may arrive, and which are destroyed for never arriving. (A unit's Scouts
distance, 24.02-c, is ``core.abilities_units.scouts_distance``.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

RESERVE_SHARE = 0.5
"""20.01: reserves may hold at most 50% of the battle size's points limit."""
FIRST_ARRIVAL_ROUND = 2
"""20.03: units arrive from the second battle round onwards, unless stated otherwise."""
LAST_ROUND_TO_ARRIVE = 3
"""20.04: at the end of the third battle round unarrived reserve units are destroyed."""


@dataclass(frozen=True)
class FormationUnit:
    """One unit as Declare Battle Formations sees it."""

    name: str
    """Its name (for messages)."""
    points: int
    """Its points value."""
    keywords: frozenset[str]
    """Its keywords (upper case)."""
    in_reserve: bool = False
    """Placed in strategic reserves."""
    embarked_in: str | None = None
    """The transport it starts embarked in (by name), if any."""


def formation_violations(units: Sequence[FormationUnit], points_limit: int) -> list[str]:
    """20.01 and 23.01: no FORTIFICATION in reserve, every AIRCRAFT in reserve, and at most
    half the points limit in reserve, counting units embarked in a reserved transport."""
    out: list[str] = []
    by_name = {u.name: u for u in units}

    def reserved(u: FormationUnit) -> bool:
        if u.in_reserve:
            return True
        host = by_name.get(u.embarked_in) if u.embarked_in else None
        return host is not None and host.in_reserve

    for u in units:
        if u.in_reserve and "FORTIFICATION" in u.keywords:
            out.append(f"R20.01-a: {u.name} is a FORTIFICATION and cannot be placed in "
                       f"strategic reserves")
        if "AIRCRAFT" in u.keywords and not u.in_reserve:
            out.append(f"R23.01-a: {u.name} is an AIRCRAFT and must start in strategic "
                       f"reserves")
    total = sum(u.points for u in units if reserved(u))
    limit = points_limit * RESERVE_SHARE
    if total > limit:
        out.append(f"R20.01-a: {total} points in strategic reserves, more than 50% of the "
                   f"{points_limit}-point limit ({limit:g})")
    return out


def may_arrive(battle_round: int, first_round: int = FIRST_ARRIVAL_ROUND) -> bool:
    """20.03: reserve units may make ingress moves from ``first_round`` (2 unless a rule
    states otherwise)."""
    return battle_round >= first_round


def destroyed_for_not_arriving(*, battle_round: int, has_made_ingress: bool,
                               repositioned: bool, transport_made_ingress: bool) -> bool:
    """20.04: at the end of the third battle round a reserve unit that never made an ingress
    move is destroyed, unless it is a repositioned unit or is embarked in a transport that
    has made an ingress move (an AIRCRAFT returned to reserves has made one, R20.04-e)."""
    if battle_round < LAST_ROUND_TO_ARRIVE:
        return False
    return not (has_made_ingress or repositioned or transport_made_ingress)
