"""The pile-in placement's friends' rows kept as the unit moves and ``fixed``'s nearby discs in
one pass (twenty-third session, pile24), against the plain computations they replace."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from tests.engine.test_16_pile_in_bounds import _plain
from tests.engine.test_propose_moves import _plain_target_spots
from w40k.engine.phases import pile_in_bounds as pb
from w40k.engine.phases import pile_in_friends as pf
from w40k.geometry import Model
from w40k.geometry.battlefield import MARGIN, bounding_radius
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL
from w40k.geometry.shapes import EPS

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
    on_edge = kept_cols = evens = 0
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
        got, even = pb._near_discs(start, occupied, budget, reach, rows)
        want, want_rows = _plain_near(start, occupied, budget, reach)
        assert got == want
        assert rows == [(1.0, 2.0, 3.0, 4.0), *want_rows]
        assert even == all(r[2] == r[3] for r in want_rows)
        kept_cols += len(want_rows)
        fx = pb.fixed(start, None, (), occupied, budget, move=move)
        assert fx.discs == want
        assert np.array_equal(fx.cols, pb.table(want_rows, 4))
        assert fx.even == all(r[2] == r[3] for r in want_rows)
        evens += fx.even
    assert on_edge > 50 and kept_cols > 20 and 0 < evens < 80


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
                   for i in range(rng.randint(1, 4))] for j in range(rng.randint(0, 2))]
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
            gm = [o for g in groups for o in g]
            if gm and rng.random() < 0.3:  # next to a group's model (surely engaged)
                o = rng.choice(gm)
                b = rng.uniform(-math.pi, math.pi)
                gap = pb.row(start)[2] + pb.row(o)[2] + rng.uniform(0.0, 0.9)
                x, y = o.x + gap * math.cos(b), o.y + gap * math.sin(b)
                if math.hypot(x - start.x, y - start.y) <= move:
                    spots.append((x, y))
                    continue
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
            # the codes measured spot by spot as they are read: the same codes
            idx, lazy = pb.candidates_of_rows(start, np.array(spots), fx, rows, than, keep,
                                              clearance, flag, lazy=True)
            assert (idx, list(lazy)) == want
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


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("perturb", [0.0, 6e-10, -6e-10])
def test_target_chunks_near_the_move_s_limit_are_the_plain_spots_R12_03_d(
        seed: int, perturb: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """R12.03-d: ``_target_chunks`` (the array's distances settle the spots away from the
    move's limit, the spots it leaves within 1e-9" of it either side are measured by
    ``math.hypot``) keeps the same spots in the same order as measuring every spot, with
    budgets that put a ring spot exactly on the limit and 1e-12", 5e-10", 2e-9" either
    side (round and oval targets); also with the array's distances off by 6e-10" (the
    guard's spare covers any such error)."""
    from w40k.engine.phases import pile_in_propose as pp
    monkeypatch.setattr(pp, "_hypot", lambda a, b: np.hypot(a, b) + perturb)
    rng = random.Random(seed)
    edges = 0
    for _ in range(25):
        start = _model(rng, "s", 30.0, 30.0, 0.0, 0.0)
        targets = [_model(rng, f"t{i}", 30.0, 30.0, 5.0, 0.2)
                   for i in range(rng.randint(1, 5))]
        jitter = rng.uniform(-0.2, 0.2)
        spots = _plain_target_spots(start, targets, 12.0, jitter)[:-3]
        if not spots:
            continue
        x, y = rng.choice(spots)
        on = math.hypot(x - start.x, y - start.y) + pp.SLACK
        for shift in (0.0, 1e-12, -1e-12, 5e-10, -5e-10, 2e-9, -2e-9):
            budget = on + shift
            got = [(a, b) for c in pp._target_chunks(start, targets, budget, jitter)
                   for a, b in c.tolist()]
            assert got == _plain_target_spots(start, targets, budget, jitter)
            edges += 1
    assert edges > 50


