"""The rulebook's example action, Deploy Device (16.01, R16.01-f), written as an
:class:`~w40k.engine.actions.Action`. The rulebook says it is for illustration only and cannot
be used, so it is not in ``actions.ACTIONS``: missions and tests that want it list it.

UNITS: one INFANTRY unit within a terrain area (a model within it: any part of its base, as
13.08/14.01 read 'within' an area) that is not within the player's deployment zone (no part of
the area's footprint inside the zone, docs/rulings.md R16.01-f; a mission without zones has no
zone to exclude). EFFECT: one marker set up within 1" of the unit and within that area: the
engine sets it at the point of the area closest to the centre of the unit's first model within
it (under that model's base, so within 1" of the unit; event ``device_deployed``).
"""

from __future__ import annotations

from shapely.geometry import Point, Polygon
from shapely.ops import nearest_points

from w40k.core import kept
from w40k.engine import field, geo, offtable
from w40k.engine.actions import Action
from w40k.engine.context import Context
from w40k.engine.state import UnitData
from w40k.engine.windows import Window
from w40k.geometry import Terrain, TerrainArea
from w40k.geometry.battlefield import Layout


def _zone(ctx: Context, player: str) -> Polygon | None:
    z = offtable.own_zone(ctx.state, player)
    return None if z is None else Polygon(z)


_OUTSIDE: dict[tuple[int, tuple[tuple[float, float], ...] | None],
               tuple[Terrain, tuple[TerrainArea, ...]]] = kept.table()
"""The terrain areas not within a deployment zone, per terrain and zone (both fixed for a
game: the shapely intersections were most of this action's cost, asked at every Shooting
phase's start for every unit)."""


def _outside(ctx: Context, ter: Terrain, player: str) -> tuple[TerrainArea, ...]:
    """The areas of ``ter`` with no part of their footprint within ``player``'s zone
    (R16.01-f; every area when the mission has no zones)."""
    z = offtable.own_zone(ctx.state, player)
    zone_key = None if z is None else tuple((float(x), float(y)) for x, y in z)
    key = (id(ter), zone_key)
    hit = _OUTSIDE.get(key)
    if hit is not None and hit[0] is ter:
        return hit[1]
    zone = None if zone_key is None else Polygon(zone_key)
    areas = tuple(a for a in ter.areas if zone is None
                  or not Polygon(a.footprint).intersection(zone).area > 1e-9)
    if len(_OUTSIDE) >= 64:
        _OUTSIDE.clear()  # each loaded game has its own terrain: keep the cache small
    _OUTSIDE[key] = (ter, areas)
    return areas


_AREAS: dict[int, tuple[UnitData, Layout, tuple[TerrainArea, ...], list[str]]] = kept.table()
"""The last answer of :func:`device_areas` per unit, with the unit's kept layout
(``engine/field.py``) and the areas it was measured against: the start-of-phase window asks
it for every unit again and again (options, the request, the answer's check) while no model
moves; the same layout object means the same models at the same places."""


def device_areas(ctx: Context, u: UnitData) -> list[str]:
    """The terrain areas ``u`` is within that are not within its player's deployment zone."""
    _, ter = geo.terrain(ctx)
    areas = _outside(ctx, ter, u.player)
    lay = field.layout(u)
    hit = _AREAS.get(id(u))
    if hit is not None and hit[0] is u and hit[1] is lay and hit[2] is areas:
        return list(hit[3])
    shapes = [geo.model_shape(m) for m in u.alive]
    out = [area.name for area in areas if any(area.holds(s) for s in shapes)]
    if len(_AREAS) >= field.LIMIT:
        _AREAS.clear()
    _AREAS[id(u)] = (u, lay, areas, out)
    return list(out)


def may_deploy_device(ctx: Context, u: UnitData) -> bool:
    """R16.01-f UNITS: an INFANTRY unit within such an area."""
    return u.has("INFANTRY") and bool(device_areas(ctx, u))


def _effect(ctx: Context, unit: str) -> None:
    u = ctx.state.unit(unit)
    areas = device_areas(ctx, u)
    if not areas:
        ctx.log("device_deployed", unit=unit, area=None)
        return
    _, ter = geo.terrain(ctx)
    area = ter.area(areas[0])
    m = next(m for m in u.alive if area.holds(geo.model_shape(m)))
    spot = nearest_points(Polygon(area.footprint), Point(m.x, m.y))[0]
    ctx.log("device_deployed", unit=unit, area=area.name, x=round(float(spot.x), 4),
            y=round(float(spot.y), 4))


DEPLOY_DEVICE = Action("Deploy Device", Window.START_OF_PHASE, ("shooting",),
                       (Window.END_OF_TURN, ""), _effect, units=may_deploy_device, per_turn=1,
                       rule="16.01")
"""STARTS: your Shooting phase; UNITS: R16.01-f; USE LIMIT: once per turn; COMPLETES: the end
of the turn; EFFECT: a marker in that area."""
