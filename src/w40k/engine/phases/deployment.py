"""The pre-battle sequence (rules_map 2.0): Declare Battle Formations (18.01, 20.01, 23.01),
Deployment (03.02, 24.20), Resolve Pre-battle Abilities (24.31 Scouts) and the first-turn
roll-off (07.02, the mission decides), as one ``deployment`` frame above the ``battle`` frame.

A position asks for it with ``"pre_battle"`` (docs/positions.md); the frame's first step takes
every unit off the battlefield (``location: "undeployed"``), then asks, player by player in
deployment order (the mission's ``deploys_first``, else the first listed player):

- ``declare_formations`` (free-form): ``{"reserves": [unit ids], "embarked": {unit id:
  transport unit id}}``; refused with R20.01-a (FORTIFICATION, over 50% of the points limit,
  units in a reserved transport counted), R23.01-a (an AIRCRAFT not in reserves) or R18.01-a
  (capacity, a friendly TRANSPORT that is not itself embarked).
- ``deploy`` (free-form, players alternating one unit at a time, a player with nothing left
  to deploy skipped): ``{"unit": id, "models": {model id: [x, y] | [x, y, z]}}``; refused
  with R03.02-a (wholly on the table and within its own zone, not on a model, coherent,
  unengaged), R24.20-a (Infiltrators outside their zone) or 03.01 terrain.
- ``scout`` (free-form, alternating): a reserve unit with Scouts set up wholly within its
  zone (``{"unit", "models"}``), a Scouts unit wholly within its zone moving up to X"
  (``{"unit", "positions"}`` in the ``positions`` form of engine/moves.py, ending more than
  8" from enemies, R24.32-a), or ``done``.

Then the mission decides the first turn (engine/scoring.py: a roll-off with the game's dice,
or a player; with ``roll-off-choice`` the winner answers ``first_turn``) and the frame pops:
the ``battle`` frame starts round 1. The proposers are engine/phases/deployment_propose.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, cast

from w40k.core.abilities import Infiltrators
from w40k.core.abilities_units import scouts_distance
from w40k.core.errors import DataError, IllegalChoice, MalformedChoice
from w40k.engine import geo, offtable, scoring
from w40k.engine.context import Context
from w40k.engine.frames import FrameData
from w40k.engine.moves import apply_positions, check_move, parse_positions
from w40k.engine.phases.set_up import parse_set_up, placement_violations
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.engine.state import GameState, UnitData
from w40k.geometry import Model, MoveType
from w40k.geometry.movement import MoveViolation
from w40k.geometry.shapes import FloatArray
from w40k.rules.reserves import FormationUnit, formation_violations
from w40k.rules.setup import (
    deployment_violations,
    infiltrator_violations,
    scout_end_violations,
    unit_wholly_in_zone,
    wholly_in_zone,
)

ROLL_OFF_CHOICE = "roll-off-choice"
"""The mission's ``first_turn`` when the roll-off's winner chooses who goes first."""


class DeployStep(StrEnum):
    """What the pre-battle sequence does next (stable strings)."""

    START = "start"
    """Take every unit off the battlefield (undeployed)."""
    DECLARE = "declare"
    """Declare Battle Formations, one player after the other."""
    DEPLOY = "deploy"
    """Deployment: players alternate setting up one unit."""
    SCOUTS = "scouts"
    """Resolve Pre-battle Abilities: Scouts (24.31)."""
    FIRST_TURN = "first_turn"
    """The mission decides who takes the first turn; then the battle begins."""


@dataclass(frozen=True)
class DeploymentFrame(FrameData):
    """The pre-battle sequence (module docstring)."""

    KIND = "deployment"
    step: DeployStep = DeployStep.START
    """What it does next."""
    declared: tuple[str, ...] = ()
    """The players who have declared their battle formations."""
    next_player: str = ""
    """The player who sets up (or scouts) next ('' = the first in deployment order)."""
    scouted: tuple[str, ...] = ()
    """The units that have used Scouts (24.31: once each)."""
    scouts_done: tuple[str, ...] = ()
    """The players who have finished their Scouts."""
    points_limit: int = 0
    """The battle size's points limit (20.01); 0: the larger army's points."""
    points: dict[str, int] = field(default_factory=dict)
    """Each unit's points (unit id -> points; a unit not listed counts 0)."""
    roll_winner: str = ""
    """The roll-off's winner, when the mission lets them choose who goes first."""
    answer: JSON = None
    """The legal answer to the pending request, applied by the next run."""


