"""The engine's view of the battlefield through ``w40k.geometry``: models as shapes, the
scene for visibility and movement checks, engagement, coherency and objective range."""

from __future__ import annotations

import math

from w40k.core import kept
from w40k.engine import field
from w40k.engine.context import Context
from w40k.engine.state import ModelData, ObjectiveData, UnitData
from w40k.geometry import (
    Battlefield,
    Model,
    ObjectiveMarker,
    Scene,
    Terrain,
    Unit,
    in_range_of_marker,
    scene_from_dict,
)
from w40k.geometry.battlefield import Layout
from w40k.geometry.measure import MARKER_DIAMETER_MM, MARKER_RANGE_HORIZONTAL
from w40k.geometry.shapes import mm

MARKER_RADIUS = mm(MARKER_DIAMETER_MM) / 2
"""Appendix: a 40 mm objective marker's radius in inches."""
ENGAGEMENT_RANGE = 2.0
"""03.04: engagement range is 2" horizontally (and 5" vertically)."""

_TERRAIN: dict[int, tuple[object, Battlefield, Terrain]] = kept.table()


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
    """A model as geometry sees it (optionally somewhere else; where it stands: the kept
    shape of ``engine/field.py``)."""
    if x is None and y is None and z is None:
        return field.shape(m)
    p = m.profile
    return Model(m.id, m.x if x is None else x, m.y if y is None else y,
                 m.z if z is None else z, p.base_mm, p.height, m.facing,
                 frozenset(k.upper() for k in p.keywords))


def unit_shapes(u: UnitData) -> list[Model]:
    """The unit's living models (kept, ``engine/field.py``)."""
    return field.shapes(u)


_UNITS: dict[int, tuple[UnitData, Layout, str, str, object, object, Unit]] = kept.table()
"""The last :func:`geo_unit` answer per unit, with the unit's kept layout (``engine/field.py``)
and the other values it is made of: the scene is made again whenever a model is placed, and
most units have not moved (the same layout object: the same models, places and profiles)."""


def geo_unit(u: UnitData) -> Unit:
    """A unit as geometry sees it (abilities and hidden bookkeeping included)."""
    lay = field.layout(u)
    flags = u.flags  # ``u.flag(name)`` is ``u.flags.get(name, False)``
    recent = flags.get("ranged_attacks_this_turn", False) \
        or flags.get("ranged_attacks_last_turn", False)
    attached = u.attached
    hit = _UNITS.get(id(u))
    if (hit is not None and hit[0] is u and hit[1] is lay and hit[2] == u.id
            and hit[3] == u.player and hit[4] is recent and hit[5] is attached):
        return hit[6]
    abilities = tuple(dict.fromkeys(str(a) for m in u.alive for a in m.profile.abilities))
    out = Unit(u.id, u.player, lay.models, abilities, ranged_attacks_recently=recent,
               attached=attached)
    if len(_UNITS) >= field.LIMIT:
        _UNITS.clear()
    _UNITS[id(u)] = (u, lay, u.id, u.player, recent, attached, out)
    return out


def scene(ctx: Context) -> Scene:
    """The whole battlefield now (units with living models)."""
    def build() -> Scene:
        battlefield, ter = terrain(ctx)
        return Scene(battlefield, ter, tuple(geo_unit(u) for u in ctx.state.units
                                             if not u.destroyed))
    return field.scene(ctx, build)


def unit_in_coherency(ctx: Context, u: UnitData) -> bool:
    """03.03: every model within 2"/5" of another and 9"/5" of all (vectorised over the
    unit's kept layout; same answer as ``geometry.in_coherency``)."""
    return field.in_coherency(u)


def units_engaged(a: UnitData, b: UnitData) -> bool:
    """03.04: a model of one within engagement range of a model of the other (vectorised
    over the kept layouts and kept per pair until a model is placed, ``engine/field.py``;
    same answer as ``any(engaged(x, y))`` over the models)."""
    return field.units_engaged(a, b)


