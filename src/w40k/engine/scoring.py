"""Mission rules in the battle: who takes the first turn (07.02) and victory points from the
mission's primary and secondary scoring rules (docs/missions.md). Objective control itself is
14.02/14.03 (engine/flow.py ``update_objectives``); this module only reads it.

A mission without ``primary`` and ``secondaries`` scores as take-and-hold (docs/battle.md): from
``scoring_from_round``, at the end of each turn, that player scores ``vp_per_objective`` per
objective they control, at most ``vp_cap``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from shapely.geometry import Point, Polygon

from w40k.core import kept
from w40k.core.dice import RollKind
from w40k.engine import geo
from w40k.engine.serial import JSON
from w40k.engine.state import ObjectiveData, UnitData
from w40k.geometry import TerrainArea

if TYPE_CHECKING:
    from w40k.engine.context import Context

MAX_ROLL_OFFS = 100
"""Tied roll-offs re-rolled before giving up (a scripted-dice loop guard; 35 ties in a row have
a chance below 1e-27 with real dice)."""


# -- 07.02: the mission says who takes the first turn ----------------------------------------
def roll_off(ctx: Context) -> str:
    """01.05 roll-off: each player rolls one D6 (``roll_off`` dice), ties re-rolled; the
    winner's name."""
    s = ctx.state
    for _ in range(MAX_ROLL_OFFS):
        a, b = (d.face for d in ctx.roll(RollKind.ROLL_OFF, 2))
        if a != b:
            return s.players[0].name if a > b else s.players[1].name
    raise RuntimeError("the roll-off tied 100 times")


def set_first_turn(ctx: Context, first: str, decided_by: str) -> None:
    """``first`` takes the first turn of every battle round (R07.02-a)."""
    ctx.state.players.sort(key=lambda p: p.name != first)  # stable: the first player first
    ctx.log("first_turn", first=first, decided_by=decided_by)


def decide_first_turn(ctx: Context) -> None:
    """At the start of the battle: the mission's ``first_turn`` (a player, or ``roll-off``:
    each player rolls one D6, ties re-rolled, the higher takes the first turn) puts that
    player first in every battle round (R07.02-a). No ``first_turn``: the listed order.
    (``roll-off-choice``, the winner choosing, is a decision: engine/phases/deployment.py.)"""
    how = ctx.state.mission.get("first_turn")
    if how is None:
        return
    if how == "roll-off":
        set_first_turn(ctx, roll_off(ctx), "roll-off")
    else:
        set_first_turn(ctx, str(how), "mission")


# -- scoring ----------------------------------------------------------------------------------
def score(ctx: Context, when: str, player: str | None = None) -> None:
    """Score the mission's rules checked at ``when`` (``end_of_turn`` and ``command_phase``:
    ``player`` scores; ``end_of_round``: both players, in turn order). Primary rules first,
    then secondaries, each in file order (07.02/07.03: mission rules after the others)."""
    s = ctx.state
    primary = cast(dict[str, JSON], s.mission.get("primary") or {})
    secondaries = cast(list[dict[str, JSON]], s.mission.get("secondaries") or [])
    if not primary and not secondaries:
        if when == "end_of_turn" and player is not None:
            _take_and_hold(ctx, player)
        return
    scorers = [player] if player is not None else [p.name for p in s.players]
    rules = [(r, "primary") for r in cast(list[dict[str, JSON]], primary.get("rules", []))]
    rules += [(r, "secondary") for r in secondaries]
    due = [(r, k) for r, k in rules if r.get("when", "end_of_turn") == when]
    if not due:
        return
    totals = _totals(ctx)
    for who in scorers:
        for rule, kind in due:
            _apply(ctx, rule, kind, who, when, primary, totals)


