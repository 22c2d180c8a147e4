"""The Shooting phase in the engine (10, 04.01/04.02 via rules.select, 13.08/13.09, 17.03,
24.16, 24.26): eligibility, declarations refused with their rule IDs, attacks that remove
models, and the bookkeeping flags."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.engine.shooting_helpers import (
    BOLTGUN,
    CHOPPA,
    DEATH_RAY,
    PISTOL,
    finish,
    model,
    position,
    row,
    select,
    start,
    unit,
    wall,
    weapon,
)
from w40k.agents.random_agent import RandomAgent
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.io.battle_setup import default_position


def _shooters(game: Game) -> list[Any]:
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_shoot"
    return list(req.options)


def _refused(game: Game, answer: Any, rule: str) -> None:
    game.pending()
    before = game.save()
    with pytest.raises(IllegalChoice) as err:
        game.submit(answer)
    assert err.value.rule == rule
    assert game.save() == before


def test_r10_02_eligible_units_are_offered_with_done_and_done_ends_the_phase() -> None:
    g = start(position(unit("red.a", row("red.a", 2, 10, 10, BOLTGUN)),
                       unit("red.b", row("red.b", 2, 20, 10, BOLTGUN)),
                       unit("blue.x", row("blue.x", 2, 10, 25, BOLTGUN))))
    assert _shooters(g) == ["red.a", "red.b", "done"]
    g.submit("done")  # R10.02-b: shooting is optional
    assert g.pending() is None
    assert not g.state.unit("red.a").flag("shot")


def test_r10_02_a_unit_shoots_at_most_once_per_phase() -> None:
    g = start(position(unit("red.a", row("red.a", 2, 10, 10, BOLTGUN)),
                       unit("red.b", row("red.b", 2, 40, 10, BOLTGUN)),
                       unit("blue.x", row("blue.x", 2, 10, 25, BOLTGUN))))
    select(g, "red.a")
    g.submit({})  # no weapon selected: no attacks (R04.02-e)
    assert _shooters(g) == ["red.b", "done"]
    _refused(g, "red.a", "R10.02-a")
    u = g.state.unit("red.a")
    assert u.flag("selected_to_shoot") and u.flag("shot")
    assert not u.flag("ranged_attacks_this_turn")  # R13.09-a bookkeeping: no ranged attacks


def test_r10_02_a_a_unit_that_fell_back_is_not_eligible() -> None:
    g = start(position(unit("red.a", row("red.a", 2, 10, 10, BOLTGUN), flags={"fell_back": True}),
                       unit("red.b", row("red.b", 2, 30, 10, BOLTGUN)),
                       unit("blue.x", row("blue.x", 2, 10, 25, BOLTGUN))))
    assert _shooters(g) == ["red.b", "done"]


def test_r10_04_a_r10_05_a_an_advanced_unit_uses_assault_shooting_with_assault_weapons() -> None:
    rifle = weapon("bolt rifle", abilities=("ASSAULT",))
    heavy = weapon("heavy bolter", abilities=("HEAVY",), S=5)
    g = start(position(
        unit("red.a", [model("red.a.1", 10, 10, rifle, heavy)], flags={"advanced": True}),
        unit("red.b", row("red.b", 1, 30, 10, BOLTGUN), flags={"advanced": True}),
        unit("blue.x", row("blue.x", 2, 10, 25, BOLTGUN))))
    # R10.04-a: no normal shooting after advancing; red.b has no [ASSAULT] weapon.
    assert _shooters(g) == ["red.a", "done"]
    select(g, "red.a")
    req = g.pending()
    assert req is not None and req.kind == "declare_shooting"
    assert req.context["type"] == "assault"  # the only eligible type is not asked
    assert req.context["targets"] == {"red.a.1": {"bolt rifle": ["blue.x"], "heavy bolter": []}}
    _refused(g, {"red.a.1": {"heavy bolter": "blue.x"}}, "R10.05-a")
    g.submit({"red.a.1": {"bolt rifle": "blue.x"}})
    assert g.state.frames[-1].kind == "attack"


def test_r10_06_a_an_engaged_unit_with_only_boltguns_cannot_shoot_one_with_pistols_can() -> None:
    g = start(position(
        unit("red.a", row("red.a", 1, 10, 10, BOLTGUN)),
        unit("red.b", row("red.b", 1, 30, 10, PISTOL, BOLTGUN)),
        unit("blue.x", row("blue.x", 1, 10, 11.5, BOLTGUN)),
        unit("blue.y", row("blue.y", 1, 30, 11.5, BOLTGUN)),
        unit("blue.z", row("blue.z", 1, 36, 11.5, BOLTGUN))))
    assert _shooters(g) == ["red.b", "done"]  # R17.03-c / R10.04-a: engaged, no normal
    select(g, "red.b")
    req = g.pending()
    assert req is not None and req.context["type"] == "close_quarters"
    # R10.06-b: only [PISTOL] weapons, only at units engaged with the unit.
    assert req.context["targets"] == {"red.b.1": {"bolt pistol": ["blue.y"], "boltgun": []}}
    _refused(g, {"red.b.1": {"bolt pistol": "blue.z"}}, "R10.06-b")
    _refused(g, {"red.b.1": {"boltgun": "blue.y"}}, "R10.06-b")
    g.submit({"red.b.1": {"bolt pistol": "blue.y"}})
    ctx = g.state.frames[-1].data["context"]
    assert ctx["attacker_engaged_with_target"] is True  # type: ignore[index]


def test_r04_02_a_a_target_out_of_range_of_the_weapon_is_refused_per_model() -> None:
    # M1 is 23" from the target's closest model, M2 25" (boltgun 24").
    r = 0.63  # 32 mm base radius
    g = start(position(
        unit("red.a", [model("red.a.1", 10, 10 - 23 - 2 * r + 30, BOLTGUN),
                       model("red.a.2", 14, 10 - 25 - 2 * r + 30, BOLTGUN)]),
        unit("blue.x", [model("blue.x.1", 10, 40, BOLTGUN), model("blue.x.2", 14, 40, BOLTGUN)])))
    select(g, "red.a")
    req = g.pending()
    assert req is not None
    assert req.context["targets"] == {"red.a.1": {"boltgun": ["blue.x"]},
                                      "red.a.2": {"boltgun": []}}
    _refused(g, {"red.a.1": {"boltgun": "blue.x"}, "red.a.2": {"boltgun": "blue.x"}},
             "R04.02-a")
    g.submit({"red.a.1": {"boltgun": "blue.x"}})


def test_r06_01_f_a_target_not_visible_to_the_model_is_refused() -> None:
    g = start(position(unit("red.a", row("red.a", 1, 10, 10, BOLTGUN)),
                       unit("blue.x", row("blue.x", 1, 10, 20, BOLTGUN)),
                       unit("blue.y", row("blue.y", 1, 20, 20, BOLTGUN)),
                       terrain=wall(7, 14, 13, 15)))
    select(g, "red.a")
    req = g.pending()
    assert req is not None
    assert req.context["targets"] == {"red.a.1": {"boltgun": ["blue.y"]}}
    _refused(g, {"red.a.1": {"boltgun": "blue.x"}}, "R06.01-f")


def test_r04_02_a_an_engaged_target_is_refused_but_an_engaged_vehicle_is_allowed_r17_03() -> None:
    launcher = weapon("frag missile", abilities=("BLAST",))
    g = start(position(
        unit("red.a", [model("red.a.1", 30, 10, BOLTGUN, launcher)]),
        unit("red.b", row("red.b", 1, 10, 25, CHOPPA)),
        unit("red.c", row("red.c", 1, 40, 25, CHOPPA)),
        unit("blue.x", row("blue.x", 1, 10, 26.5, BOLTGUN)),
        unit("blue.tank", [model("blue.tank.1", 40, 27.5, BOLTGUN, keywords=("VEHICLE",),
                                 T=10, Sv=3, W=12, base_mm=60)])))
    select(g, "red.a")
    _refused(g, {"red.a.1": {"boltgun": "blue.x"}}, "R04.02-a")
    _refused(g, {"red.a.1": {"frag missile": "blue.tank"}}, "R17.03-b")  # RF-3
    g.submit({"red.a.1": {"boltgun": "blue.tank"}})
    ctx = g.state.frames[-1].data["context"]
    assert ctx["target_engaged"] is True  # type: ignore[index]  # R17.03-a: -1 to hit


def test_an_attack_removes_models_and_marks_the_unit() -> None:
    g = start(position(unit("red.a", row("red.a", 1, 10, 10, DEATH_RAY)),
                       unit("blue.x", row("blue.x", 5, 10, 25, BOLTGUN))))
    select(g, "red.a")
    assert g.state.active == "red"
    g.submit({"red.a.1": {"death ray": "blue.x"}})
    finish(g)
    assert g.state.unit("blue.x").destroyed
    u = g.state.unit("red.a")
    assert u.flag("shot") and u.flag("selected_to_shoot")
    assert u.flag("ranged_attacks_this_turn")  # R13.09-a: the unit no longer hides
    events = [e["event"] for e in g.state.events]
    assert "declare_shooting" in events and "attack" in events
    assert events.count("destroyed") == 5


def test_rf_1_a_unit_without_ranged_weapons_is_selected_and_makes_no_attacks() -> None:
    g = start(position(unit("red.a", row("red.a", 2, 10, 10, CHOPPA)),
                       unit("blue.x", row("blue.x", 2, 10, 25, BOLTGUN))))
    assert _shooters(g) == ["red.a", "done"]
    select(g, "red.a")
    assert g.pending() is None  # no declaration to make (R04-b)
    u = g.state.unit("red.a")
    assert u.flag("shot") and not u.flag("ranged_attacks_this_turn")


@pytest.mark.parametrize(("max_move", "flags", "heavy"), [
    (3.0, {}, True), (3.1, {}, False), (0.0, {"set_up_this_turn": True}, False)])
def test_r24_16_a_heavy_needs_no_model_moved_more_than_3_and_not_set_up(
        max_move: float, flags: dict[str, bool], heavy: bool) -> None:
    hb = weapon("heavy bolter", abilities=("HEAVY",))
    g = start(position(unit("red.a", row("red.a", 1, 10, 10, hb), max_move=max_move,
                            flags=flags),
                       unit("blue.x", row("blue.x", 1, 10, 25, BOLTGUN))))
    select(g, "red.a")
    g.submit({"red.a.1": {"heavy bolter": "blue.x"}})
    ctx = g.state.frames[-1].data["context"]
    assert ctx["remained_stationary"] is heavy  # type: ignore[index]


def test_r04_03_a_the_first_declared_target_resolves_first() -> None:
    g = start(position(unit("red.a", row("red.a", 2, 10, 10, BOLTGUN)),
                       unit("blue.x", row("blue.x", 1, 10, 25, BOLTGUN)),
                       unit("blue.y", row("blue.y", 1, 20, 25, BOLTGUN))))
    select(g, "red.a")
    g.submit({"red.a.2": {"boltgun": "blue.y"}, "red.a.1": {"boltgun": "blue.x"}})
    assert [f.data["target"] for f in g.state.frames[-2:]] == ["blue.x", "blue.y"]


def test_r24_26_a_one_shot_is_recorded_and_cannot_fire_again() -> None:
    missile = weapon("hunter-killer", abilities=("ONE SHOT",))
    g = start(position(unit("red.a", [model("red.a.1", 10, 10, missile)]),
                       unit("red.b", [model("red.b.1", 20, 10, missile,
                                            one_shots_used=("hunter-killer",))]),
                       unit("blue.x", row("blue.x", 1, 10, 25, BOLTGUN))))
    select(g, "red.a")
    g.submit({"red.a.1": {"hunter-killer": "blue.x"}})
    assert g.state.unit("red.a").models[0].one_shots_used == ["hunter-killer"]
    finish(g)
    g2 = start(position(unit("red.b", [model("red.b.1", 20, 10, missile, BOLTGUN,
                                             one_shots_used=("hunter-killer",))]),
                        unit("blue.x", row("blue.x", 1, 10, 25, BOLTGUN))))
    select(g2, "red.b")
    _refused(g2, {"red.b.1": {"hunter-killer": "blue.x"}}, "R24.26-a")


def test_r10_07_a_indirect_fire_targets_an_unseen_unit_and_other_weapons_fire_normally() -> None:
    mortar = weapon("mortar", range=48, abilities=("INDIRECT FIRE", "BLAST"))
    g = start(position(unit("red.a", [model("red.a.1", 10, 10, mortar, BOLTGUN)]),
                       unit("blue.x", row("blue.x", 1, 10, 20, BOLTGUN)),
                       unit("blue.y", row("blue.y", 1, 20, 20, BOLTGUN)),
                       terrain=wall(7, 14, 13, 15)))
    select(g, "red.a")
    req = g.pending()
    assert req is not None and req.kind == "shooting_type"
    assert set(req.options) == {"normal", "indirect"}
    g.submit("indirect")
    g.submit({"red.a.1": {"mortar": "blue.x", "boltgun": "blue.y"}})
    first, second = g.state.frames[-1].data, g.state.frames[-2].data
    assert first["target"] == "blue.x" and first["context"]["indirect"] is True  # type: ignore[index]
    assert second["target"] == "blue.y" and second["context"]["indirect"] is False  # type: ignore[index]


def test_r13_08_infantry_in_a_terrain_area_has_the_benefit_of_cover() -> None:
    terrain = {"areas": [{"name": "woods", "footprint": [[5, 22], [15, 22], [15, 28], [5, 28]]}],
               "terrain": [{"name": "trees", "category": "light", "area": "woods",
                            "footprint": [[13, 26], [14, 26], [14, 27], [13, 27]],
                            "height": 3.0}]}
    g = start(position(unit("red.a", row("red.a", 1, 10, 10, BOLTGUN)),
                       unit("blue.x", row("blue.x", 2, 8, 24, BOLTGUN)), terrain=terrain))
    select(g, "red.a")
    g.submit({"red.a.1": {"boltgun": "blue.x"}})
    assert g.state.frames[-1].data["context"]["cover"] is True  # type: ignore[index]


def test_a_malformed_declaration_is_refused_as_malformed() -> None:
    g = start(position(unit("red.a", row("red.a", 1, 10, 10, BOLTGUN)),
                       unit("blue.x", row("blue.x", 1, 10, 25, BOLTGUN))))
    select(g, "red.a")
    g.pending()
    before = g.save()
    for bad in (["red.a.1"], {"red.a.1": "blue.x"}, {"red.a.1": {"boltgun": 3}}):
        with pytest.raises(MalformedChoice):
            g.submit(bad)  # type: ignore[arg-type]
    assert g.save() == before
    _refused(g, {"red.a.9": {"boltgun": "blue.x"}}, "R04.01-a")


def test_the_proposer_declares_legally_and_a_random_game_finishes() -> None:
    g = start(position(unit("red.a", [model("red.a.1", 10, 10, PISTOL, BOLTGUN),
                                      model("red.a.2", 12, 10, PISTOL, BOLTGUN)]),
                       unit("blue.x", row("blue.x", 2, 10, 25, BOLTGUN))))
    select(g, "red.a")
    req = g.pending()
    assert req is not None

    for seed in range(5):
        clone = g.clone()
        clone.submit(sample(clone, req, random.Random(seed)))
    t = time.time()
    game = Game.new(default_position(), seed=3)
    agents = {"red": RandomAgent(1), "blue": RandomAgent(2)}
    while (r := game.pending()) is not None:
        game.submit(agents[r.player].choose(game, r))
    assert game.state.ended
    assert time.time() - t < 15
    replay = Game.replay(game.record())
    assert replay.state.events == game.state.events
