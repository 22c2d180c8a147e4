"""enemies25b's kept-battlefield fast paths (engine/field.py) against the plain answers:
``field.layout_of`` (a round-base layout's arrays and box built without ~16 array operations)
against ``Layout.of``, and the engaged-enemies walk that takes a kept pair whose enemy layout
is the very object it was measured on without asking ``e.destroyed`` again, against fresh
answers (``field.forget()``) at random moves, whole units destroyed, player changes and
restores (fixed seeds)."""

from __future__ import annotations

import random

import numpy as np

from w40k.engine import field, geo
from w40k.engine.game import Game
from w40k.geometry import Model
from w40k.geometry.battlefield import Layout
from w40k.geometry.shapes import new_model
from w40k.io.battle_scale import scaled_position


def _same_layout(a: Layout, b: Layout) -> None:
    assert a.models == b.models
    for name in ("centres", "radii", "round", "z0", "z1"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype, name
        assert x.shape == y.shape, name
        assert x.flags.c_contiguous == y.flags.c_contiguous, name
        assert x.tobytes() == y.tobytes(), name  # bit for bit (signed zeros too)
    assert [(type(v), v) for v in a.box] == [(type(v), v) for v in b.box]
    assert [math_sign(v) for v in a.box] == [math_sign(v) for v in b.box]


def math_sign(v: float) -> bool:
    return bool(np.signbit(v))


def _model(rng: random.Random, i: int,
           base: float | tuple[float, float] | None = None) -> Model:
    if base is None:
        base = rng.choice([25.0, 28.5, 32.0, 40.0, 50.0, 60.0])
    kw = frozenset(rng.choice([["INFANTRY"], ["VEHICLE", "FRAME"], ["MONSTER"]]))
    x = rng.choice([rng.uniform(0, 44), 0.0, float(rng.randint(0, 44))])
    y = rng.choice([rng.uniform(0, 60), 0.0, float(rng.randint(0, 60))])
    z = rng.choice([0.0, 0.0, rng.uniform(0, 6)])
    return new_model(f"m{i}", x, y, z, base, rng.uniform(0.5, 6.0), rng.uniform(0, 360), kw)


def test_layout_of_is_layout_of_on_random_round_and_other_bases() -> None:
    rng = random.Random(2511)
    for _ in range(600):
        n = rng.choice([0, 1, 1, 2, 3, 5, 10, 20])
        models = [_model(rng, i) for i in range(n)]
        if n and rng.random() < 0.2:  # an oval base among round ones: Layout.of's path
            models[rng.randrange(n)] = _model(rng, 99, (rng.choice([60.0, 90.0]), 35.0))
        if n > 1 and rng.random() < 0.2:  # ties: two models at one place
            models[1] = models[0]
        _same_layout(field.layout_of(models), Layout.of(models))


def test_layout_of_edge_cases_touching_the_origin() -> None:
    # a model whose base touches x = 0 exactly: ``cx - r`` is +0.0 in both
    r_in = 32.0 / 25.4 / 2
    m = new_model("a", r_in, r_in, 0.0, 32.0, 1.0, 0.0, frozenset({"INFANTRY"}))
    _same_layout(field.layout_of([m]), Layout.of([m]))
    _same_layout(field.layout_of([]), Layout.of([]))


def _fresh_enemies(game: Game) -> dict[str, list[str]]:
    field.forget()
    return {u.id: [e.id for e in geo.engaged_enemies(game.ctx, u)] for u in game.state.units}


def test_engaged_enemies_follow_moves_deaths_players_and_restores() -> None:
    rng = random.Random(2512)
    game = Game.new(scaled_position(2), 5)
    s = game.state
    units = s.units
    marks = []
    for step in range(240):
        for u in units:  # warm the kept walks at this count, then change something
            geo.engaged_enemies(game.ctx, u)
        u = rng.choice(units)
        kind = rng.random()
        alive = u.alive
        if kind < 0.45 and alive:
            m = rng.choice(alive)
            e = rng.choice([x for x in units if x.player != u.player])
            if e.alive and rng.random() < 0.6:  # next to an enemy model
                t = rng.choice(e.alive)
                m.x, m.y = t.x + rng.uniform(-2.5, 2.5), t.y + rng.uniform(-2.5, 2.5)
            else:
                m.x += rng.uniform(-3, 3)
        elif kind < 0.55:
            for m in alive:  # the whole unit destroyed (its layout: empty)
                m.destroyed = True
        elif kind < 0.62:
            players = sorted({x.player for x in units})
            u.player = players[(players.index(u.player) + 1) % len(players)]
            units[0].models[0].x = units[0].models[0].x  # a placement: the count moves
        elif kind < 0.75:
            marks.append(s.checkpoint())
        elif kind < 0.9 and marks:
            s.restore(marks.pop())  # destroyed units back, models back in place
        else:
            units[rng.randrange(len(units))].models[0].y += 0.0  # set, same value
        if step % 3 == 0:
            kept = {x.id: [e.id for e in geo.engaged_enemies(game.ctx, x)] for x in units}
            assert kept == _fresh_enemies(game), step
    for mark in reversed(marks):
        s.restore(mark)
        kept = {x.id: [e.id for e in geo.engaged_enemies(game.ctx, x)] for x in units}
        assert kept == _fresh_enemies(game)


def test_a_unit_destroyed_in_place_leaves_its_enemies_lists() -> None:
    # the enemy's models destroyed without moving: its layout is rebuilt (empty), so the
    # kept pair is not taken and the unit is no longer an engaged enemy
    game = Game.new(scaled_position(1), 4)
    units = game.state.units
    a = units[0]
    b = next(x for x in units if x.player != a.player)
    for m, t in zip(b.alive, a.alive * len(b.alive), strict=False):
        m.x, m.y = t.x + 1.0, t.y
    assert b in geo.engaged_enemies(game.ctx, a)
    for m in b.models:
        m.destroyed = True
    assert b not in geo.engaged_enemies(game.ctx, a)
    assert not geo.engaged_enemies(game.ctx, b)
