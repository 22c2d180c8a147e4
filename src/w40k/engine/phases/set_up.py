"""Setting a unit up from off the battlefield in the Movement phase (03.02): an ingress move
from strategic reserves (20.04, Deep Strike 24.09) or a disembark move from a TRANSPORT
(18.04).

The ``set_up`` frame is pushed by the unit's ``move_unit`` frame when the player selects the
move type ``ingress`` or ``disembark``. For a disembark it first fixes the mode the rules
force (R18.04-b: Rapid after the transport's normal or ingress move, else Tactical when the
unit can be set up within 3", else Combat with a hazard roll per model), then asks:

- ``set_up`` (free-form): ``{"<model id>": [x, y] | [x, y, z], ...}`` for every living
  model, or ``"cancel"`` (R03.02-b: the unit cannot be set up, stays where it was and is not
  selected). Context: ``unit``, ``kind`` (ingress | disembark), ``deep_strike``, ``mode``
  and ``distance`` (disembark), ``transport``. Refused with the rule's ID when a model would
  not be wholly on the table, on another model, engaged, out of coherency, inside terrain it
  cannot stand in (03.01), or breaks the move's own rule (R20.04-a/b, R24.09-a, R18.04-c/d).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, cast

import numpy as np

from w40k.core import kept
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine import geo, offtable
from w40k.engine.ability_catalog import OMNI_SCRAMBLERS
from w40k.engine.ability_effects import unit_has
from w40k.engine.context import Context
from w40k.engine.frames import FrameData
from w40k.engine.hazards import unit_hazard_rolls
from w40k.engine.phases.movement_frames import MovementFrame
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON, in_order
from w40k.engine.state import GameState, UnitData, placement_count
from w40k.engine.units import centre
from w40k.geometry import Model
from w40k.geometry.measure import point_in_polygon, point_polygon_distance
from w40k.geometry.movement import MoveViolation, ending_violations
from w40k.geometry.shapes import EPS, Battlefield, Circle, FloatArray, Oval
from w40k.rules.placement import (
    Check,
    Screen,
    by_distance,
    centre_gaps,
    first_legal,
    grid,
)
from w40k.rules.ring_placement import arrival, arrival_placement, by_rows, ring_placement
from w40k.rules.setup import (
    ENEMY_DISTANCE,
    ENEMY_ZONE_FROM_ROUND,
    INGRESS_EDGE_DISTANCE,
    Ingress,
    disc_within_edge_distance,
    disembark_violations,
    ingress_violations,
    set_up_violations,
)
from w40k.rules.transport import DisembarkMode, disembark_mode, set_up_distance


class SetUpKind(StrEnum):
    """The move that sets the unit up (stable strings)."""

    INGRESS = "ingress"
    DISEMBARK = "disembark"


@dataclass(frozen=True)
class SetUpFrame(FrameData):
    """03.02: one unit being set up by an ingress or disembark move."""

    KIND = "set_up"
    unit: str
    """The unit (off the battlefield until placed)."""
    move: SetUpKind
    """Ingress or disembark."""
    mode: DisembarkMode | None = None
    """The disembark mode (R18.04-b), once fixed."""
    hazards_rolled: bool = False
    """Combat Disembark: the hazard rolls are made."""
    answer: JSON = None
    """The legal ``set_up`` answer, or ``"cancel"``."""


# -- the rules of each set-up ----------------------------------------------------------------
def _host(ctx: Context, u: UnitData) -> UnitData:
    return ctx.state.unit(str(u.embarked_in))


def _ingress_rules(ctx: Context, u: UnitData) -> Ingress:
    s = ctx.state
    scramblers = tuple(geo.model_shape(m) for e in s.units
                       if e.player != u.player and unit_has(e, OMNI_SCRAMBLERS)
                       for m in e.alive)  # the datasheet ability Omni-scramblers
    return Ingress(battle_round=s.round, opponent_zone=offtable.opponent_zone(s, u.player),
                   deep_strike=offtable.deep_strike(u), kept_away=scramblers)


def violations(ctx: Context, u: UnitData, kind: SetUpKind, mode: DisembarkMode | None,
               models: list[Model]) -> list[MoveViolation]:
    """The rules the placement ``models`` (the unit's, as geometry sees them) breaks: the
    move's own rule first (cheap), then 03.02 and the terrain (03.01 Ending a Move)."""
    return checker(ctx, u, kind, mode)(models)


def checker(ctx: Context, u: UnitData, kind: SetUpKind, mode: DisembarkMode | None
            ) -> Check:
    """:func:`violations` for many candidate placements of the unit in the same state: what
    does not depend on the placement (the enemy and friendly models, the transport's hull,
    the battlefield, the terrain) is read once."""
    s = ctx.state
    bf = offtable.battlefield(s)
    enemies = offtable.enemy_models(s, u.player)
    own: Check
    if kind is SetUpKind.INGRESS:
        rules = _ingress_rules(ctx, u)

        def own(models: list[Model]) -> list[MoveViolation]:
            return ingress_violations(models, enemies, bf, rules)
    else:
        host = _host(ctx, u)
        hull = geo.model_shape(next((m for m in host.alive if m.profile.transport is not None),
                                    host.alive[0]))
        after = None
        if mode is DisembarkMode.RAPID and host.flag("ingress_this_turn"):
            after = _ingress_rules(ctx, host)  # R18.04-d
        distance = set_up_distance(mode or DisembarkMode.RAPID)

        def own(models: list[Model]) -> list[MoveViolation]:
            return disembark_violations(models, hull, distance, enemies, bf, ingress=after)
    placement = _placement_checker(ctx, u, enemies)

    def check(models: list[Model]) -> list[MoveViolation]:
        return own(models) or placement(models)
    return check


def placement_violations(ctx: Context, u: UnitData, models: list[Model],
                         enemies: list[Model]) -> list[MoveViolation]:
    """What every set-up checks after its own rule: 03.02 (wholly on the table, on no model,
    coherent, unengaged) and the terrain the models end on (03.01 Ending a Move)."""
    return _placement_checker(ctx, u, enemies)(models)


def _placement_checker(ctx: Context, u: UnitData, enemies: list[Model]) -> Check:
    """:func:`placement_violations` with the friendly models and the terrain read once."""
    s = ctx.state
    friends = [geo.model_shape(m) for x in s.units if x.player == u.player and x.id != u.id
               for m in x.alive]
    bf = offtable.battlefield(s)

    def check(models: list[Model]) -> list[MoveViolation]:
        out = set_up_violations(models, enemies, bf, friends)
        if out:
            return out
        _, terrain = geo.terrain(ctx)
        for m in models:
            out += ending_violations(terrain, m)
        return out
    return check


def _shapes(u: UnitData, places: dict[str, tuple[float, float, float]]) -> list[Model]:
    return [geo.model_shape(m, *places[m.id]) for m in u.alive]


def parse_set_up(answer: JSON, u: UnitData) -> dict[str, tuple[float, float, float]]:
    """The places of a ``set_up`` answer, one for every living model (MalformedChoice for a
    wrong shape)."""
    if not isinstance(answer, dict):
        raise MalformedChoice(f"set_up: expected {{model id: [x, y]}} or \"cancel\", got "
                              f"{answer!r}")
    ids = [m.id for m in u.alive]
    out: dict[str, tuple[float, float, float]] = {}
    for mid, p in in_order(answer, ids):
        if mid not in ids:
            raise MalformedChoice(f"set_up: {mid!r} is not a living model of {u.name}")
        if not isinstance(p, list) or len(p) not in (2, 3) or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                for v in p):
            raise MalformedChoice(f"set_up: {mid}: expected [x, y] or [x, y, z], got {p!r}")
        nums = [float(cast(float, v)) for v in p]
        out[mid] = (nums[0], nums[1], nums[2] if len(nums) == 3 else 0.0)
    missing = [m for m in ids if m not in out]
    if missing:
        raise MalformedChoice(f"set_up: every model is set up (03.02); missing "
                              f"{', '.join(missing)}")
    return out


