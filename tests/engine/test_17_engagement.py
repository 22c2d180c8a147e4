"""The seventeenth pass's engagement answers (``engine/field.py``, ``phases/fight_sequence.py``)
equal the plain model-by-model answers: a unit's kept engaged enemies (kept per pair across
other units' moves; written for a per-count board, since dropped) through random moves of many
units at once, put-backs, removals, reordered and grown unit lists and a unit handed to the
other player; the fight's engaged targets read from the engaged enemies; pile-in options read
from the engaged enemies when known; and the kept scene through flag and model changes."""

from __future__ import annotations

import random
from typing import cast

from tests.engine.core_helpers import plain_enemies, plain_shape
from w40k.engine import field, geo
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.phases import fight_sequence as fs
from w40k.engine.state import UnitData
from w40k.geometry import engaged
from w40k.io.battle_scale import scaled_position


def _check_all(game: Game) -> None:
    ctx = cast(Context, game)
    for u in game.state.units:
        want = plain_enemies(game, u)
        assert [e.id for e in geo.engaged_enemies(ctx, u)] == want, u.id
        assert geo.is_engaged(ctx, u) is bool(want), u.id


def _crowd(game: Game, rng: random.Random) -> None:
    """Every unit's models near the table's middle, so that many pairs are engaged."""
    for u in game.state.units:
        cx, cy = rng.uniform(20.0, 30.0), rng.uniform(20.0, 26.0)
        for m in u.models:
            m.x, m.y = cx + rng.uniform(-2.0, 2.0), cy + rng.uniform(-2.0, 2.0)


def test_kept_enemies_equal_plain_answers_through_random_changes() -> None:
    """R03.04-a: at each step some units move (one model, several, or moved and put back),
    lose a model or the unit list is reordered; every unit's kept engaged enemies (and
    ``is_engaged``) equal the plain answer, whichever units were asked before the change."""
    game = Game.new(scaled_position(2), 3)
    rng = random.Random(17)
    _crowd(game, rng)
    units = game.state.units
    for step in range(120):
        # ask only some units (the others keep older versions' answers)
        ctx = cast(Context, game)
        for u in rng.sample(units, rng.randint(1, len(units))):
            assert [e.id for e in geo.engaged_enemies(ctx, u)] == plain_enemies(game, u)
        kind = rng.random()
        if kind < 0.5:
            for u in rng.sample(units, rng.randint(1, 3)):
                alive = u.alive
                if not alive:
                    continue
                for m in rng.sample(alive, rng.randint(1, len(alive))):
                    m.x = min(43.0, max(1.0, m.x + rng.uniform(-2.5, 2.5)))
                    m.y = min(59.0, max(1.0, m.y + rng.uniform(-2.5, 2.5)))
        elif kind < 0.65:  # moved and put back: a new count, the same layouts
            m = rng.choice([m for u in units for m in u.alive])
            x = m.x
            m.x = x + 5.0
            m.x = x
        elif kind < 0.75:
            alive = [m for u in units for m in u.alive]
            if len(alive) > 20:
                rng.choice(alive).destroyed = True
        elif kind < 0.85:
            # the same list object, the units at other indices; a model set again (a new
            # placement count, as every kept answer of field.py is only kept within one)
            rng.shuffle(units)
            m = units[0].models[0]
            m.x = m.x
        else:
            pass  # nothing placed: the same count
        if step % 10 == 0:
            _check_all(game)
    _check_all(game)


def test_kept_enemies_follow_a_grown_list_and_a_changed_player() -> None:
    """R03.04-a: a unit appended to the state's list (the same list object, one more entry)
    and a unit handed to the other player without any model placed change the engaged
    enemies as the plain answer does."""
    game = Game.new(scaled_position(2), 3)
    rng = random.Random(3)
    _crowd(game, rng)
    _check_all(game)
    units = game.state.units
    extra = units.pop()
    _check_all(game)  # one entry fewer: every unit walked again at the same count
    units.append(extra)
    extra.models[0].x = extra.models[0].x  # a new placement count (nothing moved)
    _check_all(game)
    u = units[0]
    other = next(e.player for e in units if e.player != u.player)
    old = u.player
    u.player = other
    u.models[0].x = u.models[0].x
    _check_all(game)
    u.player = old
    u.models[0].x = u.models[0].x
    _check_all(game)
    field.forget()
    _check_all(game)


def _plain_targets(game: Game, u: UnitData) -> dict[str, list[str]]:
    """04.02: per living model of ``u``, the enemy units with a model engaged with it, every
    enemy unit measured model by model (R03.04-a)."""
    enemies = [e for e in game.state.units if e.player != u.player and not e.destroyed]
    return {m.id: [e.id for e in enemies
                   if any(engaged(plain_shape(m), plain_shape(y)) for y in e.alive)]
            for m in u.alive}