_TOTALS: list[tuple[list[dict[str, JSON]], int, object, dict[tuple[str, str], int]]] = kept.slot()
"""The last :func:`_totals` answer: the event list it summed, how many events, the last of
them (the object) and the sums. The event log only grows (``state._GROWING``; a restore cuts
it back, and what is appended after is new objects), so while the list is the same object,
at least as long, and holds the same last event at that place, its first events are the
ones summed: only the events after them are read."""


def _totals(ctx: Context) -> dict[tuple[str, str], int]:
    """VP scored so far per (scorer, rule name) and per (scorer, ``"kind:primary"``), from the
    score events (one pass: the battle-long caps; a new dict, the caller's own)."""
    events = ctx.state.events
    n = len(events)
    out: dict[tuple[str, str], int] = {}
    start = 0
    if _TOTALS:
        seen, m, last, sums = _TOTALS[0]
        if seen is events and m <= n and (m == 0 or events[m - 1] is last):
            start, out = m, dict(sums)
    for i in range(start, n):
        e = events[i]
        if e["event"] == "score" and "scorer" in e:
            who, vp = str(e["scorer"]), int(cast(int, e["vp"]))
            for key in ((who, str(e["rule"])), (who, f"kind:{e['kind']}")):
                out[key] = out.get(key, 0) + vp
    _TOTALS[:] = [(events, n, events[n - 1] if n else None, dict(out))]
    return out


def _take_and_hold(ctx: Context, player: str) -> None:
    """The built-in mission's scoring at the end of a turn (docs/battle.md)."""
    s = ctx.state
    if s.round < int(cast(int, s.mission.get("scoring_from_round", 2))):
        return
    held = [o.name for o in s.objectives if o.controller == player]
    per = int(cast(int, s.mission.get("vp_per_objective", 5)))
    cap = int(cast(int, s.mission.get("vp_cap", 15)))
    vp = min(cap, per * len(held))
    if vp:
        s.player(player).vp += vp
        ctx.log("score", vp=vp, objectives=list[JSON](held), total=s.player(player).vp)


def _in_rounds(ctx: Context, rule: dict[str, JSON]) -> bool:
    """The rule scores this battle round (``from_round`` .. ``until_round``)."""
    s = ctx.state
    until = rule.get("until_round")
    return s.round >= int(cast(int, rule.get("from_round", 1))) and (
        until is None or s.round <= int(cast(int, until)))


def _capped(rule: dict[str, JSON], kind: str, player: str, vp: int, primary: dict[str, JSON],
            totals: dict[tuple[str, str], int]) -> int:
    """``vp`` within the rule's ``cap``, its ``battle_cap`` and the primary's cap."""
    caps = [(rule.get("cap"), None), (rule.get("battle_cap"), (player, str(rule["name"])))]
    if kind == "primary":
        caps.append((primary.get("cap"), (player, "kind:primary")))
    for cap, key in caps:
        if cap is not None:
            vp = min(vp, int(cast(int, cap)) - (totals.get(key, 0) if key else 0))
    return vp


def _award(ctx: Context, name: str, kind: str, player: str, vp: int, key_name: str,
           counted: list[str], totals: dict[tuple[str, str], int]) -> None:
    s = ctx.state
    for key in ((player, name), (player, f"kind:{kind}")):
        totals[key] = totals.get(key, 0) + vp
    s.player(player).vp += vp
    ctx.log("score", vp=vp, rule=name, kind=kind, scorer=player,
            **{key_name: list[JSON](counted)}, total=s.player(player).vp)


def _apply(ctx: Context, rule: dict[str, JSON], kind: str, player: str, when: str,
           primary: dict[str, JSON], totals: dict[tuple[str, str], int]) -> None:
    if not _in_rounds(ctx, rule):
        return
    condition = str(rule["condition"])
    if condition == "action":
        return  # 16.01: scored when a unit completes the action (score_action)
    counted = _counted(ctx, rule, condition, player, when)
    per = int(cast(int, rule["vp"]))
    vp = (per if counted else 0) if condition == "more_objectives" else per * len(counted)
    vp = _capped(rule, kind, player, vp, primary, totals)
    if vp <= 0:
        return
    key_name = "units" if condition in ("units_in_opponent_zone", "enemy_units_destroyed") \
        else "objectives"
    _award(ctx, str(rule["name"]), kind, player, vp, key_name, counted, totals)