def pre_battle_frame(section: JSON) -> DeploymentFrame:
    """The frame a position's ``"pre_battle"`` section starts (``true``, or ``{"points_limit":
    n, "points": {unit id: points}}``, docs/positions.md); DataError when malformed."""
    if section is True:
        return DeploymentFrame()
    if not isinstance(section, dict):
        raise DataError(f"expected true or an object, got {section!r}", where="pre_battle")
    extra = sorted(set(section) - {"points_limit", "points"})
    if extra:
        raise DataError(f"unknown key {extra[0]!r} (known: points_limit, points)",
                        where=f"pre_battle.{extra[0]}")
    return DeploymentFrame.from_json(section, "pre_battle")


# -- who and what ----------------------------------------------------------------------------
def order(state: GameState) -> list[str]:
    """The players in deployment order: the mission's ``deploys_first`` first."""
    first = state.mission.get("deploys_first")
    names = [p.name for p in state.players]
    if isinstance(first, str) and first in names:
        return [first, *(n for n in names if n != first)]
    return names


def undeployed(state: GameState, player: str) -> list[UnitData]:
    """``player``'s units still to be set up, in army order."""
    return [u for u in state.off_table if u.player == player
            and u.location == offtable.UNDEPLOYED and not u.destroyed]


def infiltrators(u: UnitData) -> bool:
    """24.20: every model has Infiltrators."""
    return bool(u.alive) and all(any(isinstance(a, Infiltrators) for a in m.profile.abilities)
                                 for m in u.alive)


def scouts(u: UnitData, state: GameState | None = None) -> float | None:
    """24.31 / 24.02: the unit's Scouts distance (every model must have it), or None. With
    the ``state``, a DEDICATED TRANSPORT every model embarked within which has Scouts moves
    with their distance (the lowest shared value, R24.02-c; 24.31's third option)."""
    if not u.alive:
        return None
    own = scouts_distance([m.profile.abilities for m in u.alive])
    if own is not None or state is None or not u.has("DEDICATED TRANSPORT"):
        return own
    aboard = [m.profile.abilities for p in offtable.passengers(state, u.id) for m in p.alive]
    return scouts_distance(aboard) if aboard else None


def zone_of(state: GameState, player: str) -> FloatArray:
    z = offtable.own_zone(state, player)
    if z is None:
        raise RuntimeError("the pre-battle sequence needs the mission's deployment zones")
    return z


def reserve_limit(state: GameState, frame: DeploymentFrame, player: str) -> int:
    """20.01: the points limit the 50% share is taken of: the frame's, else the larger
    army's points (docs/rulings.md R20.01-a)."""
    if frame.points_limit:
        return frame.points_limit
    totals = [sum(frame.points.get(u.id, 0) for u in (*state.units, *state.off_table)
                  if u.player == p.name) for p in state.players]
    return max(totals, default=0)


