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

from typing import TYPE_CHECKING, cast

from w40k.core.dice import DieRoll, RollKind
from w40k.core.jsonval import JSON
from w40k.engine.state import Frame
from w40k.engine.stratagems.model import Stratagem, Target, TurnKey
from w40k.engine.windows import Facts, Window
from w40k.rules.attack_machine import reroll as machine_reroll
from w40k.rules.attack_state import AttackState

if TYPE_CHECKING:
    from w40k.engine.game import Game

ATTACK_KINDS = frozenset({RollKind.ATTACKS, RollKind.HIT, RollKind.WOUND, RollKind.SAVE,
                          RollKind.DAMAGE, RollKind.HAZARD})
"""R15.02-a: the attack-sequence rolls Command Re-roll may re-roll (not FNP)."""


# -- the frames that keep a roll --------------------------------------------------------------
def _attack_frame(game: Game, facts: Facts) -> Frame | None:
    i = facts.get("frame")
    if not isinstance(i, int) or not 0 <= i < len(game.state.frames):
        return None
    f = game.state.frames[i]
    return f if f.kind == "attack" else None


def _charge_frame(game: Game, unit: str) -> Frame | None:
    """The charge frame whose roll waits to be used (step ``targets``)."""
    for f in reversed(game.state.frames):
        if f.kind == "charge_unit" and f.data.get("unit") == unit:
            return f if f.data.get("step") == "targets" else None
    return None


def _advance_frame(game: Game, unit: str) -> Frame | None:
    """The move frame holding the unit's advance roll."""
    for f in reversed(game.state.frames):
        if f.data.get("unit") == unit and "advance_roll" in f.data:
            return f
    return None


def _reroll_attack_die(game: Game, frame: Frame, die: int, unit: str) -> tuple[int, int]:
    """Re-roll die ``die`` of the batch the attack machine waits to use."""
    state = AttackState.from_json(cast(dict[str, JSON], frame.data["state"]))
    after = machine_reroll(state, die, game.dice)
    frame.data["state"] = after.to_json()
    new = after.rolled[die]
    game.log_roll(new.kind, (DieRoll(new.kind, (new.face,), new.sides),), unit=unit)
    return new.faces[0], new.face


def _reroll_charge(game: Game, frame: Frame, unit: str) -> tuple[list[JSON], list[JSON]]:
    """Re-roll the whole charge roll (R15.02-b)."""
    d = frame.data
    old = list(cast(list[JSON], d["dice"]))
    dice = [r.unmodified for r in game.roll(RollKind.CHARGE, 2, unit=unit)]
    d.update(dice=list[JSON](dice), roll=sum(dice), rerolled=True)
    return old, list[JSON](dice)


def _reroll_advance(game: Game, frame: Frame, unit: str) -> tuple[int, int]:
    d = frame.data
    old = int(cast(int, d["advance_roll"]))
    new = game.roll(RollKind.ADVANCE, unit=unit)[0].unmodified
    d["advance_roll"] = new
    d["advance_rerolled"] = True
    for f in reversed(game.state.frames):
        if f.kind == "movement":
            cast(dict[str, JSON], f.data["advance_rolls"])[unit] = new
            break
    return old, new


# -- the stratagem ------------------------------------------------------------------------------
def _targets(game: Game, facts: Facts, player: str) -> list[Target]:
    kind = str(facts.get("kind", ""))
    uid = facts.get("unit")
    if not isinstance(uid, str) or game.state.unit(uid).player != player:
        return []  # 'a roll for a friendly unit'
    if kind == RollKind.CHARGE:
        f = _charge_frame(game, uid)
        return [] if f is None or f.data.get("rerolled") else [Target(uid)]
    if kind == RollKind.ADVANCE:
        f = _advance_frame(game, uid)
        return [] if f is None or f.data.get("advance_rerolled") else [Target(uid)]
    if kind not in ATTACK_KINDS:
        return []
    f = _attack_frame(game, facts)
    if f is None or "state" not in f.data:
        return []
    ctx = cast(dict[str, JSON], f.data.get("context", {}))
    if kind == RollKind.HIT and (ctx.get("indirect") or ctx.get("snap_shooting")):
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


def _effect(game: Game, facts: Facts, player: str, target: Target) -> None:
    kind = str(facts["kind"])
    uid = target.unit
    if kind == RollKind.CHARGE:
        f = _charge_frame(game, uid)
        assert f is not None
        old_c, new_c = _reroll_charge(game, f, uid)
        game.log("command_reroll", kind=kind, unit=uid, old=old_c, new=new_c)
        game.log("charge_roll", unit=uid, dice=new_c, roll=sum(cast(list[int], new_c)))
        return
    if kind == RollKind.ADVANCE:
        f = _advance_frame(game, uid)
        assert f is not None
        old, new = _reroll_advance(game, f, uid)
        game.log("command_reroll", kind=kind, unit=uid, old=old, new=new)
        game.log("advance_roll", unit=uid, roll=new)
        return
    f = _attack_frame(game, facts)
    assert f is not None
    die = int(cast(int, target.detail["die"]))
    old, new = _reroll_attack_die(game, f, die, uid)
    game.log("command_reroll", kind=kind, unit=uid, die=die, old=old, new=new)


COMMAND_REROLL = Stratagem(
    "Command Re-roll", 1, Window.AFTER_ROLL, TurnKey.EITHER, (), "15.02", _targets, _effect,
    text="Re-roll one die of an advance, charge (in full), damage, hazard, hit, save, wound or "
         "number-of-attacks roll just made for a friendly unit.")
"""15.02 Command Re-roll (1CP)."""
