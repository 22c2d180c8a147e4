"""The batch's relevance step (``los_batch.batch_sight``: which obstacles have an edge within
the pair's reach of its centre segment) marks an obstacle relevant at once when one of its
edges has an end well inside that reach with its foot on the segment (the prefilter's
offsets, a 1e-6 margin), and measures exactly only the other obstacles' couples: the same
relevant obstacles as the exact test of every (pair, edge) couple (box by the reach, then
``_seg_dist <= reach``, the floats of ``los._relevant_edges``), on random discs and obstacles
and on obstacles placed within a hair of the reach and of the segment's ends. R06.01-a (the
obstacles a line between the two models may meet)."""

from __future__ import annotations

import numpy as np
import pytest

from w40k.geometry.los import Obstacles
from w40k.geometry.los_batch import batch_sight
from w40k.geometry.los_dist import _seg_dist


def _exact(oc: np.ndarray, ro: np.ndarray, tc: np.ndarray, rt: np.ndarray,
           obs: Obstacles) -> np.ndarray:
    """``rel[pair, owner]`` by the exact test of every couple."""
    n_own = int(obs.owner.max()) + 1
    rad = np.maximum(ro, rt)
    pi, ei = np.divmod(np.arange(len(oc) * len(obs.a)), len(obs.a))
    reach = rad[pi] + obs.grow[ei] + 1e-9
    lo, hi = np.minimum(oc, tc), np.maximum(oc, tc)
    e_lo, e_hi = np.minimum(obs.a, obs.b), np.maximum(obs.a, obs.b)
    box = ((e_hi[ei] + reach[:, None] >= lo[pi]) & (e_lo[ei] - reach[:, None] <= hi[pi])).all(
        axis=1)
    dist = _seg_dist(oc[pi], tc[pi], obs.a[ei], obs.b[ei])
    close = box & (dist <= reach)
    out = np.zeros((len(oc), n_own), dtype=bool)
    out[pi[close], obs.owner[ei[close]]] = True
    return out


def _batch_relevance(oc: np.ndarray, ro: np.ndarray, tc: np.ndarray, rt: np.ndarray,
                     obs: Obstacles) -> np.ndarray:
    top = np.full(len(oc), 1.0)
    relevant: list[np.ndarray] = []
    batch_sight(oc, ro, top, tc, rt, top, obs, None, None, relevant)
    n_own = int(obs.owner.max()) + 1
    if not relevant:  # (every pair CLEAR before the step: no edge near any)
        return np.zeros((len(oc), n_own), dtype=bool)
    return relevant[0][:, :n_own]


def _random_case(rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    n = 30
    oc = rng.uniform(0, 30, (n, 2))
    tc = oc + rng.uniform(-12, 12, (n, 2))
    ro, rt = rng.choice([0.5, 0.63, 1.0, 1.5], n), rng.choice([0.5, 0.63, 1.0, 1.5], n)
    return oc, ro, tc, rt


def _random_obstacles(rng: np.random.Generator) -> Obstacles:
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(60):
        kind = rng.integers(3)
        c = rng.uniform(-2, 42, 2)
        if kind == 0:  # a model base: one point
            items.append((c[None, :], float(rng.choice([0.5, 0.63, 1.0])), 2.0))
        elif kind == 1:  # a wall segment
            items.append((np.array([c, c + rng.uniform(-6, 6, 2)]), 0.03, 5.0))
        else:  # a ruin's polygon
            w, d = rng.uniform(0.2, 5, 2)
            corners = np.array([[0.0, 0.0], [w, 0.0], [w, d], [0.0, d]])
            items.append((c[None, :] + corners, 0.03, 5.0))
    return Obstacles.build(items)


@pytest.mark.parametrize("seed", range(6))
def test_random_discs_and_obstacles(seed: int) -> None:
    rng = np.random.default_rng(2000 + seed)
    oc, ro, tc, rt = _random_case(rng)
    obs = _random_obstacles(rng)
    exact = _exact(oc, ro, tc, rt, obs)
    assert exact.any() and not exact.all()
    assert np.array_equal(_batch_relevance(oc, ro, tc, rt, obs), exact)


@pytest.mark.parametrize("seed", range(4))
def test_obstacles_a_hair_from_the_reach_and_the_ends(seed: int) -> None:
    """Points and edges at the pair's reach (plus or minus up to 2e-6) across the centre
    line, with feet just before, at and after each end of the segment."""
    rng = np.random.default_rng(3000 + seed)
    oc, ro, tc, rt = _random_case(rng)
    oc, ro, tc, rt = oc[:4], ro[:4], tc[:4], rt[:4]
    items: list[tuple[np.ndarray, float, float]] = []
    for p in range(4):
        d = tc[p] - oc[p]
        length = float(np.hypot(*d))
        u = d / length
        n = np.array([-u[1], u[0]])
        rad = max(float(ro[p]), float(rt[p]))
        for grow in (0.03, 0.63):
            reach = rad + grow + 1e-9
            for along in (-1e-2, -1e-3, -1e-6, -1e-7, 0.0, 1e-7, length / 2, length - 1e-7,
                          length, length + 1e-7, length + 1e-6, length + 1e-3, length + 1e-2):
                for off in (-2e-6, -1e-6, -5e-7, -1e-8, 0.0, 1e-8, 5e-7, 1e-6, 2e-6):
                    for side in (1.0, -1.0):
                        q = oc[p] + u * along + n * side * (reach + off)
                        if rng.random() < 0.5:
                            items.append((q[None, :], grow, 2.0))
                        else:  # an edge going away from the line
                            items.append((np.array([q, q + n * side * 3.0]), grow, 2.0))
    obs = Obstacles.build(items)
    exact = _exact(oc, ro, tc, rt, obs)
    assert exact.any() and not exact.all()
    assert np.array_equal(_batch_relevance(oc, ro, tc, rt, obs), exact)
