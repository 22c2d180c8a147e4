"""The shipped terrain layouts (src/w40k/data/layouts/): valid, the event-style "crossroads"
layout point-symmetric with at least 10 features in terrain areas, ruins with dense walls and
a floor a model can stand on, woods and exposed obstacles, lanes between the dense walls, and
no line of sight from one short edge to the other (checked with the geometry layer's LoS)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import shapely
from shapely.geometry import Polygon, box

from w40k.geometry import MoveType, Step, Visibility, scene_from_dict, validate_move
from w40k.io.battle_setup import DEFAULT_TERRAIN
from w40k.io.missions import layout, layout_names

W, D = 60.0, 44.0


def crossroads() -> dict[str, Any]:
    return layout("crossroads")


def _poly(points: list[list[float]]) -> Polygon:
    return shapely.normalize(Polygon([(float(x), float(y)) for x, y in points]))


def _same(a: Polygon, b: Polygon) -> bool:
    return bool(a.symmetric_difference(b).area < 1e-6)


def _rotated(points: list[list[float]]) -> Polygon:
    """The footprint turned by 180 degrees about the battlefield's centre."""
    return _poly([[W - x, D - y] for x, y in points])


def test_every_shipped_layout_loads_and_skirmish_is_the_default_table() -> None:
    assert {"crossroads", "skirmish"} <= set(layout_names())
    for name in layout_names():
        lay = layout(name)
        scene_from_dict({"battlefield": lay["battlefield"], "areas": lay.get("areas", []),
                         "terrain": lay.get("terrain", []), "units": []}, name)
    sk = layout("skirmish")
    assert [a["name"] for a in sk["areas"]] == [a["name"] for a in DEFAULT_TERRAIN["areas"]]
    assert len(sk["terrain"]) == len(DEFAULT_TERRAIN["terrain"])


def test_crossroads_has_ten_or_more_features_in_areas_of_every_category() -> None:
    # R13.01-a / R13.02-a: features in terrain areas, each with one category.
    lay = crossroads()
    feats = lay["terrain"]
    assert len(feats) >= 10 and all(f.get("area") for f in feats)
    assert len(lay["areas"]) >= 10
    cats = {f["category"] for f in feats}
    assert cats == {"dense", "light", "exposed"}
    ruins = [f for f in feats if f["category"] == "dense" and f.get("surfaces")]
    assert len(ruins) >= 6 and all(s["height"] == 3.0 for f in ruins for s in f["surfaces"])
    assert any("woods" in f["area"] for f in feats if f["category"] == "light")
    assert any("barricade" in f["name"] for f in feats if f["category"] == "exposed")
    assert any("crates" in f["name"] for f in feats if f["category"] == "exposed")


def test_crossroads_is_point_symmetric_about_the_centre() -> None:
    lay = crossroads()
    areas = [_poly(a["footprint"]) for a in lay["areas"]]
    for a in lay["areas"]:
        assert any(_same(_rotated(a["footprint"]), b) for b in areas), a["name"]
    feats = lay["terrain"]

    def key(f: dict[str, Any]) -> tuple[str, float, int]:
        return f["category"], f["height"], len(f.get("surfaces", []))

    for f in feats:
        twin = [g for g in feats if key(g) == key(f)
                and _same(_rotated(f["footprint"]), _poly(g["footprint"]))]
        assert twin, f["name"]
        for s in f.get("surfaces", []):
            assert any(_same(_rotated(s["footprint"]), _poly(t["footprint"]))
                       for t in twin[0]["surfaces"]), f["name"]


def _edge_scene(lay: dict[str, Any], height: float, ys: list[float]) -> dict[str, Any]:
    def column(name: str, x: float) -> dict[str, Any]:
        return {"name": name, "player": name, "keywords": ["INFANTRY"],
                "models": [{"x": x, "y": y, "base_mm": 25.0, "height": height} for y in ys]}

    return {"battlefield": lay["battlefield"], "areas": lay["areas"], "terrain": lay["terrain"],
            "units": [column("west", 0.5), column("east", W - 0.5)]}


@pytest.mark.parametrize("height", [1.0, 2.5, 5.0, 12.0])
def test_no_line_of_sight_runs_from_one_short_edge_to_the_other(height: float) -> None:
    # R13.10 (obscuring areas) and R13.11 (dense walls): a model at every inch of the west
    # edge cannot see a model at any inch of the east edge, whatever their height.
    ys = [float(y) for y in range(1, 44)]
    vis = Visibility(scene_from_dict(_edge_scene(crossroads(), height, ys), "edges"))
    seen = vis.sight_matrix("west", "east")
    assert seen.shape == (len(ys), len(ys))
    assert not seen.any(), np.argwhere(seen)[:5]


def test_the_edge_check_finds_a_line_on_the_open_default_table() -> None:
    # The same check is not vacuous: on the default table (four small pieces) lines along
    # the table exist.
    lay = {"battlefield": {"width": W, "depth": D}, **DEFAULT_TERRAIN}
    ys = [2.0, 22.0, 42.0]
    vis = Visibility(scene_from_dict(_edge_scene(lay, 1.6, ys), "edges"))
    assert vis.sight_matrix("west", "east").any()


def test_lanes_five_inches_wide_join_every_deployment_edge() -> None:
    # A 5" wide vehicle (it cannot cross tall dense walls) can drive from each long
    # edge to the other and from each short edge to the other between the dense walls.
    lay = crossroads()
    dense = shapely.union_all([Polygon(f["footprint"]) for f in lay["terrain"]
                               if f["category"] == "dense"])
    free = box(0, 0, W, D).buffer(-2.5, join_style="mitre").difference(dense.buffer(2.5))
    parts = list(getattr(free, "geoms", [free]))
    main = max(parts, key=lambda p: p.area)
    for edge in (box(0, 0, W, 3), box(0, D - 3, W, D), box(0, 0, 3, D), box(W - 3, 0, W, D)):
        assert main.intersects(edge)
    assert main.area > 0.8 * free.area


def test_infantry_can_climb_onto_a_ruin_floor() -> None:
    # R13.06-b/d/e: INFANTRY climbs a ruin wall (the climb counts) and ends on its 3" floor.
    lay = crossroads()
    scene = scene_from_dict({
        "battlefield": lay["battlefield"], "areas": lay["areas"], "terrain": lay["terrain"],
        "units": [{"name": "U", "player": "A", "keywords": ["INFANTRY"],
                   "models": [{"name": "M1", "x": 9.2, "y": 13.5, "base_mm": 32.0}]}]}, "ruin")
    up = [Step(9.2, 10.8), Step(9.2, 10.8, z=3.0)]
    assert validate_move(scene, "U", {"M1": up}, MoveType.NORMAL, 6) == []
    assert validate_move(scene, "U", {"M1": up}, MoveType.NORMAL, 5) != []
