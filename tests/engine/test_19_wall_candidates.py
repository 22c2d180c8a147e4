"""The unit wall proof's cheap first test (``sight_units.wall_candidates``): only obstacles
that cross every segment between the two units' model centres may separate the units, so
``SightTables._walled_search`` tries the stand-ins' proof only when some obstacle does, and
among those alone, with the same answer as the proof over every obstacle."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.los import Obstacles
from w40k.geometry.los_dist import _seg_dist
from w40k.geometry.sight_tables import SightTables
from w40k.geometry.sight_units import _near, unit_stand_in, wall_candidates, walled_apart


def _former_walled_search(v: SightTables, ou: int, tu: int) -> bool:
    """``_walled_search`` as it was: the stand-ins, then the proof over every obstacle that is
    not a model of the two units."""
    units = v.scene.units
    stand = [unit_stand_in(tuple(v.footprints[(u, m)] for m in range(len(units[u].models))))
             for u in (ou, tu)]
    if stand[0] is None or stand[1] is None:
        return False
    keep = (v.owner_unit != ou) & (v.owner_unit != tu)
    obs = v.obstacles
    common = obs.subset(keep[obs.owner], keep[obs.vert_owner])
    highest = max(m.top for u in (ou, tu) for m in units[u].models)
    return walled_apart(stand[0], stand[1], highest, common)


def _walled_scene(rng: np.random.Generator) -> dict[str, Any]:
    """A random scene (walls, L-shaped ruins, areas, upper levels, ovals) with a long wall
    between the two players' units, of random length, height and thickness, sometimes with a
    gap or an L-shaped end."""
    data = random_scene(rng)
    x = float(rng.uniform(12.0, 18.0))
    w = float(rng.uniform(0.05, 0.6))
    y0, y1 = float(rng.uniform(-2.0, 8.0)), float(rng.uniform(12.0, 24.0))
    height = float(rng.choice([1.0, 2.0, 4.0, 7.0, 9.0]))
    if rng.random() < 0.3:  # an L-shaped end
        fp = [[x, y0], [x + w, y0], [x + w, y1 - 0.3], [x + 3.0, y1 - 0.3], [x + 3.0, y1],
              [x, y1]]
    else:
        fp = [[x, y0], [x + w, y0], [x + w, y1], [x, y1]]
    data["terrain"].append({"name": "Long", "category": "dense", "height": height,
                            "footprint": fp})
    if rng.random() < 0.4:  # a second wall piece past a gap
        y2 = y1 + float(rng.uniform(0.05, 2.0))
        data["terrain"].append({"name": "Far", "category": "dense", "height": height,
                                "footprint": [[x, y2], [x + w, y2], [x + w, y2 + 6.0],
                                              [x, y2 + 6.0]]})
    return data


def _enemy_pairs(v: SightTables) -> list[tuple[int, int]]:
    units = v.scene.units
    return [(a, b) for a in range(len(units)) for b in range(len(units))
            if units[a].player != units[b].player]


@pytest.mark.parametrize("seed", range(12))
def test_the_walled_search_gives_the_former_answer(seed: int) -> None:
    # R06.01-a, R13.10, R13.11: the unit proof's answer for every enemy unit pair of random
    # walled scenes, with the candidates first, is the former proof's over every obstacle
    rng = np.random.default_rng(1900 + seed)
    for _ in range(4):
        v = Visibility(scene_from_dict(_walled_scene(rng)), jit=False)
        for ou, tu in _enemy_pairs(v):
            assert v._walled_search(ou, tu) == _former_walled_search(v, ou, tu)


def test_the_candidates_keep_every_proof_and_turn_down_tries() -> None:
    # the test is a necessary condition: every pair the proof walls apart keeps a candidate
    # (above), and some pairs the proof does not wall apart have none (the tries it saves;
    # here the long wall crosses most unit pairs' segments)
    rng = np.random.default_rng(77)
    proved = rejected = tried = 0
    for _ in range(40):
        v = Visibility(scene_from_dict(_walled_scene(rng)), jit=False)
        units = v.scene.units
        for ou, tu in _enemy_pairs(v):
            keep = (v.owner_unit != ou) & (v.owner_unit != tu)
            highest = max(m.top for u in (ou, tu) for m in units[u].models)
            cand = wall_candidates(
                v._geo[[v.model_index[(ou, m)] for m in range(len(units[ou].models))], :2],
                v._geo[[v.model_index[(tu, m)] for m in range(len(units[tu].models))], :2],
                highest, v.obstacles, keep)
            full = _former_walled_search(v, ou, tu)
            assert cand.any() or not full
            assert not (cand & ~keep).any()  # never one of the two units' models
            proved += full
            tried += not full
            rejected += not cand.any()
    assert proved > 100
    assert rejected > 20


def test_near_keeps_every_edge_within_its_reach() -> None:
    # ``_near`` proves an edge far only when it is: every edge (points and segments) within
    # ``lim`` of a segment (zero-length segments too) is kept
    rng = np.random.default_rng(5)
    n_s, n_e = 300, 200
    p = rng.uniform(0, 10, (n_s, 2))
    q = p + rng.normal(0, 3, (n_s, 2)) * (rng.random((n_s, 1)) < 0.95)
    a = rng.uniform(-2, 12, (n_e, 2))
    b = np.where(rng.random((n_e, 1)) < 0.3, a, a + rng.normal(0, 2, (n_e, 2)))
    lim = rng.uniform(0.0, 1.5, n_e)
    kept = _near(p, q, a, b, lim)
    dist = _seg_dist(p[:, None, :], q[:, None, :], a[None, :, :], b[None, :, :])
    assert kept[dist <= lim[None, :] - 1e-9].all()
    assert (~kept).sum() > kept.size // 2  # (and it proves most far edges far)


def test_an_obstacle_is_a_candidate_within_half_its_grow_of_every_centre_segment() -> None:
    # R06.01-a: the proof's joining set reaches at most half the wall's grow, so a wall that
    # passes farther than that from some segment between the units' centres cannot be it;
    # a wall within that of every segment may be (and a low one never is)
    po, pt = np.array([[0.0, 0.0]]), np.array([[10.0, 0.0]])
    # point obstacles (one-point edges) at x = 5, below the segment by ``gap``
    gaps = np.array([0.0, 0.1, 0.2, 0.29, 0.31, 0.5])
    a = np.stack([np.full(len(gaps), 5.0), -gaps], axis=1)
    n = len(gaps)
    obs = Obstacles(a, a.copy(), np.full(n, 0.6), np.full(n, 9.0), np.arange(n), a.copy(),
                    np.full(n, 0.6), np.full(n, 9.0), np.arange(n), np.ones(n, dtype=bool))
    keep = np.ones(n, dtype=bool)
    cand = wall_candidates(po, pt, 3.0, obs, keep)
    assert cand.tolist() == [True, True, True, True, False, False]
    # a bar across every segment of two-model units is, unless it is no higher than the
    # tallest model
    po, pt = np.array([[0.0, 0.0], [0.0, 2.0]]), np.array([[10.0, 0.0], [10.0, 2.0]])
    bar = Obstacles(np.array([[5.0, -1.0]]), np.array([[5.0, 3.0]]), np.array([0.02]),
                    np.array([3.0]), np.array([0]), np.array([[5.0, -1.0], [5.0, 3.0]]),
                    np.array([0.02, 0.02]), np.array([3.0, 3.0]), np.array([0, 0]),
                    np.ones(1, dtype=bool))
    assert wall_candidates(po, pt, 2.9, bar, np.ones(1, dtype=bool)).tolist() == [True]
    assert wall_candidates(po, pt, 3.0, bar, np.ones(1, dtype=bool)).tolist() == [False]
    assert wall_candidates(po, pt, 2.9, bar, np.zeros(1, dtype=bool)).tolist() == [False]