def engaged_enemies(ctx: Context, u: UnitData) -> list[UnitData]:
    """The enemy units engaged with ``u`` (kept, ``engine/field.py``)."""
    return field.engaged_enemies(ctx, u)


def kept_engaged_enemies(ctx: Context, u: UnitData) -> list[UnitData] | None:
    """:func:`engaged_enemies` when it is already known now (the kept list, not to be
    changed), else None (nothing measured)."""
    return field.kept_enemies(ctx, u)


def models_engaged(a: UnitData, b: UnitData) -> list[bool]:
    """Per living model of ``a``: engaged with a model of ``b`` (03.04; kept and
    vectorised, ``engine/field.py``)."""
    return field.engaged_models(a, b)


def is_engaged(ctx: Context, u: UnitData) -> bool:
    """03.04: a unit is engaged while one of its models is engaged (kept,
    ``engine/field.py``)."""
    return field.is_engaged(ctx, u)


def in_objective_range(ctx: Context, m: ModelData, obj: ObjectiveData,
                       shape: Model | None = None) -> bool:
    """14.01 / Appendix: within a terrain objective's area, or 3"/5" of a 40 mm marker.
    ``shape``: the model's :func:`model_shape`, when the caller has it."""
    if shape is None:
        shape = model_shape(m)
    if obj.area is not None:
        _, ter = terrain(ctx)
        return ter.area(obj.area).holds(shape)  # = in_range_of_area (14.01)
    # Cheap rejection (same answer): the model's disc is more than 3" from the marker's disc.
    gap = math.hypot(m.x - obj.x, m.y - obj.y) - shape.reach() - MARKER_RADIUS
    if gap > MARKER_RANGE_HORIZONTAL + 1e-6:
        return False
    return in_range_of_marker(shape, ObjectiveMarker(obj.x, obj.y))


_Reach = tuple[tuple[int, ...], ...]
"""Per objective (in the state's order), the indices of a unit's living models within its
range (:func:`objective_reach`)."""
_REACH: dict[int, tuple[Layout, object, tuple[tuple[str | None, float, float], ...],
                        _Reach]] = kept.table()
"""The last :func:`objective_reach` answer per layout object, with the terrain description
and the objectives' areas and places it was measured against."""


def objective_reach(ctx: Context, u: UnitData) -> _Reach:
    """14.01: per objective of the state (in order), the indices in ``u.alive`` of the models
    within its range (:func:`in_objective_range`). Kept per layout object (the same living
    models at the same places, with the same profiles) while the terrain description and the
    objectives' areas and places are the same: the end of each phase asks every unit, and
    most have not moved since the last time."""
    s = ctx.state
    lay = field.layout(u)
    objectives = s.objectives
    where = tuple((o.area, o.x, o.y) for o in objectives)
    hit = _REACH.get(id(lay))
    if hit is not None and hit[0] is lay and hit[1] is s.terrain and hit[2] == where:
        return hit[3]
    out = tuple(_in_reach(ctx, u.alive, lay.models, obj) for obj in objectives)
    if len(_REACH) >= field.LIMIT:
        _REACH.clear()
    _REACH[id(lay)] = (lay, s.terrain, where, out)
    return out


def _in_reach(ctx: Context, alive: list[ModelData], shapes: tuple[Model, ...],
              obj: ObjectiveData) -> tuple[int, ...]:
    """The indices of the models (``shapes``: their kept shapes, in order) within the
    objective's range; for a marker, a model whose disc is more than 3" from the marker's is
    out of range (:func:`in_objective_range`'s own first test, the same floats, without the
    call)."""
    hypot, far = math.hypot, MARKER_RANGE_HORIZONTAL + 1e-6
    marker = obj.area is None
    ox, oy = obj.x, obj.y
    out: list[int] = []
    for i, (m, shape) in enumerate(zip(alive, shapes, strict=True)):
        if marker and hypot(m.x - ox, m.y - oy) - shape.reach() - MARKER_RADIUS > far:
            continue
        if in_objective_range(ctx, m, obj, shape):
            out.append(i)
    return tuple(out)
