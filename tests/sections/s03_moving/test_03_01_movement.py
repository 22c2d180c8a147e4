"""03.01 moving, 13.06 terrain and movement, 17.01, 21.03, 24.35, 09.07: validate_move."""

from __future__ import annotations

import json
from typing import Any

from w40k.agents.greedy import GreedyAgent
from w40k.agents.random_agent import RandomAgent
from w40k.engine import geo
from w40k.engine.game import Game
from w40k.geometry import MoveType, Step, mm, scene_from_dict, validate_move
from w40k.geometry.movement import ending_violations
from w40k.geometry.scene import Scene
from w40k.io.battle_setup import default_position

R32 = mm(16)


def model(
    x: float, y: float, z: float = 0.0, base: Any = 32, height: float = 1.6
) -> dict[str, Any]:
    return {"x": x, "y": y, "z": z, "base_mm": base, "height": height}


def make(
    movers: list[dict[str, Any]],
    keywords: list[str],
    others: list[dict[str, Any]] | None = None,
    terrain: list[dict[str, Any]] | None = None,
    abilities: list[str] | None = None,
) -> Scene:
    units = [
        {
            "name": "U",
            "player": "A",
            "keywords": keywords,
            "abilities": abilities or [],
            "models": [dict(m, name=f"M{i + 1}") for i, m in enumerate(movers)],
        }
    ]
    units += others or []
    return scene_from_dict(
        {"battlefield": {"width": 60, "depth": 44}, "terrain": terrain or [], "units": units}
    )


def enemy(name: str, *models: dict[str, Any], keywords: list[str] | None = None) -> dict[str, Any]:
    return {
        "name": name,
        "player": "B",
        "keywords": keywords or ["INFANTRY"],
        "models": list(models),
    }


def box(
    name: str,
    category: str,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    height: float,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "name": name,
        "category": category,
        "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        "height": height,
        **extra,
    }


def rules(violations: list[Any]) -> set[str]:
    return {v.rule for v in violations}


def test_segments_of_3_and_3_inches_fit_a_6_inch_move_but_3_and_3_2_do_not() -> None:
    # R03.01-a
    s = make([model(10, 10)], ["INFANTRY"])
    assert validate_move(s, "U", {"M1": [Step(13, 10), Step(13, 13)]}, MoveType.NORMAL, 6) == []
    bad = validate_move(s, "U", {"M1": [Step(13, 10), Step(13, 13.2)]}, MoveType.NORMAL, 6)
    assert rules(bad) == {"R03.01-a"} and bad[0].model == "M1"


def test_rotating_is_free() -> None:
    # R03.01-b: 6" straight, rotate, 6" straight, rotate with M 12"
    s = make([model(10, 10, base=[60, 35])], ["INFANTRY"])
    path = [Step(16, 10, facing=1.57), Step(16, 16, facing=3.0)]
    assert validate_move(s, "U", {"M1": path}, MoveType.NORMAL, 12) == []


def test_moving_through_a_friendly_model_is_fine_but_ending_on_it_is_not() -> None:
    # R03.01-c
    friend = {"name": "F", "player": "A", "keywords": ["INFANTRY"], "models": [model(13, 10)]}
    s = make([model(10, 10)], ["INFANTRY"], [friend])
    assert validate_move(s, "U", {"M1": [Step(16, 10)]}, MoveType.NORMAL, 6) == []
    assert "R03.01-c" in rules(validate_move(s, "U", {"M1": [Step(13.5, 10)]}, MoveType.NORMAL, 6))


def test_an_infantry_path_through_an_enemy_base_is_illegal_but_a_monster_normal_move_is_fine() -> (
    None
):
    # R03.01-d, R17.01-a
    s = make([model(10, 10)], ["INFANTRY"], [enemy("E", model(13, 10))])
    assert "R03.01-d" in rules(validate_move(s, "U", {"M1": [Step(16, 10)]}, MoveType.NORMAL, 6))
    s = make([model(10, 10, base=60)], ["MONSTER"], [enemy("E", model(13, 10))])
    assert validate_move(s, "U", {"M1": [Step(17, 10)]}, MoveType.NORMAL, 7) == []


