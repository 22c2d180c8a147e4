"""Choosing among duplicated unit abilities (24.02) where the rulebook gives a rule for it:
Scouts with several values (R24.02-c)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from w40k.core.abilities import Scouts, UnitAbility


def scouts_distance(models: Sequence[Iterable[UnitAbility]]) -> float | None:
    """The Scouts distance a unit may use, given each model's abilities (None: no Scouts).

    24.02: 'select the lowest number not shared by every model'. R24.02-c recommended reading:
    each model's best Scouts value, then the lowest of those over the unit: every model has
    6" and 8" -> 8"; one model with only 6" and five with 8" -> 6"; model A {6, 8} and model B
    {8} -> 8". A model without Scouts gives the unit no Scouts move (24.31: every model must
    have it)."""
    best: list[float] = []
    for abilities in models:
        values = [a.distance for a in abilities if isinstance(a, Scouts)]
        if not values:
            return None
        best.append(max(values))
    return min(best) if best else None
