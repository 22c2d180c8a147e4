"""The pile-in placement's bound pre-tests with round bases throughout (one matrix for the lower
and upper bounds, nineteenth session), against their plain answers."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from w40k.engine.phases import pile_in_bounds as pb
from w40k.geometry import Model
from w40k.geometry.battlefield import MARGIN
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL
from w40k.geometry.shapes import EPS

_ROUND: list[float | tuple[float, float]] = [25.0, 28.0, 32.0, 40.0, 50.0, (60.0, 60.0)]
_LIMIT = ENGAGEMENT_HORIZONTAL + EPS


def _plain(start: Model, spots: list[tuple[float, float]], fx: pb.Fixed,
           friends: list[Model], than: float, keep: bool, clearance: float
           ) -> tuple[list[int], list[int]]:
    """The candidates' answer as the fourteenth session computed it: one (spots, columns)
    matrix of every column, the bounds clipped at 0, each test on its slice."""
    pts = np.array(spots, dtype=np.float64).reshape(-1, 2)
    k, nf = len(pts), len(fx.cols)
    cols = np.concatenate((fx.cols, pb.table([pb.row(f) for f in friends], 4))) \
        if friends else fx.cols
    fp = start.footprint()
    r = pb.row(start)[2]
    d = np.sqrt((pts[:, 0, None] - cols[None, :, 0]) ** 2
                + (pts[:, 1, None] - cols[None, :, 1]) ** 2)
    lower = np.maximum(d - r - cols[None, :, 2], 0.0)
    upper = np.maximum(d - pb.row(start)[3] - cols[None, :, 3], 0.0)
    assert fp.center == (start.x, start.y)
    refused = np.zeros(k, dtype=bool)
    code = np.zeros(k, dtype=np.int64)
    nt = fx.targets
    if nt > 0:
        refused |= lower[:, :nt].min(axis=1) >= than + MARGIN
        code[upper[:, :nt].min(axis=1) >= than - MARGIN] = pb.CLOSER
    elif nt == 0:
        refused[:] = True
    else:
        code[:] = pb.CLOSER
    if keep and fx.groups:
        sure_all = np.ones(k, dtype=bool)
        for a, b in fx.groups:
            v = fx.v_ok[a:b]
            sure_all &= ((upper[:, a:b] <= _LIMIT - MARGIN) & v).any(axis=1)
            refused |= ~((lower[:, a:b] <= _LIMIT + MARGIN) & v).any(axis=1)
        code[~sure_all] |= pb.STILL
    if friends:
        code[(lower[:, nf:] <= clearance + MARGIN).any(axis=1)] |= pb.CLEAR
        refused |= (upper[:, nf:] <= clearance - MARGIN).any(axis=1)
    a, b = fx.near
    refused |= (upper[:, a:b] <= pb.TAKEN_CLEARANCE - MARGIN).any(axis=1)
    idx = np.flatnonzero(~refused)
    return idx.tolist(), code[idx].tolist()


def _model(rng: random.Random, name: str, cx: float, cy: float, spread: float,
           z: float | None = None) -> Model:
    return Model(name, cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread),
                 rng.choice([0.0, 0.0, 0.0, 3.0]) if z is None else z, rng.choice(_ROUND),
                 1.6, rng.uniform(-3.2, 3.2), frozenset(), None)


def _edge_spot(start: Model, o: Model, gap: float, ulps: int) -> tuple[float, float]:
    """A spot on the line from ``o``'s centre toward the start, ``gap`` (edge to edge) from
    ``o`` and then ``ulps`` floats farther or nearer: a bound at a test's threshold."""
    r = pb.row(start)[2] + pb.row(o)[2] + gap
    a = math.atan2(start.y - o.y, start.x - o.x)
    x = o.x + r * math.cos(a)
    for _ in range(abs(ulps)):
        x = math.nextafter(x, math.inf if (ulps > 0) == (math.cos(a) > 0) else -math.inf)
    return (x, o.y + r * math.sin(a))


