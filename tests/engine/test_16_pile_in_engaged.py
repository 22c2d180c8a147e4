"""The pile-in check's shortcut for "the unit ends engaged" (issue 10, pass melee16b): a moved
model found engaged with a model of an enemy unit by ``Group.engaged_any`` settles R12.03-e,
so the unit's layout at its ends is not measured; ``any_engaged`` of that layout agrees."""

from __future__ import annotations

import random

import pytest

from tests.engine.test_15_pile_in import _model
from w40k.engine.phases.melee_measure import Group
from w40k.geometry.battlefield import Layout, any_engaged


@pytest.mark.parametrize("seed", range(4))
def test_a_model_engaged_with_an_enemy_group_engages_the_unit_s_layout_R12_03_e(
        seed: int) -> None:
    """R12.03-e: over random units (round and oval bases, levels) and ends placed around the
    2" / 5" limits, ``Group.engaged_any(end)`` True always gives ``any_engaged`` of the unit's
    layout with that end True (and both answers are met)."""
    # R12.03-e
    rng = random.Random(seed)
    seen = {True: 0, False: 0}
    for _ in range(150):
        enemy = [_model(rng, f"e{i}", 30.0, 20.0, 2.0) for i in range(rng.randint(1, 5))]
        lay = Layout.of(enemy)
        group = Group(lay.models, lay)
        friends = [_model(rng, f"f{i}", 30.0, 20.0, 7.0) for i in range(rng.randint(0, 4))]
        near = rng.choice(enemy)
        end = _model(rng, "m", near.x, near.y, 4.5)
        got = group.engaged_any(end)
        seen[got] += 1
        if got:
            assert any_engaged(Layout.of([*friends, end]), lay)
    assert seen[True] > 20 and seen[False] > 20
