"""Fire Overwatch's staging (pass stage6): the nearest target model per observer model staged
first (``Visibility.stage_nearest``), then whole only the unit pairs those do not show seen.
``unit_sees`` answers exactly as ``sight_matrix(...).any()`` and every unit pair makes the same
per-pair searches, in the same order, as when every unit pair is staged whole first, on the
seeded random scenes of ``test_los_batch`` (walls, areas, upper levels, ovals, Lone
Operatives, both PARTIAL_HEIGHT conventions); fewer model pairs go through the batch."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict, sight_memo
from w40k.geometry.los import SightResult
from w40k.geometry.scene import Scene


def _unit_pairs(v: Visibility) -> list[tuple[int, int]]:
    us = v.scene.units
    return [(i, j) for i, a in enumerate(us) for j, b in enumerate(us) if a.player != b.player]


def _run(scene: Scene, conv: bool, nearest: bool
         ) -> tuple[list[bool], list[tuple[int, int, int, int]], int]:
    """The answers of ``unit_sees`` for every unit pair, the per-pair searches in order and
    the number of model pairs the batch decided or left open."""
    sight_memo.forget()  # no answer kept from the other run
    v = Visibility(scene, conv, jit=False)
    searched: list[tuple[int, int, int, int]] = []
    exact = v._exact_sight

    def counting(ou: int, om: int, tu: int, tm: int) -> SightResult:
        searched.append((ou, om, tu, tm))
        return exact(ou, om, tu, tm)

    v._exact_sight = counting  # type: ignore[method-assign]
    pairs = _unit_pairs(v)
    if nearest:
        units = v.scene.units
        v.stage_nearest([(ou, om, tu) for ou, tu in pairs for om in range(len(units[ou].models))])
        v.stage_many([p for p in pairs if not v.known_seen(*p)])
    else:
        v.stage_many(pairs)
    staged = len(v._raw_cache)
    return [v.unit_sees(ou, tu) for ou, tu in pairs], searched, staged


@pytest.mark.parametrize("seed", (0, 1, 2, 3, 6, 7))
def test_nearest_first_staging_changes_no_answer_nor_search(seed: int) -> None:
    # R06.01-a, R13.09-b, R24.24-a: the same unit visibility and the same searches
    scene = scene_from_dict(random_scene(np.random.default_rng(700 + seed)))
    for conv in (False, True):
        fast, fast_searched, fast_staged = _run(scene, conv, nearest=True)
        whole, whole_searched, whole_staged = _run(scene, conv, nearest=False)
        full = Visibility(scene, conv, jit=False)
        names = [u.name for u in full.scene.units]
        want = [bool(full.sight_matrix(names[ou], names[tu]).any())
                for ou, tu in _unit_pairs(full)]
        assert fast == whole == want, (seed, conv)
        assert fast_searched == whole_searched, (seed, conv)
        assert fast_staged <= whole_staged


def test_a_unit_pair_shown_seen_by_its_nearest_pairs_is_not_staged_whole() -> None:
    # R06.01-a: one seen model pair settles unit visibility; the rest need no batch
    scene = scene_from_dict(random_scene(np.random.default_rng(701)))
    v = Visibility(scene, jit=False)
    units = v.scene.units
    pairs = _unit_pairs(v)
    v.stage_nearest([(ou, om, tu) for ou, tu in pairs for om in range(len(units[ou].models))])
    seen = [p for p in pairs if v.known_seen(*p)]
    assert seen
    for ou, tu in seen:
        assert v.unit_sees(ou, tu)
        assert (ou, tu) not in v._staged
        known = sum((ou, om, tu, tm) in v._raw_cache for om in range(len(units[ou].models))
                    for tm in range(len(units[tu].models)))
        assert known <= len(units[ou].models)
