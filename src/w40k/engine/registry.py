"""Frame handlers: one per frame kind, listed by the module that owns the rule (``FRAMES``)
and collected in the explicit table of ``engine/table.py`` (nothing registers on import).

Contract (what makes save/load/replay exact):
- ``run(game, frame)`` either changes the state (the stack included) and returns None, or
  returns a :class:`Request` **without changing anything**. So a frame may need two runs:
  one that rolls and stores the roll in ``frame.data``, one that asks.
- ``apply(game, frame, request, choice)`` validates the answer to the request the frame made
  and records its effect (usually in ``frame.data``); it raises ``MalformedChoice`` or
  ``IllegalChoice`` without side effects when the answer is refused. For a request with
  listed options the engine has already checked the answer is one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import Frame

if TYPE_CHECKING:
    from w40k.engine.game import Game

RunFn = Callable[["Game", Frame], Request | None]
ApplyFn = Callable[["Game", Frame, Request, JSON], None]


@dataclass(frozen=True)
class Handler:
    """The two functions of a frame kind."""

    run: RunFn
    """Advance the frame, or ask."""
    apply: ApplyFn | None = None
    """Take an answer (None for frames that never ask)."""
