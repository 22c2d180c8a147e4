"""The wall owners of a sight search (the obstacles that block every line crossing them: above
both tops, or partial ones above an upper bound of every line's height over them; R06.01-a,
R13.10-b) are found owner by owner in floats: the same owners as the numpy reference (a mask
and ``_above_every_line`` per owner), and the float bound the same answer as the array one,
on random obstacles (points, segments, polygons of up to 20 edges: both of ``_seg_dist``'s
paths) and on every round pair of the seeded random scenes of ``test_los_batch``."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.los import (
    Obstacles,
    _above_every_line,
    _above_rows,
    _edge_rows,
    _wall_owners,
    relevant_obstacles,
)
from w40k.geometry.los_dist import _centre
from w40k.geometry.los_obstacles import unique_ids
from w40k.geometry.los_sides import _circumradius
from w40k.geometry.shapes import Circle, Shape


def _reference(o: Shape, top_o: float, t: Shape, top_t: float, obs: Obstacles) -> np.ndarray:
    """The wall owners as before: a boolean mask and the array bound per owner."""
    highest = max(top_o, top_t)
    walls: list[int] = []
    for k in unique_ids(obs.owner):
        sel = obs.owner == k
        top = float(obs.top[sel][0])
        if top > highest + 1e-12 or _above_every_line(
            o, top_o, t, top_t, obs.a[sel], obs.b[sel], float(obs.grow[sel][0]), top
        ):
            walls.append(int(k))
    return np.asarray(walls, dtype=np.int64)


def _random_obstacles(rng: np.random.Generator, n: int) -> Obstacles:
    items = []
    for _ in range(n):
        kind = int(rng.integers(0, 3))
        c = rng.uniform(0.0, 20.0, 2)
        if kind == 0:  # a model's point
            pts = c[None, :]
        elif kind == 1:  # a segment
            pts = c + rng.uniform(-3.0, 3.0, (2, 2))
        else:  # a polygon, 3-20 vertices round the centre
            m = int(rng.integers(3, 21))
            ang = np.sort(rng.uniform(0.0, 2 * np.pi, m))
            rad = rng.uniform(0.2, 3.0, m)
            pts = c + np.stack([np.cos(ang) * rad, np.sin(ang) * rad], axis=1)
        items.append((pts, float(rng.uniform(0.0, 1.0)), float(rng.uniform(0.1, 6.0))))
    return Obstacles.build(items)


def test_the_float_bound_is_the_array_bound() -> None:
    """``_above_rows`` answers as ``_above_every_line`` for one obstacle, whichever model is
    the higher, over random discs, tops and obstacles (20 000 cases)."""
    rng = np.random.default_rng(18)
    cases = 0
    true = 0
    for _ in range(400):
        obs = _random_obstacles(rng, 50)
        o = Circle(float(rng.uniform(0, 20)), float(rng.uniform(0, 20)),
                   float(rng.uniform(0.3, 2.0)))
        t = Circle(float(rng.uniform(0, 20)), float(rng.uniform(0, 20)),
                   float(rng.uniform(0.3, 2.0)))
        top_o, top_t = float(rng.uniform(0.5, 6.0)), float(rng.uniform(0.5, 6.0))
        lower, upper = (t, o) if top_o > top_t else (o, t)
        cl, cu = _centre(lower), _centre(upper)
        bound = (cl[0], cl[1], cu[0], cu[1], _circumradius(lower), _circumradius(upper),
                 min(top_o, top_t), max(top_o, top_t))
        rows = _edge_rows(obs)
        for k in unique_ids(obs.owner).tolist():
            sel = obs.owner == k
            edges = [r for r, s in zip(rows, sel.tolist(), strict=True) if s]
            grow, top = float(obs.grow[sel][0]), float(obs.top[sel][0])
            want = _above_every_line(o, top_o, t, top_t, obs.a[sel], obs.b[sel], grow, top)
            assert _above_rows(*bound, edges, grow, top) == want
            cases += 1
            true += want
    assert cases > 10_000 and true > 100  # (a guard: both answers occur)


@pytest.mark.parametrize("seed", (0, 1, 2, 3, 4, 5, 6, 7))
def test_the_wall_owners_of_every_pair_are_the_reference_owners(seed: int) -> None:
    """Every model pair of the random scene (rounds and ovals, both orders), among its
    relevant obstacles: the same wall owners as the reference, with and without the
    caller's edge rows."""
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    v = Visibility(scene, jit=False)
    units = scene.units
    partial = 0
    for ou in range(len(units)):
        for tu in range(len(units)):
            if units[ou].player == units[tu].player:
                continue
            for om, o_m in enumerate(units[ou].models):
                for tm, t_m in enumerate(units[tu].models):
                    fo, ft = v.footprints[(ou, om)], v.footprints[(tu, tm)]
                    obs = relevant_obstacles(fo, ft, min(o_m.top, t_m.top),
                                             v._obstacles_for(ou, om, tu, tm))
                    want = _reference(fo, o_m.top, ft, t_m.top, obs)
                    got = _wall_owners(fo, o_m.top, ft, t_m.top, obs)
                    assert got.dtype == want.dtype and np.array_equal(got, want)
                    assert np.array_equal(
                        _wall_owners(fo, o_m.top, ft, t_m.top, obs, _edge_rows(obs)), want)
                    partial += int(((obs.top <= max(o_m.top, t_m.top) + 1e-12)).any())
    assert partial > 0  # (a guard: some owner needs the bound)
