"""Builders for the Charge (11) and Fight (12) phase tests.

    pos = fight_phase([unit("red.a", "red", [fighter("red.a.1", 10, 10)]), ...])
    game = Game.new(pos, seed=1)

Positions start inside the phase (its frame on the stack, ``turn_player`` set); the game is
over when the phase ends. 32 mm bases: centres 1.26" apart touch; engaged = within 2" edge to
edge, i.e. centres within 3.26".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.engine.core_helpers import frame, model, position, unit
from w40k.engine.game import Game
from w40k.engine.requests import Request
from w40k.engine.serial import JSON

BASE = 32.0 / 25.4
"""A 32 mm base's diameter in inches."""

__all__ = ["BASE", "charge_phase", "fight_phase", "fighter", "melee_weapon", "pending",
           "unit"]


def melee_weapon(name: str = "Close combat weapon", *, A: int | str = 2, WS: int = 3,
                 S: int = 4, AP: int = 0, D: int | str = 1,
                 abilities: Sequence[str] = ()) -> dict[str, JSON]:
    """A melee weapon in the position form."""
    return {"name": name, "range": "Melee", "A": str(A), "skill": WS, "S": S, "AP": AP,
            "D": str(D), "abilities": list[JSON](abilities)}


def fighter(mid: str, x: float, y: float, *, weapons: Sequence[dict[str, JSON]] | None = None,
            **prof: Any) -> dict[str, JSON]:
    """A model with a melee weapon (``prof`` goes to ``core_helpers.profile``)."""
    m = model(mid, x, y, **prof)
    m["weapons"] = list[JSON](weapons if weapons is not None else [melee_weapon()])
    return m


def charge_phase(units: Sequence[dict[str, JSON]], *, player: str = "red",
                 **kw: Any) -> dict[str, JSON]:
    """A position at the start of ``player``'s Charge phase in battle round 1."""
    return position(units, round=1, frames=[frame("charge", step=0)], turn_player=player,
                    phase="charge", **kw)


def fight_phase(units: Sequence[dict[str, JSON]], *, player: str = "red",
                **kw: Any) -> dict[str, JSON]:
    """A position at the start of ``player``'s Fight phase in battle round 1."""
    return position(units, round=1, frames=[frame("fight", step=0)], turn_player=player,
                    phase="fight", **kw)


def pending(game: Game) -> Request:
    """The pending request (asserting there is one)."""
    req = game.pending()
    assert req is not None, "nothing is pending"
    return req


def skip_to(game: Game, kind: str, answer: JSON = "done", limit: int = 50) -> Request:
    """Answer ``answer`` to every request until one of ``kind`` is pending."""
    for _ in range(limit):
        req = pending(game)
        if req.kind == kind:
            return req
        game.submit(answer)
    raise AssertionError(f"no {kind} request")


def melee_violations(game: Game, answer: JSON) -> list[tuple[str, str]]:
    """What ``melee_moves.check_move`` says of ``answer`` to the pending charge, pile-in or
    consolidation move's positions request (rule, message pairs; empty when legal)."""
    from w40k.engine.phases.melee_moves import MeleeMoveFrame, check_move, parse_positions

    frame = game.ctx.top
    assert isinstance(frame, MeleeMoveFrame)
    u = game.state.unit(frame.unit)
    return check_move(game.ctx, u, parse_positions(u, answer), frame)
