"""A model-level sight question's search order computed at once
(``sight_order.one_observer_order``, read by ``Visibility._search_open`` for the open pairs of
one observer model, ``model_sees``): the same order as the step-by-step loop (fewest
obstacles first, then ``next_pair``: the tally's score, the distance, the first in order,
the tally lowered after each pair searched), so the same searches in the same order."""

from __future__ import annotations

from typing import Any
from unittest import mock

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.los import Sight, SightResult
from w40k.geometry.sight_order import Tally, next_pair, one_observer_order
from w40k.geometry.visibility import _NO_HINT

Pair = tuple[int, int, int, int]
_ANSWERS = (SightResult(Sight.CLEAR, ((0.0, 0.0), (1.0, 1.0))), SightResult(Sight.CONVENTION),
            SightResult(Sight.BLOCKED))


def _loop_order(pairs: list[Pair], hint: dict[Pair, int], seen: dict[Pair, tuple[bool, str]],
                raw: dict[Pair, SightResult], conv: bool, no: int, nt: int,
                dist: np.ndarray) -> list[Pair]:
    """``_search_open``'s loop as it was, every pair answering "not seen": the tally of the
    unit pair's known answers (``_known_tally`` with the set membership), then one pair at
    a time."""
    ou, _, tu, _ = pairs[0]
    seen_values = {Sight.CLEAR} | ({Sight.CONVENTION} if conv else set())
    tally = Tally()
    for om in range(no):
        for tm in range(nt):
            k = (ou, om, tu, tm)
            if k in seen:
                tally.add(k, seen[k][0])
            elif k in raw:
                tally.add(k, raw[k].sight in seen_values)
    d = {k: float(dist[k[1], k[3]]) for k in pairs}
    kept = {k: hint.get(k, _NO_HINT) for k in pairs}
    left, out = list(pairs), []
    while left:
        fewest = min(kept[k] for k in left)
        k = next_pair([k for k in left if kept[k] == fewest], tally, d)
        left.remove(k)
        out.append(k)
        tally.hidden(k)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_order_at_once_is_the_loops_order(seed: int) -> None:
    # made-up tables with many ties: obstacle counts of 0-3 or none, distances on a coarse
    # grid (equal floats), known answers (kept visibility, raw sight of each kind) spread
    # over the unit pair, both conventions; the pairs in random orders and subsets
    rng = np.random.default_rng(2480 + seed)
    for _ in range(300):
        no, nt = int(rng.integers(1, 7)), int(rng.integers(2, 9))
        ou, tu = int(rng.integers(0, 4)), int(rng.integers(4, 8))
        om = int(rng.integers(no))
        tms = [int(t) for t in rng.permutation(nt)[:int(rng.integers(2, nt + 1))]]
        pairs = [(ou, om, tu, tm) for tm in tms]
        hint = {k: int(rng.integers(0, 4)) for k in pairs if rng.random() < 0.8}
        seen: dict[Pair, tuple[bool, str]] = {}
        raw: dict[Pair, SightResult] = {}
        for o in range(no):
            for t in range(nt):
                k, x = (ou, o, tu, t), rng.random()
                if x < 0.25:
                    seen[k] = (bool(rng.random() < 0.5), "")
                if x < 0.6 or x > 0.9:
                    raw[k] = _ANSWERS[int(rng.integers(3))]
        dist = np.round(rng.uniform(0.0, 3.0, (no, nt)) * 2.0) / 2.0
        if rng.random() < 0.2:
            dist[:] = 1.5  # every distance equal
        conv = bool(rng.random() < 0.5)
        got = one_observer_order(pairs, hint, seen, raw, conv, no, dist, _NO_HINT)
        assert got == _loop_order(pairs, hint, seen, raw, conv, no, nt, dist)


def _plain_search(v: Visibility, pairs: list[Pair], fresh: Visibility) -> list[Pair]:
    """The pairs the loop searches: its order up to the first pair seen."""
    units = v.scene.units
    ou, tu = pairs[0][0], pairs[0][2]
    order = _loop_order(pairs, v._hint, dict(v._seen_cache), dict(v._raw_cache),
                        v.convention_visible, len(units[ou].models), len(units[tu].models),
                        v.unit_distances(ou, tu))
    out = []
    for k in order:
        out.append(k)
        if fresh.visible(*k):
            break
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("conv", (False, True))
def test_model_sees_searches_the_same_pairs_in_the_same_order(seed: int, conv: bool) -> None:
    # R06.01-a, R13.09, R24.24: on seeded random scenes, each model-level question after its
    # row is staged (the batch's answers and obstacle counts) asks the open pairs in the
    # loop's order up to the first seen, and answers as a fresh Visibility
    data = random_scene(np.random.default_rng(2490 + seed))
    scene = scene_from_dict(data)
    v = Visibility(scene, convention_visible=conv, jit=False)
    fresh = Visibility(scene, convention_visible=conv, jit=False)
    units = scene.units
    rng = np.random.default_rng(seed)
    rows = [(ou, om, tu) for ou in range(len(units)) for tu in range(len(units))
            if units[ou].player != units[tu].player for om in range(len(units[ou].models))]
    asked = 0
    for i in rng.permutation(len(rows)):
        ou, om, tu = rows[int(i)]
        v.stage_rows({(ou, tu): [om]})
        mask = v._rule_mask(ou, tu)[om]
        keys = [(ou, om, tu, tm) for tm in range(len(mask)) if mask[tm]]
        open_ = [k for k in keys if k not in v._raw_cache and k not in v._seen_cache]
        expect = _plain_search(v, open_, fresh) if len(open_) > 1 else None
        calls: list[Pair] = []
        real = Visibility.visible

        def spy(
            self: Visibility, *k: int, calls: list[Pair] = calls, real: Any = real
        ) -> bool:
            calls.append(k)  # type: ignore[arg-type]
            return bool(real(self, *k))

        with mock.patch.object(Visibility, "visible", spy):
            got = v.model_sees(ou, om, tu)
        assert got == any(fresh.visible(*k) for k in keys)
        known_seen = any(fresh.visible(*k) for k in keys if k not in open_)
        if expect is not None and not known_seen:  # (``_any_seen`` searches the open pairs)
            assert calls == expect
            asked += 1
    assert asked > 0
