"""The disembark band's room (R18.04-c: set up wholly within 3" of the transport, on no other
model and not within engagement range of an enemy) measures the outline of a base that is not
round only where it may lower a spot's room: every spot's room is the very float of measuring
every blocker and enemy at every spot (exact geometry: oval, polygon and round neighbours
beside, across and inside the band, an oval and a polygon hull)."""

from __future__ import annotations

import random

import numpy as np

from w40k.geometry import Model
from w40k.geometry.shapes import Battlefield
from w40k.rules.placement import ENGAGEMENT
from w40k.rules.ring_placement import band, gaps

FIELD = Battlefield(44.0, 60.0)
HULLS = (
    Model("Trukk", 20.0, 30.0, base_mm=(170.0, 105.0), facing=0.4, height=3.0),
    Model("Frame", 20.0, 30.0, base_mm=None, height=3.0,
          hull=((-2.0, -1.0), (2.0, -1.0), (2.5, 0.0), (2.0, 1.0), (-2.0, 1.0))),
)


def _neighbour(rng: random.Random, i: int) -> Model:
    x, y = 20.0 + rng.uniform(-8.0, 8.0), 30.0 + rng.uniform(-8.0, 8.0)
    kind = rng.randrange(3)
    if kind == 0:
        return Model(f"oval {i}", x, y, base_mm=(rng.uniform(60, 170), rng.uniform(35, 105)),
                     facing=rng.uniform(0.0, 3.2))
    if kind == 1:
        return Model(f"hull {i}", x, y, base_mm=None, facing=rng.uniform(0.0, 3.2),
                     hull=((-1.5, -0.8), (1.5, -0.8), (1.8, 0.0), (1.5, 0.8), (-1.5, 0.8)))
    return Model(f"round {i}", x, y, base_mm=rng.choice([25.0, 32.0, 40.0, 60.0]))


def _full_room(points: np.ndarray, transport: Model, blockers: list[Model],
               enemies: list[Model]) -> np.ndarray:
    room = np.full(len(points), np.inf)
    for o, limit in [*((b, 0.0) for b in blockers), *((e, ENGAGEMENT) for e in enemies)]:
        room = np.minimum(room, gaps(points, o) - limit)
    return room


def test_every_spot_has_the_room_of_measuring_every_neighbour_everywhere() -> None:
    # R18.04-c / R03.02-a: the spots' room from blockers and enemies, the same floats
    rng = random.Random(7)
    for trial in range(24):
        transport = HULLS[trial % 2]
        others = [_neighbour(rng, i) for i in range(rng.randint(1, 5))]
        cut = rng.randint(0, len(others))
        blockers, enemies = [transport, *others[:cut]], others[cut:]
        got = band(transport, 3.0, FIELD, blockers, enemies)
        want = _full_room(got.points, transport, blockers, enemies)
        assert np.array_equal(got.room, want)


def test_a_neighbour_inside_the_band_lowers_the_room_of_the_spots_round_it() -> None:
    # R18.04-c: a spot on another model has no room (none: 0 or below)
    transport = HULLS[0]
    tank = Model("tank", 20.0, 34.2, base_mm=(120.0, 90.0))
    got = band(transport, 3.0, FIELD, [transport, tank], [])
    want = _full_room(got.points, transport, [transport, tank], [])
    assert np.array_equal(got.room, want)
    on_tank = np.hypot(got.points[:, 0] - 20.0, got.points[:, 1] - 34.2) < 0.5
    assert on_tank.any() and (got.room[on_tank] <= 0).all()
