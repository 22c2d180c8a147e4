"""Snapshots of a seeded greedy game (the scaled skirmish at k = 2), for tests that compare a
fast path with the plain one at many real positions."""

from __future__ import annotations

from w40k.agents import GreedyAgent
from w40k.engine.game import Game
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
