"""The heuristic player's mission actions (16.01, engine/mission_actions.py): a unit starts the
action when the VP it scores is worth more than what the unit's shooting takes from the enemy
this phase (performing an action, it cannot shoot: R16.01-b).

**Exchange rate**: ``VP_VALUE`` = 1.0 per VP, in the unit of
:func:`~w40k.agents.heuristic_eval.value_of` (about one wound, a CHARACTER's counting double):
1 VP ~ 1 wound. The unit's shooting is the best expected value of its ranged weapons at one
enemy unit within their range (``ranged_outcome``; line of sight not checked). An action
whose secondary would score nothing now (outside its rounds, at its battle cap) is never
started. Deterministic: the option with the most to gain, ties by its text.
"""

from __future__ import annotations

import math
from typing import cast

from w40k.agents.heuristic_eval import Estimates, max_range, unit_gap, value_of
from w40k.engine import mission_actions
from w40k.engine.game import Game
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.rules.decisions import DECLINE

VP_VALUE = 1.0
"""What one VP is worth in ``value_of``'s unit (about one wound)."""


def shooting_value(game: Game, u: UnitData, est: Estimates | None = None, *,
                   enough: float = math.inf) -> float:
    """The best expected value of ``u``'s shooting at one enemy unit in range (0: none);
    ``est``: the player's estimates (default: a fresh view of the state). ``enough``: the
    first value at least this is answered without valuing the other units (a caller that
    only asks whether the best reaches it)."""
    s = game.state
    view = Estimates(s) if est is None else est
    reach = max_range(u)
    best: float | None = None
    for e in s.units_of(s.opponent(u.player)):
        if e.alive and unit_gap(u, e) <= reach:
            v = value_of(view.ranged_outcome(u, e), e)
            if best is None or v > best:  # what max() keeps
                best = v
                if best >= enough:
                    break
    return 0.0 if best is None else best


def action_choice(game: Game, request: Request, est: Estimates | None = None) -> JSON | None:
    """The mission action worth starting most (its VP beats the unit's shooting), or None
    when no option of ``request`` is a mission action worth it (``est``: as
    :func:`shooting_value`)."""
    names = {a.name for a in mission_actions.actions(game.ctx)}
    best: tuple[float, str, JSON] | None = None
    for option in request.options:
        if option == DECLINE:
            continue
        name, answer = cast(list[JSON], option)
        if name not in names:
            continue
        vp = mission_actions.vp_if_completed(game.ctx, str(name), request.player)
        u = game.state.unit(str(cast(dict[str, JSON], answer)["unit"]))
        if not vp > 0:
            continue  # it scores nothing now: never started, whatever the unit's shooting
        # only whether the shooting reaches the VP decides, then the gain exactly: a value
        # at least the VP's ends the valuation (the gain is not positive either way)
        bar = VP_VALUE * vp
        gain = bar - shooting_value(game, u, est, enough=bar)
        if gain > 0 and (best is None or (gain, str(option)) > best[:2]):
            best = (gain, str(option), option)
    return None if best is None else best[2]
