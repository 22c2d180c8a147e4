"""Battlefield geometry: shapes, measuring, terrain, line of sight, visibility, movement.

Units: inches, y down, origin at a battlefield corner; bases in mm (25.4 mm = 1").
See docs/geometry.md for the model and its conventions.
"""

from w40k.geometry.los import Obstacles, Sight, SightResult, line_of_sight
from w40k.geometry.measure import (
    CoherencyBreak,
    ObjectiveMarker,
    coherency_breaks,
    distance,
    distance_matrix,
    engaged,
    farthest_distance,
    horizontal_distance,
    in_base_contact,
    in_coherency,
    in_range_of_area,
    in_range_of_marker,
    vertical_distance,
    wholly_within,
    within,
    within_half_range,
)
from w40k.geometry.movement import MoveType, MoveViolation, Step, validate_move
from w40k.geometry.scene import Scene, SceneError, Unit, load_scene, scene_from_dict
from w40k.geometry.shapes import Battlefield, Circle, Model, Oval, Polygon, mm
from w40k.geometry.terrain import Category, Surface, Terrain, TerrainArea, TerrainFeature
from w40k.geometry.visibility import ModelSight, PairReport, Visibility

__all__ = [
    "Battlefield",
    "Category",
    "Circle",
    "CoherencyBreak",
    "Model",
    "ModelSight",
    "MoveType",
    "MoveViolation",
    "ObjectiveMarker",
    "Obstacles",
    "Oval",
    "PairReport",
    "Polygon",
    "Scene",
    "SceneError",
    "Sight",
    "SightResult",
    "Step",
    "Surface",
    "Terrain",
    "TerrainArea",
    "TerrainFeature",
    "Unit",
    "Visibility",
    "coherency_breaks",
    "distance",
    "distance_matrix",
    "engaged",
    "farthest_distance",
    "horizontal_distance",
    "in_base_contact",
    "in_coherency",
    "in_range_of_area",
    "in_range_of_marker",
    "line_of_sight",
    "load_scene",
    "mm",
    "scene_from_dict",
    "validate_move",
    "vertical_distance",
    "wholly_within",
    "within",
    "within_half_range",
]
