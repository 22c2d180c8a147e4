"""The Fight phase (12): Pile In (12.02), Fight (12.04 with Fights First, Remaining Combats and
the Appendix pass rule), Consolidate (12.07).

Frames: ``fight`` (the phase), ``melee_step`` (the Pile In / Consolidate steps: the player whose
turn it is moves all their units first, then the opponent), ``fight_seq`` (who selects the next
unit to fight), ``fight_unit`` (``fight_sequence.py``) and ``melee_move`` (``melee_moves.py``).

Requests:
- ``select_unit_to_pile_in`` / ``select_unit_to_consolidate``: options = eligible unit ids not
  yet moved this step + ``"done"`` (the player's moves in this step are over).
- ``select_unit_to_fight``: options = the selecting player's units that may fight now (Fights
  First units in the Fights First step), plus ``"pass"`` when all of their eligible units are
  more than 5" from every enemy unit (RA-Unable-a).
- ``pile_in_targets`` / ``consolidate_targets``: subsets of enemy unit ids (+ ``"skip"``);
  ``consolidate_objective``: objective names; ``positions`` (``melee_moves.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from w40k.engine import geo
from w40k.engine.phases import fight_sequence as fs
from w40k.engine.phases.melee_moves import (
    objective_distance,
    push_move,
    subsets,
    unit_distance,
    units_within,
)
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import Frame, UnitData
from w40k.engine.stratagems.effects import counteroffensive_unit
from w40k.engine.windows import Window, open_window

if TYPE_CHECKING:
    from w40k.engine.game import Game

UNABLE_DISTANCE = 5.0
"""Appendix 'Eligible to Fight, but Unable to Fight': more than 5" from all enemy units."""
CONSOLIDATE_REACH = 3.0
"""12.08: within 3" of enemy units / objectives."""


# -- eligibility --
def eligible_to_fight(game: Game, u: UnitData) -> bool:
    """12.04 (R12.04-a): not yet selected to fight this phase, and engaged, or engaged at the
    start of the Fight step, or charged this turn."""
    if u.destroyed or u.flag("selected_to_fight"):
        return False
    pd = fs.phase_data(game)
    return (geo.is_engaged(game, u) or u.flag("charged")
            or u.id in cast(list[JSON], pd.get("engaged_at_start") or []))


def fight_eligible(game: Game) -> list[UnitData]:
    """Every unit eligible to fight now, army order."""
    return [u for u in game.state.units if eligible_to_fight(game, u)]


def may_pass(game: Game, player: str) -> bool:
    """RA-Unable-a: every eligible unit of the player is more than 5" from all enemy units."""
    mine = [u for u in fight_eligible(game) if u.player == player]
    enemies = [geo.unit_shapes(e) for e in game.state.units_of(game.state.opponent(player))]
    return all(unit_distance(geo.unit_shapes(u), es) > UNABLE_DISTANCE
               for u in mine for es in enemies)


def _remember_eligible(game: Game) -> None:
    pd = fs.phase_data(game)
    seen = cast(list[JSON], pd.setdefault("ever_eligible", []))
    for u in fight_eligible(game):
        if u.id not in seen:
            seen.append(u.id)


# -- the phase --
def _phase(game: Game, frame: Frame) -> Request | None:
    s = game.state
    d = frame.data
    step = d.get("step", 0)
    s.active = s.turn_player
    players = [s.turn_player, s.opponent(s.turn_player)]
    if step == 0:  # 12.01 Start of Fight phase; 12.02 Pile In
        d["step"] = 1
        d["engaged_at_start"] = None
        d["unengaged_at_start"] = []
        d["ever_eligible"] = []
        game.push("melee_step", what="pile_in", players=list[JSON](players), idx=0, done=[])
    elif step == 1:  # 12.04 Fight: the start of the Fight step
        d["step"] = 2
        engaged = [u.id for u in s.units if not u.destroyed and geo.is_engaged(game, u)]
        d["engaged_at_start"] = list[JSON](engaged)
        d["unengaged_at_start"] = [u.id for u in s.units
                                   if not u.destroyed and u.id not in engaged]
        _remember_eligible(game)
        game.push("fight_seq", mode="ff", chooser=s.turn_player, passed=[], resolving=None)
    elif step == 2:  # 12.07 Consolidate
        d["step"] = 3
        _remember_eligible(game)
        game.push("melee_step", what="consolidate", players=list[JSON](players), idx=0,
                  done=[])
    else:  # 12.09 End of Fight phase
        game.pop()
    return None




