"""The Fight phase's frames (12): the phase, the Pile In / Consolidate steps and the Fight
step's selection order. Their handlers are in ``fight.py``; they live here so that
``fight_sequence.py`` (which ``fight.py`` imports) reads the phase frame without an import
cycle."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from w40k.engine.frames import FrameData
from w40k.engine.serial import JSON


class FightStep(StrEnum):
    """What the Fight phase does next."""

    PILE_IN = "pile_in"
    """12.01 Start of Fight phase; 12.02 Pile In."""
    FIGHT = "fight"
    """12.04 Fight."""
    CONSOLIDATE = "consolidate"
    """12.07 Consolidate."""
    END = "end"
    """12.09 End of Fight phase."""


@dataclass(frozen=True)
class FightFrame(FrameData):
    """12: the Fight phase and the records of the start of its Fight step."""

    KIND = "fight"
    step: FightStep = FightStep.PILE_IN
    """What it does next."""
    engaged_at_start: tuple[str, ...] | None = None
    """Units engaged at the start of the Fight step (None before it)."""
    unengaged_at_start: tuple[str, ...] = ()
    """Units on the battlefield and unengaged then (12.06 overrun)."""
    ever_eligible: tuple[str, ...] = ()
    """Units eligible to fight at some point this phase (12.08 consolidation)."""

    @classmethod
    def legacy(cls, data: dict[str, JSON]) -> dict[str, JSON]:
        """Saves before typed frames counted the step 0-3."""
        step = data.get("step")
        if isinstance(step, int) and not isinstance(step, bool) and 0 <= step < 4:
            return {**data, "step": list(FightStep)[step].value}
        return data


@dataclass(frozen=True)
class MeleeStepFrame(FrameData):
    """12.02 / 12.07: the Pile In or Consolidate step, the player whose turn it is first."""

    KIND = "melee_step"
    what: str
    """``pile_in`` or ``consolidate``."""
    players: tuple[str, ...]
    """The players in order."""
    idx: int = 0
    """The index in ``players`` of the player moving now."""
    done: tuple[str, ...] = ()
    """Units selected in this step (each at most once)."""


class FightMode(StrEnum):
    """The part of the Fight step (12.04)."""

    FIGHTS_FIRST = "ff"
    """Fights First units."""
    REMAINING = "rem"
    """Remaining Combats."""


@dataclass(frozen=True)
class FightSeqFrame(FrameData):
    """12.04: who selects the next unit to fight."""

    KIND = "fight_seq"
    mode: FightMode
    """Fights First or Remaining Combats."""
    chooser: str
    """The player who selects next."""
    passed: tuple[str, ...] = ()
    """Players who passed in succession (RA-Unable-a)."""
    resolving: str | None = None
    """The player whose selected unit is fighting (the other selects next)."""
    ended: bool = False
    """Both players passed: the Fight step ends."""
