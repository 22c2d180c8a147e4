"""13 terrain: areas, categories, cover, hidden, obscuring, Solid."""

from __future__ import annotations

from typing import Any

import pytest

from w40k.geometry import SceneError, Visibility, kernel_cache, scene_from_dict


def unit(
    name: str,
    player: str,
    *xy: tuple[float, float],
    keywords: tuple[str, ...] = ("INFANTRY",),
    z: float = 0.0,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "name": name,
        "player": player,
        "keywords": list(keywords),
        "models": [{"x": x, "y": y, "z": z, "base_mm": 32, "height": 1.6} for x, y in xy],
        **extra,
    }


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def feature(
    name: str,
    category: str,
    area: str | None,
    box: tuple[float, float, float, float],
    height: float,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "name": name,
        "category": category,
        "area": area,
        "footprint": rect(*box),
        "height": height,
        **extra,
    }


def scene(
    units: list[dict[str, Any]], terrain: list[dict[str, Any]], areas: list[dict[str, Any]]
) -> Visibility:
    return Visibility(
        scene_from_dict(
            {
                "battlefield": {"width": 60, "depth": 44},
                "areas": areas,
                "terrain": terrain,
                "units": units,
            }
        )
    )


AREA = {"name": "Ruins", "footprint": rect(20, 0, 30, 20)}


def test_an_area_with_light_and_dense_features_contains_dense_and_is_obscuring() -> None:
    # R13.01-a, R13.10-a
    v = scene(
        [unit("A", "a", (1, 1))],
        [
            feature("Wall", "light", "Ruins", (21, 1, 22, 2), 1),
            feature("Ruin", "dense", "Ruins", (24, 4, 25, 5), 4),
            feature("Ruin2", "dense", "Ruins", (26, 4, 27, 5), 4),
        ],
        [AREA],
    )
    assert v.scene.terrain.contains_dense("Ruins") and v.scene.terrain.is_obscuring("Ruins")


def test_a_crater_only_area_is_not_obscuring() -> None:
    # R13.10-a, R13.09-c
    v = scene(
        [unit("A", "a", (1, 1))],
        [feature("Crater", "exposed", "Ruins", (22, 2, 26, 6), 0.3)],
        [AREA],
    )
    assert not v.scene.terrain.is_obscuring("Ruins")


def test_a_feature_with_an_unknown_category_is_rejected() -> None:
    # R13.02-a
    with pytest.raises(SceneError, match=r"terrain\[0\]\.category"):
        scene_from_dict(
            {
                "battlefield": {"width": 60, "depth": 44},
                "areas": [AREA],
                "terrain": [feature("X", "rubble", "Ruins", (21, 1, 22, 2), 1)],
                "units": [],
            }
        )


def test_infantry_within_an_area_have_cover_and_one_outside_and_fully_visible_loses_it() -> None:
    # R13.08-a
    crater = [feature("Crater", "exposed", "Ruins", (21, 12, 22, 13), 0.2)]
    inside = unit("T", "b", (25, 10), (26.5, 10), (28, 10))
    v = scene([unit("S", "a", (5, 10)), inside], crater, [AREA])
    assert v.unit_pair("S", "T").cover
    outside = unit("T", "b", (25, 10), (26.5, 10), (34, 10))
    v = scene([unit("S", "a", (5, 10)), outside], crater, [AREA])
    assert not v.unit_pair("S", "T").cover


def test_a_model_outside_the_area_but_partly_behind_a_wall_keeps_the_unit_in_cover() -> None:
    # R13.08-a (ii)
    terrain = [
        feature("Crater", "exposed", "Ruins", (21, 12, 22, 13), 0.2),
        feature("Barricade", "light", None, (33, 9.5, 33.3, 10.3), 1.0),
    ]
    v = scene(
        [unit("S", "a", (5, 10)), unit("T", "b", (25, 10), (26.5, 10), (34, 10))], terrain, [AREA]
    )
    assert v.unit_pair("S", "T").cover


def test_a_vehicle_within_an_area_but_fully_visible_has_no_cover() -> None:
    # R13.08-e
    v = scene(
        [unit("S", "a", (5, 10)), unit("Tank", "b", (25, 10), keywords=("VEHICLE",))],
        [feature("Crater", "exposed", "Ruins", (21, 12, 22, 13), 0.2)],
        [AREA],
    )
    assert not v.unit_pair("S", "Tank").cover


