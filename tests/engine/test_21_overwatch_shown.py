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
from w40k.geometry.sight_stage import wanted_pairs

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


@pytest.mark.parametrize("convention", [False, True])
def test_no_model_pair_batched_twice_in_a_search_R15_09_a(convention: bool) -> None:
    # R15.09-a / 06.01: a first round's open pairs are not sent to the last round's batch
    # (overwatch_sight._last_mask): with the unit pairs asked one way (as Fire Overwatch
    # asks them), no model pair reaches two batches of a search; every unit pair's answer is
    # the full sight matrix's, and every later unit question on the same Visibility too
    again = open_first = 0
    for seed in range(10):
        scene = scene_from_dict(random_scene(np.random.default_rng(900 + seed)))
        for side in ("A", "B"):
            v = Visibility(scene, convention, jit=False)
            plain = Visibility(scene, convention, jit=False)
            us = v.scene.units
            pairs = [(a, b) for a in range(len(us)) for b in range(len(us))
                     if us[a].player == side and us[b].player != side]
            sent: list[tuple[set[tuple[int, int, int, int]], int]] = []
            stage = v._batch_stage

            def counting(unit_pairs, masks=None, spared=None, stage=stage,  # type: ignore[no-untyped-def]
                         sent=sent, v=v):
                todo = set(wanted_pairs(v.scene.units, v._raw_cache, unit_pairs, masks))
                out = stage(unit_pairs, masks, spared)
                sent.append((todo, len(out)))
                return out

            v._batch_stage = counting  # type: ignore[method-assign]
            got = overwatch_sight.seen_pairs(v, pairs)
            del v._batch_stage
            for i, (a, n) in enumerate(sent):
                if i == 0:
                    open_first += n
                for b, _ in sent[i + 1:]:
                    again += len(a & b)
            names = [u.name for u in us]
            want = [bool(plain.sight_matrix(names[a], names[b]).any()) for a, b in pairs]
            assert got == want, (seed, side)
            for (a, b), w in zip(pairs, want, strict=True):
                assert v.unit_sees(a, b) == w
    assert again == 0 and open_first > 0
