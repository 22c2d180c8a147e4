"""03.01 Ending a Move (R03.01-c): ``Occupied``'s models near a start found span by span
(``Occupied._near``, pile22). The models are kept in runs (a unit's, joined by ``extend``;
those appended one by one since) with the box of their discs, and a run whose box lies
farther than the reach along x or y is passed over. These tests compare the indices with
the plain test of every disc, with starts on a box's edge and a float either side and discs
exactly at the limit, and ``taken_mask`` / ``taken_test`` with the former whole-list
measure."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.engine import geo
from w40k.engine.propose_moves import CLEARANCE, Occupied, occupied_around
from w40k.geometry import Model
from w40k.geometry.battlefield import MARGIN, inner_radius
from w40k.geometry.shapes import Polygon


def _plain_near(occ: Occupied, sx: float, sy: float, reach: float) -> list[int]:
    discs = occ._discs
    return [i for i in range(len(discs))
            if math.hypot(discs[i][0] - sx, discs[i][1] - sy) <= reach + discs[i][2]]


def _plain_mask(occ: Occupied, start: Model, spots: np.ndarray, budget: float) -> list[bool]:
    """The former ``taken_mask`` (every disc tested), as a list."""
    near = _plain_near(occ, start.x, start.y, budget + start.reach() + 1.0)
    if not near or not len(spots):
        return [False] * len(spots)
    fp = start.footprint()
    cx, cy = fp.center
    ox, oy = cx - start.x, cy - start.y
    b = np.array([occ._bounds[i] for i in near], dtype=np.float64)
    dx = spots[None, :, 0] + ox - b[:, 0, None]
    dy = spots[None, :, 1] + oy - b[:, 1, None]
    d = np.sqrt(dx * dx + dy * dy)
    s_in = -math.inf if isinstance(fp, Polygon) else inner_radius(fp)
    upper = np.maximum(0.0, d - s_in - b[:, 2, None])
    out: list[bool] = (upper <= CLEARANCE - MARGIN).any(axis=0).tolist()
    return out


def _edges(occ: Occupied, reach: float) -> list[tuple[float, float]]:
    """Starts on a span's box grown by the reach (and 1e-6"), a float either side, and
    starts whose distance to a disc is exactly the limit."""
    out = []
    for a, _b, x0, y0, x1, y1 in occ._spans:
        g = reach + 1e-6
        ymid, xmid = (y0 + y1) / 2, (x0 + x1) / 2
        for v in (x0 - g, x1 + g):
            for w in (math.nextafter(v, -math.inf), v, math.nextafter(v, math.inf)):
                out.append((w, ymid))
        for v in (y0 - g, y1 + g):
            for w in (math.nextafter(v, -math.inf), v, math.nextafter(v, math.inf)):
                out.append((xmid, w))
        x, y, r = occ._discs[a]
        lim = reach + r
        for e in (-1e-9, 0.0, 1e-9):
            out.append((x + lim + e, y))
            out.append((x, y - lim - e))
    return out


@pytest.mark.parametrize("seed", [1, 4])
def test_near_models_span_by_span_are_every_disc_s_test(seed: int) -> None:
    # R03.01-c: at seeded greedy games' positions, for every unit's occupied_around (joined
    # spans), its copies with models appended (an open span) and a plain Occupied (one
    # span): the same indices as the test of every disc, starts on the boxes' edges too.
    rng = random.Random(seed)
    asked = skipped = 0
    for game in greedy_snapshots(seed, every=25):
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            occ = occupied_around(game.ctx, u)
            plain = Occupied(s for e in game.state.units if e.id != u.id and not e.destroyed
                             for s in geo.unit_shapes(e))
            for _ in range(3):
                m = rng.choice(plain.models)
                moved = m.moved(m.x + rng.uniform(-6, 6), m.y + rng.uniform(-6, 6))
                occ.append(moved)
                plain.append(moved)
            assert len(plain._spans) == 1
            for o in (occ, plain, occ.copy()):
                for reach in (rng.uniform(0.5, 3.0), rng.uniform(3.0, 9.0)):
                    starts = _edges(o, reach) + [
                        (rng.uniform(0, 60), rng.uniform(0, 44)) for _ in range(10)]
                    for sx, sy in starts:
                        got = o._near(sx, sy, reach)
                        assert got == _plain_near(o, sx, sy, reach)
                        asked += 1
                        skipped += sum(b - a for a, b, *_ in o._spans) > 0 and not got
    assert asked > 500 and skipped > 0


def test_a_copy_s_appends_leave_the_original_s_spans() -> None:
    game = next(iter(greedy_snapshots(1, every=25)))
    u = next(u for u in game.state.units if not u.destroyed)
    occ = occupied_around(game.ctx, u)
    before = list(occ._spans)
    c = occ.copy()
    m = occ.models[0]
    c.append(m.moved(m.x + 30.0, m.y))
    c.append(m.moved(m.x - 30.0, m.y))
    assert occ._spans == before
    assert c._spans[:-1] == before and c._spans[-1][:2] == (len(occ.models),
                                                           len(occ.models) + 2)
    for sx in (m.x - 30.0, m.x + 30.0, m.x):
        assert c._near(sx, m.y, 2.0) == _plain_near(c, sx, m.y, 2.0)


@pytest.mark.parametrize("seed", [2, 3])
def test_taken_answers_are_the_former_whole_list_ones(seed: int) -> None:
    # R03.01-c: taken_mask and taken_test give the former answers (every disc tested for
    # nearness) on spots around random starts, with models appended.
    rng = random.Random(seed)
    taken = 0
    for game in greedy_snapshots(seed, every=25):
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            occ = occupied_around(game.ctx, u)
            for _ in range(2):
                m = rng.choice(occ.models)
                occ.append(m.moved(m.x + rng.uniform(-3, 3), m.y + rng.uniform(-3, 3)))
            for m in u.alive[:3]:
                start = geo.model_shape(m)
                budget = rng.uniform(1.0, 8.0)
                spots = np.array([(start.x + rng.uniform(-budget, budget),
                                   start.y + rng.uniform(-budget, budget))
                                  for _ in range(30)])
                want = _plain_mask(occ, start, spots, budget)
                mask = occ.taken_mask(start, spots, budget)
                got = [False] * len(spots) if mask is None else mask.tolist()
                assert got == want
                test = occ.taken_test(start, budget)
                assert [test(x, y) for x, y in spots.tolist()] == want
                taken += sum(want)
    assert taken > 0
