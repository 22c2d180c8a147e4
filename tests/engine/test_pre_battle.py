"""The pre-battle sequence as a whole (issue 12): random players play small battles from a
pre-battle position with a transport, a reserve unit, a Deep Strike unit and (red) an
AIRCRAFT, with invariants checked after every decision; saves at every pre-battle decision
continue identically; a record replays; a hand-written position can start mid-deployment."""

from __future__ import annotations

import json
from typing import cast

import pytest

from tests.engine.deploy_helpers import pre_battle, squad, transport
from tests.engine.test_save_load_replay import check_from, play
from w40k.agents.random_agent import RandomAgent
from w40k.engine import offtable
from w40k.engine.game import Game
from w40k.engine.geo import model_shape as geo_model
from w40k.engine.serial import JSON
from w40k.engine.state import GameState
from w40k.io.position_model import validate_position
from w40k.rules.setup import gap
from w40k.rules.transport import spaces_needed

DS = ("Deep Strike",)
BOLTER: dict[str, JSON] = {"name": "boltgun", "range": 24, "A": "2", "skill": 3, "S": 4,
                           "AP": 0, "D": "1", "abilities": []}


def _armed(u: dict[str, JSON]) -> dict[str, JSON]:
    for m in cast(list[dict[str, JSON]], u["models"]):
        m["weapons"] = [BOLTER]
    return u


def small(rounds: int = 3, *, aircraft: bool = False) -> dict[str, JSON]:
    """Each side: a transport (room for 3), a 2-model squad, a reserve squad and a Deep
    Strike squad; red's squad has Scouts and blue's Infiltrators; with ``aircraft``, red has
    an AIRCRAFT too."""
    units: list[dict[str, JSON]] = []
    for p, extra in (("red", ('Scouts 6"',)), ("blue", ("Infiltrators",))):
        units += [transport(f"{p}.rhino", p, models=3),
                  _armed(squad(f"{p}.squad", p, 2, abilities=extra)),
                  _armed(squad(f"{p}.res", p, 2)),
                  _armed(squad(f"{p}.ds", p, 1, abilities=DS))]
    if aircraft:  # R23.01-a: an AIRCRAFT starts in strategic reserves
        units.append(_armed(squad("red.jet", "red", 1, keywords=("VEHICLE", "AIRCRAFT", "FLY"),
                                  M=20)))
    points = {u_id: 50 for u_id in (str(u["id"]) for u in units)}
    return pre_battle(*units, rounds=rounds, deploys_first="blue", first_turn="roll-off",
                      points_limit=500, points=points)


def _formation(player: str, embark: bool, aircraft: bool = False) -> JSON:
    reserves: list[JSON] = [f"{player}.res", f"{player}.ds"] + (["red.jet"] if aircraft
                                                                 and player == "red" else [])
    out: dict[str, JSON] = {"reserves": reserves, "embarked": {}}
    if embark:
        out["embarked"] = {f"{player}.squad": f"{player}.rhino"}
    return out


def check_invariants(s: GameState, reserved: set[str]) -> None:
    on = [u.id for u in s.units]
    off = [u.id for u in s.off_table]
    assert not set(on) & set(off), "a unit is both on and off the table"
    for e in s.events:  # R23.04-a: an AIRCRAFT declares no charge
        assert not (e["event"] == "declare_charge" and e.get("unit") == "red.jet")
    assert all(u.location == offtable.BATTLEFIELD for u in s.units)
    assert all(u.location != offtable.BATTLEFIELD for u in s.off_table)
    for t in [*s.units, *s.off_table]:
        cap = offtable.capacity_of(t)
        if cap is None:
            continue
        used = sum(spaces_needed(cap, offtable.model_keywords(p)) or 0
                   for p in offtable.passengers(s, t.id) if not p.destroyed)
        assert used <= cap.models, f"{t.id} carries {used} of {cap.models}"  # R18.01-a
    for u in s.off_table:
        if u.location == offtable.EMBARKED:
            assert u.embarked_in is not None and u.embarked_in != u.id
    if s.round >= 1:
        assert all(u.location != offtable.UNDEPLOYED for u in s.off_table)
        reserved |= {u.id for u in s.off_table if u.location == offtable.RESERVES}


def check_arrivals(game: Game, since: int) -> None:
    """R20.04-a / R24.09-a: every ingress since event ``since`` set the unit up more than 8"
    from every enemy model (enemies do not move in the arriving player's Movement phase)."""
    s = game.state
    for e in s.events[since:]:
        if e["event"] != "set_up" or e["kind"] != "ingress":
            continue
        u = s.any_unit(str(e["unit"]))
        for m in u.alive:
            for enemy in (x for x in s.units if x.player != u.player):
                for em in enemy.alive:
                    d = gap(geo_model(m), geo_model(em))
                    assert d > 8.0, f"{m.id} arrived {d:.2f}\" from {em.id}"


