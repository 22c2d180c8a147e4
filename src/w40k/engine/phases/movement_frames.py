"""The Movement phase's frames (09) and the mortal wounds frame (06.02). Their handlers are
in ``movement.py``; they live here so that ``engine/death.py`` (which ``movement.py`` imports
through ``units.py``) pushes a mortal wounds frame without an import cycle."""

from __future__ import annotations

from dataclasses import dataclass, field

from w40k.engine.frames import FrameData
from w40k.engine.serial import JSON


def _drop_step(data: dict[str, JSON]) -> dict[str, JSON]:
    """Saves before typed frames gave every phase frame ``step: 0``."""
    return {k: v for k, v in data.items() if not (k == "step" and v == 0)}


@dataclass(frozen=True)
class MovementFrame(FrameData):
    """09: the Movement phase (which units have been selected)."""

    KIND = "movement"
    selected: tuple[str, ...] = ()
    """Units selected to move this phase (R09.01-a), in order; a cancelled move takes its
    unit out again."""
    advance_rolls: dict[str, int] = field(default_factory=dict)
    """Advance rolls made this phase per unit (they stand after a cancelled move)."""
    hazards_done: tuple[str, ...] = ()
    """Units whose Desperate Escape hazard rolls are made (not repeated after a cancel)."""

    @classmethod
    def legacy(cls, data: dict[str, JSON]) -> dict[str, JSON]:
        """See :func:`_drop_step`."""
        return _drop_step(data)


@dataclass(frozen=True)
class MoveUnitFrame(FrameData):
    """09.02: one selected unit's move. Progress is by value: each answer or roll is None
    until made (the move type, take to the skies, the advance roll, the hazard rolls, the
    positions answer), then ``moved`` and ``shock_rolled``."""

    KIND = "move_unit"
    unit: str
    """The unit."""
    move_type: str | None = None
    """The ``move_type`` answer (a key of :data:`MOVE_TYPES`)."""
    skies: bool | None = None
    """Takes to the skies (21.03); False when it cannot."""
    advance_roll: int | None = None
    """The advance roll (advance only)."""
    hazards: tuple[int, ...] | None = None
    """The Desperate Escape hazard rolls (empty when made before a cancelled attempt)."""
    answer: JSON = None
    """The legal ``positions`` answer, or ``"cancel"``."""
    moved: bool = False
    """The models have moved."""
    shock_rolled: bool = False
    """The battle-shock roll after a voluntary Desperate Escape is made (09.07)."""
    advance_rerolled: bool = False
    """15.02 Command Re-roll: the advance roll has been re-rolled (R15.02-e)."""
    embark_asked: bool = False
    """The ``embark`` question after the move has been answered (18.02)."""


@dataclass(frozen=True)
class MortalWoundsFrame(FrameData):
    """06.02: mortal wounds inflicted on a unit one at a time, each subject to Feel No
    Pain."""

    KIND = "mortal_wounds"
    unit: str
    """The unit."""
    amount: int
    """Mortal wounds still to inflict."""
    cause: str
    """What inflicts them (logged)."""
    chosen: str | None = None
    """The model the player picked for the next one (R06.02-a)."""
