"""Surge moves (21.01, 21.02): a rule (a datasheet ability, a stratagem) that allows one is a
:class:`SurgeTrigger`, offered as a reaction in its window (engine/windows.py); using it rolls
the distance the trigger states (R21.02-d), selects the closest enemy unit as the surge target
(R21.02-b; a non-FLYING unit ignores AIRCRAFT, R23.02-d) and pushes a ``melee_move`` frame of
move type ``surge`` (engine/phases/melee_moves.py), which asks the unit's controller for the
positions (``positions``, proposer ``propose_melee_move``) or ``"skip"``.

Eligible (R21.02-a): the trigger's condition holds, the unit is on the battlefield, not
battle-shocked, unengaged and has not moved this phase (flag ``moved_this_phase``).
While moving (R21.02-b): each model ends engaged with the surge target if it can (the search
of ``melee_moves.can_reach``), otherwise closer to it. After moving (R21.02-c): the unit is
engaged with no enemy unit but the target, and cannot move again this phase.

The core rules trigger no surge move: :data:`SURGES` is empty; datasheets and detachments add
theirs (``engine/reactions_table.py`` lists them as reactions).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from w40k.core.dice import DiceExpr, RollKind
from w40k.core.jsonval import JSON
from w40k.engine import geo
from w40k.engine.aircraft import visible_enemies
from w40k.engine.phases.melee_moves import EPS, can_reach, model_to_unit, push_move, unit_distance
from w40k.engine.state import UnitData
from w40k.engine.windows import Facts, Reaction, Window
from w40k.geometry import Model, Step, engaged
from w40k.geometry.movement import MoveType

if TYPE_CHECKING:
    from w40k.engine.context import Context

Condition = Callable[["Context", Facts, UnitData], bool]
"""Whether the triggering rule has been triggered for this unit at this window."""


@dataclass(frozen=True)
class SurgeTrigger:
    """A rule allowing a surge move (21.01): its name, window, the distance it states and the
    condition that triggers it for a unit of the player asked."""

    name: str
    """The rule's name (the reaction's name)."""
    window: Window
    """When it may be used."""
    distance: str
    """R21.02-d: the maximum distance as the rule states it (``"D6"``, ``"3"``)."""
    condition: Condition
    """The rule has been triggered for this unit (R21.02-a)."""
    rule: str = "21.02"
    """Where it is defined."""


SURGES: tuple[SurgeTrigger, ...] = ()
"""The surge triggers in force (none in the core rules)."""


def surge_eligible(ctx: Context, u: UnitData) -> bool:
    """R21.02-a (trigger aside): on the battlefield, not battle-shocked, unengaged, and has
    not moved this phase."""
    return (u.location == "battlefield" and not u.destroyed and not u.flag("battle_shocked")
            and not u.flag("moved_this_phase") and not geo.is_engaged(ctx, u))


def surge_target(ctx: Context, u: UnitData) -> UnitData | None:
    """R21.02-b: the closest enemy unit (ignoring AIRCRAFT unless ``u`` can FLY, R23.02-d);
    ties go to the first in the state's order."""
    s = ctx.state
    enemies = visible_enemies(u, s.units_of(s.opponent(u.player)))
    if not enemies or not u.alive:
        return None
    mine = geo.unit_shapes(u)
    return min(enemies, key=lambda e: unit_distance(mine, geo.unit_shapes(e)))


def surge_reaction(trigger: SurgeTrigger) -> Reaction:
    """The reaction that starts a surge move: answer ``{"unit": id}``."""

    def options(ctx: Context, facts: Facts, player: str) -> list[JSON]:
        return [{"unit": u.id} for u in ctx.state.units_of(player)
                if trigger.condition(ctx, facts, u) and surge_eligible(ctx, u)
                and surge_target(ctx, u) is not None]

    def use(ctx: Context, facts: Facts, player: str, answer: JSON) -> None:
        assert isinstance(answer, dict)
        start_surge(ctx, ctx.state.unit(str(answer["unit"])), trigger)

    return Reaction(trigger.name, trigger.window, trigger.rule, options, use)


def start_surge(ctx: Context, u: UnitData, trigger: SurgeTrigger) -> None:
    """Roll the distance (R21.02-d), select the target (R21.02-b), push the move."""
    expr = DiceExpr.parse(trigger.distance)
    dice = ctx.roll(RollKind.OTHER, expr.count, unit=u.id, sides=expr.sides) \
        if expr.count else ()
    distance = sum(d.unmodified for d in dice) + expr.bonus
    target = surge_target(ctx, u)
    assert target is not None  # the reaction offers only units with a target
    ctx.log("surge", unit=u.id, rule=trigger.name, distance=distance, target=target.id)
    push_move(ctx, u, "surge", float(distance), targets=[target.id])


def check_surge(ctx: Context, u: UnitData, moves: Mapping[str, Sequence[Step]],
                finals: Mapping[str, Model], targets: list[UnitData],
                enemies: list[UnitData], budget: float) -> list[tuple[str, str]]:
    """R21.02-b and R21.02-c for a surge answer (``validate_move`` has passed)."""
    out: list[tuple[str, str]] = []
    target = targets[0]
    tshapes = geo.unit_shapes(target)
    for m in u.alive:
        start, end = geo.model_shape(m), finals[m.id]
        if any(engaged(end, t) for t in tshapes):
            continue
        if can_reach(ctx, u, m.id, finals, tshapes, 2.0, budget, MoveType.OTHER):
            out.append(("R21.02-b", f"{m.id} can end engaged with the surge target "
                                    f"{target.id} but does not"))
        elif m.id in moves and not model_to_unit(end, target) < model_to_unit(
                start, target) - EPS:
            out.append(("R21.02-b", f"{m.id} does not end closer to the surge target "
                                    f"{target.id}"))
    ends = list(finals.values())
    for e in enemies:
        if e.id != target.id and any(engaged(a, b) for a in ends for b in geo.unit_shapes(e)):
            out.append(("R21.02-c", f"the unit ends engaged with {e.id}, not the surge "
                                    "target"))
    return out
