"""11.04 charge move, the chain's per-model measures: ``Rings.points`` writes the spots into
their rows in place (no columns stacked), and ``charge_order._round_keys`` reads R11.04-b's
"closer to the target unit" from the nearest distance to every target model when there is
one target unit, and ``first_chain`` counts the draws of its attempt 0 as they are made.
These tests compare them with the plain expressions, bit for bit, with distances put exactly
on the limit, and the counts with the draws found by comparing generator states."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.engine import geo
from w40k.engine.phases import charge_propose as cp
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.phases.charge_order import _round_keys
from w40k.engine.propose_moves import CLEARANCE, Occupied, Rings, bearings
from w40k.geometry import Model
from w40k.geometry.battlefield import MARGIN, inner_radius
from w40k.geometry.shapes import Polygon


def _plain_points(rings: Rings, last: tuple[float, float] | None) -> np.ndarray:
    """``Rings.points`` as written before (3e625ac): the columns made, then stacked."""
    rows = []
    if rings._d:
        d = np.array(rings._d)
        xs = np.array(rings._cx) + d * np.array(rings._c)
        ys = np.array(rings._cy) + d * np.array(rings._s)
        rows.append(np.stack((xs, ys), axis=1))
    if last is not None:
        rows.append(np.array([last], dtype=np.float64))
    return np.concatenate(rows) if rows else np.zeros((0, 2))


def test_the_spots_written_in_place_are_the_stacked_columns() -> None:
    # Random rings (centres in floats or whole inches, 24 or 48 bearings), with or without
    # the last spot, none at all: the same shape, dtype and bytes.
    rng = random.Random(19)
    for n in range(300):
        rings = Rings()
        for _ in range(rng.randrange(0, 5)):
            cx: float = rng.uniform(0, 60) if n % 4 else rng.randrange(0, 60)
            cy: float = rng.uniform(0, 44) if n % 4 else rng.randrange(0, 44)
            ds = [rng.uniform(0.3, 4.0) for _ in range(rng.randint(1, 5))]
            rings.add(cx, cy, ds, bearings(rng.uniform(-math.pi, math.pi),
                                           rng.choice((24, 48))))
        last = (rng.uniform(0, 60), rng.uniform(0, 44)) if rng.random() < 0.5 else None
        got, want = rings.points(last), _plain_points(rings, last)
        assert got.shape == want.shape and got.dtype == want.dtype == np.float64
        assert got.tobytes() == want.tobytes()


def _scene(rng: random.Random) -> tuple[Model, list[Model], list[tuple[str, Model]],
                                        np.ndarray]:
    start = Model("a", rng.uniform(10, 20), rng.uniform(10, 20), 0.0,
                  rng.choice((25.0, 32.0, 40.0)))
    ends = [Model(f"e{i}", rng.uniform(10, 20), rng.uniform(10, 20), 0.0, 32.0)
            for i in range(rng.randrange(0, 5))]
    tshapes = [("t", Model(f"t{i}", rng.uniform(12, 22), rng.uniform(12, 22), 0.0,
                           rng.choice((25.0, 32.0, 40.0)))) for i in range(rng.randint(1, 6))]
    pts = np.array([(rng.uniform(8, 24), rng.uniform(8, 24)) for _ in range(150)])
    return start, ends, tshapes, pts


def test_one_target_units_closer_test_is_the_per_unit_test_R11_04_b() -> None:
    # R11.04-b: with one target unit, the kept spots and their keys are those of the per-unit
    # test (forced by a second unit with no model, which adds no column), also where the
    # start's distance less EPS is exactly a spot's nearest distance (a strict comparison:
    # that spot is not closer), and such spots are met.
    rng = random.Random(1904)
    on_limit = 0
    for _ in range(120):
        start, ends, tshapes, pts = _scene(rng)
        near = np.maximum(0.0, np.hypot(
            pts[:, 0, None] - np.array([t.x for _, t in tshapes])[None, :],
            pts[:, 1, None] - np.array([t.y for _, t in tshapes])[None, :])
            - start.footprint().r  # type: ignore[attr-defined]
            - np.array([t.footprint().r for _, t in tshapes])[None, :]  # type: ignore[attr-defined]
        ).min(axis=1)
        d0 = rng.uniform(2.0, 8.0)
        for j in rng.sample(range(len(pts)), 10):  # the limit exactly on a spot's distance
            if float(near[j]) + mm_.EPS - mm_.EPS == float(near[j]):
                d0 = float(near[j]) + mm_.EPS
                on_limit += 1
                break
        engaged = {"t"} if rng.random() < 0.3 else set()
        got = _round_keys(start, pts, ends, tshapes, engaged, 7.0, {"t": d0})
        want = _round_keys(start, pts, ends, tshapes, engaged, 7.0, {"t": d0, "none": 0.0})
        if want is None:
            assert got is None
            continue
        assert got is not None
        assert got.rows.tolist() == want.rows.tolist()
        assert [got.scored(i) for i in range(len(got.rows))] == \
            [want.scored(i) for i in range(len(want.rows))]
    assert on_limit > 50


class _Twice(random.Random):
    """A generator whose ``uniform`` draws two numbers (its own ``uniform``)."""

    def uniform(self, a: float, b: float) -> float:
        self.random()
        return super().uniform(a, b)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_first_chains_counted_draws_are_the_draws_found_by_states_R11_04_b(
        seed: int) -> None:
    # R11.04-b: attempt 0 of the chain keeps its answer with the number of ``random()`` draws
    # it made, now counted as made: the count is the one found by stepping a copy of the
    # state before (``_draws``), the kept answer is given again after that many draws (the
    # same generator state as placing it again), and a generator with its own ``uniform``
    # (two draws each) is still stepped, not counted.
    from w40k.engine.phases.pile_in_propose import _draws

    charges = 0
    for game in greedy_snapshots(seed, every=25):
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            enemies = [e for e in units if e.player != u.player]
            if not enemies:
                continue
            targets = [min(enemies, key=lambda e: mm_.unit_distance(
                geo.unit_shapes(u), geo.unit_shapes(e)))]
            for gen in (random.Random, _Twice):
                cp._FIRST.clear()
                kept, plain = gen(seed), gen(seed)
                before = kept.getstate()
                first = cp.first_chain(game.ctx, u, targets, 9.0, kept)
                want = cp.propose_charge(game.ctx, u, targets, 9.0, plain, 0)
                assert first == want and kept.getstate() == plain.getstate()
                (entry,) = cp._FIRST.values()
                assert entry[1] == _draws(before, kept, 10 ** 4)
                again = cp.first_chain(game.ctx, u, targets, 9.0, kept)
                cp.propose_charge(game.ctx, u, targets, 9.0, plain, 0)
                assert again == want and kept.getstate() == plain.getstate()
                charges += first is not None
    assert charges


def _plain_taken(occ: Occupied, start: Model, spots: np.ndarray, budget: float
                 ) -> list[bool]:
    """``Occupied.taken`` as written before (3e625ac)."""
    if not len(spots) or not occ.models:
        return [False] * len(spots)
    reach = budget + start.reach() + 1.0
    sx, sy = start.x, start.y
    discs = occ._discs
    near = [i for i in range(len(discs))
            if math.hypot(discs[i][0] - sx, discs[i][1] - sy) <= reach + discs[i][2]]
    if not near:
        return [False] * len(spots)
    fp = start.footprint()
    cx, cy = fp.center
    ox, oy = cx - sx, cy - sy
    b = np.array([occ._bounds[i] for i in near], dtype=np.float64)
    pts = np.asarray(spots, dtype=np.float64)
    dx = pts[:, 0, None] + ox - b[None, :, 0]
    dy = pts[:, 1, None] + oy - b[None, :, 1]
    d = np.sqrt(dx * dx + dy * dy)
    s_in = -math.inf if isinstance(fp, Polygon) else inner_radius(fp)
    upper = np.maximum(0.0, d - s_in - b[None, :, 2])
    out: list[bool] = np.asarray((upper <= CLEARANCE - MARGIN).any(axis=1)).tolist()
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_the_taken_mask_is_the_taken_list_R03_01_c(seed: int) -> None:
    # R03.01-c: the chain's screen selects its rows with ``Occupied.taken_mask``, the same
    # verdicts as ``taken``'s list (None where no spot can be taken: every one False), for
    # every unit's models among the others at seeded greedy positions; both met.
    from w40k.engine.propose_moves import occupied_around

    rng = random.Random(seed)
    met = set()
    for game in greedy_snapshots(seed):
        for u in [u for u in game.state.units if not u.destroyed]:
            placed = occupied_around(game.ctx, u)
            for m in u.alive[:3]:
                start = geo.model_shape(m)
                spots = np.array([(start.x + rng.uniform(-8, 8), start.y + rng.uniform(-8, 8))
                                  for _ in range(60)])
                budget = rng.uniform(3.0, 12.0)
                want = _plain_taken(placed, start, spots, budget)
                assert placed.taken(start, spots, budget) == want
                mask = placed.taken_mask(start, spots, budget)
                assert (mask.tolist() if mask is not None else [False] * len(spots)) == want
                met |= set(want)
    assert met == {True, False}


def test_the_roundings_and_move_limits_are_pythons_at_the_halves() -> None:
    # The chain's roundings (``_round_to``, ``_round_arr``) and the move test
    # ``_within_exact``, which settle their near cases by index (``nonzero`` of a vector):
    # Python's ``round`` and ``math.hypot`` for every value, halves of the last decimal and
    # distances exactly on the limit among them.
    from w40k.engine.phases.charge_order import _round_arr, _round_to, _within_exact

    rng = random.Random(1908)
    halves = 0
    for _ in range(300):
        n = rng.choice((3, 6))
        vals = [rng.uniform(0, 60) for _ in range(rng.randint(1, 80))]
        for i in rng.sample(range(len(vals)), len(vals) // 3):
            vals[i] = math.floor(vals[i] * 10 ** n) / 10 ** n + 0.5 / 10 ** n
        a = np.array(vals)
        want = [round(v, n) for v in vals]
        assert _round_to(a, n) == want
        assert _round_arr(a, n).tolist() == want
        halves += sum(abs(v * 10 ** n % 1 - 0.5) < 1e-6 for v in vals)
        start = Model("a", rng.uniform(10, 30), rng.uniform(10, 30))
        ys = [start.y + rng.uniform(-5, 5) for _ in vals]
        limit = math.hypot(vals[0] - start.x, ys[0] - start.y)
        assert _within_exact(start, vals, ys, limit) == [
            math.hypot(x - start.x, y - start.y) <= limit for x, y in zip(vals, ys, strict=True)]
    assert halves > 1000
