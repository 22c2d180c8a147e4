"""The pile-in placement's friends' rows kept as the unit moves and ``fixed``'s nearby discs in
one pass (twenty-third session, pile24), against the plain computations they replace."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from w40k.engine.phases import pile_in_bounds as pb
from w40k.engine.phases import pile_in_friends as pf
from w40k.geometry import Model
from w40k.geometry.battlefield import MARGIN, bounding_radius, inner_radius
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL
from w40k.geometry.shapes import EPS, Polygon

_BASES: list[float | tuple[float, float]] = [25.0, 32.0, 40.0, 60.0, (75.0, 42.0)]
_HULL = ((-1.5, -1.0), (1.5, -1.0), (1.5, 1.0), (-1.5, 1.0))


def _model(rng: random.Random, name: str, cx: float, cy: float, spread: float,
           uneven: float = 0.08) -> Model:
    frame = rng.random() < uneven
    base = rng.choice(_BASES if rng.random() < uneven * 2 else _BASES[:4])
    return Model(name, cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread),
                 rng.choice([0.0, 0.0, 0.0, 3.0, 8.0]), base, 1.6,
                 rng.uniform(-3.2, 3.2), frozenset({"FRAME"}) if frame else frozenset(),
                 _HULL if frame else None)


def _at(rng: random.Random, o: Model, s: Model, dist: float) -> Model:
    """``o`` moved to ``dist`` from ``s``'s position on a random bearing."""
    a = rng.uniform(-math.pi, math.pi)
    return o.moved(s.x + dist * math.cos(a), s.y + dist * math.sin(a))


def _plain_near(start: Model, occupied: list[pb.Block], budget: float, reach: pb._Reach
                ) -> tuple[tuple[pb.Disc, ...], list[pb.Row]]:
    """``fixed``'s nearby discs and their columns as the twenty-second session made them:
    the discs filtered block by block, then their rows, then ``reach.mask`` of the rows."""
    far = budget + start.reach() + 1.0
    sx, sy = start.x, start.y
    grown = far + 1e-6
    found: list[pb.Disc] = []
    for x0, y0, x1, y1, ds in occupied:
        if sx < x0 - grown or sx > x1 + grown or sy < y0 - grown or sy > y1 + grown:
            continue
        found += [dc for dc in ds if math.hypot(dc[0] - sx, dc[1] - sy) <= far + dc[2]]
    n_rows = [pb.row(dc[3]) for dc in found]
    return tuple(found), [r for r, ok in zip(n_rows, reach.mask(n_rows, pb._TAKEN_GAP),
                                             strict=True) if ok]


@pytest.mark.parametrize("seed", range(8))
def test_near_discs_in_one_pass_are_the_plain_filter_s_R03_01_c(seed: int) -> None:
    """03.01 Ending a Move (R03.01-c): ``pb._near_discs`` (one pass over each block's discs
    with their kept rows) gives the same discs, in order, and the same columns, in order, as
    filtering the discs, then reading their rows, then ``reach.mask`` of them: units
    scattered around the start, models on the disc limit and on the columns' limit (a
    float either side), with and without a ``move``, round, oval and hull bases."""
    rng = random.Random(seed)
    on_edge = kept_cols = 0
    for _ in range(80):
        start = _model(rng, "s", 30.0, 30.0, 0.0)
        budget = rng.choice([3.0, 4.0, 7.0])
        move = rng.choice([None, budget - 1.0, budget - 1.0])
        fp = start.footprint()
        reach = pb._Reach(fp.center, bounding_radius(fp), move)
        far = budget + start.reach() + 1.0
        units = []
        for j in range(rng.randint(0, 6)):
            ms = [_model(rng, f"u{j}m{i}", 30.0 + rng.uniform(-12, 12),
                         30.0 + rng.uniform(-12, 12), 2.0) for i in range(rng.randint(1, 8))]
            for i, o in enumerate(ms):
                pick = rng.random()
                if pick < 0.2:  # on the discs' limit: far + its reach, a float either side
                    d = math.nextafter(far + o.reach(), rng.choice([0.0, math.inf]))
                    ms[i] = _at(rng, o, start, d if rng.random() < 0.5 else far + o.reach())
                    on_edge += 1
                elif pick < 0.4 and move is not None:  # on the columns' limit
                    lim = pb._TAKEN_GAP + pb._INVOLVED_SPARE + move + reach.radius
                    ms[i] = _at(rng, o, start, lim + pb.row(o)[2]
                                + rng.choice([0.0, 1e-12, -1e-12, 1e-9, -1e-9]))
                    on_edge += 1
            units.append(tuple(ms))
        occupied = [pb.block(ms) for ms in units]
        rows: list[pb.Row] = [(1.0, 2.0, 3.0, 4.0)]  # a column before: appended after it
        got = pb._near_discs(start, occupied, budget, reach, rows)
        want, want_rows = _plain_near(start, occupied, budget, reach)
        assert got == want
        assert rows == [(1.0, 2.0, 3.0, 4.0), *want_rows]
        kept_cols += len(want_rows)
        fx = pb.fixed(start, None, (), occupied, budget, move=move)
        assert fx.discs == want
        assert np.array_equal(fx.cols, pb.table(want_rows, 4))
    assert on_edge > 50 and kept_cols > 20