def test_a_monster_cannot_pass_through_an_enemy_vehicle_nor_charge_through_infantry() -> None:
    # R17.01-a
    s = make(
        [model(10, 10, base=60)],
        ["MONSTER"],
        [enemy("Tank", model(13, 10, base=60), keywords=["VEHICLE"])],
    )
    assert "R17.01-a" in rules(validate_move(s, "U", {"M1": [Step(17, 10)]}, MoveType.NORMAL, 7))
    s = make([model(10, 10, base=60)], ["MONSTER"], [enemy("E", model(13, 10))])
    assert "R17.01-a" in rules(
        validate_move(s, "U", {"M1": [Step(16, 10)]}, MoveType.CHARGE, 7, must_end_unengaged=False)
    )


def test_a_1_inch_gap_lets_a_25mm_base_through_but_not_a_32mm_base() -> None:
    # R03.01-e: enemy bases 1.00" apart edge to edge
    gap = 1.0
    e = enemy("E", model(15, 10 - gap / 2 - R32), model(15, 10 + gap / 2 + R32))
    s25 = make([model(10, 10, base=25)], ["INFANTRY"], [e])
    s32 = make([model(10, 10, base=32)], ["INFANTRY"], [e])
    far = [Step(10, 10.0), Step(19.5, 10)]
    assert validate_move(s25, "U", {"M1": far}, MoveType.ADVANCE, 10) == []
    assert "R03.01-d" in rules(validate_move(s32, "U", {"M1": far}, MoveType.ADVANCE, 10))


def test_a_base_pushed_past_the_battlefield_edge_is_illegal() -> None:
    # R03.01-f
    s = make([model(5, 5)], ["INFANTRY"])
    assert "R03.01-f" in rules(
        validate_move(s, "U", {"M1": [Step(R32 - 0.1, 5)]}, MoveType.NORMAL, 6)
    )


def test_moving_only_some_models_is_legal_when_the_unit_stays_coherent() -> None:
    # R03.01-g
    s = make([model(10, 10 + 1.5 * i) for i in range(5)], ["INFANTRY"])
    moves = {"M1": [Step(10.5, 10)], "M2": [Step(10.5, 11.5)]}
    assert validate_move(s, "U", moves, MoveType.NORMAL, 6) == []


def test_a_move_leaving_a_model_out_of_coherency_is_rejected() -> None:
    # R03.01-h, R03.03-d
    s = make([model(10, 10 + 1.5 * i) for i in range(5)], ["INFANTRY"])
    v = validate_move(s, "U", {"M5": [Step(13, 16)]}, MoveType.NORMAL, 6)
    assert "R03.03-d" in rules(v)


def test_a_model_ending_half_inside_a_ruin_wall_is_rejected() -> None:
    # R03.01-i, R13.06-g
    wall = box("Ruin wall", "dense", 14, 0, 14.4, 20, 5.0)
    s = make([model(10, 10)], ["INFANTRY"], terrain=[wall])
    assert "R13.06-g" in rules(validate_move(s, "U", {"M1": [Step(14.2, 10)]}, MoveType.NORMAL, 6))
    assert validate_move(s, "U", {"M1": [Step(15.5, 10)]}, MoveType.NORMAL, 6) == []


def test_a_vehicle_crosses_a_barricade_and_a_low_dense_section_but_not_a_tall_one() -> None:
    # R13.06-a, R13.06-c
    for cat, h, ok in (("light", 3.0, True), ("dense", 1.5, True), ("dense", 2.5, False)):
        s = make([model(10, 10, base=60)], ["VEHICLE"], terrain=[box("X", cat, 13, 0, 13.4, 20, h)])
        v = validate_move(s, "U", {"M1": [Step(16, 10)]}, MoveType.NORMAL, 8)
        assert (v == []) is ok, (cat, h, v)
        if not ok:
            assert rules(v) == {"R13.06-c"}


