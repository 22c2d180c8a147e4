"""move25's kept-battlefield fast paths (engine/field.py, engine/geo.py) against the plain
answers: ``layout``'s "nothing of this unit set since" test as two C-level passes, the
engaged-enemies walk's inline layout test and its layouts handed to ``_engaged_pair``, and the
scene key / ``geo_unit`` reading the flags directly. Each is a cache: its answers must be the
freshly made ones (``field.forget()`` then asked again), at random moves, removals, model
swaps and restores (fixed seeds)."""

from __future__ import annotations

import copy
import random

from w40k.engine import field, geo
from w40k.engine.game import Game
from w40k.engine.state import PLACEMENT, ModelData, UnitData, placement_count
from w40k.geometry.battlefield import Layout
from w40k.io.battle_scale import scaled_position


def _rows(lay: Layout) -> list[tuple[str, float, float, float, float]]:
    return [(m.name, m.x, m.y, m.z, m.facing) for m in lay.models]


def _loop_test(models: list[object], old: list[object], then: int) -> bool:
    """The former loop of ``layout``: the same objects, none stamped after ``then``."""
    if then < PLACEMENT.restored or len(old) != len(models):
        return False
    for m, o in zip(models, old, strict=True):
        if m is not o or getattr(m, "placed_at") > then:  # noqa: B009
            return False
    return True


class _Stamped:
    def __init__(self, stamp: int) -> None:
        self.placed_at = stamp


def test_the_stamp_test_is_the_former_loop_on_random_lists() -> None:
    rng = random.Random(2501)
    for _ in range(3000):
        n = rng.choice([0, 0, 1, 2, 5, 9])
        then = PLACEMENT.restored + rng.randint(-2, 6)
        top = max(then, 0)
        old: list[object] = [_Stamped(rng.randint(0, top + 3)) for _ in range(n)]
        models = list(old)
        k = rng.random()
        if n and k < 0.3:
            models[rng.randrange(n)] = _Stamped(rng.randint(0, top))  # another object
        elif k < 0.4:
            models = models[:-1]
        stamped = models if rng.random() < 0.5 else old
        for m in stamped:  # ties on the stamp: exactly ``then``
            if rng.random() < 0.2:
                m.placed_at = then  # type: ignore[attr-defined]
        fast = (then >= PLACEMENT.restored and len(old) == len(models)
                and all(a is b for a, b in zip(models, old, strict=True))
                and max((m.placed_at for m in models), default=then) <= then)  # type: ignore[attr-defined]
        assert fast == _loop_test(models, old, then)


def _fresh_layout(u: UnitData) -> list[tuple[str, float, float, float, float]]:
    return [(m.id, m.x, m.y, m.z, m.facing) for m in u.alive]


def _check_game(game: Game) -> None:
    ctx = game.ctx
    units = game.state.units
    kept_layouts = {u.id: _rows(field.layout(u)) for u in units}
    kept_enemies = {u.id: [e.id for e in geo.engaged_enemies(ctx, u)] for u in units}
    kept_scene = geo.scene(ctx)
    kept_units = [(gu.name, gu.player, gu.ranged_attacks_recently, gu.attached,
                   [(m.name, m.x, m.y) for m in gu.models]) for gu in kept_scene.units]
    field.forget()
    for u in units:
        assert kept_layouts[u.id] == _fresh_layout(u), u.id
    assert kept_enemies == {u.id: [e.id for e in geo.engaged_enemies(ctx, u)]
                            for u in units}
    fresh = geo.scene(ctx)
    assert kept_units == [(gu.name, gu.player, gu.ranged_attacks_recently, gu.attached,
                           [(m.name, m.x, m.y) for m in gu.models]) for gu in fresh.units]
    # 13.09: the plain reading of the flags (``UnitData.flag``)
    by_id = {u.id: u for u in units}
    for name, _, recent, attached, _ in kept_units:
        u = by_id[name]
        assert recent == (u.flag("ranged_attacks_this_turn")
                          or u.flag("ranged_attacks_last_turn"))
        assert attached == u.attached


def test_layouts_enemies_and_scene_follow_random_moves_swaps_and_flags() -> None:
    rng = random.Random(2502)
    game = Game.new(scaled_position(2), 3)
    units = game.state.units
    for step in range(160):
        # warm the tables at this count (the kept paths), then change something
        for u in units:
            field.layout(u)
            geo.engaged_enemies(game.ctx, u)
        geo.scene(game.ctx)
        u = rng.choice(units)
        alive = u.alive
        kind = rng.random()
        if alive and kind < 0.45:
            m = rng.choice(alive)
            e = rng.choice([x for x in units if x.player != u.player])
            if e.alive and rng.random() < 0.5:  # next to an enemy model: engaged answers
                t = rng.choice(e.alive)
                m.x, m.y = t.x + rng.uniform(-2.5, 2.5), t.y + rng.uniform(-2.5, 2.5)
            else:
                m.x += rng.uniform(-3, 3)
        elif alive and kind < 0.55:
            # another object standing elsewhere, stamped before the tables' count
            i = u.models.index(rng.choice(alive))
            twin = copy.copy(u.models[i])
            twin.x += 0.25
            for x in units:  # the tables see the count after the twin's stamp
                field.layout(x)
            other = rng.choice([x for x in units if x is not u and x.alive])
            u.models[i] = twin
            other.alive[0].facing = other.alive[0].facing  # a placement: the count moves
        elif alive and kind < 0.6 and len(alive) > 1:
            rng.choice(alive).destroyed = True
        elif kind < 0.68:
            # another player (and a placement): the engaged-enemies walk reads the players
            players = sorted({x.player for x in units})
            u.player = players[(players.index(u.player) + 1) % len(players)]
            units[0].models[0].x = units[0].models[0].x
        elif kind < 0.8:
            u.flags["ranged_attacks_this_turn"] = not u.flag("ranged_attacks_this_turn")
        else:
            u.flags["ranged_attacks_last_turn"] = not u.flag("ranged_attacks_last_turn")
        if step % 4 == 0:
            _check_game(game)
    _check_game(game)


def test_a_swapped_model_object_with_an_old_stamp_is_measured_again() -> None:
    # a model replaced by another object stamped before the layout was kept: every stamp
    # is at most the kept count, so only the identity test sends it to the full comparison
    game = Game.new(scaled_position(1), 4)
    u, other = game.state.units[0], game.state.units[1]
    i = 0
    twin = copy.copy(u.models[i])
    twin.x += 1.0
    assert twin.placed_at <= placement_count()
    before = field.layout(u)
    u.models[i] = twin
    other.models[0].y = other.models[0].y  # the count moves past the kept one
    after = field.layout(u)
    assert after is not before
    assert _rows(after) == _fresh_layout(u)
    assert isinstance(twin, ModelData)


def test_an_unmoved_unit_keeps_its_layout_object_after_another_unit_moves() -> None:
    game = Game.new(scaled_position(1), 4)
    a, b = game.state.units[0], game.state.units[1]
    lay = field.layout(a)
    b.models[0].x += 0.5
    assert field.layout(a) is lay  # the kept object (the stamp test passed)
    a.models[0].x += 0.0  # set, same value: the full comparison keeps it too
    assert field.layout(a) is lay
    a.models[0].x += 0.5
    assert field.layout(a) is not lay