BoolArray = np.ndarray[Any, np.dtype[np.bool_]]


# -- screens: the blocks a set-up's check would refuse, dropped all at once -------------------
SLACK = 1e-3
"""How much closer to its limit than the check allows a screened block must come before it is
dropped (inches): the exact check decides every block the screen keeps."""
PENETRATION = 1e-2
"""How far a base's inner circle must reach into the hull, past the outline's error, before a
screen drops it (inches; far more than overlaps()'s 1e-6)."""
SIDES = 32
"""The sides of the polygon round an oval hull that a screen measures from."""


def _inner_radius(m: Model) -> float | None:
    """The radius of the largest circle about the model's centre inside its footprint (a
    round or oval base), or None (a hull: no screen)."""
    fp = m.footprint()
    if isinstance(fp, Circle):
        return fp.r
    if isinstance(fp, Oval):
        return min(fp.a, fp.b)
    return None


def _radii(models: Sequence[Model]) -> FloatArray | None:
    radii = [_inner_radius(m) for m in models]
    if any(r is None for r in radii):
        return None
    return np.asarray(radii, dtype=float)


def _disembark_screen(models: Sequence[Model], hull: Model, distance: float) -> Screen | None:
    """Blocks with a model whose inner circle already reaches farther than ``distance`` from
    the hull (R18.04-c: wholly within; the base's farthest point is at least as far), or
    reaches into the hull (03.02: set up on the transport). The gaps are measured from a
    polygon of :data:`SIDES` sides that contains the hull and is within ``hull_error`` of
    it (the hull itself when it is a polygon or round)."""
    radii = _radii(models)
    if radii is None:
        return None
    fp = hull.footprint()
    x0, y0, x1, y1 = fp.bbox()
    hull_error = max(x1 - x0, y1 - y0) / 2 * (1 / math.cos(math.pi / SIDES) - 1) + EPS
    on_hull = all(replace(m, z=0.0).top > hull.z + EPS for m in models) and hull.top > EPS
    outline = fp.outline(SIDES)

    def gaps_of(points: FloatArray) -> FloatArray:
        if isinstance(fp, Circle):
            return centre_gaps(points, hull)
        d = point_polygon_distance(points, outline)
        return np.where(point_in_polygon(points, outline), -d, d)

    def gaps(points: FloatArray) -> FloatArray:
        return by_rows(gaps_of, points)  # the same values, bounded memory

    def screen(centres: FloatArray) -> BoolArray:
        n, k, _ = centres.shape
        d = gaps(centres.reshape(-1, 2)).reshape(n, k)
        out = ~((d > 0.0) & (d + radii > distance + SLACK)).any(axis=1)
        if on_hull:
            out &= ~(d + hull_error < radii - PENETRATION).any(axis=1)
        return np.asarray(out, dtype=bool)
    return screen


