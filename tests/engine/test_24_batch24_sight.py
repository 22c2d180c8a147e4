"""The batch24 pass's batch line of sight (``los_batch.batch_sight``: its constants as 0-d
arrays, the relevance distances skipped where no couple is left for them, the early return
where no pair keeps an obstacle, the batch's box off the centre segments' boxes, the centre
segments' directions and the centre line's witness ends on (2, P) rows, the scene's point
test and squared edge lengths by columns; ``seg_dist_rows`` of no rows; the stage's
``allowed`` by flat index into the area membership matrix) answers as e2de85a's, kept in
``tests/engine/batch22_reference.py``: every status, witness bit, kept obstacle count,
relevance row and spared pair the same (R06.01-a), on seeded random scenes of the batch22
test's kinds, with batches whose couples are all decided by the sure test (one pair, pairs
across one wall), batches where no pair keeps an obstacle (every obstacle not allowed, or
lower than both tops) and batches with no couple at all."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.engine.test_22_batch_sight import _both, _pairs, _scene
from w40k.geometry import stage_rows
from w40k.geometry.los import Obstacles
from w40k.geometry.los_batch import CLEAR, UNDECIDED, batch_sight
from w40k.geometry.los_dist import _seg_dist_plain, seg_dist_rows


@pytest.mark.parametrize("order", ("tail", "mixed", "shuffled"))
@pytest.mark.parametrize("seed", (0, 1))
def test_batch_sight_answers_as_e2de85a_batch24(order: str, seed: int) -> None:
    # R06.01-a: the same statuses, witnesses, counts and relevance rows as before the passes
    rng = np.random.default_rng(24_000 + seed + 11 * len(order))
    seen = {UNDECIDED: 0, CLEAR: 0, 2: 0, 3: 0}
    for trial in range(30):
        size = float(rng.choice([24.0, 48.0]))
        obs = _scene(rng, int(rng.integers(1, 30)), int(rng.integers(0, 40)), size, order)
        n_own = int(obs.owner.max()) + 1
        for n in (1, 2, 3, 8, 40):
            pairs = _pairs(rng, n, size, obs)
            case = trial % 5
            allowed_m = None if case == 0 else rng.random((n, n_own)) < 0.85
            if case == 1:
                allowed_m = np.zeros((n, n_own), dtype=bool)  # nothing counts: no couple
            elif case == 2:
                # both tops above every finite obstacle: only the infinite ones are kept
                pairs = (*pairs[:2], pairs[2] + 10.0, *pairs[3:5], pairs[5] + 10.0)
            elif case == 3:
                # every obstacle allowed but the infinite ones and one in three
                allowed_m = np.ones((n, n_own), dtype=bool)
                allowed_m[:, ::3] = False
                allowed_m[:, np.isinf(_owner_tops(obs))] = False
            groups = rng.integers(0, max(n // 3, 1), size=n) if trial % 2 else None
            _both(pairs, obs, allowed_m, groups)
            st = batch_sight(*pairs, obs, None, None, None, groups)[0]
            for s in st.tolist():
                seen[s] += 1
    assert seen[CLEAR] > 100 and seen[UNDECIDED] > 20, seen


def _owner_tops(obs: Obstacles) -> np.ndarray:
    """Each obstacle's top (that of one of its edges: an obstacle has one top)."""
    out = np.zeros(int(obs.owner.max()) + 1)
    out[obs.owner] = obs.top
    return out