# -- Pile In / Consolidate steps --
def _can_pile_in(game: Game, u: UnitData) -> bool:
    """R12.03-a: engaged or charged this turn (overruns pile in inside their fight)."""
    if u.destroyed:
        return False
    return (geo.is_engaged(game, u) or u.flag("charged")) and fs.pile_in_options(game, u)


def consolidation_mode(game: Game, u: UnitData) -> tuple[str, list[str]]:
    """12.08 Before moving: (mode, candidate targets/objectives); ('', []) when none applies
    (R12.08-e)."""
    s = game.state
    enemies = s.units_of(s.opponent(u.player))
    engaged_with = [e.id for e in enemies if geo.units_engaged(u, e)]
    if engaged_with:
        return "ongoing", engaged_with  # R12.08-b
    near = [e.id for e in enemies if units_within(u, e, CONSOLIDATE_REACH)]
    if near:
        return "engaging", near  # R12.08-c
    objs = [o.name for o in s.objectives
            if any(objective_distance(game, geo.model_shape(m), o) <= CONSOLIDATE_REACH + 1e-9
                   for m in u.alive)]
    if objs:
        return "objective", objs  # R12.08-d
    return "", []


def _can_consolidate(game: Game, u: UnitData) -> bool:
    """R12.08-a: the unit was eligible to fight this phase, and a mode applies."""
    if u.destroyed:
        return False
    seen = cast(list[JSON], fs.phase_data(game).get("ever_eligible") or [])
    return u.id in seen and bool(consolidation_mode(game, u)[0])


def _step_units(game: Game, frame: Frame, player: str) -> list[UnitData]:
    done = cast(list[JSON], frame.data["done"])
    test = _can_pile_in if frame.data["what"] == "pile_in" else _can_consolidate
    return [u for u in game.state.units_of(player) if u.id not in done and test(game, u)]


def _step(game: Game, frame: Frame) -> Request | None:
    d = frame.data
    players = cast(list[JSON], d["players"])
    idx = int(cast(int, d["idx"]))
    if idx >= len(players):
        game.pop()
        return None
    player = str(players[idx])
    units = _step_units(game, frame, player)
    if not units:
        d["idx"] = idx + 1  # R12.02-a / R12.07-a: then the opponent
        return None
    what = str(d["what"])
    rule = "R12.02-a" if what == "pile_in" else "R12.07-a"
    kind = K.SELECT_UNIT_TO_PILE_IN if what == "pile_in" else K.SELECT_UNIT_TO_CONSOLIDATE
    return request(player, kind, rule,
                   f"Select a unit to make a {what.replace('_', '-')} move, or 'done'",
                   tuple[JSON, ...]([u.id for u in units] + ["done"]),
                   labels=tuple([u.name for u in units] + ["done"]))


def _step_apply(game: Game, frame: Frame, request: Request, choice: JSON) -> None:
    d = frame.data
    if choice == "done":
        d["idx"] = int(cast(int, d["idx"])) + 1
        return
    u = game.state.unit(str(choice))
    cast(list[JSON], d["done"]).append(u.id)  # each unit at most once per step
    if d["what"] == "pile_in":
        fs._push_pile_in(game, u, overrun=False)
        return
    mode, cands = consolidation_mode(game, u)
    game.log("consolidation_mode", unit=u.id, mode=mode)
    if mode == "ongoing":
        push_move(game, u, "consolidate", 3.0, targets=cands, mode=mode)
    elif mode == "engaging":
        push_move(game, u, "consolidate", 3.0, target_options=[*subsets(cands), "skip"],
                  mode=mode)
    else:
        push_move(game, u, "consolidate", 3.0, targets=[], mode=mode,
                  objective_options=cands)