def _ingress_screen(models: Sequence[Model], enemies: Sequence[Model], bf: Battlefield,
                    rules: Ingress) -> Screen | None:
    """Blocks with a model whose inner circle is off the battlefield (03.02), within 8" of an
    enemy's (R20.04-a, R24.09-a), reaches more than 6" from every edge (R20.04-a), or whose
    centre is in the opponent's zone before the third round (R20.04-b)."""
    radii = _radii(models)
    if radii is None:
        return None
    foes = [(e.x, e.y, r) for e in enemies if (r := _inner_radius(e)) is not None]
    at = np.asarray([(x, y) for x, y, _ in foes], dtype=float).reshape(-1, 2)
    reach = np.asarray([r for _, _, r in foes], dtype=float)
    w, depth, edge = bf.width, bf.depth, INGRESS_EDGE_DISTANCE
    strips = not rules.deep_strike and w > 2 * edge and depth > 2 * edge
    zone = rules.opponent_zone if rules.battle_round < 3 and not rules.deep_strike else None

    def screen(centres: FloatArray) -> BoolArray:
        n, k, _ = centres.shape
        x, y = centres[:, :, 0], centres[:, :, 1]
        bad = (x - radii < -SLACK) | (y - radii < -SLACK) | (x + radii > w + SLACK) | \
            (y + radii > depth + SLACK)
        if strips:
            dx = np.maximum(np.maximum(edge - x, x - (w - edge)), 0.0)
            dy = np.maximum(np.maximum(edge - y, y - (depth - edge)), 0.0)
            bad |= np.hypot(dx, dy) - radii < -SLACK
        if zone is not None:
            bad |= np.asarray(point_in_polygon(centres.reshape(-1, 2), zone), dtype=bool).reshape(
                n, k)
        out = ~bad.any(axis=1)
        if len(at):
            flat = centres.reshape(-1, 2)
            limit = ENEMY_DISTANCE - SLACK + np.tile(radii, n)
            near = np.zeros(n * k, dtype=bool)
            for j in range(len(at)):
                gap = np.hypot(flat[:, 0] - at[j, 0], flat[:, 1] - at[j, 1]) - reach[j]
                near |= gap <= limit
            out &= ~near.reshape(n, k).any(axis=1)
        return np.asarray(out, dtype=bool)
    return screen


