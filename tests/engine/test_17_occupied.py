"""The seventeenth pass's ``occupied_around`` joined from each other unit's kept ``Occupied``
(``propose_moves._unit_occupied``, ``Occupied.extend``) holds what appending every model
builds: the same models, discs, bounds and cells, in the same order."""

from __future__ import annotations

import random

import pytest

from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.engine import geo
from w40k.engine.propose_moves import Occupied, occupied_around


def _same(a: Occupied, b: Occupied) -> None:
    assert [id(m) for m in a.models] == [id(m) for m in b.models]
    assert a._discs == b._discs and a._bounds == b._bounds
    assert list(a._cells.items()) == list(b._cells.items())  # the keys' order too


@pytest.mark.parametrize("seed", [1, 4])
def test_joined_occupied_is_the_appended_one(seed: int) -> None:
    """At seeded greedy games' positions (units moved between them, so kept segments of
    unmoved units are joined with new ones), for every unit: ``occupied_around`` equals
    ``Occupied`` of the other units' shapes appended one by one; appending to the copy it
    gives (as the proposers do) leaves the next answer unchanged."""
    rng = random.Random(seed)
    asked = 0
    for game in greedy_snapshots(seed, every=25):
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            plain = Occupied(s for e in game.state.units if e.id != u.id and not e.destroyed
                             for s in geo.unit_shapes(e))
            got = occupied_around(game.ctx, u)
            _same(got, plain)
            for _ in range(3):
                m = rng.choice(plain.models)
                moved = m.moved(m.x + rng.uniform(-2, 2), m.y + rng.uniform(-2, 2))
                got.append(moved)
                plain.append(moved)
            _same(got, plain)
            _same(occupied_around(game.ctx, u), occupied_around(game.ctx, u, shared=True))
            asked += 1
    assert asked > 20