def action_vp(ctx: Context, rule: dict[str, JSON], player: str) -> int:
    """The VP ``player`` scores now for completing the action of the secondary ``rule``:
    its ``vp`` within its caps, 0 outside its rounds."""
    if not _in_rounds(ctx, rule):
        return 0
    return max(0, _capped(rule, "secondary", player, int(cast(int, rule["vp"])), {},
                          _totals(ctx)))


def score_action(ctx: Context, secondary: str, player: str, unit: str) -> None:
    """R16.01-d EFFECT of a mission's action: ``player`` scores the secondary's VP (its
    rounds and caps respected; a ``score`` event naming the secondary and the unit)."""
    rules = cast(list[dict[str, JSON]], ctx.state.mission.get("secondaries") or [])
    rule = next(r for r in rules if r.get("name") == secondary)
    vp = action_vp(ctx, rule, player)
    if vp > 0:
        _award(ctx, secondary, "secondary", player, vp, "units", [unit], _totals(ctx))


def _counted(ctx: Context, rule: dict[str, JSON], condition: str, player: str,
             when: str) -> list[str]:
    """What the rule counts for ``player``: objectives or units (names, ids)."""
    s = ctx.state
    opponent = s.opponent(player)
    held = [o for o in s.objectives if o.controller == player]
    if condition == "each_objective":
        only = cast(list[str], rule.get("objectives") or [])
        return [o.name for o in held if not only or o.name in only]
    if condition == "more_objectives":
        theirs = sum(1 for o in s.objectives if o.controller == opponent)
        return [o.name for o in held] if len(held) > theirs else []
    if condition == "opponent_zone_objectives":
        zone = zone_polygon(ctx, opponent)
        return [o.name for o in held if zone.covers(Point(*objective_point(ctx, o)))]
    if condition == "units_in_opponent_zone":
        return [u.id for u in s.units_of(player) if unit_wholly_within_zone(ctx, u, opponent)]
    # enemy_units_destroyed: during this turn (end_of_turn) or this battle round
    start = "turn_start" if when == "end_of_turn" else "round_start"
    out: list[str] = []
    for e in reversed(s.events):
        if e["event"] == start:
            break
        if e["event"] == "unit_destroyed" and s.unit(str(e["unit"])).player == opponent:
            out.append(str(e["unit"]))
    return out[::-1]


def zone_polygon(ctx: Context, player: str) -> Polygon:
    """``player``'s deployment zone."""
    zones = cast(list[dict[str, JSON]], ctx.state.mission["deployment_zones"])
    pts = next(z["polygon"] for z in zones if z["player"] == player)
    return Polygon([(float(x), float(y)) for x, y in cast(list[list[float]], pts)])


def objective_point(ctx: Context, obj: ObjectiveData) -> tuple[float, float]:
    """Where an objective is for zone conditions: a marker's centre, or a terrain objective's
    area centroid (docs/missions.md)."""
    if obj.area is None:
        return obj.x, obj.y
    _, ter = geo.terrain(ctx)
    c = Polygon(ter.area(obj.area).footprint).centroid
    return float(c.x), float(c.y)


def unit_wholly_within_zone(ctx: Context, u: UnitData, player: str) -> bool:
    """Every model of ``u`` is wholly within ``player``'s deployment zone."""
    zones = cast(list[dict[str, JSON]], ctx.state.mission["deployment_zones"])
    pts = next(z["polygon"] for z in zones if z["player"] == player)
    area = TerrainArea("zone", tuple((float(x), float(y))
                                     for x, y in cast(list[list[float]], pts)))
    return bool(u.alive) and all(area.wholly_holds(geo.model_shape(m)) for m in u.alive)