def _screen(ctx: Context, u: UnitData, kind: SetUpKind, mode: DisembarkMode | None,
            models: Sequence[Model]) -> Screen | None:
    """The screen of the set-up's own rule (the check decides every block it keeps)."""
    s = ctx.state
    if kind is SetUpKind.INGRESS:
        return _ingress_screen(models, offtable.enemy_models(s, u.player),
                               offtable.battlefield(s), _ingress_rules(ctx, u))
    host = _host(ctx, u)
    hull = geo.model_shape(next((m for m in host.alive if m.profile.transport is not None),
                                host.alive[0]))
    return _disembark_screen(models, hull, set_up_distance(mode or DisembarkMode.RAPID))


# -- the frame ----------------------------------------------------------------------------------
_SEARCHES: dict[tuple[int, str, str, str | None, float],
                tuple[GameState, int, tuple[object, ...], list[Model] | None]] = kept.table()
"""The kept searches (see :func:`_search`)."""
SEARCH_LIMIT = 64
"""Kept searches before the table is emptied (each holds its game state)."""


def _search_key(ctx: Context, u: UnitData, kind: SetUpKind) -> tuple[object, ...]:
    """What a search reads besides the models' placements, the unit, the kind, the mode and
    the step: the battle round (20.04), the unit's Deep Strike (24.09), the host's ingress
    this turn (R18.04-d), which units are where."""
    s = ctx.state
    host = _host(ctx, u).flag("ingress_this_turn") if kind is SetUpKind.DISEMBARK else None
    return (s.round, offtable.deep_strike(u), host, s.units, len(s.units), s.terrain,
            s.battlefield)


def forget_searches() -> None:
    """Empty the kept searches (tests compare kept and fresh answers)."""
    _SEARCHES.clear()


def _search(ctx: Context, u: UnitData, kind: SetUpKind, mode: DisembarkMode | None,
            rng: random.Random | None = None, step: float = 2.0) -> list[Model] | None:
    """A legal placement near the best spot (the transport, or the enemy for an ingress), or
    None: the proposer's and 18.04's "can it be set up" search.

    A search that draws nothing from ``rng`` (a disembark, or an ingress without one) is kept
    while no model of the game is placed again (:func:`w40k.engine.state.placement_count`, as
    engine/field.py keeps the battlefield) and nothing else it reads changes: the player's
    "can it disembark" question, 18.04's mode (R18.04-b) and the proposer then share one
    search of the same state."""
    if rng is not None and kind is SetUpKind.INGRESS:
        return _fresh_search(ctx, u, kind, mode, rng, step)
    s = ctx.state
    key = (id(s), u.id, str(kind), None if mode is None else str(mode), step)
    now = placement_count()
    reads = _search_key(ctx, u, kind)
    hit = _SEARCHES.get(key)
    if (hit is not None and hit[0] is s and hit[1] == now and len(hit[2]) == len(reads)
            and all(a is b or a == b for a, b in zip(hit[2], reads, strict=True))):
        return None if hit[3] is None else list(hit[3])
    placed = _fresh_search(ctx, u, kind, mode, None, step)
    if len(_SEARCHES) >= SEARCH_LIMIT:
        _SEARCHES.clear()
    _SEARCHES[key] = (s, now, reads,
                      None if placed is None else list(placed))
    return placed


