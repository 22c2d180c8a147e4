"""The walls' shadows proof's plain-float path for round footprints (``los_sweep``,
06.01, 13.10, 13.11) answers as its array path: the same proof, cell by cell."""

from __future__ import annotations

import numpy as np
import pytest

from w40k.geometry import los, los_sweep
from w40k.geometry.los import Obstacles
from w40k.geometry.los_obstacles import TOUCH
from w40k.geometry.shapes import HALF_LINE, Circle

from .random_obstacles import random_obstacles


def _round_scene(rng: np.random.Generator) -> tuple[Circle, Circle, Obstacles, np.ndarray]:
    """Two bases 8-20" apart and short walls and rows of bases near the view between them
    (the walls as the search finds them)."""
    o = Circle(5.0, 10.0, float(rng.uniform(0.5, 1.6)))
    tx, ty = float(rng.uniform(13.0, 25.0)), float(rng.uniform(4.0, 16.0))
    t = Circle(tx, ty, float(rng.uniform(0.5, 1.6)))
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(int(rng.integers(1, 9))):
        f = float(rng.uniform(0.15, 0.85))
        cx = 5.0 + (tx - 5.0) * f + float(rng.uniform(-3.0, 3.0))
        cy = 10.0 + (ty - 10.0) * f + float(rng.uniform(-3.0, 3.0))
        ang = float(rng.uniform(0.0, np.pi))
        half = float(rng.uniform(0.3, 3.0))
        d = np.array([np.cos(ang), np.sin(ang)]) * half
        n = np.array([-d[1], d[0]]) / half * 0.1
        c = np.array([cx, cy])
        items.append((np.array([c - d - n, c + d - n, c + d + n, c - d + n]), HALF_LINE, 5.0))
    for _ in range(int(rng.integers(0, 3))):  # a row of tall bases with critical gaps
        r = float(rng.uniform(0.5, 1.0))
        cx = 5.0 + (tx - 5.0) * float(rng.uniform(0.2, 0.8))
        cy = 10.0 + (ty - 10.0) * 0.5 + float(rng.uniform(-4.0, 0.0))
        for _ in range(int(rng.integers(2, 6))):
            items.append((np.array([[cx, cy]]), r + HALF_LINE, 4.0))
            cy += 2 * r + float(rng.choice([0.0, 1e-7, 1e-5, 1e-3, 0.02, 0.0394]))
    obs = Obstacles.build(items)
    return o, t, obs, los._wall_owners(o, 1.5, t, 1.5, obs)


def _both(o: Circle, t: Circle, obs: Obstacles, walls: np.ndarray,
          monkeypatch: pytest.MonkeyPatch) -> tuple[bool, bool, int]:
    """The proof by the array path only and by the plain path only, and its levels."""
    levels: list[int] = []
    plain_level = los_sweep._level_round

    def counted(*a: object) -> list[float] | None:
        levels.append(1)
        return plain_level(*a)  # type: ignore[arg-type]

    with monkeypatch.context() as m:
        m.setattr(los_sweep, "PLAIN_CELLS", -1)
        m.setattr(los_sweep, "PLAIN_PIECES", -1)
        arrays = los_sweep.shadows_cover(o, t, obs, walls)
    with monkeypatch.context() as m:
        m.setattr(los_sweep, "PLAIN_CELLS", 1 << 30)
        m.setattr(los_sweep, "PLAIN_PIECES", 1 << 30)
        m.setattr(los_sweep, "_level_round", counted)
        plain = los_sweep.shadows_cover(o, t, obs, walls)
    return arrays, plain, len(levels)


def test_plain_round_proofs_answer_as_the_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a: every scene's proof, both ways; the scenes prove BLOCKED, fail at the first
    # level and need several halvings
    rng = np.random.default_rng(2525)
    got = []
    for _ in range(500):
        o, t, obs, walls = _round_scene(rng)
        arrays, plain, levels = _both(o, t, obs, walls, monkeypatch)
        assert arrays == plain
        got.append((plain, levels))
    assert sum(p for p, _ in got) >= 20
    assert any(not p and n >= 1 for p, n in got)
    assert any(n >= 3 for _, n in got)


