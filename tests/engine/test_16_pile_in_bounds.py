"""The pile-in placement's bound pre-tests against their plain answers (fifteenth session)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from w40k.engine.phases import pile_in_bounds as pb
from w40k.geometry import Model
from w40k.geometry.battlefield import MARGIN, bounding_radius, inner_radius
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL
from w40k.geometry.shapes import EPS, Polygon

_BASES: list[float | tuple[float, float]] = [25.0, 32.0, 40.0, 60.0, (75.0, 42.0)]
_HULL = ((-1.5, -1.0), (1.5, -1.0), (1.5, 1.0), (-1.5, 1.0))


def _model(rng: random.Random, name: str, cx: float, cy: float, spread: float) -> Model:
    frame = rng.random() < 0.08
    return Model(name, cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread),
                 rng.choice([0.0, 0.0, 0.0, 3.0, 8.0]), rng.choice(_BASES), 1.6,
                 rng.uniform(-3.2, 3.2), frozenset({"FRAME"}) if frame else frozenset(),
                 _HULL if frame else None)


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


@pytest.mark.parametrize("seed", range(10))
def test_candidates_of_the_columns_within_the_move_are_the_plain_answers(seed: int) -> None:
    """R12.03-d / R12.03-e / 03.01: ``candidates`` with ``fixed``'s ``move`` (the columns
    and friends no spot within the move can involve left out, the bounds unclipped, the
    matrix a row per column) keeps the same spots with the same codes as the plain matrix
    of every column (``_plain``), over random scenes: models scattered across the move's
    edge, spots within the move (some on its edge), ``than`` below, near and above 0,
    no target unit or an objective, other clearances; and some columns are left out."""
    rng = random.Random(seed)
    dropped = refused = 0
    codes: set[int] = set()
    for _ in range(60):
        start = _model(rng, "s", 20.0, 20.0, 0.0)
        move = rng.choice([3.0, 6.0])
        spread = move + 4.0

        def near(n: int, tag: str, s: Model = start, w: float = spread) -> list[Model]:
            return [_model(rng, f"{tag}{i}", s.x, s.y, w) for i in range(n)]

        def edge(n: int, tag: str, gap: float, s: Model = start, m: float = move
                 ) -> list[Model]:
            """Models whose bounding discs lie about ``gap`` beyond the move's reach (the
            columns nearest to being left out, either side)."""
            out = []
            for i in range(n):
                o = _model(rng, f"{tag}{i}", s.x, s.y, 0.0)
                a = rng.uniform(-math.pi, math.pi)
                r = m + pb.row(s)[2] + pb.row(o)[2] + gap + rng.uniform(-0.02, 0.02)
                out.append(o.moved(s.x + r * math.cos(a), s.y + r * math.sin(a)))
            return out

        targets = near(rng.randint(0, 6), "t")
        no_target = rng.random() < 0.15
        groups = [near(rng.randint(0, 5), f"g{j}", w=rng.choice([2.5, spread]))
                  for j in range(rng.randint(0, 2))]
        groups = [g + edge(rng.randint(0, 3), f"e{j}", ENGAGEMENT_HORIZONTAL)
                  for j, g in enumerate(groups)]
        friends = near(rng.randint(0, 8), "f") + edge(rng.randint(0, 3), "ef", 0.0)
        others = near(rng.randint(0, 30), "o", w=spread + 3.0) \
            + edge(rng.randint(0, 4), "eo", 0.0)
        keep = rng.random() < 0.7
        than = rng.choice([rng.uniform(-0.5, 3.0), 0.0, MARGIN, -MARGIN, 2 * MARGIN])
        clearance = rng.choice([pb.TAKEN_CLEARANCE, pb.TAKEN_CLEARANCE, 0.05])
        # spots anywhere within the move, and on its edge facing a model (where a column
        # left out would come nearest)
        every = targets + [o for g in groups for o in g] + friends + others
        spots = []
        for _ in range(rng.randint(1, 60)):
            a, r = rng.uniform(-math.pi, math.pi), move * math.sqrt(rng.random())
            if every and rng.random() < 0.4:
                o = rng.choice(every)
                a, r = math.atan2(o.y - start.y, o.x - start.x), move * (1 - 1e-12)
            spots.append((start.x + r * math.cos(a), start.y + r * math.sin(a)))
        spots = [(x, y) for x, y in spots if math.hypot(x - start.x, y - start.y) <= move]
        if not spots:
            continue
        t = None if no_target else targets
        gs = groups if keep else ()
        full = pb.fixed(start, t, gs, [pb.block(tuple(others))], move + 1.0)
        cut = pb.fixed(start, t, gs, [pb.block(tuple(others))], move + 1.0, move=move)
        assert cut.discs == full.discs  # free measures every nearby model still
        dropped += len(full.cols) - len(cut.cols)
        want = _plain(start, spots, full, friends, than, keep, clearance)
        got = pb.candidates(start, spots, cut, friends, than, keep, clearance)
        assert got == want
        assert pb.candidates(start, np.array(spots), cut, friends, than, keep,
                             clearance) == want
        codes.update(got[1])
        refused += len(spots) - len(got[0])
    assert dropped > 100 and refused > 0 and len(codes) > 2


def _plain_friend_spots(start: Model, mid: str, cur: dict[str, Model],
                        goal: tuple[float, float], budget: float) -> list[tuple[float, float]]:
    """The friends' rings as the fourteenth session built them: every ring spot, those
    within the move kept, sorted by a key function."""
    from w40k.engine.phases import melee_moves as mm_
    from w40k.engine.phases import pile_in_propose as pp
    r = mm_._radius(start)
    near = sorted((f for oid, f in cur.items() if oid != mid),
                  key=lambda f: math.hypot(f.x - goal[0], f.y - goal[1]))[:pp.FRIENDS]
    spots: list[tuple[float, float]] = []
    for f in near:
        for g in pp.FRIEND_GAPS:
            spots += pp._ring(f.x, f.y, r + mm_._radius(f) + g, 0.0, pp.FRIEND_BEARINGS)
    spots = pp._reachable(start, spots, budget)
    spots.sort(key=lambda p: math.hypot(p[0] - goal[0], p[1] - goal[1]))
    return spots


@pytest.mark.parametrize("seed", range(4))
def test_friend_rings_are_the_plain_rings_in_the_plain_order(seed: int) -> None:
    """R03.03-a: ``_friend_spots`` (keys measured as the spots are made, pairs sorted by key
    alone) gives the same spots in the same order as building every ring, keeping those
    within the move and sorting by a key function, over random units, goals and moves,
    with goals on a symmetry axis of the rings (ties between keys) among them."""
    from w40k.engine.phases import pile_in_propose as pp
    rng = random.Random(seed)
    ties = 0
    for _ in range(60):
        start = _model(rng, "s", 20.0, 20.0, 0.0)
        cur = {"s": start}
        for i in range(rng.randint(0, 7)):
            cur[f"f{i}"] = _model(rng, f"f{i}", 20.0, 20.0, 4.0)
        if rng.random() < 0.3 and len(cur) > 1:  # a goal on a friend's ring axis
            f = cur[rng.choice([k for k in cur if k != "s"])]
            goal = (f.x + rng.choice([0.0, 2.0]), f.y)
        else:
            goal = (20.0 + rng.uniform(-5, 5), 20.0 + rng.uniform(-5, 5))
        budget = rng.choice([3.0, 6.0])
        got = [tuple(p) for p in pp._friend_spots(start, "s", cur, goal, budget).tolist()]
        want = _plain_friend_spots(start, "s", cur, goal, budget)
        assert got == want
        keys = [math.hypot(x - goal[0], y - goal[1]) for x, y in got]
        ties += len(keys) - len(set(keys))
    assert pp._friend_spots(start, "s", cur, None, 3.0) == []
    assert ties > 0
