"""The heuristic player's unit moves toward its goal (09.05, 09.06): the engine's straight
proposal (``moves.propose_move``: the whole unit translated along one line) and, when that
leaves the unit well short of where it wants to go, a move built model by model
(``engine/propose_chain_move.py``), kept only when the engine accepts it
(``moves.check_move``) and it goes farther."""

from __future__ import annotations

import math
from typing import cast

from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine.game import Game
from w40k.engine.moves import check_move, parse_positions
from w40k.engine.propose_chain_move import propose_chain_move
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.geometry.movement import MoveType

SHORT = 0.75
"""A straight proposal that covers less than this share of the wanted distance is short."""
FRACTIONS = (1.0, 0.75, 0.5)
"""Shares of the wanted distance the model-by-model move tries, longest first."""


def progress(u: UnitData, answer: JSON, ux: float, uy: float) -> float:
    """How far an answer takes the unit's models along (ux, uy), on average (inches)."""
    if not isinstance(answer, dict) or not u.alive:
        return 0.0
    total = 0.0
    for m in u.alive:
        path = answer.get(m.id)
        if isinstance(path, list) and path:
            last = cast(list[float], path[-1])
            total += (last[0] - m.x) * ux + (last[1] - m.y) * uy
    return total / len(u.alive)


def farther_move(game: Game, r: Request, answer: JSON, toward: tuple[float, float]) -> JSON:
    """``answer`` (the straight proposal), or a model-by-model move toward ``toward`` that the
    engine accepts and that goes farther when ``answer`` covers less than :data:`SHORT` of
    the distance wanted (the move's distance, or less to stop at the point)."""
    c = r.context
    mt = MoveType(str(c.get("move_type", "other")))
    if mt not in (MoveType.NORMAL, MoveType.ADVANCE) or c.get("take_to_skies"):
        return answer
    raw = c.get("model_budgets")
    budgets = {str(k): float(cast(float, v)) for k, v in raw.items()} \
        if isinstance(raw, dict) else None
    u = game.state.unit(str(c["unit"]))
    if not u.alive:
        return answer
    budget = float(cast(float, c.get("max_distance", 0.0)))
    cx = sum(m.x for m in u.alive) / len(u.alive)
    cy = sum(m.y for m in u.alive) / len(u.alive)
    dist = math.hypot(toward[0] - cx, toward[1] - cy)
    want = min(budget, dist)
    if want < 1.0:
        return answer
    ux, uy = (toward[0] - cx) / dist, (toward[1] - cy) / dist
    have = progress(u, answer, ux, uy) if answer != "cancel" else 0.0
    if have >= SHORT * want:
        return answer
    for share in FRACTIONS:
        d = want * share - 0.05
        if d <= have + 0.5:
            break
        cand = propose_chain_move(game.ctx, u, mt, budget, ux * d, uy * d, budgets)
        if cand is None or progress(u, cand, ux, uy) <= have + 0.5:
            continue  # none, or no farther: not kept whether the engine accepts it or not
        try:
            check_move(game.ctx, u, parse_positions(cand), mt, budget, model_budgets=budgets)
        except (IllegalChoice, MalformedChoice):
            continue
        return cand
    return answer
