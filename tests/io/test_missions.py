"""The mission format (io/mission_model.py, docs/missions.md): the shipped missions are valid,
each invalid field is refused with an error naming the file and the field, hostile sizes are
bounded; a mission's starting position sets each army up wholly within its deployment zone;
and a game on a mission saves and loads at any decision and continues identically."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import shapely
from shapely.geometry import Point, Polygon

from w40k.agents import RandomAgent
from w40k.core.errors import DataError
from w40k.engine.game import Game
from w40k.io.battle_setup import DEFAULT_OBJECTIVES, DEFAULT_TERRAIN, default_armies
from w40k.io.mission_model import load_mission
from w40k.io.missions import (
    mission_names,
    mission_position,
    mission_terrain,
    resolve_mission,
    shipped_mission,
)
from w40k.io.position_model import validate_position

SHIPPED = ("take-and-hold", "front-lines", "flank-assault", "corner-clash")


def full() -> dict[str, Any]:
    return copy.deepcopy(shipped_mission("front-lines"))


def write(tmp_path: Path, data: object, name: str = "m.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_shipped_missions_are_listed_and_valid() -> None:
    assert set(SHIPPED) <= set(mission_names())
    for name in mission_names():
        m = shipped_mission(name)
        assert m["name"] == name
        assert resolve_mission(name) == m


def test_take_and_hold_is_the_default_table_and_objectives() -> None:
    m = shipped_mission("take-and-hold")
    assert mission_terrain(m) == DEFAULT_TERRAIN
    assert m["objectives"] == DEFAULT_OBJECTIVES
    assert m["rounds"] == 5 and m["first_turn"] == "red"


def test_a_mission_file_is_read_as_json_or_yaml(tmp_path: Path) -> None:
    m = full()
    assert load_mission(write(tmp_path, m)) == m
    yaml_path = tmp_path / "m.yaml"
    yaml_path.write_text("name: mine\nrounds: 3\nfirst_turn: roll-off\n", encoding="utf-8")
    assert load_mission(yaml_path) == {"name": "mine", "rounds": 3, "first_turn": "roll-off"}


def _set(path: str, value: object) -> Any:
    def edit(d: dict[str, Any]) -> None:
        parts = path.replace("]", "").replace("[", ".").split(".")
        node: Any = d
        for p in parts[:-1]:
            node = node[int(p)] if p.isdigit() else node[p]
        last = parts[-1]
        if last.isdigit():
            node[int(last)] = value
        else:
            node[last] = value
    return edit


BAD: list[tuple[str, Any, str]] = [
    ("rounds-zero", _set("rounds", 0), "rounds"),
    ("rounds-eleven", _set("rounds", 11), "rounds"),
    ("battlefield-huge", _set("battlefield.width", 1e9), "battlefield.width"),
    ("zone-one", lambda d: d["deployment_zones"].pop(), "deployment_zones"),
    ("zone-same-player", _set("deployment_zones[1].player", "red"),
     "deployment_zones[1].player"),
    ("zone-two-points", _set("deployment_zones[0].polygon", [[0, 0], [1, 1]]),
     "deployment_zones[0].polygon"),
    ("zone-bow-tie", _set("deployment_zones[0].polygon", [[0, 0], [9, 9], [9, 0], [0, 9]]),
     "deployment_zones[0].polygon"),
    ("zone-off-table", _set("deployment_zones[1].polygon[2]", [60, 90]),
     "deployment_zones[1].polygon[2]"),
    ("zone-nan", _set("deployment_zones[0].polygon[0][0]", float("nan")),
     "deployment_zones[0].polygon"),
    ("zone-many-points", _set("deployment_zones[0].polygon", [[0, 0]] * 300),
     "deployment_zones[0].polygon"),
    ("first-turn-unknown", _set("first_turn", "green"), "first_turn"),
    ("deploys-first-roll-off", _set("deploys_first", "roll-off"), "deploys_first"),
    ("layout-unknown", _set("layout", "nowhere"), "layout"),
    ("layout-and-terrain", _set("terrain", {"areas": [], "terrain": []}), "terrain"),
    ("objective-twice", _set("objectives[1].name", "centre"), "objectives[1].name"),
    ("objective-off-table", _set("objectives[0].x", 61.0), "objectives[0]"),
    ("primary-no-rules", _set("primary.rules", []), "primary.rules"),
    ("rule-condition", _set("primary.rules[0].condition", "win"), "primary.rules[0].condition"),
    ("rule-vp-negative", _set("primary.rules[0].vp", -1), "primary.rules[0].vp"),
    ("rule-vp-text", _set("primary.rules[0].vp", "4"), "primary.rules[0].vp"),
    ("rule-vp-huge", _set("primary.rules[0].vp", 10**12), "primary.rules[0].vp"),
    ("rule-when", _set("primary.rules[0].when", "dawn"), "primary.rules[0].when"),
    ("rule-after-battle", _set("primary.rules[0].from_round", 6),
     "primary.rules[0].from_round"),
    ("rule-until-before-from", _set("primary.rules[0].until_round", 1), "primary.rules[0]"),
    ("rule-unknown-objective", _set("secondaries[2].objectives", ["nowhere"]),
     "secondaries[2].objectives[0]"),
    ("rule-objectives-wrong-condition", _set("primary.rules[1].objectives", ["centre"]),
     "primary.rules[1]"),
    ("rule-destroyed-in-command", _set("secondaries[1].when", "command_phase"),
     "secondaries[1]"),
    ("action-missing", lambda d: d["secondaries"][3].pop("action"), "secondaries[3]"),
    ("action-phase", _set("secondaries[3].action.starts", "deployment"),
     "secondaries[3].action.starts"),
    ("action-on-other-rule", _set("secondaries[0].action", {"name": "x", "starts": "fight"}),
     "secondaries[0]"),
    ("too-many-secondaries", lambda d: d.__setitem__("secondaries", d["secondaries"] * 6),
     "secondaries"),
    ("unknown-key", _set("deployment", "dawn"), "deployment"),
    ("cap-float", _set("primary.cap", 1.5), "primary.cap"),
    ("rule-name-twice", _set("secondaries[0].name", "hold"), "secondaries[0].name"),
]


@pytest.mark.parametrize(("case", "edit", "field"), BAD, ids=[c for c, _, _ in BAD])
def test_each_invalid_field_is_refused_naming_the_file_and_the_field(
        tmp_path: Path, case: str, edit: Any, field: str) -> None:
    data = full()
    edit(data)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data, allow_nan=True), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_mission(path)
    assert str(path) in str(err.value) and field in str(err.value), str(err.value)


def test_a_zone_rule_needs_deployment_zones(tmp_path: Path) -> None:
    data = full()
    del data["deployment_zones"], data["deploys_first"], data["first_turn"]
    with pytest.raises(DataError, match=r"primary\.rules\[2\]\.condition"):
        load_mission(write(tmp_path, data))


def test_an_unknown_mission_name_lists_the_shipped_ones() -> None:
    with pytest.raises(DataError, match=r"--mission.*take-and-hold"):
        resolve_mission("no-such-mission")


# -- setting up --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SHIPPED)
def test_each_army_is_set_up_wholly_within_its_zone_clear_of_terrain(name: str) -> None:
    m = shipped_mission(name)
    pos = validate_position(mission_position(*default_armies(), m), name)
    zones = {z["player"]: Polygon(z["polygon"]) for z in m["deployment_zones"]}
    walls = shapely.union_all([Polygon(f["footprint"]) for f in pos["terrain"]["terrain"]])
    assert pos["objectives"] == m["objectives"]
    for u in pos["units"]:
        for md in u["models"]:
            r = md["profile"]["base_mm"] / 25.4 / 2
            base = Point(md["x"], md["y"]).buffer(r)
            assert zones[u["player"]].buffer(1e-6).contains(base), (u["id"], md["x"], md["y"])
            assert not walls.intersects(base), (u["id"], md["x"], md["y"])


def test_a_pre_battle_mission_position_carries_each_units_points() -> None:
    # The pre-battle sequence (docs/positions.md pre_battle) reads 20.01's points from it.
    import dataclasses

    red, blue = default_armies()
    red = dataclasses.replace(red, units=tuple(
        dataclasses.replace(u, points=100 + i) for i, u in enumerate(red.units)))
    pos = validate_position(mission_position(red, blue, shipped_mission("front-lines"),
                                             pre_battle=True), "front-lines")
    reds = [u["id"] for u in pos["units"] if u["player"] == "red"]
    assert pos["pre_battle"]["points"] == {reds[0]: 100, reds[1]: 101}
    plain = mission_position(*default_armies(), shipped_mission("front-lines"))
    assert "pre_battle" not in plain


def test_take_and_hold_sets_up_the_default_position() -> None:
    from w40k.io.battle_setup import default_position

    pos = mission_position(*default_armies(), shipped_mission("take-and-hold"))
    default = default_position()
    assert pos["units"] == default["units"]
    assert pos["terrain"] == default["terrain"]
    assert pos["battlefield"] == default["battlefield"]


def test_an_army_that_does_not_fit_its_zone_is_refused() -> None:
    m = full()
    m["deployment_zones"][0]["polygon"] = [[0, 0], [3, 0], [3, 3], [0, 3]]
    with pytest.raises(DataError, match="does not fit wholly within red's deployment zone"):
        mission_position(*default_armies(), m)


# -- save / load / replay on a mission ------------------------------------------------------------
def _play(game: Game, stop: int | None = None) -> Game:
    agents = {p.name: RandomAgent(7 + i) for i, p in enumerate(game.state.players)}
    n = 0
    while (req := game.pending()) is not None and (stop is None or n < stop):
        game.submit(agents[req.player].choose(game, req))
        n += 1
    return game


@pytest.mark.parametrize("name", ["corner-clash", "flank-assault"])
def test_a_game_on_a_mission_saves_and_loads_and_continues_identically(name: str) -> None:
    m = dict(shipped_mission(name), rounds=2)
    pos = validate_position(mission_position(*default_armies(), m), name)
    whole = _play(Game.new(pos, 5))
    half = _play(Game.new(pos, 5), stop=6)
    saved = json.loads(json.dumps(half.save()))
    validate_position(saved, "saved")
    resumed = Game.load(saved)
    # the same choices as the uninterrupted game from here on
    rest = whole.state.choices[len(half.state.choices):]
    for choice in rest:
        assert resumed.pending() is not None
        resumed.submit(choice)
    assert resumed.pending() is None
    assert resumed.state.events == whole.state.events
    assert Game.replay(json.loads(json.dumps(whole.record()))).state.events == whole.state.events


def test_setting_up_on_a_huge_blocked_zone_is_refused_quickly() -> None:
    # Hostile: a 240" table whose red zone is covered by one feature; the search tries at most
    # about MAX_SPOTS spots per unit before refusing.
    import time

    wall = [[0, 0], [240, 0], [240, 100], [0, 100]]
    m = {"name": "huge", "battlefield": {"width": 240.0, "depth": 240.0},
         "terrain": {"areas": [], "terrain": [{"name": "block", "category": "dense",
                                               "footprint": wall, "height": 5.0}]},
         "deployment_zones": [{"player": "red", "polygon": wall},
                              {"player": "blue",
                               "polygon": [[0, 140], [240, 140], [240, 240], [0, 240]]}]}
    start = time.perf_counter()
    with pytest.raises(DataError, match="does not fit"):
        mission_position(*default_armies(), m)
    assert time.perf_counter() - start < 20
