"""06.01 fully visible, checked against a brute force where the HULL_RAMP test is too coarse:
a small obscuring area on the centre line between two wide bases, and a gap of a few mm
between two large bases of a third unit. The brute force samples 360 facing points of the
target and 360 points of the observer's outline, each segment checked against the blockers
grown by 0.5 mm (areas by 1e-6"); a target point is visible when one segment clears them all,
the target fully visible when every facing point is."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from w40k.geometry import Visibility, kernel_cache, mm, scene_from_dict
from w40k.geometry.measure import segment_segment_distance
from w40k.geometry.shapes import HALF_LINE

JITS = [False, True] if kernel_cache.AVAILABLE else [False]
TALL = 5.0


def brute_fully_visible(
    o: tuple[float, float, float],
    t: tuple[float, float, float],
    items: list[tuple[np.ndarray, float]],
    n: int = 360,
) -> bool:
    """Circles ``o``, ``t`` = (x, y, r); ``items`` = (polygon or point, grow): tall walls."""
    th = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    u = np.stack([np.cos(th), np.sin(th)], axis=1)
    q = np.array(o[:2]) + o[2] * u
    p = np.array(t[:2]) + t[2] * u
    # facing: the observer reaches past the tangent line at p
    facing = (u @ np.array(o[:2]) + o[2]) - (u * p).sum(axis=1) > 1e-9
    p = p[facing]
    ok = np.ones((len(p), n), dtype=bool)
    for poly, grow in items:
        e1 = poly
        e2 = np.roll(poly, -1, axis=0) if len(poly) >= 3 else poly
        for k in range(len(e1)):
            d = segment_segment_distance(
                p[:, None, :], q[None, :, :], e1[k][None, None, :], e2[k][None, None, :]
            )
            ok &= d >= grow
    return bool(ok.any(axis=1).all())


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def models(base: float, *xy: tuple[float, float], height: float = 1.6) -> list[dict[str, Any]]:
    return [{"x": x, "y": y, "base_mm": base, "height": height} for x, y in xy]


def area_scene(base: float, half: float, jit: bool) -> Visibility:
    """Observer at (5, 10), target at (13, 10), bases ``base`` mm; an obscuring area (a light
    feature filling it) of half-width ``half`` centred at (9, 10)."""
    box = rect(9 - half, 10 - half, 9 + half, 10 + half)
    return Visibility(
        scene_from_dict(
            {
                "battlefield": {"width": 30, "depth": 20},
                "areas": [{"name": "Copse", "footprint": box}],
                "terrain": [
                    {"name": "Bush", "category": "light", "area": "Copse", "footprint": box,
                     "height": TALL}
                ],
                "units": [
                    {"name": "S", "player": "a", "keywords": ["INFANTRY"],
                     "models": models(base, (5, 10))},
                    {"name": "T", "player": "b", "keywords": ["INFANTRY"],
                     "models": models(base, (13, 10))},
                ],
            }
        ),
        jit=jit,
    )


@pytest.mark.parametrize("jit", JITS)
@pytest.mark.parametrize(
    ("base", "half"), [(100, 0.2), (100, 1.2), (60, 0.2), (32, 0.2), (32, 0.5)]
)
def test_a_small_obscuring_area_between_wide_bases_matches_the_brute_force(
    jit: bool, base: float, half: float
) -> None:
    # R06.01-c, R13.08-a (ii): the target is fully visible (and has no cover from the area)
    # exactly when the brute force sees every facing point past the area
    v = area_scene(base, half, jit)
    r = mm(base) / 2
    box = np.array(rect(9 - half, 10 - half, 9 + half, 10 + half), dtype=float)
    expected = brute_fully_visible((5, 10, r), (13, 10, r), [(box, 1e-6)])
    sight = v.model_sight(0, 0, 1, 0)
    assert sight.visible
    assert sight.fully_visible is expected
    assert v.unit_pair("S", "T").cover is (not expected)


def test_the_area_scenes_include_both_answers() -> None:
    # guards the comparison above: bases wider than the area see past it, narrower ones do not
    r100, r32 = mm(100) / 2, mm(32) / 2
    small = [(np.array(rect(8.8, 9.8, 9.2, 10.2), dtype=float), 1e-6)]
    wide = [(np.array(rect(8.2, 9.2, 9.8, 10.8), dtype=float), 1e-6)]
    assert brute_fully_visible((5, 10, r100), (13, 10, r100), small)
    assert not brute_fully_visible((5, 10, r32), (13, 10, r32), wide)


def gap_scene(gap_mm: float, x_gap: float, jit: bool) -> tuple[Visibility, list[Any]]:
    """Observer (32 mm) at (5, 10), target (32 mm) at (13, 10); a third unit's two 100 mm
    bases, 5" tall, either side of the line at x = ``x_gap``, ``gap_mm`` apart."""
    r = mm(100) / 2
    dy = r + mm(gap_mm) / 2
    third = [(x_gap, 10 - dy), (x_gap, 10 + dy)]
    v = Visibility(
        scene_from_dict(
            {
                "battlefield": {"width": 30, "depth": 20},
                "units": [
                    {"name": "S", "player": "a", "keywords": ["INFANTRY"],
                     "models": models(32, (5, 10))},
                    {"name": "T", "player": "b", "keywords": ["INFANTRY"],
                     "models": models(32, (13, 10))},
                    {"name": "Tanks", "player": "c", "keywords": ["VEHICLE"],
                     "models": models(100, *third, height=TALL)},
                ],
            }
        ),
        jit=jit,
    )
    items = [(np.array([c], dtype=float), r + HALF_LINE) for c in third]
    return v, items


@pytest.mark.parametrize("jit", JITS)
@pytest.mark.parametrize(
    ("gap_mm", "x_gap"), [(3.0, 9.0), (5.0, 9.0), (3.0, 11.5), (3.0, 6.5), (0.8, 9.0)]
)
def test_a_gap_between_two_third_party_bases_matches_the_brute_force(
    jit: bool, gap_mm: float, x_gap: float
) -> None:
    # R06.01-a/c: third units' models block sight; through a gap of a few mm the target can
    # still be fully visible; they never give cover (R13.08-a)
    v, items = gap_scene(gap_mm, x_gap, jit)
    r = mm(32) / 2
    sight = v.model_sight(0, 0, 1, 0)
    expected = brute_fully_visible((5, 10, r), (13, 10, r), items)
    assert sight.fully_visible is expected
    assert not sight.terrain_cover
    assert not v.unit_pair("S", "T").cover


def test_the_gap_scenes_include_both_answers() -> None:
    r = mm(32) / 2
    answers = {
        brute_fully_visible((5, 10, r), (13, 10, r), gap_scene(g, x, False)[1])
        for g, x in ((3.0, 9.0), (3.0, 11.5))
    }
    assert answers == {True, False}