def _fresh_search(ctx: Context, u: UnitData, kind: SetUpKind, mode: DisembarkMode | None,
                  rng: random.Random | None, step: float) -> list[Model] | None:
    """:func:`_search`, searched now."""
    s = ctx.state
    bf = offtable.battlefield(s)
    models = [geo.model_shape(m) for m in u.alive]
    if kind is SetUpKind.DISEMBARK:
        host = _host(ctx, u)
        x0, y0, x1, y1 = geo.model_shape(host.alive[0]).footprint().bbox()
        reach = max(x1 - x0, y1 - y0) / 2 + set_up_distance(mode or DisembarkMode.RAPID)
        cx, cy = centre(host)
        anchors = [a for a in by_distance(grid(bf, 1.0), (cx, cy))
                   if math.hypot(a[0] - cx, a[1] - cy) <= reach][:200]
    else:
        anchors = list(grid(bf, step))
        if not offtable.deep_strike(u):
            r = cast(Circle, Model("probe", 0.0, 0.0, base_mm=1.0).footprint()).r
            anchors = [a for a in anchors
                       if disc_within_edge_distance(Circle(a[0], a[1], r), bf, 4.0)]
        enemies = [centre(e) for e in s.units if e.player != u.player and not e.destroyed]
        if rng is not None:
            rng.shuffle(anchors)
        elif enemies:
            anchors = by_distance(anchors, enemies[0])
    check = checker(ctx, u, kind, mode)

    def as_answered(placed: list[Model]) -> list[MoveViolation]:
        # the answer carries only [x, y]: check the models as _apply will set them up, at
        # their own facing and z 0 (a block turned 90 degrees turns its rows, not an oval
        # base, which the answer cannot turn)
        return check(_shapes(u, {m.id: (p.x, p.y, 0.0) for m, p in zip(u.alive, placed,
                                                                        strict=True)}))
    placed = first_legal(models, anchors, as_answered,
                         screen=_screen(ctx, u, kind, mode, _shapes(u, {
                             m.id: (m.x, m.y, 0.0) for m in u.alive})))
    if placed is None and kind is SetUpKind.DISEMBARK:
        placed = _around_hull(ctx, u, mode, as_answered)
    elif placed is None:
        placed = _spread(ctx, u, as_answered)
    return placed


def disembark_placement(ctx: Context, u: UnitData) -> list[Model] | None:
    """Where the embarked unit ``u`` would be set up if it disembarked now, in the mode
    18.04 would fix (R18.04-b: Tactical when it can be set up within 3" of a transport that
    has not moved, else Combat; Rapid after the transport's normal or ingress move), or None
    when the set-up would be cancelled (R03.02-b). A player asks for the disembark move only
    when this finds a place."""
    moved = offtable.transport_move(_host(ctx, u))
    if moved.value in ("stationary", "not_selected"):
        placed = _search(ctx, u, SetUpKind.DISEMBARK, DisembarkMode.TACTICAL)
        if placed is not None:
            return placed
    return _search(ctx, u, SetUpKind.DISEMBARK, disembark_mode(moved, False))


def _around_hull(ctx: Context, u: UnitData, mode: DisembarkMode | None,
                 check: Check) -> list[Model] | None:
    """18.04: the unit set up model by model around its transport's hull (rules/
    ring_placement.py), when no block of it fits. Each model in turn passes the move's own
    checks alone (wholly within the set-up distance, R18.04-d after an ingress, 03.02 on the
    battlefield, on no model and unengaged, the terrain it ends on); ``check`` then takes the
    whole unit (coherency). The models keep their own facing and stand at z 0, as the answer
    sets them up."""
    s = ctx.state
    host = _host(ctx, u)
    hull = geo.model_shape(next((m for m in host.alive if m.profile.transport is not None),
                                host.alive[0]))
    enemies = offtable.enemy_models(s, u.player)
    friends = [geo.model_shape(m) for x in s.units if x.player == u.player and x.id != u.id
               for m in x.alive]
    alone = checker(ctx, u, SetUpKind.DISEMBARK, mode)
    foes = [centre(e) for e in s.units if e.player != u.player and not e.destroyed]
    toward = min(foes, key=lambda p: math.hypot(p[0] - hull.x, p[1] - hull.y), default=None)
    models = [replace(geo.model_shape(m), z=0.0) for m in u.alive]
    return ring_placement(models, hull, set_up_distance(mode or DisembarkMode.RAPID),
                          offtable.battlefield(s), friends, enemies, check,
                          stands=lambda m: not alone([m]), toward=toward)


def _spread(ctx: Context, u: UnitData, check: Check) -> list[Model] | None:
    """20.04 / 24.09: the arriving unit set up model by model (rules/ring_placement.py
    :func:`~w40k.rules.ring_placement.arrival_placement`), when no block of it fits: each
    model in turn passes the ingress's own checks alone (wholly within 6" of an edge unless
    it has Deep Strike, out of the opponent's zone before the third round, more than 8" from
    every enemy; 03.02 and the terrain it ends on); ``check`` then takes the whole unit
    (coherency). The first models go as near the first enemy unit as the block search's
    anchors do."""
    s = ctx.state
    rules = _ingress_rules(ctx, u)
    enemies = offtable.enemy_models(s, u.player)
    friends = [geo.model_shape(m) for x in s.units if x.player == u.player and x.id != u.id
               for m in x.alive]
    alone = checker(ctx, u, SetUpKind.INGRESS, None)
    foes = [centre(e) for e in s.units if e.player != u.player and not e.destroyed]
    zone = rules.opponent_zone if rules.battle_round < ENEMY_ZONE_FROM_ROUND else None
    area = arrival(offtable.battlefield(s), friends, enemies,
                   None if rules.deep_strike else INGRESS_EDGE_DISTANCE, ENEMY_DISTANCE,
                   None if rules.deep_strike else zone)
    models = [replace(geo.model_shape(m), z=0.0) for m in u.alive]
    return arrival_placement(models, area, check, stands=lambda m: not alone([m]),
                             toward=foes[0] if foes else None)


