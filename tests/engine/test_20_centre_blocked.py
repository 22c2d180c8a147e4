"""The per-pair search of a pair the batch left open does not evaluate the centre line again
(``line_of_sight(..., centre_blocked=True)``): the batch evaluates it as ``_line_clear`` does,
among the same obstacles, and leaves a pair open only when it is not clear. On the seeded
random scenes of ``test_los_batch`` (walls, L-shaped ruins, areas, upper levels, ovals):
every open pair's centre line is not clear among its relevant obstacles, and every pair's
search (open, decided, or of other shapes) answers as the plain search of its own obstacles,
witness included. R06.01-a (a line of sight between any parts of the two models), R13.10-b."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict, sight_memo
from w40k.geometry.los import _centre, _edge_rows, _line_clear, line_of_sight, owned_above


@pytest.mark.parametrize("seed", (1, 4, 5, 7, 13, 14, 17))
def test_open_pairs_centre_line_blocked_and_the_same_answers(seed: int) -> None:
    sight_memo.forget()
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    v = Visibility(scene, jit=False)
    units = scene.units
    pairs = [(i, j) for i in range(len(units)) for j in range(i + 1, len(units))
             if units[i].player != units[j].player]
    v.stage_many(pairs)
    assert v._relevant
    for (ou, om, tu, tm), row in v._relevant.items():
        o, t = units[ou].models[om], units[tu].models[tm]
        fo, ft = v.footprints[(ou, om)], v.footprints[(tu, tm)]
        obs = owned_above(v.obstacles, row, min(o.top, t.top))
        (ox, oy), (tx, ty) = _centre(fo), _centre(ft)
        length = float(np.hypot(tx - ox, ty - oy))
        assert length > 1e-12 and len(obs.a)
        assert _line_clear(fo, o.top, ft, t.top, obs, ox, oy, (tx - ox) / length,
                           (ty - oy) / length, _edge_rows(obs)) is None, (seed, ou, om, tu, tm)
    n = 0
    for ou, tu in pairs:
        for om in range(len(units[ou].models)):
            for tm in range(len(units[tu].models)):
                o, t = units[ou].models[om], units[tu].models[tm]
                plain = line_of_sight(v.footprints[(ou, om)], o.top, v.footprints[(tu, tm)],
                                      t.top, v._obstacles_for(ou, om, tu, tm))
                assert v._search_sight(ou, om, tu, tm) == plain, (seed, ou, om, tu, tm)
                n += 1
    assert n > len(v._relevant)
