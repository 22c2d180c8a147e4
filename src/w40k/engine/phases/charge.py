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

from typing import TYPE_CHECKING, cast

from w40k.core.dice import RollKind
from w40k.engine import geo
from w40k.engine.actions import started_this_turn
from w40k.engine.phases.melee_moves import push_move, subsets, units_within
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import Frame, UnitData
from w40k.engine.stratagems.interventions import heroic_roll, heroic_targets
from w40k.engine.windows import Window, open_window

if TYPE_CHECKING:
    from w40k.engine.game import Game

CHARGE_RANGE = 12.0
"""11.02 / 11.04: enemy units within 12"."""


def eligible_to_charge(game: Game, u: UnitData) -> bool:
    """11.02 (R11.02-a): on the battlefield, within 12" of an enemy unit, unengaged, did not
    advance or fall back this turn, has not declared a charge this phase, not AIRCRAFT."""
    if u.destroyed or u.flag("selected_to_charge") or u.flag("advanced") or u.flag("fell_back"):
        return False
    if started_this_turn(game, u.id):
        return False  # R16.01-b: performing an action
    if u.has("AIRCRAFT") or geo.is_engaged(game, u):
        return False
    return any(units_within(u, e, CHARGE_RANGE) for e in game.state.units_of(
        game.state.opponent(u.player)))


def charge_targets(game: Game, u: UnitData, roll: int) -> list[str]:
    """11.04 (R11.04-a): enemy units within 12" and within the charge roll."""
    reach = min(CHARGE_RANGE, float(roll))
    return [e.id for e in game.state.units_of(game.state.opponent(u.player))
            if units_within(u, e, reach)]


def _phase(game: Game, frame: Frame) -> Request | None:
    s = game.state
    s.active = s.turn_player
    eligible = [u for u in s.units_of(s.turn_player) if eligible_to_charge(game, u)]
    if frame.data.get("done") or not eligible:
        game.pop()
        return None
    return request(s.turn_player, K.SELECT_UNIT_TO_CHARGE, "R11.02-a",
                   "Select a unit to declare a charge, or 'done'",
                   tuple[JSON, ...]([u.id for u in eligible] + ["done"]),
                   labels=tuple([u.name for u in eligible] + ["done"]))


def _phase_apply(game: Game, frame: Frame, request: Request, choice: JSON) -> None:
    if choice == "done":
        frame.data["done"] = True
        return
    u = game.state.unit(str(choice))
    u.flags["selected_to_charge"] = True
    game.log("declare_charge", unit=u.id)
    game.push("charge_unit", unit=u.id, step="roll")
    open_window(game, Window.UNIT_SELECTED, unit=u.id, action="charge")


def _unit(game: Game, frame: Frame) -> Request | None:
    d = frame.data
    u = game.state.unit(str(d["unit"]))
    step = d["step"]
    if step == "roll":
        # R11.02-b: 2D6, the maximum distance
        dice = [r.unmodified for r in game.roll(RollKind.CHARGE, 2, unit=u.id)]
        d["dice"] = list[JSON](dice)
        d["roll"] = heroic_roll(d, sum(dice))
        d["step"] = "targets"
        game.log("charge_roll", unit=u.id, dice=list[JSON](dice), roll=d["roll"])
        # After the roll, before it is used (the targets step reads frame.data["roll"]).
        open_window(game, Window.AFTER_ROLL, kind="charge", unit=u.id, faces=list[JSON](dice))
        return None
    if step == "targets":
        roll = heroic_roll(d, int(cast(int, d["roll"])))  # a re-roll is capped too
        ids = heroic_targets(game, d, u, charge_targets(game, u, roll))
        d["step"] = "after"
        if not ids:
            # R11.01-a: no enemy within the roll (a double 1 never reaches).
            game.log("charge_failed", unit=u.id, reason="no charge target within the roll")
            return None
        push_move(game, u, "charge", float(roll), target_options=[*subsets(ids), "fail"])
        return None
    game.pop()  # the charge is resolved, moved or not (R11.02-c)
    return None


FRAMES: dict[str, Handler] = {"charge": Handler(_phase, _phase_apply),
          "charge_unit": Handler(_unit)}
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
