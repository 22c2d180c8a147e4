"""The eighteenth pass's charge chain screen (``charge_propose._Screen``): a model's spots are
tested as they come (the round bases' engagement in ``math.hypot``, ``through_terrain``
before ``terrain_crossed``) instead of all at once; the spots kept, the
order, the tries, the answers and the random draws are the chain's as measured at once."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.agents.greedy import GreedyAgent
from w40k.engine.game import Game
from w40k.engine.phases import charge_propose as cp
from w40k.engine.propose_moves import Occupied
from w40k.geometry import Model
from w40k.io.battle_setup import real_battle_position


def _eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every spot measured at once, as the chain measured them before the screen."""
    monkeypatch.setattr(cp, "_near_round", lambda start, others, budget: None)


def _other(rng: random.Random, name: str, x: float, y: float, ovals: bool) -> Model:
    if ovals and rng.random() < 0.2:
        return Model(name, x, y, 0.0, (75.0, 42.0), 2.0, rng.uniform(-3.1, 3.1))
    return Model(name, x, y, 0.0, rng.choice((25.0, 32.0, 40.0)))


@pytest.mark.parametrize("ovals", [False, True])
def test_the_spots_tested_as_they_come_are_those_measured_at_once_R11_04_d(
        ovals: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # R11.04-d (engaged with no enemy unit that is not a target), R03.01-c (not on another
    # model): ``_Screen.keep`` of each spot equals membership of the spots the chain keeps
    # measuring every spot at once (``Occupied.taken``, then ``_engaged_mask``); spots put
    # exactly at engagement range of a model (a gap of 2" + 1e-9 less a few ulps) are
    # settled as measured at once.
    monkeypatch.setattr(cp, "terrain_crossed",  # no terrain here
                        lambda scene, unit, start, pts, mt: np.zeros(len(pts), dtype=bool))
    rng = random.Random(18 + ovals)
    taken = engaged = kept = borderline = nonround = 0
    for _ in range(60):
        start = Model("a", rng.uniform(20, 30), rng.uniform(15, 25), 0.0,
                      rng.choice((25.0, 32.0, 40.0)))
        others = [_other(rng, f"o{i}", rng.uniform(5, 45), rng.uniform(0, 40), ovals)
                  for i in range(rng.randrange(0, 40))]
        placed = Occupied(_other(rng, f"p{i}", rng.uniform(10, 40), rng.uniform(5, 35), False)
                          for i in range(rng.randrange(0, 30)))
        budget = rng.uniform(3.0, 12.0)
        spots = []
        for _ in range(150):
            a, d = rng.uniform(-math.pi, math.pi), rng.uniform(0, budget - 0.01)
            spots.append((start.x + d * math.cos(a), start.y + d * math.sin(a)))
        rounds = [o for o in others if cp._round(o)]
        for o in rounds[:6]:  # at engagement range of a model, to the last ulps
            a = rng.uniform(-math.pi, math.pi)
            g = o.footprint().r + start.footprint().r + cp.ENGAGED_LIMIT  # type: ignore[attr-defined]
            x, y = o.x + g * math.cos(a), o.y + g * math.sin(a)
            if math.hypot(x - start.x, y - start.y) < budget - 0.01:
                spots.append((x, y))
        spots += rng.sample(spots, 10)  # spots given twice
        pts = np.array(spots)
        sc = cp._Screen(start, pts, placed, budget, others, None, "u")  # type: ignore[arg-type]
        if sc.eager:
            nonround += 1
            continue
        t = placed.taken(start, pts, budget)
        rest = [p for p, k in zip(spots, t, strict=True) if not k]
        bad = cp._engaged_mask(start, rest, others)
        want = {p for p, b in zip(rest, bad, strict=True) if not b}
        assert sc.pts.tolist() == [list(p) for p in rest]  # taken: at once
        keep = sc.keep(lambda x, y: True)
        got = {(x, y) for x, y in sc.pts.tolist() if keep(x, y)}
        assert got == want
        taken += sum(t)
        engaged += sum(bad)
        kept += len(want)
        borderline += sc.allowed is not None
    assert taken > 100 and engaged > 100 and kept > 1000  # every answer comes up
    assert borderline > 0  # some spots settled at once
    assert (nonround > 0) == ovals  # an oval near: measured at once


def _compare(game: Game, rng: random.Random, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """``propose_charge`` at a snapshot, for each unit toward random enemy units, with the
    screen and measured at once: the same answers and the same draws after."""
    units = [u for u in game.state.units if not u.destroyed]
    answers = nones = 0
    for u in units:
        enemies = [e for e in units if e.player != u.player]
        if not enemies:
            continue
        near = sorted(enemies, key=lambda e: min(
            math.hypot(a.x - b.x, a.y - b.y) for a in u.alive for b in e.alive))
        for attempt in (0, 1):
            targets = near[:rng.randint(1, 2)]
            budget = rng.choice((4.0, 7.0, 10.0, 12.0))
            seed = rng.random()
            r1, r2 = random.Random(seed), random.Random(seed)
            got = cp.propose_charge(game.ctx, u, targets, budget, r1, attempt)
            with monkeypatch.context() as m:
                _eager(m)
                want = cp.propose_charge(game.ctx, u, targets, budget, r2, attempt)
            assert got == want
            assert r1.getstate() == r2.getstate()
            answers += got is not None
            nones += got is None
    return answers, nones


@pytest.mark.parametrize("seed", [1, 2])
def test_the_chain_with_the_screen_answers_as_measured_at_once_R11_04_d(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # R11.04-b/c/d, R03.03-a/b, R13.06-c: the chain's answers (and the random stream after
    # it) at seeded greedy positions, with the screen and with every spot measured at once.
    rng = random.Random(seed)
    answers = nones = 0
    for game in greedy_snapshots(seed, every=40):
        a, n = _compare(game, rng, monkeypatch)
        answers, nones = answers + a, nones + n
    assert answers > 20 and nones > 5


def test_the_chain_among_ruins_answers_as_measured_at_once_R13_06_c(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R13.06-c: the 1000-point battle's ruins (VEHICLE and MONSTER models walled off, paths
    # refused by ``through_terrain``): the same answers and draws with the screen.
    game = Game.new(real_battle_position(), 3)
    agents = {p.name: GreedyAgent(7 + i) for i, p in enumerate(game.state.players)}
    rng = random.Random(3)
    answers = nones = 0
    for n in range(700):
        req = game.pending()
        if req is None:
            break
        if n % 100 == 50:
            a, k = _compare(game.clone(), rng, monkeypatch)
            answers, nones = answers + a, nones + k
        game.submit(agents[req.player].choose(game, req))
    assert answers > 10 and nones > 0


def _plain_keys(start: Model, pts: np.ndarray, ends: list[Model],
                tshapes: list[tuple[str, Model]], engaged_targets: set[str], budget: float,
                start_d: dict[str, float]) -> list[tuple[tuple[int, int, float, float],
                                                       float, float, set[str]]]:
    """The round bases' keys as the chain measured them before (a matrix to the placed
    models, another to the targets, Python's ``round``), in the spots' order."""
    from w40k.engine.phases.charge_order import ALL_MARGIN, COHERENCY_MARGIN, SLACK

    r = start.footprint().r  # type: ignore[attr-defined]
    moved = np.hypot(pts[:, 0] - start.x, pts[:, 1] - start.y)
    keep = moved <= budget - SLACK
    if ends:
        e = np.array([(m.x, m.y, m.footprint().r) for m in ends])  # type: ignore[attr-defined]
        de = np.maximum(0.0, np.hypot(pts[:, 0, None] - e[None, :, 0],
                                      pts[:, 1, None] - e[None, :, 1]) - r - e[None, :, 2])
        keep &= (de.min(axis=1) <= COHERENCY_MARGIN) & (de.max(axis=1) <= ALL_MARGIN)
    t = np.array([(m.x, m.y, m.footprint().r) for _, m in tshapes])  # type: ignore[attr-defined]
    dt = np.maximum(0.0, np.hypot(pts[:, 0, None] - t[None, :, 0],
                                  pts[:, 1, None] - t[None, :, 1]) - r - t[None, :, 2])
    closer = np.zeros(len(pts), dtype=bool)
    for tid, d0 in start_d.items():  # R11.04-b
        cols = [j for j, (k, _) in enumerate(tshapes) if k == tid]
        closer |= dt[:, cols].min(axis=1) < d0 - 1e-9
    out = []
    for i in np.flatnonzero(keep & closer).tolist():
        near = float(dt[i].min())
        eng = {tshapes[j][0] for j in range(len(tshapes)) if dt[i, j] <= 2.0 + 1e-9}
        cls = 0 if near <= 1.0 + 1e-9 else 1 if eng else 2
        x, y = pts[i].tolist()
        out.append(((cls, 0 if eng - engaged_targets else 1, round(near, 3),
                     float(moved[i])), x, y, eng))
    return out


def test_the_round_keys_in_one_matrix_are_the_keys_measured_apart_R11_04_b() -> None:
    # R11.04-b/c, R03.03-a/b: the round bases' keys from one matrix of distances (placed
    # models and targets together, kept target rows, arrays until a spot comes) are the
    # keys measured with two matrices and Python's ``round``, bit for bit, in the stable
    # sort's order, less the refused spots; spots at a rounding half come up.
    from w40k.engine.phases.charge_order import _ordered

    rng = random.Random(181)
    compared = 0
    for n in range(60):
        start = Model("a", rng.uniform(10, 20), rng.uniform(10, 20), 0.0,
                      rng.choice((25.0, 32.0, 40.0)))
        ends = [Model(f"e{i}", rng.uniform(10, 20), rng.uniform(10, 20), 0.0, 32.0)
                for i in range(rng.randrange(0, 6))]
        tshapes = [(f"t{i % 3}", Model(f"t{i}", rng.uniform(12, 22), rng.uniform(12, 22), 0.0,
                                       rng.choice((25.0, 32.0, 40.0))))
                   for i in range(rng.randrange(1, 7))]
        spots = [(rng.uniform(8, 24), rng.uniform(8, 24)) for _ in range(200)]
        t0 = tshapes[0][1]
        for _ in range(5):  # a nearest distance on a half of the third decimal
            a = rng.uniform(-math.pi, math.pi)
            g = t0.footprint().r + start.footprint().r + rng.randrange(1, 900) / 1000 + 5e-4  # type: ignore[attr-defined]
            spots.append((t0.x + g * math.cos(a), t0.y + g * math.sin(a)))
        spots += rng.sample(spots, 20)
        start_d = {tid: min(math.hypot(start.x - t.x, start.y - t.y) - 1.0
                            for k, t in tshapes if k == tid) for tid, _ in tshapes}
        engaged_targets = {"t0"} if n % 3 else set()
        pts = np.array(spots)
        tshapes_list = list(tshapes)
        for keep in (lambda x, y: True, lambda x, y: int(x * 1000 + y * 7000) % 3 != 0):
            plain = _plain_keys(start, pts, ends, tshapes_list, engaged_targets, 7.0, start_d)
            want = [s for s in sorted(plain, key=lambda s: s[0]) if keep(s[1], s[2])]
            got = list(_ordered(start, pts, ends, tshapes_list, engaged_targets, 7.0,
                                start_d, keep))
            assert got == want
            assert [type(v) for s in got for v in s[0]] == [int, int, float, float] * len(got)
            compared += len(got)
    assert compared > 2000
