"""06.01 visibility: 1 mm lines, own units ignored, visible / fully visible for models and units."""

from __future__ import annotations

from typing import Any

from w40k.geometry import Visibility, scene_from_dict


def unit(
    name: str,
    player: str,
    *xy: tuple[float, float],
    keywords: tuple[str, ...] = ("INFANTRY",),
    **extra: Any,
) -> dict[str, Any]:
    return {
        "name": name,
        "player": player,
        "keywords": list(keywords),
        "models": [{"x": x, "y": y, "base_mm": 32, "height": 1.6} for x, y in xy],
        **extra,
    }


def wall(
    name: str,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    height: float = 5.0,
    category: str = "dense",
) -> dict[str, Any]:
    return {
        "name": name,
        "category": category,
        "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        "height": height,
    }


def vis(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    areas: list[dict[str, Any]] | None = None,
) -> Visibility:
    return Visibility(
        scene_from_dict(
            {
                "battlefield": {"width": 60, "depth": 44},
                "areas": areas or [],
                "terrain": terrain or [],
                "units": units,
            }
        )
    )


def test_a_third_units_model_fully_covering_the_target_blocks_sight() -> None:
    # R06.01-a: a big model of another unit sits on the line
    big = {
        "name": "Rock",
        "player": "B",
        "keywords": ["VEHICLE"],
        "models": [{"x": 10, "y": 10, "base_mm": 170, "height": 4}],
    }
    v = vis([unit("Shooters", "A", (2, 10)), unit("Target", "B", (18, 10)), big])
    assert not v.unit_pair("Shooters", "Target").visible


def test_a_model_of_the_targets_own_unit_does_not_block_sight() -> None:
    # R06.01-a
    v = vis([unit("Shooters", "A", (2, 10)), unit("Target", "B", (18, 10), (10, 10))])
    assert v.model_visible(("Shooters", 0), ("Target", 0))


def test_a_model_peeking_past_a_wall_is_visible_but_not_fully_visible() -> None:
    # R06.01-b, R06.01-c: the wall hides all but the edge of the target's base
    r = 16 / 25.4
    v = vis(
        [unit("Shooters", "A", (2, 10)), unit("Target", "B", (18, 10 + 2 * r - 0.1))],
        [wall("Wall", 9.5, 0, 10.5, 10.0 + r * 2 - 0.3)],
    )
    sight = v.model_sight(0, 0, 1, 0)
    assert sight.visible
    assert not sight.fully_visible


def test_legs_behind_a_low_crate_are_not_fully_visible() -> None:
    # R06.01-c: a 1" crate just in front of a 1.6" model hides its lower part
    v = vis(
        [unit("Shooters", "A", (2, 10)), unit("Target", "B", (18, 10))],
        [wall("Crate", 16.5, 9, 17, 11, height=1.0, category="light")],
    )
    s = v.model_sight(0, 0, 1, 0)
    assert s.visible and not s.fully_visible


def test_one_visible_model_makes_the_unit_visible() -> None:
    # R06.01-d: 1 of 3 models visible
    v = vis(
        [unit("Shooters", "A", (2, 10)), unit("Target", "B", (18, 10), (18, 30), (19.3, 30))],
        [wall("Wall", 9, 20, 11, 40)],
    )
    assert v.unit_pair("Shooters", "Target").visible
    assert not v.unit_pair("Shooters", "Target").fully_visible


def test_a_model_hidden_only_behind_a_squad_mate_still_counts_as_fully_visible() -> None:
    # R06.01-e
    v = vis([unit("Shooters", "A", (2, 10)), unit("Target", "B", (18, 10), (14, 10))])
    assert v.unit_pair("Shooters", "Target").fully_visible


def test_one_model_partly_behind_a_crate_stops_the_unit_being_fully_visible() -> None:
    # R06.01-e, X000-c
    v = vis(
        [unit("Shooters", "A", (2, 10)), unit("Target", "B", (18, 10), (18, 20))],
        [wall("Crate", 16.5, 19, 17, 21, height=1.0, category="light")],
    )
    assert not v.unit_pair("Shooters", "Target").fully_visible


def test_visibility_is_checked_per_observing_model() -> None:
    # R06.01-f: only the model with a line of sight sees the target
    v = vis(
        [unit("Shooters", "A", (2, 10), (2, 30)), unit("Target", "B", (18, 30))],
        [wall("Wall", 9, 15, 11, 28)],
    )
    assert v.model_visible(("Shooters", 1), ("Target", 0))
    assert not v.model_visible(("Shooters", 0), ("Target", 0))


def test_units_with_models_in_engagement_range_are_engaged_both_ways() -> None:
    # R03.04-b
    v = vis([unit("A1", "A", (10, 10), (10, 20)), unit("B1", "B", (11.5 + 32 / 25.4, 10))])
    assert v.unit_pair("A1", "B1").engaged and v.unit_pair("B1", "A1").engaged
