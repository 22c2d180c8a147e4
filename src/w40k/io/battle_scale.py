"""Bigger battles for measuring growth: ``k`` times the default armies on the same table.

:func:`scaled_position` copies every unit of the default armies (``battle_setup``) ``k``
times and deploys them in ranks across each deployment zone, each unit in its own column,
so that no bases overlap and every model stays within its player's 8" zone. ``k = 1`` is the
default position itself. Used by ``benchmarks/bench_battle.py --scale K``.
"""

from __future__ import annotations

import math

from w40k.engine.serial import JSON
from w40k.engine.state import FORMAT
from w40k.io.battle_setup import (
    DEFAULT_MISSION,
    DEFAULT_OBJECTIVES,
    DEFAULT_TERRAIN,
    DEPTH,
    WIDTH,
    _unit_json,
    default_armies,
    default_position,
)

RANK_DEPTH = 3.7
"""Inches between the starts of two ranks of units in a deployment zone: the deepest unit
(Intercessors formed at their Captain's 40 mm base, two rows) reaches 4.15" from the edge, so
the second rank starts clear of it and ends 7.85" from the edge, inside the 8" zone."""
UNITS_PER_RANK = 5
"""At most this many unit columns side by side (5 mobs of ten Boyz fill the 60" width)."""


def scaled_position(k: int) -> dict[str, JSON]:
    """The default position with every unit present ``k`` times (``k`` in 1..5)."""
    if k < 1 or k > 5:
        raise ValueError(f"scale must be 1..5, got {k}")
    if k == 1:
        return default_position()
    units: list[JSON] = []
    taken: set[str] = set()
    red, blue = default_armies()
    for army, player, edge, direction in ((red, "red", 0.0, 1), (blue, "blue", DEPTH, -1)):
        copies = [u for _ in range(k) for u in army.units]
        per_rank = min(UNITS_PER_RANK, len(copies))
        ranks = math.ceil(len(copies) / per_rank)
        for i, unit in enumerate(copies):
            rank, col = divmod(i, per_rank)
            in_rank = min(per_rank, len(copies) - rank * per_rank)
            cx = WIDTH * (col + 1) / (in_rank + 1)
            depth = RANK_DEPTH * (ranks - 1 - rank) if ranks > 1 else 0.0
            units.append(_unit_json(unit, player, cx, edge + direction * depth, direction,
                                    taken))
    return {"format": FORMAT, "battlefield": {"width": WIDTH, "depth": DEPTH},
            "terrain": DEFAULT_TERRAIN, "mission": DEFAULT_MISSION,
            "players": [{"name": "red", "cp": 0, "vp": 0}, {"name": "blue", "cp": 0, "vp": 0}],
            "units": units, "objectives": list(DEFAULT_OBJECTIVES)}
