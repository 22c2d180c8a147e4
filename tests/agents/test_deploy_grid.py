"""The heuristic deployment's quick filters and terrain scores (agents/deploy_grid.py,
agents/heuristic_deploy.py) give exactly the answers of the plain one-point-at-a-time code
they replace: the grid filters against ``_fits``/``_crowded`` on random zones, blocks, models
and terrain boxes, and the inlined ``cover_distance``/``clear_lane`` against the plain
formulas (kept here as the reference) on the shipped layouts. Equality is exact (``==``):
the same float operations in the same order, so a deployment never changes."""

from __future__ import annotations

import math
import random
from typing import cast

import numpy as np
import pytest

from w40k.agents import deploy_grid
from w40k.agents import heuristic_deploy as hd
from w40k.engine.game import Game
from w40k.io.battle_setup import real_battle_position
from w40k.io.missions import mission_names

Point = tuple[float, float]


def _polygon(rng: random.Random) -> list[Point]:
    """A random simple polygon (a star-shaped one around a centre, 3-9 corners), sometimes
    with a horizontal edge (the even-odd rule's skipped quotient)."""
    cx, cy = rng.uniform(10, 50), rng.uniform(10, 40)
    n = rng.randint(3, 9)
    angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(n))
    pts = [(cx + rng.uniform(4, 20) * math.cos(a), cy + rng.uniform(4, 20) * math.sin(a))
           for a in angles]
    if rng.random() < 0.5:
        pts[1] = (pts[1][0], pts[0][1])
    return pts


def test_the_grid_filters_answer_as_fits_and_crowded_one_point_at_a_time() -> None:
    """03.02 / 03.01: a block fits its zone and is not crowded, for 300 random cases of ~400
    anchors and every block shape: the numpy answer equals the scalar one at every anchor."""
    rng = random.Random(7)
    for _ in range(300):
        poly = _polygon(rng)
        box = (-rng.uniform(0, 6), -rng.uniform(0, 6), rng.uniform(0, 6), rng.uniform(0, 6))
        if rng.random() < 0.4:  # a rectangular zone and block on whole inches, as the
            # shipped maps have: corners fall exactly on the zone's edges
            x0, y0 = rng.randint(0, 20), rng.randint(0, 20)
            poly = [(x0, y0), (x0 + 44.0, y0), (x0 + 44.0, y0 + 12.0), (x0, y0 + 12.0)]
            box = (-2.0, -1.5, 2.0, 1.5)
        taken = [(rng.uniform(0, 60), rng.uniform(0, 44)) for _ in range(rng.randint(0, 40))]
        taken += [(round(x * 2) / 2, round(y * 2) / 2) for x, y in taken]  # on the edges
        blocks = []
        for _ in range(rng.randint(0, 6)):
            bx, by = rng.uniform(0, 60), rng.uniform(0, 44)
            blocks.append((bx, by, bx + rng.uniform(1, 8), by + rng.uniform(1, 8)))
        blocks += [(float(round(b[0])), float(round(b[1])), float(round(b[2])),
                    float(round(b[3]))) for b in blocks]  # edges on whole inches
        pts = [(rng.uniform(0, 70), rng.uniform(0, 50)) for _ in range(200)]
        pts += [(round(x), round(y) + 0.5) for x, y in pts]  # on whole and half inches
        x = np.array([p[0] for p in pts])
        y = np.array([p[1] for p in pts])
        fits = deploy_grid.fits(x, y, box, poly)
        crowded = deploy_grid.crowded(x, y, box, taken, blocks)
        both = deploy_grid.open_blocks(x, y, box, poly, taken, blocks)
        for i, p in enumerate(pts):
            assert bool(fits[i]) == hd._fits(p, box, poly)
            assert bool(crowded[i]) == hd._crowded(p, box, taken, blocks)
            assert bool(both[i]) == (hd._fits(p, box, poly)
                                     and not hd._crowded(p, box, taken, blocks))


def _cover_distance_plain(pieces: tuple[hd.Piece, ...], p: Point) -> float:
    best = math.inf
    for t in pieces:
        if t.category not in ("dense", "light"):
            continue
        x0, y0, x1, y1 = t.box
        if math.hypot(max(x0 - p[0], 0.0, p[0] - x1), max(y0 - p[1], 0.0, p[1] - y1)) >= best:
            continue
        if hd.point_in_polygon(p, t.poly):
            return 0.0
        best = min(best, min(hd._seg_dist(p, a, b) for a, b in t.edges))
    return best


def _crosses_plain(p: Point, q: Point, a: Point, b: Point) -> bool:
    def side(u: Point, v: Point, w: Point) -> float:
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
    return (side(p, q, a) * side(p, q, b) < 0) and (side(a, b, p) * side(a, b, q) < 0)


def _clear_lane_plain(pieces: tuple[hd.Piece, ...], p: Point, q: Point) -> bool:
    lo_x, hi_x, lo_y, hi_y = min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1])
    for t in pieces:
        x0, y0, x1, y1 = t.box
        if t.category != "dense" or x1 < lo_x or x0 > hi_x or y1 < lo_y or y0 > hi_y:
            continue
        if any(_crosses_plain(p, q, a, b) for a, b in t.edges):
            return False
    return True


@pytest.mark.parametrize("mission", mission_names())
def test_cover_distance_and_clear_lane_equal_the_plain_formulas(mission: str) -> None:
    """The deployment's terrain scores on each shipped mission's layout: the distance to
    the nearest cover and whether dense terrain crosses a lane, for 1500 random points and
    lanes (some ending on a piece's corner), exactly as the plain per-edge formulas."""
    state = Game.new(real_battle_position(mission, pre_battle=True), 1).state
    pieces = hd._pieces(state)
    corners = [c for t in pieces for c in t.poly]
    rng = random.Random(mission)
    for _ in range(1500):
        p = (rng.uniform(0, 60), rng.uniform(0, 44))
        q = rng.choice(corners) if rng.random() < 0.2 else (rng.uniform(0, 60),
                                                               rng.uniform(0, 44))
        assert hd.cover_distance(state, p) == _cover_distance_plain(pieces, p)
        assert hd.clear_lane(state, p, q) == _clear_lane_plain(pieces, p, q)
        assert hd.clear_lane(state, q, p) == _clear_lane_plain(pieces, q, p)
    assert cast(int, len(pieces)) > 0
