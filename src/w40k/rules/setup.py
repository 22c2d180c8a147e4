"""Setting up units (03.02) and where each kind of set-up may put them.

Deployment in a deployment zone, Infiltrators (24.20), ingress moves (20.04) with Deep Strike
(24.09), the end of a scout move (24.32), and disembark and emergency disembark moves (18.04,
18.05). Each check takes the unit's models where they would be set up (geometry
:class:`~w40k.geometry.shapes.Model`) and returns every rule broken, as
:class:`~w40k.geometry.movement.MoveViolation` with its checklist ID (empty = legal), the
way :func:`w40k.geometry.movement.ending_violations` reports a move. A proposer keeps the
candidates with no violation; the engine refuses an answer that has one.

Readings (docs/rulings.md): "within" a deployment zone means any part of the base is in it,
touching its edge included; "wholly within" means every part is in it; distances between
units are horizontal and between the closest parts of their bases (01.04).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from w40k.geometry.measure import (
    coherency_breaks,
    engaged,
    horizontal_distance,
    maybe_within,
    overlaps,
    separation,
    shape_inside_region,
    shape_region_distance,
    wholly_within,
)
from w40k.geometry.movement import MoveViolation
from w40k.geometry.shapes import EPS, Battlefield, Circle, FloatArray, Model, Polygon

INGRESS_EDGE_DISTANCE = 6.0
"""20.04: set up wholly within 6" of one or more battlefield edges."""
ENGAGEMENT_RANGE = 2.0
"""03.04: engagement range, horizontally."""
ENEMY_DISTANCE = 8.0
"""20.04, 24.09, 24.20, 24.32: more than 8" horizontally from all enemy units."""
RAPID_DISTANCE = 3.0
"""18.04: Rapid and Tactical Disembark set-up distance."""
COMBAT_DISTANCE = 6.0
"""18.04 Combat Disembark and 18.05 Emergency Disembark set-up distance."""
ENEMY_ZONE_FROM_ROUND = 3
"""20.04: before the third battle round no model may be set up in the opponent's zone."""


def zone(points: Sequence[tuple[float, float]]) -> FloatArray:
    """A deployment zone (or any region) as a polygon array."""
    return np.asarray(points, dtype=float)


def in_zone(m: Model, region: FloatArray) -> bool:
    """Any part of the model's base is within the region (touching its edge included)."""
    return shape_region_distance(m.footprint(), region) <= EPS


def wholly_in_zone(m: Model, region: FloatArray) -> bool:
    """Every part of the model's base is within the region."""
    return shape_inside_region(m.footprint(), region)


def _v(rule: str, m: Model, message: str) -> MoveViolation:
    return MoveViolation(rule, m.name, message)


def gap(a: Model, b: Model) -> float:
    """The horizontal distance between two models' bases (01.04): exact, and quick for two
    round bases."""
    fa, fb = a.footprint(), b.footprint()
    if isinstance(fa, Circle) and isinstance(fb, Circle):
        return max(0.0, math.hypot(fa.cx - fb.cx, fa.cy - fb.cy) - fa.r - fb.r)
    return horizontal_distance(a, b)


def _too_close(models: Sequence[Model], enemies: Sequence[Model], rule: str,
               what: str, distance: float = ENEMY_DISTANCE,
               whom: str = "every enemy unit") -> list[MoveViolation]:
    """More than ``distance`` (8") horizontally from every enemy model (exactly 8" is too
    close)."""
    out: list[MoveViolation] = []
    maybe = maybe_within(models, enemies, distance + EPS)  # the others are farther
    for i, m in enumerate(models):
        for j in np.flatnonzero(maybe[i]).tolist():
            e = enemies[j]
            d = gap(m, e)
            if d <= distance + EPS:
                out.append(_v(rule, m, f"{d:.2f}\" from {e.name}: {what} must be more than "
                                       f"{distance:g}\" horizontally from {whom}"))
                break
    return out