DENSE = [feature("Ruin wall", "dense", "Ruins", (28, 2, 29, 3), 5.0)]


def test_infantry_in_a_dense_area_that_did_not_shoot_is_hidden_beyond_15_inches() -> None:
    # R13.09-a, R13.09-b: 15.5" away -> not visible; 14.9" -> visible
    r = 32 / 25.4
    far = scene([unit("S", "a", (25 - 15.5 - r, 10)), unit("T", "b", (25, 10))], DENSE, [AREA])
    near = scene([unit("S", "a", (25 - 14.9 - r, 10)), unit("T", "b", (25, 10))], DENSE, [AREA])
    assert not far.unit_pair("S", "T").visible
    assert "R13.09" in far.unit_pair("S", "T").reason
    assert near.unit_pair("S", "T").visible


def test_a_unit_that_shot_recently_is_not_hidden() -> None:
    # R13.09-a
    r = 32 / 25.4
    v = scene(
        [
            unit("S", "a", (25 - 15.5 - r, 10)),
            unit("T", "b", (25, 10), ranged_attacks_recently=True),
        ],
        DENSE,
        [AREA],
    )
    assert v.unit_pair("S", "T").visible


def test_infantry_in_an_area_of_only_light_features_is_not_hidden() -> None:
    # R13.09-c
    light = [feature("Low wall", "light", "Ruins", (28, 2, 29, 3), 1.0)]
    v = scene([unit("S", "a", (2, 10)), unit("T", "b", (25, 10))], light, [AREA])
    assert v.unit_pair("S", "T").visible


def test_an_obscuring_area_between_two_models_outside_it_blocks_sight() -> None:
    # R13.10-b
    low = [feature("Low wall", "light", "Ruins", (28, 18, 29, 19), 0.5)]
    v = scene(
        [
            unit("S", "a", (10, 10), keywords=("VEHICLE",)),
            unit("T", "b", (40, 10), keywords=("VEHICLE",)),
        ],
        low,
        [AREA],
    )
    assert not v.unit_pair("S", "T").visible


def test_an_obscuring_area_the_observer_stands_in_does_not_block() -> None:
    # R13.10-b
    low = [feature("Low wall", "light", "Ruins", (28, 18, 29, 19), 0.5)]
    v = scene(
        [
            unit("S", "a", (22, 10), keywords=("VEHICLE",)),
            unit("T", "b", (40, 10), keywords=("VEHICLE",)),
        ],
        low,
        [AREA],
    )
    assert v.unit_pair("S", "T").visible


def test_one_line_skirting_the_corner_of_an_obscuring_area_defeats_it() -> None:
    # R13.10-c
    low = [feature("Low wall", "light", "Ruins", (28, 18, 29, 19), 0.5)]
    v = scene(
        [
            unit("S", "a", (10, 20.5), keywords=("VEHICLE",)),
            unit("T", "b", (40, 20.5), keywords=("VEHICLE",)),
        ],
        low,
        [AREA],
    )
    assert v.unit_pair("S", "T").visible
    # R06.01-c reading: some lines cross the area, but every facing point of the target is
    # seen past the area's edge from some point of the observer (the brute force of
    # tests/geometry/test_full_visibility.py agrees): fully visible, so no cover for a VEHICLE
    assert v.unit_pair("S", "T").fully_visible
    assert not v.unit_pair("S", "T").cover
    # moved 0.5" down the target's lower edge is hidden behind the area: cover (13.08 (ii))
    v = scene(
        [
            unit("S", "a", (10, 20.5), keywords=("VEHICLE",)),
            unit("T", "b", (40, 20.0), keywords=("VEHICLE",)),
        ],
        low,
        [AREA],
    )
    assert v.unit_pair("S", "T").visible and not v.unit_pair("S", "T").fully_visible
    assert v.unit_pair("S", "T").cover


def test_a_window_at_2_inches_in_a_dense_feature_blocks_but_a_window_at_4_inches_does_not() -> None:
    # R13.11-a: a dense wall is opaque up to 3" whatever its declared see-through height
    wall_low = [feature("Ruin wall", "dense", None, (9.8, 0, 10.2, 40), 6.0, opaque_height=2.0)]
    v = scene([unit("S", "a", (2, 10)), unit("T", "b", (18, 10))], wall_low, [])
    assert not v.unit_pair("S", "T").visible
    # models standing on 4" floors look over a wall that is opaque only up to 3"
    v = scene([unit("S", "a", (2, 10), z=4.0), unit("T", "b", (18, 10), z=4.0)], wall_low, [])
    assert v.unit_pair("S", "T").visible


