"""The pile-in placement's lazy codes read as Python floats (twenty-fourth session, pile25):
``pile_in_bounds._codes_at`` against the whole chunk's vector code (``candidates_of_rows``'
own, ``lazy`` False), spot by spot."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from w40k.engine.phases import pile_in_bounds as pb
from w40k.engine.propose_moves import CLEARANCE as TAKEN_CLEARANCE
from w40k.geometry.battlefield import MARGIN
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL
from w40k.geometry.shapes import EPS

_LIMIT = ENGAGEMENT_HORIZONTAL + EPS


def _vector_codes(nt: int, than: float, lower: np.ndarray, upper: np.ndarray,
                  groups: list[tuple[int, int]], level: list[bool], v_ok: np.ndarray,
                  nf: int, clearance: float) -> list[int]:
    """The whole chunk's codes as ``candidates_of_rows`` computes them with ``lazy``
    False (numpy's reductions over the columns; an empty span's "some" is False)."""
    least, some = np.minimum.reduce, np.logical_or.reduce
    k = lower.shape[1]
    c = than - MARGIN
    if nt > 0:
        code = (least(upper[:nt], axis=0) >= c) * pb.CLOSER if c > 0.0 \
            else np.full(k, pb.CLOSER, dtype=np.int64)
    else:
        code = np.full(k, 0 if nt == 0 else pb.CLOSER, dtype=np.int64)
    if groups:
        sure_all = np.ones(k, dtype=bool)
        for j, (a, b) in enumerate(groups):
            hit = upper[a:b] <= _LIMIT - MARGIN
            if not level[j]:
                hit &= v_ok[a:b, None]
            sure_all &= some(hit, axis=0)
        code[~sure_all] |= pb.STILL
    if nf >= 0:
        code[some(lower[nf:] <= clearance + MARGIN, axis=0)] |= pb.CLEAR
    out: list[int] = code.tolist()
    return out


@pytest.mark.parametrize("seed", range(8))
def test_lazy_codes_from_python_floats_are_the_vector_codes_R12_03_d_e(seed: int) -> None:
    """R12.03-d/e, 03.01: each spot's code read from its column as Python floats (``min``
    of a span, a group not level value by value) is the vector code: bounds on and a float
    either side of each threshold, ties between columns, the upper bounds the lower ones or
    above them, groups level or not (an empty span among them), no target (-1), an empty
    target set (0), ``than`` at and around ``MARGIN``, friends' columns, none (-1) or an
    empty span of them (``nf`` at the last column)."""
    rng = random.Random(2500 + seed)
    bits: set[int] = set()
    empties = 0
    for _ in range(400):
        k, n = rng.randint(1, 10), rng.randint(1, 12)
        than = rng.choice([rng.uniform(-0.5, 2.0), MARGIN, 0.0, 2 * MARGIN, 0.5,
                           math.nextafter(MARGIN, 0.0), math.nextafter(MARGIN, 1.0)])
        clearance = rng.choice([TAKEN_CLEARANCE, 0.05])
        marks = [than - MARGIN, _LIMIT - MARGIN, clearance + MARGIN]

        def value(marks: list[float] = marks) -> float:
            if rng.random() < 0.6:
                m = rng.choice(marks)
                return rng.choice([m, math.nextafter(m, -1.0), math.nextafter(m, 9.0)])
            return rng.uniform(-0.5, 2.5)
        lower = np.array([[value() for _ in range(k)] for _ in range(n)])
        if rng.random() < 0.2:
            lower[rng.randrange(n)] = lower[rng.randrange(n)]  # a tie between columns
        upper = lower if rng.random() < 0.5 else lower + np.array(
            [[rng.choice([0.0, rng.uniform(0, 1)]) for _ in range(k)] for _ in range(n)])
        nt = rng.choice([-1, 0, min(n, rng.randint(1, 3))])
        cuts = sorted(rng.sample(range(max(nt, 0), n + 1), min(rng.randint(0, 4),
                                                               n + 1 - max(nt, 0))))
        groups = list(itertools.pairwise(cuts))
        if groups and rng.random() < 0.15:
            a = groups[0][0]
            groups.insert(0, (a, a))  # an empty group: not surely engaged
        v_ok = np.array([rng.random() < 0.8 for _ in range(n)])
        level = [bool(v_ok[a:b].all()) for a, b in groups]
        nf = rng.choice([-1, rng.randint(0, n - 1), n])
        empties += nf == n or any(a == b for a, b in groups)
        want = _vector_codes(nt, than, lower, upper, groups, level, v_ok, nf, clearance)
        idx = sorted(rng.sample(range(k), rng.randint(1, k)))
        low_t = (np.minimum.reduce(lower[:nt], axis=0)
                 if nt > 0 and than + MARGIN > 0 else None)
        got = list(pb._codes_at(idx, nt, than, low_t, lower, upper, groups, level, v_ok,
                                nf, clearance))
        assert got == [want[i] for i in idx]
        bits.update(got)
    assert bits >= {0, pb.CLOSER, pb.STILL, pb.CLEAR, 7}
    assert empties > 20


def test_lazy_codes_of_a_spot_on_each_threshold_R12_03_d_e() -> None:
    """R12.03-d/e, 03.01: one spot with every bound exactly on its test's threshold (the
    least target bound on ``than - MARGIN``: closer measured; a group's column on the
    engagement limit less ``MARGIN``: surely engaged; a friend's on ``clearance +
    MARGIN``: clear measured), and a float beyond each (the opposite answers)."""
    than, clearance = 0.4, TAKEN_CLEARANCE
    on = [than - MARGIN, than + 1.0, _LIMIT - MARGIN, clearance + MARGIN]
    beyond = [math.nextafter(than - MARGIN, -1.0), than + 1.0,
              math.nextafter(_LIMIT - MARGIN, 9.0), math.nextafter(clearance + MARGIN, 9.0)]
    lower = np.array([on, beyond]).T.copy()
    v_ok = np.ones(4, dtype=bool)
    got = list(pb._codes_at([0, 1], 2, than, None, lower, lower, [(2, 3)], [True], v_ok, 3,
                            clearance))
    assert got == [pb.CLOSER | pb.CLEAR, pb.STILL]
    assert got == _vector_codes(2, than, lower, lower, [(2, 3)], [True], v_ok, 3, clearance)
