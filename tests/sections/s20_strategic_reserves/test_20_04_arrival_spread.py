"""An arriving unit whose block of rows of five fits nowhere is set up model by model
(rules/ring_placement.py ``arrival_placement``, issue 13): twenty 32mm bases in rows of five
are deeper than the 6" strip along an edge either way the block is turned (R20.04-a), and a
Deep Strike unit between lines of enemies finds only strips narrower than four rows
(R24.09-a). The engine's proposer sets them up and the engine accepts the answer. Exact
geometry on the 60" x 44" table."""

from __future__ import annotations

import random

from tests.engine.movement_helpers import far_enemy, model, position, unit
from w40k.engine import geo, offtable
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.phases import set_up
from w40k.engine.phases.set_up import SetUpKind
from w40k.engine.serial import JSON
from w40k.geometry import Model, mm
from w40k.geometry.measure import horizontal_distance, in_coherency
from w40k.rules.placement import block, first_legal, grid

R = mm(32) / 2


def _arriving(n: int, *others: dict[str, JSON], deep: bool = False,
              round_: int = 2) -> Game:
    abilities = ("Deep Strike",) if deep else ()
    squad = [model(f"red.sq.{i + 1}", 0.0, 0.0, abilities=abilities) for i in range(n)]
    res: dict[str, JSON] = {**unit("red.sq", "red", squad), "location": "reserves"}
    pos = position(res, *others)
    pos.update(round=round_, turn_player="red", active="red", phase="movement",
               frames=[{"kind": "set_up", "data": {"unit": "red.sq", "move": "ingress"}}])
    return Game.new(pos, seed=1)


def _no_block(game: Game) -> None:
    """No block of the unit passes the ingress's check at any anchor ½" apart."""
    ctx = game.ctx
    u = ctx.state.any_unit("red.sq")
    models = set_up._shapes(u, {m.id: (m.x, m.y, 0.0) for m in u.alive})
    check = set_up.checker(ctx, u, SetUpKind.INGRESS, None)
    screen = set_up._screen(ctx, u, SetUpKind.INGRESS, None, models)
    anchors = list(grid(offtable.battlefield(ctx.state), 0.5))
    assert first_legal(models, anchors, check, screen=screen) is None


def _arrive(game: Game) -> list[Model]:
    req = game.pending()
    assert req is not None and req.kind == "set_up"
    answer = sample(game, req, random.Random(1))  # the engine's proposer (every player's)
    assert answer != "cancel"
    game.submit(answer)  # the engine checks it (R20.04-a, R24.09-a, 03.02)
    game.pending()
    assert [e for e in game.state.events if e.get("event") == "set_up"]
    return [geo.model_shape(m) for m in game.state.unit("red.sq").alive]


def _apart(placed: list[Model]) -> None:
    assert in_coherency(placed)  # R03.02-a
    for i, a in enumerate(placed):
        assert R - 1e-9 <= a.x <= 60.0 - R + 1e-9 and R - 1e-9 <= a.y <= 44.0 - R + 1e-9
        for b in placed[i + 1:]:
            assert horizontal_distance(a, b) > 0.0


def test_twenty_boyz_arrive_along_an_edge_though_no_block_of_them_fits() -> None:
    # R20.04-a: a block of 20 in rows of five is 4 x 1.76 + ... = 7.3" by 6.54": deeper than
    # 6" both ways, so it is never wholly within 6" of an edge (nor in a corner)
    rows = block([Model(f"m{i}", 0.0, 0.0, base_mm=32.0) for i in range(20)], 0.0, 0.0)
    assert min(max(m.x for m in rows) - min(m.x for m in rows),
               max(m.y for m in rows) - min(m.y for m in rows)) + 2 * R > 6.0
    game = _arriving(20, far_enemy())
    _no_block(game)
    placed = _arrive(game)
    assert len(placed) == 20
    _apart(placed)
    enemies = offtable.enemy_models(game.state, "red")
    for m in placed:
        # wholly within 6" of an edge: the base's far side is no more than 6" in
        assert min(m.x + R, 60.0 - m.x + R, m.y + R, 44.0 - m.y + R) <= 6.0 + 1e-9, m.name
        assert all(horizontal_distance(m, e) > 8.0 for e in enemies)


LINES = (0.63, 23.65, 46.67, 59.5)
"""x of four lines of Orks 2" apart from y 1 to 43: a Deep Strike model's centre must be
more than 8" + two radii (9.26") from each, which leaves strips 4.5" wide at x 9.89-14.39
and 32.91-37.41, narrower than four rows of the block (5.28" between centres)."""


def test_a_deep_strike_unit_arrives_in_a_strip_between_enemy_lines_too_narrow_for_a_block(
        ) -> None:
    # R24.09-a: anywhere more than 8" horizontally from every enemy model
    orks = [model(f"blue.o.{i * 22 + j + 1}", x, 1.0 + 2.0 * j)
            for i, x in enumerate(LINES) for j in range(22)]
    game = _arriving(20, unit("blue.o", "blue", orks), deep=True)
    assert offtable.deep_strike(game.state.any_unit("red.sq"))
    _no_block(game)
    placed = _arrive(game)
    assert len(placed) == 20
    _apart(placed)
    enemies = offtable.enemy_models(game.state, "red")
    for m in placed:
        assert min(horizontal_distance(m, e) for e in enemies) > 8.0, m.name
        assert 9.89 - 1e-6 < m.x < 14.39 + 1e-6 or 32.91 - 1e-6 < m.x < 37.41 + 1e-6
