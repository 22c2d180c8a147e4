"""The battle round (07), the player turn and its steps, the Command phase (08), the End of
Turn step (03.03 coherency removals) and objective control (14) at the end of each phase and
turn. The four action phases live in ``engine/phases/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

from w40k.engine import ability_effects, geo, mission_actions, offtable, scoring
from w40k.engine import actions as actions_mod
from w40k.engine.actions import complete
from w40k.engine.context import Context
from w40k.engine.frames import FrameData, replace_frame
from w40k.engine.phases.charge import ChargeFrame
from w40k.engine.phases.deployment import ROLL_OFF_CHOICE, DeploymentFrame, DeployStep
from w40k.engine.phases.fight_frames import FightFrame
from w40k.engine.phases.movement_frames import MovementFrame
from w40k.engine.phases.shooting import ShootingFrame
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import PHASES
from w40k.engine.stratagems.effects import insane_bravery
from w40k.engine.units import at_or_below_half_strength, destroy, leadership_roll, model_oc
from w40k.engine.windows import Window, open_window_run_next

TURN_FLAGS = ("remained_stationary", "moved", "advanced", "fell_back", "desperate_escape",
              "charged", "shot", "fought", "selected_to_move", "selected_to_shoot",
              "selected_to_charge", "selected_to_fight", "fights_first", "set_up_this_turn",
              "embarked_this_phase", "ingress_this_turn", "emergency_disembark",
              "moved_this_phase", "surged", "firing_deck")
"""Flags that describe 'this turn' and are cleared at the start of each turn."""


def rounds(ctx: Context) -> int:
    """The mission's number of battle rounds (default 5)."""
    return int(cast(int, ctx.state.mission.get("rounds", 5)))


# -- the frames ------------------------------------------------------------------------------
@dataclass(frozen=True)
class BattleFrame(FrameData):
    """07: the battle, one battle round after another until the mission's last."""

    KIND = "battle"
    first_turn_decided: bool = False
    """The pre-battle sequence (engine/phases/deployment.py) has already let the mission
    decide the first turn (07.02)."""

    def to_json(self) -> dict[str, JSON]:
        """The position form: ``{}`` unless the first turn is already decided (positions
        saved before the pre-battle sequence existed read the same)."""
        return {"first_turn_decided": True} if self.first_turn_decided else {}


class RoundStep(StrEnum):
    """What a battle round does next."""

    FIRST_TURN = "first_turn"
    """Start the round; the first player's turn."""
    SECOND_TURN = "second_turn"
    """The second player's turn."""
    END = "end"
    """End the round."""


@dataclass(frozen=True)
class RoundFrame(FrameData):
    """07.01: one battle round, a turn for each player."""

    KIND = "round"
    step: RoundStep = RoundStep.FIRST_TURN
    """What it does next."""

    @classmethod
    def legacy(cls, data: dict[str, JSON]) -> dict[str, JSON]:
        """Saves before typed frames counted the step 0, 1, 2."""
        step = data.get("step")
        if isinstance(step, int) and not isinstance(step, bool) and 0 <= step < 3:
            return {**data, "step": list(RoundStep)[step].value}
        return data


@dataclass(frozen=True)
class TurnFrame(FrameData):
    """07.02: one player's turn. ``step`` counts its parts: 0 the start of the turn, 1-5 the
    phases of :data:`PHASES` in order, 6 the End of Turn step, 7 the end of the turn (a count,
    not an enum: the phases are the table :data:`PHASES`)."""

    KIND = "turn"
    player: str
    """Whose turn it is."""
    step: int = 0
    """The part it starts next (see above)."""
    closed: int | None = None
    """The step whose 'something has just ended' window has been opened (the phase before
    it, or the turn at step 7): a window is opened once."""

    @classmethod
    def legacy(cls, data: dict[str, JSON]) -> dict[str, JSON]:
        """Saves before typed frames wrote the end of the turn's window as ``"turn"``."""
        if data.get("closed") == "turn":
            return {**data, "closed": len(PHASES) + 2}
        return data