@pytest.mark.parametrize("seed", range(6))
def test_round_candidates_are_the_plain_answers(seed: int) -> None:
    """R12.03-d / R12.03-e / 03.01: with round bases throughout (``Fixed.even``: the lower
    bounds serve as the upper ones, the targets' least bound read twice), ``candidates``
    keeps the same spots with the same codes as the plain matrix of every column, over
    random scenes: targets, engaged units (some out of range vertically),
    friends, other units' models, spots within the move and spots within a few floats of
    each test's threshold from a model; ``than`` below, near and above 0; no target or an
    objective; two clearances."""
    rng = random.Random(seed)
    refused = ran = 0
    codes: set[int] = set()
    for _ in range(100):
        start = _model(rng, "s", 20.0, 20.0, 0.0, z=0.0)
        move = rng.choice([3.0, 6.0])
        spread = move + 3.0

        def near(n: int, tag: str, s: Model = start, w: float = spread) -> list[Model]:
            return [_model(rng, f"{tag}{i}", s.x, s.y, w) for i in range(n)]

        targets = near(rng.randint(0, 6), "t", w=rng.choice([2.0, spread]))
        no_target = rng.random() < 0.15
        keep = rng.random() < 0.7
        groups = [near(rng.randint(1, 5), f"g{j}", w=rng.choice([2.5, spread]))
                  for j in range(rng.randint(0, 3))] if keep else []
        friends = near(rng.randint(0, 9), "f", w=rng.choice([2.0, spread]))
        others = near(rng.randint(0, 30), "o", w=spread + 3.0)
        than = rng.choice([rng.uniform(-0.5, 3.0), 0.0, MARGIN, -MARGIN, 2 * MARGIN])
        clearance = rng.choice([pb.TAKEN_CLEARANCE, pb.TAKEN_CLEARANCE, 0.05])
        spots: list[tuple[float, float]] = []
        for _ in range(rng.randint(1, 60)):
            a, r = rng.uniform(-math.pi, math.pi), move * math.sqrt(rng.random())
            spots.append((start.x + r * math.cos(a), start.y + r * math.sin(a)))
        every = [(o, g) for o in targets for g in (than + MARGIN, than - MARGIN)] \
            + [(o, g) for grp in groups for o in grp for g in (_LIMIT + MARGIN,
                                                               _LIMIT - MARGIN)] \
            + [(o, g) for o in friends for g in (clearance - MARGIN, clearance + MARGIN)] \
            + [(o, pb.TAKEN_CLEARANCE - MARGIN) for o in others]
        for o, gap in rng.sample(every, min(len(every), 30)):
            spots.append(_edge_spot(start, o, gap, rng.randint(-3, 3)))
        spots = [(x, y) for x, y in spots if math.hypot(x - start.x, y - start.y) <= move]
        if not spots:
            continue
        t = None if no_target else targets
        fx = pb.fixed(start, t, groups, [pb.block(tuple(others))], move + 1.0, move=move)
        want = _plain(start, spots, fx, friends, than, keep, clearance)
        got = pb.candidates(start, spots, fx, friends, than, keep, clearance)
        assert got == want
        assert pb.candidates(start, np.array(spots), fx, friends, than, keep,
                             clearance) == want
        ran += fx.even  # the one matrix of bounds (every base round)
        codes.update(got[1])
        refused += len(spots) - len(got[0])
    assert refused > 0 and ran > 50 and 0 in codes
    assert all(any(c & bit for c in codes) for bit in (pb.CLOSER, pb.STILL, pb.CLEAR))


