"""The heuristic player's cheapest loss (``heuristic_attacks.cheapest_loss``), which counts the
coherent groups left after each candidate's removal from links found once, picks the model
the per-candidate count picks: on random formations, on models exactly 2" apart, with
candidates outside the unit and with one candidate."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence

from w40k.agents.heuristic_attacks import cheapest_loss, groups
from w40k.engine.game import Game
from w40k.engine.state import ModelData
from w40k.io.battle_setup import default_position


def _reference(candidates: Sequence[ModelData], unit: Sequence[ModelData]) -> ModelData:
    """The per-candidate count: :func:`groups` of the unit without each candidate."""
    cx = sum(m.x for m in unit) / len(unit) if unit else 0.0
    cy = sum(m.y for m in unit) / len(unit) if unit else 0.0

    def key(m: ModelData) -> tuple[int, bool, bool, float, int, str]:
        rest = [o for o in unit if o.id != m.id]
        return (groups(rest), m.wounds_lost == 0, m.profile.is_character,
                -math.hypot(m.x - cx, m.y - cy), m.remaining, m.id)
    return min(candidates, key=key)


def test_cheapest_loss_matches_the_per_candidate_group_count() -> None:
    # R03.03-a: a removal that splits the unit leaves more coherent groups
    s = Game.new(default_position(), 1).state
    base = max(s.units, key=lambda u: len(u.models)).models
    rng = random.Random(4)
    for trial in range(300):
        n = rng.randint(1, min(10, len(base)))
        spacing = rng.choice((None, 2.0, 1.0))
        unit = []
        for i, m in enumerate(base[:n]):
            if spacing is None:
                x, y = rng.uniform(0, 12), rng.uniform(0, 12)
            else:  # a line of bases exactly `spacing` apart, edge to edge
                step = spacing + 2 * (m.profile.base_mm or 32) / 25.4 / 2
                x, y = 10.0 + i * step * rng.choice((1, 1, 3)), 7.0
            unit.append(dataclasses.replace(m, x=x, y=y, wounds_lost=rng.choice((0, 0, 1))
                                            if m.profile.W > 1 else 0))
        others = [dataclasses.replace(unit[0], id="other.1", x=50.0)] if trial % 7 == 0 else []
        picked = rng.sample(unit, rng.randint(1, n)) + others
        assert cheapest_loss(picked, unit).id == _reference(picked, unit).id
