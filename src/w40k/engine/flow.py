"""The battle round (07), the player turn and its steps, the Command phase (08), the End of
Turn step (03.03 coherency removals) and objective control (14) at the end of each phase and
turn. The four action phases live in ``engine/phases/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from w40k.engine import actions as actions_mod
from w40k.engine import geo
from w40k.engine.actions import complete
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import PHASES, Frame
from w40k.engine.stratagems.effects import insane_bravery
from w40k.engine.units import at_or_below_half_strength, destroy, leadership_roll, model_oc
from w40k.engine.windows import Window, open_window

if TYPE_CHECKING:
    from w40k.engine.game import Game

TURN_FLAGS = ("remained_stationary", "moved", "advanced", "fell_back", "desperate_escape",
              "charged", "shot", "fought", "selected_to_move", "selected_to_shoot",
              "selected_to_charge", "selected_to_fight", "fights_first", "set_up_this_turn")
"""Flags that describe 'this turn' and are cleared at the start of each turn."""


def rounds(game: Game) -> int:
    """The mission's number of battle rounds (default 5)."""
    return int(cast(int, game.state.mission.get("rounds", 5)))


# -- 07 battle and battle round ----------------------------------------------------------
def _battle(game: Game, frame: Frame) -> Request | None:
    s = game.state
    if s.round == 0:
        # Appendix: starting strength is fixed at the start of the first battle round.
        for u in s.units:
            if not u.starting_strength:
                u.starting_strength = len(u.alive)
    if s.round >= rounds(game):
        s.ended = True
        s.turn_player = s.active = s.phase = ""
        scores = {p.name: p.vp for p in s.players}
        best = max(scores.values())
        winners = [n for n, v in scores.items() if v == best]
        game.log("battle_end", vp=cast(JSON, scores),
                 winner=winners[0] if len(winners) == 1 else None)
        game.pop()
        return None
    s.round += 1
    game.push("round", step=0)
    return None


def _round(game: Game, frame: Frame) -> Request | None:
    s = game.state
    step = int(cast(int, frame.data["step"]))
    first, second = s.players[0].name, s.players[1].name
    frame.data["step"] = step + 1
    if step == 0:
        # 01.03: outside turns the player who takes the first turn is active.
        s.active = first
        game.log("round_start")
        game.push("turn", player=first, step=0)
    elif step == 1:
        game.push("turn", player=second, step=0)
    else:
        s.turn_player = ""
        s.active = first
        s.phase = ""
        game.log("round_end")
        game.pop()
    return None


# -- 07.02 the player turn -----------------------------------------------------------------
def _closing(game: Game, frame: Frame, key: JSON, window: Window, **facts: JSON) -> bool:
    """Open the window of something that has just ended (a phase: ``key`` its step; the
    turn: ``"turn"``) once. True when a window was pushed: the frame runs the same step
    again after it."""
    if frame.data.get("closed") == key:
        return False
    frame.data["closed"] = key
    # 16.01: actions that complete at this moment, before anything is used in its window
    complete(game, actions_mod.ACTIONS, window, str(facts.get("phase", "")))
    return open_window(game, window, **facts)


def _turn(game: Game, frame: Frame) -> Request | None:
    s = game.state
    player = str(frame.data["player"])
    step = int(cast(int, frame.data["step"]))
    if step == 0:
        frame.data["step"] = 1
        s.turn_player = s.active = player
        s.phase = ""
        for u in s.units:
            for f in TURN_FLAGS:
                u.flags.pop(f, None)
            u.max_move = 0.0
            # 13.09: 'during this turn or during the previous turn'.
            u.flags["ranged_attacks_last_turn"] = u.flag("ranged_attacks_this_turn")
            u.flags.pop("ranged_attacks_this_turn", None)
        game.log("turn_start")
        open_window(game, Window.START_OF_TURN)
        return None
    if 1 < step <= len(PHASES) + 1 and _closing(game, frame, step, Window.END_OF_PHASE,
                                                phase=PHASES[step - 2]):
        return None  # the phase that has just ended
    if step > len(PHASES) + 1 and _closing(game, frame, "turn", Window.END_OF_TURN):
        return None
    frame.data["step"] = step + 1
    if 1 <= step <= len(PHASES):
        phase = PHASES[step - 1]
        if step > 1:
            update_objectives(game)  # 14.02: at the end of each phase
        s.phase = phase
        s.active = player
        game.log("phase_start")
        game.push(phase, step=0)
        open_window(game, Window.START_OF_PHASE, phase=phase)  # above the phase: first
        return None
    if step == len(PHASES) + 1:
        update_objectives(game)
        s.phase = "end_of_turn"
        s.active = player
        game.push("end_of_turn", step=0)
        return None
    update_objectives(game, end_of_phase=False)  # 14.02: and of each turn
    score_mission(game, player)
    game.log("turn_end")
    s.phase = ""
    game.pop()
    return None


