"""The engine's disembark set-up (18.04): the proposer every player uses places a whole unit
wholly within 3" of the transport's hull, model by model around it, where a block of the unit
does not fit (issue 13), keeping off terrain it cannot stand in and out of engagement range;
the heuristic player asks to disembark only when such a place exists. Exact geometry."""

from __future__ import annotations

import math
import random
from typing import cast

import pytest

from tests.engine.movement_helpers import far_enemy, model, row, unit
from tests.sections.s18_transports.test_18_20_23_offtable import (
    at_round,
    embarked,
    rhino,
    until,
)
from w40k.agents.heuristic import HeuristicAgent
from w40k.engine import geo
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.phases.set_up import disembark_placement
from w40k.engine.serial import JSON
from w40k.geometry import Model, mm
from w40k.geometry.measure import horizontal_distance, in_coherency
from w40k.rules.placement import block

R = mm(32) / 2
RL = mm(40) / 2
X, Y = 30.0, 22.0
"""Where the Rhino stands (an oval hull 120 x 70 mm, long side along x)."""


def _squad(n: int, lieutenant: bool = False) -> dict[str, JSON]:
    models = row("red.sq", n, x=0.0, y=0.0)
    if lieutenant:
        models.append(model(f"red.sq.{n + 1}", 0.0, 2.0, base_mm=40.0))
    return embarked(unit("red.sq", "red", models), "red.rhino")


def _hull(game: Game) -> Model:
    return geo.model_shape(game.state.unit("red.rhino").alive[0])


def _placed(game: Game) -> list[Model]:
    return [geo.model_shape(m) for m in game.state.unit("red.sq").alive]


def _radius(m: Model) -> float:
    x0, _, x1, _ = m.footprint().bbox()
    return (x1 - x0) / 2


def _wholly_within_3(models: list[Model], hull: Model) -> None:
    # R18.04-c: the hull is convex and the bases round, so a base's farthest point from the
    # hull is its closest point's distance plus its diameter; it must also not touch the hull
    for m in models:
        gap = horizontal_distance(m, hull)
        assert gap > 0.0, m.name
        assert gap + 2 * _radius(m) <= 3.0 + 1e-9, (m.name, gap)
        assert m.z == 0.0


def _disembark(game: Game) -> dict[str, JSON]:
    req = until(game, "select_unit_to_move")
    game.submit("red.sq")
    game.submit("disembark")
    req = game.pending()
    assert req is not None and req.kind == "set_up"
    return dict(req.context)


def _set_up(game: Game) -> None:
    req = game.pending()
    assert req is not None and req.kind == "set_up"
    answer = sample(game, req, random.Random(1))  # the engine's proposer (every player's)
    assert answer != "cancel"
    game.submit(answer)
    game.pending()
    assert [e for e in game.state.events if e.get("event") == "set_up"]
    assert not [e for e in game.state.events if e.get("event") == "set_up_cancelled"]


def test_ten_intercessors_do_not_fit_as_a_block_within_3_inches_of_a_rhino() -> None:
    # R18.04-c: two rows of five 32mm bases are more than 3" deep, so the block search alone
    # cannot set the unit up (why the placement goes round the hull)
    rows = block([Model(f"m{i}", 0.0, 0.0, base_mm=32.0) for i in range(10)], 0.0, 0.0)
    depth = max(m.y for m in rows) - min(m.y for m in rows) + 2 * R
    assert depth > 3.0


@pytest.mark.parametrize("facing", [0.0, 0.7])
def test_ten_intercessors_disembark_from_a_rhino_in_the_open_wholly_within_3_inches(
        facing: float) -> None:
    # R18.04-b: the transport has not moved and the unit can be set up within 3" -> Tactical
    # (before issue 13 the block search found no room and forced a Combat Disembark).
    # R18.04-c / R03.02-a: every model wholly within 3" of the hull (square to the table or
    # turned), on no model, coherent.
    transport = rhino("red.rhino", "red", X, Y)
    cast(dict[str, JSON], cast(list[JSON], transport["models"])[0])["facing"] = facing
    game = Game.new(at_round(1, transport, _squad(10), far_enemy()), seed=1)
    assert _hull(game).facing == facing
    context = _disembark(game)
    assert context["mode"] == "tactical" and context["distance"] == 3.0
    _set_up(game)
    placed = _placed(game)
    assert len(placed) == 10
    _wholly_within_3(placed, _hull(game))
    assert in_coherency(placed)
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            assert horizontal_distance(a, b) > 0.0
    assert game.state.unit("red.sq").flag("set_up_this_turn")  # R18.04-e


WALLS = [(24.0, 18.0, X - mm(120) / 2 - 0.8, 27.0),   # west of the hull, 0.8" from it
         (24.0, Y + mm(70) / 2 + 0.8, 36.0, 27.0)]     # north of the hull, 0.8" from it
"""Two dense ruin walls, 6" tall (xmin, ymin, xmax, ymax): no 32mm base fits between them
and the hull, and none may stand partway through them (R13.06-g)."""
ENEMY = (X + mm(120) / 2 + 5.0, Y)
"""An Ork east of the hull: its base is 4.37" from the hull, so the east end of the band is
within engagement range of it (03.02)."""