def set_up_violations(models: Sequence[Model], enemies: Sequence[Model],
                      battlefield: Battlefield,
                      others: Sequence[Model] = ()) -> list[MoveViolation]:
    """03.02: wholly on the battlefield, not on another model, in coherency and unengaged.
    ``others`` are the other models already on the battlefield (friendly ones too)."""
    out: list[MoveViolation] = []
    table = Polygon(((0.0, 0.0), (battlefield.width, 0.0),
                     (battlefield.width, battlefield.depth), (0.0, battlefield.depth)))
    pool = [*enemies, *others]
    maybe = maybe_within(models, pool, ENGAGEMENT_RANGE + EPS)  # the others are farther
    for i, m in enumerate(models):
        x0, y0, x1, y1 = m.footprint().bbox()
        outside = x0 < -EPS or y0 < -EPS or x1 > battlefield.width + EPS \
            or y1 > battlefield.depth + EPS  # the box first: the exact test only near edges
        if outside and not shape_inside_region(m.footprint(), table.array()):
            out.append(_v("R03.02-a", m, "not wholly on the battlefield"))
        near = [j for j in np.flatnonzero(maybe[i]).tolist()
                if gap(m, pool[j]) <= ENGAGEMENT_RANGE + EPS]
        for j in near:
            if overlaps(m, pool[j]):
                out.append(_v("R03.02-a", m, f"set up on {pool[j].name}"))
                break
        for e in (pool[j] for j in near if j < len(enemies) or pool[j] in enemies):
            if engaged(m, e):
                out.append(_v("R03.02-a", m, f"engaged with {e.name}: a unit is set up "
                                             f"unengaged"))
                break
    for i, a in enumerate(models):
        for b in models[i + 1:]:
            if overlaps(a, b):
                out.append(_v("R03.02-a", a, f"set up on {b.name}"))
    if len(models) > 1:
        out += [MoveViolation("R03.02-a", b.model, f"not in coherency ({b.rule})")
                for b in coherency_breaks(list(models))]
    return out


def deployment_violations(models: Sequence[Model], own_zone: FloatArray) -> list[MoveViolation]:
    """03.02 with the mission's zones: deployed wholly within its own deployment zone."""
    return [_v("R03.02-a", m, "not wholly within its deployment zone")
            for m in models if not wholly_in_zone(m, own_zone)]


def infiltrator_violations(models: Sequence[Model], enemies: Sequence[Model],
                           opponent_zone: FloatArray) -> list[MoveViolation]:
    """24.20: anywhere more than 8" horizontally from the opponent's zone and all enemy
    units."""
    out: list[MoveViolation] = []
    for m in models:
        d = shape_region_distance(m.footprint(), opponent_zone)
        if d <= ENEMY_DISTANCE + EPS:
            out.append(_v("R24.20-a", m, f"{d:.2f}\" from the opponent's deployment zone: "
                                         f"Infiltrators set up more than 8\" from it"))
    return out + _too_close(models, enemies, "R24.20-a", "an Infiltrators unit")


def within_edge_distance(m: Model, battlefield: Battlefield,
                         distance: float = INGRESS_EDGE_DISTANCE) -> bool:
    """Wholly within ``distance`` of one or more battlefield edges: no part of the base lies
    in the inner rectangle more than ``distance`` from every edge (20.04)."""
    w, d = battlefield.width, battlefield.depth
    if w <= 2 * distance or d <= 2 * distance:
        return True  # every point of the table is within the distance of an edge
    fp = m.footprint()
    if isinstance(fp, Circle):
        return disc_within_edge_distance(fp, battlefield, distance)
    inner = Polygon(((distance, distance), (w - distance, distance),
                     (w - distance, d - distance), (distance, d - distance)))
    return separation(m.footprint(), inner) >= -EPS


def disc_within_edge_distance(disc: Circle, battlefield: Battlefield,
                              distance: float = INGRESS_EDGE_DISTANCE) -> bool:
    """:func:`within_edge_distance` of a round base, in closed form: the disc reaches at most
    EPS into the inner rectangle."""
    w, d = battlefield.width, battlefield.depth
    if w <= 2 * distance or d <= 2 * distance:
        return True
    dx = max(distance - disc.cx, disc.cx - (w - distance), 0.0)
    dy = max(distance - disc.cy, disc.cy - (d - distance), 0.0)
    return math.sqrt(dx * dx + dy * dy) - disc.r >= -EPS