# -- Declare Battle Formations ---------------------------------------------------------------
def parse_formations(answer: JSON) -> tuple[list[str], dict[str, str]]:
    """The reserves and the embarked units of a ``declare_formations`` answer."""
    if not isinstance(answer, dict) or set(answer) - {"reserves", "embarked"}:
        raise MalformedChoice(f'declare_formations: expected {{"reserves": [unit ids], '
                              f'"embarked": {{unit id: transport id}}}}, got {answer!r}')
    res = answer.get("reserves", [])
    emb = answer.get("embarked", {})
    if not isinstance(res, list) or not all(isinstance(r, str) for r in res):
        raise MalformedChoice(f"declare_formations: reserves: expected a list of unit ids, "
                              f"got {res!r}")
    if not isinstance(emb, dict) or not all(isinstance(v, str) for v in emb.values()):
        raise MalformedChoice(f"declare_formations: embarked: expected {{unit id: transport "
                              f"id}}, got {emb!r}")
    return [str(r) for r in res], {str(k): str(v) for k, v in emb.items()}


def formation_problems(state: GameState, frame: DeploymentFrame, player: str,
                       answer: JSON) -> list[tuple[str, str]]:
    """The rules a ``declare_formations`` answer breaks, as (rule, message); MalformedChoice
    for a wrong shape or a unit that is not the player's to declare."""
    reserves, embarked = parse_formations(answer)
    mine = {u.id: u for u in undeployed(state, player)}
    for uid in (*reserves, *embarked, *embarked.values()):
        if uid not in mine:
            raise MalformedChoice(f"declare_formations: {uid!r} is not an undeployed unit "
                                  f"of {player}")
    if len(set(reserves)) != len(reserves):
        raise MalformedChoice("declare_formations: a unit is listed twice in reserves")
    out: list[tuple[str, str]] = []
    for uid, tid in embarked.items():
        if uid in reserves:
            out.append(("R18.01-a", f"{uid} is embarked: it goes where its transport goes"))
        if tid in embarked:
            out.append(("R18.01-a", f"{tid} is embarked itself: units embark only within a "
                                    f"TRANSPORT that is not"))
    units = [FormationUnit(u.id, frame.points.get(u.id, 0), u.keys, u.id in reserves,
                           embarked.get(u.id)) for u in mine.values()]
    for msg in formation_violations(units, reserve_limit(state, frame, player)):
        rule, _, text = msg.partition(": ")
        out.append((rule, text))
    loads: dict[str, list[list[frozenset[str]]]] = {}
    for uid, tid in embarked.items():
        cap = offtable.capacity_of(mine[tid])
        if cap is None:
            out.append(("R18.01-a", f"{tid} is not a TRANSPORT"))
            continue
        from w40k.rules.transport import capacity_violations

        unit = offtable.model_keywords(mine[uid])
        for msg in capacity_violations(cap, loads.get(tid, []), unit):
            rule, _, text = msg.partition(": ")
            out.append((rule, f"{uid} in {tid}: {text}"))
        loads.setdefault(tid, []).append(unit)
    return out


# -- Deployment ------------------------------------------------------------------------------
def deploy_violations(ctx: Context, u: UnitData, models: list[Model],
                      zone_only: bool = False) -> list[MoveViolation]:
    """03.02 with the mission's zones: wholly within its own zone (or, Infiltrators, more
    than 8" from the enemy zone and units, R24.20-a), wholly on the table, on no model,
    coherent and unengaged, and on terrain it may stand on (03.01 Ending a Move)."""
    s = ctx.state
    enemies = offtable.enemy_models(s, u.player)
    own = zone_of(s, u.player)
    if not zone_only and infiltrators(u) and not all(wholly_in_zone(m, own) for m in models):
        opp = offtable.opponent_zone(s, u.player)
        assert opp is not None
        out = infiltrator_violations(models, enemies, opp)
    else:
        out = deployment_violations(models, own)
    return out or placement_violations(ctx, u, models, enemies)


def _parse_unit_answer(answer: JSON, kind: str) -> tuple[str, JSON, str]:
    """``{"unit": id, "models" | "positions": ...}`` -> (unit id, the placement, its key)."""
    keys = ("models", "positions") if kind == "scout" else ("models",)
    if not isinstance(answer, dict) or not isinstance(answer.get("unit"), str) or \
            len(answer) != 2 or not any(k in answer for k in keys):
        raise MalformedChoice(f'{kind}: expected {{"unit": id, {" or ".join(map(repr, keys))}: '
                              f'...}}, got {answer!r}'[:300])
    key = next(k for k in keys if k in answer)
    return str(answer["unit"]), answer[key], key