def test_infantry_and_mobile_models_move_horizontally_through_dense_walls() -> None:
    # R13.06-b
    wall = box("Ruin wall", "dense", 13, 0, 13.4, 20, 5.0)
    for kw in (["INFANTRY"], ["VEHICLE", "MOBILE"]):
        s = make([model(10, 10)], kw, terrain=[wall])
        assert validate_move(s, "U", {"M1": [Step(16, 10)]}, MoveType.NORMAL, 6) == []


def test_climbing_counts_up_and_down_and_must_stay_near_the_feature() -> None:
    # R13.06-d: 1" + 3" up + 1" = 5" legal with M 6; up 3 and down 3 with 1" is 7" > 6"
    ruin = box("Ruin", "dense", 11.5, 5, 16, 15, 3.0)
    s = make([model(10, 10)], ["INFANTRY"], terrain=[ruin])
    up = [Step(11.0, 10), Step(11.0, 10, z=3.0), Step(12.5, 10)]
    assert validate_move(s, "U", {"M1": up}, MoveType.NORMAL, 6) == []
    updown = [Step(11.0, 10), Step(11.0, 10, z=3.0), Step(11.0, 10, z=0.0)]
    assert "R03.01-a" in rules(validate_move(s, "U", {"M1": updown}, MoveType.NORMAL, 6))
    away = [Step(5, 10, z=2.0)]
    assert "R13.06-d" in rules(validate_move(s, "U", {"M1": away}, MoveType.NORMAL, 12))


def test_infantry_may_end_on_a_stable_floor_but_not_overhanging_it() -> None:
    # R13.06-e
    ruin = box("Ruin", "dense", 11.5, 5, 16, 15, 3.0)
    s = make([model(10, 10)], ["INFANTRY"], terrain=[ruin])
    over = [Step(11.0, 10), Step(11.0, 10, z=3.0), Step(11.5 + R32 - mm(2), 10)]
    assert "R13.06-e" in rules(validate_move(s, "U", {"M1": over}, MoveType.NORMAL, 6))


def test_a_vehicle_cannot_end_on_a_light_features_upper_deck() -> None:
    # R13.06-e: wrong keywords
    deck = box("Deck", "light", 11.5, 5, 16, 15, 1.0)
    s = make([model(10, 10, base=60)], ["VEHICLE"], terrain=[deck])
    path = [Step(10.5, 10), Step(10.5, 10, z=1.0), Step(13.5, 10)]
    assert "R13.06-e" in rules(validate_move(s, "U", {"M1": path}, MoveType.NORMAL, 8))


def test_a_monster_cannot_end_on_top_of_a_dense_feature_but_can_on_a_light_one() -> None:
    # R13.06-f (reading: MONSTER only on exposed/light upper surfaces)
    for cat, ok in (("dense", False), ("light", True)):
        s = make(
            [model(10, 10, base=50)], ["MONSTER"], terrain=[box("Top", cat, 11.5, 5, 16, 15, 1.5)]
        )
        path = [Step(10.5, 10), Step(10.5, 10, z=1.5), Step(13.5, 10)]
        v = validate_move(s, "U", {"M1": path}, MoveType.NORMAL, 8)
        assert ("R13.06-f" in rules(v)) is (not ok), v


def test_taking_to_the_skies_costs_2_inches_ignores_climbing_and_passes_tanks_and_walls() -> None:
    # R21.03-a, R21.03-b
    wall = box("Ruin wall", "dense", 13, 0, 13.4, 20, 5.0)
    tank = enemy("Tank", model(16, 10, base=60), keywords=["VEHICLE"])
    s = make([model(10, 10, base=60)], ["VEHICLE", "FLY"], [tank], terrain=[wall])
    path = [Step(21, 10)]
    assert validate_move(s, "U", {"M1": path}, MoveType.ADVANCE, 13, take_to_skies=True) == []
    assert "R03.01-a" in rules(
        validate_move(s, "U", {"M1": path}, MoveType.ADVANCE, 12, take_to_skies=True)
    )


