"""The heuristic player before the battle (agents/heuristic_deploy.py) on the shipped real
battle's pre-battle sequence (``real_battle_position(pre_battle=True)``: strike_force against
waaagh_band on flank-assault): legal answers, deterministic per seed and varying with it, the
deep strikers and the AIRCRAFT in reserves, the army files' passengers embarked, shooters
wholly within their zone nearer cover and with more open lanes than the engine's random
placement, Scouts moving toward their objective, and the first-turn choice."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from functools import cache
from typing import cast

import pytest

from tests.engine.test_pre_battle import small
from w40k.agents import HeuristicAgent
from w40k.agents import heuristic_deploy as hd
from w40k.agents.heuristic_eval import Estimates
from w40k.agents.heuristic_plan import plan
from w40k.engine import geo, offtable
from w40k.engine.game import Game
from w40k.engine.phases.deployment import DeploymentFrame, zone_of
from w40k.engine.phases.deployment_propose import _checker, _zone_anchors
from w40k.engine.serial import JSON
from w40k.geometry.measure import shape_region_distance
from w40k.io.battle_setup import real_battle_position
from w40k.rules.placement import first_legal
from w40k.rules.setup import unit_wholly_in_zone

Point = tuple[float, float]


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def _centre(places: list[list[float]]) -> Point:
    return _mean([p[0] for p in places]), _mean([p[1] for p in places])


class Run:
    """One pre-battle sequence played by two heuristic players (strict: their own errors
    raise), up to battle round 1."""

    def __init__(self, seed: int) -> None:
        self.game = Game.new(real_battle_position(pre_battle=True), seed)
        agents = {p.name: HeuristicAgent(seed * 2 + i, strict=True)
                  for i, p in enumerate(self.game.state.players)}
        self.answers: list[str] = []
        self.shooters: list[tuple[str, Point, list[Point]]] = []
        """(unit, the heuristic's centre, the engine's random placements' centres)."""
        self.scouts: list[tuple[str, float, float]] = []
        """(unit, distance to its planned goal before, after the scout move)."""
        g = self.game
        while (req := g.pending()) is not None and g.state.round == 0:
            answer = agents[req.player].choose(g, req)
            self.answers.append(json.dumps([req.kind, answer], sort_keys=True))
            if req.kind == "deploy":
                self._compare(answer)
            scouting = None
            if req.kind == "scout" and isinstance(answer, dict) and "positions" in answer:
                uid = str(answer["unit"])
                goal = plan(g.state, req.player, random.Random(0))[uid].point
                c = geo_centre(g, uid)
                scouting = (uid, goal, math.dist(c, goal))
            g.submit(answer)  # refuses an illegal answer (IllegalChoice)
            if scouting is not None:
                g.pending()  # the frame applies the move as it runs on
                uid, goal, before = scouting
                self.scouts.append((uid, before, math.dist(geo_centre(g, uid), goal)))

    def _compare(self, answer: JSON) -> None:
        """For a shooter, the engine's random placements of the same unit now (the
        proposer's anchors and check, three draws)."""
        s = self.game.state
        a = cast(dict[str, JSON], answer)
        u = s.any_unit(str(a["unit"]))
        enemies = [e for e in (*s.units, *s.off_table) if e.player != u.player]
        if hd.role(u, enemies, Estimates(s)) != "shooter":
            return
        ctx = self.game.ctx
        models = [geo.model_shape(m) for m in u.alive]
        randoms = []
        for k in range(3):
            anchors = _zone_anchors(zone_of(s, u.player), offtable.battlefield(s),
                                    random.Random(k))
            placed = first_legal(models, anchors, _checker(ctx, u))
            assert placed is not None
            randoms.append((_mean([p.x for p in placed]), _mean([p.y for p in placed])))
        places = cast(dict[str, list[float]], a["models"])
        self.shooters.append((u.id, _centre(list(places.values())), randoms))


def geo_centre(game: Game, uid: str) -> Point:
    u = game.state.any_unit(uid)
    return _mean([m.x for m in u.alive]), _mean([m.y for m in u.alive])


@cache
def run(seed: int) -> Run:
    return Run(seed)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_heuristic_plays_the_real_pre_battle_sequence_legally(seed: int) -> None:
    # Every answer was accepted by submit (R20.01-a, R18.01-a, R23.01-a, R03.02-a,
    # R24.20-a, R24.31-a, R24.32-a refuse illegal ones), and the battle begins.
    r = run(seed)
    s = r.game.state
    kinds = {json.loads(a)[0] for a in r.answers}
    assert {"declare_formations", "deploy", "scout"} <= kinds
    assert s.round == 1
    assert not [u for u in s.off_table if u.location == offtable.UNDEPLOYED]
    # Infiltrators deploy forward, outside their zone, more than 8" from the enemy's zone
    # (R24.20-a; the engine checked the enemy units too)
    forward = {str(e["unit"]): e for e in s.events if e["event"] == "deploy"
               and e["infiltrators"]}
    assert set(forward) == {"red.infiltrator-squad", "blue.kommandos"}
    for uid, e in forward.items():
        u = s.any_unit(uid)
        opp = offtable.opponent_zone(s, u.player)
        assert opp is not None
        places = cast(dict[str, list[float]], e["models"])
        for m in u.models:
            shape = geo.model_shape(m, places[m.id][0], places[m.id][1])
            assert shape_region_distance(shape.footprint(), opp) > 8.0, m.id


def test_the_heuristic_pre_battle_is_deterministic_per_seed_and_varies_with_it() -> None:
    assert Run(1).answers == run(1).answers
    assert run(1).answers != run(2).answers


def test_deep_strikers_and_aircraft_go_to_reserves_and_the_army_files_passengers_embark(
        ) -> None:
    s = run(1).game.state
    formations = {str(e["player"]): e for e in s.events if e["event"] == "battle_formations"}
    red, blue = formations["red"], formations["blue"]
    # Deep Strike units (24.09) and the AIRCRAFT (R23.01-a) in strategic reserves
    assert {"red.terminator-squad", "red.stormtalon-gunship"} <= set(
        cast(list[str], red["reserves"]))
    assert "blue.stormboyz" in cast(list[str], blue["reserves"])
    # the army files' `embarked_in` (R18.01-a: the whole unit fits)
    assert red["embarked"] == {"red.second-squad": "red.rhino"}
    assert blue["embarked"] == {"blue.trukk-boyz": "blue.trukk"}
    assert s.any_unit("red.second-squad").embarked_in == "red.rhino"


def test_without_the_army_files_choices_it_loads_an_empty_transport_itself() -> None:
    # small(): each side a transport (room for 3), a 2-model squad with Scouts (red) or
    # Infiltrators (blue), a plain 2-model squad and a Deep Strike squad; no army file.
    game = Game.new(small(), 3)
    agent = HeuristicAgent(1, strict=True)
    for player in ("blue", "red"):  # blue deploys first
        req = game.pending()
        assert req is not None and req.kind == "declare_formations" and req.player == player
        answer = cast(dict[str, JSON], agent.choose(game, req))
        assert answer["reserves"] == [f"{player}.ds"]  # Deep Strike (24.09)
        # the plain squad rides; the Scouts / Infiltrators squad keeps its ability
        assert answer["embarked"] == {f"{player}.res": f"{player}.rhino"}  # R18.01-a
        game.submit(answer)


@pytest.mark.parametrize("seed", [1, 2])
def test_shooters_deploy_in_their_zone_nearer_cover_with_more_lanes_than_random(
        seed: int) -> None:
    r = run(seed)
    s = r.game.state
    assert len(r.shooters) >= 2  # red's Intercessors, Scouts and Dreadnought
    deployed = {str(e["unit"]): e for e in s.events if e["event"] == "deploy"}
    for uid, (x, y), _ in r.shooters:
        u = s.any_unit(uid)
        places = cast(dict[str, list[float]], deployed[uid]["models"])
        shapes = [geo.model_shape(m, places[m.id][0], places[m.id][1]) for m in u.models]
        assert unit_wholly_in_zone(shapes, zone_of(s, u.player))  # R03.02-a
        assert hd.cover_distance(s, (x, y)) <= 3.0
        assert hd.open_lanes(s, (x, y)) >= 4  # of 5 objectives and the centre
    mine_cover = _mean([hd.cover_distance(s, c) for _, c, _ in r.shooters])
    mine_lanes = _mean([hd.open_lanes(s, c) for _, c, _ in r.shooters])
    rand = [c for _, _, cs in r.shooters for c in cs]
    assert mine_cover < _mean([hd.cover_distance(s, c) for c in rand])
    assert mine_lanes >= _mean([hd.open_lanes(s, c) for c in rand])


@pytest.mark.parametrize("seed", [1, 2])
def test_a_scout_move_goes_toward_the_units_planned_objective(seed: int) -> None:
    # 24.31 / R24.32-a: the move ended more than 8" from enemies (submit accepted it)
    r = run(seed)
    assert r.scouts
    for uid, before, after in r.scouts:
        assert after < before, uid


def _to_first_turn(*, unarmed_red: bool, seed: int) -> tuple[Game, str]:
    """small() with the roll-off's winner choosing (R07.02-a), played by heuristic players
    up to the ``first_turn`` request; red's models lose their guns when ``unarmed_red``."""
    pos = small()
    cast(dict[str, JSON], pos["mission"])["first_turn"] = "roll-off-choice"
    game = Game.new(pos, seed)
    agents = {p.name: HeuristicAgent(seed + i, strict=True)
              for i, p in enumerate(game.state.players)}
    while (req := game.pending()) is not None and req.kind != "first_turn":
        game.submit(agents[req.player].choose(game, req))
    assert req is not None
    if unarmed_red:
        for u in [*game.state.units, *game.state.off_table]:
            if u.player == "red":
                for m in u.models:
                    m.weapons = tuple(w for w in m.weapons if w.is_melee)
    return game, cast(str, HeuristicAgent(0, strict=True).choose(game, req))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_roll_off_winner_takes_the_first_turn_unless_outgunned_with_reserves(
        seed: int) -> None:
    game, choice = _to_first_turn(unarmed_red=False, seed=seed)
    winner = game.ctx.need(DeploymentFrame).roll_winner
    assert choice == winner  # equal armies: take the first turn
    game, choice = _to_first_turn(unarmed_red=True, seed=seed)
    # red has no guns and units in reserve: red goes second; blue takes the first turn
    assert any(u.player == "red" and u.location == offtable.RESERVES
               for u in game.state.off_table)
    assert choice == "blue"


def test_placements_keep_each_models_own_facing() -> None:
    # A deploy answer gives positions only: the heuristic checks an oval hull as it will
    # stand, so the Rhino's placement is legal as given (R03.02-a).
    r = run(1)
    rhino = cast(list[list[float]], json.loads(next(
        a for a in r.answers if '"red.rhino"' in a and json.loads(a)[0] == "deploy"))[1][
        "models"]["red.rhino.1"])
    u = r.game.state.any_unit("red.rhino")
    shape = replace(geo.model_shape(u.models[0]), x=rhino[0], y=rhino[1])
    assert unit_wholly_in_zone([shape], zone_of(r.game.state, "red"))


def _lane_position(blue_guns: bool) -> dict[str, JSON]:
    """Red's zone the top 12" strip with a dense wall across it at y 9.5-10 (x 20-40), an
    objective in the middle; blue (deploying first) has one unit, with a 36" gun or unarmed;
    red one unarmed 5-model unit (melee)."""
    from tests.engine.deploy_helpers import pre_battle, squad

    gun: dict[str, JSON] = {"name": "cannon", "range": 36, "A": "3", "skill": 3, "S": 6,
                            "AP": -1, "D": "2", "abilities": []}
    blue = squad("blue.guns", "blue", 3)
    if blue_guns:
        for m in cast(list[dict[str, JSON]], blue["models"]):
            m["weapons"] = [gun]
    pos = pre_battle(blue, squad("red.brawlers", "red", 5), deploys_first="blue")
    pos["terrain"] = {"areas": [], "terrain": [
        {"name": "wall", "category": "dense", "area": None, "height": 5.0,
         "footprint": [[20.0, 9.5], [40.0, 9.5], [40.0, 10.0], [20.0, 10.0]]}]}
    pos["objectives"] = [{"name": "middle", "x": 30.0, "y": 22.0}]
    return pos


@pytest.mark.parametrize("seed", [1, 2])
def test_a_melee_unit_deploying_second_keeps_out_of_an_enemy_shooters_lane(seed: int) -> None:
    placed = {}
    for guns in (True, False):
        game = Game.new(_lane_position(guns), seed)
        answers = {"declare_formations": {"reserves": [], "embarked": {}},
                   "deploy": {"unit": "blue.guns", "models": {
                       "blue.guns.1": [28.0, 36.0], "blue.guns.2": [30.0, 36.0],
                       "blue.guns.3": [32.0, 36.0]}}}
        agent = HeuristicAgent(seed, strict=True)
        while ((req := game.pending()) is not None and req.kind != "deploy") or (
                req is not None and req.player == "blue"):
            assert req is not None
            game.submit(answers[str(req.kind)] if req.player == "blue" or
                        req.kind == "declare_formations" else agent.choose(game, req))
        assert req is not None and req.player == "red"
        answer = cast(dict[str, JSON], agent.choose(game, req))
        game.submit(answer)  # legal (R03.02-a)
        places = cast(dict[str, list[float]], answer["models"])
        placed[guns] = _centre(list(places.values()))
        ys = [p[1] for p in places.values()]
        if guns:  # behind the wall: no clear lane from the gun
            assert max(ys) < 9.5
            assert not hd.clear_lane(game.state, (30.0, 36.0), placed[guns])
        else:  # nothing to hide from: in front of the wall, nearer the objective
            assert min(ys) > 10.0
    assert placed[False][1] > placed[True][1]


def test_a_lone_character_deploys_beside_its_bodyguard() -> None:
    # A CHARACTER that is not attached (19.01) deploys after red's squad, next to it.
    from tests.engine.deploy_helpers import pre_battle, squad
    from w40k.agents.heuristic_eval import unit_gap

    pos = pre_battle(squad("blue.a", "blue", 3), squad("blue.b", "blue", 3),
                     squad("red.squad", "red", 5),
                     squad("red.hero", "red", 1, keywords=("INFANTRY", "CHARACTER")),
                     deploys_first="blue")
    pos["objectives"] = [{"name": "middle", "x": 30.0, "y": 22.0}]
    game = Game.new(pos, 1)
    agents = {p: HeuristicAgent(3, strict=True) for p in ("red", "blue")}
    order = []
    while (req := game.pending()) is not None and game.state.round == 0:
        answer = agents[req.player].choose(game, req)
        if req.kind == "deploy" and req.player == "red":
            order.append(cast(dict[str, JSON], answer)["unit"])
        game.submit(answer)
    s = game.state
    assert order == ["red.squad", "red.hero"]
    assert unit_gap(s.unit("red.hero"), s.unit("red.squad")) <= 2.0
