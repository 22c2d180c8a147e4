"""Snapshots of a seeded greedy game (the scaled skirmish at k = 2), for tests that compare a
fast path with the plain one at many real positions."""

from __future__ import annotations

import random

from w40k.agents import GreedyAgent
from w40k.engine import geo
from w40k.engine.game import Game
from w40k.engine.state import UnitData
from w40k.geometry import Model
from w40k.io.battle_scale import scaled_position


def greedy_snapshots(seed: int, every: int = 40, decisions: int = 400) -> list[Game]:
    """Clones of a seeded greedy game every ``every`` decisions (armies closing in)."""
    game = Game.new(scaled_position(2), seed)
    agents = {p.name: GreedyAgent(seed + i) for i, p in enumerate(game.state.players)}
    out = []
    for n in range(decisions):
        req = game.pending()
        if req is None:
            break
        if n % every == 0:
            out.append(game.clone())
        game.submit(agents[req.player].choose(game, req))
    return out


def moved_finals(u: UnitData, rng: random.Random, spread: float) -> dict[str, Model]:
    """Each living model of ``u`` moved by up to ``spread``" (some left where they stand):
    the end positions the charge tests measure overlaps at."""
    out = {}
    for m in u.alive:
        s = geo.model_shape(m)
        out[m.id] = s if rng.random() < 0.3 else s.moved(
            s.x + rng.uniform(-spread, spread), s.y + rng.uniform(-spread, spread))
    return out
