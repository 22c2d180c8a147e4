"""The restrictions for and against AIRCRAFT (23.02, 23.04) that the phases share.

21.03: a unit containing a model with FLY can FLY (a FLYING unit); a model with FLY is a
FLYING model. The readings are in docs/rulings.md (R23.02-d, R23.02-e, R23.04-a/b).
"""

from __future__ import annotations

from collections.abc import Iterable

from w40k.engine.state import ModelData, UnitData


def can_fly(u: UnitData) -> bool:
    """21.03: one of the unit's models has FLY."""
    return u.has("FLY")


def is_aircraft(u: UnitData) -> bool:
    """The unit has the AIRCRAFT keyword."""
    return u.has("AIRCRAFT")


def ignores(u: UnitData, enemy: UnitData) -> bool:
    """R23.02-d / R23.04-b: ``u`` (not FLYING) ignores the AIRCRAFT ``enemy`` when it selects
    pile-in, consolidation, surge or charge targets and works out the closest enemy unit."""
    return is_aircraft(enemy) and not can_fly(u)


def visible_enemies(u: UnitData, enemies: Iterable[UnitData]) -> list[UnitData]:
    """``enemies`` without the ones ``u`` ignores (:func:`ignores`)."""
    return [e for e in enemies if not ignores(u, e)]


def engaged_only_with_aircraft(engaged: Iterable[UnitData]) -> bool:
    """R23.02-e: every engaged enemy unit is AIRCRAFT (and there is one)."""
    es = list(engaged)
    return bool(es) and all(is_aircraft(e) for e in es)


def melee_refusal(attacker: UnitData, model: ModelData, target: UnitData) -> str | None:
    """23.04: why ``model`` of ``attacker`` may not make melee attacks against ``target``
    (the checklist ID), or None: an AIRCRAFT attacks only FLYING units (R23.04-a); only FLYING
    models attack AIRCRAFT (R23.04-b)."""
    if is_aircraft(attacker) and not can_fly(target):
        return "R23.04-a"
    if is_aircraft(target) and "FLY" not in model.keys:
        return "R23.04-b"
    return None
