"""The unit wall proof is not tried for a unit pair with a kept raw answer that is not BLOCKED
(``sight_known.some_unblocked``, read by ``SightTables._walled_apart``): such a pair
refutes the proof, and without a try every pair is searched on its own, so every answer is
the per-pair search's. Checked on seeded random walled scenes (long walls, L-shaped ends,
gaps, areas, upper levels, ovals), asked in random orders after random batches."""

from __future__ import annotations

from typing import Any
from unittest import mock

import numpy as np
import pytest

from tests.engine.test_19_wall_candidates import _enemy_pairs, _walled_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.los import Sight, SightResult
from w40k.geometry.sight_known import some_unblocked
from w40k.geometry.sight_tables import SightTables

Key = tuple[int, int, int, int]


def _plain_some_unblocked(raw: dict[Key, SightResult], ou: int, tu: int) -> bool:
    """Any kept answer of the unit pair, either order, that is not BLOCKED."""
    return any(r.sight is not Sight.BLOCKED for k, r in raw.items()
               if (k[0], k[2]) in ((ou, tu), (tu, ou)))


def _every_pair(v: SightTables, ou: int, tu: int) -> list[Key]:
    units = v.scene.units
    return [(ou, om, tu, tm) for om in range(len(units[ou].models))
            for tm in range(len(units[tu].models))]


@pytest.mark.parametrize("seed", range(8))
def test_the_skipped_tries_change_no_answer(seed: int) -> None:
    # R06.01-a, R13.10, R13.11: every raw sight asked (random unit pairs batched first, then
    # every pair of every enemy unit pair in a random order, both orders) equals the per-pair
    # search's with no unit proof at all; the skip is made where some answer is known open
    # and the proof still runs (and proves) where none is
    rng = np.random.default_rng(2400 + seed)
    skipped = proved = 0
    for _ in range(3):
        scene = scene_from_dict(_walled_scene(rng))
        v = Visibility(scene, jit=False)
        pairs = _enemy_pairs(v)
        staged = [pairs[int(i)] for i in rng.permutation(len(pairs))[:len(pairs) // 2]]
        v.stage_many(staged)
        keys = [k for p in pairs for k in _every_pair(v, *p)]
        order = rng.permutation(len(keys))
        tries: list[tuple[int, int, bool, bool]] = []
        real = SightTables._walled_search

        def spy(
            self: SightTables, ou: int, tu: int, real: Any = real,
            tries: list[tuple[int, int, bool, bool]] = tries,
        ) -> bool:
            out = bool(real(self, ou, tu))
            tries.append((ou, tu, out, _plain_some_unblocked(self._raw_cache, ou, tu)))
            return out

        with mock.patch.object(SightTables, "_walled_search", spy):
            fast = {keys[i]: v.raw_sight(*keys[i]) for i in order}
        with mock.patch.object(SightTables, "_walled_apart", return_value=False):
            slow_v = Visibility(scene, jit=False)
            slow = {k: slow_v.raw_sight(*k) for k in keys}
        assert fast == slow
        # a try is made only where no kept answer of the unit pair is open
        assert not any(known for *_, known in tries)
        for (ou, tu), hit in v._walled.items():
            assert hit is any(t[:3] == (ou, tu, True) for t in tries)
            skipped += not any(t[:2] == (ou, tu) for t in tries)
        proved += sum(1 for t in tries if t[2])
    assert skipped > 0
    assert proved > 0


@pytest.mark.parametrize("seed", range(4))
def test_some_unblocked_reads_every_kept_answer(seed: int) -> None:
    # the scan against the plain test over the kept table: after random batches and
    # searches, for every ordered enemy unit pair, with CLEAR, CONVENTION and BLOCKED
    # answers put in at random keys (either order)
    rng = np.random.default_rng(2450 + seed)
    v = Visibility(scene_from_dict(_walled_scene(rng)), jit=False)
    pairs = _enemy_pairs(v)
    v.stage_many([pairs[int(i)] for i in rng.permutation(len(pairs))[:3]])
    units = v.scene.units
    answers = (SightResult(Sight.CLEAR, ((0.0, 0.0), (1.0, 1.0))),
               SightResult(Sight.CONVENTION), SightResult(Sight.BLOCKED))
    for step in range(40):
        ou, tu = pairs[int(rng.integers(len(pairs)))]
        om, tm = int(rng.integers(len(units[ou].models))), int(rng.integers(len(units[tu].models)))
        if step % 3 == 0:
            v._keep_raw((ou, om, tu, tm), answers[int(rng.integers(3))])
        for a, b in pairs:
            got = some_unblocked(v._raw_cache, a, len(units[a].models), b,
                                 len(units[b].models))
            assert got is _plain_some_unblocked(v._raw_cache, a, b)
    # only BLOCKED kept: no unit pair is known open
    blocked = {k: answers[2] for k in _every_pair(v, *pairs[0])}
    assert not some_unblocked(blocked, *_sizes(v, *pairs[0]))
    blocked[_every_pair(v, *pairs[0])[-1]] = answers[1]  # the last pair CONVENTION
    assert some_unblocked(blocked, *_sizes(v, *pairs[0]))


def _sizes(v: SightTables, ou: int, tu: int) -> tuple[int, int, int, int]:
    units = v.scene.units
    return ou, len(units[ou].models), tu, len(units[tu].models)
