"""``unique_ids`` is ``np.unique`` of an obstacle-owner array (the same sorted values and dtype),
without ``np.unique``'s import of ``numpy.ma``."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from w40k.geometry.los_obstacles import unique_ids


@given(st.lists(st.integers(-5, 40), max_size=60))
def test_unique_ids_is_np_unique(values: list[int]) -> None:
    """Random owner arrays, empty and one-element ones included: identical arrays."""
    a = np.asarray(values, dtype=np.int64)
    got, want = unique_ids(a), np.unique(a)
    assert got.dtype == want.dtype
    assert np.array_equal(got, want)
    assert np.array_equal(a, np.asarray(values, dtype=np.int64))  # the input is not sorted in place


def test_a_battle_does_not_import_numpy_ma() -> None:
    """A skirmish between greedy players (sight searches, cover and hull blockers collect
    obstacle owners) leaves ``numpy.ma`` unloaded."""
    code = (
        "import sys\n"
        "from w40k.agents import GreedyAgent\n"
        "from w40k.engine.game import Game\n"
        "from w40k.io.battle_scale import scaled_position\n"
        "game = Game.new(scaled_position(1), 0)\n"
        "agents = {p.name: GreedyAgent(i) for i, p in enumerate(game.state.players)}\n"
        "shots = 0\n"
        "while (req := game.pending()) is not None:\n"
        "    shots += req.kind == 'declare_shooting'\n"
        "    game.submit(agents[req.player].choose(game, req))\n"
        "print(shots > 0, 'numpy.ma' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]
