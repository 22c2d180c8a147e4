"""Fire Overwatch's search (pass ow20): the batch spares the single-wall proof of a model pair
whose unit pair another pair already shows seen (``batch_sight``'s ``spare_groups``,
``SightTables._batch_stage``'s ``spared``), and the search's 24" reach settles a unit pair of
round bases pair by pair, not by the closest models' distance (``interventions._in_reach``).
Both give the plain answers: every status, kept answer and unit answer as without them
(R06.01-a, R15.09-a)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.battle_shifts import enemy_pairs, shifted_rounds
from tests.geometry.test_los_batch import random_scene
from w40k.engine import field, geo
from w40k.engine.phases.melee_measure import EPS, units_distance, units_within
from w40k.engine.phases.shooting_facts import ShooterFacts
from w40k.engine.stratagems import interventions, overwatch_sight
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.los import Sight

pytestmark = pytest.mark.stratagems


def _pairs(v: Visibility) -> list[tuple[int, int]]:
    us = v.scene.units
    return [(a, b) for a in range(len(us)) for b in range(len(us))
            if us[a].player != us[b].player]


def _scene(seed: int) -> Visibility:
    return Visibility(scene_from_dict(random_scene(np.random.default_rng(900 + seed))),
                      jit=False)


@pytest.mark.parametrize("seed", range(10))
def test_spared_pairs_leave_every_other_answer_as_the_plain_batch_R06_01_a(seed: int) -> None:
    # R06.01-a: a unit pair sees when one model pair does; the pairs spared are those the
    # single-wall proof would try in a unit pair with a CLEAR pair in the same call
    plain, v = _scene(seed), _scene(seed)
    pairs = [p for p in _pairs(v) if p[0] < p[1]]  # (one order: the groups are the pairs)
    left_plain = plain._batch_stage(pairs)
    spared: list[tuple[int, int, int, int]] = []
    left = v._batch_stage(pairs, None, spared)
    for k, r in v._raw_cache.items():  # every kept answer is the plain batch's, witness too
        assert plain._raw_cache[k] == r, (seed, k)
    clear = {(k[0], k[2]) for k, r in v._raw_cache.items() if r.sight is Sight.CLEAR}
    for k in spared:
        assert (k[0], k[2]) in clear  # another pair of its unit pair is CLEAR
        r = plain._raw_cache.get(k)
        assert r is None or r.sight is Sight.BLOCKED  # never a pair the batch shows CLEAR
        assert k not in v._raw_cache and k not in v._hint
    # the pairs left open are the plain ones less the spared
    assert left == [k for k in left_plain if k not in set(spared)]
    both = set(spared) | {(k[2], k[3], k[0], k[1]) for k in spared}
    assert set(v._raw_cache) == set(plain._raw_cache) - both


def test_the_batch_spares_some_pairs_on_the_random_scenes() -> None:
    # guards the point: some wall proofs are spared, in unit pairs that see
    spared: list[tuple[int, int, int, int]] = []
    for seed in range(10):
        v = _scene(seed)
        v._batch_stage([p for p in _pairs(v) if p[0] < p[1]], None, spared)
    assert len(spared) > 20


@pytest.mark.parametrize("seed", range(10))
def test_search_with_spared_pairs_answers_as_every_pair_staged_R15_09_a(seed: int) -> None:
    # R15.09-a: the search's answers, and every later question on the same Visibility (the
    # spared pairs' unit pairs are not marked staged: a later question stages them)
    for conv in (False, True):
        scene = _scene(seed).scene
        full = Visibility(scene, conv, jit=False)
        pairs = _pairs(full)
        want = [bool(full.sight_matrix(scene.units[a].name, scene.units[b].name).any())
                for a, b in pairs]
        v = Visibility(scene, conv, jit=False)
        assert overwatch_sight.seen_pairs(v, pairs) == want, (seed, conv)
        for k, r in v._raw_cache.items():
            assert r.sight is full._raw_cache[k].sight
        for (a, b), w in zip(pairs, want, strict=True):
            assert v.unit_sees(a, b) == w
            m = full.sight_matrix(scene.units[a].name, scene.units[b].name)
            for om in range(m.shape[0]):
                assert v.model_sees(a, om, b) == bool(m[om].any())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_reach_answers_as_units_within_R15_09_a(seed: int) -> None:
    # R15.09-a (within 24"), R01.04-a: every enemy unit pair of a battle, one unit shifted at
    # random, at 24", at the units' own distance and 1e-9" to 1e-3" around it, and at the
    # boxes' gap and around it: the pair-by-pair answer for round bases is units_within's;
    # and ``_in_reach`` with its kept engagement answers lists the plain filter's units
    decided = 0
    for game in shifted_rounds(seed):
        ctx, units = game.ctx, game.state.units
        for a, b in enemy_pairs(game):
            la, lb = field.layout(a), field.layout(b)
            gap = la.box_gap(lb)
            own = units_distance(a, b)
            for dist in (interventions.SNAP_RANGE, own, own - EPS, gap, gap - EPS):
                for off in (-1e-3, -1e-4, -1e-6, -1e-9, 0.0, 1e-9, 1e-6, 1e-4, 1e-3):
                    d = max(0.0, dist + off)
                    got = interventions._round_within(la, lb, d)
                    if got is not None:
                        decided += 1
                        assert got == units_within(a, b, d), (a.id, b.id, d)
        engaged: dict[int, bool] = {}
        for s in units:
            if s.destroyed:
                continue
            facts = ShooterFacts(ctx, s)
            want = [e for e in facts.enemies
                    if units_within(s, e, interventions.SNAP_RANGE)
                    and not geo.is_engaged(ctx, e)]
            assert interventions._in_reach(ctx, facts, engaged) == want
            assert interventions._in_reach(ctx, facts) == want
    assert decided > 1000