def test_batch_sight_answers_as_e2de85a_across_one_wall() -> None:
    """Pairs straight across one wall (every couple within reach by the sure test: nothing
    left for the relevance distances), beside it (no couple), and over it (no obstacle kept
    above the lower top), each compared bit for bit."""
    rng = np.random.default_rng(24_100)
    for trial in range(60):
        x, y = rng.uniform(5.0, 15.0, size=2)
        w, top = float(rng.uniform(0.2, 3.0)), float(rng.choice([1.0, 2.0, 6.0]))
        wall = np.array([[x, y], [x + w, y], [x + w, y + 4.0], [x, y + 4.0]])
        obs = Obstacles.build([(wall, 0.02, top)])
        n = int(rng.integers(1, 6))
        ys = rng.uniform(y + 0.5, y + 3.5, size=n)
        kind = trial % 3
        gap = float(rng.choice([0.0, 3.0, 30.0])) if kind == 1 else 0.0
        oc = np.stack([np.full(n, x - 2.0) - gap, ys], axis=1)
        tc = np.stack([np.full(n, x + w + 2.0) + gap, ys + rng.uniform(-0.3, 0.3, n)], axis=1)
        if kind == 1:
            oc[:, 1] += 20.0
            tc[:, 1] += 20.0
        ro = rng.choice([0.49, 0.63, 1.18], size=n)
        rt = rng.choice([0.49, 0.63, 1.18], size=n)
        tops = rng.choice([1.0, 1.5, 2.0], size=n) + (10.0 if kind == 2 else 0.0)
        pairs = (oc, ro, tops, tc, rt, tops.copy())
        _both(pairs, obs, None, None)
        _both(pairs, obs, np.ones((n, 1), dtype=bool), np.zeros(n, dtype=np.int64))


def test_seg_dist_rows_of_no_rows_is_the_arrays_answer() -> None:
    empty = np.zeros((2, 0))
    got = seg_dist_rows(empty, empty, empty, empty)
    want = _seg_dist_plain(*(np.zeros(0),) * 8)
    assert got.dtype == want.dtype == np.float64 and got.shape == want.shape == (0,)


def _plain_allowed(owner_unit: np.ndarray, owner_area: np.ndarray, ou_a: np.ndarray,
                   tu_a: np.ndarray, og: np.ndarray, tg: np.ndarray,
                   in_area: np.ndarray | None
                   ) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """The stage's ``allowed`` as 6046aca wrote it (two-index membership reads)."""
    def allowed(pi: np.ndarray, own: np.ndarray) -> np.ndarray:
        ua = owner_unit[own]
        ok: np.ndarray = (ua != ou_a[pi]) & (ua != tu_a[pi])
        if in_area is not None:
            ar = owner_area[own]
            arc = np.maximum(ar, 0)
            ok &= ~((ar >= 0) & (in_area[og[pi], arc] | in_area[tg[pi], arc]))
        return ok
    return allowed


@pytest.mark.parametrize("seed", range(3))
def test_allowed_by_flat_index_is_the_two_index_reads(seed: int) -> None:
    # R06.01-a (the two units' own models) and R13.10-a (areas either model is in)
    rng = np.random.default_rng(24_200 + seed)
    for trial in range(80):
        n_models, n_cols = int(rng.integers(1, 40)), int(rng.integers(1, 6))
        n_own, n_units = int(rng.integers(1, 60)), int(rng.integers(1, 6))
        owner_unit = rng.integers(-1, n_units, size=n_own)
        owner_area = np.where(rng.random(n_own) < 0.4, rng.integers(0, n_cols, size=n_own), -1)
        in_area = rng.random((n_models, n_cols)) < 0.3 if trial % 4 else None
        n_p = int(rng.integers(1, 30))
        og, tg = rng.integers(0, n_models, size=n_p), rng.integers(0, n_models, size=n_p)
        ou_a, tu_a = rng.integers(0, n_units, size=n_p), rng.integers(0, n_units, size=n_p)
        args = (owner_unit, owner_area, ou_a, tu_a, og, tg, in_area)
        fast, plain = stage_rows.allowed_fn(*args), _plain_allowed(*args)
        for m in (0, 1, 200):
            pi, own = rng.integers(0, n_p, size=m), rng.integers(0, n_own, size=m)
            got, want = fast(pi, own), plain(pi, own)
            assert got.dtype == want.dtype == np.bool_ and np.array_equal(got, want)
