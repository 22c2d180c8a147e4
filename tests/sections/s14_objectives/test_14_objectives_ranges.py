"""14 objectives (terrain objectives, Appendix objective markers) and ranges."""

from __future__ import annotations

import numpy as np

from w40k.geometry import Model, ObjectiveMarker, in_range_of_area, in_range_of_marker, mm
from w40k.geometry.measure import shape_region_distance

AREA = np.array([[10.0, 10.0], [20.0, 10.0], [20.0, 20.0], [10.0, 20.0]])


def m(x: float, y: float, z: float = 0.0) -> Model:
    return Model("m", x, y, z, 32.0, keywords=frozenset({"INFANTRY"}))


def test_a_model_half_inside_a_terrain_objective_is_within_range() -> None:
    # R14.01-a
    assert in_range_of_area(m(10.0, 15.0), AREA)
    assert not in_range_of_area(m(10.0 - mm(16) - 0.01, 15.0), AREA)


def test_distance_to_a_terrain_objective_is_to_its_closest_part() -> None:
    # R14.01-b
    assert abs(shape_region_distance(m(5.0, 15.0).footprint(), AREA) - (5.0 - mm(16))) < 1e-12
    assert shape_region_distance(m(15.0, 15.0).footprint(), AREA) == 0.0


def test_objective_marker_range_is_3_inches_horizontally_and_5_vertically_edge_to_edge() -> None:
    # RA-Marker-a
    marker = ObjectiveMarker(30.0, 22.0)
    edge = mm(20) + mm(16)
    assert in_range_of_marker(m(30.0 + 2.9 + edge, 22.0), marker)
    assert not in_range_of_marker(m(30.0 + 3.1 + edge, 22.0), marker)
    assert not in_range_of_marker(m(30.0 + 2.0 + edge, 22.0, z=5.5), marker)
    assert in_range_of_marker(m(30.0 + 2.0 + edge, 22.0, z=4.5), marker)
