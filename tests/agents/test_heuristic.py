"""The heuristic player: legal answers through whole battles, determinism per seed, targets
by exact expected kills, charges by their exact probability, objectives taken."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import marker, position
from w40k.agents import HeuristicAgent, RandomAgent
from w40k.agents.heuristic_eval import on_objective, outcome, p_charge, target_states
from w40k.core.profiles import WeaponProfile
from w40k.engine.game import Game
from w40k.engine.requests import K, Request, request
from w40k.engine.serial import JSON
from w40k.io.battle_setup import default_position
from w40k.rules.attack_profile import AttackContext, WeaponEntry

Agent = HeuristicAgent | RandomAgent


def _play(game: Game, agents: dict[str, Agent], *, until_round: int | None = None
          ) -> list[JSON]:
    """Answer every request (``submit`` refuses an illegal answer); returns the choices."""
    while (req := game.pending()) is not None:
        if until_round is not None and game.state.round >= until_round:
            break
        game.submit(agents[req.player].choose(game, req), player=req.player,
                    request_id=req.id)
    return list(game.state.choices)


# -- whole battles -------------------------------------------------------------------------
@pytest.mark.parametrize(("seed", "red", "blue"), [(1, "heuristic", "heuristic"),
                                                    (2, "random", "heuristic")])
def test_the_heuristic_player_answers_every_request_of_a_whole_battle_legally(
        seed: int, red: str, blue: str) -> None:
    # The default position has terrain (ruins, woods, crates) and five objectives. strict:
    # the agent raises instead of falling back to a safe answer, so every answer is its own.
    make = {"heuristic": lambda s: HeuristicAgent(s, strict=True), "random": RandomAgent}
    game = Game.new(default_position(), seed)
    _play(game, {"red": make[red](seed * 2 + 1), "blue": make[blue](seed * 2 + 2)})
    events = game.state.events
    assert events[-1]["event"] == "battle_end"
    assert any(e["event"] == "attack" for e in events)
    assert any(e["event"] == "score" for e in events)
    again = Game.replay(game.record())
    assert json.dumps(again.state.events) == json.dumps(events)


def _first_round(agent_seeds: tuple[int, int], game_seed: int = 5) -> list[JSON]:
    game = Game.new(default_position(), game_seed)
    agents: dict[str, Agent] = {"red": HeuristicAgent(agent_seeds[0], strict=True),
                                "blue": HeuristicAgent(agent_seeds[1], strict=True)}
    return _play(game, agents, until_round=2)


def test_the_heuristic_player_is_deterministic_for_a_seed_and_varies_with_it() -> None:
    first = _first_round((1, 2))
    assert first == _first_round((1, 2))
    assert first != _first_round((3, 4))


def test_an_unknown_request_kind_gets_the_default_or_decline_never_an_error() -> None:
    game = Game.new(default_position(), 1)
    agent = HeuristicAgent(1)
    reaction = request("red", K.REACTION, "15.01", "use a stratagem?",
                       ("decline", ["Command Re-roll", 0]), default="decline")
    assert agent.choose(game, reaction) == "decline"
    no_default = request("red", K.REACTION, "15.01", "use a stratagem?",
                         (["Command Re-roll", 0], "decline"))
    assert agent.choose(game, no_default) == "decline"


# -- shooting: the target with the most expected kills ----------------------------------------
def test_the_shooter_picks_the_target_with_the_most_expected_kills() -> None:
    # Two five-model targets at the same distance, the same value per model: blue.b has no
    # save worth having (Sv 6+) and blue.a has 2+ armour. The id order would pick blue.a.
    bolt = sh.weapon("bolter", A="2", skill=3, S=4, AP=0, D="1")
    pos = sh.position(
        sh.unit("red.squad", sh.row("red.squad", 5, 20.0, 10.0, bolt)),
        sh.unit("blue.a", sh.row("blue.a", 5, 14.0, 20.0, Sv=2)),
        sh.unit("blue.b", sh.row("blue.b", 5, 26.0, 20.0, Sv=6)),
    )
    game = sh.start(pos)
    a, b = game.state.unit("blue.a"), game.state.unit("blue.b")
    w = WeaponProfile.from_json(bolt)
    kills = {u.id: outcome((WeaponEntry(w, 5),), u, AttackContext()).kills for u in (a, b)}
    assert kills["blue.b"] > 2 * kills["blue.a"]  # the situation is what the test says
    agent = HeuristicAgent(1, strict=True)
    req = game.pending()
    assert req is not None and req.kind == K.SELECT_UNIT_TO_SHOOT
    game.submit(agent.choose(game, req))
    req = game.pending()
    assert req is not None and req.kind == K.DECLARE_SHOOTING
    answer: Any = agent.choose(game, req)
    assert {answer[m]["bolter"] for m in answer} == {"blue.b"}
    assert len(answer) == 5
    game.submit(answer)  # and the game accepts it


def test_the_expected_kills_come_from_the_exact_distribution_and_ignore_positions() -> None:
    # The math layer's caches key on the target's profiles and wounds, not where it stands.
    bolt = sh.weapon("bolter", A="2", skill=3, S=4, AP=0, D="1")
    game = sh.start(sh.position(sh.unit("blue.a", sh.row("blue.a", 2, 10.0, 10.0)),
                                sh.unit("blue.b", sh.row("blue.b", 2, 40.0, 30.0))))
    a, b = game.state.unit("blue.a"), game.state.unit("blue.b")
    assert target_states(a) == target_states(b)
    # 2 attacks, hit 3+ (2/3), wound T3 with S4 on 3+ (2/3), Sv 6+ fails 5/6 of the time:
    # each attack kills a W1 model with 10/27; two models cannot both die from one attack.
    w = WeaponProfile.from_json(bolt)
    assert outcome((WeaponEntry(w, 1),), a).kills == pytest.approx(2 * 10 / 27)


# -- charges: by the exact probability ---------------------------------------------------------
def test_the_exact_charge_probability_is_two_d6_reaching_the_distance() -> None:
    # R11.04-a: the target must be within the roll (no engagement range subtracted);
    # R11.01-a: a roll of 2 never succeeds.
    assert p_charge(2.5) == pytest.approx(35 / 36)
    assert p_charge(7.0) == pytest.approx(21 / 36)
    assert p_charge(7.2) == pytest.approx(15 / 36)
    assert p_charge(11.5) == pytest.approx(1 / 36)
    assert p_charge(1.0) == pytest.approx(35 / 36)


def _charge_position(gap: float) -> Game:
    choppa = {**sh.CHOPPA}
    boyz = [sh.model(f"red.boyz.{i + 1}", 10.0 + i * 1.5, 10.0, choppa, T=5, Sv=6)
            for i in range(10)]
    # one model with no melee weapon, its base edge ``gap``" from the nearest Boy's
    edge = 32.0 / 25.4
    target = [sh.model("blue.lone.1", 10.0, 10.0 + edge + gap, sh.BOLTGUN)]
    pos = position([sh.unit("red.boyz", boyz), sh.unit("blue.lone", target)],
                   round=1, turn_player="red", phase="charge")
    return Game.new(pos, 1)


@pytest.mark.parametrize(("gap", "answer"), [(11.5, "done"), (3.0, "red.boyz")])
def test_a_charge_is_declared_when_near_certain_and_declined_when_unlikely(
        gap: float, answer: str) -> None:
    # R11.04-a: 11.5" needs a 12 (1 in 36); 3" fails only on a double 1.
    game = _charge_position(gap)
    req = request("red", K.SELECT_UNIT_TO_CHARGE, "R11.02-a", "charge?", ("red.boyz", "done"))
    assert HeuristicAgent(1, strict=True).choose(game, req) == answer


# -- movement: onto an uncontested objective -----------------------------------------------------
def test_a_unit_moves_onto_an_uncontested_objective_and_controls_it() -> None:
    squad = sh.row("red.squad", 3, 18.0, 8.0, sh.BOLTGUN)
    far = [sh.model("blue.far.1", 55.0, 40.0, sh.BOLTGUN)]
    pos = position([sh.unit("red.squad", squad), sh.unit("blue.far", far)],
                   objectives=[marker("mid", 20.0, 15.0)])
    game = Game.new(pos, 3)
    agents: dict[str, Agent] = {"red": HeuristicAgent(1, strict=True),
                                "blue": HeuristicAgent(2, strict=True)}
    # Round 1, red's turn: the objective is 7" from the squad's centre, nobody is in range
    # to shoot, so it advances onto it (a normal move when it is within its Move).
    while not any(e["event"] == "move" for e in game.state.events) \
            or game.state.phase == "movement":
        req = game.pending()
        assert req is not None
        game.submit(agents[req.player].choose(game, req))
    move = next(e for e in game.state.events if e["event"] == "move")
    assert move["unit"] == "red.squad" and move["move_type"] in ("normal", "advance")
    obj = game.state.objectives[0]
    assert obj.controller == "red"  # 14.02, evaluated at the end of the Movement phase
    assert on_objective(game.state.unit("red.squad"), (obj.x, obj.y))


# -- the attack sequence ----------------------------------------------------------------------
def test_select_model_gives_the_attack_to_the_wounded_model_then_never_the_character() -> None:
    # 05.04 / 06.02: which model takes the next attack is the controlling player's choice.
    # Three models all within 2" of each other: no loss splits the unit.
    ms = [sh.model("blue.squad.1", 30.0, 30.0, W=2), sh.model("blue.squad.2", 31.5, 30.0, W=2),
          sh.model("blue.squad.3", 30.75, 31.3, W=4, keywords=("INFANTRY", "CHARACTER"))]
    ms[1]["wounds_lost"] = 1
    pos = sh.position(sh.unit("red.x", [sh.model("red.x.1", 5.0, 5.0)]),
                      sh.unit("blue.squad", ms))
    game = sh.start(pos)
    agent = HeuristicAgent(1, strict=True)
    ids = ("blue.squad.3", "blue.squad.1", "blue.squad.2")
    ctx: dict[str, JSON] = {"attacker": "red.x", "target": "blue.squad"}
    ask = request("blue", K.SELECT_MODEL, "R05.04-b", "which model?", ids, context=ctx)
    assert agent.choose(game, ask) == "blue.squad.2"
    ask = request("blue", K.SELECT_MODEL, "R05.04-b", "which model?", ids[:2], context=ctx)
    assert agent.choose(game, ask) == "blue.squad.1"
    # Inside an attack the options are indices and the labels name the models.
    ask = request("blue", K.SELECT_MODEL, "R05.04-b", "which model?", (0, 1), context=ctx,
                  labels=("blue.squad.3", "blue.squad.1"))
    assert agent.choose(game, ask) == 1


def test_select_model_takes_a_model_at_the_end_of_a_line_not_one_that_splits_the_unit() -> None:
    # 03.03 (R03.03-a/e): a unit split in two at the End of Turn loses models until it is
    # coherent again, so the loss is taken at an end of the line.
    ms = sh.row("blue.line", 4, 30.0, 30.0, W=1)
    game = sh.start(sh.position(sh.unit("red.x", [sh.model("red.x.1", 5.0, 5.0)]),
                                sh.unit("blue.line", ms)))
    ids = ("blue.line.2", "blue.line.3", "blue.line.1", "blue.line.4")
    ask = request("blue", K.SELECT_MODEL, "R05.04-b", "which model?", ids,
                  context={"attacker": "red.x", "target": "blue.line"})
    assert HeuristicAgent(1, strict=True).choose(game, ask) in ("blue.line.1", "blue.line.4")


def test_removal_for_coherency_rejoins_the_unit_with_the_fewest_removals() -> None:
    # R03.03-e: a lone character 6" from a three-model line: removing it makes the unit
    # coherent at once; removing the line's models would take three removals.
    ms = [*sh.row("blue.split", 3, 30.0, 30.0, W=2),
          sh.model("blue.split.9", 24.0, 30.0, W=5, keywords=("INFANTRY", "CHARACTER"))]
    game = sh.start(sh.position(sh.unit("red.x", [sh.model("red.x.1", 5.0, 5.0)]),
                                sh.unit("blue.split", ms)))
    ids = tuple(m["id"] for m in ms)
    ask = request("blue", K.REMOVE_FOR_COHERENCY, "R03.03-e", "remove?", ids)
    assert HeuristicAgent(1, strict=True).choose(game, ask) == "blue.split.9"


def test_allocation_order_puts_the_cheapest_group_first_and_the_character_last() -> None:
    # 05.03: the defender orders the allocation groups (among the legal orders listed).
    ms = [sh.model("blue.squad.1", 30.0, 30.0, W=4, keywords=("INFANTRY", "CHARACTER")),
          sh.model("blue.squad.2", 31.5, 30.0, W=1), sh.model("blue.squad.3", 33.0, 30.0, W=1)]
    game = sh.start(sh.position(sh.unit("red.x", [sh.model("red.x.1", 5.0, 5.0)]),
                                sh.unit("blue.squad", ms)))
    ask = dataclasses.replace(
        request("blue", K.ALLOCATION_ORDER, "R05.03-a", "order?", ([0, 1], [1, 0]),
                context={"attacker": "red.x", "target": "blue.squad"}, default=[0, 1]),
        groups=(("blue.squad.1",), ("blue.squad.2", "blue.squad.3")))
    assert HeuristicAgent(1, strict=True).choose(game, ask) == [1, 0]


# -- units off the table (issue 13: the heuristic player uses reserves and transports) --------
def _move_type_request(pos: dict[str, JSON], uid: str) -> tuple[Game, Request]:
    from tests.sections.s18_transports.test_18_20_23_offtable import until

    game = Game.new(pos, seed=1)
    req = until(game, "select_unit_to_move")
    game.submit(uid)
    req = game.pending()
    assert req is not None and req.kind == "move_type"
    return game, req


def test_the_heuristic_player_brings_a_reserve_unit_in_as_soon_as_it_may() -> None:
    # R20.03-a / R20.04-e: from round 2 the unit arrives (left in reserve it is destroyed)
    from tests.engine.movement_helpers import model, row, unit
    from tests.sections.s18_transports.test_18_20_23_offtable import BLUE, at_round, reserve

    squad = reserve(unit("red.res", "red", row("red.res", 3, x=0.0, y=0.0)))
    keep = unit("red.keep", "red", [model("red.keep.1", 2.0, 42.0)])
    game, req = _move_type_request(at_round(2, squad, keep, BLUE), "red.res")
    assert HeuristicAgent(1, strict=True).choose(game, req) == "ingress"


def test_the_heuristic_player_disembarks_near_the_enemy_and_stays_in_far_from_it() -> None:
    # 18.04: a disembark move is offered; the player gets out within 18" of an enemy unit
    from tests.engine.movement_helpers import row, unit
    from tests.sections.s18_transports.test_18_20_23_offtable import (
        BLUE,
        at_round,
        embarked,
        rhino,
    )

    for x, wanted in ((22.0, "disembark"), (2.0, "remain_embarked")):
        transport = rhino("red.rhino", "red", x, 22.0)  # BLUE stands at x = 28
        squad = embarked(unit("red.sq", "red", row("red.sq", 2, x=0.0, y=0.0)), "red.rhino")
        game, req = _move_type_request(at_round(1, transport, squad, BLUE), "red.sq")
        assert "disembark" in req.options
        assert HeuristicAgent(1, strict=True).choose(game, req) == wanted, x


def test_a_unit_the_heuristic_could_not_set_up_stays_embarked_for_the_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R03.02-b: a set-up answered "cancel" leaves the unit unselected; the player must not ask
    # for the same disembark again and again (it livelocked the 1000-point battle)
    from tests.engine.movement_helpers import row, unit
    from tests.sections.s18_transports.test_18_20_23_offtable import (
        BLUE,
        at_round,
        embarked,
        rhino,
    )
    from w40k.agents import heuristic

    transport = rhino("red.rhino", "red", 22.0, 22.0)
    squad = embarked(unit("red.sq", "red", row("red.sq", 2, x=0.0, y=0.0)), "red.rhino")
    game, req = _move_type_request(at_round(1, transport, squad, BLUE), "red.sq")
    agent = HeuristicAgent(1, strict=True)
    assert agent.choose(game, req) == "disembark"
    game.submit("disembark")
    set_up = game.pending()
    assert set_up is not None and set_up.kind == "set_up"
    monkeypatch.setattr(heuristic, "safe_answer", lambda g, r, rng: "cancel")
    assert agent.choose(game, set_up) == "cancel"
    game.submit("cancel")
    again = game.pending()
    assert again is not None and again.kind == "select_unit_to_move" and "red.sq" in again.options
    game.submit("red.sq")
    mt = game.pending()
    assert mt is not None and mt.kind == "move_type"
    assert agent.choose(game, mt) == "remain_embarked"