def _gap_walls(gap: float) -> list[dict[str, Any]]:
    """Two 6" dense walls of the Ruins area along x = 24-25, ``gap``" apart around y = 10."""
    return [
        feature("Wall A", "dense", "Ruins", (24, 0, 25, 10 - gap / 2), 6.0),
        feature("Wall B", "dense", "Ruins", (24, 10 + gap / 2, 25, 20), 6.0),
    ]


def _through_gap(gap: float) -> Visibility:
    # VEHICLEs are never hidden; the target is within the area, so it does not obscure (13.10)
    return scene(
        [
            unit("S", "a", (2, 10), keywords=("VEHICLE",)),
            unit("T", "b", (28, 10), keywords=("VEHICLE",)),
        ],
        _gap_walls(gap),
        [AREA],
    )


def test_a_gap_wider_than_3_inches_between_dense_features_of_one_area_leaves_sight() -> None:
    # R13.11-b [AMBIG]: whatever the reading, only gaps of 3" or less could be filled
    assert _through_gap(4.0).unit_pair("S", "T").visible


def test_a_1_inch_gap_between_dense_features_of_one_area_blocks_sight() -> None:
    # R13.11-b [AMBIG], recommended reading: the designer's note's "small gaps between
    # adjacent terrain features" block like the Solid rule's windows
    v = _through_gap(1.0)
    assert not v.unit_pair("S", "T").visible
    assert [g.features for g in v.gap_fillers] == [("Wall A", "Wall B")]
    # the filler is the opening itself: x 24-25, y 9.5-10.5, opaque up to 3"
    assert sorted(v.gap_fillers[0].footprint) == [(24, 9.5), (24, 10.5), (25, 9.5), (25, 10.5)]
    assert v.gap_fillers[0].height == 3.0


def _gap_scene(units: list[dict[str, Any]], **extra: Any) -> Visibility:
    return Visibility(
        scene_from_dict(
            {
                "battlefield": {"width": 60, "depth": 44},
                "areas": [AREA],
                "terrain": _gap_walls(1.0),
                "units": units,
                **extra,
            }
        )
    )


_SHOOTER = unit("S", "a", (2, 10), keywords=("VEHICLE",))
_TARGET = unit("T", "b", (28, 10), keywords=("VEHICLE",))


def test_the_gap_reading_can_be_switched_off_in_the_scene_file() -> None:
    # R13.11-b [AMBIG]: "solid_gap": null keeps only each feature's own surface Solid
    v = _gap_scene([_SHOOTER, _TARGET], solid_gap=None)
    assert v.gap_fillers == ()
    assert v.unit_pair("S", "T").visible
    # a narrower limit leaves the 1" gap open too
    assert _gap_scene([_SHOOTER, _TARGET], solid_gap=0.5).unit_pair("S", "T").visible


def test_a_model_standing_in_the_gap_sees_out_through_it() -> None:
    # R13.11-b [AMBIG]: as 13.10 ignores areas a model is within, a model within the filled gap
    # ignores that filler (it looks out of the opening it stands in)
    inside = unit("G", "a", (24.5, 10.0), keywords=("VEHICLE",))
    v = _gap_scene([inside, _TARGET])
    assert v.unit_pair("G", "T").visible
    assert v.unit_pair("T", "G").visible


def test_models_on_4_inch_floors_look_over_a_filled_gap() -> None:
    # R13.11-b with R13.11-a: the gap is filled only up to 3", like the Solid part of a wall
    s = unit("S", "a", (2, 10), keywords=("VEHICLE",), z=0.0)
    t = unit("T", "b", (28, 10), keywords=("VEHICLE",), z=0.0)
    s["models"][0]["height"] = 5.0
    t["models"][0]["height"] = 5.0
    assert _gap_scene([s, t]).unit_pair("S", "T").visible


