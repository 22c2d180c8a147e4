"""Unit-to-unit reach with the units' boxes first (``melee_measure.units_within`` and
``units_farther``: the pile-in and consolidation reach, R12.03-b / R12.08-c, the pass rule's
5", RA-Unable-a, the charge's 12"): the same answers as the closest models' distance
(R01.04-a) measured in full."""

from __future__ import annotations

import pytest

from tests.battle_shifts import enemy_pairs, shifted_rounds
from w40k.engine import field, geo
from w40k.engine.phases.melee_measure import EPS, unit_distance, units_farther, units_within


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_box_first_reach_answers_as_the_closest_models_R01_04_a(seed: int) -> None:
    # every pair of enemy units of a battle (round bases, ovals, hulls), one unit shifted at
    # random each round, at 3", 5" and 12", and at the boxes' gap and around it (where the
    # box test decides), each 1e-9" to 1e-3" either way: the same answers
    refused = 0
    for game in shifted_rounds(seed):
        for a, b in enemy_pairs(game):
            plain = unit_distance(geo.unit_shapes(a), geo.unit_shapes(b))
            gap = field.layout(a).box_gap(field.layout(b))
            for dist in (3.0, 5.0, 12.0, gap, gap - 1e-3, plain):
                for off in (-1e-3, -1e-6, -1e-9, 0.0, 1e-9, 1e-6, 1e-3):
                    d = max(0.0, dist + off)
                    assert units_within(a, b, d) == (plain <= d + EPS), (a.id, b.id, d)
                    assert units_farther(a, b, d) == (plain > d), (a.id, b.id, d)
                    refused += gap - 1e-3 > d + EPS
    assert refused > 100  # the box test is met (the boxes alone answer those)
