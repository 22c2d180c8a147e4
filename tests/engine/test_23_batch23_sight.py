"""The batch23 pass's batch line of sight (``los_batch.batch_sight``: the segment distances on
(2, N) rows, the centre segments' vectors, lengths and directions computed once for the
centre line and the single-wall proof, the proof's clearance test and the centre chords on
both discs at once)
answers as e2de85a's, kept in ``tests/engine/batch22_reference.py``: every status, witness
bit, kept obstacle count, relevance row and spared pair the same (R06.01-a), on new seeded
random scenes of the batch22 test's kinds, and on pairs with a disc centre inside a wall or
a disc touching a wall (the clearance test's two halves)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engine import batch22_reference
from tests.engine.test_22_batch_sight import _both, _pairs, _scene
from w40k.geometry import los_batch
from w40k.geometry.los_batch import BLOCKED, CLEAR, UNDECIDED, batch_sight


def _inside(rng: np.random.Generator, pairs: tuple[np.ndarray, ...], walls: np.ndarray
            ) -> tuple[np.ndarray, ...]:
    """The pairs with a third of the observer or target centres moved onto a wall's first
    vertex, just inside it, or 1e-9 around a disc radius plus the wall's grow from its
    edge (the single-wall proof's clearance ``r + grow + 1e-6`` and inside tests)."""
    oc, ro, top_o, tc, rt, top_t = (np.array(x, copy=True) for x in pairs)
    if len(walls) == 0:
        return oc, ro, top_o, tc, rt, top_t
    for i in range(len(oc)):
        if i % 3:
            continue
        v = walls[int(rng.integers(0, len(walls)))]
        c, r = (oc, ro) if rng.random() < 0.5 else (tc, rt)
        case = int(rng.integers(0, 3))
        if case == 0:
            c[i] = v
        elif case == 1:
            c[i] = v + np.array([0.1, 0.1])
        else:
            c[i] = v - np.array([0.0, float(r[i]) + 0.02 + 1e-6
                                 + float(rng.integers(-1, 2)) * 1e-9])
    return oc, ro, top_o, tc, rt, top_t


@pytest.mark.parametrize("order", ("tail", "mixed", "shuffled"))
@pytest.mark.parametrize("seed", (0, 1))
def test_batch_sight_answers_as_e2de85a_batch23(order: str, seed: int) -> None:
    # R06.01-a: the same statuses, witnesses, counts and relevance rows as before the passes
    rng = np.random.default_rng(23_000 + seed + 7 * len(order))
    seen = {UNDECIDED: 0, CLEAR: 0, BLOCKED: 0, 3: 0}
    for trial in range(36):
        size = float(rng.choice([24.0, 48.0]))
        obs = _scene(rng, int(rng.integers(1, 40)), int(rng.integers(0, 60)), size, order)
        n_own = int(obs.owner.max()) + 1
        # the walls' first vertices (the obstacles of more than one edge)
        firsts = np.searchsorted(obs.owner, np.arange(n_own)) if order != "shuffled" else []
        walls = np.array([obs.a[k] for k in firsts
                          if k + 1 < len(obs.owner) and obs.owner[k + 1] == obs.owner[k]])
        for n in (1, 4, 6, 30, 250 if trial % 6 == 0 else 60):
            pairs = _pairs(rng, n, size, obs)
            if trial % 2:
                pairs = _inside(rng, pairs, walls)
            allowed_m = None if trial % 3 == 0 else rng.random((n, n_own)) < 0.85
            groups = rng.integers(0, max(n // 4, 1), size=n) if trial % 4 == 1 else None
            _both(pairs, obs, allowed_m, groups)
            st = batch_sight(*pairs, obs, None, None, None, groups)[0]
            for s in st.tolist():
                seen[s] += 1
    assert seen[CLEAR] > 100 and seen[UNDECIDED] > 50, seen
    assert seen[BLOCKED] > 50 or order == "shuffled", seen


def test_centre_chords_both_discs_at_once_are_the_disc_by_disc_floats() -> None:
    """``_centre_chords`` (both discs stacked, the nested end choice folded) against the
    batch22 reference's, every output bit for bit: random discs, coincident centres (no
    direction: NaN), touching and overlapping discs, equal tops and tops 1e-12 apart."""
    rng = np.random.default_rng(23_500)
    for trial in range(400):
        n = int(rng.integers(1, 60))
        oc = rng.uniform(0.0, 30.0, size=(n, 2))
        tc = rng.uniform(0.0, 30.0, size=(n, 2))
        ro = rng.choice([0.49, 0.63, 1.18, 2.5], size=n)
        rt = rng.choice([0.49, 0.63, 1.18, 2.5], size=n)
        top_o = rng.choice([1.0, 1.5, 2.0], size=n)
        top_t = top_o + rng.choice([0.0, 1e-12, -1e-12, 0.5, -0.5], size=n)
        kind = trial % 4
        if kind == 1:
            tc[::3] = oc[::3]  # coincident centres
        elif kind == 2:
            tc[::2] = oc[::2] + np.array([1.0, 0.0]) * (ro[::2] + rt[::2])[:, None]  # touching
        elif kind == 3:
            tc = oc + rng.uniform(-0.5, 0.5, size=(n, 2))  # overlapping
        dvec = tc - oc
        with np.errstate(divide="ignore", invalid="ignore"):
            d = dvec / np.hypot(dvec[:, 0], dvec[:, 1])[:, None]
            got = los_batch._centre_chords(oc, ro, tc, rt, d, top_o, top_t)
            want = batch22_reference._centre_chords(oc, ro, tc, rt, d, top_o, top_t)
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype and g.shape == w.shape
            assert g.tobytes() == w.tobytes()
