"""The exact line of sight (R06.01-a, R13.10-b, R13.11-a) with round footprints skips the
chain proof of BLOCKED (``los_chain.walls_separate``) once one of stage 1's lines is
blocked by no wall edge: the proof says that the walls alone block every line between the
footprints, so such a line refutes it, and the search's answer and witness are those of
the search that tries it."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from w40k.geometry import los, los_chain
from w40k.geometry.los import Obstacles, line_of_sight
from w40k.geometry.shapes import HALF_LINE, Circle

Case = tuple[Circle, float, Circle, float, Obstacles]


def _case(rng: np.random.Generator) -> Case:
    """Two round bases 8-20" apart with walls (tall, partial or low), crowds of model bases
    of mixed heights, and sometimes a tight row of tall bases, between them."""
    o = Circle(5.0, 10.0, float(rng.uniform(0.5, 1.6)))
    t = Circle(float(rng.uniform(13.0, 25.0)), float(rng.uniform(4.0, 16.0)),
               float(rng.uniform(0.5, 1.6)))
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(int(rng.integers(0, 4))):
        cx, cy = float(rng.uniform(8.0, 20.0)), float(rng.uniform(2.0, 18.0))
        ang = float(rng.uniform(0.0, math.pi))
        half = float(rng.uniform(0.5, 5.0))
        d = np.array([math.cos(ang), math.sin(ang)]) * half
        n = np.array([-d[1], d[0]]) / half * 0.1
        c = np.array([cx, cy])
        wall = np.array([c - d - n, c + d - n, c + d + n, c - d + n])
        items.append((wall, HALF_LINE, float(rng.choice([1.0, 2.0, 2.5, 5.0]))))
    for _ in range(int(rng.integers(0, 12))):
        items.append((np.array([[rng.uniform(7.0, 22.0), rng.uniform(2.0, 18.0)]]),
                      float(rng.uniform(0.5, 1.2)) + HALF_LINE,
                      float(rng.choice([1.0, 1.8, 2.2, 4.0]))))
    if rng.random() < 0.4:  # a row of tall bases across the line, some gaps
        mx = 0.5 * (o.cx + t.cx)
        step = float(rng.uniform(1.6, 2.2))
        for k in range(-6, 7):
            items.append((np.array([[mx + float(rng.normal(0, 0.05)), 10.0 + k * step]]),
                          1.0 + HALF_LINE, 5.0))
    return o, float(rng.choice([1.5, 2.0, 3.0])), t, float(rng.choice([1.5, 2.0, 3.0])), \
        Obstacles.build(items)


def _cases(seed: int, n: int) -> list[Case]:
    rng = np.random.default_rng(seed)
    return [_case(rng) for _ in range(n)]


def _stage1_wall_free(o: Circle, top_o: float, t: Circle, top_t: float,
                      obs: Obstacles) -> tuple[bool, np.ndarray, bool] | None:
    """As the search: the pair's obstacles and walls, then whether stage 1's lines refute the
    walls (``wall_free``), the walls, and whether those lines, evaluated against the walls
    alone, give a clear one (None: no obstacle near the pair, the search's CLEAR at once)."""
    obs = los.relevant_obstacles(o, t, min(top_o, top_t), obs)
    if len(obs.a) == 0:
        return None
    walls = los._wall_owners(o, top_o, t, top_t, obs)
    is_wall = np.isin(obs.owner, walls)
    only = obs.subset(is_wall, np.isin(obs.vert_owner, walls))
    free: list[bool] = []
    clear_alone = False
    for nn, oo in los._disc_groups(o, t, obs, 1):
        a, d = los._lines(nn, oo)
        los.evaluate_lines(o, top_o, t, top_t, obs, a, d, is_wall, free)
        clear_alone |= bool(los.evaluate_lines(o, top_o, t, top_t, only, a, d)[0].any())
    return bool(free), walls, clear_alone


def test_a_wall_free_line_is_one_the_walls_alone_leave_clear() -> None:
    # the flag is the exact test's: some stage-1 line is clear of the walls alone (the
    # footprints are apart, so no line overlaps)
    seen = [0, 0]
    for o, top_o, t, top_t, obs in _cases(11, 300):
        got = _stage1_wall_free(o, top_o, t, top_t, obs)
        if got is None:
            continue
        free, _, clear_alone = got
        assert free == clear_alone
        seen[free] += 1
    assert min(seen) > 20


def test_the_chain_proof_never_holds_when_a_line_refutes_it() -> None:
    # R06.01-a: the chain proof holds only when the walls block every line: never with a
    # stage-1 line that no wall edge blocks
    proved = refuted = 0
    for o, top_o, t, top_t, obs in _cases(12, 400):
        got = _stage1_wall_free(o, top_o, t, top_t, obs)
        if got is None:
            continue
        free, walls, _ = got
        rel = los.relevant_obstacles(o, t, min(top_o, top_t), obs)
        chain = los_chain.walls_separate(o, t, rel, walls)
        assert not (free and chain)
        proved += chain
        refuted += free
    assert proved > 10 and refuted > 100


def test_the_search_gives_the_same_answers_with_the_chain_always_tried(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a, R13.10-b, R13.11-a: the same sight and witness (CLEAR, BLOCKED, CONVENTION)
    # with the refutation and without it (the chain tried as before)
    cases = _cases(100, 600)
    calls = {"n": 0}
    real_chain = los_chain.walls_separate

    def counted(*args: Any) -> bool:
        calls["n"] += 1
        return real_chain(*args)

    monkeypatch.setattr(los_chain, "walls_separate", counted)
    fast = [line_of_sight(*c) for c in cases]
    fast_calls = calls["n"]
    real_eval = los.evaluate_lines

    def no_refutation(*args: Any) -> Any:
        return real_eval(*args[:7])

    monkeypatch.setattr(los, "evaluate_lines", no_refutation)
    calls["n"] = 0
    slow = [line_of_sight(*c) for c in cases]
    assert fast == slow
    assert fast_calls < calls["n"]  # (the refutation skipped some chain proofs)
    assert {r.sight for r in fast} == {los.Sight.CLEAR, los.Sight.BLOCKED,
                                       los.Sight.CONVENTION}
