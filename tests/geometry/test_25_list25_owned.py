"""R06.01-a (pass list25): ``los_owned.owned_above`` (the obstacles a searched pair keeps, read
off the marked obstacles' own edges and vertices) gives the arrays of the plain masks over
every edge and vertex (``owned_above_masks``), value for value, dtype and shape, on seeded
random obstacles: owners in order and shuffled, owner rows shorter and longer than the
obstacles, none and all marked, ``lowest`` on the tops' boundary, tops infinite and NaN."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.random_obstacles import random_obstacles
from w40k.geometry import los
from w40k.geometry.los import Obstacles, line_of_sight
from w40k.geometry.los_owned import owned_above, owned_above_masks
from w40k.geometry.shapes import Circle

_FIELDS = ("a", "b", "grow", "top", "owner", "verts", "vert_grow", "vert_top", "vert_owner")


def _same(x: Obstacles, y: Obstacles) -> bool:
    """The same arrays (bit patterns, dtypes, shapes) and the same convexity table."""
    for name in _FIELDS:
        p, q = getattr(x, name), getattr(y, name)
        if p.dtype != q.dtype or p.shape != q.shape or p.tobytes() != q.tobytes():
            return False
    return x.convex is y.convex


def _shuffled(obs: Obstacles, rng: np.random.Generator) -> Obstacles:
    """The same edges and vertices in a random order (an obstacle's edges not contiguous)."""
    pe, pv = rng.permutation(len(obs.a)), rng.permutation(len(obs.verts))
    return Obstacles(obs.a[pe], obs.b[pe], obs.grow[pe], obs.top[pe], obs.owner[pe],
                     obs.verts[pv], obs.vert_grow[pv], obs.vert_top[pv], obs.vert_owner[pv],
                     obs.convex)


def _with_nan_tops(obs: Obstacles, rng: np.random.Generator) -> Obstacles:
    """Some edges' and vertices' tops NaN (neither low nor finite: kept when marked)."""
    top, vtop = obs.top.copy(), obs.vert_top.copy()
    top[rng.random(len(top)) < 0.2] = np.nan
    vtop[rng.random(len(vtop)) < 0.2] = np.nan
    return Obstacles(obs.a, obs.b, obs.grow, top, obs.owner, obs.verts, obs.vert_grow, vtop,
                     obs.vert_owner, obs.convex)


def _owner_rows(rng: np.random.Generator, size: int) -> list[np.ndarray]:
    rows = [np.zeros(size, dtype=bool), np.ones(size, dtype=bool),
            np.zeros(0, dtype=bool), np.ones(size + 7, dtype=bool)]
    for _ in range(12):
        n = int(rng.integers(0, size + 10))
        rows.append(rng.random(n) < rng.choice([0.05, 0.3, 0.8]))
    return rows


def _lowests(rng: np.random.Generator, obs: Obstacles) -> list[float]:
    tops = [float(t) for t in np.unique(obs.top) if np.isfinite(t)]
    out = [0.0, 1.0, 2.0, 3.0, float(rng.uniform(0, 7)), np.inf]
    for t in tops[:4]:
        # on the boundary: ``t <= lowest + 1e-12`` both ways
        out += [t, t - 1e-12, np.nextafter(t - 1e-12, -np.inf), t - 2e-12]
    return out


@pytest.mark.parametrize("seed", range(12))
def test_owned_above_equals_the_masks(seed: int) -> None:
    rng = np.random.default_rng(2500 + seed)
    base = random_obstacles(rng, int(rng.integers(1, 40)))
    checked = 0
    for obs in (base, _shuffled(base, rng), _with_nan_tops(base, rng),
                _shuffled(_with_nan_tops(base, rng), rng)):
        size = int(max(obs.owner.max(), obs.vert_owner.max())) + 1
        for owners in _owner_rows(rng, size):
            for lowest in _lowests(rng, obs):
                fast, plain = owned_above(obs, owners, lowest), owned_above_masks(
                    obs, owners, lowest)
                assert _same(fast, plain), (seed, len(owners), lowest)
                # asked again (the kept index of the same object)
                assert _same(owned_above(obs, owners, lowest), plain)
                checked += len(plain.a) > 0
    assert checked > 20  # not vacuous: many selections keep some edge


def test_owned_above_of_points_only_and_of_one_obstacle() -> None:
    rng = np.random.default_rng(7)
    pts = Obstacles.build([(np.array([[float(i), 1.0]]), 0.5, float(i % 3)) for i in range(9)])
    one = Obstacles.build([(np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 1.0]]), 0.02, 2.0)])
    for obs in (pts, one):
        size = int(obs.owner.max()) + 1
        for owners in _owner_rows(rng, size):
            for lowest in (-1.0, 0.0, 1.0, 2.0, 2.0 - 1e-12, 5.0):
                assert _same(owned_above(obs, owners, lowest),
                             owned_above_masks(obs, owners, lowest))


@pytest.mark.parametrize("seed", range(6))
def test_line_of_sight_with_owners_answers_as_with_the_masks(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search of a pair given its relevant obstacles (``owners``) reads the same arrays,
    so the same answer and witness as with the plain step."""
    rng = np.random.default_rng(2600 + seed)
    obs = random_obstacles(rng, 30)
    size = int(obs.owner.max()) + 1
    cases = []
    for _ in range(40):
        (ox, oy), (tx, ty) = rng.uniform(-2, 22, size=(2, 2))
        o, t = Circle(float(ox), float(oy), 0.5), Circle(float(tx), float(ty), 0.6)
        top_o, top_t = float(rng.uniform(1, 3)), float(rng.uniform(1, 3))
        cases.append((o, top_o, t, top_t, obs, rng.random(size) < 0.3))
    got = [line_of_sight(*c) for c in cases]
    monkeypatch.setattr(los, "owned_above", owned_above_masks)
    assert got == [line_of_sight(*c) for c in cases]