# -- 08 Command phase ------------------------------------------------------------------------
def _command(game: Game, frame: Frame) -> Request | None:
    s = game.state
    d = frame.data
    if "next" not in d:
        for p in s.players:  # 08.02: both players gain 1 CP
            p.cp += 1
        game.log("gain_cp", cp=cast(JSON, {p.name: p.cp for p in s.players}))
        d["next"] = 0
    # 08.03: a battle-shock roll for each unit that is battle-shocked or at/below half
    # strength, in army order; just before each, a window (15.04 Insane Bravery).
    while int(cast(int, d["next"])) < len(s.units):
        u = s.units[int(cast(int, d["next"]))]
        if u.player != s.turn_player or u.destroyed or not (
                u.flag("battle_shocked") or at_or_below_half_strength(u)):
            d["next"] = int(cast(int, d["next"])) + 1
            continue
        if d.get("asked") != u.id:
            d["asked"] = u.id
            if open_window(game, Window.BEFORE_BATTLE_SHOCK, unit=u.id):
                return None
        d["next"] = int(cast(int, d["next"])) + 1
        dice: list[int] = []
        if insane_bravery(game, u.id):
            ok = True  # 15.04: automatically successful, no dice rolled
        else:
            ok, dice = leadership_roll(game, u)
        if ok:
            u.flags.pop("battle_shocked", None)
        else:
            u.flags["battle_shocked"] = True
        game.log("battle_shock_roll", unit=u.id, dice=list[JSON](dice), passed=ok,
                 battle_shocked=u.flag("battle_shocked"))
    if not d.get("abilities"):
        # 08.04: rules triggered in the Command phase resolve now (R08.04-a).
        d["abilities"] = True
        if open_window(game, Window.COMMAND_ABILITIES, phase="command"):
            return None
    game.pop()
    return None


# -- End of Turn step: 03.03 regaining coherency -------------------------------------------
def _incoherent(game: Game) -> list[str]:
    return [u.id for u in game.state.units
            if not u.destroyed and len(u.alive) > 1 and not geo.unit_in_coherency(game, u)]


def _end_of_turn(game: Game, frame: Frame) -> Request | None:
    bad = _incoherent(game)
    if not bad:
        game.pop()
        return None
    u = game.state.unit(bad[0])
    options = tuple[JSON, ...](m.id for m in u.alive)
    return request(u.player, K.REMOVE_FOR_COHERENCY, "R03.03-e",
                   f"{u.name} is out of coherency: remove which model?", options,
                   context={"unit": u.id}, labels=tuple(m.name for m in u.alive))


def _end_of_turn_apply(game: Game, frame: Frame, request: Request, choice: JSON) -> None:
    u = game.state.unit(str(request.context["unit"]))
    m = next(m for m in u.alive if m.id == choice)
    # 03.03: destroyed, but no 'when destroyed' rules trigger.
    destroy(game, u, m, cause="coherency", triggers=False)


# -- 14 objectives ---------------------------------------------------------------------------
def update_objectives(game: Game, *, end_of_phase: bool = True) -> None:
    """14.02/14.03: level of control per player at the end of a phase or turn. A secured
    objective is lost only when the opponent's level is greater at the end of a *phase*
    (14.03), so the end-of-turn check (``end_of_phase=False``) keeps it."""
    s = game.state
    for obj in s.objectives:
        level = {p.name: 0 for p in s.players}
        for u in s.units:
            for m in u.alive:
                if geo.in_objective_range(game, m, obj):
                    level[u.player] += model_oc(u, m)
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
            game.log("objective_control", objective=obj.name, controller=winner,
                     levels=cast(JSON, level))


def controlling_units(game: Game, objective: str) -> list[str]:
    """14.02: the units 'controlling' an objective: units within range of an objective their
    player controls that contain a model with OC 1 or more (battle-shocked: OC '-')."""
    s = game.state
    obj = next(o for o in s.objectives if o.name == objective)
    if obj.controller is None:
        return []
    return [u.id for u in s.units_of(obj.controller)
            if any(model_oc(u, m) >= 1 and geo.in_objective_range(game, m, obj)
                   for m in u.alive)]


def score_mission(game: Game, player: str) -> None:
    """The built-in mission's scoring at the end of a turn (docs/battle.md): from battle round
    2, the player whose turn ends scores ``vp_per_objective`` per objective they control, at
    most ``vp_cap`` per turn."""
    s = game.state
    if s.round < int(cast(int, s.mission.get("scoring_from_round", 2))):
        return
    held = [o.name for o in s.objectives if o.controller == player]
    per = int(cast(int, s.mission.get("vp_per_objective", 5)))
    cap = int(cast(int, s.mission.get("vp_cap", 15)))
    vp = min(cap, per * len(held))
    if vp:
        s.player(player).vp += vp
        game.log("score", vp=vp, objectives=list[JSON](held), total=s.player(player).vp)



FRAMES: dict[str, Handler] = {"battle": Handler(_battle),
          "round": Handler(_round),
          "turn": Handler(_turn),
          "command": Handler(_command),
          "end_of_turn": Handler(_end_of_turn, _end_of_turn_apply)}
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
