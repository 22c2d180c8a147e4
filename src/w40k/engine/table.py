"""The explicit rule table: every frame kind with its frame class and handler, and every
free-form answer with its proposer. Nothing registers itself on import; a new rule module is
added here."""

from __future__ import annotations

from typing import Any

from w40k.core.errors import DataError
from w40k.core.jsonval import JSON, json_kind
from w40k.engine import attack, death, flow, moves, windows
from w40k.engine.frames import FrameData
from w40k.engine.legal import Proposer
from w40k.engine.phases import (
    charge,
    deployment,
    deployment_propose,
    fight,
    fight_sequence,
    firing_deck,
    melee_moves,
    movement,
    set_up,
    shooting,
)
from w40k.engine.registry import Handler
from w40k.engine.requests import K
from w40k.rules.decisions import DecisionKind


def _collect(*tables: tuple[Handler[Any], ...]) -> dict[str, Handler[Any]]:
    out: dict[str, Handler[Any]] = {}
    for table in tables:
        for h in table:
            if h.kind in out:
                raise ValueError(f"frame kind {h.kind!r} is listed twice")
            out[h.kind] = h
    return out


HANDLERS: dict[str, Handler[Any]] = _collect(
    flow.FRAMES, movement.FRAMES, shooting.FRAMES, charge.FRAMES, fight.FRAMES,
    fight_sequence.FRAMES, melee_moves.FRAMES, attack.FRAMES, death.FRAMES, windows.FRAMES,
    set_up.FRAMES, deployment.FRAMES)
"""Frame kind -> handler (``.frame``: the frame class, ``.run`` / ``.apply``)."""

PROPOSERS: dict[tuple[str, DecisionKind], Proposer] = {
    ("move_unit", K.POSITIONS): moves.propose_positions,
    ("melee_move", K.POSITIONS): melee_moves.propose_melee_move,
    ("shoot_unit", K.DECLARE_SHOOTING): shooting.propose_declaration,
    ("fight_unit", K.DECLARE_FIGHT): fight_sequence.propose_declaration,
    ("set_up", K.SET_UP): set_up.propose_set_up,
    ("shoot_unit", K.FIRING_DECK): firing_deck.propose_deck,
    ("deployment", K.DECLARE_FORMATIONS): deployment_propose.propose_formations,
    ("deployment", K.DEPLOY): deployment_propose.propose_deploy,
    ("deployment", K.SCOUT): deployment_propose.propose_scout,
}
"""(the frame that asks, request kind) -> the proposer of legal free-form answers."""


FRAME_CLASSES: dict[str, type[FrameData]] = {k: h.frame for k, h in HANDLERS.items()}
"""Frame kind -> frame class (what a :class:`~w40k.engine.context.Context` pushes by kind)."""


def frame_class(kind: str) -> type[FrameData]:
    """The frame class of a kind (KeyError for an unknown kind)."""
    return HANDLERS[kind].frame


def read_frame(data: JSON, where: str = "frame") -> FrameData:
    """A frame from its position form ``{"kind", "data"}``; DataError naming ``where`` (and
    the key) for an unknown kind or malformed data."""
    if not isinstance(data, dict):
        raise DataError(f"expected a frame object {{kind, data}}, got {json_kind(data)}",
                        where=where)
    kind = data.get("kind")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise DataError(f"unknown frame kind {kind!r} (known: {', '.join(sorted(HANDLERS))})",
                        where=f"{where}.kind")
    extra = set(data) - {"kind", "data"}
    if extra:
        raise DataError(f"unknown key {sorted(extra)[0]!r} (a frame has kind and data)",
                        where=where)
    frame: FrameData = handler.frame.from_json(data.get("data", {}), f"{where}.data")
    return frame
