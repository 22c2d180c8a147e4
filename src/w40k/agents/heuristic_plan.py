"""Where the heuristic player's units go: a plan for the whole army, made afresh from the
state each time a unit is about to move (so it follows casualties and earlier moves).

1. **Hold.** A unit within range of an objective that no other friendly unit holds stays on
   it (it scores at the end of the turn and keeps it from the enemy).
2. **Take and contest.** The remaining units are matched to the objectives nobody of ours
   holds, cheapest first: the distance to walk, less a bonus for objectives the enemy
   controls (contesting them denies their score) and for those nearer our side.
3. **Hunt or screen.** Units left over go for the enemy: units that fight better than they
   shoot toward the weakest enemy unit within their reach, shooting units to a firing spot
   at about three quarters of their range from the nearest enemy, between it and our side.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection
from dataclasses import dataclass

from w40k.agents.heuristic_eval import (
    ENGAGEMENT,
    MARKER_RADIUS,
    OBJECTIVE_RANGE,
    Estimates,
    _base_radius,
    centre,
    max_range,
    move_of,
    unit_gap,
    value_bound,
    value_of,
)
from w40k.engine.state import GameState, UnitData

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Goal:
    """Where a unit heads, and why."""

    point: Point
    """The point its centre moves toward."""
    why: str
    """``hold``, ``take``, ``hunt`` or ``screen``."""
    target: str | None = None
    """The objective's name or the enemy unit's id."""


def melee_minded(u: UnitData, enemies: list[UnitData], est: Estimates) -> bool:
    """Whether ``u`` does more in melee than by shooting (against the nearest enemy), as
    ``est`` estimates it."""
    if not enemies:
        return False
    e = min(enemies, key=lambda x: (unit_gap(u, x), x.id))
    melee = value_of(est.melee_outcome(u, e, charged=True), e)
    shoot = value_of(est.ranged_outcome(u, e, distance=min(max_range(u), 12.0)), e)
    return melee > shoot


def prey(u: UnitData, near: list[UnitData], est: Estimates) -> UnitData:
    """The enemy unit ``u`` hunts among ``near`` (not empty): the most melee value (charging)
    less a tenth of the distance, ties to the greater id, i.e.
    ``max(near, key=lambda x: (value_of(melee_outcome(u, x, charged=True), x) - 0.1 * gap,
    x.id))``. The candidates are valued in the order of their :func:`value_bound`; once a
    candidate's bound is below the best value found, neither it nor those after it can win,
    so their estimates are not made (the same unit: the key includes the id, no two equal)."""
    bounded = sorted(((value_bound(x) - 0.1 * unit_gap(u, x), i) for i, x in enumerate(near)),
                     reverse=True)
    best = (-math.inf, "")
    chosen = near[0]
    for bound, i in bounded:
        if bound < best[0]:
            break
        x = near[i]
        key = (value_of(est.melee_outcome(u, x, charged=True), x) - 0.1 * unit_gap(u, x), x.id)
        if key > best:
            best, chosen = key, x
    return chosen


def _bases(u: UnitData) -> list[tuple[float, float, float]]:
    """The living models' centres and base radii, as :func:`on_objective` reads them."""
    return [(m.x, m.y, _base_radius(m.profile.base_mm)) for m in u.models if not m.destroyed]


def _near(bases: list[tuple[float, float, float]], xy: Point) -> bool:
    """:func:`on_objective` of a unit from its :func:`_bases` (the same floats)."""
    ox, oy = xy
    hypot = math.hypot
    return any(hypot(x - ox, y - oy) - r - MARKER_RADIUS <= OBJECTIVE_RANGE for x, y, r in bases)


def _toward_enemy(u: UnitData, e: UnitData, stop: float) -> Point:
    """A point for ``u``'s centre that brings its closest model about ``stop``" from ``e``."""
    (ux, uy), (ex, ey) = centre(u), centre(e)
    d = math.hypot(ex - ux, ey - uy)
    travel = max(0.0, unit_gap(u, e) - stop)
    if d < 1e-9:
        return ux, uy
    return ux + (ex - ux) / d * travel, uy + (ey - uy) / d * travel


def plan(state: GameState, player: str, rng: random.Random,
         only: Collection[str] | None = None, *, est: Estimates | None = None
         ) -> dict[str, Goal]:
    """A goal for each of ``player``'s units on the battlefield (see the module docstring).
    ``rng`` only breaks near-ties (a fraction of an inch), so plans vary with the seed.
    With ``only``, step 3 (hunt or screen, one unit at a time, no draw) is made for those
    units only: their goals are the same, the other units' step-3 goals are left out.
    ``est``: the player's estimates (default: a fresh view of ``state``)."""
    est = Estimates(state) if est is None else est
    mine = [u for u in state.units_of(player)]
    enemies = state.units_of(state.opponent(player))
    goals: dict[str, Goal] = {}
    centres = {id(u): centre(u) for u in mine}  # each unit's, read once (the same floats)
    home_y = sum(centres[id(u)][1] for u in mine) / len(mine) if mine else 0.0
    objectives = [(o.name, (o.x, o.y), o.controller) for o in state.objectives]
    held: set[str] = set()
    # 1. hold
    # each unit's bases read once, in id order: the first on a marker is the holder
    bases = [(u, _bases(u)) for u in sorted(mine, key=lambda u: u.id)] if objectives else []
    for name, xy, _ in objectives:
        first = next((u for u, bs in bases if _near(bs, xy)), None)  # on_objective
        if first is not None and first.id not in goals:
            goals[first.id] = Goal(xy, "hold", name)
            held.add(name)
    # 2. take and contest
    free = [u for u in mine if u.id not in goals]
    pairs: list[tuple[float, str, str]] = []
    for u in free:
        if u.flag("battle_shocked"):
            continue  # OC 0: it cannot take anything (01.07)
        cx, cy = centres[id(u)]
        m = max(move_of(u), 1.0)
        for name, xy, controller in objectives:
            if name in held:
                continue
            dist = math.hypot(xy[0] - cx, xy[1] - cy)
            cost = dist / m
            if controller is not None and controller != player:
                cost -= 1.0  # contesting denies the enemy's score
            cost += abs(xy[1] - home_y) / 40.0  # nearer our side: easier to keep
            cost += rng.uniform(0.0, 0.05)
            pairs.append((cost, u.id, name))
    pairs.sort()
    taken: set[str] = set()
    by_name = {name: xy for name, xy, _ in objectives}
    for cost, uid, name in pairs:
        if uid in goals or name in taken or cost > 4.0:
            continue
        goals[uid] = Goal(by_name[name], "take", name)
        taken.add(name)
    # 3. hunt or screen
    for u in mine:
        if u.id in goals or not enemies or (only is not None and u.id not in only):
            continue
        if melee_minded(u, enemies, est):
            reach = move_of(u) * 2 + 12.0
            near = [e for e in enemies if unit_gap(u, e) <= reach] or enemies
            e = prey(u, near, est)
            goals[u.id] = Goal(_toward_enemy(u, e, ENGAGEMENT + 0.3), "hunt", e.id)
        else:
            e = min(enemies, key=lambda x: (unit_gap(u, x), x.id))
            stop = max(ENGAGEMENT + 1.0, 0.75 * max_range(u))
            goals[u.id] = Goal(_toward_enemy(u, e, stop), "screen", e.id)
    return goals