@pytest.mark.parametrize("seed", range(6))
def test_codes_measured_as_read_are_the_vector_codes(seed: int) -> None:
    """``pb._codes_at`` (each spot's code measured on its own column of the bounds) gives
    the whole chunk's vector code at each spot: bounds on and a float either side of each
    test's threshold, the upper bounds the lower ones (the same array) or above them,
    groups level or not (the vertical mask), no target (-1), an empty target set (0),
    ``than`` at and around ``MARGIN``, friends' columns or none."""
    rng = random.Random(seed)
    least, some = np.minimum.reduce, np.logical_or.reduce
    limit = ENGAGEMENT_HORIZONTAL + EPS
    bits = set()
    for _ in range(300):
        k, n = rng.randint(1, 12), rng.randint(1, 14)
        than = rng.choice([rng.uniform(-0.5, 2.0), MARGIN, 0.0, 2 * MARGIN, 0.5])
        clearance = rng.choice([pb.TAKEN_CLEARANCE, 0.05])
        marks = [than - MARGIN, limit - MARGIN, clearance + MARGIN]

        def value(marks: list[float] = marks) -> float:
            if rng.random() < 0.5:
                m = rng.choice(marks)
                return rng.choice([m, math.nextafter(m, -1.0), math.nextafter(m, 9.0)])
            return rng.uniform(-0.5, 2.5)
        lower = np.array([[value() for _ in range(k)] for _ in range(n)])
        upper = lower if rng.random() < 0.5 else lower + np.array(
            [[rng.choice([0.0, rng.uniform(0, 1)]) for _ in range(k)] for _ in range(n)])
        nt = rng.choice([-1, 0, min(n, rng.randint(1, 3))])
        cuts = sorted(rng.sample(range(max(nt, 0), n + 1), min(rng.randint(0, 3),
                                                               n + 1 - max(nt, 0))))
        groups = [(a, b) for a, b in itertools.pairwise(cuts) if b > a]
        v_ok = np.array([rng.random() < 0.8 for _ in range(n)])
        level = [bool(v_ok[a:b].all()) for a, b in groups]
        nf = rng.choice([-1, rng.randint(0, n)])
        low_t = least(lower[:nt], axis=0) if nt > 0 and than + MARGIN > 0 else None
        # the vector code (candidates_of_rows' own, lazy False)
        c = than - MARGIN
        if nt > 0:
            code = ((low_t if upper is lower and low_t is not None
                     else least(upper[:nt], axis=0)) >= c) * pb.CLOSER if c > 0.0 \
                else np.full(k, pb.CLOSER, dtype=np.int64)
        else:
            code = np.full(k, 0 if nt == 0 else pb.CLOSER, dtype=np.int64)
        if groups:
            sure_all = np.ones(k, dtype=bool)
            for j, (a, b) in enumerate(groups):
                hit = upper[a:b] <= limit - MARGIN
                if not level[j]:
                    hit &= v_ok[a:b, None]
                sure_all &= some(hit, axis=0)
            code[~sure_all] |= pb.STILL
        if nf >= 0:
            code[some(lower[nf:] <= clearance + MARGIN, axis=0)] |= pb.CLEAR
        idx = sorted(rng.sample(range(k), rng.randint(1, k)))
        got = list(pb._codes_at(idx, nt, than, low_t, lower, upper, groups, level, v_ok,
                                nf, clearance))
        assert got == code[idx].tolist()
        bits.update(got)
    assert bits >= {0, pb.CLOSER, pb.STILL, pb.CLEAR, 7}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("perturb", [6e-10, -6e-10])
def test_friend_spots_near_the_limit_with_the_arrays_off_R03_03_a(
        seed: int, perturb: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """R03.03-a: ``pile_in_friends.friend_spots``' limit guard (the spots the array leaves
    within ``APART`` of the limit either side, measured by ``math.hypot``) gives the plain
    spot-by-spot spots with the limit exactly on a spot's distance (and a float either
    side) while the array distances are all off by 6e-10" (below ``APART``)."""
    from tests.engine.test_21_pile_in_layout import _plain_friend_spots
    from w40k.engine.propose_moves import bearings
    monkeypatch.setattr(pf, "_hypot", lambda a, b: np.hypot(a, b) + perturb)
    rng = random.Random(seed)
    met = 0
    for _ in range(60):
        start = Model("m", rng.uniform(10, 34), rng.uniform(10, 50), 0.0, 32.0, 1.6)
        near = [(start.x + rng.uniform(-2.5, 2.5), start.y + rng.uniform(-2.5, 2.5),
                 0.63 + rng.choice([0.49, 0.63, 0.79])) for _ in range(rng.randint(1, 3))]
        goal = (start.x + rng.uniform(-4, 4), start.y + rng.uniform(-4, 4))
        fx, fy, rf = near[-1]
        c, s = bearings(0.0, pf.FRIEND_BEARINGS)[rng.randrange(pf.FRIEND_BEARINGS)]
        dist = rf + rng.choice(pf.FRIEND_GAPS)
        on = math.hypot(fx + dist * c - start.x, fy + dist * s - start.y)
        for limit in (on, math.nextafter(on, 0.0), math.nextafter(on, 9.0)):
            got = pf.friend_spots(start, near, goal, limit)
            assert [tuple(p) for p in got.tolist()] == \
                _plain_friend_spots(start, near, goal, limit)
            met += 1
    assert met == 180
