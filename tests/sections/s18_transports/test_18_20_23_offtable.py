"""Units off the battlefield in a game: arriving from strategic reserves (20.04, 24.09),
embarking and disembarking (18.02, 18.04), units that never arrive (20.04) and AIRCRAFT
(23.02), with exact positions and scripted dice."""

from __future__ import annotations

import json
from typing import cast

import pytest

from tests.engine.core_helpers import events, scripted
from tests.engine.movement_helpers import model, position, row, unit
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.geometry import mm

R = mm(32) / 2
RHINO_CAP: dict[str, JSON] = {"models": 12}


def reserve(u: dict[str, JSON]) -> dict[str, JSON]:
    return {**u, "location": "reserves"}


def embarked(u: dict[str, JSON], transport: str) -> dict[str, JSON]:
    return {**u, "location": "embarked", "embarked_in": transport}


def rhino(uid: str, player: str, x: float, y: float) -> dict[str, JSON]:
    m = model(f"{uid}.1", x, y, M=12, base_mm=32.0, keywords=("VEHICLE", "TRANSPORT"))
    prof = cast(dict[str, JSON], m["profile"])
    prof.update(base_mm=[120.0, 70.0], transport=RHINO_CAP, T=9, W=10)
    return unit(uid, player, [m])


def at_round(n: int, *units: dict[str, JSON], rounds: int = 5) -> dict[str, JSON]:
    """A position whose next battle round is ``n`` (red first)."""
    pos = position(*units, rounds=rounds)
    pos["round"] = n - 1
    return pos


def until(game: Game, kind: str, answer=None) -> Request:
    """Answer every request with its first option (or ``answer``) until one of ``kind``."""
    while True:
        req = game.pending()
        assert req is not None, f"the battle ended before a {kind} request"
        if req.kind == kind:
            return req
        choice = answer(req) if answer else None
        if choice is None:
            choice = req.default if req.default is not None and req.accepts(req.default) \
                else (req.options[0] if req.options else "done")
        game.submit(choice)


def first_move(req: Request) -> JSON:
    """Remain stationary / stay where possible, so only the unit under test moves."""
    for o in ("remain_stationary", "remain_in_reserves", "remain_embarked", "done", "no"):
        if o in req.options:
            return o
    return None


BLUE = unit("blue.boyz", "blue", row("blue.boyz", 3, x=28.0, y=22.0))


def test_reserve_units_are_not_offered_in_round_1_but_are_in_round_2():
    # R20.03-a: ingress from the second battle round only.
    squad = reserve(unit("red.res", "red", row("red.res", 3, x=0.0, y=0.0)))
    keep = unit("red.keep", "red", [model("red.keep.1", 2.0, 42.0)])
    g1 = Game.new(at_round(1, squad, keep, BLUE), seed=1)
    req = until(g1, "select_unit_to_move")
    assert "red.res" not in req.options
    g2 = Game.new(at_round(2, squad, keep, BLUE), seed=1)
    req = until(g2, "select_unit_to_move")
    assert "red.res" in req.options
    g2.submit("red.res")
    req = g2.pending()
    assert req is not None and req.kind == "move_type"
    assert req.options == ("remain_in_reserves", "ingress")


def _arrive(pos: dict[str, JSON]) -> tuple[Game, Request]:
    game = Game.new(pos, seed=1)
    req = until(game, "select_unit_to_move")
    game.submit("red.res")
    game.submit("ingress")
    req = game.pending()
    assert req is not None and req.kind == "set_up"
    return game, req


