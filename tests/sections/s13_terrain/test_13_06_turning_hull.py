"""13.06 / 03.01: a long hull that moves and then turns at the end of a step.

A step moves the model in a straight line with the facing it has, then turns it (R03.01-b:
rotating is free). The footprint that sweeps across the battlefield is the unturned one, so
the box that ``validate_move`` uses to skip far features must be the box of that swept
footprint, not of the turned one at the end (docs/rulings.md, "A step turns at its end")."""

from __future__ import annotations

import math

from w40k.geometry import movement
from w40k.geometry.measure import Swept, swept_region_distance
from w40k.geometry.movement import MoveType, Step, validate_move
from w40k.geometry.scene import Scene, Unit
from w40k.geometry.shapes import Battlefield, Model
from w40k.geometry.terrain import Category, Terrain, TerrainFeature

# a 6" x 2" oval (a = 3", b = 1"), its long axis along x at the start
TANK = Model("Tank", 10.0, 10.0, 0.0, (152.4, 50.8), 3.0, 0.0, frozenset({"VEHICLE"}))
# a 4" tall dense block beside where the step ends: the unturned oval, centred on (20, 20)
# and reaching to x = 23, overlaps it (22.5 <= x <= 23.5); turned to face +y (x in [19, 21])
# it does not
BLOCK = TerrainFeature("block", Category.DENSE,
                       ((22.5, 19.5), (23.5, 19.5), (23.5, 20.5), (22.5, 20.5)), 4.0)


def _scene() -> Scene:
    return Scene(Battlefield(), Terrain(features=(BLOCK,)), (Unit("T", "p1", (TANK,)),))


def test_the_unturned_oval_sweeps_into_the_block() -> None:
    # R13.06-c: the exact sweep of the footprint the step moves meets the block
    end = TANK.moved(20.0, 20.0, facing=math.pi / 2)
    swept = Swept(TANK.footprint(), end.x - TANK.x, end.y - TANK.y)
    assert swept_region_distance(swept, BLOCK.array()) <= 0.0
    assert movement.crosses_feature(TANK, end, movement.outlines(_scene().terrain)[0])


def test_the_sweep_box_holds_the_swept_footprint_not_the_turned_end() -> None:
    # R13.06-c: the pre-test box reaches the unturned oval's far end (x = 23), beyond the
    # turned end footprint's box (x <= 21; it keeps that box too: y up to 23)
    end = TANK.moved(20.0, 20.0, facing=math.pi / 2)
    x0, y0, x1, y1 = movement.sweep_box(TANK, end)
    assert (x0, y0) == (7.0, 9.0)
    assert math.isclose(x1, 23.0) and math.isclose(y1, 23.0)


def test_a_vehicle_that_turns_at_the_end_of_a_step_still_cannot_cross_a_tall_dense_block(
) -> None:
    # R13.06-c: a non-MOBILE VEHICLE cannot move horizontally through a dense feature taller
    # than 2"; R03.01-b: the turn after the step is free but does not undo the crossing
    vs = validate_move(_scene(), "T", {"Tank": [Step(20.0, 20.0, facing=math.pi / 2)]},
                       MoveType.NORMAL, 20.0)
    assert [v.rule for v in vs] == ["R13.06-c"]


def test_turned_before_the_step_the_oval_passes_beside_the_block() -> None:
    # R03.01-b: turned first (a step in place), the narrow oval moves past the block: legal
    path = [Step(10.0, 10.0, facing=math.pi / 2), Step(20.0, 20.0)]
    assert validate_move(_scene(), "T", {"Tank": path}, MoveType.NORMAL, 20.0) == []
