"""The fifteenth pass's kept answers are only caches: a unit's engaged enemies (kept per pair
across other units' moves), the models within each objective's range (kept per layout) and the
answer copy made at every submit equal the plain computations, at every decision of seeded
games and after constructed moves, removals and objective changes."""

from __future__ import annotations

import copy
import random
from typing import cast

import pytest

from tests.engine.core_helpers import plain_enemies, plain_shape, play_checking
from w40k.core.jsonval import JSON
from w40k.engine import field, geo
from w40k.engine.context import Context
from w40k.engine.game import Game, copy_choice
from w40k.engine.state import UnitData
from w40k.io.battle_scale import scaled_position


def _plain_reach(game: Game, u: UnitData) -> tuple[tuple[int, ...], ...]:
    """14.01: per objective, the indices of ``u``'s living models within its range, each model
    measured on a fresh shape."""
    ctx = cast(Context, game)
    return tuple(tuple(i for i, m in enumerate(u.alive)
                       if geo.in_objective_range(ctx, m, o, plain_shape(m)))
                 for o in game.state.objectives)


def _check(game: Game) -> None:
    ctx = cast(Context, game)
    for u in game.state.units:
        assert [e.id for e in geo.engaged_enemies(ctx, u)] == plain_enemies(game, u), u.id
        assert geo.objective_reach(ctx, u) == _plain_reach(game, u), u.id


@pytest.mark.parametrize(("seed", "agent", "scale"),
                         [(4, "greedy", 1), (5, "random", 1), (6, "greedy", 3)])
def test_kept_enemies_and_objective_reach_equal_fresh_answers_at_every_decision(
        seed: int, agent: str, scale: int) -> None:
    """At every decision of a seeded game (moves, charges, fights, removals), each unit's kept
    engaged enemies and objective reach equal the plain model-by-model answers."""
    play_checking(scale, seed, agent, _check, agent_seed=11, limit=500)


def test_kept_enemies_follow_each_units_moves_and_removals() -> None:
    """R03.04-a: moving an enemy model into and out of engagement range, moving the unit's own
    model, and removing models each change the kept engaged enemies as the plain answer does
    (the pairs of units that did not move keep their answers, the others are measured again)."""
    game = Game.new(scaled_position(2), 3)
    ctx = cast(Context, game)
    reds = [u for u in game.state.units if u.player == "red"]
    blues = [u for u in game.state.units if u.player == "blue"]
    red, blue, other = reds[0], blues[0], blues[1]
    rng = random.Random(15)
    for _ in range(60):
        for u in (red, blue, other):
            assert [e.id for e in geo.engaged_enemies(ctx, u)] == plain_enemies(game, u)
        mover = rng.choice([red, blue, other])
        m = rng.choice(mover.alive)
        anchor = rng.choice((red if mover is not red else blue).alive)
        if rng.random() < 0.5:  # next to a model of the other side, or well away from it
            m.x, m.y = anchor.x + rng.uniform(-3.5, 3.5), anchor.y + rng.uniform(-3.5, 3.5)
        else:
            m.x, m.y = anchor.x + rng.uniform(8.0, 12.0), anchor.y
    for m in blue.alive[1:]:
        m.destroyed = True
    assert [e.id for e in geo.engaged_enemies(ctx, red)] == plain_enemies(game, red)
    for m in blue.models:
        m.destroyed = True
    assert blue.id not in [e.id for e in geo.engaged_enemies(ctx, red)]
    assert [e.id for e in geo.engaged_enemies(ctx, red)] == plain_enemies(game, red)


def test_objective_reach_follows_moves_removals_and_objective_changes() -> None:
    """14.01: a model moved onto or off a marker, a removed model and a marker moved each
    change the kept objective reach as the plain measure does."""
    game = Game.new(scaled_position(1), 2)
    ctx = cast(Context, game)
    u = game.state.units[0]
    obj = game.state.objectives[0]
    m = u.alive[0]
    m.x, m.y = obj.x + 1.0, obj.y
    assert 0 in geo.objective_reach(ctx, u)[0]
    assert geo.objective_reach(ctx, u) == _plain_reach(game, u)
    m.x = obj.x + 4.5
    assert geo.objective_reach(ctx, u) == _plain_reach(game, u)
    m.x = obj.x + 1.0
    u.alive[0].destroyed = True
    assert geo.objective_reach(ctx, u) == _plain_reach(game, u)
    lay = field.layout(u)
    obj.x += 20.0  # the same layout, a marker elsewhere
    assert field.layout(u) is lay
    assert geo.objective_reach(ctx, u) == _plain_reach(game, u)