def test_an_arrival_8_inches_from_an_enemy_is_refused_and_one_at_the_edge_is_set_up():
    # R20.04-a: wholly within 6" of an edge and more than 8" from every enemy unit.
    squad = reserve(unit("red.res", "red", row("red.res", 2, x=0.0, y=0.0)))
    enemy = unit("blue.boyz", "blue", [model("blue.boyz.1", 12.0, 40.0)])
    game, _ = _arrive(at_round(2, squad, enemy))
    close = {"red.res.1": [12.0 - 2 * R - 8.0, 40.0], "red.res.2": [12.0 - 2 * R - 9.5, 40.0]}
    before = json.dumps(game.save())
    with pytest.raises(IllegalChoice) as err:
        game.submit(close)
    assert err.value.rule == "R20.04-a"
    assert json.dumps(game.save()) == before  # refused: nothing changed
    inland = {"red.res.1": [30.0, 30.0], "red.res.2": [31.5, 30.0]}
    with pytest.raises(IllegalChoice) as err:
        game.submit(inland)
    assert err.value.rule == "R20.04-a"  # not within 6" of an edge
    game.submit({"red.res.1": [1.0, 40.0], "red.res.2": [2.5, 40.0]})
    game.pending()
    u = game.state.unit("red.res")
    assert [(m.x, m.y) for m in u.alive] == [(1.0, 40.0), (2.5, 40.0)]
    assert u.flag("set_up_this_turn") and u.flag("made_ingress")
    assert not game.state.off_table
    assert events(game, "set_up")[0]["kind"] == "ingress"


def test_deep_strike_arrives_anywhere_more_than_8_inches_away():
    # R24.09-a: every model has Deep Strike: the middle of the table is allowed.
    squad = reserve(unit("red.res", "red", row("red.res", 2, x=0.0, y=0.0,
                                                 abilities=("Deep Strike",))))
    enemy = unit("blue.boyz", "blue", [model("blue.boyz.1", 50.0, 40.0)])
    game, req = _arrive(at_round(2, squad, enemy))
    assert req.context["deep_strike"] is True
    game.submit({"red.res.1": [30.0, 20.0], "red.res.2": [31.5, 20.0]})
    game.pending()
    assert game.state.unit("red.res").alive[0].x == 30.0


def test_an_ingress_that_cannot_be_set_up_leaves_the_unit_in_reserve_unselected():
    # R03.02-b: "cancel" -> the unit stays in reserves and is offered again this phase.
    squad = reserve(unit("red.res", "red", row("red.res", 2, x=0.0, y=0.0)))
    game, _ = _arrive(at_round(2, squad, BLUE))
    game.submit("cancel")
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_move"
    assert "red.res" in req.options
    assert game.state.off_table[0].id == "red.res"


def test_unarrived_reserves_are_destroyed_at_the_end_of_battle_round_3():
    # R20.04-e
    squad = reserve(unit("red.res", "red", row("red.res", 2, x=0.0, y=0.0)))
    game = Game.new(at_round(3, squad, BLUE, rounds=3), seed=1)
    while (req := game.pending()) is not None:
        game.submit(first_move(req) or req.options[0] if req.options else "done")
    gone = events(game, "destroyed_in_reserves")
    assert [e["unit"] for e in gone] == ["red.res"] and gone[0]["round"] == 3
    assert game.state.off_table[0].destroyed


def test_a_unit_embarks_after_a_normal_move_within_3_inches_of_its_transport():
    # R18.02-a: every model within 3" of the transport after the move -> offered; the unit
    # leaves the battlefield (R18.02-b).
    squad = unit("red.sq", "red", row("red.sq", 2, x=20.0, y=10.0))
    transport = rhino("red.rhino", "red", 26.0, 10.0)
    game = Game.new(at_round(1, squad, transport, BLUE), seed=1)
    req = until(game, "select_unit_to_move")
    game.submit("red.sq")
    game.submit("normal")
    req = game.pending()
    assert req is not None and req.kind == "positions"
    game.submit({"red.sq.1": [[21.0, 10.0]], "red.sq.2": [[22.5, 10.0]]})
    req = game.pending()
    assert req is not None and req.kind == "embark"
    assert req.options == ("no", "red.rhino")
    game.submit("red.rhino")
    game.pending()
    assert [u.id for u in game.state.off_table] == ["red.sq"]
    assert game.state.off_table[0].embarked_in == "red.rhino"
    assert all(u.id != "red.sq" for u in game.state.units)


def test_a_unit_too_far_from_the_transport_is_not_asked_to_embark():
    # R18.02-a: one model 3.2" from the hull -> no embark request.
    squad = unit("red.sq", "red", row("red.sq", 2, x=15.0, y=10.0))
    transport = rhino("red.rhino", "red", 26.0, 10.0)
    game = Game.new(at_round(1, squad, transport, BLUE), seed=1)
    until(game, "select_unit_to_move")
    game.submit("red.sq")
    game.submit("normal")
    hull = 26.0 - mm(120) / 2
    game.submit({"red.sq.1": [[hull - 3.2 - R - 1.5, 10.0]], "red.sq.2": [[hull - 3.2 - R, 10.0]]})
    req = game.pending()
    assert req is not None and req.kind != "embark"


