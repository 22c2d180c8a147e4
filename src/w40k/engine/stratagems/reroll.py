"""15.02 Command Re-roll, and the one place that reads and changes the progress a roll is kept
in (an attack frame's machine state, a charge frame, a move frame's advance roll): one small
function per frame kind, so that the typed frames can take them over.

R15.02-a: only advance, charge, damage, hazard, hit, save and wound rolls and rolls for the
number of attacks (never battle-shock, leadership, Feel No Pain, Deadly Demise, Explosives or
Crushing Impact dice: those open no window for it). R15.02-b: of several dice rolled together
one die is re-rolled, a charge roll in full. R15.02-e / X002-h: a die is re-rolled at most once.
R15.02-d: no hit re-roll where re-rolls are banned ([INDIRECT FIRE]).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, cast

from w40k.core.dice import DieRoll, RollKind
from w40k.core.jsonval import JSON
from w40k.engine.attack import AttackFrame, frame_state, with_state
from w40k.engine.phases.charge import ChargeStep, ChargeUnitFrame
from w40k.engine.phases.movement_frames import MovementFrame, MoveUnitFrame
from w40k.engine.stratagems.model import Stratagem, Target, TurnKey
from w40k.engine.windows import Facts, Window
from w40k.rules.attack_machine import reroll as machine_reroll

if TYPE_CHECKING:
    from w40k.engine.context import Context

ATTACK_KINDS = frozenset({RollKind.ATTACKS, RollKind.HIT, RollKind.WOUND, RollKind.SAVE,
                          RollKind.DAMAGE, RollKind.HAZARD})
"""R15.02-a: the attack-sequence rolls Command Re-roll may re-roll (not FNP)."""


# -- the frames that keep a roll --------------------------------------------------------------
def _attack_frame(ctx: Context, facts: Facts) -> AttackFrame | None:
    i = facts.get("frame")
    if not isinstance(i, int) or not 0 <= i < len(ctx.state.frames):
        return None
    f = ctx.state.frames[i]
    return f if isinstance(f, AttackFrame) else None


def _charge_frame(ctx: Context, unit: str) -> ChargeUnitFrame | None:
    """The charge frame whose roll waits to be used (step ``targets``)."""
    for f in reversed(ctx.state.frames):
        if isinstance(f, ChargeUnitFrame) and f.unit == unit:
            return f if f.step is ChargeStep.TARGETS else None
    return None


def _advance_frame(ctx: Context, unit: str) -> MoveUnitFrame | None:
    """The move frame holding the unit's advance roll."""
    for f in reversed(ctx.state.frames):
        if isinstance(f, MoveUnitFrame) and f.unit == unit and f.advance_roll is not None:
            return f
    return None


def _reroll_attack_die(ctx: Context, frame: AttackFrame, die: int,
                       unit: str) -> tuple[int, int]:
    """Re-roll die ``die`` of the batch the attack machine waits to use."""
    after = machine_reroll(frame_state(frame), die, ctx.dice)
    ctx.replace(frame, with_state(frame, after))
    new = after.rolled[die]
    ctx.log_roll(new.kind, (DieRoll(new.kind, (new.face,), new.sides),), unit=unit)
    return new.faces[0], new.face


def _reroll_charge(ctx: Context, frame: ChargeUnitFrame,
                   unit: str) -> tuple[list[JSON], list[JSON]]:
    """Re-roll the whole charge roll (R15.02-b)."""
    old = list[JSON](frame.dice)
    dice = [r.unmodified for r in ctx.roll(RollKind.CHARGE, 2, unit=unit)]
    ctx.replace(frame, replace(frame, dice=tuple(dice), roll=sum(dice), rerolled=True))
    return old, list[JSON](dice)


def _reroll_advance(ctx: Context, frame: MoveUnitFrame, unit: str) -> tuple[int, int]:
    old = cast(int, frame.advance_roll)
    new = ctx.roll(RollKind.ADVANCE, unit=unit)[0].unmodified
    ctx.replace(frame, replace(frame, advance_roll=new, advance_rerolled=True))
    phase = ctx.find(MovementFrame)
    if phase is not None:
        ctx.replace(phase, replace(phase, advance_rolls={**phase.advance_rolls, unit: new}))
    return old, new


# -- the stratagem ------------------------------------------------------------------------------
_CHARGE, _ADVANCE, _HIT = RollKind.CHARGE, RollKind.ADVANCE, RollKind.HIT
"""The roll kinds :func:`_targets` tells apart, read once (an enum member read off its class
costs ~10x a global's, and every roll of a friendly unit asks: pass ow25)."""


def _targets(ctx: Context, facts: Facts, player: str) -> list[Target]:
    kind = str(facts.get("kind", ""))
    uid = facts.get("unit")
    if not isinstance(uid, str) or ctx.state.unit(uid).player != player:
        return []  # 'a roll for a friendly unit'
    if kind == _CHARGE:
        cf = _charge_frame(ctx, uid)
        return [] if cf is None or cf.rerolled else [Target(uid)]
    if kind == _ADVANCE:
        mf = _advance_frame(ctx, uid)
        return [] if mf is None or mf.advance_rerolled else [Target(uid)]
    if kind not in ATTACK_KINDS:
        return []
    f = _attack_frame(ctx, facts)
    if f is None or f.state is None:
        return []
    actx = cast(dict[str, JSON], f.context or {})
    if kind == _HIT and (actx.get("indirect") or actx.get("snap_shooting")):
        return []  # R15.02-d: hit rolls that cannot be re-rolled
    faces = cast(list[int], facts.get("faces", []))
    seen: set[int] = set()
    out: list[Target] = []
    # R15.02-b: one die; dice of one batch showing the same face are interchangeable, so one
    # option per face (docs/rulings.md R15.02-b).
    for i in cast(list[int], facts.get("rerollable", [])):
        if faces[i] not in seen:
            seen.add(faces[i])
            out.append(Target(uid, {"die": i, "face": faces[i]}))
    return out


def _effect(ctx: Context, facts: Facts, player: str, target: Target) -> None:
    kind = str(facts["kind"])
    uid = target.unit
    if kind == RollKind.CHARGE:
        cf = _charge_frame(ctx, uid)
        assert cf is not None
        old_c, new_c = _reroll_charge(ctx, cf, uid)
        ctx.log("command_reroll", kind=kind, unit=uid, old=old_c, new=new_c)
        ctx.log("charge_roll", unit=uid, dice=new_c, roll=sum(cast(list[int], new_c)))
        return
    if kind == RollKind.ADVANCE:
        mf = _advance_frame(ctx, uid)
        assert mf is not None
        old, new = _reroll_advance(ctx, mf, uid)
        ctx.log("command_reroll", kind=kind, unit=uid, old=old, new=new)
        ctx.log("advance_roll", unit=uid, roll=new)
        return
    f = _attack_frame(ctx, facts)
    assert f is not None
    die = int(cast(int, target.detail["die"]))
    old, new = _reroll_attack_die(ctx, f, die, uid)
    ctx.log("command_reroll", kind=kind, unit=uid, die=die, old=old, new=new)


COMMAND_REROLL = Stratagem(
    "Command Re-roll", 1, Window.AFTER_ROLL, TurnKey.EITHER, (), "15.02", _targets, _effect,
    own_unit=True,  # _targets: [] unless the roll's unit is the player's
    text="Re-roll one die of an advance, charge (in full), damage, hazard, hit, save, wound or "
         "number-of-attacks roll just made for a friendly unit.")
"""15.02 Command Re-roll (1CP)."""
