"""The scene format of `w40k los` (docs/geometry.md) as one pydantic model, its consistency
checks (valid footprints, unique names, models on the table), and the safe scene loader.

:func:`load_scene` reads a file with :func:`w40k.io.safe_read.read_input`, validates it against
:class:`SceneModel`, checks it with :func:`check_scene`, then builds the
:class:`~w40k.geometry.scene.Scene` with :func:`~w40k.geometry.scene.scene_from_dict`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from w40k.core.errors import DataError
from w40k.geometry.scene import Scene, SceneError, scene_from_dict
from w40k.io import limits
from w40k.io.model_base import Coord, Inches, Polygon, Strict, Text, Texts, validate
from w40k.io.safe_read import read_input

Size = Annotated[float, Field(gt=0, le=limits.MAX_TABLE_INCHES)]
BaseMm = Annotated[float, Field(gt=0, le=1000)]
Category = Literal["exposed", "light", "dense", "Exposed", "Light", "Dense"]


class BattlefieldModel(Strict):
    """The table: ``{"width", "depth"}`` in inches."""

    width: Size
    depth: Size


class AreaModel(Strict):
    """A terrain area: a name and a footprint."""

    name: Text
    footprint: Polygon


class SurfaceModel(Strict):
    """A floor a model can stand on."""

    footprint: Polygon
    height: Inches
    stable: bool = True


class FeatureModel(Strict):
    """A terrain feature (a prism)."""

    name: Text
    category: Category
    area: Text | None = None
    footprint: Polygon
    height: Inches
    opaque_height: Inches | None = None
    surfaces: Annotated[list[SurfaceModel], Field(max_length=64)] = []


class SceneModelEntry(Strict):
    """One model of a scene unit."""

    name: Text | None = None
    x: Coord
    y: Coord
    z: Inches = 0.0
    base_mm: BaseMm | Annotated[list[BaseMm], Field(min_length=2, max_length=2)] | None = 32.0
    height: Inches = 1.6
    facing: Annotated[float, Field(ge=-100, le=100)] = 0.0
    keywords: Texts = []
    hull: Polygon | None = None


class SceneUnitModel(Strict):
    """One unit of a scene."""

    name: Text
    player: Text
    keywords: Texts = []
    abilities: Texts = []
    ranged_attacks_recently: bool = False
    attached: bool = False
    range: Inches | None = None
    detection_range: Inches = 15.0
    models: Annotated[list[SceneModelEntry],
                      Field(min_length=1, max_length=limits.MAX_MODELS_PER_UNIT)]


class SceneModel(Strict):
    """A `w40k los` scene: battlefield, terrain areas and features, units."""

    battlefield: BattlefieldModel
    areas: Annotated[list[AreaModel], Field(max_length=limits.MAX_TERRAIN)] = []
    terrain: Annotated[list[FeatureModel], Field(max_length=limits.MAX_TERRAIN)] = []
    units: Annotated[list[SceneUnitModel], Field(max_length=limits.MAX_UNITS)]
    solid_gap: Inches | None = 3.0


def polygon_problem(points: Sequence[Sequence[float]]) -> str | None:
    """Why a footprint is not a usable polygon (self-intersecting, zero area), or None."""
    from shapely.geometry import Polygon as ShapelyPolygon
    from shapely.validation import explain_validity

    poly = ShapelyPolygon([(float(p[0]), float(p[1])) for p in points])
    if not poly.is_valid:
        return f"expected a simple polygon, found {explain_validity(poly).lower()}"
    if poly.area <= 1e-9:
        return "expected a polygon with an area, found one of zero area"
    return None


def check_polygons(items: Sequence[tuple[str, Sequence[Sequence[float]]]], source: str) -> None:
    """Refuse the first invalid footprint, naming its path."""
    for path, pts in items:
        if (why := polygon_problem(pts)) is not None:
            raise DataError(why, where=f"{source}: {path}")


def check_scene(scene: SceneModel, source: str) -> None:
    """Consistency: valid footprints, models on the table, at most MAX_MODELS models."""
    polys = [(f"areas[{i}].footprint", a.footprint) for i, a in enumerate(scene.areas)]
    polys += [(f"terrain[{i}].footprint", f.footprint) for i, f in enumerate(scene.terrain)]
    check_polygons(polys, source)
    total = sum(len(u.models) for u in scene.units)
    if total > limits.MAX_MODELS:
        raise DataError(f"{total} models, over the limit of {limits.MAX_MODELS}",
                        where=f"{source}: units")
    bf = scene.battlefield
    for i, u in enumerate(scene.units):
        for j, m in enumerate(u.models):
            if not (0 <= m.x <= bf.width and 0 <= m.y <= bf.depth):
                raise DataError(f"expected a point on the {bf.width:g}\" x {bf.depth:g}\" "
                                f"table, found ({m.x:g}, {m.y:g})",
                                where=f"{source}: units[{i}].models[{j}]")


def load_scene(path: str | Path) -> Scene:
    """Read, validate and build a scene file (DataError names the file and field)."""
    source = str(path)
    data = read_input(path, what="scene")
    check_scene(validate(SceneModel, data, source), source)
    try:
        return scene_from_dict(data, source)
    except SceneError as exc:
        raise DataError(str(exc)) from None
