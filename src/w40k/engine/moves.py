"""Moving models in a game (03.01): the ``positions`` answer, its validation through
``w40k.geometry.validate_move``, applying it to the state, and a legal-move proposer.

**The positions answer** (request ``free_form="positions"``) is a JSON object::

    {"<model id>": [[x, y], [x, y, z], [x, y, z, facing], ...], ...}

waypoints per model that moves, in order (each a straight line from the previous point;
``z`` is the level reached, omitted or null = unchanged; ``facing`` in radians, the model is
rotated after that step). A model not listed stays where it is; ``{}`` = nobody moves. Some
requests also accept the string ``"cancel"`` (their context says ``"can_cancel": true``; the
Movement phase: the unit cannot complete its move and returns to the unit selection, 03.01 /
03.02 sidebar).

**Context keys** every phase must set on a ``positions`` request (the registered proposer
reads them so a random player can answer any of them):

- ``unit``: the unit id;
- ``move_type``: a :class:`w40k.geometry.MoveType` value (``normal``, ``advance``,
  ``fall_back``, ``desperate_escape``, ``charge``, ``pile_in``, ``consolidate``, ``other``);
- ``max_distance``: the move type's maximum distance in inches **before** the 21.03 -2" (the
  figure ``validate_move`` takes);
- optional ``take_to_skies`` (bool, 21.03), ``model_budgets`` ({model id: inches each model
  may actually move, all modifiers included: RA-Move-a own M, -2" for the skies; 0 = cannot
  move, R02.02-a}), ``toward`` ([x, y]: the proposer prefers moving toward it),
  ``must_end_within`` ({"units": [unit ids], "distance": inches}: the proposer only proposes
  moves ending with some model within that distance of each listed unit), ``can_cancel``.

Requests whose legality needs more than this (e.g. charge base-contact rules) should still
validate in their own ``apply``; the proposer may then offer an answer the phase refuses, so
such phases should register their own proposer or pass ``extra_check`` to
:func:`propose_move`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import cast

from w40k.core import kept
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.propose_moves import translation_refused
from w40k.engine.requests import Request
from w40k.engine.serial import JSON, in_order
from w40k.engine.state import UnitData, placement_count
from w40k.geometry import MoveType, Scene, Step, validate_move, within
from w40k.geometry.movement import ENDS_CLEAR

Answer = dict[str, list[Step]]
"""A parsed positions answer: model id -> waypoints."""

ExtraCheck = Callable[[Context, UnitData, dict[str, JSON]], bool]
"""An extra legality test for :func:`propose_move` (ctx, unit, candidate answer)."""

SKIES_PENALTY = 2.0
"""21.03: taking to the skies subtracts 2" from the maximum distance."""


