"""Unit-level rules the phases share: strength (Appendix), battle-shock (01.07), OC."""

from __future__ import annotations

from w40k.core.dice import RollKind
from w40k.engine.context import Context
from w40k.engine.death import model_destroyed
from w40k.engine.offtable import emergency_disembark
from w40k.engine.state import ModelData, UnitData
from w40k.rules.strength import Strength, strength


def is_enemy(a: UnitData, b: UnitData) -> bool:
    """01.02 (R01.02-b): enemy units are in the opponent's army; friendly ones in yours."""
    return a.player != b.player


def is_friendly(a: UnitData, b: UnitData) -> bool:
    """01.02 (R01.02-b): a unit of the same army (a unit is friendly to itself)."""
    return a.player == b.player


def centre(u: UnitData) -> tuple[float, float]:
    """The mean position of the unit's living models (of all, once it is destroyed)."""
    ms = u.alive or u.models
    return (sum(m.x for m in ms) / len(ms), sum(m.y for m in ms) / len(ms))


def unit_strength(u: UnitData) -> Strength | None:
    """The Appendix status of ``u`` (rules/strength.py); None before its starting strength is
    fixed (the start of the first battle round) or once it is destroyed."""
    if not u.starting_strength or not u.alive:
        return None
    if u.starting_strength == 1:
        m = u.alive[0]
        return strength(1, 1, W=m.profile.W, wounds_remaining=max(0, m.remaining))
    return strength(u.starting_strength, min(len(u.alive), u.starting_strength))


def at_or_below_half_strength(u: UnitData) -> bool:
    """Appendix 'Starting strength and half-strength': models for a unit of 2+, wounds for a
    single model; an odd count can be below but never at half."""
    st = unit_strength(u)
    return st is not None and st.at_or_below_half


def best_leadership(u: UnitData) -> int:
    """01.06: the roll succeeds against any Ld in the unit, so the best (lowest) counts."""
    return min(m.profile.Ld for m in u.alive)


def leadership_roll(ctx: Context, u: UnitData) -> tuple[bool, list[int]]:
    """01.06: 2D6, success if the result is at least one Ld value of the unit."""
    dice = [r.unmodified for r in ctx.roll(RollKind.BATTLE_SHOCK, 2, unit=u.id)]
    return sum(dice) >= best_leadership(u), dice


def model_oc(u: UnitData, m: ModelData) -> int:
    """02.02 / 01.07: OC, '-' (0) while the unit is battle-shocked or for OC '-' models."""
    if u.flag("battle_shocked") or m.profile.OC is None:
        return 0
    return m.profile.OC


def destroy(ctx: Context, u: UnitData, m: ModelData, *, cause: str, triggers: bool = True) -> None:
    """Mark a model destroyed and log it (Appendix 'Destroyed'); its on-death rules (24.08)
    wait in a ``deaths`` frame unless ``triggers`` is False (03.03 coherency removals); so
    do the emergency disembarks from a TRANSPORT (18.03, R18.05-d: engine/death.py)."""
    if m.profile.transport is not None and not triggers:
        emergency_disembark(ctx, u, m)  # 18.03: before the transport is removed
    m.destroyed = True
    m.wounds_lost = m.profile.W
    ctx.log("destroyed", unit=u.id, model=m.id, cause=cause, triggers=triggers)
    if u.destroyed:
        ctx.log("unit_destroyed", unit=u.id)
    if triggers:
        model_destroyed(ctx, u, m)
