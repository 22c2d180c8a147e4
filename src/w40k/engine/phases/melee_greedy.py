"""The greedy melee move (11.04, 12.03, 12.08): every model on its own toward base contact
with the nearest models of its goal (or toward the objective), at the first free spot within
its move: ``melee_moves.propose_melee_move``'s first tries (a few random variations).
Split from ``melee_moves.py``, which re-exports it."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.phases.melee_measure import (
    BEARINGS,
    _objective_spots,
    _radius,
    base_contact_enemy,
    model_to_unit,
)
from w40k.engine.propose_moves import near_window, occupied_around, ring_offsets
from w40k.engine.serial import JSON
from w40k.engine.state import ModelData, UnitData
from w40k.geometry import Model
from w40k.geometry.measure import horizontal_distance

if TYPE_CHECKING:
    from w40k.engine.phases.melee_moves import MeleeMoveFrame

_OFFSETS = ring_offsets(BEARINGS)
"""The bearings' offsets from a ring's base bearing (:func:`_ring_spots`)."""


class _Refused:
    """The type of :data:`REFUSED`."""


REFUSED = _Refused()
""":func:`_greedy`'s answer when the move it builds is surely refused (a charge leaving a
model where it is: that model does not end closer to a charge target, R11.04-b), so that
neither the rest of it nor ``check_move`` is worth running."""


def _greedy(ctx: Context, u: UnitData, d: MeleeMoveFrame, budget: float,
            rng: random.Random, attempt: int) -> JSON | _Refused:
    mt = d.move_type
    targets = [ctx.state.unit(t) for t in d.targets or ()]
    obj = next((o for o in ctx.state.objectives if o.name == d.objective), None)
    if not targets and obj is None:
        return None
    placed = occupied_around(ctx, u)
    models = sorted(u.alive, key=lambda m: min(
        (model_to_unit(geo.model_shape(m), t) for t in targets), default=0.0))
    out: dict[str, JSON] = {}
    locked = mt == "pile_in" or d.mode == "ongoing"
    _, ter = geo.terrain(ctx)

    def free(cand: Model) -> bool:
        # 03.01 Ending a Move: on no other model, and not partway through a terrain feature.
        return placed.free(cand, ter)
    for n, m in enumerate(models):
        start = geo.model_shape(m)
        if locked and base_contact_enemy(ctx, u, m):
            placed.append(start)
            continue
        spots: Iterable[tuple[float, float]] = ()
        if targets:
            goal = min(targets, key=lambda t: model_to_unit(start, t))
            tms = sorted(geo.unit_shapes(goal), key=lambda t: horizontal_distance(start, t))
            rings = []
            for t in tms[:3]:
                gap = 0.02 + rng.random() * (0.3 if attempt else 0.05)
                d_c = _radius(start) + _radius(t) + gap
                turn = rng.uniform(-0.2, 0.2) * attempt  # (atan2 draws nothing: same order)
                base = math.atan2(start.y - t.y, start.x - t.x) + turn
                rings.append((t.x, t.y, d_c, base, turn))
            # made as tried (the draws above are all made first), less the spots beyond
            # the move, which the loop below passes over
            spots = _ring_spots(rings, start, budget - 1e-4)
        elif obj is not None:
            spots = _objective_spots(ctx, obj, _radius(start))
        chosen: tuple[float, float] | None = None
        first: tuple[float, float] | None = None
        taken = placed.taken_test(start, budget + 2.0)  # ``taken`` of the spots tried only
        for x, y in spots:
            first = (x, y) if first is None else first
            if math.hypot(x - start.x, y - start.y) > budget - 1e-4 or taken(x, y):
                continue
            if free(start.moved(x, y)):
                chosen = (x, y)
                break
        if chosen is None and first is not None:
            # As far as the budget allows toward the first spot.
            x, y = first
            dist = math.hypot(x - start.x, y - start.y)
            f = max(0.0, (budget - 1e-3) / dist) if dist > 0 else 0.0
            f = min(f, 1.0)
            x, y = start.x + f * (x - start.x), start.y + f * (y - start.y)
            if free(start.moved(x, y)):
                chosen = (x, y)
        if chosen is None:
            if mt == "charge":
                # R11.04-b: a model left where it is ends no closer to a charge target, so
                # ``check_move`` surely refuses the answer: the rest is not built, only its
                # draws made (the same random stream).
                _greedy_draws(targets, models[n + 1:], rng)
                return REFUSED
            placed.append(start)
            continue
        placed.append(start.moved(*chosen))
        out[m.id] = [[round(chosen[0], 6), round(chosen[1], 6)]]
    return out


def _ring_spots(rings: Sequence[tuple[float, float, float, float, float]],
                start: Model | None = None, reach: float = math.inf
                ) -> Iterator[tuple[float, float]]:
    """:func:`_greedy`'s spots, ring by ring (centre, distance, base bearing, its turn from
    the bearing to ``start``), bearing by bearing: ``base + (k + 1) // 2 * (+-1) * 2 * pi /
    BEARINGS`` (``ring_offsets``' floats, the same angles), each made only when the loop asks
    for it. Given ``start``, a bearing whose spot is surely farther than ``reach`` from it
    (``propose_moves.near_window``, the law of cosines with 1e-6" to spare) is not made:
    :func:`_greedy` passes over such a spot (its ``hypot`` test, before ``taken``) and reads
    only the first spot of all otherwise (``first``), which is always made. The same spots
    within ``reach``, in the same order."""
    offs: Sequence[float] = _OFFSETS
    cos, sin = math.cos, math.sin
    for j, (tx, ty, d, base, turn) in enumerate(rings):
        if start is not None:
            keep, offs = near_window(tx, ty, (d,), start, turn, BEARINGS, reach)
            if not keep:
                offs = ()
            if j == 0 and (not offs or offs[0] != _OFFSETS[0]):
                offs = (_OFFSETS[0], *offs)  # the first spot (the others' offsets are not 0)
        for o in offs:
            a = base + o
            yield tx + d * cos(a), ty + d * sin(a)


def _greedy_draws(targets: Sequence[UnitData], models: Sequence[ModelData],
                 rng: random.Random) -> None:
    """The draws :func:`_greedy` makes for ``models`` (a charge: none is locked), without
    the spots: per model, two for each of its goal's (at most three) nearest models."""
    for m in models:
        start = geo.model_shape(m)
        goal = min(targets, key=lambda t: model_to_unit(start, t))
        for _ in range(min(3, len(geo.unit_shapes(goal)))):
            rng.random()
            rng.uniform(-0.2, 0.2)
