"""Actions a mission defines (16.01): each secondary objective with ``condition: action``
(docs/missions.md) gives one :class:`~w40k.engine.actions.Action`, derived from the mission in
the position (no state of its own: a saved game rebuilds them from its mission).

STARTS: the start of the stated phase of the player's own turn (as the rulebook's Deploy
Device, engine/deploy_device.py). UNITS: every listed keyword, and ``where``:

- ``anywhere``;
- ``objective``: a model within range of an objective (14.01, ``geo.in_objective_range``);
- ``terrain_area_outside_own_zone``: within a terrain area not within the player's deployment
  zone (Deploy Device's predicate, R16.01-f);
- ``opponent_zone``: a model within the opponent's deployment zone (any part of its base,
  as 'within' an area reads; a mission without zones has none).

USE LIMIT: ``once_per_turn``, ``once_per_battle`` or ``unlimited``. COMPLETES: the end of
that phase or the end of the turn. EFFECT: the unit's player scores the secondary's ``vp``,
within its ``cap``/``battle_cap`` and only from ``from_round`` to ``until_round``
(engine/scoring.py ``score_action``; a ``score`` event with the secondary's name).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from w40k.core.jsonval import JSON
from w40k.engine import geo, offtable, scoring
from w40k.engine.actions import Action, start_reaction
from w40k.engine.deploy_device import device_areas
from w40k.engine.state import UnitData
from w40k.engine.windows import Reaction, Window
from w40k.geometry import TerrainArea

if TYPE_CHECKING:
    from w40k.engine.context import Context

Units = Callable[["Context", UnitData], bool]


def _where(where: str) -> Units:
    if where == "objective":
        return lambda ctx, u: any(geo.in_objective_range(ctx, m, o)
                                  for m in u.alive for o in ctx.state.objectives)
    if where == "terrain_area_outside_own_zone":
        return lambda ctx, u: bool(device_areas(ctx, u))
    if where == "opponent_zone":
        return _in_opponent_zone
    return lambda ctx, u: True


def _in_opponent_zone(ctx: Context, u: UnitData) -> bool:
    zone = offtable.own_zone(ctx.state, ctx.state.opponent(u.player))
    if zone is None:
        return False
    area = TerrainArea("zone", tuple((float(x), float(y)) for x, y in zone))
    return any(area.holds(geo.model_shape(m)) for m in u.alive)


def _units(keywords: tuple[str, ...], where: str) -> Units:
    placed = _where(where)
    return lambda ctx, u: all(u.has(k) for k in keywords) and placed(ctx, u)


def action_of(rule: dict[str, JSON]) -> Action:
    """The action of one ``condition: action`` secondary."""
    block = cast(dict[str, JSON], rule["action"])
    units = cast(dict[str, JSON], block.get("units") or {})
    keywords = tuple(str(k) for k in cast(list[JSON], units.get("keywords") or []))
    phase = str(block["starts"])
    limit = str(block.get("use_limit", "once_per_turn"))
    ends = (Window.END_OF_PHASE, phase) if block.get("completes") == "end_of_phase" \
        else (Window.END_OF_TURN, "")
    secondary = str(rule["name"])

    def effect(ctx: Context, unit: str) -> None:
        scoring.score_action(ctx, secondary, ctx.state.unit(unit).player, unit)

    return Action(str(block["name"]), Window.START_OF_PHASE, (phase,), ends, effect,
                  units=_units(keywords, str(units.get("where", "anywhere"))),
                  per_turn=1 if limit == "once_per_turn" else None,
                  per_battle=1 if limit == "once_per_battle" else None,
                  rule=f"mission: {secondary}")


_cache: list[tuple[object, tuple[Action, ...], tuple[Reaction, ...]]] = []
"""The last mission's actions and start reactions (keyed by the mission object itself:
windows open at every roll, so this must cost one identity check)."""


def _built(ctx: Context) -> tuple[tuple[Action, ...], tuple[Reaction, ...]]:
    mission = ctx.state.mission
    if _cache and _cache[0][0] is mission:
        return _cache[0][1], _cache[0][2]
    rules = cast(list[dict[str, JSON]], mission.get("secondaries") or [])
    acts = tuple(action_of(r) for r in rules if r.get("condition") == "action"
                 and r.get("action"))
    reacts = tuple(start_reaction(a) for a in acts)
    _cache[:] = [(mission, acts, reacts)]
    return acts, reacts


def actions(ctx: Context) -> tuple[Action, ...]:
    """The actions of the game's mission (none for most missions)."""
    return _built(ctx)[0]


def reactions(ctx: Context) -> tuple[Reaction, ...]:
    """Their start reactions (engine/windows.py adds them to the reaction table)."""
    return _built(ctx)[1]


def secondary_of(ctx: Context, action: str) -> dict[str, JSON] | None:
    """The secondary objective whose action is named ``action``."""
    rules = cast(list[dict[str, JSON]], ctx.state.mission.get("secondaries") or [])
    return next((r for r in rules if r.get("condition") == "action"
                 and cast(dict[str, JSON], r.get("action") or {}).get("name") == action), None)


def vp_if_completed(ctx: Context, action: str, player: str) -> int:
    """The VP ``player`` would score if a unit completed ``action`` this round (0: none, e.g.
    outside its rounds or at its battle cap); the players read it to decide."""
    rule = secondary_of(ctx, action)
    return 0 if rule is None else scoring.action_vp(ctx, rule, player)