def _run(ctx: Context, frame: SetUpFrame) -> Request | None:
    s = ctx.state
    u = s.any_unit(frame.unit)
    if u.destroyed:
        ctx.pop()
        return None
    if frame.move is SetUpKind.DISEMBARK and frame.mode is None:
        host = _host(ctx, u)
        moved = offtable.transport_move(host)
        room = moved.value in ("stationary", "not_selected") and \
            _search(ctx, u, frame.move, DisembarkMode.TACTICAL) is not None
        mode = disembark_mode(moved, room)
        ctx.replace(frame, replace(frame, mode=mode))
        ctx.log("disembark_mode", unit=u.id, transport=host.id, mode=str(mode))
        return None
    if frame.mode is DisembarkMode.COMBAT and not frame.hazards_rolled:
        ctx.replace(frame, replace(frame, hazards_rolled=True))
        unit_hazard_rolls(ctx, u, "combat disembark")
        return None
    if frame.answer is None:
        context: dict[str, JSON] = {"unit": u.id, "kind": str(frame.move),
                                    "deep_strike": offtable.deep_strike(u)}
        if frame.move is SetUpKind.DISEMBARK:
            assert frame.mode is not None
            context.update(transport=u.embarked_in, mode=str(frame.mode),
                           distance=set_up_distance(frame.mode))
        verb = "arrives" if frame.move is SetUpKind.INGRESS else "disembarks"
        return request(u.player, K.SET_UP, "03.02", f"Set up {u.name} ({verb})",
                       free_form="set_up", context=context)
    if frame.answer == "cancel":  # R03.02-b: back where it was, not selected
        phase = ctx.find(MovementFrame)
        if phase is not None and u.id in phase.selected:
            ctx.replace(phase, replace(phase, selected=tuple(
                x for x in phase.selected if x != u.id)))
        u.flags.pop("selected_to_move", None)
        ctx.log("set_up_cancelled", unit=u.id, kind=str(frame.move))
        ctx.pop()
        return None
    places = parse_set_up(frame.answer, u)
    offtable.arrive(s, u, places)
    u.flags["set_up_this_turn"] = True
    u.flags["moved_this_phase"] = True  # R21.02-a: an ingress or disembark move
    if frame.move is SetUpKind.INGRESS:
        u.flags["made_ingress"] = True
        u.flags["ingress_this_turn"] = True  # R20.04-c
    ctx.log("set_up", unit=u.id, kind=str(frame.move),
            mode=None if frame.mode is None else str(frame.mode),
            models={m.id: [round(m.x, 4), round(m.y, 4), round(m.z, 4)] for m in u.alive})
    ctx.pop()
    return None


def _apply(ctx: Context, frame: SetUpFrame, req: Request, choice: JSON) -> None:
    if choice == "cancel":
        ctx.replace(frame, replace(frame, answer="cancel"))
        return
    u = ctx.state.any_unit(frame.unit)
    places = parse_set_up(choice, u)
    broken = violations(ctx, u, frame.move, frame.mode, _shapes(u, places))
    if broken:
        v = broken[0]
        raise IllegalChoice(f"{v.model}: {v.message}", rule=v.rule)
    ctx.replace(frame, replace(frame, answer=choice))


def propose_set_up(ctx: Context, req: Request, rng: random.Random) -> JSON:
    """A legal ``set_up`` answer (a block of the unit's models), or ``"cancel"`` when the
    search finds none."""
    frame = ctx.need(SetUpFrame)
    u = ctx.state.any_unit(frame.unit)
    placed = _search(ctx, u, frame.move, frame.mode, rng)
    if placed is None:
        return "cancel"
    return {m.id: [p.x, p.y] for m, p in zip(u.alive, placed, strict=True)}


FRAMES: tuple[Handler[Any], ...] = (Handler(SetUpFrame, _run, _apply),)
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