def test_hover_does_not_lose_2_inches_when_taking_to_the_skies() -> None:
    # R21.03-c, R24.17-a
    s = make([model(10, 10, base=60)], ["VEHICLE", "FLY"], abilities=["Hover"])
    assert (
        validate_move(s, "U", {"M1": [Step(26, 10)]}, MoveType.ADVANCE, 16, take_to_skies=True)
        == []
    )


def test_a_super_heavy_walker_crosses_a_3_9_inch_wall_but_not_a_4_1_inch_one() -> None:
    # R24.35-a
    for h, ok in ((3.9, True), (4.1, False)):
        s = make(
            [model(10, 10, base=100)],
            ["VEHICLE", "TITANIC"],
            terrain=[box("W", "dense", 14, 0, 14.4, 20, h)],
            abilities=["Super-heavy Walker"],
        )
        v = validate_move(s, "U", {"M1": [Step(19, 10)]}, MoveType.NORMAL, 10)
        assert (v == []) is ok, v
        if not ok:
            assert rules(v) == {"R24.35-a"}


def test_a_super_heavy_walker_with_mobile_passes_a_6_inch_ruin() -> None:
    # R24.35-b
    s = make(
        [model(10, 10, base=100)],
        ["VEHICLE"],
        terrain=[box("W", "dense", 14, 0, 14.4, 20, 6.0)],
        abilities=["Super-heavy Walker"],
    )
    assert (
        validate_move(s, "U", {"M1": [Step(19, 10)]}, MoveType.NORMAL, 10, super_heavy_mobile=True)
        == []
    )


def test_desperate_escape_passes_enemy_models_but_ordered_retreat_does_not() -> None:
    # R09.07-c, R09.07-d
    e = enemy("E", model(11.5, 10))
    s = make([model(10, 10, base=60)], ["VEHICLE"], [e])
    path = [Step(16, 10)]
    assert validate_move(s, "U", {"M1": path}, MoveType.DESPERATE_ESCAPE, 6) == []
    assert "R17.01-a" in rules(validate_move(s, "U", {"M1": path}, MoveType.FALL_BACK, 6))


def test_a_normal_move_must_end_unengaged() -> None:
    # 09.05 after moving (uses R03.04-a geometry)
    s = make([model(10, 10)], ["INFANTRY"], [enemy("E", model(16, 10))])
    assert "R09.05-a" in rules(validate_move(s, "U", {"M1": [Step(13, 10)]}, MoveType.NORMAL, 6))


def test_a_model_cannot_end_inside_low_exposed_crates_but_may_climb_onto_them() -> None:
    # R03.01-i (reading: only features no taller than 1/2" are floors at ground level), R13.06-e
    crates = box("Crates", "exposed", 28, 17, 32, 18.5, 1.5)
    s = make([model(30, 14)], ["INFANTRY"], terrain=[crates])
    inside = validate_move(s, "U", {"M1": [Step(30, 17.75)]}, MoveType.NORMAL, 6)
    assert rules(inside) == {"R03.01-i"} and "Crates" in inside[0].message
    # Its base half over the crates' edge: partway through them too.
    half = validate_move(s, "U", {"M1": [Step(30, 17.0)]}, MoveType.NORMAL, 6)
    assert rules(half) == {"R03.01-i"}
    # Touching the crates is not partway through them.
    assert validate_move(s, "U", {"M1": [Step(30, 17 - R32)]}, MoveType.NORMAL, 6) == []
    # Climbing onto them (1.5" up, counted) and standing wholly on top is legal.
    climb = [Step(30, 16.5), Step(30, 16.5, z=1.5), Step(30, 17.75)]
    assert validate_move(s, "U", {"M1": climb}, MoveType.NORMAL, 6) == []


