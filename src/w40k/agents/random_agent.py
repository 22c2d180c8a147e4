"""The random-legal player: uniform over the listed legal answers, and legal positions drawn by
the engine's proposers for free-form answers. Its RNG is its own (seeded), not the game's."""

from __future__ import annotations

import random

from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.requests import Request
from w40k.engine.serial import JSON


class RandomAgent:
    """Answers every request with a random legal answer."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The agent's own RNG."""

    def choose(self, game: Game, request: Request) -> JSON:
        """A legal answer to ``request``."""
        return sample(game, request, self.rng)
