"""17.02 FRAME: measure from the model's closest point, rotate about its central axis."""

from __future__ import annotations

import math

from w40k.geometry import Model, horizontal_distance, mm
from w40k.geometry.movement import MoveType, Step, validate_move
from w40k.geometry.scene import Scene, Unit
from w40k.geometry.shapes import Battlefield
from w40k.geometry.terrain import Terrain

HULL = ((-2.5, -1.5), (2.5, -1.5), (2.5, 1.5), (-2.5, 1.5))


def test_a_frame_hull_overhanging_its_base_is_measured_from_the_hull() -> None:
    # R17.02-a: the hull reaches 0.5" past the 60 mm base towards the enemy
    r = mm(30)
    hull = ((-(r + 0.5), -1.0), (r + 0.5, -1.0), (r + 0.5, 1.0), (-(r + 0.5), 1.0))
    tank = Model("Tank", 10, 10, base_mm=60, keywords=frozenset({"VEHICLE", "FRAME"}), hull=hull)
    enemy = Model("Boy", 20, 10, base_mm=32)
    assert math.isclose(horizontal_distance(tank, enemy), 10 - (r + 0.5) - mm(16), abs_tol=1e-12)
    no_frame = Model("Tank", 10, 10, base_mm=60, keywords=frozenset({"VEHICLE"}), hull=hull)
    assert math.isclose(horizontal_distance(no_frame, enemy), 10 - r - mm(16), abs_tol=1e-12)


def test_a_baseless_frame_model_rotates_about_its_central_axis_for_free() -> None:
    # R17.02-b, R03.01-b: rotating 90 degrees keeps the centroid and costs nothing
    tank = Model(
        "Tank", 20, 20, base_mm=None, height=3, keywords=frozenset({"VEHICLE", "FRAME"}), hull=HULL
    )
    turned = tank.moved(20, 20, facing=math.pi / 2)
    assert turned.footprint().center == tank.footprint().center
    x0, y0, x1, y1 = turned.footprint().bbox()
    assert math.isclose(x1 - x0, 3.0) and math.isclose(y1 - y0, 5.0)
    scene = Scene(Battlefield(), Terrain(), (Unit("Tanks", "A", (tank,)),))
    moves = {"Tank": [Step(20, 20, facing=math.pi / 2), Step(26, 20)]}
    assert validate_move(scene, "Tanks", moves, MoveType.NORMAL, 6.0) == []