def test_a_vehicle_may_cross_crates_but_neither_end_inside_them_nor_on_top() -> None:
    # R13.06-a (crossing exposed), R03.01-i (not inside), R13.06-e (not on top: keywords)
    crates = box("Crates", "exposed", 28, 17, 32, 18.5, 1.5)
    s = make([model(30, 14, base=60)], ["VEHICLE"], terrain=[crates])
    assert validate_move(s, "U", {"M1": [Step(30, 22)]}, MoveType.NORMAL, 10) == []
    assert rules(validate_move(s, "U", {"M1": [Step(30, 18)]}, MoveType.NORMAL, 10)) == {
        "R03.01-i"
    }
    up = [Step(30, 15.7), Step(30, 15.7, z=1.5), Step(30, 17.75)]
    assert "R13.06-e" in rules(validate_move(s, "U", {"M1": up}, MoveType.NORMAL, 10))


def test_craters_and_other_floors_no_taller_than_half_an_inch_can_be_stood_in() -> None:
    # R03.01-i reading: a 0.3" crater is ground level; a 0.6" one is solid
    for h, ok in ((0.3, True), (0.5, True), (0.6, False)):
        crater = box("Crater", "exposed", 12, 8, 16, 12, h)
        s = make([model(10, 10)], ["INFANTRY"], terrain=[crater])
        v = validate_move(s, "U", {"M1": [Step(14, 10)]}, MoveType.NORMAL, 6)
        assert (v == []) is ok, (h, v)


def test_a_model_may_end_on_a_listed_floor_inside_a_taller_ruin_but_not_between_floors() -> None:
    # R03.01-i: a ruin 6" tall with a floor at 3"; standing on the floor is not partway
    # through the ruin, standing at 2" inside it is (no surface there).
    ruin = box(
        "Ruin",
        "light",
        11.5,
        5,
        16,
        15,
        6.0,
        surfaces=[{"footprint": [[11.5, 5], [16, 5], [16, 15], [11.5, 15]], "height": 3.0}],
    )
    s = make([model(10, 10)], ["INFANTRY"], terrain=[ruin])
    up = [Step(11.0, 10), Step(11.0, 10, z=3.0), Step(12.5, 10)]
    assert validate_move(s, "U", {"M1": up}, MoveType.NORMAL, 6) == []
    mid = [Step(11.0, 10), Step(11.0, 10, z=2.0), Step(12.5, 10)]
    assert "R03.01-i" in rules(validate_move(s, "U", {"M1": mid}, MoveType.NORMAL, 6))


def crowded_centre(seed: int) -> dict[str, Any]:
    """The default table with both armies (5 models a unit) set up around the crates in the
    middle, 2 battle rounds: moves, charges, pile-ins and consolidations happen next to the
    1.5"-tall crates from the first turn."""
    pos: dict[str, Any] = json.loads(json.dumps(default_position()))
    for u in pos["units"]:
        u["models"] = u["models"][:5]
        red = u["id"].startswith("red")
        cx = sum(m["x"] for m in u["models"]) / len(u["models"])
        shift = 0 if red else (-4 if "more" in u["id"] else 4)
        for m in u["models"]:
            m["x"] += 30 - cx + shift
            m["y"] += 10 if red else -22
    pos["mission"] = {**pos["mission"], "rounds": 2}
    return pos


def test_no_model_ends_a_move_in_a_feature_it_cannot_stand_in_over_20_seeded_games() -> None:
    # R03.01-i, R13.06-g, R13.06-e: after every decision of 20 seeded games (greedy against
    # greedy or random) played around the crates, every living model stands where a move may
    # end. Before the fix every one of these games put a model inside the crates.
    moved = charged = 0
    for seed in range(20):
        game = Game.new(crowded_centre(seed), seed)
        _, terrain = geo.terrain(game)
        agents = {
            p.name: (GreedyAgent if i == 0 or seed % 2 else RandomAgent)(seed * 31 + i)
            for i, p in enumerate(game.state.players)
        }
        decisions = 0
        while (req := game.pending()) is not None:
            game.submit(agents[req.player].choose(game, req))
            decisions += 1
            for u in game.state.units:
                for m in u.alive:
                    bad = ending_violations(terrain, geo.model_shape(m))
                    assert not bad, (seed, decisions, m.id, m.x, m.y, m.z, bad)
        events = [e["event"] for e in game.state.events]
        moved += events.count("move")
        charged += events.count("charge_move")
    assert moved > 20 and charged > 0, (moved, charged)
