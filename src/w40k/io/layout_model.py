"""The terrain layout format (``src/w40k/data/layouts/NAME.yaml``): a named table of terrain
areas and features in the scene format of docs/geometry.md, which missions reference by name
(docs/missions.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, cast

from pydantic import Field

from w40k.core.errors import DataError
from w40k.engine.serial import JSON
from w40k.io import limits
from w40k.io.model_base import Strict, Text, validate
from w40k.io.safe_read import read_input
from w40k.io.scene_model import AreaModel, BattlefieldModel, FeatureModel, check_polygons


class LayoutModel(Strict):
    """A terrain layout: its name, the battlefield it is made for, areas and features."""

    name: Text
    battlefield: BattlefieldModel
    areas: Annotated[list[AreaModel], Field(max_length=limits.MAX_TERRAIN)] = []
    terrain: Annotated[list[FeatureModel], Field(max_length=limits.MAX_TERRAIN)] = []


def check_terrain(areas: list[AreaModel], features: list[FeatureModel], source: str,
                  prefix: str = "") -> None:
    """Valid footprints, unique area names, and features in known areas."""
    polys = [(f"{prefix}areas[{i}].footprint", a.footprint) for i, a in enumerate(areas)]
    polys += [(f"{prefix}terrain[{i}].footprint", f.footprint) for i, f in enumerate(features)]
    check_polygons(polys, source)
    names: set[str] = set()
    for i, a in enumerate(areas):
        if a.name in names:
            raise DataError(f"area {a.name!r} is named twice",
                            where=f"{source}: {prefix}areas[{i}].name")
        names.add(a.name)
    for i, f in enumerate(features):
        if f.area is not None and f.area not in names:
            raise DataError(f"expected a terrain area ({', '.join(sorted(names)) or 'none'}), "
                            f"found {f.area!r}", where=f"{source}: {prefix}terrain[{i}].area")


def load_layout(path: str | Path) -> dict[str, JSON]:
    """A layout file, read safely and validated (DataError names the file and field)."""
    source = str(path)
    data = read_input(path, what="layout", default="yaml")
    layout = validate(LayoutModel, data, source)
    check_terrain(layout.areas, layout.terrain, source)
    return cast(dict[str, JSON], data)