@dataclass(frozen=True)
class CommandFrame(FrameData):
    """08: the Command phase (one run: CP, then battle-shock rolls)."""

    KIND = "command"
    next: int | None = None
    """The index in the state's units of the next unit to consider for a battle-shock roll
    (None: CP not yet gained)."""
    asked: str | None = None
    """The unit whose before-battle-shock window has been opened."""
    abilities: bool = False
    """The Command Abilities window (08.04) has been opened."""

    @classmethod
    def legacy(cls, data: dict[str, JSON]) -> dict[str, JSON]:
        """Saves before typed frames gave every phase frame ``step: 0``."""
        return {k: v for k, v in data.items() if not (k == "step" and v == 0)}


@dataclass(frozen=True)
class EndOfTurnFrame(FrameData):
    """03.03: the End of Turn step, removing models until every unit is in coherency."""

    KIND = "end_of_turn"

    @classmethod
    def legacy(cls, data: dict[str, JSON]) -> dict[str, JSON]:
        """Saves before typed frames wrote ``step: 0``."""
        return {k: v for k, v in data.items() if not (k == "step" and v == 0)}


PHASE_FRAMES: dict[str, type[FrameData]] = {
    "command": CommandFrame, "movement": MovementFrame, "shooting": ShootingFrame,
    "charge": ChargeFrame, "fight": FightFrame}
"""Each phase of :data:`PHASES` and the frame that runs it."""


# -- 07 battle and battle round ----------------------------------------------------------
def _battle(ctx: Context, frame: BattleFrame) -> Request | None:
    s = ctx.state
    if s.round == 0:
        # Appendix: starting strength is fixed at the start of the first battle round.
        for u in (*s.units, *s.off_table):  # units in reserve or embarked too
            if not u.starting_strength:
                u.starting_strength = len(u.alive)
        if not frame.first_turn_decided:
            if s.mission.get("first_turn") == ROLL_OFF_CHOICE:  # a decision: its own frame
                ctx.push(DeploymentFrame(step=DeployStep.FIRST_TURN))
                return None
            scoring.decide_first_turn(ctx)  # 07.02: the mission says who goes first
    if s.round >= rounds(ctx):
        s.ended = True
        s.turn_player = s.active = s.phase = ""
        scores = {p.name: p.vp for p in s.players}
        best = max(scores.values())
        winners = [n for n, v in scores.items() if v == best]
        ctx.log("battle_end", vp=cast(JSON, scores),
                winner=winners[0] if len(winners) == 1 else None)
        ctx.pop()
        return None
    s.round += 1
    ctx.push(RoundFrame())
    return None


def _round(ctx: Context, frame: RoundFrame) -> Request | None:
    s = ctx.state
    first, second = s.players[0].name, s.players[1].name
    if frame.step is RoundStep.FIRST_TURN:
        ctx.replace(frame, replace_frame(frame, step=RoundStep.SECOND_TURN))
        # 01.03: outside turns the player who takes the first turn is active.
        s.active = first
        ctx.log("round_start")
        ctx.push(TurnFrame(first))
    elif frame.step is RoundStep.SECOND_TURN:
        ctx.replace(frame, replace_frame(frame, step=RoundStep.END))
        ctx.push(TurnFrame(second))
    else:
        s.turn_player = ""
        s.active = first
        s.phase = ""
        scoring.score(ctx, "end_of_round")  # 07.03: mission rules at the end of the round
        offtable.end_of_round(ctx)  # 20.04: unarrived reserves at the end of round 3
        ctx.log("round_end")
        ctx.pop()
    return None


# -- 07.02 the player turn -----------------------------------------------------------------
def _closing(ctx: Context, frame: TurnFrame, window: Window, **facts: JSON) -> bool:
    """Open the window of something that has just ended (the phase before ``frame.step``, or
    the turn) once. True when a window was pushed: the frame runs the same step again after
    it."""
    if frame.closed == frame.step:
        return False
    ctx.replace(frame, replace_frame(frame, closed=frame.step))
    # 16.01: actions that complete at this moment, before anything is used in its window
    complete(ctx, (*actions_mod.ACTIONS, *mission_actions.actions(ctx)), window,
             str(facts.get("phase", "")))
    # the caller returns at once when it is pushed: the window runs next (its lists handed)
    return open_window_run_next(ctx, window, **facts)


