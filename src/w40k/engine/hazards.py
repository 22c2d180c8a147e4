"""Hazard rolls (06.03) made for a whole unit at once: one D6 per model, logged, and the
mortal wounds of the failures (1 each, 3 if every model is MONSTER or VEHICLE) pushed to be
inflicted one at a time (06.02)."""

from __future__ import annotations

from w40k.core.dice import RollKind
from w40k.engine.context import Context
from w40k.engine.model_states import model_states
from w40k.engine.phases.movement_frames import MortalWoundsFrame
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.rules.primitives import hazard_fails, hazard_mortal_wounds


def unit_hazard_rolls(ctx: Context, u: UnitData, cause: str) -> tuple[int, ...]:
    """Roll a hazard roll for each living model of ``u`` together, log them as
    ``hazard_rolls`` (``cause``), push the mortal wounds of the failures; the faces."""
    dice = tuple(r.unmodified for r in ctx.roll(RollKind.HAZARD, len(u.alive), unit=u.id))
    fails = sum(hazard_fails(r) for r in dice)
    mw = fails * hazard_mortal_wounds(model_states(u))
    ctx.log("hazard_rolls", unit=u.id, dice=list[JSON](dice), failed=fails,
            mortal_wounds=mw, cause=cause)
    if mw:
        ctx.push(MortalWoundsFrame(u.id, mw, cause))
    return dice
