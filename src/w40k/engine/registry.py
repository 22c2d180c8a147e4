"""Frame handlers: one per frame kind, listed by the module that owns the rule (``FRAMES``)
and collected in the explicit table of ``engine/table.py`` (nothing registers on import).

Contract (what makes save/load/replay exact):
- A frame is a frozen dataclass (engine/frames.py) whose class names its kind (``KIND``); the
  :class:`Handler` pairs that class with the two functions below. They get the narrow
  :class:`~w40k.engine.context.Context` (state, dice, log, stack), never the game.
- ``run(ctx, frame)`` either changes the state (the stack included) and returns None, or
  returns a :class:`Request` **without changing anything**. So a frame may need two runs:
  one that rolls and stores the roll in the frame, one that asks.
- A handler never mutates a frame: it records progress by replacing it,
  ``ctx.replace(frame, dataclasses.replace(frame, ...))``, before pushing anything above it.
  Frames are shared between a game and its clones (the rollback snapshot of ``submit``).
- ``apply(ctx, frame, request, choice)`` validates the answer to the request the frame made
  and records its effect (usually by replacing the frame); it raises ``MalformedChoice`` or
  ``IllegalChoice`` when the answer is refused (the game then restores its state and dice).
  For a request with listed options the engine has already checked the answer is one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from w40k.engine.context import Context
from w40k.engine.frames import FrameData
from w40k.engine.requests import Request
from w40k.engine.serial import JSON

F = TypeVar("F", bound=FrameData)


@dataclass(frozen=True)
class Handler(Generic[F]):
    """A frame kind: its frame class and its two functions."""

    frame: type[F]
    """The frame class (its ``KIND`` is the kind)."""
    run: Callable[[Context, F], Request | None]
    """Advance the frame, or ask."""
    apply: Callable[[Context, F, Request, JSON], None] | None = None
    """Take an answer (None for frames that never ask)."""

    @property
    def kind(self) -> str:
        """The frame kind."""
        return self.frame.KIND