def _turn(ctx: Context, frame: TurnFrame) -> Request | None:
    s = ctx.state
    player = frame.player
    step = frame.step
    if step == 0:
        ctx.replace(frame, replace_frame(frame, step=1))
        s.turn_player = s.active = player
        s.phase = ""
        for u in (*s.units, *s.off_table):
            for f in TURN_FLAGS:
                u.flags.pop(f, None)
            u.max_move = 0.0
            # 13.09: 'during this turn or during the previous turn'.
            u.flags["ranged_attacks_last_turn"] = u.flag("ranged_attacks_this_turn")
            u.flags.pop("ranged_attacks_this_turn", None)
        ctx.log("turn_start")
        open_window_run_next(ctx, Window.START_OF_TURN)  # the window (if any) runs next
        return None
    if 1 < step <= len(PHASES) + 1:
        if _closing(ctx, frame, Window.END_OF_PHASE, phase=PHASES[step - 2]):
            return None  # the phase that has just ended
        frame = cast(TurnFrame, ctx.top)
        if PHASES[step - 2] == "command":
            # 08.05 (R08.05-a): the other end-of-Command-phase rules (the window) first, then
            # the mission's Command phase rules.
            scoring.score(ctx, "command_phase", player)
    if step > len(PHASES) + 1:
        if _closing(ctx, frame, Window.END_OF_TURN):
            return None
        frame = cast(TurnFrame, ctx.top)
    ctx.replace(frame, replace_frame(frame, step=step + 1))
    if 1 <= step <= len(PHASES):
        phase = PHASES[step - 1]
        if step > 1:
            update_objectives(ctx)  # 14.02: at the end of each phase
        if step == 2:
            ability_effects.end_of_command_phase(ctx, player)  # Objective Secured
        elif step == 1:  # effects 'until the start of your next Command phase' end
            ability_effects.start_of_command_phase(ctx, player)
        s.phase = phase
        s.active = player
        for u in s.units:
            u.flags.pop("moved_this_phase", None)  # R21.02-a: 'this phase'
            u.flags.pop("surged", None)  # R21.02-c: 'this phase'
        ctx.log("phase_start")
        ctx.push(PHASE_FRAMES[phase]())
        # above the phase: first (it runs next, its lists handed)
        open_window_run_next(ctx, Window.START_OF_PHASE, phase=phase)
        return None
    if step == len(PHASES) + 1:
        update_objectives(ctx)
        s.phase = "end_of_turn"
        s.active = player
        ctx.push(EndOfTurnFrame())
        return None
    update_objectives(ctx, end_of_phase=False)  # 14.02: and of each turn
    score_mission(ctx, player)
    offtable.aircraft_return(ctx, player)  # 23.02: the opponent's AIRCRAFT leave
    ctx.log("turn_end")
    s.phase = ""
    ctx.pop()
    return None


# -- 08 Command phase ------------------------------------------------------------------------
def _set(ctx: Context, frame: CommandFrame, **changes: Any) -> CommandFrame:
    new = replace_frame(frame, **changes)
    ctx.replace(frame, new)
    return new


def _command(ctx: Context, frame: CommandFrame) -> Request | None:
    s = ctx.state
    if frame.next is None:
        for p in s.players:  # 08.02: both players gain 1 CP
            p.cp += 1
        ctx.log("gain_cp", cp=cast(JSON, {p.name: p.cp for p in s.players}))
        frame = _set(ctx, frame, next=0)
    # 08.03: a battle-shock roll for each unit that is battle-shocked or at/below half
    # strength, in army order; just before each, a window (15.04 Insane Bravery).
    while (i := cast(int, frame.next)) < len(s.units):
        u = s.units[i]
        if u.player != s.turn_player or u.destroyed or not (
                u.flag("battle_shocked") or at_or_below_half_strength(u)):
            frame = _set(ctx, frame, next=i + 1)
            continue
        if frame.asked != u.id:
            frame = _set(ctx, frame, asked=u.id)
            if open_window_run_next(ctx, Window.BEFORE_BATTLE_SHOCK, unit=u.id):
                return None
        frame = _set(ctx, frame, next=i + 1)
        dice: list[int] = []
        if insane_bravery(ctx, u.id):
            ok = True  # 15.04: automatically successful, no dice rolled
        else:
            ok, dice = leadership_roll(ctx, u)
        if ok:
            u.flags.pop("battle_shocked", None)
        else:
            u.flags["battle_shocked"] = True
        ctx.log("battle_shock_roll", unit=u.id, dice=list[JSON](dice), passed=ok,
                battle_shocked=u.flag("battle_shocked"))
    if not frame.abilities:
        # 08.04: rules triggered in the Command phase resolve now (R08.04-a).
        frame = _set(ctx, frame, abilities=True)
        if open_window_run_next(ctx, Window.COMMAND_ABILITIES, phase="command"):
            return None
    ctx.pop()  # the mission's Command phase rules score after its end-of-phase window (08.05)
    return None