def _shapes(u: UnitData, places: dict[str, tuple[float, float, float]]) -> list[Model]:
    return [geo.model_shape(m, *places[m.id]) for m in u.alive]


def _refuse(broken: list[MoveViolation]) -> None:
    if broken:
        v = broken[0]
        raise IllegalChoice(f"{v.model}: {v.message}", rule=v.rule)


# -- Scouts ----------------------------------------------------------------------------------
def scout_options(state: GameState, frame: DeploymentFrame, player: str) -> list[UnitData]:
    """24.31: ``player``'s units that may still use Scouts: in strategic reserves (set up in
    the zone), or on the battlefield wholly within the zone (a scout move; a DEDICATED
    TRANSPORT whose passengers all have Scouts too)."""
    zone = zone_of(state, player)
    out: list[UnitData] = []
    for u in [*state.units, *state.off_table]:
        if u.player != player or u.destroyed or u.id in frame.scouted:
            continue
        if (u.location == offtable.RESERVES and scouts(u) is not None) or (
                scouts(u, state) is not None and
                u.location == offtable.BATTLEFIELD and unit_wholly_in_zone(
                    [geo.model_shape(m) for m in u.alive], zone)):
            out.append(u)
    return out


def scout_move_check(ctx: Context, u: UnitData, positions: JSON) -> None:
    """24.32: a move of up to X" (03.01, ``check_move``), ending more than 8" horizontally
    from all enemy units (R24.32-a)."""
    moves = parse_positions(positions, [m.id for m in u.alive])
    check_move(ctx, u, moves, MoveType.OTHER, cast(float, scouts(u, ctx.state)))
    ends = []
    for m in u.alive:
        path = moves.get(m.id)
        end = path[-1] if path else None
        ends.append(geo.model_shape(m) if end is None else
                    geo.model_shape(m, end.x, end.y, m.z if end.z is None else end.z))
    _refuse(scout_end_violations(ends, offtable.enemy_models(ctx.state, u.player)))


# -- the frame -------------------------------------------------------------------------------
def _set(ctx: Context, frame: DeploymentFrame, **changes: Any) -> DeploymentFrame:
    new = replace(frame, **changes)
    ctx.replace(frame, new)
    return new


def _next(state: GameState, frame: DeploymentFrame, has: list[str]) -> str | None:
    """The player to act: ``frame.next_player`` (or the first in order) when they have
    something to do, else the other player when they do, else None."""
    names = order(state)
    first = frame.next_player or names[0]
    for p in (first, state.opponent(first)):
        if p in has:
            return p
    return None


def _run(ctx: Context, frame: DeploymentFrame) -> Request | None:
    s = ctx.state
    if frame.step is DeployStep.START:
        for u in list(s.units) + [u for u in s.off_table if u.location != offtable.UNDEPLOYED]:
            offtable.undeploy(s, u)
        ctx.log("pre_battle", step="declare_battle_formations", order=list[JSON](order(s)))
        _set(ctx, frame, step=DeployStep.DECLARE)
        return None
    if frame.step is DeployStep.DECLARE:
        return _declare(ctx, frame)
    if frame.step is DeployStep.DEPLOY:
        return _deploy(ctx, frame)
    if frame.step is DeployStep.SCOUTS:
        return _scouts(ctx, frame)
    return _first_turn(ctx, frame)