def _number(v: JSON, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise MalformedChoice(f"positions: {where}: expected a finite number, got {v!r}")
    return float(v)


def parse_positions(answer: JSON, order: Sequence[str] = ()) -> Answer:
    """The waypoints of a positions answer, models in ``order`` (the unit's) whatever the
    order of the keys; :class:`MalformedChoice` for a wrong shape."""
    if not isinstance(answer, dict):
        raise MalformedChoice(f"positions: expected an object {{model id: [[x, y], ...]}}, "
                              f"got {answer!r}")
    out: Answer = {}
    isfinite = math.isfinite
    for mid, path in in_order(answer, order):
        if not isinstance(path, list):
            raise MalformedChoice(f"positions: {mid}: expected a list of waypoints, got "
                                  f"{path!r}")
        steps: list[Step] = []
        for k, p in enumerate(path):
            if type(p) is list and len(p) == 2:
                x, y = p
                if type(x) is float and type(y) is float and isfinite(x) and isfinite(y):
                    # a proposer's [x, y] of finite floats: ``_number`` gives them as they are
                    steps.append(Step(x, y, None, None))
                    continue
            steps.append(_waypoint(p, f"{mid}[{k}]"))
        out[str(mid)] = steps
    return out


def _waypoint(p: JSON, where: str) -> Step:
    """One waypoint of a positions answer (``where``: its place, for the error)."""
    if not isinstance(p, list) or not 2 <= len(p) <= 4:
        raise MalformedChoice(f"positions: {where}: expected [x, y], [x, y, z] or "
                              f"[x, y, z, facing], got {p!r}")
    x, y = _number(p[0], where + ".x"), _number(p[1], where + ".y")
    z = None if len(p) < 3 or p[2] is None else _number(p[2], where + ".z")
    facing = None if len(p) < 4 or p[3] is None else _number(p[3], where + ".facing")
    return Step(x, y, z, facing)


def path_length(start: tuple[float, float, float], path: Sequence[Step], *,
                count_vertical: bool = True) -> float:
    """03.01: the distance a model moves along its waypoints (vertical distance counted
    unless taking to the skies, 21.03)."""
    x, y, z = start
    used = 0.0
    for s in path:
        nz = z if s.z is None else s.z
        used += math.hypot(s.x - x, s.y - y) + (abs(nz - z) if count_vertical else 0.0)
        x, y, z = s.x, s.y, nz
    return used


def is_hover(u: UnitData) -> bool:
    """24.17 Hover (no -2" when taking to the skies), as ``validate_move`` reads it."""
    return any(a.strip().lower() == "hover" for a in geo.geo_unit(u).abilities)


def can_take_to_skies(u: UnitData) -> bool:
    """21.03: a FLYING unit (here: every living model has FLY, as ``validate_move`` needs)."""
    return u.every_model("FLY")


_PASSED: dict[tuple[object, ...], tuple[object, UnitData, Scene]] = kept.table()
""":func:`check_move`'s legal answers by (state, unit, ``placement_count``, scene, moves,
move type, maximum, ``take_to_skies``, budgets, ``must_end_unengaged``), with the state, the
unit and the scene they were checked in (an entry holds them, so their ``id`` is not reused
while kept); a few entries: a proposer checks its answer (``propose_move``, the heuristic's
``farther_move``), then the frame checks the same answer when it is submitted."""


def _moves_key(moves: Answer) -> tuple[tuple[str, tuple[Step, ...]], ...] | None:
    """``moves`` as a key, by model id (whether a move is legal does not depend on the order
    of its models: each model's path is tested on its own, and the ends, coherency and
    engagement tests read every model, in the unit's order; a proposer's answer is parsed
    in sorted order, the submitted one in the unit's), or None where a waypoint holds a
    zero (0.0 and -0.0 are equal keys but not the same float: such a move is measured)."""
    out = []
    for mid in sorted(moves):
        path = moves[mid]
        for s in path:
            if 0.0 in (s.x, s.y, s.z, s.facing):
                return None
        out.append((mid, tuple(path)))
    return tuple(out)


def check_move(ctx: Context, unit: UnitData, moves: Answer, move_type: MoveType,
               max_distance: float, *, take_to_skies: bool = False,
               model_budgets: Mapping[str, float] | None = None,
               must_end_unengaged: bool | None = None, ends_clear: bool = False) -> None:
    """Raise :class:`IllegalChoice` (with the violated rule's ID, naming the model) unless the
    move is legal. ``max_distance`` is the move type's maximum before 21.03's -2";
    ``model_budgets`` optionally caps each model's own distance (RA-Move-a; 0 = cannot move,
    R02.02-a). A move found legal before with the same arguments, in the same state and
    scene while no model is placed (``placement_count``), is legal again without being
    measured (:data:`_PASSED`: everything the answer reads is in its key). ``ends_clear``:
    the caller found ``movement.ends_refused`` False for these moves' ends in this scene
    (unengaged as ``validate_move``'s default): they are not measured again
    (``movement.ENDS_CLEAR``; the same answer)."""
    scene = geo.scene(ctx)
    mk = _moves_key(moves)
    key: tuple[object, ...] | None = None
    if mk is not None:
        key = (id(ctx.state), id(unit), placement_count(), id(scene), mk, move_type,
               max_distance, take_to_skies, must_end_unengaged,
               None if model_budgets is None else tuple(sorted(model_budgets.items())))
        hit = _PASSED.get(key)
        if hit is not None and hit[0] is ctx.state and hit[1] is unit and hit[2] is scene:
            return
    _check_move(ctx, unit, moves, move_type, max_distance, take_to_skies=take_to_skies,
                model_budgets=model_budgets, must_end_unengaged=must_end_unengaged,
                ends_clear=ends_clear and must_end_unengaged is None)
    if key is not None:  # legal (else raised)
        if len(_PASSED) >= 8:
            _PASSED.clear()
        _PASSED[key] = (ctx.state, unit, scene)


def _check_move(ctx: Context, unit: UnitData, moves: Answer, move_type: MoveType,
                max_distance: float, *, take_to_skies: bool,
                model_budgets: Mapping[str, float] | None,
                must_end_unengaged: bool | None, ends_clear: bool = False) -> None:
    """:func:`check_move`, measured."""
    alive = {m.id: m for m in unit.alive}
    for mid in moves:
        if mid not in alive:
            raise IllegalChoice(f"{mid!r} is not a living model of {unit.id}", rule="R03.01-g")
    budgets = model_budgets or {}
    for mid, path in moves.items():
        if path and budgets.get(mid, 1.0) <= 0:
            raise IllegalChoice(f"{alive[mid].name} ({mid}) cannot move (M '-')",
                                rule="R02.02-a")
    violations = validate_move(geo.scene(ctx), unit.id, moves, move_type, max_distance,
                               take_to_skies=take_to_skies,
                               must_end_unengaged=must_end_unengaged, first=True,
                               skip=(ENDS_CLEAR,) if ends_clear else ())
    if violations:  # the first violation only (the one reported)
        v = violations[0]
        who = alive[v.model].name + f" ({v.model})" if v.model in alive else v.model
        raise IllegalChoice(f"{who}: {v.message}", rule=v.rule)
    for mid, path in moves.items():
        if mid not in budgets:
            continue
        m = alive[mid]
        used = path_length((m.x, m.y, m.z), path, count_vertical=not take_to_skies)
        if used > budgets[mid] + 1e-9:
            raise IllegalChoice(f'{m.name} ({mid}) moves {used:.2f}" but its own maximum is '
                                f'{budgets[mid]:g}"', rule="RA-Move-a")


def apply_positions(ctx: Context, unit: UnitData, moves: Answer, *,
                    take_to_skies: bool = False) -> dict[str, float]:
    """Put the models at the ends of their paths; returns the distance each listed model
    moved (03.01; vertical distance ignored when taking to the skies)."""
    out: dict[str, float] = {}
    by_id = {m.id: m for m in unit.alive}
    for mid, path in moves.items():
        m = by_id[mid]
        out[mid] = path_length((m.x, m.y, m.z), path, count_vertical=not take_to_skies)
        for s in path:
            m.x, m.y = s.x, s.y
            if s.z is not None:
                m.z = s.z
            if s.facing is not None:
                m.facing = s.facing
    return out


def _ends_within(ctx: Context, unit: UnitData, answer: dict[str, JSON],
                 units: Sequence[str], distance: float) -> bool:
    ends = []
    for m in unit.alive:
        path = cast(list[list[float]], answer.get(m.id, []))
        if path:
            last = path[-1]
            ends.append(geo.model_shape(m, last[0], last[1],
                                        last[2] if len(last) > 2 else None))
        else:
            ends.append(geo.model_shape(m))
    for uid in units:
        other = ctx.state.unit(uid)
        if not any(within(a, geo.model_shape(b), distance) for a in ends for b in other.alive):
            return False
    return True


def _legal(ctx: Context, unit: UnitData, answer: dict[str, JSON], move_type: MoveType,
           max_distance: float, take_to_skies: bool,
           model_budgets: Mapping[str, float] | None, ends_clear: bool = False) -> bool:
    try:
        check_move(ctx, unit, parse_positions(answer), move_type, max_distance,
                   take_to_skies=take_to_skies, model_budgets=model_budgets,
                   ends_clear=ends_clear)
    except IllegalChoice:
        return False
    return True


def propose_move(ctx: Context, unit: UnitData, move_type: MoveType, max_distance: float,
                 rng: random.Random, *, toward: tuple[float, float] | None = None,
                 must_end_within: tuple[Sequence[str], float] | None = None,
                 extra_check: ExtraCheck | None = None, take_to_skies: bool = False,
                 model_budgets: Mapping[str, float] | None = None,
                 tries: int = 6) -> dict[str, JSON]:
    """A legal positions answer: the whole unit translated in one straight line, toward
    ``toward`` first (when given) then in random directions, at the full distance and then
    shorter ones, until ``validate_move`` (and ``must_end_within`` / ``extra_check``) accept.
    Models that cannot move (budget 0) stay. Falls back to ``{}`` (nobody moves) when nothing
    is found. Draws only from ``rng`` (never the game's RNG)."""
    movers = [m for m in unit.alive if model_budgets is None or model_budgets.get(m.id, 1) > 0]
    if not movers:
        return {}
    budget = max_distance - (SKIES_PENALTY if take_to_skies and not is_hover(unit) else 0.0)
    if model_budgets is not None:
        budget = min([budget] + [model_budgets.get(m.id, budget) for m in movers])
    budget -= 1e-6
    if budget <= 0:
        return {}
    cx = sum(m.x for m in movers) / len(movers)
    cy = sum(m.y for m in movers) / len(movers)
    angles: list[float] = []
    if toward is not None and (toward[0], toward[1]) != (cx, cy):
        angles.append(math.atan2(toward[1] - cy, toward[0] - cx))
    angles += [rng.uniform(-math.pi, math.pi) for _ in range(tries)]
    for a in angles:
        full = budget
        if toward is not None and a == angles[0]:
            full = min(budget, math.hypot(toward[0] - cx, toward[1] - cy))
        for frac in (1.0, 0.6, 0.3, 0.1):
            d = full * frac
            dx, dy = d * math.cos(a), d * math.sin(a)
            answer: dict[str, JSON] = {m.id: [[m.x + dx, m.y + dy]] for m in movers}
            if must_end_within is not None and not _ends_within(
                    ctx, unit, answer, must_end_within[0], must_end_within[1]):
                continue
            if translation_refused(ctx, unit, movers, dx, dy, move_type, take_to_skies):
                continue  # validate_move would refuse it too (engine/propose_moves.py)
            # else its ends are clear (the answer's ends: m.x + dx, parsed as the same float)
            if not _legal(ctx, unit, answer, move_type, max_distance, take_to_skies,
                          model_budgets, ends_clear=True):
                continue
            if extra_check is not None and not extra_check(ctx, unit, answer):
                continue
            return answer
    return {}


def propose_positions(ctx: Context, request: Request, rng: random.Random) -> JSON:
    """The proposer for every ``positions`` request (context keys in the module docstring)."""
    c = request.context
    unit = ctx.state.unit(str(c["unit"]))
    move_type = MoveType(str(c.get("move_type", "other")))
    max_distance = float(cast(float, c.get("max_distance", 0.0)))
    skies = bool(c.get("take_to_skies", False))
    budgets_json = c.get("model_budgets")
    budgets = None if not isinstance(budgets_json, dict) else {
        str(k): float(cast(float, v)) for k, v in budgets_json.items()}
    toward_json = c.get("toward")
    toward = None
    if isinstance(toward_json, list) and len(toward_json) >= 2:
        toward = (float(cast(float, toward_json[0])), float(cast(float, toward_json[1])))
    within_json = c.get("must_end_within")
    must = None
    if isinstance(within_json, dict):
        must = ([str(u) for u in cast(list[JSON], within_json.get("units", []))],
                float(cast(float, within_json.get("distance", 0.0))))
    if toward is None and move_type in (MoveType.FALL_BACK, MoveType.DESPERATE_ESCAPE):
        toward = _away_from_enemies(ctx, unit, max_distance)
    answer = propose_move(ctx, unit, move_type, max_distance, rng, toward=toward,
                          must_end_within=must, take_to_skies=skies, model_budgets=budgets)
    if answer or not c.get("can_cancel"):
        return answer
    if _legal(ctx, unit, {}, move_type, max_distance, skies, budgets):
        return {}
    return "cancel"


def _away_from_enemies(ctx: Context, unit: UnitData, distance: float
                       ) -> tuple[float, float] | None:
    """A point ``distance`` away from the engaged enemies' centre (fall-back heuristic)."""
    enemies = [m for e in geo.engaged_enemies(ctx, unit) for m in e.alive]
    if not enemies or not unit.alive:
        return None
    cx = sum(m.x for m in unit.alive) / len(unit.alive)
    cy = sum(m.y for m in unit.alive) / len(unit.alive)
    ex = sum(m.x for m in enemies) / len(enemies)
    ey = sum(m.y for m in enemies) / len(enemies)
    a = math.atan2(cy - ey, cx - ex)
    return cx + distance * math.cos(a), cy + distance * math.sin(a)


