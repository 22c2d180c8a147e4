"""The set-up proposer's answer is the placement it checked (03.02, 20.04): a ``set_up``
answer carries only [x, y], so an oval base is set up at its own facing and the search must
check it there, not turned with a block laid out across the table. Exact positions on an
empty 60"x44" table."""

from __future__ import annotations

from typing import cast

from tests.engine.movement_helpers import model, position, unit
from w40k.engine.game import Game
from w40k.engine.phases.set_up import SetUpKind, _search
from w40k.engine.serial import JSON


def test_an_oval_base_arriving_is_proposed_where_its_own_facing_is_legal() -> None:
    # R20.04-a: red.jet (one 120x70 mm oval, its long axis along x) arrives in round 2;
    # blue.b stands at (30.5, 3). The nearest anchor far enough along the edge row is
    # (41, 3), 10.5" away: turned 90 degrees the oval would be 8.49" from blue.b, but at its
    # own facing it is 7.51" (10.5 - 2.36 - 0.63), too close. The proposal skips it and the
    # engine accepts the one it makes (at (19, 3), 8.5" away). (The search with no random
    # order is the one that decides whether a unit can be set up, and the players' proposer
    # is the same search over shuffled anchors.)
    jet = model("red.jet.1", 0.0, 0.0, keywords=("VEHICLE", "FLY"))
    cast(dict[str, JSON], jet["profile"]).update(base_mm=[120.0, 70.0])
    res = {**unit("red.jet", "red", [jet]), "location": "reserves"}
    blue = unit("blue.b", "blue", [model("blue.b.1", 30.5, 3.0)])
    pos = position(res, blue)
    pos.update(round=2, turn_player="red", active="red", phase="movement",
               frames=[{"kind": "set_up", "data": {"unit": "red.jet", "move": "ingress"}}])
    game = Game.new(pos, seed=1)
    req = game.pending()
    assert req is not None and req.kind == "set_up"
    u = game.state.any_unit("red.jet")
    placed = _search(game.ctx, u, SetUpKind.INGRESS, None)  # anchors nearest blue.b first
    assert placed is not None
    answer: JSON = {m.id: [p.x, p.y] for m, p in zip(u.alive, placed, strict=True)}
    assert answer == {"red.jet.1": [19.0, 3.0]}
    game.submit(answer)  # accepted: no IllegalChoice
    game.pending()
    m = game.state.any_unit("red.jet").alive[0]
    assert (m.x, m.y, m.facing) == (19.0, 3.0, 0.0)
