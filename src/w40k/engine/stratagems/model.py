"""The data format of a stratagem (15.01): CP cost, WHEN (a reaction window, whose turn, which
phases), TARGET (the eligible targets at that moment), EFFECT and RESTRICTIONS. Core,
faction and detachment stratagems are all written as :class:`Stratagem` values."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from w40k.core.jsonval import JSON
from w40k.engine.windows import Facts, Window

if TYPE_CHECKING:
    from w40k.engine.context import Context


class TurnKey(StrEnum):
    """15.01 'Stratagem key': the turn a stratagem is used in (R15.01-e)."""

    EITHER = "either"
    """Either player's turn."""
    YOURS = "yours"
    """Your turn."""
    OPPONENTS = "opponents"
    """Your opponent's turn."""


@dataclass(frozen=True)
class Target:
    """One legal selection of targets (15.01 'Select targets'): the targeted unit and the
    further selections the stratagem asks for (a die, a model, a mode, an enemy unit)."""

    unit: str
    """The targeted friendly unit (R15.01-b counts it)."""
    detail: dict[str, JSON] = field(default_factory=dict)
    """Further selections, JSON (``{"die": 2}``, ``{"mode": "into_the_fray"}``)."""
    extra_cp: int = 0
    """The additional CP of an optional section used with this selection (15.01: '+1CP')."""

    def answer(self) -> dict[str, JSON]:
        """The reaction answer that selects this (docs/battle.md "Stratagems")."""
        return {"unit": self.unit, **self.detail}


TargetsFn = Callable[["Context", Facts, str], list[Target]]
"""TARGET: the selections ``player`` could make now, before the 15.01 limits."""
EffectFn = Callable[["Context", Facts, str, Target], None]
"""EFFECT: resolve the stratagem for the selection made (CP already paid)."""


@dataclass(frozen=True)
class Stratagem:
    """A stratagem as the rulebook states it (15.01)."""

    name: str
    """Its name (``Command Re-roll``): the reaction's name in windows and records."""
    cp: int
    """Its CP cost (without optional sections)."""
    window: Window
    """WHEN: the window it is offered in."""
    turn: TurnKey
    """WHEN: whose turn."""
    phases: tuple[str, ...]
    """WHEN: the phases (empty: any phase)."""
    rule: str
    """The section that defines it (``15.02``)."""
    targets: TargetsFn
    """TARGET (and the facts of WHEN that depend on the moment)."""
    effect: EffectFn
    """EFFECT."""
    once_per_battle: bool = False
    """RESTRICTIONS: at most once per battle per player (15.04)."""
    own_unit: bool = False
    """TARGET is the unit the facts' ``unit`` names, and only for its owner (15.02 'a roll
    for a friendly unit', 15.03-15.06 'one unit from your army' selected, tested, fighting):
    :attr:`targets` selects nothing for another player's unit, so ``legal_targets`` answers
    that case without reading the rest of the 15.01 limits."""
    text: str = ""
    """A one-line summary for players."""
