"""The batch23 pass's segment distances (issue 10): ``seg_dist_rows`` on (2, N) rows and the
repacked ``_seg_dist_stacked`` give the floats of the four point-segment distances one after
the other (``_seg_dist_plain``, the reference), bit for bit, on random, degenerate (point),
integer (touching, collinear, crossing) and nearly touching segments (R06.01-a: these
distances decide every sight test of the batched kernel)."""

from __future__ import annotations

import numpy as np

from w40k.geometry import los_dist
from w40k.geometry.los_dist import _seg_dist_plain, seg_dist_rows


def _cases(rng: np.random.Generator, n: int, trial: int) -> tuple[np.ndarray, ...]:
    """Four (2, n) rows (p1, p2, q1, q2): random, or with points, integers, shared or
    nearly shared end points, crossing at an end, by the trial's number."""
    p1, p2, q1, q2 = (rng.uniform(-20.0, 20.0, size=(2, n)) for _ in range(4))
    kind = trial % 7
    if kind == 1:
        p2 = p1.copy()  # p a point
    elif kind == 2:
        q2 = q1.copy()  # q a point
    elif kind == 3:
        p1, p2, q1, q2 = (np.round(x / 4.0) for x in (p1, p2, q1, q2))  # integer grid
    elif kind == 4:
        q1 = p2 + rng.choice([0.0, 1e-9, -1e-9], size=(2, n))  # touching, or nearly
    elif kind == 5:
        q2, q1 = p1.copy(), p2.copy()  # the same segment, turned round
    elif kind == 6:
        p1 = p2 = q1 = q2 = np.round(p1)  # all one point
    return p1, p2, q1, q2


def test_seg_dist_rows_is_the_plain_distance_bit_for_bit() -> None:
    """Sizes 1 to ``SMALL_ROWS`` (floats), just above, and large (the stacked arrays),
    against ``_seg_dist_plain`` on the rows' coordinates."""
    rng = np.random.default_rng(23)
    sizes = [1, 2, los_dist.SMALL_ROWS, los_dist.SMALL_ROWS + 1, 12, 40, 300, 1500]
    for trial in range(1400):
        n = sizes[trial % len(sizes)]
        p1, p2, q1, q2 = _cases(rng, n, trial // len(sizes))
        want = _seg_dist_plain(p1[0], p1[1], p2[0], p2[1], q1[0], q1[1], q2[0], q2[1])
        got = seg_dist_rows(p1, p2, q1, q2)
        assert got.shape == want.shape == (n,) and got.dtype == np.float64
        assert np.array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))
    # rows that are views (``take`` along the columns of wider arrays, as the kernel gathers)
    wide = rng.uniform(-5.0, 5.0, size=(4, 2, 50))
    idx = rng.integers(0, 50, size=70)
    rows = [w.take(idx, axis=1) for w in wide]
    want = _seg_dist_plain(*(c for r in rows for c in r))
    assert np.array_equal(seg_dist_rows(*rows), want)
    empty = np.zeros((2, 0))
    assert seg_dist_rows(empty, empty, empty, empty).shape == (0,)


def test_repacked_stacked_distances_are_the_plain_ones_bit_for_bit() -> None:
    """``_seg_dist_stacked`` (the (2, 2, 2, ...) packing) on broadcast shapes, Python floats
    among the arrays, and the edge cases above."""
    rng = np.random.default_rng(230)
    shapes = [((1,), (40,)), ((40,), (1,)), ((25,), (25,)), ((2, 1), (1, 30)), ((), (17,)),
              ((3, 1), (1, 64))]
    for trial in range(1400):
        ps, qs = shapes[trial % len(shapes)]
        p = [rng.uniform(-9.0, 9.0, size=ps) for _ in range(4)]
        q = [rng.uniform(-9.0, 9.0, size=qs) for _ in range(4)]
        if trial % 3 == 1:
            p[2], p[3] = p[0], p[1]
        elif trial % 3 == 2:
            p, q = [np.round(x) for x in p], [np.round(x) for x in q]
        shape = np.broadcast_shapes(ps, qs)
        want = _seg_dist_plain(*p, *q)
        got = los_dist._seg_dist_stacked(shape, *p, *q)
        assert got.shape == want.shape and np.array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))
        if ps == ():
            floats = [float(x) for x in p]
            assert np.array_equal(los_dist._seg_dist_stacked(shape, *floats, *q),
                                  _seg_dist_plain(*floats, *q))
