"""The melee moves' shortcut measures give the answers of the full measures they replace
(``engine/phases/melee_moves.py``: ``closer_to_unit``, ``Group.engaged_any``,
``surely_refused``), on random round and oval bases."""

from __future__ import annotations

import math
import random

import pytest

from tests.engine.melee_helpers import fight_phase, fighter, unit
from w40k.engine import geo
from w40k.engine.game import Game
from w40k.engine.phases.melee_moves import (
    Group,
    closer_to_unit,
    model_to_unit,
    surely_refused,
)
from w40k.geometry import engaged
from w40k.geometry.movement import MoveType, Step, validate_move


def _game(rng: random.Random) -> Game:
    blues = []
    for i in range(rng.randint(1, 6)):
        m = fighter(f"blue.b.{i + 1}", rng.uniform(15.0, 25.0), rng.uniform(15.0, 25.0))
        if rng.random() < 0.4:
            m["profile"]["base_mm"] = [115.0, 70.0]  # type: ignore[index]
            m["facing"] = rng.uniform(0.0, 3.0)
        blues.append(m)
    reds = [fighter(f"red.a.{i + 1}", 8.0 + 1.4 * i, 8.0) for i in range(3)]
    return Game.new(fight_phase([unit("red.a", "red", reds), unit("blue.b", "blue", blues)]),
                    seed=1)


@pytest.mark.parametrize("seed", range(8))
def test_the_shortcut_measures_answer_as_the_full_ones(seed: int) -> None:
    rng = random.Random(seed)
    game = _game(rng)
    blue = game.state.unit("blue.b")
    shapes = geo.unit_shapes(blue)
    group = Group(shapes)
    probe = geo.model_shape(game.state.unit("red.a").alive[0])
    for _ in range(150):
        m = probe.moved(rng.uniform(10.0, 30.0), rng.uniform(10.0, 30.0))
        than = rng.uniform(0.0, 4.0)
        assert closer_to_unit(m, blue, than) == (model_to_unit(m, blue) < than)
        assert group.engaged_any(m) == any(engaged(m, s) for s in shapes)


@pytest.mark.parametrize("seed", range(4))
def test_a_move_surely_refused_is_refused_by_validate_move(seed: int) -> None:
    # R03.01-c / R03.01-f / R03.03-d: the prefilter says "refused" only where validate_move
    # refuses the same single-model move.
    rng = random.Random(seed)
    game = _game(rng)
    scene = geo.scene(game.ctx)
    start = geo.model_shape(game.state.unit("red.a").alive[0])
    for _ in range(80):
        x, y = start.x + rng.uniform(-2.5, 2.5), start.y + rng.uniform(-2.5, 2.5)
        if surely_refused(scene, "red.a", start.name, start.moved(x, y)):
            assert validate_move(scene, "red.a", {start.name: [Step(x, y)]},
                                 MoveType.PILE_IN, 3.0)


@pytest.mark.parametrize("seed", range(4))
def test_the_box_gap_is_a_lower_bound_of_every_disc_gap(seed: int) -> None:
    # 03.04 / 12.03: Group.engaged_any and base_contact_enemy measure no model of a unit whose
    # box is out of range, as every disc gap is at least the point's gap to the box.
    from w40k.engine import field
    from w40k.engine.phases.melee_measure import box_gap
    from w40k.geometry.battlefield import bounding_radius
    rng = random.Random(seed)
    game = _game(rng)
    lay = field.layout(game.state.unit("blue.b"))
    for _ in range(300):
        x, y = rng.uniform(0.0, 40.0), rng.uniform(0.0, 40.0)
        gaps = [math.hypot(m.footprint().center[0] - x, m.footprint().center[1] - y)
                - bounding_radius(m.footprint()) for m in lay.models]
        assert box_gap(lay, x, y) <= min(gaps) + 1e-9
