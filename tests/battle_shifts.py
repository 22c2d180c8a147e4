"""A k = 2 battle whose units are shifted at random, for tests that compare a fast measure
with the plain one on every pair of enemy units (round bases, ovals, hulls)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from w40k.engine.game import Game
from w40k.engine.state import UnitData
from w40k.io.battle_scale import scaled_position


def shifted_rounds(seed: int, rounds: int = 6) -> Iterator[Game]:
    """The battle of ``seed`` at k = 2; before each of ``rounds`` yields, one unit chosen at
    random is shifted by up to 12" in x and y (``random.Random(seed)``)."""
    rng = random.Random(seed)
    game = Game.new(scaled_position(2), seed)
    units = game.state.units
    for _ in range(rounds):
        u = rng.choice(units)
        dx, dy = rng.uniform(-12.0, 12.0), rng.uniform(-12.0, 12.0)
        for m in u.models:
            m.x += dx
            m.y += dy
        yield game


def enemy_pairs(game: Game) -> Iterator[tuple[UnitData, UnitData]]:
    """Every ordered pair of enemy units on the table, neither destroyed."""
    units = game.state.units
    for a in units:
        for b in units:
            if a.player != b.player and not a.destroyed and not b.destroyed:
                yield a, b
