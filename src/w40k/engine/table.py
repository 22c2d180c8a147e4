"""The explicit rule table: every frame kind with its handler, and every free-form answer
with its proposer. Nothing registers itself on import; a new rule module is added here."""

from __future__ import annotations

from w40k.engine import attack, death, flow, moves, windows
from w40k.engine.legal import Proposer
from w40k.engine.phases import charge, fight, fight_sequence, melee_moves, movement, shooting
from w40k.engine.registry import Handler
from w40k.engine.requests import K
from w40k.rules.decisions import DecisionKind


def _collect(*tables: dict[str, Handler]) -> dict[str, Handler]:
    out: dict[str, Handler] = {}
    for table in tables:
        for kind, h in table.items():
            if kind in out:
                raise ValueError(f"frame kind {kind!r} is listed twice")
            out[kind] = h
    return out


HANDLERS: dict[str, Handler] = _collect(
    flow.FRAMES, movement.FRAMES, shooting.FRAMES, charge.FRAMES, fight.FRAMES,
    fight_sequence.FRAMES, melee_moves.FRAMES, attack.FRAMES, death.FRAMES, windows.FRAMES)
"""Frame kind -> handler."""

PROPOSERS: dict[tuple[str, DecisionKind], Proposer] = {
    ("move_unit", K.POSITIONS): moves.propose_positions,
    ("melee_move", K.POSITIONS): melee_moves.propose_melee_move,
    ("shoot_unit", K.DECLARE_SHOOTING): shooting.propose_declaration,
    ("fight_unit", K.DECLARE_FIGHT): fight_sequence.propose_declaration,
}
"""(the frame that asks, request kind) -> the proposer of legal free-form answers."""