def test_plain_round_proofs_on_random_obstacles(monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a: the shared random obstacles (bases, walls, areas of every height)
    rng = np.random.default_rng(2526)
    for _ in range(200):
        o = Circle(float(rng.uniform(0, 20)), float(rng.uniform(0, 20)),
                   float(rng.uniform(0.5, 1.6)))
        t = Circle(float(rng.uniform(0, 20)), float(rng.uniform(0, 20)),
                   float(rng.uniform(0.5, 1.6)))
        obs = random_obstacles(rng, int(rng.integers(1, 40)))
        walls = los._wall_owners(o, 1.5, t, 1.5, obs)
        arrays, plain, _ = _both(o, t, obs, walls, monkeypatch)
        assert arrays == plain


def test_plain_cover_answers_as_the_arrays() -> None:
    # random rows on a coarse grid (equal starts, touching and empty intervals, empty rows)
    rng = np.random.default_rng(2527)
    for _ in range(3000):
        k = int(rng.integers(0, 6))
        plo = rng.integers(-4, 5, size=k).astype(float) / 2
        phi = rng.integers(-4, 5, size=k).astype(float) / 2
        flo, fhi = (float(v) for v in rng.integers(-4, 5, size=2) / 2)
        want = los_sweep._covered(np.array([flo]), np.array([fhi]), plo[None, :],
                                  phi[None, :])
        spans = list(zip(plo.tolist(), phi.tolist(), strict=True))
        assert los_sweep._covered_plain(flo, fhi, spans) == bool(want[0])


def test_plain_cover_edges() -> None:
    cov = los_sweep._covered_plain
    assert cov(1.0, 0.0, [])  # an empty row is covered
    assert cov(0.0, 0.0, [(0.0, 0.0)]) and not cov(0.0, 1.0, [])
    assert cov(0.0, 2.0, [(1.0, 2.0), (0.0, 1.0)])  # touching, in any order
    assert not cov(0.0, 2.0, [(0.0, 0.9), (1.0, 2.0)])  # a gap
    assert not cov(0.0, 2.0, [(0.0, 2.0 - 1e-12)])  # short of the end
    assert not cov(0.0, 1.0, [(0.5, 1.0)])  # short of the start
    assert cov(0.0, 1.0, [(2.0, -1.0), (-1.0, 1.0), (0.5, 0.4)])  # empty spans ignored


def test_plain_between_answers_as_the_arrays() -> None:
    rng = np.random.default_rng(2528)
    for _ in range(300):
        o, t, obs, _walls = _round_scene(rng)
        (ox, oy), (tx, ty) = o.center, t.center
        big_l = float(np.hypot(tx - ox, ty - oy))
        ux, uy = (tx - ox) / big_l, (ty - oy) / big_l
        zx, zy = 0.5 * (ox + tx), 0.5 * (oy + ty)
        cone = float(rng.uniform(0.5, 1.4))
        a, b = obs.a - (zx, zy), obs.b - (zx, zy)
        r = obs.grow - float(rng.uniform(0.0, 0.05))
        want = los_sweep._between(o, t, a, b, r, ux, uy, zx, zy, cone)
        got = los_sweep._between_round(o, t, a.tolist(), b.tolist(), r.tolist(), ux, uy, zx,
                                       zy, cone)
        assert got == want.tolist()


def _array_level(o: Circle, t: Circle, a: np.ndarray, b: np.ndarray, r: np.ndarray,
                 mids: np.ndarray, half: float, zx: float, zy: float,
                 k_foot: float) -> list[float] | None:
    """One level of the sweep by the array code (``shadows_cover``'s loop body)."""
    m_piece = np.maximum(np.hypot(a[:, 0], a[:, 1]), np.hypot(b[:, 0], b[:, 1]))
    nx, ny = -np.sin(mids), np.cos(mids)
    flo, fhi = los_sweep._common(o, t, nx, ny, zx, zy)
    plo, phi = los_sweep._piece_offsets(a, b, r, nx, ny)
    slack = half * k_foot + los_sweep.OFFSET_MARGIN
    shrink = half * m_piece[None, :]
    ok = los_sweep._covered(flo - slack, fhi + slack, plo + shrink, phi - shrink)
    exact = los_sweep._covered(flo[~ok] - los_sweep.OFFSET_MARGIN,
                               fhi[~ok] + los_sweep.OFFSET_MARGIN, plo[~ok], phi[~ok])
    return mids[~ok].tolist() if exact.all() else None


def test_plain_levels_answer_as_the_arrays() -> None:
    # one level of the sweep both ways, on scenes' pieces with random direction intervals
    # (wide ones leave rows unproved, narrow ones prove them)
    rng = np.random.default_rng(2529)
    kinds = set()
    for _ in range(400):
        o, t, obs, _walls = _round_scene(rng)
        zx, zy = 0.5 * (o.cx + t.cx), 0.5 * (o.cy + t.cy)
        a, b = obs.a - (zx, zy), obs.b - (zx, zy)
        r = obs.grow - TOUCH - los_sweep.REACH_MARGIN
        th_u = float(np.arctan2(t.cy - o.cy, t.cx - o.cx))
        half = float(rng.choice([1e-4, 1e-3, 1e-2, 0.05]))
        mids = th_u + rng.uniform(-0.15, 0.15, size=int(rng.integers(1, 9)))
        k_foot = float(np.hypot(o.cx - zx, o.cy - zy)) + max(o.r, t.r)
        m_piece = np.maximum(np.hypot(a[:, 0], a[:, 1]), np.hypot(b[:, 0], b[:, 1]))
        pieces = list(zip(a[:, 0].tolist(), a[:, 1].tolist(), b[:, 0].tolist(),
                          b[:, 1].tolist(), r.tolist(), m_piece.tolist(), strict=True))
        want = _array_level(o, t, a, b, r, mids, half, zx, zy, k_foot)
        got = los_sweep._level_round(o, t, pieces, mids, half, zx, zy, k_foot)
        kinds.add("fails" if want is None else "proved" if not want else "halves")
        assert got == want
    assert kinds == {"fails", "proved", "halves"}
