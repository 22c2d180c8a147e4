"""The proposers' shortcuts (engine/propose_moves.py) only skip candidates the full
validation refuses: on seeded games, every translation ``translation_refused`` skips is
refused by ``check_move``, and ``Occupied.free`` answers as measuring every model."""

from __future__ import annotations

import math
import random

import pytest

from w40k.agents.greedy import GreedyAgent
from w40k.core.errors import IllegalChoice
from w40k.engine import geo
from w40k.engine.game import Game
from w40k.engine.moves import check_move, parse_positions
from w40k.engine.propose_moves import CLEARANCE, Occupied, translation_refused
from w40k.engine.serial import JSON
from w40k.geometry import MoveType
from w40k.geometry.measure import separation
from w40k.geometry.movement import ending_violations
from w40k.io.battle_scale import scaled_position


def _games(seed: int) -> list[Game]:
    """Snapshots of a seeded greedy game every 40 decisions (armies closing in)."""
    game = Game.new(scaled_position(2), seed)
    agents = {p.name: GreedyAgent(seed + i) for i, p in enumerate(game.state.players)}
    out = []
    for n in range(400):
        req = game.pending()
        if req is None:
            break
        if n % 40 == 0:
            out.append(game.clone())
        game.submit(agents[req.player].choose(game, req))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_a_skipped_translation_is_one_the_full_check_refuses(seed: int) -> None:
    # R03.01-f (edge), R03.01-c (ending on a model), R09.05-a (a normal move ends unengaged),
    # R03.01-i / R13.06-g (ending partway through terrain)
    rng = random.Random(seed)
    skipped = 0
    for game in _games(seed):
        for u in [u for u in game.state.units if not u.destroyed]:
            for _ in range(6):
                a, d = rng.uniform(-math.pi, math.pi), rng.uniform(0.5, 12.0)
                dx, dy = d * math.cos(a), d * math.sin(a)
                mt = rng.choice([MoveType.NORMAL, MoveType.ADVANCE, MoveType.CHARGE])
                answer: dict[str, JSON] = {m.id: [[m.x + dx, m.y + dy]] for m in u.alive}
                if not translation_refused(game, u, u.alive, dx, dy, mt):
                    continue
                skipped += 1
                with pytest.raises(IllegalChoice):
                    check_move(game, u, parse_positions(answer), mt, 13.0)
    assert skipped > 0


@pytest.mark.parametrize("seed", [3, 4])
def test_occupied_free_answers_as_measuring_every_model(seed: int) -> None:
    rng = random.Random(seed)
    for game in _games(seed):
        _, ter = geo.terrain(game)
        shapes = [s for u in game.state.units if not u.destroyed for s in geo.unit_shapes(u)]
        occupied = Occupied(shapes[:-3])
        for s in shapes[-3:]:
            occupied.append(s)
        for _ in range(60):
            s = rng.choice(shapes)
            cand = s.moved(s.x + rng.uniform(-3, 3), s.y + rng.uniform(-3, 3))
            plain = (all(separation(cand.footprint(), p.footprint()) > CLEARANCE
                         for p in shapes) and not ending_violations(ter, cand))
            assert occupied.free(cand, ter) == plain
