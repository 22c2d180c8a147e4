"""A simple heuristic player: every unit acts, moves toward the nearest objective it does not
hold (or the nearest enemy), shoots and charges whenever it can, and otherwise takes the
engine's legal proposals. A baseline opponent that makes battles happen; not a strong AI."""

from __future__ import annotations

import dataclasses
import math
import random

from w40k.agents.greedy_reactions import choose_reaction
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.requests import K, Request
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData

_DECLINE = ("done", "pass", "fail", "skip", "cancel")


def _centre(u: UnitData) -> tuple[float, float]:
    alive = u.alive
    return (sum(m.x for m in alive) / len(alive), sum(m.y for m in alive) / len(alive))


_ATTACK_KINDS = frozenset({K.DUPLICATE_ABILITY, K.ALLOCATION_ORDER, K.PRECISION, K.LETHAL_HITS,
                           K.SELECT_MODEL})
"""Requests of the attack sequence: the greedy player takes their documented defaults."""
_SELECT_UNIT_KINDS = frozenset({K.SELECT_UNIT_TO_MOVE, K.SELECT_UNIT_TO_SHOOT,
                                K.SELECT_UNIT_TO_CHARGE, K.SELECT_UNIT_TO_FIGHT,
                                K.SELECT_UNIT_TO_PILE_IN, K.SELECT_UNIT_TO_CONSOLIDATE})
"""Requests that select the next unit to act: the greedy player acts rather than passes."""


_REACTIONS = frozenset({K.REACTION})
"""Reaction windows (stratagems): agents/greedy_reactions.py."""


class GreedyAgent:
    """Heads for objectives and enemies; always acts when it may."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The agent's own RNG (for the engine's proposals)."""

    def _goal(self, game: Game, u: UnitData) -> tuple[float, float] | None:
        cx, cy = _centre(u)
        s = game.state
        targets = [(o.x, o.y) for o in s.objectives if o.controller != u.player]
        targets += [_centre(e) for e in s.units if e.player != u.player and not e.destroyed]
        if not targets:
            return None
        return min(targets, key=lambda p: math.hypot(p[0] - cx, p[1] - cy))

    def choose(self, game: Game, request: Request) -> JSON:
        """A legal answer to ``request``."""
        if request.kind in _REACTIONS:
            return choose_reaction(game, request)
        kind, options = request.kind, request.options
        if kind == "move_type":
            for preferred in ("normal", "remain_stationary"):
                if preferred in options:
                    return preferred
        if kind in ("take_to_skies",) and False in options:
            return False
        if kind in _ATTACK_KINDS and request.accepts(request.default):
            return request.default
        if kind in _SELECT_UNIT_KINDS and options:
            acting = [o for o in options if o not in _DECLINE]
            if acting:
                return acting[0]
        if kind == "fight_type" and "normal" in options:
            return "normal"
        if kind == "charge_targets" and options:
            acting = [o for o in options if o not in _DECLINE]
            if acting:
                return min(acting, key=lambda o: len(o) if isinstance(o, list) else 0)
        if (kind == "positions" and request.context.get("move_type") in ("normal", "advance")
                and "toward" not in request.context):
            u = game.state.unit(str(request.context["unit"]))
            goal = self._goal(game, u)
            if goal is not None:
                ctx = dict(request.context)
                ctx["toward"] = [goal[0], goal[1]]
                request = dataclasses.replace(request, context=ctx)
        return sample(game, request, self.rng)