def _plain(start: Model, spots: list[tuple[float, float]], fx: pb.Fixed,
           friends: list[Model], than: float, keep: bool, clearance: float
           ) -> tuple[list[int], list[int]]:
    """The candidates' answer as the fourteenth session computed it (``test_16``'s): one
    (spots, columns) matrix of every column, the bounds clipped at 0."""
    pts = np.array(spots, dtype=np.float64).reshape(-1, 2)
    k, nf = len(pts), len(fx.cols)
    cols = np.concatenate((fx.cols, pb.table([pb.row(f) for f in friends], 4))) \
        if friends else fx.cols
    fp = start.footprint()
    cx, cy = fp.center
    ox, oy = cx - start.x, cy - start.y
    d = np.sqrt((pts[:, 0, None] + ox - cols[None, :, 0]) ** 2
                + (pts[:, 1, None] + oy - cols[None, :, 1]) ** 2)
    s_in = -math.inf if isinstance(fp, Polygon) else inner_radius(fp)
    lower = np.maximum(d - bounding_radius(fp) - cols[None, :, 2], 0.0)
    upper = np.maximum(d - s_in - cols[None, :, 3], 0.0)
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
        limit = ENGAGEMENT_HORIZONTAL + EPS
        sure_all = np.ones(k, dtype=bool)
        for a, b in fx.groups:
            v = fx.v_ok[a:b]
            sure_all &= ((upper[:, a:b] <= limit - MARGIN) & v).any(axis=1)
            refused |= ~((lower[:, a:b] <= limit + MARGIN) & v).any(axis=1)
        code[~sure_all] |= pb.STILL
    if friends:
        code[(lower[:, nf:] <= clearance + MARGIN).any(axis=1)] |= pb.CLEAR
        refused |= (upper[:, nf:] <= clearance - MARGIN).any(axis=1)
    a, b = fx.near
    refused |= (upper[:, a:b] <= pb.TAKEN_CLEARANCE - MARGIN).any(axis=1)
    idx = np.flatnonzero(~refused)
    return idx.tolist(), code[idx].tolist()