def test_disembarking_from_a_transport_that_has_not_moved_is_tactical_within_3_inches():
    # R18.04-b/c: not yet selected + room -> Tactical (3"); a model wholly beyond 3" refused.
    transport = rhino("red.rhino", "red", 26.0, 10.0)
    squad = embarked(unit("red.sq", "red", row("red.sq", 2, x=0.0, y=0.0)), "red.rhino")
    game = Game.new(at_round(1, transport, squad, BLUE), seed=1)
    req = until(game, "select_unit_to_move")
    assert "red.sq" in req.options
    game.submit("red.sq")
    game.submit("disembark")
    req = game.pending()
    assert req is not None and req.kind == "set_up"
    assert req.context["mode"] == "tactical" and req.context["distance"] == 3.0
    edge = 26.0 + mm(120) / 2
    far = {"red.sq.1": [edge + 3.1 - R, 10.0], "red.sq.2": [edge + 1.6 - R, 10.0]}
    with pytest.raises(IllegalChoice) as err:
        game.submit(far)
    assert err.value.rule == "R18.04-c"
    game.submit({"red.sq.1": [edge + 3.0 - R, 10.0], "red.sq.2": [edge + 1.5 - R, 10.0]})
    game.pending()
    u = game.state.unit("red.sq")
    assert u.flag("set_up_this_turn")  # R18.04-e
    assert not game.state.off_table


def test_units_embarked_within_a_transport_that_advanced_cannot_disembark():
    # R18.04-a: the transport advanced this phase -> the passengers are not selectable.
    transport = rhino("red.rhino", "red", 26.0, 10.0)
    squad = embarked(unit("red.sq", "red", row("red.sq", 2, x=0.0, y=0.0)), "red.rhino")
    keep = unit("red.keep", "red", [model("red.keep.1", 2.0, 42.0)])
    game = Game.new(at_round(1, transport, squad, keep, BLUE), seed=1)
    scripted(game, [3])
    until(game, "select_unit_to_move")
    game.submit("red.rhino")
    game.submit("advance")
    game.submit({"red.rhino.1": [[27.0, 10.0]]})
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_move"
    assert "red.sq" not in req.options


def test_an_embarked_unit_controls_no_objective():
    # R18.02-b: an embarked unit is not on the battlefield (its stored coordinates sit on
    # the marker, but it adds no OC).
    transport = rhino("red.rhino", "red", 40.0, 30.0)
    squad = embarked(unit("red.sq", "red", row("red.sq", 2, x=10.0, y=10.0)), "red.rhino")
    pos = at_round(1, transport, squad, BLUE)
    pos["objectives"] = [{"name": "obj", "x": 10.0, "y": 10.0}]
    game = Game.new(pos, seed=1)
    until(game, "select_unit_to_shoot", answer=first_move)
    assert game.state.objectives[0].controller is None


def test_aircraft_only_remain_on_the_table_and_return_at_the_end_of_the_opponents_turn():
    # R23.02-a: on the battlefield an AIRCRAFT makes no move but an ingress; R23.02-b: it is
    # placed in strategic reserves at the end of the opponent's turn.
    jet = unit("blue.jet", "blue", [model("blue.jet.1", 50.0, 10.0,
                                          keywords=("VEHICLE", "AIRCRAFT", "FLY"))])
    keep = unit("blue.keep", "blue", [model("blue.keep.1", 55.0, 40.0)])
    red = unit("red.sq", "red", row("red.sq", 2, x=5.0, y=5.0))
    game = Game.new(at_round(2, red, jet, keep), seed=1)
    while (req := game.pending()) is not None:
        if req.kind == "move_type" and req.context.get("unit") == "blue.jet":
            assert req.options == ("remain_stationary",)
        if any(e.get("event") == "to_reserves" for e in game.state.events):
            break
        game.submit(first_move(req) or (req.options[0] if req.options else "done"))
    back = events(game, "to_reserves")
    assert [(e["unit"], e["player"]) for e in back] == [("blue.jet", "red")]
    assert game.state.off_table[0].id == "blue.jet"


