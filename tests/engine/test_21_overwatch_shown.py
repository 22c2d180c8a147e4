"""Fire Overwatch's search reads a staged pair's raw answer to show its unit pair seen
(pass ow21: ``overwatch_sight._shown`` without ``Visibility.visible``): on the pairs of a
mask within the unit pair's rule mask, a kept raw answer that is a seen value is the
visibility answer, 13.09 (hidden beyond detection range) and 24.24 (Lone Operative) being
the mask's own tests (R06.01-a, R13.09-b, R24.24-a, R15.09-a)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.engine.stratagems import overwatch_sight
from w40k.geometry import Visibility, scene_from_dict

pytestmark = pytest.mark.stratagems


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("convention", [False, True])
def test_shown_answers_as_visible_on_the_kept_pairs_R15_09_a(seed: int,
                                                            convention: bool) -> None:
    rng = np.random.default_rng(2100 + seed)
    v = Visibility(scene_from_dict(random_scene(np.random.default_rng(900 + seed))),
                   convention, jit=False)
    us = v.scene.units
    pairs = [(a, b) for a in range(len(us)) for b in range(len(us))
             if us[a].player != us[b].player]
    shown = hidden = 0
    for ou, tu in pairs:
        rule = v._rule_mask(ou, tu)
        hidden += int((~rule).sum())
        if rng.random() < 0.7:
            v.stage(ou, tu)  # some unit pairs kept whole, the others not at all
        for mask in (rule, rule & (rng.random(rule.shape) < 0.3), np.zeros_like(rule)):
            got = overwatch_sight._shown(v, (ou, tu), mask)
            want = any((ou, om, tu, tm) in v._raw_cache and v.visible(ou, om, tu, tm)
                       for om, tm in zip(*np.nonzero(mask), strict=True))
            assert got == want, (ou, tu)
            shown += got
    assert shown > 0 or not any(v.unit_sees(*p) for p in pairs)
