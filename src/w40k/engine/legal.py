"""Legal answers: enumerate listed options, or propose legal free-form answers.

Free-form requests (model positions) register a *proposer* here: a function that returns a
legal answer for the request, drawn with the caller's RNG (random players, tests, and AIs that
want a starting point). Proposers never touch the game's own RNG.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from w40k.engine.requests import Request
from w40k.engine.serial import JSON

if TYPE_CHECKING:
    from w40k.engine.game import Game

Proposer = Callable[["Game", Request, random.Random], JSON]
PROPOSERS: dict[str, Proposer] = {}
"""Free-form shape (``Request.free_form``) -> proposer."""


def proposer(shape: str, fn: Proposer) -> None:
    """Register the proposer of a free-form answer shape."""
    PROPOSERS[shape] = fn


def sample(game: Game, request: Request, rng: random.Random) -> JSON:
    """A legal answer drawn uniformly from the options, or from the shape's proposer."""
    if request.options:
        return request.options[rng.randrange(len(request.options))]
    fn = PROPOSERS.get(request.free_form)
    if fn is None:
        raise KeyError(f"no proposer for free-form answers of shape {request.free_form!r}")
    return fn(game, request, rng)