def test_a_save_inside_a_set_up_continues_identically():
    squad = reserve(unit("red.res", "red", row("red.res", 2, x=0.0, y=0.0)))
    game, _ = _arrive(at_round(2, squad, BLUE))
    other = Game.load(json.loads(json.dumps(game.save(), sort_keys=True)))
    answer = {"red.res.1": [1.0, 40.0], "red.res.2": [2.5, 40.0]}
    for g in (game, other):
        g.submit(answer)
        g.pending()
    assert json.dumps(game.save(), sort_keys=True) == json.dumps(other.save(), sort_keys=True)


def test_random_players_use_reserves_and_transports_without_breaking_a_rule():
    # Fuzz: reserves and transports in seeded random games; invariants: no unit both on and
    # off the table, capacity never exceeded, every arrival legal (the engine refuses
    # illegal ones, so a crash would show here).
    from w40k.agents.random_agent import RandomAgent

    for seed in range(1):
        squad = reserve(unit("red.res", "red", row("red.res", 3, x=0.0, y=0.0,
                                                     abilities=("Deep Strike",))))
        transport = rhino("red.rhino", "red", 20.0, 6.0)
        inside = embarked(unit("red.sq", "red", row("red.sq", 5, x=0.0, y=0.0)), "red.rhino")
        blue_res = reserve(unit("blue.res", "blue", row("blue.res", 3, x=0.0, y=0.0)))
        pos = at_round(1, squad, transport, inside, blue_res,
                       unit("blue.boyz", "blue", row("blue.boyz", 5, x=30.0, y=36.0)),
                       rounds=3)
        game = Game.new(pos, seed=seed)
        agents = {"red": RandomAgent(seed), "blue": RandomAgent(seed + 100)}
        while (req := game.pending()) is not None:
            s = game.state
            on = {u.id for u in s.units}
            off = {u.id for u in s.off_table}
            assert not on & off
            for t in s.units:
                cap = next((m.profile.transport for m in t.alive if m.profile.transport), None)
                if cap is not None:
                    load = sum(len(u.alive) for u in s.off_table if u.embarked_in == t.id)
                    assert load <= cap.models
            game.submit(agents[req.player].choose(game, req))
        kinds = {e["event"] for e in game.state.events}
        assert "battle_end" in kinds


def test_a_destroyed_transport_disembarks_its_passengers_around_it_battle_shocked():
    # R18.05-a/b: hazard roll per model ([1, 4] -> 1 mortal wound), set up wholly within 6"
    # of the hull before it is removed, battle-shocked and unable to charge this turn.
    from w40k.engine.units import destroy

    transport = rhino("red.rhino", "red", 30.0, 20.0)
    squad = embarked(unit("red.sq", "red", row("red.sq", 2, x=0.0, y=0.0, W=2)), "red.rhino")
    game = Game.new(at_round(1, transport, squad, BLUE), seed=1)
    until(game, "select_unit_to_move")
    scripted(game, [1, 4])
    t = game.state.unit("red.rhino")
    destroy(game.ctx, t, t.alive[0], cause="test")
    # not by an attack: its deaths frame is on top and resolves at once (R18.05-d)
    from w40k.engine.death import DeathsFrame, _run

    frame = game.state.frames[-1]
    assert isinstance(frame, DeathsFrame)
    _run(game.ctx, frame)
    sq = game.state.unit("red.sq")
    hull = t.models[0]
    from w40k.engine import geo
    from w40k.geometry.measure import wholly_within

    assert all(wholly_within(geo.model_shape(m), geo.model_shape(hull), 6.0) for m in sq.alive)
    assert sq.flag("battle_shocked") and sq.flag("emergency_disembark")
    ev = events(game, "emergency_disembark")[0]
    assert ev["hazard_dice"] == [1, 4] and ev["mortal_wounds"] == 1
    from w40k.engine.phases.movement_frames import MortalWoundsFrame

    assert game.state.frames[-1] == MortalWoundsFrame("red.sq", 1, "emergency disembark")
