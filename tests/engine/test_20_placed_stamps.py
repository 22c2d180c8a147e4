"""A unit's kept layout (``engine/field.py``) stands for its models while none of them was set
since it was checked: each model carries the placement count of its last set position,
level, facing, profile or destroyed flag (``ModelData.placed_at``), and a restore, which
writes fields back without stamps, sends every layout made before it to the full comparison.
The kept layouts and scene equal fresh ones after every decision of whole games (R03.03-a,
R03.04-a read them), through moves, removals and restores."""

from __future__ import annotations

import random

import pytest

from tests.engine.core_helpers import plain_shape, play_checking
from w40k.engine import field, geo
from w40k.engine.game import Game
from w40k.engine.state import PLACEMENT, UnitData, placement_count
from w40k.io.battle_scale import scaled_position


def _fresh(u: UnitData) -> list[tuple[object, ...]]:
    return [(s.name, s.x, s.y, s.z, s.facing, s.base_mm, s.height, s.keywords, s.hull)
            for s in (plain_shape(m) for m in u.alive)]


def _kept(u: UnitData) -> list[tuple[object, ...]]:
    return [(s.name, s.x, s.y, s.z, s.facing, s.base_mm, s.height, s.keywords, s.hull)
            for s in field.layout(u).models]


def _check(game: Game) -> None:
    units = game.state.units
    for u in units:
        assert _kept(u) == _fresh(u), u.id
    scene = {su.name: [(m.name, m.x, m.y, m.z, m.facing) for m in su.models]
             for su in geo.scene(game).units}
    assert scene == {u.id: [(m.id, m.x, m.y, m.z, m.facing) for m in u.alive]
                     for u in units if not u.destroyed}


@pytest.mark.parametrize(("seed", "agent", "scale"),
                         [(4, "greedy", 1), (5, "random", 1), (6, "greedy", 2)])
def test_the_kept_layouts_and_scene_equal_fresh_ones_after_every_decision(
        seed: int, agent: str, scale: int) -> None:
    play_checking(scale, seed, agent, _check, agent_seed=11, limit=600)


def test_every_placement_field_set_stamps_the_model() -> None:
    game = Game.new(scaled_position(1), 2)
    m = game.state.units[0].models[0]
    for name, value in (("x", m.x + 1.0), ("y", m.y + 1.0), ("z", 0.0), ("facing", 1.0),
                        ("profile", m.profile), ("destroyed", False)):
        before = placement_count()
        setattr(m, name, value)
        assert m.placed_at == placement_count() > before, name
    count = placement_count()
    m.wounds_lost = 0  # not a placement field
    assert placement_count() == count and m.placed_at == count


def test_a_layout_follows_models_moved_removed_and_put_back_by_a_restore() -> None:
    # R03.03-a, R03.04-a read the layouts: each change is seen, a restore's too
    rng = random.Random(20)
    game = Game.new(scaled_position(1), 3)
    s = game.state
    for step in range(300):
        u = rng.choice(s.units)
        kind = rng.random()
        if kind < 0.15:
            cp = s.checkpoint()
            for _ in range(rng.randrange(1, 4)):
                v = rng.choice(s.units)
                m = rng.choice(v.models)
                m.x += rng.uniform(-1.0, 1.0)
                field.layout(v)  # kept at the moved place, then put back by the restore
                if rng.random() < 0.3:
                    m.destroyed = not m.destroyed
                    field.layout(v)
            if rng.random() < 0.5:
                s.restore(cp)
            else:
                s.release(cp)
        elif kind < 0.7:
            m = rng.choice(u.models)
            m.x, m.y = m.x + rng.uniform(-0.5, 0.5), m.y + rng.uniform(-0.5, 0.5)
        elif kind < 0.8:
            PLACEMENT.count += 1  # another game's model set
        elif kind < 0.9:
            m = rng.choice(u.models)
            m.destroyed = not m.destroyed
        else:
            # the same models in another order (the engine reorders none; any later set
            # of a model bumps the count, as here)
            u.models.reverse()
            PLACEMENT.count += 1
        for v in s.units:
            assert _kept(v) == _fresh(v), (step, v.id)
