"""The fifteenth pass's fast paths of the charge searches (``melee_moves``,
``charge_propose``, ``propose_moves``) give the plain code's answers, bit for bit."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.core.errors import MalformedChoice
from w40k.engine import geo
from w40k.engine import moves as moves_mod
from w40k.engine import propose_chain_move as pcm
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.propose_moves import bearings
from w40k.engine.serial import JSON
from w40k.geometry import Model, movement
from w40k.geometry.battlefield import Discs
from w40k.geometry.measure import horizontal_distance


def _candidate_spots_plain(m: Model, targets: Sequence[Model], gap: float, budget: float
                           ) -> list[tuple[float, float]]:
    """``melee_moves._candidate_spots`` one spot at a time (the search's definition)."""
    r = mm_._radius(m)
    out: list[tuple[float, float]] = []
    for t in targets:
        if horizontal_distance(m, t) > budget + gap + mm_.EPS:
            continue
        rt = mm_._radius(t)
        for g in sorted({min(gap * 0.5, 0.25), gap * 0.95}):
            d = r + rt + g
            base = math.atan2(m.y - t.y, m.x - t.x)
            for k in range(mm_.BEARINGS):
                a = base + (k + 1) // 2 * (1 if k % 2 else -1) * 2 * math.pi / mm_.BEARINGS
                x, y = t.x + d * math.cos(a), t.y + d * math.sin(a)
                if math.hypot(x - m.x, y - m.y) <= budget + mm_.EPS:
                    out.append((x, y))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_candidate_spots_are_the_plain_searchs(seed: int) -> None:
    """``_candidate_spots`` (every ring at once, numpy) lists the same spots, as the same
    floats in the same order, as building them bearing by bearing, for models of seeded
    games moved around each other and budgets that put spots on the move's edge."""
    rng = random.Random(seed)
    for game in greedy_snapshots(seed, every=80):
        shapes = [s for u in game.state.units if not u.destroyed for s in geo.unit_shapes(u)]
        for _ in range(40):
            m = rng.choice(shapes)
            m = m.moved(m.x + rng.uniform(-4, 4), m.y + rng.uniform(-4, 4))
            targets = rng.sample(shapes, min(len(shapes), rng.randint(1, 8)))
            targets = [t.moved(m.x + rng.uniform(-9, 9), m.y + rng.uniform(-9, 9))
                       for t in targets]
            gap = rng.choice([1.0, 2.0, rng.uniform(0.1, 3.0)])
            budget = rng.choice([rng.uniform(1.0, 12.0), 6.0, 2.0])
            want = _candidate_spots_plain(m, targets, gap, budget)
            assert mm_._candidate_spots(m, targets, gap, budget) == want
            if want:  # a budget exactly at a spot's distance: the edge is kept as before
                x, y = rng.choice(want)
                edge = math.hypot(x - m.x, y - m.y) - mm_.EPS
                assert mm_._candidate_spots(m, targets, gap, edge) == \
                    _candidate_spots_plain(m, targets, gap, edge)


def test_parse_positions_fast_path_is_the_checked_one() -> None:
    """``moves.parse_positions``' fast path (a waypoint of two finite floats) gives the
    ``Step`` the checked path (``_waypoint``) gives, and the other waypoints still go
    through it (ints, z and facing, bad values refused)."""
    rng = random.Random(3)
    for _ in range(300):
        x, y = rng.uniform(-50, 50), rng.uniform(-50, 50)
        p: list[JSON] = rng.choice([[x, y], [x, y], [int(x), y], [x, y, 1.0],
                                    [x, y, None, 0.5], [True, y], [x, math.inf]])
        try:
            want = moves_mod._waypoint(p, "m[0]")
        except MalformedChoice:
            with pytest.raises(MalformedChoice):
                moves_mod.parse_positions({"m": [p]})
            continue
        got = moves_mod.parse_positions({"m": [p]})["m"][0]
        assert got == want
        assert all(type(v) is type(w) for v, w in zip(
            (got.x, got.y, got.z, got.facing), (want.x, want.y, want.z, want.facing),
            strict=True))


def test_scene_others_is_the_plain_list() -> None:
    """``movement.scene_others`` (each unit's part kept with the scene unit) lists every
    model of the other units as (friendly, model) in the scene's order, and its discs are
    ``Discs.of`` them (the same arrays), on scenes of seeded games as their units move."""
    for seed in (1, 2):
        for game in greedy_snapshots(seed, every=60):
            scene = geo.scene(game.ctx)
            for gu in scene.units:
                others, discs = movement.scene_others(scene, gu.name, gu.player)
                want = [(u.player == gu.player, m) for u in scene.units if u.name != gu.name
                        for m in u.models]
                assert len(others) == len(want)
                assert all(a[0] == b[0] and a[1] is b[1]
                           for a, b in zip(others, want, strict=True))
                plain = Discs.of([m for _, m in want])
                assert discs.models == plain.models
                for a, b in ((discs.xs, plain.xs), (discs.ys, plain.ys),
                             (discs.rs, plain.rs)):
                    assert a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_bearings_are_the_formulas_floats() -> None:
    """``propose_moves.bearings`` (the angles summed in one array operation) and the chain
    proposer's ``_bearings`` give, bit for bit, the cosine and sine of ``base`` plus each
    bearing's offset computed one at a time, for random bases (and 24 or 48 bearings)."""
    rng = random.Random(11)
    for _ in range(2000):
        base, n = rng.uniform(-7, 7), rng.choice([12, 24, 48])
        plain = []
        for k in range(n):
            a = base + (k + 1) // 2 * (1 if k % 2 else -1) * 2 * math.pi / n
            plain.append((math.cos(a), math.sin(a)))
        assert bearings(base, n) == plain
        chain = [(math.cos(base + k * 2 * math.pi / pcm.BEARINGS),
                  math.sin(base + k * 2 * math.pi / pcm.BEARINGS))
                 for k in range(pcm.BEARINGS)]
        assert pcm._bearings(base) == chain
