"""Legal answers: enumerate listed options, or propose legal free-form answers.

Free-form requests (model positions, declarations) have a *proposer* in the table of
``engine/table.py``: a function that returns a legal answer for the request, drawn with the
caller's RNG (random players, tests, and AIs that want a starting point). Proposers never
touch the game's dice.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from w40k.engine.context import Context
from w40k.engine.requests import Request
from w40k.engine.serial import JSON

if TYPE_CHECKING:
    from w40k.engine.game import Game

Proposer = Callable[[Context, Request, random.Random], JSON]
"""Draws a legal free-form answer to a request with the caller's RNG (from the game's
context: it reads the state and the frame that asks, and never rolls the game's dice)."""


def sample(game: Game, request: Request, rng: random.Random) -> JSON:
    """A legal answer drawn uniformly from the options, or from the proposer of the frame
    that asks (engine/table.py)."""
    if request.options:
        return request.options[rng.randrange(len(request.options))]
    from w40k.engine.table import PROPOSERS  # the table imports every rule module

    top = game.state.frames[-1].kind if game.state.frames else ""
    fn = PROPOSERS.get((top, request.kind))
    if fn is None:
        raise KeyError(f"no proposer for {request.kind} asked by a {top!r} frame")
    return fn(game.ctx, request, rng)
