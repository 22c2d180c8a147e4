"""What happens when a model is destroyed: its on-death rules, then its removal (Appendix
'Destroyed'); the on-death rules so far are the emergency disembarks from a TRANSPORT (18.03,
18.05) and Deadly Demise (24.08), in that order (R18.05-d).

A ``deaths`` frame holds the models destroyed whose on-death rules are pending, in order
(``pending``: ``{"unit", "model", "x", "y", "z"}``). For a unit's attacks it is pushed by
:func:`w40k.engine.attack.push_attack` *below* every attack frame of that activation, so the
rules and the removal wait until the attacking unit's attacks are resolved (RA-Destroyed-b);
a model destroyed otherwise (mortal wounds of a Desperate Escape) gets a ``deaths`` frame of
its own, on top, resolved right away. Models removed for coherency never get here (03.03,
``destroy(..., triggers=False)``).

Running the frame, for each pending model in turn: first, if it is a TRANSPORT with units
still embarked within it, their emergency disembarks (``offtable.emergency_disembark``; the
hazard mortal wounds resolve above this frame before it goes on); then, with Deadly Demise,
one D6 (logged ``deadly_demise_roll``); on a 6 each unit with a living model within 6" of the
model (horizontally, from its base where it died; friend or foe, its own unit included:
R24.08-b, literal reading) suffers X mortal wounds, a random X rolled separately per unit
(``deadly_demise``), each batch resolved by the 06.02 ``mortal_wounds`` frame (allocation,
Feel No Pain) pushed directly above this frame; models with Deadly Demise destroyed by them
join the end of ``pending`` (a chain). Then the model is removed (``removed``). Every roll is
stored in the frame before anything is asked (the contract of ``registry``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from w40k.core.abilities import DeadlyDemise
from w40k.core.dice import Roller, RollKind
from w40k.engine.context import Context
from w40k.engine.frames import FrameData, Record
from w40k.engine.geo import model_shape
from w40k.engine.offtable import emergency_disembark, passengers
from w40k.engine.phases.movement_frames import MortalWoundsFrame
from w40k.engine.registry import Handler
from w40k.engine.requests import Request
from w40k.engine.state import ModelData, UnitData
from w40k.geometry import within

DEADLY_DEMISE_RANGE = 6.0
"""24.08: each unit within 6"."""


def deadly_demise(m: ModelData) -> DeadlyDemise | None:
    """The model's Deadly Demise ability, if it has one."""
    return next((a for a in m.profile.abilities if isinstance(a, DeadlyDemise)), None)


@dataclass(frozen=True)
class Death(Record):
    """A model destroyed whose on-death rules are pending, where it died."""

    unit: str
    """Its unit."""
    model: str
    """The model."""
    x: float
    """Where it died: x."""
    y: float
    """y."""
    z: float
    """z."""


@dataclass(frozen=True)
class DeathResolving(Death):
    """The model whose on-death rules are being resolved: its roll and the mortal wounds
    still to inflict (24.08)."""

    roll: int = 0
    """Its Deadly Demise roll."""
    queue: tuple[tuple[str, int], ...] = ()
    """``(unit, mortal wounds)`` still to inflict, in order."""


@dataclass(frozen=True)
class DeathsFrame(FrameData):
    """Models destroyed whose on-death rules (and removal) are pending (module docstring)."""

    KIND = "deaths"
    attacker: str | None = None
    """The unit whose attacks destroyed them (None: not by an attack)."""
    pending: tuple[Death, ...] = ()
    """Waiting, in order."""
    current: DeathResolving | None = None
    """Being resolved."""


def push_deaths(ctx: Context, attacker: str | None) -> None:
    """Push an empty ``deaths`` frame (for ``attacker``'s attacks, or None)."""
    ctx.push(DeathsFrame(attacker))


def carries(ctx: Context, u: UnitData, m: ModelData) -> bool:
    """Whether ``m`` is a TRANSPORT model with units still embarked within it (18.03)."""
    return m.profile.transport is not None and bool(passengers(ctx.state, u.id))