# -- the Fight step: who selects next (12.04) --
def _counteroffensive(pool: list[UnitData], game: Game, chooser: str) -> list[UnitData]:
    """15.12: the unit targeted by the chooser's Counteroffensive must be the next selected."""
    forced = counteroffensive_unit(game, chooser)
    return [u for u in pool if u.id == forced] or pool if forced else pool


def _seq(game: Game, frame: Frame) -> Request | None:
    s = game.state
    d = frame.data
    resolving = d.get("resolving")
    if resolving is not None:
        # A fight was resolved: the other player selects next; after a Remaining Combats
        # fight, back to Fights First if a Fights First unit is eligible (R12.04-e).
        d["resolving"] = None
        d["passed"] = []
        d["chooser"] = s.opponent(str(resolving))
        if d["mode"] == "rem" and any(fs.is_fights_first(u) for u in fight_eligible(game)):
            d["mode"] = "ff"
        _remember_eligible(game)
        return None
    eligible = fight_eligible(game)
    if d.get("ended"):
        eligible = []
        d["mode"] = "rem"
    chooser = str(d["chooser"])
    passed = cast(list[JSON], d["passed"])
    if d["mode"] == "ff":
        ff = [u for u in eligible if fs.is_fights_first(u) and u.player not in passed]
        if not ff:
            d["mode"] = "rem"  # R12.04-c: this player selects first in Remaining Combats
            return None
        pool = _counteroffensive([u for u in ff if u.player == chooser], game, chooser)
        if not pool:
            d["chooser"] = s.opponent(chooser)  # R12.04-c: the other player selects
            return None
        rule = "R12.04-b"
    else:
        if not eligible:
            _remember_eligible(game)
            game.log("fight_step_end")
            game.pop()
            return None
        pool = _counteroffensive([u for u in eligible if u.player == chooser], game, chooser)
        if not pool:
            d["chooser"] = s.opponent(chooser)  # R12.04-d
            return None
        rule = "R12.04-d"
    options: list[JSON] = [u.id for u in pool]
    labels = [u.name for u in pool]
    if may_pass(game, chooser):
        options.append("pass")
        labels.append("pass")
        rule = "RA-Unable-a"
    step = "Fights First" if d["mode"] == "ff" else "Remaining Combats"
    return request(chooser, K.SELECT_UNIT_TO_FIGHT, rule,
                   f"{step}: select a unit to fight" + (" (or pass)" if "pass" in options
                                                         else ""),
                   tuple(options), context={"step": d["mode"]}, labels=tuple(labels))


def _seq_apply(game: Game, frame: Frame, request: Request, choice: JSON) -> None:
    s = game.state
    d = frame.data
    chooser = request.player
    if choice == "pass":
        game.log("fight_pass", by=chooser)
        other = s.opponent(chooser)
        passed = cast(list[JSON], d["passed"])
        others_left = any(u.player == other for u in fight_eligible(game))
        if other in passed or not others_left:
            # RA-Unable-a: both passed in succession, or the opponent has nothing left.
            d["ended"] = True
            return
        passed.append(chooser)
        d["chooser"] = other
        return
    u = s.unit(str(choice))
    u.flags["selected_to_fight"] = True
    s.active = u.player  # R01.03-d: the selecting player is active while the unit fights
    d["resolving"] = u.player
    game.log("select_to_fight", unit=u.id, step=str(d["mode"]))
    game.push("fight_unit", unit=u.id, step="type")
    open_window(game, Window.UNIT_SELECTED, unit=u.id, action="fight")


FRAMES: dict[str, Handler] = {"fight": Handler(_phase),
          "melee_step": Handler(_step, _step_apply),
          "fight_seq": Handler(_seq, _seq_apply)}
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
