"""The per-pair search with round footprints (``los.line_of_sight``): stage 1's first lines
one by one in floats (``los._first_clear``), the single-wall proof left to the shadows'
proof, the shadows' proof before stage 1's arrays and the chain proof before stage 2. The
same answer and witness as the search before those changes (kept below as the reference) on
random scenes, and ``_first_clear`` gives the first clear line of the arrays' first lines."""

from __future__ import annotations

import math

import numpy as np
import pytest

from w40k.geometry import los
from w40k.geometry.los import Obstacles, Sight, SightResult
from w40k.geometry.los_chain import walls_separate
from w40k.geometry.los_dist import _centre
from w40k.geometry.los_sweep import shadows_cover
from w40k.geometry.shapes import HALF_LINE, Circle, Oval, Shape

from .random_obstacles import random_obstacles

Scene = tuple[Shape, float, Shape, float, Obstacles]


def _reference_search(o: Shape, top_o: float, t: Shape, top_t: float,
                      obstacles: Obstacles) -> SightResult:
    """``line_of_sight`` as it was before (5853c31): the centre line, the single-wall proof,
    then stage 1's lines by arrays, the shadows' and chain proofs before stage 2 (or an
    oval's tangents), stage 2, and the walls alone."""
    obs = los.relevant_obstacles(o, t, min(top_o, top_t), obstacles)
    oc = np.asarray(_centre(o), dtype=np.float64)
    tc = np.asarray(_centre(t), dtype=np.float64)
    if len(obs.a) == 0:
        return SightResult(Sight.CLEAR, (_centre(o), _centre(t)))
    dvec = tc - oc
    big_l = float(np.hypot(*dvec))
    if big_l > 1e-12:
        d = dvec / big_l
        hit = los._line_clear(o, top_o, t, top_t, obs, float(oc[0]), float(oc[1]),
                              float(d[0]), float(d[1]))
        if hit is not None:
            return SightResult(Sight.CLEAR, hit)
    if los._single_wall_separates(o, top_o, t, top_t, obs):
        return SightResult(Sight.BLOCKED)
    wall_owner: np.ndarray | None = None
    has_oval = isinstance(o, Oval) or isinstance(t, Oval)
    for stage in (1, 2):
        for part in (los._disc_groups, los._oval_groups):
            if wall_owner is None and (stage == 2 or (part is los._oval_groups and has_oval)):
                wall_owner = los._wall_owners(o, top_o, t, top_t, obs)
                if shadows_cover(o, t, obs, wall_owner):
                    return SightResult(Sight.BLOCKED)
                if walls_separate(o, t, obs, wall_owner):
                    return SightResult(Sight.BLOCKED)
            for nn, oo in part(o, t, obs, stage):
                if len(nn) == 0:
                    continue
                a, d = los._lines(nn, oo)
                clear, pn, qn = los.evaluate_lines(o, top_o, t, top_t, obs, a, d)
                if clear.any():
                    k = int(np.argmax(clear))
                    return SightResult(Sight.CLEAR, los._pts(pn[k], qn[k]))
    assert wall_owner is not None
    wall = np.isin(obs.owner, wall_owner)
    if wall.all():
        return SightResult(Sight.BLOCKED)
    walls = obs.subset(wall, np.isin(obs.vert_owner, wall_owner))
    a, d = los.candidate_lines(o, t, walls)
    clear, _, _ = los.evaluate_lines(o, top_o, t, top_t, walls, a, d)
    if not clear.any():
        return SightResult(Sight.BLOCKED)
    return SightResult(Sight.CONVENTION)


