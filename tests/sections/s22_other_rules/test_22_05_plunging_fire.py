"""22.05 plunging fire."""

from __future__ import annotations

from typing import Any

from w40k.geometry import Visibility, scene_from_dict


def tower(height: float, x: float = 0.0) -> dict[str, Any]:
    return {
        "name": "Tower",
        "category": "light",
        "footprint": [[x, 0], [x + 4, 0], [x + 4, 4], [x, 4]],
        "height": height,
    }


def vis(
    z: float,
    observer_keywords: list[str] | None = None,
    target_x: float = 20.0,
    target_z: float = 0.0,
) -> Visibility:
    units = [
        {
            "name": "S",
            "player": "a",
            "keywords": observer_keywords or ["INFANTRY"],
            "models": [{"x": 3, "y": 2, "z": z, "base_mm": 32, "height": 1.6}],
        },
        {
            "name": "T",
            "player": "b",
            "keywords": ["INFANTRY"],
            "models": [{"x": target_x, "y": 2, "z": target_z, "base_mm": 32, "height": 1.6}],
        },
    ]
    return Visibility(
        scene_from_dict(
            {
                "battlefield": {"width": 60, "depth": 44},
                "terrain": [tower(z) if z > 0 else tower(3.0, x=40.0)],
                "units": units,
            }
        )
    )


def test_an_attacker_on_a_3_inch_section_gets_plunging_fire_but_not_on_2_9() -> None:
    # R22.05-a
    assert vis(3.0).unit_pair("S", "T").plunging_fire
    assert not vis(2.9).unit_pair("S", "T").plunging_fire


def test_a_towering_attacker_on_the_ground_gets_plunging_fire_within_12_inches_only() -> None:
    # R22.05-a
    near = vis(0.0, ["MONSTER", "TOWERING"], target_x=14.0)
    far = vis(0.0, ["MONSTER", "TOWERING"], target_x=30.0)
    # the tower stands between nothing here: the observer is beside it
    assert near.unit_pair("S", "T").plunging_fire
    assert not far.unit_pair("S", "T").plunging_fire


def test_no_plunging_fire_when_no_target_model_is_on_ground_level() -> None:
    # R22.05-a: the target unit must contain a model on ground level
    assert not vis(3.0, target_z=3.0).unit_pair("S", "T").plunging_fire


def test_no_plunging_fire_by_or_against_aircraft() -> None:
    # R22.05-c
    assert not vis(3.0, ["AIRCRAFT", "FLY"]).unit_pair("S", "T").plunging_fire
