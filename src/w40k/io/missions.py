"""Shipped missions and layouts (``src/w40k/data/missions/``, ``src/w40k/data/layouts/``), the
``--mission FILE_OR_NAME`` lookup, and the starting position a full mission makes from two
armies (docs/missions.md)."""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import cast

from w40k.core.errors import DataError
from w40k.engine.serial import JSON
from w40k.io.army_model import Army
from w40k.io.battle_setup import DEFAULT_OBJECTIVES, DEFAULT_TERRAIN, position_from_armies
from w40k.io.deploy import deploy_in_zones
from w40k.io.layout_model import LayoutModel, check_terrain
from w40k.io.mission_model import MissionModel, load_mission, validate_mission
from w40k.io.model_base import validate
from w40k.io.safe_read import decode_text


def _folder(kind: str) -> Traversable:
    return resources.files("w40k").joinpath("data", kind)


def _names(kind: str) -> tuple[str, ...]:
    return tuple(sorted(e.name.removesuffix(".yaml") for e in _folder(kind).iterdir()
                        if e.is_file() and e.name.endswith(".yaml")))


@cache
def mission_names() -> tuple[str, ...]:
    """The shipped missions' names."""
    return _names("missions")


@cache
def layout_names() -> tuple[str, ...]:
    """The shipped layouts' names."""
    return _names("layouts")


def _shipped(kind: str, name: str) -> tuple[object, str]:
    source = f"{kind}/{name}.yaml"
    entry = _folder(kind).joinpath(f"{name}.yaml")
    return decode_text(entry.read_text(encoding="utf-8"), source=source, fmt="yaml",
                       shipped=True), source


@cache
def _layout(name: str) -> tuple[LayoutModel, str]:
    data, source = _shipped("layouts", name)
    lay = validate(LayoutModel, data, source)
    check_terrain(lay.areas, lay.terrain, source)
    return lay, json.dumps(data)


def layout(name: str) -> dict[str, JSON]:
    """A shipped layout (``name``, ``battlefield``, ``areas``, ``terrain``) as written in its
    file (a fresh copy)."""
    if name not in layout_names():
        raise DataError(f"unknown layout {name!r} (shipped: {', '.join(layout_names())})")
    return cast(dict[str, JSON], json.loads(_layout(name)[1]))


def shipped_mission(name: str) -> dict[str, JSON]:
    """A shipped mission, validated."""
    data, source = _shipped("missions", name)
    if not isinstance(data, dict):
        raise DataError("expected a mission object", where=source)
    return validate_mission(data, source)


def resolve_mission(spec: str) -> dict[str, JSON]:
    """``--mission``: a shipped mission's name, or a mission file (JSON or YAML)."""
    if spec in mission_names():
        return shipped_mission(spec)
    if Path(spec).is_file():
        return load_mission(Path(spec))
    raise DataError(f"unknown mission {spec!r} (shipped: {', '.join(mission_names())}; or a "
                    "mission file)", where="--mission")


def mission_terrain(mission: dict[str, JSON]) -> dict[str, JSON]:
    """The mission's terrain: its layout's, its inline terrain, or the default table's."""
    name = mission.get("layout")
    if isinstance(name, str):
        lay = layout(name)
        return {"areas": lay.get("areas", []), "terrain": lay.get("terrain", [])}
    inline = mission.get("terrain")
    if isinstance(inline, dict):
        return {"areas": inline.get("areas", []), "terrain": inline.get("terrain", [])}
    return copy.deepcopy(DEFAULT_TERRAIN)


def mission_position(red: Army, blue: Army, mission: dict[str, JSON], *,
                     pre_battle: bool = False, abilities: bool = False) -> dict[str, JSON]:
    """The starting position of ``red`` against ``blue`` on ``mission``: its battlefield,
    terrain and objectives; each army set up wholly within its deployment zone (in the default
    columns when they fit, docs/missions.md "Setting up"); units the army files start
    embarked or in reserves start off the battlefield. A take-and-hold mission without zones
    plays on the default table. With ``pre_battle`` and a mission with zones, the position
    starts with the pre-battle sequence instead (the players declare reserves and deploy,
    docs/positions.md ``pre_battle``), carrying each unit's points. ``abilities``: models carry
    their catalog abilities."""
    m = MissionModel.model_validate(mission)
    terrain = mission_terrain(mission)
    objectives = (cast(list[JSON], copy.deepcopy(mission["objectives"]))
                  if m.objectives is not None else copy.deepcopy(DEFAULT_OBJECTIVES))
    pos = position_from_armies(red, blue, terrain=terrain, objectives=objectives,
                               mission=mission, abilities=abilities)
    if m.battlefield is not None:
        pos["battlefield"] = m.battlefield.model_dump()
    if m.layout is not None:
        lay = _layout(m.layout)[0].battlefield
        if m.battlefield is not None and lay != m.battlefield:
            raise DataError(f"layout {m.layout!r} is made for a {lay.width:g}\" x {lay.depth:g}"
                            "\" battlefield", where="mission: battlefield")
        pos["battlefield"] = lay.model_dump()
    areas = {str(cast(dict[str, JSON], a)["name"]) for a in
             cast(list[JSON], terrain.get("areas", []))}
    for i, o in enumerate(m.objectives or []):
        if o.area is not None and o.area not in areas:
            raise DataError(f"expected a terrain area of the layout ({', '.join(sorted(areas))})"
                            f", found {o.area!r}", where=f"mission: objectives[{i}].area")
    if m.deployment_zones is not None:
        zones = {z.player: [(float(x), float(y)) for x, y in z.polygon]
                 for z in m.deployment_zones}
        if set(zones) != {"red", "blue"}:
            raise DataError(f"expected zones for red and blue, found {', '.join(zones)}",
                            where="mission: deployment_zones")
        bf = cast(dict[str, float], pos["battlefield"])
        on_table = [u for u in cast(list[dict[str, JSON]], pos["units"])
                    if u.get("location", "battlefield") == "battlefield"]
        deploy_in_zones(on_table, zones, terrain,
                        (float(bf["width"]), float(bf["depth"])), strict=not pre_battle)
        if pre_battle:
            pos["pre_battle"] = {"points_limit": 0, "points": _points(red, blue, pos)}
    return pos


def _points(red: Army, blue: Army, pos: dict[str, JSON]) -> dict[str, JSON]:
    """Each unit's points (its components' together; a unit without points is left out), by
    the position's unit ids (in army order, as ``position_from_armies`` writes them)."""
    out: dict[str, JSON] = {}
    units = cast(list[dict[str, JSON]], pos["units"])
    for army, player in ((red, "red"), (blue, "blue")):
        ids = [str(u["id"]) for u in units if u["player"] == player]
        for uid, unit in zip(ids, army.units, strict=True):
            pts = [c.points for c in unit.components if c.points is not None]
            if pts:
                out[uid] = sum(pts)
    return out
