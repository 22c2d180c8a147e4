"""Actions (16.01) as a mechanism that missions and datasheets define: an :class:`Action`
states when it starts (a window, whose turn, which phases), which units may perform it, its use
limit, when it completes and its effect. Starting one is a reaction of its window
(``start_reaction``); the record of each action started lives in ``GameState.actions``.

Starting (R16.01-a): on the battlefield, not AIRCRAFT/FORTIFICATION, not battle-shocked, OC
above 0, unengaged (unless TITANIC), no advance or fall-back move this turn, no other action
started this turn, not selected to shoot this phase (R16.01-e / RF-1), not after snap shooting
this phase (R15.09-c). While performing (R16.01-b): not eligible to shoot (TITANIC aside) or
to declare a charge until the end of the turn. A move other than pile-in or consolidation, or
leaving the battlefield, fails it (R16.01-c); so does being battle-shocked (R01.07-d).
Completing it triggers its effect (R16.01-d).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from w40k.core.errors import IllegalChoice
from w40k.core.jsonval import JSON
from w40k.engine import geo
from w40k.engine.state import ActionRecord, UnitData
from w40k.engine.stratagems.effects import this_phase
from w40k.engine.stratagems.model import TurnKey
from w40k.engine.units import model_oc
from w40k.engine.windows import Facts, Reaction, Window

if TYPE_CHECKING:
    from w40k.engine.context import Context


@dataclass(frozen=True)
class Action:
    """An action as a mission or datasheet states it (16.01)."""

    name: str
    """Its name."""
    starts: Window
    """STARTS: the window in which a unit may start it."""
    phases: tuple[str, ...]
    """STARTS: the phases (empty: any)."""
    completes: tuple[Window, str]
    """COMPLETES: the window and phase at whose moment it completes (``(END_OF_TURN, "")``
    or ``(END_OF_PHASE, "command")``)."""
    effect: Callable[[Context, str], None]
    """EFFECT, given the unit that completed it."""
    units: Callable[[Context, UnitData], bool] = lambda ctx, u: True
    """UNITS: which friendly units can perform it (besides R16.01-a)."""
    turn: TurnKey = TurnKey.YOURS
    """STARTS: whose turn."""
    per_turn: int | None = None
    """USE LIMIT: starts per turn by the player's units (None: no limit)."""
    per_battle: int | None = None
    """USE LIMIT: starts per battle by the player's units (None: no limit)."""
    rule: str = "16.01"
    """Where it is defined."""


def _this_turn(ctx: Context) -> list[ActionRecord]:
    s = ctx.state
    return [a for a in s.actions if a.round == s.round and a.turn == s.turn_player]


def started_this_turn(ctx: Context, unit: str) -> bool:
    """R16.01-b: the unit started an action this turn (not eligible to shoot or charge)."""
    return any(a.unit == unit for a in _this_turn(ctx))


def blocks_shooting(ctx: Context, u: UnitData) -> bool:
    """R16.01-b: after starting an action, not eligible to shoot this turn (TITANIC aside)."""
    return started_this_turn(ctx, u.id) and not u.has("TITANIC")


def can_start_action(ctx: Context, u: UnitData) -> bool:
    """R16.01-a: the unit is eligible to start an action now."""
    s = ctx.state
    if u.destroyed or u.has("AIRCRAFT") or u.has("FORTIFICATION"):
        return False
    if u.flag("battle_shocked") or not any(model_oc(u, m) > 0 for m in u.alive):
        return False
    if geo.is_engaged(ctx, u) and not u.has("TITANIC"):
        return False
    if u.flag("advanced") or u.flag("fell_back") or started_this_turn(ctx, u.id):
        return False
    if s.phase == "shooting" and u.flag("selected_to_shoot"):
        return False  # R16.01-e / RF-1: it shot this phase
    return not any(use.name == "Fire Overwatch" and u.id in use.units
                   for use in this_phase(ctx))  # R15.09-c


def _usable(ctx: Context, action: Action, player: str) -> list[UnitData]:
    s = ctx.state
    if action.turn is TurnKey.YOURS and s.turn_player != player:
        return []
    if action.turn is TurnKey.OPPONENTS and s.turn_player in ("", player):
        return []
    if action.phases and s.phase not in action.phases:
        return []
    mine = [a for a in s.actions if a.player == player and a.name == action.name]
    if action.per_battle is not None and len(mine) >= action.per_battle:
        return []
    turn = [a for a in mine if a.round == s.round and a.turn == s.turn_player]
    if action.per_turn is not None and len(turn) >= action.per_turn:
        return []
    return [u for u in s.units_of(player) if can_start_action(ctx, u) and action.units(ctx, u)]


def start_reaction(action: Action) -> Reaction:
    """Starting ``action`` as a reaction of its STARTS window: answer ``{"unit": id}``."""

    def options(ctx: Context, facts: Facts, player: str) -> list[JSON]:
        return [{"unit": u.id} for u in _usable(ctx, action, player)]

    def use(ctx: Context, facts: Facts, player: str, answer: JSON) -> None:
        uid = cast(dict[str, JSON], answer).get("unit")
        if uid not in [u.id for u in _usable(ctx, action, player)]:
            raise IllegalChoice(f"{action.name}: {uid!r} cannot start it now", rule="R16.01-a")
        s = ctx.state
        s.actions.append(ActionRecord(action.name, str(uid), player, s.round, s.turn_player,
                                      s.phase))
        ctx.log("action_started", action=action.name, unit=str(uid))

    return Reaction(action.name, action.starts, action.rule, options, use)


def _set(ctx: Context, i: int, status: str, why: str) -> None:
    a = ctx.state.actions[i]
    ctx.state.actions[i] = dataclasses.replace(a, status=status)
    ctx.log(f"action_{status}", action=a.name, unit=a.unit, reason=why)


def interrupt(ctx: Context, unit: str, why: str) -> None:
    """R16.01-c: the unit made a move other than pile-in or consolidation (or left the
    battlefield): the actions it is performing fail."""
    for i, a in enumerate(ctx.state.actions):
        if a.unit == unit and a.status == "performing":
            _set(ctx, i, "failed", why)


def complete(ctx: Context, actions: tuple[Action, ...], window: Window, phase: str) -> None:
    """R16.01-d: at the moment ``(window, phase)``, the actions performed that complete then
    trigger their effects, unless the unit left the battlefield or is battle-shocked
    (R01.07-d)."""
    by_name = {a.name: a for a in actions}
    s = ctx.state
    for i, rec in enumerate(s.actions):
        action = by_name.get(rec.name)
        if rec.status != "performing" or action is None:
            continue
        if action.completes != (window, phase if window is Window.END_OF_PHASE else ""):
            continue
        u = s.unit(rec.unit)
        if u.destroyed:
            _set(ctx, i, "failed", "left the battlefield")
        elif u.flag("battle_shocked"):
            _set(ctx, i, "failed", "battle-shocked")
        else:
            _set(ctx, i, "completed", "completes")
            action.effect(ctx, rec.unit)


ACTIONS: tuple[Action, ...] = ()
"""The actions in play (missions and datasheets add theirs; none in the core rules: the
rulebook's example is for illustration only)."""
