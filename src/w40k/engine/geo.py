"""The engine's view of the battlefield through ``w40k.geometry``: models as shapes, the
scene for visibility and movement checks, engagement, coherency and objective range."""

from __future__ import annotations

import numpy as np

from w40k.engine.context import Context
from w40k.engine.state import ModelData, ObjectiveData, UnitData
from w40k.geometry import (
    Battlefield,
    Model,
    ObjectiveMarker,
    Scene,
    Terrain,
    Unit,
    engaged,
    in_coherency,
    in_range_of_area,
    in_range_of_marker,
    scene_from_dict,
)

ENGAGEMENT_RANGE = 2.0
"""03.04: engagement range is 2" horizontally (and 5" vertically)."""

_TERRAIN: dict[int, tuple[object, Battlefield, Terrain]] = {}


def terrain(ctx: Context) -> tuple[Battlefield, Terrain]:
    """The battlefield and terrain, built once per terrain description."""
    s = ctx.state
    key = id(s.terrain)
    hit = _TERRAIN.get(key)
    if hit is not None and hit[0] is s.terrain:
        return hit[1], hit[2]
    scene = scene_from_dict({"battlefield": s.battlefield,
                             "areas": s.terrain.get("areas", []),
                             "terrain": s.terrain.get("terrain", []), "units": []},
                            "position terrain")
    if len(_TERRAIN) >= 64:
        _TERRAIN.clear()  # each loaded game has its own terrain dict: keep the cache small
    _TERRAIN[key] = (s.terrain, scene.battlefield, scene.terrain)
    return scene.battlefield, scene.terrain


def model_shape(m: ModelData, x: float | None = None, y: float | None = None,
                z: float | None = None) -> Model:
    """A model as geometry sees it (optionally somewhere else)."""
    p = m.profile
    return Model(m.id, m.x if x is None else x, m.y if y is None else y,
                 m.z if z is None else z, p.base_mm, p.height, m.facing,
                 frozenset(k.upper() for k in p.keywords))


def unit_shapes(u: UnitData) -> list[Model]:
    """The unit's living models."""
    return [model_shape(m) for m in u.alive]


def geo_unit(u: UnitData) -> Unit:
    """A unit as geometry sees it (abilities and hidden bookkeeping included)."""
    abilities = tuple(dict.fromkeys(str(a) for m in u.alive for a in m.profile.abilities))
    return Unit(u.id, u.player, tuple(unit_shapes(u)), abilities,
                ranged_attacks_recently=u.flag("ranged_attacks_this_turn")
                or u.flag("ranged_attacks_last_turn"),
                attached=u.attached)


def scene(ctx: Context) -> Scene:
    """The whole battlefield now (units with living models)."""
    battlefield, ter = terrain(ctx)
    return Scene(battlefield, ter, tuple(geo_unit(u) for u in ctx.state.units
                                         if not u.destroyed))


def unit_in_coherency(ctx: Context, u: UnitData) -> bool:
    """03.03: every model within 2"/5" of another and 9"/5" of all."""
    return in_coherency(unit_shapes(u))


def units_engaged(a: UnitData, b: UnitData) -> bool:
    """03.04: a model of one within engagement range of a model of the other."""
    sa, sb = unit_shapes(a), unit_shapes(b)
    if not sa or not sb:
        return False
    # Cheap rejection: the units' footprint boxes are more than 2" apart horizontally.
    boxes = [np.array([s.footprint().bbox() for s in shapes]) for shapes in (sa, sb)]
    (ax0, ay0), (ax1, ay1) = boxes[0][:, :2].min(axis=0), boxes[0][:, 2:].max(axis=0)
    (bx0, by0), (bx1, by1) = boxes[1][:, :2].min(axis=0), boxes[1][:, 2:].max(axis=0)
    gap = max(bx0 - ax1, ax0 - bx1, by0 - ay1, ay0 - by1)
    if gap > ENGAGEMENT_RANGE + 1e-6:
        return False
    return any(engaged(x, y) for x in sa for y in sb)


def engaged_enemies(ctx: Context, u: UnitData) -> list[UnitData]:
    """The enemy units engaged with ``u``."""
    return [e for e in ctx.state.units
            if e.player != u.player and not e.destroyed and units_engaged(u, e)]


def is_engaged(ctx: Context, u: UnitData) -> bool:
    """03.04: a unit is engaged while one of its models is engaged."""
    return bool(engaged_enemies(ctx, u))


def in_objective_range(ctx: Context, m: ModelData, obj: ObjectiveData) -> bool:
    """14.01 / Appendix: within a terrain objective's area, or 3"/5" of a 40 mm marker."""
    shape = model_shape(m)
    if obj.area is not None:
        _, ter = terrain(ctx)
        footprint = np.asarray(ter.area(obj.area).footprint, dtype=float)
        return in_range_of_area(shape, footprint)
    return in_range_of_marker(shape, ObjectiveMarker(obj.x, obj.y))
