"""The set-up searches measure their candidate spots in parts (memory: a battlefield grid
against a 128-gon holds tens of MB of (points x edges) arrays at once): the distances are the
very values of one call, so the spots kept and the placements found are the same (R18.04-c,
R20.04-a). Exact geometry: a grid around an oval hull, a polygon hull and a round base."""

from __future__ import annotations

import math

import numpy as np
import pytest

from w40k.geometry import Model
from w40k.geometry.measure import point_polygon_distance
from w40k.rules.placement import centre_gaps
from w40k.rules.ring_placement import GAP_ROWS, by_rows, gaps


def _grid(n: int) -> np.ndarray:
    side = math.ceil(math.sqrt(n))
    xs, ys = np.meshgrid(np.linspace(0.0, 30.0, side), np.linspace(0.0, 20.0, side))
    return np.stack([xs.ravel(), ys.ravel()], axis=1)[:n]


HULLS = (
    Model("oval", 15.0, 10.0, base_mm=(170.0, 105.0), facing=0.4),
    Model("hull", 15.0, 10.0, base_mm=None,
          hull=((-2.0, -1.0), (2.0, -1.0), (2.5, 0.0), (2.0, 1.0), (-2.0, 1.0))),
    Model("round", 15.0, 10.0, base_mm=32.0),
)


@pytest.mark.parametrize("n", [GAP_ROWS, GAP_ROWS + 1, 3 * GAP_ROWS + 1, 5000])
@pytest.mark.parametrize("hull", HULLS, ids=lambda m: m.name)
def test_gaps_measured_in_parts_are_the_values_of_one_call(n: int, hull: Model) -> None:
    # R18.04-c / R20.04-a: the band and arrival spots read these distances
    pts = _grid(n)
    assert np.array_equal(gaps(pts, hull), centre_gaps(pts, hull))


def test_no_part_is_a_single_point_and_none_is_larger_than_the_limit() -> None:
    # the one-point forms of geometry.measure are other code: never used for a part
    sizes: list[int] = []

    def measure(p: np.ndarray) -> np.ndarray:
        sizes.append(len(p))
        return point_polygon_distance(p, np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0]]))

    pts = _grid(2 * GAP_ROWS + 1)
    out = by_rows(measure, pts)
    assert len(out) == len(pts) and sizes == [683, 683, 683]  # ceil(2049 / 1024) parts
    assert np.array_equal(out, measure(pts))
    sizes.clear()
    by_rows(measure, _grid(GAP_ROWS))
    assert sizes == [GAP_ROWS]  # at most the limit: one call
    sizes.clear()
    by_rows(measure, _grid(GAP_ROWS + 1))
    assert sizes == [GAP_ROWS // 2 + 1, GAP_ROWS // 2]  # never a part of one point
