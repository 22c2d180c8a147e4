"""A unit's normal or advance move built model by model (09.05, 09.06): the proposer for a
unit that a straight translation cannot take far (``moves.propose_move`` moves the whole unit
as one block along one line, so a mob beside a ruin wall or another unit gets 0.6" of a 6"
move).

The unit aims at a translation ``v`` (toward a point, at most the move's distance); its models
are placed one at a time, the one farthest along ``v`` first, each at the free spot nearest its
own target (its start plus ``v``) that

- is within its move of its start, along a straight path ``validate_move`` accepts for it
  alone (terrain, the battlefield edge, enemy models; 03.01);
- is on no other model and not partway through a terrain feature (03.01 Ending a Move,
  ``Occupied.free``), and not engaged with an enemy model (R09.05-a);
- is within 2" of a model already placed and within 9" of every one (R03.03-a/b), so the unit
  ends coherent (R03.03-d).

Candidate spots: the target, rings around it, and rings around the models placed so far. The
caller still validates the whole answer (``moves.check_move``): nothing here decides
legality.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.phases.melee_moves import Group
from w40k.engine.propose_moves import Occupied, occupied_around, terrain_crossed
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.geometry import Model, Scene, Terrain
from w40k.geometry.battlefield import coherent_tri, engaged_bounds
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL, horizontal_distance
from w40k.geometry.movement import ENDS_CHECKED, MoveType, Step, validate_move
from w40k.geometry.shapes import Oval

BEARINGS = 16
TARGET_RINGS = (0.35, 0.7, 1.1, 1.6, 2.2, 3.0)
"""Radii of the rings of spots around a model's own target (inches)."""
FRIEND_GAPS = (0.1, 0.6, 1.2, 1.8)
"""Edge-to-edge gaps of the rings around the models placed so far (within 2", R03.03-a)."""
COHERENCY_MARGIN = 1.98
"""Within 2" of a placed model, with a margin for rounding (R03.03-a)."""
ALL_MARGIN = 8.95
"""Within 9" of every placed model, with a margin (R03.03-b)."""
SLACK = 1e-3
"""Inches of the move's distance left unused (rounding of the answer's coordinates)."""
PATH_RULES_IGNORED = ("R03.03-d", "R03.01-c")
"""Checked here for the unit as it is placed, not by one model's path: coherency and ending
on a model (``Occupied.free``)."""


def propose_chain_move(ctx: Context, u: UnitData, move_type: MoveType, budget: float,
                       vx: float, vy: float, budgets: Mapping[str, float] | None = None
                       ) -> dict[str, JSON] | None:
    """A positions answer moving ``u``'s models about (vx, vy) each (module docstring), or
    None when some model finds no spot; ``budgets``: each model's own distance when less
    than ``budget``. Models on an upper floor (z above 0) or that cannot move are not moved
    this way (None)."""
    models = list(u.alive)
    own = {m.id: min(budget, (budgets or {}).get(m.id, budget)) for m in models}
    if not models or any(m.z > 1e-9 for m in models) or min(own.values()) <= SLACK:
        return None
    length = math.hypot(vx, vy)
    if length < 1e-6:
        return None
    ux, uy = vx / length, vy / length
    enemies = Group([s for e in ctx.state.units if e.player != u.player and not e.destroyed
                     for s in geo.unit_shapes(e)])
    placed = occupied_around(ctx, u)  # every other unit's models, in the state's order
    _, ter = geo.terrain(ctx)
    scene = geo.scene(ctx)
    order = sorted(models, key=lambda m: -(m.x * ux + m.y * uy))
    ends: dict[str, Model] = {}
    target_cs = _bearings(math.atan2(-uy, -ux))  # every model's target rings share them
    for m in order:
        start = geo.model_shape(m)
        tx, ty = m.x + vx, m.y + vy
        reach = own[m.id] - SLACK
        spots = [(tx, ty)]
        for rad in TARGET_RINGS:
            spots += _ring_within(tx, ty, rad, target_cs, start, reach)
        for f in ends.values():
            cs = _bearings(math.atan2(start.y - f.y, start.x - f.x))
            for g in FRIEND_GAPS:
                spots += _ring_within(f.x, f.y, start.reach() + f.reach() + g, cs, start, reach)
        # ``_first_free`` keeps the spots within the move, in order: dropping the others
        # before this stable sort leaves the same list in the same order.
        spots = [(x, y) for x, y in spots if math.hypot(x - start.x, y - start.y) <= reach]
        spots.sort(key=lambda p: math.hypot(p[0] - tx, p[1] - ty))
        chosen = _first_free(scene, u, m.id, start, spots, list(ends.values()), placed,
                             enemies, ter, move_type, own[m.id])
        if chosen is None:
            return None
        ends[m.id] = chosen
        placed.append(chosen)
    return {mid: [[round(e.x, 6), round(e.y, 6)]] for mid, e in ends.items()}


