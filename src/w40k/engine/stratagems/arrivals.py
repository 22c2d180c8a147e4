"""15.07 Rapid Ingress: at the end of the opponent's Movement phase, one friendly unit in
strategic reserves (not AIRCRAFT, R23.x-a) makes an ingress move (20.04), never in the first
battle round (R15.07-a). The ingress is the Movement phase's own ``set_up`` frame."""

from __future__ import annotations

from typing import TYPE_CHECKING

from w40k.engine import offtable
from w40k.engine.phases.set_up import SetUpFrame, SetUpKind
from w40k.engine.stratagems.model import Stratagem, Target, TurnKey
from w40k.engine.windows import Facts, Window

if TYPE_CHECKING:
    from w40k.engine.context import Context

FIRST_ROUND = 2
"""R15.07-a: not in the first battle round."""


def _targets(ctx: Context, facts: Facts, player: str) -> list[Target]:
    s = ctx.state
    if facts.get("phase") != "movement" or s.round < FIRST_ROUND:
        return []
    return [Target(u.id) for u in s.off_table
            if u.player == player and u.location == offtable.RESERVES and not u.destroyed
            and not offtable.is_aircraft(u)]


def _effect(ctx: Context, facts: Facts, player: str, target: Target) -> None:
    ctx.log("rapid_ingress", unit=target.unit)
    ctx.push(SetUpFrame(target.unit, SetUpKind.INGRESS))


RAPID_INGRESS = Stratagem(
    "Rapid Ingress", 1, Window.END_OF_PHASE, TurnKey.OPPONENTS, ("movement",), "15.07",
    _targets, _effect,
    text="At the end of the opponent's Movement phase, a friendly unit in strategic reserves "
         "(not AIRCRAFT) makes an ingress move; not in the first battle round.")