@pytest.mark.parametrize("seed", range(8))
def test_candidates_of_kept_rows_are_the_plain_answers(seed: int) -> None:
    """R12.03-d / R12.03-e / 03.01: ``candidates_of_rows`` given the friends' rows (and,
    where every one is even, ``even`` True; else False or not given) keeps the same spots
    with the same codes as the plain matrix of every column, and as ``candidates`` of the
    friends themselves: friends on the columns' limit (a float either side), round units
    (the even path) and units with ovals and hulls."""
    rng = random.Random(seed)
    evens = spots_left = 0
    for _ in range(60):
        uneven = rng.choice([0.0, 0.0, 0.15])
        start = _model(rng, "s", 20.0, 20.0, 0.0, uneven)
        move = rng.choice([3.0, 6.0])
        spread = move + 4.0
        targets = [_model(rng, f"t{i}", 20.0, 20.0, spread, uneven)
                   for i in range(rng.randint(0, 6))]
        groups = [[_model(rng, f"g{j}{i}", 20.0, 20.0, 2.5, uneven)
                   for i in range(rng.randint(0, 4))] for j in range(rng.randint(0, 2))]
        friends = [_model(rng, f"f{i}", 20.0, 20.0, spread, uneven)
                   for i in range(rng.randint(0, 9))]
        fp = start.footprint()
        clearance = rng.choice([pb.TAKEN_CLEARANCE, pb.TAKEN_CLEARANCE, 0.05])
        for i, f in enumerate(friends):
            if rng.random() < 0.3:  # on the columns' limit
                lim = clearance + MARGIN + pb._INVOLVED_SPARE + move + bounding_radius(fp)
                friends[i] = _at(rng, f, start, lim + pb.row(f)[2]
                                 + rng.choice([0.0, 1e-12, -1e-12, -3e-7, -1.5e-6]))
        others = [_model(rng, f"o{i}", 20.0, 20.0, spread + 3.0, uneven)
                  for i in range(rng.randint(0, 20))]
        keep = rng.random() < 0.7
        than = rng.choice([rng.uniform(-0.5, 3.0), 0.0, MARGIN, 2 * MARGIN])
        spots = []
        for _ in range(rng.randint(1, 50)):
            a, r = rng.uniform(-math.pi, math.pi), move * math.sqrt(rng.random())
            if friends and rng.random() < 0.4:  # on the move's edge facing a friend
                o = rng.choice(friends)
                a, r = math.atan2(o.y - start.y, o.x - start.x), move * (1 - 1e-12)
            spots.append((start.x + r * math.cos(a), start.y + r * math.sin(a)))
        t = None if rng.random() < 0.1 else targets
        fx = pb.fixed(start, t, groups if keep else (), [pb.block(tuple(others))],
                      move + 1.0, move=move)
        rows = [pb.row(f) for f in friends]
        even = all(r[2] == r[3] for r in rows)
        evens += even
        want = _plain(start, spots, fx, friends, than, keep, clearance)
        assert pb.candidates(start, spots, fx, friends, than, keep, clearance) == want
        for flag in ((True, None) if even else (False, None)):
            got = pb.candidates_of_rows(start, np.array(spots), fx, rows, than, keep,
                                        clearance, flag)
            assert got == want
        spots_left += len(want[0])
    assert evens > 20 and spots_left > 30


@pytest.mark.parametrize("seed", range(6))
def test_rows_kept_as_the_unit_moves_are_each_model_s_row(seed: int) -> None:
    """``pile_in_friends.Rows`` after random moves: ``others(mid)`` is ``[row(f) for f in
    the unit's other models]`` in the unit's order and ``even_others(mid)`` whether each of
    them is even (round units, units with an oval or a hull, moved one at a time)."""
    rng = random.Random(seed)
    for _ in range(30):
        uneven = rng.choice([0.0, 0.1, 0.3])
        cur = {f"m{i}": _model(rng, f"m{i}", 20.0, 20.0, 4.0, uneven)
               for i in range(rng.randint(1, 12))}
        rows = pf.Rows(cur)
        for _ in range(rng.randint(0, 15)):
            mid = rng.choice(list(cur))
            cur[mid] = cur[mid].moved(cur[mid].x + rng.uniform(-3, 3),
                                      cur[mid].y + rng.uniform(-3, 3))
            rows.move(mid, cur[mid])
            for oid in cur:
                want = [pb.row(f) for fid, f in cur.items() if fid != oid]
                assert rows.others(oid) == want
                assert rows.even_others(oid) == all(r[2] == r[3] for r in want)