def _first_turn(ctx: Context, frame: DeploymentFrame) -> Request | None:
    """07.02: the mission decides who takes the first turn: a player, a roll-off (the winner
    goes first), or ``roll-off-choice`` (the winner chooses, R07.02-a)."""
    s = ctx.state
    if s.mission.get("first_turn") == ROLL_OFF_CHOICE:
        if not frame.roll_winner:
            _set(ctx, frame, roll_winner=scoring.roll_off(ctx))
            return None
        if frame.answer is None:
            w = frame.roll_winner
            return request(w, K.FIRST_TURN, "R07.02-a",
                           f"{w} won the roll-off: who takes the first turn?",
                           (w, s.opponent(w)), default=w)
        scoring.set_first_turn(ctx, str(frame.answer), ROLL_OFF_CHOICE)
    else:
        scoring.decide_first_turn(ctx)
    below = s.frames[-2] if len(s.frames) > 1 else None
    if below is not None and below.KIND == "battle":  # the battle frame (engine/flow.py)
        ctx.replace(below, replace(cast(Any, below), first_turn_decided=True))
    if frame.declared:  # the whole sequence, not only a first-turn choice
        ctx.log("pre_battle_end")
    ctx.pop()
    return None


def _declare(ctx: Context, frame: DeploymentFrame) -> Request | None:
    s = ctx.state
    if frame.answer is not None:
        player = next(p for p in order(s) if p not in frame.declared)
        reserves, embarked = parse_formations(frame.answer)
        for uid in reserves:
            offtable.place_in_reserves(s.any_unit(uid))
        for uid, tid in embarked.items():
            offtable.place_in_reserves(s.any_unit(uid), s.any_unit(tid))
        ctx.log("battle_formations", player=player, reserves=list[JSON](reserves),
                embarked=cast(JSON, dict(embarked)))
        _set(ctx, frame, declared=(*frame.declared, player), answer=None)
        return None
    left = [p for p in order(s) if p not in frame.declared]
    if not left:
        ctx.log("pre_battle", step="deployment")
        _set(ctx, frame, step=DeployStep.DEPLOY, next_player="")
        return None
    player = left[0]
    units = undeployed(s, player)
    limit = reserve_limit(s, frame, player)
    return request(player, K.DECLARE_FORMATIONS, "R20.01-a",
                   f"{player}: declare battle formations (strategic reserves, embarked units)",
                   free_form="declare_formations",
                   context={"units": [u.id for u in units],
                            "aircraft": [u.id for u in units if offtable.is_aircraft(u)],
                            "transports": [u.id for u in units
                                           if offtable.capacity_of(u) is not None],
                            "points": {u.id: frame.points.get(u.id, 0) for u in units},
                            "reserve_points_max": limit / 2},
                   default={"reserves": [u.id for u in units if offtable.is_aircraft(u)],
                            "embarked": {}})


def _deploy(ctx: Context, frame: DeploymentFrame) -> Request | None:
    s = ctx.state
    if frame.answer is not None:
        uid, placement, _ = _parse_unit_answer(frame.answer, "deploy")
        u = s.any_unit(uid)
        offtable.arrive(s, u, parse_set_up(placement, u))
        ctx.log("deploy", unit=u.id, infiltrators=not unit_wholly_in_zone(
                    [geo.model_shape(m) for m in u.alive], zone_of(s, u.player)),
                models={m.id: [round(m.x, 4), round(m.y, 4), round(m.z, 4)] for m in u.alive})
        _set(ctx, frame, answer=None, next_player=s.opponent(u.player))
        return None
    player = _next(s, frame, [p for p in order(s) if undeployed(s, p)])
    if player is None:
        ctx.log("pre_battle", step="resolve_pre_battle_abilities")
        _set(ctx, frame, step=DeployStep.SCOUTS, next_player="")
        return None
    units = undeployed(s, player)
    return request(player, K.DEPLOY, "R03.02-a", f"{player}: set up a unit",
                   free_form="deploy",
                   context={"units": [u.id for u in units],
                            "infiltrators": [u.id for u in units if infiltrators(u)],
                            "zone": [list[JSON]([float(x), float(y)])
                                     for x, y in zone_of(s, player)]})


