"""01.04 measuring, 01.02 bases: closest-part distances, within / wholly within, ovals."""

from __future__ import annotations

import math

import numpy as np
from shapely.geometry import Polygon as ShapelyPolygon

from w40k.geometry import Model, Oval, distance, engaged, horizontal_distance, mm, wholly_within
from w40k.geometry.measure import in_base_contact, within, within_half_range


def infantry(
    name: str, x: float, y: float, base: float | tuple[float, float] = 32.0, z: float = 0.0
) -> Model:
    return Model(name, x, y, z, base, keywords=frozenset({"INFANTRY"}))


def test_distance_between_32mm_bases_10_inches_apart_is_measured_edge_to_edge() -> None:
    # R01.04-a
    d = horizontal_distance(infantry("a", 10, 10), infantry("b", 20, 10))
    assert math.isclose(d, 10 - mm(32), abs_tol=1e-12)
    assert round(d, 2) == 8.74


def test_measuring_has_no_side_effects() -> None:
    # R01.04-b
    a, b = infantry("a", 1, 1), infantry("b", 5, 5)
    before = (a, b)
    first = horizontal_distance(a, b)
    assert horizontal_distance(a, b) == first
    assert (a, b) == before


def test_models_3_2_inches_apart_with_32mm_bases_are_engaged_but_not_at_3_3() -> None:
    # R01.02-a, R03.04-a: the base is part of the model
    assert engaged(infantry("a", 0, 0), infantry("b", 3.20, 0))
    assert not engaged(infantry("a", 0, 0), infantry("b", 3.30, 0))


def test_oval_distance_is_exact_against_a_fine_polygon_reference() -> None:
    # R01.04-a for oval bases: the iterative method agrees with a 20000-gon to 1e-6"
    rng = np.random.default_rng(3)
    for _ in range(5):
        a = Oval(
            0.0,
            0.0,
            float(rng.uniform(0.8, 2.5)),
            float(rng.uniform(0.5, 0.8)),
            float(rng.uniform(0, 3)),
        )
        b = Oval(
            float(rng.uniform(4, 6)),
            float(rng.uniform(-2, 2)),
            float(rng.uniform(0.8, 2.5)),
            float(rng.uniform(0.5, 0.8)),
            float(rng.uniform(0, 3)),
        )
        ref = ShapelyPolygon(a.outline(20000) * 1.0).distance(ShapelyPolygon(b.outline(20000)))
        # outline() circumscribes by 1/cos(pi/k): a negligible 1e-8 relative enlargement
        assert abs(distance(a, b) - ref) < 1e-6


def test_oval_is_rotated_by_its_facing() -> None:
    # R01.04-a: a 120x92 mm oval facing along y reaches 60 mm towards +y
    m = Model("t", 0, 0, base_mm=(120, 92), facing=math.pi / 2)
    other = infantry("b", 0, 5)
    assert math.isclose(horizontal_distance(m, other), 5 - mm(60) - mm(16), abs_tol=1e-7)


def test_within_includes_touching_the_distance_and_wholly_within_needs_the_far_edge() -> None:
    # R01.04-a: "within" uses the closest part, "wholly within" every part
    a, b = infantry("a", 0, 0), infantry("b", 6 + mm(32), 0)
    assert within(a, b, 6.0)
    assert not within(a, b, 5.99)
    assert not wholly_within(a, b, 6.0)
    assert wholly_within(a, b, 6.0 + mm(32))


def test_bases_touching_are_in_base_contact() -> None:
    a = infantry("a", 0, 0)
    assert in_base_contact(a, infantry("b", mm(32), 0))
    assert not in_base_contact(a, infantry("b", mm(32) + 0.1, 0))


def test_half_range_is_measured_to_the_closest_part() -> None:
    # R24.30-a geometry: 18" weapon, target at 9.0" -> within half range, 9.1" -> not
    a = infantry("a", 0, 0)
    assert within_half_range(a, infantry("b", 9.0 + mm(32), 0), 18)
    assert not within_half_range(a, infantry("b", 9.1 + mm(32), 0), 18)