def _ruin() -> dict[str, JSON]:
    feats: list[JSON] = [
        {"name": f"ruin wall {i}", "category": "dense", "area": "ruin", "height": 6.0,
         "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}
        for i, (x0, y0, x1, y1) in enumerate(WALLS)]
    return {"areas": [{"name": "ruin", "footprint": [[20, 16], [40, 16], [40, 30], [20, 30]]}],
            "terrain": feats}


def _rect_gap(x: float, y: float, rect: tuple[float, float, float, float]) -> float:
    x0, y0, x1, y1 = rect
    return math.hypot(max(x0 - x, 0.0, x - x1), max(y0 - y, 0.0, y - y1))


def test_a_squad_and_its_lieutenant_rapid_disembark_beside_a_ruin_and_an_enemy() -> None:
    # R18.04-b: the Rhino made a normal move -> Rapid (3"). R18.04-c: wholly within 3" of the
    # hull; R13.06-g: no base partway through a ruin wall; R03.02-a: unengaged (more than 2"
    # from the Ork) and coherent; the 40mm Lieutenant too.
    enemy = unit("blue.ork", "blue", [model("blue.ork.1", *ENEMY)])
    pos = at_round(1, rhino("red.rhino", "red", X, Y - 4.0), _squad(5, lieutenant=True), enemy)
    pos["terrain"] = _ruin()
    game = Game.new(pos, seed=1)
    until(game, "select_unit_to_move")
    game.submit("red.rhino")
    game.submit("normal")
    game.submit({"red.rhino.1": [[X, Y]]})
    context = _disembark(game)
    assert context["mode"] == "rapid" and context["distance"] == 3.0
    _set_up(game)
    placed = _placed(game)
    assert len(placed) == 6 and math.isclose(_radius(placed[-1]), RL)
    _wholly_within_3(placed, _hull(game))
    assert in_coherency(placed)
    ork = geo.model_shape(game.state.unit("blue.ork").alive[0])
    for m in placed:
        r = _radius(m)
        assert all(_rect_gap(m.x, m.y, w) >= r - 1e-9 for w in WALLS), m.name
        assert horizontal_distance(m, ork) > 2.0, m.name
        assert m.y < Y + mm(70) / 2 and m.x > X - mm(120) / 2  # south or east of the walls


def _surrounded() -> dict[str, JSON]:
    """16 Orks round the Rhino, 3.1" from its hull's axes: every spot within 6" of the hull
    is within 2" of one of them."""
    a, b = mm(120) / 2 + 3.1, mm(70) / 2 + 3.1
    orks = [model(f"blue.ring.{i + 1}", X + a * math.cos(t), Y + b * math.sin(t))
            for i, t in enumerate(2 * math.pi * k / 16 for k in range(16))]
    return unit("blue.ring", "blue", orks)


def test_the_heuristic_stays_embarked_when_the_unit_cannot_be_set_up() -> None:
    # R03.02-b: a unit that cannot be set up is not moved; the heuristic does not ask for a
    # disembark the engine would cancel (it asks when the same transport stands in the open)
    for enemy, wanted in ((_surrounded(), "remain_embarked"),
                          (unit("blue.near", "blue", [model("blue.near.1", X + 12.0, Y)]),
                           "disembark")):
        game = Game.new(at_round(1, rhino("red.rhino", "red", X, Y), _squad(10), enemy),
                        seed=1)
        until(game, "select_unit_to_move")
        game.submit("red.sq")
        req = game.pending()
        assert req is not None and req.kind == "move_type" and "disembark" in req.options
        u = game.state.any_unit("red.sq")
        assert (disembark_placement(game.ctx, u) is None) == (wanted == "remain_embarked")
        assert HeuristicAgent(1, strict=True).choose(game, req) == wanted


def test_after_the_transports_ingress_the_squad_keeps_more_than_8_inches_from_the_enemy() -> None:
    # R18.04-d: the Rhino arrived from strategic reserves this turn with its hull 9" from an
    # Ork; the Rapid Disembark follows the ingress's rule, so every model is more than 8"
    # from it (and wholly within 3" of the hull, R18.04-c, and wholly on the table, 03.02)
    hx = mm(120) / 2 + 0.3
    transport = {**rhino("red.rhino", "red", 0.0, 0.0), "location": "reserves"}
    ork = unit("blue.ork", "blue", [model("blue.ork.1", hx + mm(120) / 2 + 9.0 + R, Y)])
    game = Game.new(at_round(2, transport, _squad(5), ork), seed=1)
    until(game, "select_unit_to_move")
    game.submit("red.rhino")
    game.submit("ingress")
    game.submit({"red.rhino.1": [hx, Y]})
    context = _disembark(game)
    assert context["mode"] == "rapid"
    _set_up(game)
    placed = _placed(game)
    _wholly_within_3(placed, _hull(game))
    assert in_coherency(placed)
    target = geo.model_shape(game.state.unit("blue.ork").alive[0])
    for m in placed:
        assert horizontal_distance(m, target) > 8.0, m.name
        assert m.x - R >= 0.0