def test_engaged_targets_from_the_engaged_enemies_equal_every_enemy_measured() -> None:
    """R03.04-a: the fight's engaged targets, read from the engaged enemies only, equal the
    model-by-model answer over every enemy unit, through random crowded placements (models
    2" apart give edge cases on both sides of engagement range)."""
    game = Game.new(scaled_position(2), 3)
    ctx = cast(Context, game)
    rng = random.Random(12)
    checked = 0
    for _ in range(25):
        _crowd(game, rng)
        for u in game.state.units:
            want = _plain_targets(game, u)
            assert fs.engaged_targets(ctx, u) == want, u.id
            checked += sum(1 for v in want.values() if v)
    assert checked > 100  # the placements engage many models


def _plain_scene_units(game: Game) -> list[tuple[object, ...]]:
    """What the scene shows of each unit with living models, made afresh from the state."""
    return [(u.id, u.player, tuple((m.id, m.x, m.y, m.z, m.facing) for m in u.alive),
             bool(u.flag("ranged_attacks_this_turn") or u.flag("ranged_attacks_last_turn")),
             u.attached)
            for u in game.state.units if not u.destroyed]


def _scene_units(game: Game) -> list[tuple[object, ...]]:
    sc = geo.scene(cast(Context, game))
    return [(x.name, x.player, tuple((m.name, m.x, m.y, m.z, m.facing) for m in x.models),
             bool(x.ranged_attacks_recently), x.attached) for x in sc.units]


def test_kept_scene_follows_flags_attachment_models_and_moves() -> None:
    """13.09: the kept scene equals the state's units after
    random changes of the ranged-attack flags (set, cleared, removed), of ``attached``, of a
    model list's length and of a model's place, each followed by the question (most steps
    change one thing and place nothing)."""
    game = Game.new(scaled_position(2), 3)
    rng = random.Random(5)
    units = game.state.units
    flags = ("ranged_attacks_this_turn", "ranged_attacks_last_turn")
    for _ in range(200):
        u = rng.choice(units)
        kind = rng.random()
        if kind < 0.4:
            name = rng.choice(flags)
            if rng.random() < 0.3:
                u.flags.pop(name, None)
            else:
                u.flags[name] = rng.random() < 0.5
        elif kind < 0.6:
            u.attached = not u.attached
        elif kind < 0.7 and len(u.models) > 1:
            u.models.append(u.models.pop(0))  # the same models in another order: a new count
            u.models[0].x = u.models[0].x
        elif kind < 0.8:
            m = rng.choice(u.models)
            m.x = min(43.0, max(1.0, m.x + rng.uniform(-1.0, 1.0)))
        assert _scene_units(game) == _plain_scene_units(game)


def test_pile_in_options_equal_the_plain_any_over_enemies() -> None:
    """R12.03-a / R23.02-d: whether a unit has pile-in targets, with its engaged terms read
    from the kept engaged enemies first, equals the plain "engaged with, or within 5" of, a
    visible enemy unit" over every enemy, measured model by model for engagement, through
    random placements where units are engaged, just apart or far apart (both answers seen)."""
    from w40k.engine.aircraft import visible_enemies
    from w40k.engine.phases.melee_moves import units_within
    game = Game.new(scaled_position(2), 3)
    ctx = cast(Context, game)
    rng = random.Random(8)
    s = game.state
    seen = set()
    for _ in range(20):
        for u in s.units:  # spread out, so some units have no enemy within 5"
            cx, cy = rng.uniform(2.0, 42.0), rng.uniform(2.0, 58.0)
            for m in u.models:
                m.x, m.y = cx + rng.uniform(-1.5, 1.5), cy + rng.uniform(-1.5, 1.5)
        for u in s.units:
            enemies = visible_enemies(u, s.units_of(s.opponent(u.player)))
            plain = any(e.id in plain_enemies(game, u) or units_within(u, e, fs.PILE_IN_REACH)
                        for e in enemies)
            known = rng.random() < 0.5
            if known:  # the engaged enemies known now: pile_in_options reads them first
                geo.is_engaged(ctx, u)
            assert (geo.kept_engaged_enemies(ctx, u) is not None) is known
            assert fs.pile_in_options(ctx, u) is plain, u.id
            seen.add((plain, geo.is_engaged(ctx, u), known))
        s.units[0].models[0].x = s.units[0].models[0].x  # a new count: nothing known
    assert {(p, e) for p, e, _ in seen} == {(True, True), (True, False), (False, False)}
    assert (True, True, True) in seen and (True, True, False) in seen
