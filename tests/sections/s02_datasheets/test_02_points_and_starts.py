"""Points, battle sizes and starting states in army files (docs/army-format.md "Points" and
"Starting off the battlefield"), and the two default armies of about 1000 points."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest
import yaml

from w40k.core.errors import DataError
from w40k.engine.serial import JSON
from w40k.io.army import builtin, load_army
from w40k.io.battle_setup import not_applied, position_from_armies, real_armies
from w40k.io.position_model import validate_position


def _file(tmp_path: Path, army: dict[str, Any], name: str = "list.yaml") -> Path:
    data = {"include": ["strike_force"], "army": army}
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def test_a_unit_costs_the_first_listed_size_that_holds_it() -> None:
    sheet = builtin("strike_force").catalogue["Intercessors"]
    assert [sheet.points_for(n) for n in (5, 6, 10, 11)] == [80, 160, 160, None]


def test_the_default_armies_are_about_1000_points_and_within_incursion() -> None:
    red, blue = real_armies()
    assert red.battle_size == blue.battle_size == "incursion"
    assert red.total_points == 1000 and 900 <= cast(int, blue.total_points) <= 1000
    for army in (red, blue):
        assert len(army.units) >= 8
        assert any(u.attached for u in army.units)  # a character leading a bodyguard
        assert any(u.embarked_in for u in army.units)
        assert any(u.reserves for u in army.units)


def test_an_army_over_its_battle_size_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = _file(tmp_path, {"name": "Too big", "faction": "ADEPTUS ASTARTES",
                            "battle_size": "incursion",
                            "units": [{"datasheet": "Terminator Squad", "name": f"T{i}",
                                       "count": 10} for i in range(4)]})
    with pytest.raises(DataError) as info:
        load_army(path)
    text = str(info.value)
    assert "list.yaml" in text and "1200 points, over the 1000-point limit of incursion" in text


def test_reserves_over_half_the_points_limit_are_refused(tmp_path: Path) -> None:
    # R20.01-a: strategic reserves (a transport's passengers included) cannot exceed 50% of
    # the points limit: 2 x 300 points of Terminators in reserve is over 500.
    units = [{"datasheet": "Terminator Squad", "name": f"T{i}", "count": 10,
              "reserves": "deep_strike"} for i in range(2)]
    path = _file(tmp_path, {"name": "Held back", "faction": "ADEPTUS ASTARTES",
                            "battle_size": "incursion", "units": units})
    with pytest.raises(DataError, match=r"R20\.01-a"):
        load_army(path)


def test_starting_states_are_checked(tmp_path: Path) -> None:
    base = {"name": "x", "faction": "ADEPTUS ASTARTES"}
    cases = [
        ([{"datasheet": "Scout Squad", "embarked_in": "Dreadnought"}, {"datasheet":
                                                                       "Dreadnought"}],
         "not a TRANSPORT"),
        ([{"datasheet": "Scout Squad", "reserves": "deep_strike"}], "no Deep Strike"),
        ([{"datasheet": "Stormtalon Gunship"}], r"23\.01"),
    ]
    for units, message in cases:
        with pytest.raises(DataError, match=message):
            load_army(_file(tmp_path, {**base, "units": units}))


def test_a_position_starts_units_embarked_and_in_reserves_with_their_abilities() -> None:
    red, blue = real_armies()
    pos = validate_position(position_from_armies(red, blue, abilities=True), "test")
    units = {str(u["id"]): u for u in cast(list[dict[str, JSON]], pos["units"])}
    assert units["red.second-squad"]["location"] == "embarked"
    assert units["red.second-squad"]["embarked_in"] == "red.rhino"
    assert units["red.terminator-squad"]["location"] == "reserves"
    assert units["blue.stormboyz"]["location"] == "reserves"
    models = cast(list[dict[str, JSON]], units["red.intercessors"]["models"])
    assert models[0]["abilities"] == ["Oath of Moment", "Objective Secured"]
    captain = next(m for m in models if m["name"] == "Captain")
    assert captain["abilities"] == ["Oath of Moment", "Tactical Command"]
    # without abilities=True the models carry none (the old default position is unchanged)
    plain = position_from_armies(red, blue)
    assert all("abilities" not in m for u in cast(list[dict[str, Any]], plain["units"])
               for m in u["models"])


def test_abilities_the_catalog_does_not_know_are_listed_as_not_applied() -> None:
    # every ability of the two default armies is applied; an unknown one is listed
    red, blue = real_armies()
    assert not_applied(red) == [] and not_applied(blue) == []
    old = builtin("space_marines").army
    assert old is not None and not_applied(old) == ["'Rites of Battle' (Captain) is not applied"]
