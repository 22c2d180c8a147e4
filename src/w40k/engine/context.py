"""The narrow context handlers, proposers and reactions work through (DESIGN.md "Frames are
typed"): the state, the dice, the event log and the frame stack, nothing else of the game.

:class:`~w40k.engine.game.Game` builds one and hands it to every handler (engine/registry.py),
proposer (engine/legal.py) and reaction callback (engine/windows.py); ``pending()`` /
``submit()``, saving and records stay on the game. The geometry queries are functions of the
state (``engine/geo.py``), called with the context.

Frames are frozen (engine/frames.py): a handler makes progress by replacing its frame,
``ctx.replace(frame, dataclasses.replace(frame, step=...))``, and adds work with
``ctx.push(SomeFrame(...))``. ``ctx.push(kind, **data)`` (the older form) still works: the
data is read by the kind's frame class, as a saved position's would be.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from w40k.core.dice import DieRoll, SerializableDice
from w40k.core.jsonval import JSON
from w40k.engine.frames import FrameData
from w40k.engine.state import GameState

F = TypeVar("F", bound=FrameData)


class CountingDice:
    """The game's dice source, counting the faces drawn (the fuzzer checks every one of them
    appears in a ``roll`` event)."""

    __slots__ = ("_armed", "_before", "drawn", "inner")

    def __init__(self, inner: SerializableDice) -> None:
        self.inner = inner
        """The source the faces come from (seeded, scripted, ordered)."""
        self.drawn = 0
        """Faces drawn so far."""
        self._armed = False
        self._before: dict[str, JSON] | None = None

    def d6(self, kind: str) -> int:
        """One D6 face."""
        if self._armed:  # the first face since arm(): keep the state before it
            self._armed = False
            self._before = self.inner.to_json()
        self.drawn += 1
        return self.inner.d6(kind)

    def arm(self) -> None:
        """Keep the source's state as it is now, for an answer that may be refused
        (``Game.submit``): taken just before the next face is drawn (the source changes only
        by drawing), so an answer that rolls nothing costs nothing."""
        self._armed = True
        self._before = None

    def disarm(self) -> dict[str, JSON] | None:
        """Stop keeping it: the state :meth:`arm` kept (:meth:`to_json`'s form), or None when
        no face has been drawn since (the state is the same)."""
        before = self._before
        self._armed = False
        self._before = None
        return before

    def to_json(self) -> dict[str, JSON]:
        """The inner source's state."""
        return self.inner.to_json()


class Context:
    """What a rule may touch while the game resolves: see the module docstring."""

    __slots__ = ("_kinds", "dice", "state")

    def __init__(self, state: GameState, dice: CountingDice,
                 kinds: Mapping[str, type[FrameData]]) -> None:
        self.state = state
        """The game state (plain data)."""
        self.dice = dice
        """The game's one dice source (use :meth:`roll`: it logs what it rolls)."""
        self._kinds = kinds
        """Frame kind -> frame class (the table's, given by the game)."""

    # -- dice and the event log ------------------------------------------------------------
    def roll(self, kind: str, n: int = 1, *, unit: str | None = None,
             sides: int = 6) -> tuple[DieRoll, ...]:
        """``n`` dice of ``kind`` rolled together from the game's dice, logged as one
        ``roll`` event (kind, faces, unit)."""
        dice = tuple(DieRoll(kind, (self.dice.d6(kind),), sides) for _ in range(n))
        self.log_roll(kind, dice, unit=unit)
        return dice

    def log_roll(self, kind: str, dice: tuple[DieRoll, ...], *, unit: str | None) -> None:
        """Log dice rolled through the game's source (re-rolled ones with both faces)."""
        self.log("roll", kind=kind, unit=unit, faces=[d.face for d in dice],
                 rerolled=[list[JSON](d.faces) for d in dice if d.rerolled])

    def log(self, event: str, **data: JSON) -> None:
        """Append an event to the log (the record compares these byte for byte)."""
        s = self.state
        entry: dict[str, JSON] = {"event": event, "round": s.round,
                                  "player": s.turn_player, "phase": s.phase}
        entry.update(data)
        s.events.append(entry)

    # -- the frame stack -------------------------------------------------------------------
    def push(self, frame: FrameData | str, /, **data: JSON) -> None:
        """Push a frame: a typed frame (``ctx.push(AttackFrame(...))``), or, the older form,
        a kind and its data as keyword arguments (read by the kind's frame class: a
        DataError when the data does not fit it)."""
        if isinstance(frame, str):
            typed: FrameData = self._kinds[frame].from_json(dict(data), f"frame {frame!r}")
            frame = typed
        self.state.frames.append(frame)

    def pop(self) -> None:
        """Pop the top frame."""
        self.state.frames.pop()

    @property
    def top(self) -> FrameData:
        """The top frame."""
        return self.state.frames[-1]

    def replace(self, old: FrameData, new: FrameData) -> None:
        """Put ``new`` where ``old`` is in the stack (the top one usually; found by identity,
        searching from the top)."""
        frames = self.state.frames
        if frames and frames[-1] is old:  # the top one: no range to walk
            frames[-1] = new
            return
        for i in range(len(frames) - 2, -1, -1):
            if frames[i] is old:
                frames[i] = new
                return
        raise RuntimeError(f"frame {old.KIND!r} is not on the stack")

    def set_top(self, new: FrameData) -> None:
        """Replace the top frame."""
        self.state.frames[-1] = new

    def find(self, cls: type[F]) -> F | None:
        """The innermost frame of a class (e.g. the phase a unit frame belongs to)."""
        for f in reversed(self.state.frames):
            if type(f) is cls:
                return f
        return None

    def need(self, cls: type[F]) -> F:
        """:meth:`find`, for a frame that must be there."""
        f = self.find(cls)
        if f is None:
            raise RuntimeError(f"no {cls.KIND!r} frame in progress")
        return f

    # -- options and policies ---------------------------------------------------------------
    @property
    def options(self) -> dict[str, JSON]:
        """Game-level rule options (engine/options.py)."""
        return self.state.options

    @property
    def policies(self) -> dict[str, str]:
        """Standing allocation policies per player."""
        return self.state.policies