@pytest.mark.parametrize("seed", [1, 2, 4])  # 1: embarked, 2: destroyed in reserves, 4: infiltrates
def test_random_players_play_a_battle_from_a_pre_battle_position(seed: int) -> None:
    game = Game.new(small(aircraft=True), seed)
    agents = {p.name: RandomAgent(seed * 7 + i) for i, p in enumerate(game.state.players)}
    reserved: set[str] = set()
    kinds: set[str] = set()
    seen = 0
    while (req := game.pending()) is not None:
        check_arrivals(game, seen)
        seen = len(game.state.events)
        kinds.add(str(req.kind))
        if req.kind == "declare_formations":
            choice = _formation(req.player, embark=seed == 1, aircraft=True)
        else:
            choice = agents[req.player].choose(game, req)
        game.submit(choice)
        check_invariants(game.state, reserved)
    assert {"declare_formations", "deploy"} <= kinds
    s = game.state
    assert {"red.res", "red.ds", "red.jet", "blue.res", "blue.ds"} <= reserved
    for uid in reserved:  # R20.04-e: every reserve unit arrived or is destroyed
        u = s.any_unit(uid)
        assert u.flag("made_ingress") or u.destroyed, uid
    assert any(e["event"] == "destroyed_in_reserves" or e["event"] == "set_up"
               for e in s.events)


def test_a_pre_battle_game_saved_at_every_pre_battle_decision_continues_identically() -> None:
    seed = 5
    ref = play(small(rounds=1), seed)
    pre = [i for i, r in enumerate(ref.requests)
           if json.loads(r)["kind"] in ("declare_formations", "deploy", "scout")]
    assert len(pre) >= 6
    for i in pre:
        check_from(ref, i, seed)
    again = Game.replay(json.loads(ref.record))
    assert json.dumps(again.state.events) == ref.events


def test_a_position_can_start_mid_deployment() -> None:
    # A hand-written position: formations declared, blue's squad already deployed, red to
    # set up next (the deployment frame above the battle frame).
    pos = small(rounds=2)
    del pos["pre_battle"]
    for u in cast(list[dict[str, JSON]], pos["units"]):
        u["location"] = "undeployed"
        if u["id"] in ("red.res", "red.ds", "blue.res", "blue.ds"):
            u["location"] = "reserves"
        if u["id"] == "blue.squad":
            del u["location"]
            for i, m in enumerate(cast(list[dict[str, JSON]], u["models"])):
                m["x"], m["y"] = 10.0 + 1.5 * i, 40.0
    pos["frames"] = [{"kind": "battle", "data": {}},
                     {"kind": "deployment",
                      "data": {"step": "deploy", "declared": ["blue", "red"],
                               "next_player": "red"}}]
    validate_position(pos, "mid-deployment")
    game = Game.new(pos, seed=1)
    req = game.pending()
    assert req is not None and req.kind == "deploy" and req.player == "red"
    assert req.context["units"] == ["red.rhino", "red.squad"]
    assert [u.id for u in game.state.units] == ["blue.squad"]


@pytest.mark.parametrize("kind", ["random", "greedy", "heuristic"])
def test_each_player_answers_every_pre_battle_request(kind: str) -> None:
    # Every new free-form request has a proposer (engine/table.py PROPOSERS), so each player
    # reaches the first battle round; the answers are legal (submit would refuse them).
    from w40k.agents import GreedyAgent, HeuristicAgent, RandomAgent

    cls = {"random": RandomAgent, "greedy": GreedyAgent, "heuristic": HeuristicAgent}[kind]
    game = Game.new(small(), 3)
    agents = {p.name: cls(11 + i) for i, p in enumerate(game.state.players)}
    asked: set[str] = set()
    while (req := game.pending()) is not None and game.state.round == 0:
        asked.add(str(req.kind))
        game.submit(agents[req.player].choose(game, req))
    assert {"declare_formations", "deploy"} <= asked
    assert game.state.round == 1
    assert not [u for u in game.state.off_table if u.location == offtable.UNDEPLOYED]


@pytest.mark.parametrize("section", [{"points_limit": -1}, {"pointz": {}}, "yes",
                                     {"points": {"red.rhino": "ten"}}])
def test_a_malformed_pre_battle_section_is_refused_naming_it(section: JSON) -> None:
    from w40k.core.errors import DataError

    pos = small()
    pos["pre_battle"] = section
    with pytest.raises(DataError) as err:
        validate_position(pos, "p.json")
    assert "pre_battle" in str(err.value)
    if (isinstance(section, dict) and "pointz" in section) or section == "yes":
        with pytest.raises(DataError) as err:
            Game.new(pos, seed=1)
        assert "pre_battle" in str(err.value)


def test_the_random_player_deploys_the_real_armies() -> None:
    # The engine's deploy proposer on the shipped real battle: the Rhino (an oval hull) is
    # checked with its own facing, and the 21-model Boyz (a Warboss's 50 mm base among 32 mm
    # ones) are set up in packed rows within 9" of themselves (R03.03-b) when a block of
    # fives cannot be; every answer is legal (R03.02-a) and the battle begins.
    from w40k.io.battle_setup import real_battle_position

    game = Game.new(real_battle_position(pre_battle=True), 2)
    agents = {p.name: RandomAgent(4 + i) for i, p in enumerate(game.state.players)}
    while (req := game.pending()) is not None and game.state.round == 0:
        game.submit(agents[req.player].choose(game, req))
    assert game.state.round == 1
    assert not [u for u in game.state.off_table if u.location == offtable.UNDEPLOYED]
