"""The Charge phase (11): declare charges one unit at a time, roll 2D6, select charge targets,
make (or decline) the charge move.

Frames: ``charge`` (the phase: which unit declares next) and ``charge_unit`` (one declared
charge: roll, then a ``melee_move`` frame for the targets and the move).

Requests:
- ``select_unit_to_charge``: options = eligible unit ids + ``"done"`` (R11.02-a).
- ``charge_targets``: options = the non-empty subsets (sorted id lists) of the enemy units
  within 12" and within the charge roll (R11.04-a), plus ``"fail"`` (do not move).
- ``positions`` (free form, context ``unit``, ``move_type="charge"``, ``max_distance`` = the
  roll, ``toward`` = the targets): ``{"<model id>": [[x, y], ...]}`` or ``"fail"``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from w40k.core.dice import RollKind
from w40k.engine import geo
from w40k.engine.actions import started_this_turn
from w40k.engine.aircraft import ignores, visible_enemies
from w40k.engine.context import Context
from w40k.engine.frames import FrameData
from w40k.engine.phases.melee_moves import push_move, subsets, units_within
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.engine.stratagems.interventions import heroic_roll, heroic_targets
from w40k.engine.windows import Window, open_window

CHARGE_RANGE = 12.0
"""11.02 / 11.04: enemy units within 12"."""


def eligible_to_charge(ctx: Context, u: UnitData) -> bool:
    """11.02 (R11.02-a): on the battlefield, within 12" of an enemy unit, unengaged, did not
    advance or fall back this turn, has not declared a charge this phase, not AIRCRAFT."""
    if u.destroyed or u.flag("selected_to_charge") or u.flag("advanced") or u.flag("fell_back") \
            or u.flag("emergency_disembark") or u.has("AIRCRAFT") \
            or u.flag("surged"):  # R18.05-b, R23.04-a, R21.02-c
        return False
    if started_this_turn(ctx, u.id):
        return False  # R16.01-b: performing an action
    if geo.is_engaged(ctx, u):  # (AIRCRAFT was refused above)
        return False
    # ``visible_enemies``' filter (R23.04-b) tested per enemy as the "any" comes to it: the
    # same enemies in the same order, none ignored after the first within 12" tested
    return any(not ignores(u, e) and units_within(u, e, CHARGE_RANGE)
               for e in ctx.state.units_of(ctx.state.opponent(u.player)))


def charge_targets(ctx: Context, u: UnitData, roll: int) -> list[str]:
    """11.04 (R11.04-a): enemy units within 12" and within the charge roll; AIRCRAFT only for
    a FLYING unit (R23.04-b)."""
    reach = min(CHARGE_RANGE, float(roll))
    return [e.id for e in visible_enemies(u, ctx.state.units_of(ctx.state.opponent(u.player)))
            if units_within(u, e, reach)]


@dataclass(frozen=True)
class ChargeFrame(FrameData):
    """11: the Charge phase (which unit declares next)."""

    KIND = "charge"
    done: bool = False
    """The player has declared their last charge (``"done"``)."""

    @classmethod
    def legacy(cls, data: dict[str, JSON]) -> dict[str, JSON]:
        """Saves before typed frames gave every phase frame ``step: 0``."""
        return {k: v for k, v in data.items() if not (k == "step" and v == 0)}


class ChargeStep(StrEnum):
    """Where a declared charge is."""

    ROLL = "roll"
    """Roll 2D6 (R11.02-b)."""
    TARGETS = "targets"
    """Select targets and move (a ``melee_move`` frame), or fail."""
    AFTER = "after"
    """Resolved, moved or not."""


@dataclass(frozen=True)
class ChargeUnitFrame(FrameData):
    """11.02-11.04: one declared charge."""

    KIND = "charge_unit"
    unit: str
    """The charging unit."""
    step: ChargeStep = ChargeStep.ROLL
    """Where it is."""
    dice: tuple[int, ...] = ()
    """The charge roll's dice (a reaction may re-roll them: the targets step reads
    ``roll``)."""
    roll: int = 0
    """The charge roll (the maximum distance)."""
    heroic: str | None = None
    """15.11 Heroic Intervention: the mode (``leap_to_defend`` or ``into_the_fray``) of a
    charge declared with it; None for a charge declared in the Charge phase."""
    rerolled: bool = False
    """15.02 Command Re-roll: the charge roll has been re-rolled (R15.02-e)."""


def _phase(ctx: Context, frame: ChargeFrame) -> Request | None:
    s = ctx.state
    s.active = s.turn_player
    eligible = [u for u in s.units_of(s.turn_player) if eligible_to_charge(ctx, u)]
    if frame.done or not eligible:
        ctx.pop()
        return None
    return request(s.turn_player, K.SELECT_UNIT_TO_CHARGE, "R11.02-a",
                   "Select a unit to declare a charge, or 'done'",
                   tuple[JSON, ...]([u.id for u in eligible] + ["done"]),
                   labels=tuple([u.name for u in eligible] + ["done"]))


def _phase_apply(ctx: Context, frame: ChargeFrame, request: Request, choice: JSON) -> None:
    if choice == "done":
        ctx.replace(frame, replace(frame, done=True))
        return
    u = ctx.state.unit(str(choice))
    u.flags["selected_to_charge"] = True
    ctx.log("declare_charge", unit=u.id)
    ctx.push(ChargeUnitFrame(u.id))
    open_window(ctx, Window.UNIT_SELECTED, unit=u.id, action="charge")


def _unit(ctx: Context, frame: ChargeUnitFrame) -> Request | None:
    u = ctx.state.unit(frame.unit)
    if frame.step is ChargeStep.ROLL:
        # R11.02-b: 2D6, the maximum distance
        dice = [r.unmodified for r in ctx.roll(RollKind.CHARGE, 2, unit=u.id)]
        roll = heroic_roll(frame.heroic, sum(dice))
        ctx.replace(frame, replace(frame, dice=tuple(dice), roll=roll,
                                   step=ChargeStep.TARGETS))
        ctx.log("charge_roll", unit=u.id, dice=list[JSON](dice), roll=roll)
        # After the roll, before it is used (the targets step reads the frame's roll).
        open_window(ctx, Window.AFTER_ROLL, kind="charge", unit=u.id, faces=list[JSON](dice))
        return None
    if frame.step is ChargeStep.TARGETS:
        roll = heroic_roll(frame.heroic, frame.roll)  # a re-roll is capped too
        ids = heroic_targets(ctx, frame.heroic, u, charge_targets(ctx, u, roll))
        ctx.replace(frame, replace(frame, step=ChargeStep.AFTER))
        if not ids:
            # R11.01-a: no enemy within the roll (a double 1 never reaches).
            ctx.log("charge_failed", unit=u.id, reason="no charge target within the roll")
            return None
        push_move(ctx, u, "charge", float(roll), target_options=[*subsets(ids), "fail"])
        return None
    ctx.pop()  # the charge is resolved, moved or not (R11.02-c)
    return None


FRAMES: tuple[Handler[Any], ...] = (Handler(ChargeFrame, _phase, _phase_apply),
                                    Handler(ChargeUnitFrame, _unit))
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