def _row_scene(rng: np.random.Generator) -> Scene:
    """Two round bases 8-20" apart and, near the view, short walls of random heights and
    rows of bases of random heights with gaps near the 1 mm line's width: views that the
    first lines, the proofs or only the full search decide."""
    o = Circle(5.0, 10.0, float(rng.uniform(0.5, 1.6)))
    tx, ty = float(rng.uniform(13.0, 25.0)), float(rng.uniform(4.0, 16.0))
    t = Circle(tx, ty, float(rng.uniform(0.5, 1.6)))
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(int(rng.integers(0, 5))):
        f = float(rng.uniform(0.15, 0.85))
        c = np.array([5.0 + (tx - 5.0) * f, 10.0 + (ty - 10.0) * f]) + rng.uniform(-3, 3, 2)
        ang = float(rng.uniform(0.0, math.pi))
        half = float(rng.uniform(0.3, 3.0))
        d = np.array([math.cos(ang), math.sin(ang)]) * half
        n = np.array([-d[1], d[0]]) / half * 0.1
        top = float(rng.choice([1.0, 1.45, 2.5, 5.0, np.inf]))
        items.append((np.array([c - d - n, c + d - n, c + d + n, c - d + n]),
                      1e-6 if np.isinf(top) else HALF_LINE, top))
    for _ in range(int(rng.integers(1, 4))):
        r = float(rng.uniform(0.5, 1.0))
        f = float(rng.uniform(0.2, 0.8))
        cx = 5.0 + (tx - 5.0) * f + float(rng.uniform(-1.0, 1.0))
        cy = 10.0 + (ty - 10.0) * f + float(rng.uniform(-4.0, 0.0))
        for _ in range(int(rng.integers(2, 6))):
            top = float(rng.choice([0.8, 1.6, 4.0]))
            items.append((np.array([[cx, cy]]), r + HALF_LINE, top))
            cy += 2 * r + float(rng.choice([0.0, 1e-7, 1e-3, 0.02, 0.0394, 0.5, 1.5]))
    return o, float(rng.choice([0.8, 1.5, 3.0])), t, \
        float(rng.choice([0.0, 1.3, 1.5, 3.0])), Obstacles.build(items)


def _random_scene(rng: np.random.Generator) -> Scene:
    o = Circle(float(rng.uniform(0, 20)), float(rng.uniform(0, 20)), float(rng.uniform(0.5, 1.6)))
    t = Circle(float(rng.uniform(0, 20)), float(rng.uniform(0, 20)), float(rng.uniform(0.5, 1.6)))
    return (o, float(rng.choice([0.0, 1.5, 3.0])), t, float(rng.choice([0.0, 1.5, 3.0])),
            random_obstacles(rng, int(rng.integers(1, 40))))


@pytest.mark.parametrize("seed", range(4))
def test_round_searches_answer_as_before(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a, R13.10-b, R13.11-a: the search with round footprints gives the answer and
    # witness of the search before this pass (walls, areas, bases of every height, gaps near
    # the 1 mm line's width)
    rng = np.random.default_rng(1300 + seed)
    cases = [(_row_scene if k % 2 else _random_scene)(rng) for k in range(300)]
    found: list[bool] = []
    real_first = los._first_clear

    def counted(*a: object) -> object:
        hit = real_first(*a)  # type: ignore[arg-type]
        found.append(hit is not None)
        return hit

    monkeypatch.setattr(los, "_first_clear", counted)
    got = [los.line_of_sight(*c) for c in cases]
    want = [_reference_search(*c) for c in cases]
    assert [repr(r) for r in got] == [repr(r) for r in want]
    kinds = {r.sight for r in want}
    assert {Sight.CLEAR, Sight.BLOCKED} <= kinds
    assert sum(found) >= 20 and found.count(False) >= 20


def _first_group_size(o: Circle, t: Circle, obs: Obstacles) -> int:
    """Lines in ``disc_tangents``' first group (outer tangents of sign +1) of stage 1."""
    cc = np.concatenate([[[o.cx, o.cy], [t.cx, t.cy]], obs.verts])
    rr = np.concatenate([[o.r, t.r], obs.vert_grow])
    i, j = los._pairs(len(cc), 2, 1)
    d = cc[j] - cc[i]
    length = np.sqrt((d * d).sum(axis=1))
    good = length > 1e-12
    return int((np.abs((rr[i] - rr[j])[good] / length[good]) <= 1.0).sum())


@pytest.mark.parametrize("seed", range(3))
def test_first_lines_are_the_arrays_first_lines(seed: int) -> None:
    # R06.01-a: the first FIRST_LINES lines of stage 1 made and tested in floats give the
    # first clear one of the same lines by disc_tangents and evaluate_lines, bit for bit
    rng = np.random.default_rng(1400 + seed)
    clear_seen = blocked_seen = 0
    for k in range(300):
        o, top_o, t, top_t, obs = (_row_scene if k % 2 else _random_scene)(rng)
        assert isinstance(o, Circle) and isinstance(t, Circle)
        ((nn, oo),) = list(los._disc_groups(o, t, obs, 1))
        a, d = los._lines(nn, oo)
        clear, pn, qn = los.evaluate_lines(o, top_o, t, top_t, obs, a, d)
        first = min(los.FIRST_LINES, _first_group_size(o, t, obs))
        want = (los._pts(pn[int(np.argmax(clear[:first]))], qn[int(np.argmax(clear[:first]))])
                if clear[:first].any() else None)
        got = los._first_clear(o, top_o, t, top_t, obs, los._edge_rows(obs))
        assert got == want
        clear_seen += want is not None
        blocked_seen += want is None
    assert clear_seen >= 50 and blocked_seen >= 50