def model_destroyed(ctx: Context, u: UnitData, m: ModelData) -> None:
    """Record the on-death rules of a model just destroyed (by the frame on top of the stack)
    in the right ``deaths`` frame; nothing for a model without any. A TRANSPORT with units
    embarked within it waits there too: its emergency disembarks come after the attacking
    unit's attacks and before its Deadly Demise roll (R18.05-d, the 24.08 example)."""
    if deadly_demise(m) is None and not carries(ctx, u, m):
        return
    entry = Death(u.id, m.id, m.x, m.y, m.z)
    frames = ctx.state.frames
    top = frames[-1] if frames else None
    if top is not None and top.KIND == "attack":
        # Appendix 'Destroyed': wait until the attacking unit's attacks are resolved; the
        # attacker's own hazard deaths (24.21: after its attacks) wait with them.
        attacker = cast_attacker(top)
        for f in reversed(frames[:-1]):
            if isinstance(f, DeathsFrame) and f.attacker == attacker:
                ctx.replace(f, replace(f, pending=(*f.pending, entry)))
                return
            if f.KIND != "attack" or cast_attacker(f) != attacker:
                break
        # an attack frame pushed without push_attack: a deaths frame just below it
        frames.insert(len(frames) - 1, DeathsFrame(attacker, (entry,)))
        return
    if (top is not None and top.KIND == "mortal_wounds" and len(frames) >= 2
            and isinstance(frames[-2], DeathsFrame)):
        below = frames[-2]
        ctx.replace(below, replace(below, pending=(*below.pending, entry)))  # a chain
        return
    ctx.push(DeathsFrame(None, (entry,)))  # not by an attack: right away


def cast_attacker(frame: FrameData) -> str | None:
    """The attacking unit of an ``attack`` frame (engine/attack.py imports this module)."""
    value: Any = getattr(frame, "attacker", None)
    return None if value is None else str(value)


def _run(ctx: Context, frame: DeathsFrame) -> Request | None:
    current = frame.current
    if current is None:
        if not frame.pending:
            ctx.pop()
            return None
        entry = frame.pending[0]
        u = ctx.state.unit(entry.unit)
        m = next(x for x in u.models if x.id == entry.model)
        if carries(ctx, u, m):
            # R18.03-b / R18.05-d: the embarked units disembark before the roll and the
            # removal; their hazard mortal wounds resolve above this frame, then it resumes.
            emergency_disembark(ctx, u, m)
            return None
        ability = deadly_demise(m)
        if ability is None:  # a TRANSPORT without Deadly Demise: removed once they are out
            ctx.log("removed", unit=u.id, model=m.id)
            ctx.replace(frame, replace(frame, pending=frame.pending[1:]))
            return None
        roll = ctx.roll(RollKind.DEADLY_DEMISE, unit=u.id)[0].unmodified
        ctx.log("deadly_demise_roll", unit=u.id, model=m.id, roll=roll, x=str(ability.x),
                rule="R24.08-a")
        hits: list[tuple[str, int]] = []
        if roll == 6:
            here = model_shape(m, entry.x, entry.y, entry.z)
            roller = Roller(ctx.dice)
            for v in ctx.state.units:  # R24.08-b: any unit, the model's own included
                if any(within(model_shape(o), here, DEADLY_DEMISE_RANGE) for o in v.alive):
                    # R24.08-a: a random X is rolled per unit
                    amount, dice = roller.expr(RollKind.DEADLY_DEMISE, ability.x)
                    ctx.log_roll(RollKind.DEADLY_DEMISE, dice, unit=v.id)
                    hits.append((v.id, amount))
            ctx.log("deadly_demise", unit=u.id, model=m.id,
                    mortal_wounds=[[uid, n] for uid, n in hits])
        ctx.replace(frame, replace(frame, pending=frame.pending[1:], current=DeathResolving(
            entry.unit, entry.model, entry.x, entry.y, entry.z, roll, tuple(hits))))
        return None
    if current.queue:
        (uid, n), rest = current.queue[0], current.queue[1:]
        ctx.replace(frame, replace(frame, current=replace(current, queue=rest)))
        ctx.push(MortalWoundsFrame(uid, n, f"deadly demise of {current.model}"))
        return None
    ctx.log("removed", unit=current.unit, model=current.model)
    ctx.replace(frame, replace(frame, current=None))
    return None


FRAMES: tuple[Handler[Any], ...] = (Handler(DeathsFrame, _run),)
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
