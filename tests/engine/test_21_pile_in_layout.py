"""The pile-in proposer's array layouts and sorts against their plain answers (twentieth
session): the target chunks as the rows of a (2, n) array, the friends' ring spots built
and ordered by arrays, and a ``Discs``' x order by numpy's stable sort."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tests.engine.test_propose_moves import _plain_target_spots
from w40k.engine.phases import pile_in_bounds as pb
from w40k.engine.phases import pile_in_friends as pf
from w40k.engine.phases import pile_in_propose as pp
from w40k.engine.propose_moves import bearings
from w40k.geometry import Model, movement, movement_kept


def _round(name: str, x: float, y: float, base: float = 32.0) -> Model:
    return Model(name, x, y, 0.0, base, 1.6, 0.0)


@pytest.mark.parametrize("seed", range(4))
def test_the_target_chunk_is_the_target_spots_as_rows_of_a_2_by_n_array_R12_03_d(
        seed: int) -> None:
    """R12.03-d: ``_target_chunks`` builds the rings' spots gap by gap as a (2, n) array
    (x and y rows) and gives its transposed view: the same floats in the same order as
    the spots built one by one (``_plain_target_spots``), base contact first; the (2, n)
    array ``pile_in_bounds.candidates`` reads is the chunk's own, C-ordered (no copy),
    and its answers are those for a C-ordered (n, 2) copy of the spots. Target units near and beyond
    the move, a start on the move's limit, a target on the start (no straight move)."""
    rng = random.Random(seed)
    met = {"rings": 0, "straight only": 0, "empty": 0}
    for trial in range(80):
        sx, sy = rng.uniform(10, 34), rng.uniform(10, 50)
        base = rng.choice([25.0, 32.0, 40.0])
        start = _round("m", sx, sy, base)
        n = rng.choice([1, 3, 5, 10])
        spread = rng.choice([2.0, 5.0, 12.0])
        targets = [_round(f"t{i}", sx + rng.uniform(-spread, spread),
                          sy + rng.uniform(-spread, spread), rng.choice([25.0, 32.0, 40.0]))
                   for i in range(n)]
        if trial % 13 == 0:
            targets[0] = _round("t0", sx, sy)  # the nearest on the start: no straight move
        budget = rng.choice([3.0, 6.0])
        jitter = rng.choice([0.0, rng.uniform(-0.2, 0.2)])
        chunks = list(pp._target_chunks(start, targets, budget, jitter))
        assert len(chunks) == 1
        chunk = chunks[0]
        assert chunk.shape[1] == 2 and chunk.dtype == np.float64
        got = chunk.tolist()
        want = [list(p) for p in _plain_target_spots(start, targets, budget, jitter)]
        assert got == want
        assert [math.copysign(1.0, v) for p in got for v in p] == \
            [math.copysign(1.0, v) for p in want for v in p]
        assert chunk.T.flags["C_CONTIGUOUS"]
        if len(got):
            fx = pb.fixed(start, targets, (), [pb.block(tuple(targets))], budget + 1.0,
                          move=budget)
            than = min(math.hypot(t.x - sx, t.y - sy) for t in targets) - 1.0
            assert pb.candidates(start, chunk, fx, [], than, False, 1e-4) == \
                pb.candidates(start, np.array(want, dtype=np.float64), fx, [], than, False,
                              1e-4)
        met["rings" if len(got) > 3 else "straight only" if got else "empty"] += 1
    assert met["rings"] > 20 and met["straight only"] + met["empty"] > 0


@pytest.mark.parametrize("seed", range(4))
def test_a_discs_x_order_by_numpy_s_stable_sort_is_python_s_R03_01_d(seed: int) -> None:
    """R03.01-d / R17.01-a: ``movement_kept._disc_rows`` orders the discs by x with
    numpy's stable sort: the same indices as ``sorted(range(n), key=xs.__getitem__)`` (ties
    in index order) and the same sorted x, with many discs sharing an x, -0.0 and 0.0
    (equal: a tie), and more discs than numpy's small-array insertion sort handles; and
    ``near_step`` reading them lists ``near_segment``'s discs."""
    rng = random.Random(seed)
    for _ in range(40):
        n = rng.choice([0, 1, 7, 40, 300])
        xs = [rng.choice([0.0, -0.0, 10.0, 12.5]) if rng.random() < 0.6
              else rng.uniform(0, 44) for _ in range(n)]
        models = [Model(f"o{i}", xs[i], rng.uniform(0, 60), 0.0,
                        rng.choice([25.0, 32.0, (90.0, 52.0)]), 1.6, rng.uniform(-3, 3))
                  for i in range(n)]
        discs = movement.Discs.of(models)
        _, kx, _, _, _, sx, order = movement_kept._disc_rows(discs)
        want = sorted(range(n), key=kx.__getitem__)
        assert order == want
        assert [math.copysign(1.0, v) for v in sx] == \
            [math.copysign(1.0, kx[j]) for j in want]
        assert sx == [kx[j] for j in want]
        for _ in range(10):
            x0, y0 = rng.uniform(0, 44), rng.uniform(0, 60)
            a = rng.uniform(-math.pi, math.pi)
            x1, y1 = x0 + 3.0 * math.cos(a), y0 + 3.0 * math.sin(a)
            assert movement_kept.near_step(discs, x0, y0, x1, y1, 0.63) == \
                discs.near_segment(x0, y0, x1, y1, 0.63, 0.0)


