"""The heuristic's plan for some units only (``plan(..., only=)``) gives those units the
goals the whole plan gives them: steps 1 and 2 still match every unit to the objectives, and
step 3 is per unit with no draw. Seeded game snapshots (armies closing in)."""

from __future__ import annotations

import random

from w40k.agents.greedy import GreedyAgent
from w40k.agents.heuristic_plan import plan
from w40k.engine.game import Game
from w40k.io.battle_scale import scaled_position


def test_a_plan_for_some_units_gives_them_the_goals_of_the_whole_plan() -> None:
    game = Game.new(scaled_position(1), 3)
    agents = {p.name: GreedyAgent(3 + i) for i, p in enumerate(game.state.players)}
    checked = 0
    for n in range(240):
        req = game.pending()
        if req is None:
            break
        if n % 30 == 0:
            s = game.state
            for p in s.players:
                whole = plan(s, p.name, random.Random(n))
                ids = [u.id for u in s.units_of(p.name)]
                for some in [ids[:1], ids[1::2], []]:
                    part = plan(s, p.name, random.Random(n), only=set(some))
                    assert {k: v for k, v in whole.items() if k in some} == \
                        {k: v for k, v in part.items() if k in some}
                    checked += len(some)
        game.submit(agents[req.player].choose(game, req))
    assert checked > 10
