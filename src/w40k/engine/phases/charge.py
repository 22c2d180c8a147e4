"""The Charge phase (placeholder: the phase passes with no unit acting)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from w40k.engine.registry import handler
from w40k.engine.requests import Request
from w40k.engine.state import Frame

if TYPE_CHECKING:
    from w40k.engine.game import Game


def _run(game: Game, frame: Frame) -> Request | None:
    game.pop()
    return None


handler("charge", _run)
