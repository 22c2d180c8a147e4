"""Read-only queries on a game: nothing changes and no die is rolled (issue 9 item 8)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from w40k.core.jsonval import JSON
from w40k.engine.units import unit_strength
from w40k.engine.windows import WindowFrame

if TYPE_CHECKING:
    from w40k.engine.game import Game


def below_starting_strength(game: Game, unit: str) -> bool:
    """Appendix: fewer models (or, for a one-model unit, fewer wounds) than at the start."""
    st = unit_strength(game.state.unit(unit))
    return st is not None and st.below_starting


def at_half_strength(game: Game, unit: str) -> bool:
    """Appendix: exactly half (never for an odd starting strength)."""
    st = unit_strength(game.state.unit(unit))
    return st is not None and st.at_half


def below_half_strength(game: Game, unit: str) -> bool:
    """Appendix: fewer than half."""
    st = unit_strength(game.state.unit(unit))
    return st is not None and st.below_half


@dataclass(frozen=True)
class WhenShot:
    """When a unit last made ranged attacks (13.09: 'this turn or the previous turn')."""

    round: int
    """The battle round."""
    player: str
    """Whose turn it was."""


def last_ranged_attacks(game: Game, unit: str) -> WhenShot | None:
    """The battle round and turn of the unit's most recent ranged attacks, from the event
    log; None if it has made none."""
    for e in reversed(game.state.events):
        if e["event"] == "declare_shooting" and e.get("unit") == unit and e.get("shots"):
            return WhenShot(int(cast(int, e["round"])), str(e["player"]))
    return None


def command_points(game: Game, player: str) -> int:
    """The player's CP."""
    return game.state.player(player).cp


def victory_points(game: Game, player: str) -> int:
    """The player's VP."""
    return game.state.player(player).vp


def open_windows(game: Game) -> list[dict[str, JSON]]:
    """The reaction windows open now, innermost last: ``{"window", "facts"}``."""
    return [{"window": str(f.window), "facts": copy.deepcopy(f.facts)}
            for f in game.state.frames if isinstance(f, WindowFrame)]