def test_a_base_not_round_keeps_both_bounds() -> None:
    """An oval among the columns, the friends or the moved model: the lower and upper
    bounds differ and both are measured (``Fixed.even`` False for an oval column), with
    the plain answers."""
    start = Model("s", 20.0, 20.0, 0.0, 32.0, 1.6, 0.0, frozenset(), None)
    oval = Model("t", 21.5, 20.0, 0.0, (75.0, 42.0), 1.6, 0.5, frozenset(), None)
    friend = Model("f", 19.0, 21.0, 0.0, (75.0, 42.0), 1.6, 0.2, frozenset(), None)
    round_t = Model("t", 21.5, 20.0, 0.0, 32.0, 1.6, 0.0, frozenset(), None)
    spots = [(20.0 + 0.1 * i, 20.0 - 0.05 * i) for i in range(-10, 10)]
    oval_start = Model("s", 20.0, 20.0, 0.0, (60.0, 35.0), 1.6, 0.3, frozenset(), None)
    for s, t, friends in [(start, oval, []), (start, round_t, [friend]),
                          (oval_start, round_t, [])]:
        fx = pb.fixed(s, [t], [], [], 4.0, move=3.0)
        assert fx.even == (t is round_t)
        for than in (0.3, 1.2, 2.5):
            args = (s, spots, fx, friends, than, True, pb.TAKEN_CLEARANCE)
            assert pb.candidates(*args) == _plain(*args)


def _exact_x(ox: float, r: float, r2: float, t: float) -> float | None:
    """A spot's x, within 40 floats of ``ox + t + r2 + r``, whose offset ``dx = x - ox``
    (exact: both are multiples of ``x``'s last place) gives ``(sqrt(dx * dx) - r) - r2 ==
    t`` exactly (a square's root is the offset itself); None: none there."""
    for step in range(81):
        x = ox + t + r2 + r
        for _ in range(step // 2):
            x = math.nextafter(x, math.inf if step % 2 else -math.inf)
        dx = x - ox
        if (math.sqrt(dx * dx) - r) - r2 == t:
            return x
    return None


@pytest.mark.parametrize("role", ["closer", "closer-code", "still", "still-code"])
def test_bounds_exactly_at_a_threshold(role: str) -> None:
    """R12.03-d / R12.03-e: spots whose bound from one column is a test's threshold exactly
    (and a float either side), round bases: the one matrix of bounds keeps the reference's
    answers (the target's ``min(lower) >= than + MARGIN`` refuses a spot at it, its
    ``min(upper) >= than - MARGIN`` measures one at it)."""
    rng = random.Random(role)
    found = 0
    for _ in range(150):
        o = _model(rng, "o", 0.75, 1.0, 0.0, z=0.0)
        start = _model(rng, "s", 0.0, 0.0, 0.0, z=0.0)
        far = Model("x", 60.0, 40.0, 0.0, 32.0, 1.6, 0.0, frozenset(), None)
        r, r2 = pb.row(start)[2], pb.row(o)[2]
        if role.startswith("closer"):  # than such that the threshold is a spot's bound
            x = o.x + rng.uniform(0.3, 2.0) + r2 + r
            dx = x - o.x
            b = (math.sqrt(dx * dx) - r) - r2
            than = b - MARGIN if role == "closer" else b + MARGIN
            if (than + MARGIN if role == "closer" else than - MARGIN) != b:
                continue
            spot: float | None = x
        else:
            than = 30.0
            spot = _exact_x(o.x, r, r2, _LIMIT + MARGIN if role == "still" else _LIMIT - MARGIN)
            if spot is None:
                continue
        found += 1
        spots = [(spot, o.y), (math.nextafter(spot, math.inf), o.y),
                 (math.nextafter(spot, -math.inf), o.y)]
        start = start.moved(spot + 0.3, o.y + 0.2)
        targets = [o] if role.startswith("closer") else [far]
        groups = [[o]] if role.startswith("still") else []
        fx = pb.fixed(start, targets, groups, [], 4.0, move=3.0)
        args = (start, spots, fx, [], than, True, pb.TAKEN_CLEARANCE)
        got = pb.candidates(*args)
        assert got == _plain(*args)
        assert fx.even
    assert found > 10
