"""The greedy and heuristic players' answers to the datasheet abilities' reactions
(engine/ability_effects.py): Oath of Moment on the enemy unit nearest their own units,
Waaagh! from battle round 2, 'Ere We Go on a charge roll that reaches no enemy while a
re-roll could. Deterministic: no randomness."""

from __future__ import annotations

import math
from typing import cast

from w40k.engine.ability_catalog import ERE_WE_GO, OATH_OF_MOMENT, WAAAGH
from w40k.engine.game import Game
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.rules.decisions import DECLINE

ABILITY_REACTIONS = frozenset({OATH_OF_MOMENT, WAAAGH, ERE_WE_GO})
"""The reactions this module answers."""
WAAAGH_FROM_ROUND = 2
"""The battle round from which the players call their Waaagh! (the armies are in reach)."""


def _centre(u: UnitData) -> tuple[float, float]:
    alive = u.alive or u.models
    return (sum(m.x for m in alive) / len(alive), sum(m.y for m in alive) / len(alive))


def _nearest(game: Game, player: str, uid: str) -> float:
    e = _centre(game.state.unit(uid))
    return min((math.dist(_centre(u), e) for u in game.state.units_of(player)),
               default=math.inf)


def ability_choice(game: Game, request: Request) -> JSON | None:
    """The ability option wanted among ``request``'s options, DECLINE when only ability
    options are offered and none is wanted, None when no option is an ability's (the caller
    decides)."""
    from w40k.agents.greedy_reactions import charge_worth_rerolling

    options = [cast(list[JSON], o) for o in request.options if o != DECLINE]
    mine = [o for o in options if o[0] in ABILITY_REACTIONS]
    if not mine:
        return None
    oaths = [o for o in mine if o[0] == OATH_OF_MOMENT]
    if oaths:
        return min(oaths, key=lambda o: (_nearest(game, request.player, str(
            cast(dict[str, JSON], o[1])["unit"])), str(o)))
    for o in mine:
        uid = str(cast(dict[str, JSON], o[1])["unit"])
        if o[0] == WAAAGH and game.state.round >= WAAAGH_FROM_ROUND:
            return o
        if o[0] == ERE_WE_GO and charge_worth_rerolling(game, uid):
            return o
    return DECLINE if len(mine) == len(options) else None
