"""24.24 Lone Operative and 24.33 Stealth."""

from __future__ import annotations

from typing import Any

from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.scene import parse_lone_operative

R = 32 / 25.4


def vis(
    distance: float,
    abilities: list[str],
    attached: bool = False,
    extra: list[dict[str, Any]] | None = None,
) -> Visibility:
    units = [
        {
            "name": "S",
            "player": "a",
            "keywords": ["INFANTRY"],
            "models": [{"x": 5, "y": 10, "base_mm": 32}],
        },
        {
            "name": "T",
            "player": "b",
            "keywords": ["INFANTRY"],
            "abilities": abilities,
            "attached": attached,
            "models": [{"x": 5 + distance + R, "y": 10, "base_mm": 32}] + (extra or []),
        },
    ]
    return Visibility(scene_from_dict({"battlefield": {"width": 60, "depth": 44}, "units": units}))


def test_a_lone_operative_is_not_visible_from_13_inches_but_is_from_11_9() -> None:
    # R24.24-a
    assert not vis(13.0, ["Lone Operative"]).unit_pair("S", "T").visible
    assert "R24.24" in vis(13.0, ["Lone Operative"]).unit_pair("S", "T").reason
    assert vis(11.9, ["Lone Operative"]).unit_pair("S", "T").visible


def test_lone_operative_x_uses_its_own_range() -> None:
    # R24.24-a: Lone Operative 6"
    assert parse_lone_operative(('Lone Operative 6"',)) == 6.0
    assert not vis(7.0, ['Lone Operative 6"']).unit_pair("S", "T").visible
    assert vis(5.5, ['Lone Operative 6"']).unit_pair("S", "T").visible


def test_an_attached_lone_operative_has_no_protection() -> None:
    # R24.24-a
    assert vis(13.0, ["Lone Operative"], attached=True).unit_pair("S", "T").visible


def test_a_stealth_unit_in_the_open_has_the_benefit_of_cover() -> None:
    # R24.33-a
    assert vis(10.0, ["Stealth"]).unit_pair("S", "T").cover
    assert not vis(10.0, []).unit_pair("S", "T").cover
