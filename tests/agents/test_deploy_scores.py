"""The heuristic deployment's terrain scores for a whole grid at once (agents/deploy_scores.py)
give exactly the one-point-at-a-time answers they replace (``==`` on floats and booleans):
on random terrain (rectangles on whole inches, random polygons, repeated pieces whose
distances tie exactly, a repeated corner) and on every shipped layout, with points on the
pieces' corners and edges, inside them and half-way between two of them. The cases the
approximation cannot settle go to the scalar code: the tests check that they occur."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from w40k.agents import deploy_scores as ds
from w40k.agents import heuristic_deploy as hd
from w40k.engine.game import Game
from w40k.engine.phases.deployment import zone_of
from w40k.engine.state import GameState
from w40k.io.battle_setup import real_battle_position
from w40k.io.missions import mission_names

Point = tuple[float, float]


def _exposed(state: GameState, shooters: list[tuple[Point, float]], p: Point) -> int:
    """The plain count of enemy shooters that see ``p``: within reach, along a clear lane."""
    return sum(1 for c, reach in shooters
               if math.hypot(c[0] - p[0], c[1] - p[1]) <= reach and hd.clear_lane(state, c, p))


def _score(state: GameState, kind: str, p: Point, goal: Point, guard: Point | None,
           shooters: list[tuple[Point, float]], lanes: list[Point]) -> float:
    """The placement score of one point, as ``heuristic_deploy`` computed it point by point
    before ``_scores`` (the reference: the same sums in the same order)."""
    if kind == "shooter":
        return (min(hd.cover_distance(state, p), 6.0)
                - 2.0 * sum(hd.clear_lane(state, p, q) for q in lanes)
                + 0.5 * _exposed(state, shooters, p))
    if kind == "character" and guard is not None:
        return math.hypot(p[0] - guard[0], p[1] - guard[1])
    dist = math.hypot(p[0] - goal[0], p[1] - goal[1])
    return dist + 3.0 * _exposed(state, shooters, p) + 0.2 * min(hd.cover_distance(state, p), 6.0)


def _piece(poly: list[Point]) -> ds.Kept:
    edges = tuple(hd._edges(poly))
    box = (min(x for x, _ in poly), min(y for _, y in poly), max(x for x, _ in poly),
           max(y for _, y in poly))
    return tuple(poly), box, hd._segs(edges)


def _terrain(rng: random.Random) -> list[ds.Kept]:
    pieces: list[ds.Kept] = []
    for _ in range(rng.randint(1, 12)):
        r = rng.random()
        if r < 0.4:  # a rectangle on whole inches
            x0, y0 = rng.randint(0, 55), rng.randint(0, 40)
            w, h = rng.randint(1, 8), rng.randint(1, 6)
            poly = [(float(x0), float(y0)), (float(x0 + w), float(y0)),
                    (float(x0 + w), float(y0 + h)), (float(x0), float(y0 + h))]
        else:  # a star-shaped polygon, now and then a corner twice (an edge of length 0)
            cx, cy = rng.uniform(5, 55), rng.uniform(5, 40)
            angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(rng.randint(3, 7)))
            poly = [(cx + rng.uniform(1, 6) * math.cos(a), cy + rng.uniform(1, 6) * math.sin(a))
                    for a in angles]
            if rng.random() < 0.2:
                poly.insert(1, poly[1])
        pieces.append(_piece(poly))
        if rng.random() < 0.15:  # the same piece again: every distance ties
            pieces.append(_piece(list(pieces[-1][0])))
        if rng.random() < 0.15 and r < 0.4:  # a mirror image across a whole-inch line
            x0 = pieces[-1][1][0]
            pieces.append(_piece([(2 * (x0 - 3.0) - x, y) for x, y in pieces[-1][0]]))
    rng.shuffle(pieces)
    return pieces


def _points(rng: random.Random, pieces: list[ds.Kept], n: int) -> list[Point]:
    pts = [(rng.uniform(-2, 62), rng.uniform(-2, 46)) for _ in range(n)]
    pts += [(float(round(x)), float(round(y * 2) / 2)) for x, y in pts[: n // 3]]
    corners = [c for poly, _, _ in pieces for c in poly]
    pts += [rng.choice(corners) for _ in range(n // 10)]
    for _ in range(n // 5):  # on an edge, and half-way between two corners
        a, b = rng.choice(corners), rng.choice(corners)
        pts.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    return pts


def test_cover_distances_equal_the_walk_one_point_at_a_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``cover_distances`` (capped or not) equals ``cover_one`` at every point of 300 random
    terrains, and the ties too close to call were left to ``cover_one``."""
    rng = random.Random(11)
    calls = 0
    plain = ds.cover_one

    def counted(cover: list[ds.Kept], p: Point) -> float:
        nonlocal calls
        calls += 1
        return plain(cover, p)

    for case in range(300):
        pieces = _terrain(rng)
        pts = _points(rng, pieces, 150)
        want = [plain(pieces, p) for p in pts]
        cap = rng.choice([math.inf, 6.0, 2.0, 0.0])
        with monkeypatch.context() as m:
            m.setattr(ds, "cover_one", counted)
            got = ds.cover_distances(pieces, [p[0] for p in pts], [p[1] for p in pts], cap)
        assert got == [min(w, cap) for w in want], case
    assert calls > 0  # the undecided walks went to the scalar code
    assert ds.cover_distances([], [1.0], [2.0]) == [math.inf]