SCRAMBLE_DISTANCE = 12.0
"""Omni-scramblers (a datasheet ability): units set up from reserves stay more than 12" away."""


@dataclass(frozen=True)
class Ingress:
    """Where an ingress move may set up (20.04), as a later Rapid Disembark must follow it
    too (18.04)."""

    battle_round: int
    """The current battle round."""
    opponent_zone: FloatArray | None = None
    """The opponent's deployment zone (None: the mission has none)."""
    deep_strike: bool = False
    """Every model has Deep Strike (24.09): anywhere more than 8" from enemies."""
    kept_away: tuple[Model, ...] = ()
    """The models of enemy units with Omni-scramblers (a datasheet ability): a unit set up
    from reserves cannot be set up within 12" of them."""


def ingress_violations(models: Sequence[Model], enemies: Sequence[Model],
                       battlefield: Battlefield, ingress: Ingress) -> list[MoveViolation]:
    """20.04 (and 24.09): wholly within 6" of an edge (not with Deep Strike), more than 8"
    from every enemy unit, and not in the opponent's zone before round 3 (Deep Strike may)."""
    rule = "R24.09-a" if ingress.deep_strike else "R20.04-a"
    out = _too_close(models, enemies, rule, "an arriving unit")
    if ingress.kept_away:
        out = _too_close(models, ingress.kept_away, "Omni-scramblers", "an arriving unit",
                         SCRAMBLE_DISTANCE, "a unit with Omni-scramblers")
    if ingress.deep_strike:
        return out
    out += [_v("R20.04-a", m, "not wholly within 6\" of a battlefield edge")
            for m in models if not within_edge_distance(m, battlefield)]
    if ingress.opponent_zone is not None and ingress.battle_round < ENEMY_ZONE_FROM_ROUND:
        out += [_v("R20.04-b", m, "in the opponent's deployment zone before the third "
                                  "battle round")
                for m in models if in_zone(m, ingress.opponent_zone)]
    return out


def scout_end_violations(models: Sequence[Model],
                         enemies: Sequence[Model]) -> list[MoveViolation]:
    """24.32 After moving: more than 8" horizontally from all enemy units."""
    return _too_close(models, enemies, "R24.32-a", "a unit ending a scout move")


def disembark_violations(models: Sequence[Model], transport: Model, distance: float,
                         enemies: Sequence[Model], battlefield: Battlefield,
                         ingress: Ingress | None = None) -> list[MoveViolation]:
    """18.04 / 18.05: every model wholly within the set-up distance of the transport (3" or
    6"); after the transport's ingress this turn a Rapid Disembark also follows that ingress's
    rules (``ingress``, R18.04-d)."""
    rule = "R18.04-c" if distance <= RAPID_DISTANCE else "R18.05-a"
    out = [_v(rule, m, f"not wholly within {distance:g}\" of {transport.name}")
           for m in models if not wholly_within_of(m, transport, distance)]
    if ingress is not None:
        out += [MoveViolation("R18.04-d", v.model, v.message)
                for v in ingress_violations(models, enemies, battlefield, ingress)]
    return out


def wholly_within_of(m: Model, other: Model, distance: float) -> bool:
    """Every part of ``m``'s base is within ``distance`` of ``other`` (horizontally). A round
    base outside a convex footprint is exact and quick: its farthest point is the centre's
    distance plus the radius; a round base whose centre is inside the footprint has every
    point within its radius of it (no point is farther than the radius); other shapes use the
    general measure."""
    fp = m.footprint()
    if isinstance(fp, Circle):
        centre = Circle(fp.cx, fp.cy, 0.0)
        d = separation(centre, other.footprint())
        if d >= 0.0:
            return d + fp.r <= distance + EPS
        if fp.r <= distance + EPS:
            return True  # the farthest point is at most the radius away
    return wholly_within(m, other, distance)


def unit_wholly_in_zone(models: Sequence[Model], region: FloatArray) -> bool:
    """24.31 / 24.32: the unit is wholly within the zone (every model wholly within)."""
    return bool(models) and all(wholly_in_zone(m, region) for m in models)