def _random_json(rng: random.Random, depth: int = 0) -> JSON:
    r = rng.random()
    if depth > 3 or r < 0.3:
        return rng.choice([rng.randint(-5, 5), rng.uniform(-50, 50), "a", "done", None,
                           True, False])
    if r < 0.6:
        return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if r < 0.7:
        return cast(JSON, tuple(_random_json(rng, depth + 1) for _ in range(2)))
    return {f"k{i}": _random_json(rng, depth + 1) for i in range(rng.randint(0, 4))}


def test_copy_choice_equals_deepcopy_and_shares_nothing_mutable() -> None:
    """The answer copy of ``Game.submit`` equals ``copy.deepcopy``'s (types included: tuples
    stay tuples) and shares no list or dict with the answer."""
    rng = random.Random(7)
    for _ in range(500):
        value = _random_json(rng)
        out = copy_choice(value)
        want = copy.deepcopy(value)
        assert out == want and repr(out) == repr(want)

        def walk(a: object, b: object) -> None:
            if isinstance(a, (list, dict)):
                assert a is not b
            if isinstance(a, (list, tuple)):
                for x, y in zip(a, cast(list[object], b), strict=True):
                    walk(x, y)
            elif isinstance(a, dict):
                for k in a:
                    walk(a[k], cast(dict[object, object], b)[k])
        walk(value, out)


def _plain_layout(u: UnitData) -> list[tuple[str, float, float, float, float]]:
    return [(m.id, m.x, m.y, m.z, m.facing) for m in u.alive]


def _kept_layout(u: UnitData) -> list[tuple[str, float, float, float, float]]:
    return [(s.name, s.x, s.y, s.z, s.facing) for s in field.layout(u).models]


def test_kept_layouts_follow_moves_restores_and_swapped_model_lists() -> None:
    """A unit's kept layout equals its living models' places after random moves, removals,
    moves put back, checkpoint restores (which set fields back without the setter) and model
    lists swapped, and stays the same object when only another unit moved."""
    game = Game.new(scaled_position(2), 9)
    s = game.state
    units = s.units[:4]
    rng = random.Random(3)
    for _ in range(300):
        for u in units:
            assert _kept_layout(u) == _plain_layout(u), u.id
        u = rng.choice(units)
        r = rng.random()
        if r < 0.4 and u.alive:
            m = rng.choice(u.alive)
            m.x += rng.uniform(-1.0, 1.0)
        elif r < 0.5 and u.alive:  # moved and put back: the same values
            m = rng.choice(u.alive)
            x = m.x
            m.x = x + 1.0
            m.x = x
        elif r < 0.6 and len(u.alive) > 1:
            rng.choice(u.alive).destroyed = True
        elif r < 0.8:  # a checkpoint, moves of two units, then a restore
            mark = s.checkpoint()
            before = {v.id: _kept_layout(v) for v in units}
            for v in rng.sample(units, 2):
                for m in v.alive:
                    m.y += 0.5
                assert _kept_layout(v) == _plain_layout(v)
            s.restore(mark)
            assert {v.id: _kept_layout(v) for v in units} == before
        else:  # another unit moves: this one's layout is the same object
            other = rng.choice([v for v in units if v is not u])
            lay = field.layout(u)
            if other.alive:
                other.alive[0].x += 0.25
            assert field.layout(u) is lay
    u, other = units[0], units[1]
    kept = list(u.models)
    for models in (list(reversed(kept)), kept):
        # the same models in another order (kept answers hold while no model is placed:
        # another unit's move comes first), measured again
        u.models = models
        other.alive[0].x += 0.25
        assert _kept_layout(u) == _plain_layout(u)
