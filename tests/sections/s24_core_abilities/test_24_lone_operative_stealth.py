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


def test_every_attack_path_reads_stealth_from_the_target_models() -> None:
    # R24.33-a: the pool profile (shared by per-die, exact and Monte Carlo) gives the benefit
    # of cover when every living model has Stealth, not when one lacks it.
    from tests.builders import weapon
    from w40k.rules.attack_profile import AttackContext, pool_profile
    from w40k.rules.primitives import ModelState
    gun = weapon('Gun 24" A1 BS3+ S4 AP0 D1')
    sneaky = (ModelState("A", W=1, stealth=True), ModelState("B", W=1, stealth=True))
    assert pool_profile(gun, sneaky, AttackContext()).skill == 4
    mixed = (sneaky[0], ModelState("B", W=1))
    assert pool_profile(gun, mixed, AttackContext()).skill == 3
    # a destroyed model without Stealth is no longer part of the unit (RA-Destroyed-c)
    assert pool_profile(gun, (sneaky[0], ModelState("B", W=1, wounds_lost=1)),
                        AttackContext()).skill == 4
