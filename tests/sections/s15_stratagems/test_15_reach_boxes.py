"""Fire Overwatch's 24" and Heroic Intervention's 12" unit reach (R15.09-a, R15.11-a): the box
proof of ``units_within`` (the units' boxes before the closest models) answers as the closest
models' distance (01.04)."""

from __future__ import annotations

import pytest

from tests.battle_shifts import enemy_pairs, shifted_rounds
from w40k.engine import field
from w40k.engine.phases.melee_measure import EPS, units_distance, units_within
from w40k.engine.stratagems.interventions import HEROIC_RANGE, SNAP_RANGE

pytestmark = pytest.mark.stratagems


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reach_box_pre_test_answers_as_units_within_R15_09_a_R15_11_a(seed: int) -> None:
    # every pair of enemy units of a battle (round bases, ovals, hulls), one unit shifted at
    # random, at 12" and 24", at the pair's own distance and 1e-9" to 1e-3" around it, and at
    # the boxes' gap and around it (where the pre-test decides): the same answer
    decided = 0
    for game in shifted_rounds(seed):
        for a, b in enemy_pairs(game):
            gap = field.layout(a).box_gap(field.layout(b))
            # the box proof's edge: the gap less EPS (1e-6) and BOX_SLACK
            edge = (gap, gap - 1e-3, gap - 1e-3 - 1e-6, gap - 1.1e-3)
            near = [d for d in (SNAP_RANGE, HEROIC_RANGE, *edge) if d >= 0.0]
            for dist in near:
                for off in (-1e-3, -1e-6, -1e-9, 0.0, 1e-9, 1e-6, 1e-3):
                    d = max(0.0, dist + off)
                    exact = units_distance(a, b) <= d + EPS
                    assert units_within(a, b, d) == exact, (a.id, b.id, d)
                    decided += not units_within(a, b, d) and gap > d + 1.1e-3
    assert decided > 100  # the box proof is met (the boxes alone refuse those)
