"""The sight7 pass's cheaper prefilters answer exactly as the code they replace: the batch
line of sight's per-edge slack and its hull-side pre-test (``los_batch.batch_sight``, against
the pre-pass copy in ``los_batch_reference``), and the single-wall proof's "some obstacle may
meet both hull sides" pre-test (``los_sides._may_meet_both``), on seeded random scenes."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from tests.geometry.los_batch_reference import reference_batch_sight
from tests.geometry.random_obstacles import random_obstacles
from w40k.geometry import los, los_sides
from w40k.geometry.los import Obstacles
from w40k.geometry.los_batch import BLOCKED, CLEAR, UNDECIDED, batch_sight
from w40k.geometry.los_dist import _seg_dist
from w40k.geometry.shapes import Circle, Oval, Polygon, Shape


def _items(rng: np.random.Generator, n: int, size: float) -> Obstacles:
    """``n`` obstacles on a ``size`` square: model bases of mixed radii, walls (rectangles
    and L-shaped, not convex) and obscuring areas, with tops from low to infinite."""
    items = []
    for _ in range(n):
        x, y = rng.uniform(0, size, size=2)
        top = float(rng.choice([0.5, 1.5, 2.5, 6.0, np.inf]))
        kind = rng.random()
        if kind < 0.4:
            items.append((np.array([[x, y]]), float(rng.uniform(0.3, 1.3)), top))
            continue
        w, h = rng.uniform(0.2, 4, size=2)
        if kind < 0.6:  # a long thin wall, across or along
            w, h = (float(rng.uniform(2, 10)), 0.2)[:: 1 if rng.random() < 0.5 else -1]
        if kind < 0.75:
            poly = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
        else:
            poly = np.array([[x, y], [x + w, y], [x + w, y + 0.3], [x + 0.3, y + 0.3],
                             [x + 0.3, y + h], [x, y + h]])
        items.append((poly, 1e-6 if np.isinf(top) else 0.02, top))
    return Obstacles.build(items)


def _pairs(rng: np.random.Generator, n: int, size: float) -> tuple[np.ndarray, ...]:
    """``n`` observer / target discs clustered on part of the table (so that some obstacles
    are far from every pair), with mixed radii and tops."""
    x0, y0 = rng.uniform(0, size * 0.6, size=2)
    span = float(rng.uniform(3, size * 0.4))
    oc = np.stack([rng.uniform(x0, x0 + span, n), rng.uniform(y0, y0 + span, n)], axis=1)
    tc = np.stack([rng.uniform(x0, x0 + span, n), rng.uniform(y0, y0 + span, n)], axis=1)
    ro = rng.choice([0.49, 0.63, 0.79, 1.18], size=n)
    rt = rng.choice([0.49, 0.63, 0.79, 1.18], size=n)
    top_o = rng.choice([1.0, 1.5, 2.0, 3.0], size=n)
    top_t = rng.choice([1.0, 1.5, 2.0, 3.0], size=n)
    return oc, ro, top_o, tc, rt, top_t


@pytest.mark.parametrize("seed", (0, 1))
def test_batch_sight_answers_as_before_its_tighter_prefilters(seed: int) -> None:
    # R06.01-a: the tighter prefilters change no status and no witness (bit for bit)
    rng = np.random.default_rng(7000 + seed)
    seen = {UNDECIDED: 0, CLEAR: 0, BLOCKED: 0}
    for trial in range(150):
        size = float(rng.choice([24.0, 48.0]))
        obs = _items(rng, int(rng.integers(5, 80)), size)
        pairs = _pairs(rng, int(rng.integers(1, 40)), size)
        allowed = None
        if trial % 3 == 0:
            def allowed(pi: np.ndarray, own: np.ndarray) -> np.ndarray:
                return np.asarray((pi + own) % 5 != 0, dtype=bool)
        new = batch_sight(*pairs, obs, allowed)
        old = reference_batch_sight(*pairs, obs, allowed)
        for x, y in zip(new, old, strict=True):
            assert np.array_equal(x, y)
        for s in new[0].tolist():
            seen[s] += 1
    assert all(v > 30 for v in seen.values()), seen



@pytest.mark.parametrize("seed", (0, 1))
def test_batch_sight_answers_as_before_with_its_kept_scene_arrays(seed: int) -> None:
    # R06.01-a: the batch9 pass keeps each scene's edge arrays for the scene's next calls,
    # reads no cut-down obstacles and multiplies no matrices: several batches on one scene
    # (the kept arrays), a large batch (once a threaded matrix product), and a scene whose
    # edges are not in owner order (the cut-down path) answer as the reference, bit for bit
    rng = np.random.default_rng(9100 + seed)
    for trial in range(12):
        size = float(rng.choice([24.0, 48.0]))
        obs = _items(rng, int(rng.integers(20, 80)), size)
        if trial % 4 == 3:  # edges shuffled: one obstacle's edges not contiguous
            perm = rng.permutation(len(obs.a))
            obs = dataclasses.replace(obs, a=obs.a[perm], b=obs.b[perm], grow=obs.grow[perm],
                                      top=obs.top[perm], owner=obs.owner[perm])
        for n in (1, 7, 40, 450 if trial % 4 == 0 else 60):
            pairs = _pairs(rng, n, size)
            allowed = None
            if n % 2 == 0:
                def allowed(pi: np.ndarray, own: np.ndarray) -> np.ndarray:
                    return np.asarray((pi + own) % 5 != 0, dtype=bool)
            new = batch_sight(*pairs, obs, allowed)
            old = reference_batch_sight(*pairs, obs, allowed)
            for x, y in zip(new, old, strict=True):
                assert x.dtype == y.dtype and np.array_equal(x, y)


def _footprint(rng: np.random.Generator, cx: float, cy: float, kind: int) -> Shape:
    if kind == 0:
        return Circle(cx, cy, float(rng.uniform(0.4, 1.6)))
    if kind == 1:
        return Oval(cx, cy, float(rng.uniform(1.0, 2.5)), float(rng.uniform(0.5, 1.0)),
                    float(rng.uniform(0, math.pi)))
    w, h = float(rng.uniform(1, 3)), float(rng.uniform(1, 2))
    return Polygon(((cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)))


def test_single_wall_proof_answers_as_without_its_pre_test(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # R06.01-a / R13.10: the pre-test only skips the exact side distances where no obstacle
    # can meet both hull sides; every proof's answer is the same
    rng = np.random.default_rng(7100)
    cases = []
    for trial in range(600):
        o = _footprint(rng, float(rng.uniform(-2, 4)), float(rng.uniform(-2, 22)), trial % 3)
        t = _footprint(rng, float(rng.uniform(10, 22)), float(rng.uniform(-2, 22)),
                       (trial // 3) % 3)
        tops = [float(v) for v in rng.choice([1.0, 1.5, 2.0, 3.0], size=2)]
        obs = _items(rng, int(rng.integers(1, 40)), 24.0) if trial % 2 else random_obstacles(
            rng, int(rng.integers(1, 40)))
        cases.append((o, tops[0], t, tops[1], los.relevant(o, t, obs)))
    fast = [los._single_wall_separates(*c) for c in cases]
    monkeypatch.setattr(los, "_may_meet_both", lambda *args: True)
    slow = [los._single_wall_separates(*c) for c in cases]
    assert fast == slow
    assert 40 < sum(fast) < len(fast) - 40


@pytest.mark.parametrize("loop", (0, 10**6))
def test_may_meet_both_is_a_necessary_condition(
    loop: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an obstacle with edges within half its grow of each hull side (exact distances) is
    # never ruled out by the pre-test (as arrays, loop 0; edge by edge in floats)
    monkeypatch.setattr(los_sides, "MAY_MEET_LOOP", loop)
    rng = np.random.default_rng(7200)
    ruled_out = 0
    hits = 0
    for _ in range(400):
        p = rng.uniform(0, 10, size=(2, 2))
        q = p + rng.uniform(-8, 8, size=(2, 2))
        sides = [(p[0], q[0]), (p[1], q[1])]
        n = int(rng.integers(1, 40))
        a = rng.uniform(-2, 12, size=(n, 2))
        b = a + rng.uniform(-3, 3, size=(n, 2)) * (rng.random((n, 1)) < 0.7)
        # some edges from near a point of one side to near a point of the other
        k = rng.random(n) < (0.5 if rng.random() < 0.5 else 0.02)
        s0, s1 = rng.uniform(-0.2, 1.2, size=(2, n, 1))
        a[k] = (p[0] + (q[0] - p[0]) * s0 + rng.normal(0, 0.3, size=(n, 2)))[k]
        b[k] = (p[1] + (q[1] - p[1]) * s1 + rng.normal(0, 0.3, size=(n, 2)))[k]
        half = rng.choice([0.01, 0.3, 0.6], size=n)
        own = rng.integers(0, 4, size=n)
        d = _seg_dist(np.stack([p[0], p[1]])[:, None, :], np.stack([q[0], q[1]])[:, None, :],
                      a[None, :, :], b[None, :, :])
        meets = d <= half[None, :]
        exact = bool(set(own[meets[0]].tolist()) & set(own[meets[1]].tolist()))
        maybe = los._may_meet_both(sides, a, b, half, own)
        if exact:
            hits += 1
            assert maybe
        ruled_out += not maybe
    assert hits > 100 and ruled_out > 50