def test_walls_at_an_angle_are_sealed_at_their_narrowest_point() -> None:
    # R13.11-b [AMBIG]: a V of two walls 2" apart at the apex: the filler is the segment
    # between the two closest corners, so a line through the opening is blocked
    walls = [
        feature("Left", "dense", "Ruins", (21, 0, 22, 9), 6.0),
        {
            "name": "Right",
            "category": "dense",
            "area": "Ruins",
            "footprint": [[22, 11], [29, 19], [28, 20], [21, 12]],
            "height": 6.0,
        },
    ]
    sc = scene_from_dict(
        {
            "battlefield": {"width": 60, "depth": 44},
            "areas": [AREA],
            "terrain": walls,
            "units": [_SHOOTER, _TARGET],
        }
    )
    v = Visibility(sc)
    (g,) = v.gap_fillers
    assert sorted(g.footprint) == [(22.0, 9.0), (22.0, 11.0)]
    assert not Visibility(sc).unit_pair("S", "T").visible


def test_a_bad_solid_gap_names_the_key() -> None:
    with pytest.raises(SceneError, match="solid_gap"):
        scene_from_dict(
            {"battlefield": {"width": 60, "depth": 44}, "units": [_SHOOTER], "solid_gap": "wide"}
        )


JITS = [False, True] if kernel_cache.AVAILABLE else [False]


@pytest.mark.parametrize("jit", JITS)
def test_a_model_hidden_only_by_a_third_units_model_gets_no_cover_from_it(jit: bool) -> None:
    # R13.08-a (ii): only terrain features and obscuring areas give cover. T1 stands behind a
    # third unit's 100 mm tank (hidden by it, R06.01-a); T2 is INFANTRY within the area
    # (13.08 (i)). T1 is neither in an area nor hidden by terrain: the unit has no cover.
    units = [
        unit("S", "a", (5, 10)),
        unit("T", "b", (40, 10), (25, 15)),
        {
            "name": "Tank",
            "player": "c",
            "keywords": ["VEHICLE"],
            "models": [{"x": 22.0, "y": 10.0, "base_mm": 100, "height": 3.0}],
        },
    ]
    crater = [feature("Crater", "exposed", "Ruins", (21, 16, 22, 17), 0.2)]
    s = scene_from_dict(
        {"battlefield": {"width": 60, "depth": 44}, "areas": [AREA], "terrain": crater,
         "units": units}
    )
    v = Visibility(s, jit=jit)
    hidden = v.model_sight(0, 0, 1, 0)
    assert not hidden.visible and not hidden.terrain_cover
    assert v.model_sight(0, 0, 1, 1).visible
    assert not v.cover_against(0, 0, 1)
    report = v.unit_pair("S", "T")
    assert report.visible and not report.cover


@pytest.mark.parametrize("jit", JITS)
def test_a_model_hidden_by_a_wall_and_a_third_units_model_keeps_the_walls_cover(
    jit: bool,
) -> None:
    # R13.08-a (ii): a wall in front of T1 and a tank behind the wall: terrain is one of the
    # reasons T1 is not fully visible, so T1 counts; T2 is in the area.
    units = [
        unit("S", "a", (5, 10)),
        unit("T", "b", (40, 10), (25, 15)),
        {
            "name": "Tank",
            "player": "c",
            "keywords": ["VEHICLE"],
            "models": [{"x": 34.0, "y": 10.0, "base_mm": 100, "height": 3.0}],
        },
    ]
    terrain = [
        feature("Crater", "exposed", "Ruins", (21, 16, 22, 17), 0.2),
        feature("Wall", "dense", None, (32, 8, 32.4, 12), 5.0),
    ]
    s = scene_from_dict(
        {"battlefield": {"width": 60, "depth": 44}, "areas": [AREA], "terrain": terrain,
         "units": units}
    )
    v = Visibility(s, jit=jit)
    assert v.model_sight(0, 0, 1, 0).terrain_cover
    assert v.cover_against(0, 0, 1) and v.unit_pair("S", "T").cover


@pytest.mark.parametrize("jit", JITS)
def test_a_unit_pair_that_is_not_visible_reports_no_cover(jit: bool) -> None:
    # R13.08-a: cover is against an attack; a unit in an area (13.08 (i)) that no observer
    # model can see cannot be attacked, so the report says no cover.
    units = [unit("S", "a", (5, 10)), unit("T", "b", (25, 10), (26.5, 10))]
    terrain = [
        feature("Crater", "exposed", "Ruins", (21, 16, 22, 17), 0.2),
        feature("Wall", "dense", None, (15, 0, 15.5, 20), 5.0),
    ]
    s = scene_from_dict(
        {"battlefield": {"width": 60, "depth": 44}, "areas": [AREA], "terrain": terrain,
         "units": units}
    )
    report = Visibility(s, jit=jit).unit_pair("S", "T")
    assert not report.visible and not report.cover and not report.fully_visible