# -- End of Turn step: 03.03 regaining coherency -------------------------------------------
def _incoherent(ctx: Context) -> list[str]:
    return [u.id for u in ctx.state.units
            if not u.destroyed and len(u.alive) > 1 and not geo.unit_in_coherency(ctx, u)]


def _end_of_turn(ctx: Context, frame: EndOfTurnFrame) -> Request | None:
    bad = _incoherent(ctx)
    if not bad:
        ctx.pop()
        return None
    u = ctx.state.unit(bad[0])
    options = tuple[JSON, ...](m.id for m in u.alive)
    return request(u.player, K.REMOVE_FOR_COHERENCY, "R03.03-e",
                   f"{u.name} is out of coherency: remove which model?", options,
                   context={"unit": u.id}, labels=tuple(m.name for m in u.alive))


def _end_of_turn_apply(ctx: Context, frame: EndOfTurnFrame, request: Request, choice: JSON) -> None:
    u = ctx.state.unit(str(request.context["unit"]))
    m = next(m for m in u.alive if m.id == choice)
    # 03.03: destroyed, but no 'when destroyed' rules trigger.
    destroy(ctx, u, m, cause="coherency", triggers=False)


# -- 14 objectives ---------------------------------------------------------------------------
def update_objectives(ctx: Context, *, end_of_phase: bool = True) -> None:
    """14.02/14.03: level of control per player at the end of a phase or turn. A secured
    objective is lost only when the opponent's level is greater at the end of a *phase*
    (14.03), so the end-of-turn check (``end_of_phase=False``) keeps it."""
    s = ctx.state
    # per unit, its living models and, per objective, which of them are within range (kept
    # while the unit's models stand as they did: geo.objective_reach)
    reach = [(u, u.alive, geo.objective_reach(ctx, u)) for u in s.units]
    for i, obj in enumerate(s.objectives):
        level = {p.name: 0 for p in s.players}
        for u, alive, within in reach:
            for j in within[i]:
                level[u.player] += model_oc(u, alive[j])
        a, b = (p.name for p in s.players)
        if level[a] != level[b]:
            winner: str | None = a if level[a] > level[b] else b
        else:
            winner = None
        if obj.secured_by is not None:
            other = s.opponent(obj.secured_by)
            if end_of_phase and level[other] > level[obj.secured_by]:
                obj.secured_by = None  # 14.03: until the opponent's level is greater
            else:
                winner = obj.secured_by
        if winner != obj.controller:
            obj.controller = winner
            ctx.log("objective_control", objective=obj.name, controller=winner,
                    levels=cast(JSON, level))


def controlling_units(ctx: Context, objective: str) -> list[str]:
    """14.02: the units 'controlling' an objective: units within range of an objective their
    player controls that contain a model with OC 1 or more (battle-shocked: OC '-')."""
    s = ctx.state
    obj = next(o for o in s.objectives if o.name == objective)
    if obj.controller is None:
        return []
    return [u.id for u in s.units_of(obj.controller)
            if any(model_oc(u, m) >= 1 and geo.in_objective_range(ctx, m, obj)
                   for m in u.alive)]


def score_mission(ctx: Context, player: str) -> None:
    """The mission's scoring at the end of ``player``'s turn (engine/scoring.py)."""
    scoring.score(ctx, "end_of_turn", player)


FRAMES: tuple[Handler[Any], ...] = (
    Handler(BattleFrame, _battle), Handler(RoundFrame, _round), Handler(TurnFrame, _turn),
    Handler(CommandFrame, _command), Handler(EndOfTurnFrame, _end_of_turn, _end_of_turn_apply))
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