def _plain_friend_spots(start: Model, near: list[tuple[float, float, float]],
                        goal: tuple[float, float], limit: float) -> list[tuple[float, float]]:
    """The friends' ring spots as ``_friend_spots`` built them before (spot by spot, the
    exact keys, Python's stable sort): the reference."""
    keyed = []
    for fx, fy, rf in near:
        for g in pf.FRIEND_GAPS:
            dist = rf + g
            for c, s in bearings(0.0, pf.FRIEND_BEARINGS):
                x, y = fx + dist * c, fy + dist * s
                if math.hypot(x - start.x, y - start.y) <= limit:
                    keyed.append((math.hypot(x - goal[0], y - goal[1]), (x, y)))
    keyed.sort(key=lambda p: p[0])
    return [p for _, p in keyed]


@pytest.mark.parametrize("seed", range(4))
def test_the_friend_spots_by_arrays_are_the_plain_spots_in_order_R03_03_a(seed: int) -> None:
    """R03.03-a: ``pile_in_friends.friend_spots`` (every ring at once, the move's limit and
    the goal keys by ``np.hypot`` away from their thresholds) gives the same spots, the
    same floats in the same order, as the spot-by-spot build: friends placed mirror-wise
    about the goal (equal keys: ties kept in ring order), a goal on a friend's ring, the
    limit exactly on a spot's distance and a float either side, no friend, one friend."""
    rng = random.Random(seed)
    met = {"ties": 0, "on the limit": 0, "spots": 0}
    for trial in range(120):
        sx, sy = rng.uniform(10, 34), rng.uniform(10, 50)
        start = _round("m", sx, sy)
        r = 0.63
        n = rng.choice([0, 1, 2, 3, 3])
        near = [(sx + rng.uniform(-2.5, 2.5), sy + rng.uniform(-2.5, 2.5),
                 r + rng.choice([0.49, 0.63, 0.79])) for _ in range(n)]
        goal = (sx + rng.uniform(-4, 4), sy + rng.uniform(-4, 4))
        if n >= 2 and trial % 3 == 0:  # mirror the second friend about the goal's x line
            fx, fy, rf = near[0]
            near[1] = (fx, 2 * goal[1] - fy, rf)
            goal = (goal[0], goal[1])
        if n and trial % 5 == 0:  # the goal on a ring spot
            fx, fy, rf = near[0]
            goal = (fx + (rf + pf.FRIEND_GAPS[1]) * 1.0, fy)
        limit = rng.choice([2.999, 5.999])
        if n and trial % 4 == 1:  # the limit exactly on a spot's distance, or a float off
            fx, fy, rf = near[-1]
            c, s = bearings(0.0, pf.FRIEND_BEARINGS)[rng.randrange(pf.FRIEND_BEARINGS)]
            dist = rf + rng.choice(pf.FRIEND_GAPS)
            x, y = fx + dist * c, fy + dist * s
            limit = math.nextafter(math.hypot(x - sx, y - sy), rng.choice([0.0, math.inf,
                                                                           1.0]))
            limit = rng.choice([limit, math.hypot(x - sx, y - sy)])
            met["on the limit"] += 1
        got = pf.friend_spots(start, near, goal, limit)
        want = _plain_friend_spots(start, near, goal, limit)
        assert got.shape == (len(want), 2)
        assert got.T.flags["C_CONTIGUOUS"]
        assert [tuple(p) for p in got.tolist()] == want
        keys = [math.hypot(x - goal[0], y - goal[1]) for x, y in want]
        met["ties"] += len(set(keys)) < len(keys)
        met["spots"] += len(want) > 0
    assert met["ties"] > 5 and met["on the limit"] > 10 and met["spots"] > 60


@pytest.mark.parametrize("seed", range(3))
def test_the_friend_spots_keep_the_exact_answers_where_the_arrays_are_off_R03_03_a(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """R03.03-a: ``friend_spots``' guards (the limit measured by ``math.hypot`` within
    ``APART`` of it, the exact keys' sort where two array keys in a row are within
    ``APART``) give the exact answer even where the array distances are off by up to
    1e-12" (a hundred times numpy's rounding), near-equal and equal keys included."""
    noise = np.random.default_rng(seed)

    def off(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.hypot(a, b) + noise.uniform(-1e-12, 1e-12, np.shape(a))

    monkeypatch.setattr(pf, "_hypot", off)
    rng = random.Random(seed)
    for trial in range(150):
        sx, sy = rng.uniform(10, 34), rng.uniform(10, 50)
        start = _round("m", sx, sy)
        fx, fy = sx + rng.uniform(-2, 2), sy + rng.uniform(-2, 2)
        rf = 0.63 + rng.choice([0.49, 0.63])
        near = [(fx, fy, rf), (fx + rng.choice([0.0, 1e-13, 3e-13]), 2 * sy - fy, rf)]
        goal = (rng.uniform(5, 40), sy)  # on the mirror line: keys equal or within 1e-12
        limit = 5.999
        if trial % 2:
            c, s = bearings(0.0, pf.FRIEND_BEARINGS)[rng.randrange(pf.FRIEND_BEARINGS)]
            dist = rf + rng.choice(pf.FRIEND_GAPS)
            limit = math.hypot(fx + dist * c - sx, fy + dist * s - sy)
        assert [tuple(p) for p in pf.friend_spots(start, near, goal, limit).tolist()] == \
            _plain_friend_spots(start, near, goal, limit)