def _scouts(ctx: Context, frame: DeploymentFrame) -> Request | None:
    s = ctx.state
    if frame.answer is not None:
        a = frame.answer
        if a == "done":
            asked = _next(s, frame, _scouting(s, frame))
            assert asked is not None  # the player who answered
            _set(ctx, frame, answer=None, scouts_done=(*frame.scouts_done, asked),
                 next_player=s.opponent(asked))
            ctx.log("scouts_done", player=asked)
            return None
        uid, placement, key = _parse_unit_answer(a, "scout")
        u = s.any_unit(uid)
        if key == "models":
            offtable.arrive(s, u, parse_set_up(placement, u))
        else:
            apply_positions(ctx, u, parse_positions(placement, [m.id for m in u.alive]))
        ctx.log("scout", unit=u.id, kind="set_up" if key == "models" else "scout_move",
                distance=cast(float, scouts(u, s)),
                models={m.id: [round(m.x, 4), round(m.y, 4), round(m.z, 4)] for m in u.alive})
        _set(ctx, frame, answer=None, scouted=(*frame.scouted, u.id),
             next_player=s.opponent(u.player))
        return None
    player = _next(s, frame, _scouting(s, frame))
    if player is None:
        _set(ctx, frame, step=DeployStep.FIRST_TURN, next_player="")
        return None
    units = scout_options(s, frame, player)
    return request(player, K.SCOUT, "R24.31-a", f"{player}: use Scouts, or done",
                   free_form="scout",
                   context={"reserves": [u.id for u in units
                                         if u.location == offtable.RESERVES],
                            "move": {u.id: cast(float, scouts(u, s)) for u in units
                                     if u.location == offtable.BATTLEFIELD}})


def _scouting(state: GameState, frame: DeploymentFrame) -> list[str]:
    """The players who still have a Scouts unit to use and have not said ``done``."""
    return [p for p in order(state) if p not in frame.scouts_done
            and scout_options(state, frame, p)]


def _apply(ctx: Context, frame: DeploymentFrame, req: Request, choice: JSON) -> None:
    s = ctx.state
    if frame.step is DeployStep.DECLARE:
        problems = formation_problems(s, frame, req.player, choice)
        if problems:
            rule, msg = problems[0]
            raise IllegalChoice(msg, rule=rule)
    elif frame.step is DeployStep.DEPLOY:
        uid, placement, _ = _parse_unit_answer(choice, "deploy")
        if uid not in [u.id for u in undeployed(s, req.player)]:
            raise IllegalChoice(f"{uid!r} is not an undeployed unit of {req.player}",
                                rule="R03.02-a")
        u = s.any_unit(uid)
        _refuse(deploy_violations(ctx, u, _shapes(u, parse_set_up(placement, u))))
    elif frame.step is DeployStep.SCOUTS and choice != "done":
        uid, placement, key = _parse_unit_answer(choice, "scout")
        options = {u.id: u for u in scout_options(s, frame, req.player)}
        if uid not in options:
            raise IllegalChoice(f"{uid!r} cannot use Scouts now (every model has Scouts; in "
                                f"strategic reserves or wholly within its deployment zone; "
                                f"once)", rule="R24.31-a")
        u = options[uid]
        if (key == "models") != (u.location == offtable.RESERVES):
            raise IllegalChoice(f"{uid}: a reserve unit is set up ('models'), a unit on the "
                                f"battlefield makes a scout move ('positions')",
                                rule="R24.31-a")
        if key == "models":
            _refuse(deploy_violations(ctx, u, _shapes(u, parse_set_up(placement, u)),
                                      zone_only=True))
        else:
            scout_move_check(ctx, u, placement)
    _set(ctx, frame, answer=choice)


FRAMES: tuple[Handler[Any], ...] = (Handler(DeploymentFrame, _run, _apply),)
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