def _first_free(scene: Scene, u: UnitData, mid: str, start: Model,
                spots: Sequence[tuple[float, float]], ends: Sequence[Model],
                placed: Occupied, enemies: Group, ter: Terrain,
                move_type: MoveType, budget: float) -> Model | None:
    """The first spot (in order) that the module docstring's rules allow; ``spots`` are
    within the move (``budget`` less :data:`SLACK`) of ``start``: the caller keeps those."""
    bf = scene.battlefield
    if not spots:
        return None
    # The coherency, engagement and overlap tests of every spot at once where bounds settle
    # them (1: passes, 0: fails, -1: measured exactly below; the same answers).
    pts = np.asarray(spots, dtype=np.float64)
    coherent = coherent_tri(start, pts, ends, COHERENCY_MARGIN, ALL_MARGIN) if ends \
        else [1] * len(spots)
    reach = budget + start.reach() + ENGAGEMENT_HORIZONTAL + 1.0
    near = [o for o in enemies.models
            if math.hypot(o.x - start.x, o.y - start.y) <= reach + o.reach()]
    sure, maybe = engaged_bounds(start, pts, near)
    unengaged = np.where(sure, 0, np.where(maybe, -1, 1)).tolist()
    taken = placed.taken(start, spots, budget)
    # An oval's spots whose straight path surely crosses a feature it may not move through
    # (``terrain_crossed``: ``validate_move`` refuses them, R13.06-c), passed over before
    # the exact tests (round bases are seldom walled in here: not screened).
    crossed = terrain_crossed(scene, u.id, start, pts, move_type, ovals=True).tolist() \
        if type(start.footprint()) is Oval else None
    for i, (x, y) in enumerate(spots):
        if not coherent[i] or not unengaged[i] or taken[i]:
            continue
        if crossed is not None and crossed[i]:
            continue
        end = start.moved(x, y)
        x0, y0, x1, y1 = end.footprint().bbox()
        if x0 < 0 or y0 < 0 or x1 > bf.width or y1 > bf.depth:
            continue
        if coherent[i] < 0 and not _coherent_with(end, ends):
            continue
        if unengaged[i] < 0 and enemies.engaged_any(end):
            continue
        if not placed.free(end, ter):
            continue
        # ``placed.free`` found its ``ending_violations`` empty: not measured again
        if not validate_move(scene, u.id, {mid: [Step(x, y)]}, move_type, budget,
                             skip=(*PATH_RULES_IGNORED, ENDS_CHECKED), first=True):
            return end
    return None


def _ring(cx: float, cy: float, d: float, base: float, n: int = BEARINGS
          ) -> list[tuple[float, float]]:
    """``n`` spots at distance ``d`` of (cx, cy)."""
    return [(cx + d * math.cos(base + k * 2 * math.pi / n),
             cy + d * math.sin(base + k * 2 * math.pi / n)) for k in range(n)]


_OFFSETS = tuple(k * 2 * math.pi / BEARINGS for k in range(BEARINGS))
""":func:`_ring`'s bearing offsets from ``base``: each the float ``k * 2 * math.pi / n``
that its expression adds to ``base`` (evaluated before the addition: the same angles)."""


def _bearings(base: float) -> list[tuple[float, float]]:
    """The cosine and sine of :func:`_ring`'s bearings around ``base`` (rings of several radii
    around one centre share them: ``(cx + d * c, cy + d * s)`` are :func:`_ring`'s floats)."""
    cos, sin = math.cos, math.sin
    return [(cos(base + o), sin(base + o)) for o in _OFFSETS]


RING_MARGIN = 1e-6
"""Inches beyond the rounding of a ring's spots (about 1e-14") by which a whole ring is
settled from its centre's distance (:func:`_ring_within`)."""


def _ring_within(cx: float, cy: float, d: float, cs: Sequence[tuple[float, float]],
                 start: Model, reach: float) -> list[tuple[float, float]]:
    """:func:`_ring`'s spots (bearings ``cs``, :func:`_bearings`), less a whole ring that is
    surely beyond ``reach`` of ``start`` (its centre more than ``d + reach`` away, by
    :data:`RING_MARGIN`: every spot of it fails the move's distance test, which the caller
    makes on the spots kept)."""
    if math.hypot(cx - start.x, cy - start.y) - d > reach + RING_MARGIN:
        return []
    return [(cx + d * c, cy + d * s) for c, s in cs]


def _coherent_with(end: Model, placed: Sequence[Model]) -> bool:
    """R03.03-a/b against the models placed so far: within 2" of one, 9" of every one."""
    ds = [horizontal_distance(end, p) for p in placed]
    return min(ds) <= COHERENCY_MARGIN and max(ds) <= ALL_MARGIN