def test_clear_lanes_equal_the_scalar_test_both_ways() -> None:
    """``clear_lanes`` from a point to many and from many to a point equals ``clear_one``
    (lanes through corners and along edges included)."""
    rng = random.Random(12)
    for _ in range(200):
        pieces = _terrain(rng)
        pts = _points(rng, pieces, 80)
        xs = np.array([p[0] for p in pts])
        ys = np.array([p[1] for p in pts])
        q = rng.choice([c for poly, _, _ in pieces for c in poly]) if rng.random() < 0.3 \
            else (rng.uniform(0, 60), rng.uniform(0, 44))
        assert ds.clear_lanes(pieces, xs, ys, q[0], q[1]).tolist() == [
            ds.clear_one(pieces, p, q) for p in pts]
        assert ds.clear_lanes(pieces, q[0], q[1], xs, ys).tolist() == [
            ds.clear_one(pieces, q, p) for p in pts]
    assert ds.clear_lanes([], 1.0, 1.0, np.array([2.0, 3.0]), np.array([2.0, 3.0])).tolist() \
        == [True, True]


def test_far_from_settles_only_what_the_scalar_answers() -> None:
    """R24.20-a (roughly): ``far_from``'s settled answers equal ``_far_from``'s, with and
    without the enemy's zone, and points at exactly the reach are left undecided."""
    rng = random.Random(13)
    undecided = 0
    for _ in range(200):
        box = (-rng.uniform(0, 4), -rng.uniform(0, 4), rng.uniform(0, 4), rng.uniform(0, 4))
        reach = max(box[2] - box[0], box[3] - box[1]) / 2 + 8.0 - 1.0
        foes = [(rng.uniform(0, 60), rng.uniform(0, 44)) for _ in range(rng.randint(0, 30))]
        zone = None if rng.random() < 0.3 else [(0.0, 32.0), (60.0, 32.0), (60.0, 44.0),
                                                (0.0, 44.0)]
        pts = [(rng.uniform(0, 60), rng.uniform(0, 44)) for _ in range(100)]
        pts += [(f[0] + reach, f[1]) for f in foes[:5]]  # exactly at the reach
        if zone is not None:
            pts += [(rng.uniform(0, 60), 32.0 - reach) for _ in range(5)]
        got = ds.far_from([p[0] for p in pts], [p[1] for p in pts], reach, foes, zone)
        for p, v in zip(pts, got, strict=True):
            if v is None:
                undecided += 1
            else:
                assert v == hd._far_from(p, box, foes, zone)
        assert hd._far_from_all(pts, box, foes, zone) == [
            hd._far_from(p, box, foes, zone) for p in pts]
    assert undecided > 0


def test_the_anchor_grid_equals_the_point_by_point_walk() -> None:
    """``_anchors``: the same points, in the same order, as the scalar loop."""
    rng = random.Random(14)
    for _ in range(50):
        x0, y0 = rng.randint(0, 40), rng.randint(0, 30)
        zone = np.array([(x0, y0), (x0 + 20.0, y0), (x0 + 20.0, y0 + 12.0), (x0, y0 + 12.0)])
        seed = rng.random()
        got = hd._anchors(zone, 60.0, 44.0, random.Random(seed))
        r = random.Random(seed)
        ox, oy = r.uniform(0, hd.ANCHOR_STEP), r.uniform(0, hd.ANCHOR_STEP)
        poly = [(float(x), float(y)) for x, y in zone]
        want: list[Point] = []
        x = ox
        while x < 60.0:
            y = oy
            while y < 44.0:
                if hd.point_in_polygon((x, y), poly):
                    want.append((x, y))
                y += hd.ANCHOR_STEP
            x += hd.ANCHOR_STEP
        assert got == want


@pytest.mark.parametrize("mission", mission_names())
def test_the_scores_of_a_grid_equal_score_one_point_at_a_time(mission: str) -> None:
    """03.02: every role's placement score on each shipped layout, for points of both zones
    and the pieces' corners, equals the plain score point by point (enemy shooters placed at
    random, the lanes to the objectives and the centre)."""
    state = Game.new(real_battle_position(mission, pre_battle=True), 1).state
    rng = random.Random(mission)
    pieces = hd._pieces(state)
    corners = [c for t in pieces for c in t.poly]
    pts: list[Point] = [(rng.uniform(0, 60), rng.uniform(0, 44)) for _ in range(300)]
    pts += rng.sample(corners, min(40, len(corners)))
    pts += [(float(x), float(y)) for x, y in zone_of(state, state.players[0].name)]
    shooters = [((rng.uniform(0, 60), rng.uniform(0, 44)), rng.uniform(18, 40))
                for _ in range(4)]
    shooters.append((corners[0], 30.0))
    lanes = hd.lane_targets(state)
    for kind, guard in (("shooter", None), ("melee", None), ("transport", None),
                        ("character", (30.0, 10.0)), ("character", None)):
        got = hd._scores(state, kind, pts, (30.0, 22.0), guard, shooters, lanes)
        want = [_score(state, kind, p, (30.0, 22.0), guard, shooters, lanes) for p in pts]
        assert got == want, kind
