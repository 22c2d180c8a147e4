"""``propose_moves.terrain_crossed`` with ``ovals``: an oval base's spots screened by the disc
of its smaller semi-axis are spots whose straight path ``through_terrain`` (the exact sweep of
``validate_move``, R13.06-c) refuses; round bases answer as before."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tests.engine.movement_helpers import real_battle_walls
from w40k.engine.propose_moves import terrain_crossed, through_terrain
from w40k.geometry import Model, MoveType


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_oval_screened_as_walled_is_refused_by_through_terrain_R13_06_c(seed: int) -> None:
    # R13.06-c: VEHICLE ovals of several sizes and facings at random points of the real
    # battle's terrain (a half of them against or on a wall), spots all around, some of
    # them placed so that the smaller disc's path passes a wall's corner within a hair of
    # the screen's limit: every screened spot is one through_terrain refuses; round bases
    # answer as without ``ovals``.
    rng = random.Random(seed)
    scene, uid, walls = real_battle_walls(seed)
    screened = refused = 0
    for n in range(90):
        if n % 2 == 0:
            ol = rng.choice(walls)
            x, y = rng.uniform(ol.x0 - 2.5, ol.x1 + 2.5), rng.uniform(ol.y0 - 2.5, ol.y1 + 2.5)
        else:
            x, y = rng.uniform(3.0, 41.0), rng.uniform(3.0, 57.0)
        round_base = n % 5 == 4
        w, h = rng.choice([(90.0, 52.0), (120.0, 92.0), (75.0, 42.0), (170.0, 105.0)])
        start = Model("m", x, y, base_mm=rng.choice([32.0, 60.0]) if round_base else (w, h),
                      height=4.0, facing=rng.uniform(-math.pi, math.pi),
                      keywords=frozenset({"VEHICLE"}))
        spots = [(x + rng.uniform(-9.0, 9.0), y + rng.uniform(-9.0, 9.0)) for _ in range(40)]
        fp = start.footprint()
        inner = min(getattr(fp, "a", 0.0), getattr(fp, "b", 0.0)) or getattr(fp, "r", 0.0)
        for ol in walls[:8]:  # paths grazing a corner at about the screen's distance
            for ax, ay, _, _ in ol.edges[:2]:
                d = math.hypot(ax - x, ay - y)
                for off in (-1e-3, -2e-4, 0.0, 2e-4, 1e-3):
                    g = inner - 1e-3 + off  # the path's least distance from the corner
                    if d <= g:
                        continue
                    a = math.atan2(ay - y, ax - x) + math.asin(g / d) * rng.choice([-1, 1])
                    reach = d * math.cos(math.asin(g / d)) + 3.0
                    spots.append((x + reach * math.cos(a), y + reach * math.sin(a)))
        pts = np.array(spots, dtype=np.float64)
        got = terrain_crossed(scene, uid, start, pts, MoveType.NORMAL, ovals=True).tolist()
        want = [through_terrain(scene, uid, start, px, py, MoveType.NORMAL)
                for px, py in pts.tolist()]
        if round_base:
            assert got == terrain_crossed(scene, uid, start, pts, MoveType.NORMAL).tolist()
            assert got == want
            continue
        assert not any(terrain_crossed(scene, uid, start, pts, MoveType.NORMAL))
        for g, wnt in zip(got, want, strict=True):
            assert wnt or not g  # screened: refused
        screened += sum(got)
        refused += sum(want)
    assert screened > 300  # walls met
    assert refused > screened  # the screen proves only a part (the larger semi-axis)
