"""The twenty-second session's field23 pass: the engaged-enemy walks (``engine/field.py``)
skip the enemies none of whose models was set since the last walk, read from the log of the
models set (``state._Placement.log``, :func:`field.placed_since`). The log's answer equals
the models' own stamps, and every unit's kept engaged enemies equal the plain model-by-model
answer (R03.04-a) through random moves, put-backs, removals and revivals, restores, count
bumps without a model, reordered and replaced models, a unit handed to the other player, a
grown list and an emptied log."""

from __future__ import annotations

import copy
import random
from typing import cast

import pytest

from tests.engine.core_helpers import plain_enemies
from w40k.core import kept
from w40k.engine import field, geo
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.state import PLACEMENT, GameState, ModelData
from w40k.io.battle_scale import scaled_position


def _crowd(game: Game, rng: random.Random) -> None:
    """Every unit's models near the table's middle, so that many pairs are engaged."""
    for u in game.state.units:
        cx, cy = rng.uniform(20.0, 30.0), rng.uniform(20.0, 26.0)
        for m in u.models:
            m.x, m.y = cx + rng.uniform(-2.0, 2.0), cy + rng.uniform(-2.0, 2.0)


def _models(s: GameState) -> list[ModelData]:
    return [m for u in s.units for m in u.models]


def test_placed_since_equals_the_models_stamps() -> None:
    """The ids :func:`field.placed_since` gives for a count are those of the game's models
    set after it (their ``placed_at`` stamps), or None (not known: a restore since, too far
    back, an emptied log); a count bumped without a model only adds earlier models."""
    game = Game.new(scaled_position(1), 5)
    s = game.state
    rng = random.Random(23)
    marks: list[int] = [PLACEMENT.count]
    bumped = False
    answered = 0
    for _ in range(400):
        kind = rng.random()
        models = _models(s)
        if kind < 0.6:
            m = rng.choice(models)
            setattr(m, rng.choice(("x", "y", "z", "facing", "destroyed")),
                    rng.choice((m.x, m.x + 0.5)) if rng.random() < 0.5 else m.destroyed)
        elif kind < 0.65:
            cp = s.checkpoint()
            rng.choice(models).x += 1.0
            s.restore(cp)
        elif kind < 0.7:
            PLACEMENT.count += 1  # another game's model set (not logged here)
            bumped = True
        elif kind < 0.72:
            kept.forget()  # a new game: the log is emptied
        marks.append(PLACEMENT.count)
        for then in rng.sample(marks, min(len(marks), 5)):
            got = field.placed_since(then)
            want = {id(m) for m in models if m.placed_at > then}
            if got is None:
                continue
            answered += 1
            assert then >= PLACEMENT.restored
            mine = got & {id(m) for m in models}
            if bumped:
                assert mine >= want
            else:
                assert mine == want
    assert answered > 300


def test_an_emptied_or_far_log_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``LOG_LIMIT`` models the log is emptied and counts before it are unknown (None);
    so are counts more than ``SINCE_LIMIT`` back."""
    game = Game.new(scaled_position(1), 5)
    m = game.state.units[0].models[0]
    monkeypatch.setattr(field, "LOG_LIMIT", 8)
    then = PLACEMENT.count
    for _ in range(10):
        m.x = m.x
    assert field.placed_since(then) == {id(m)}  # read, then emptied (over 8)
    assert field.placed_since(then) == {id(m)}  # the same counts: the kept answer
    m.y = m.y
    assert field.placed_since(then) is None
    later = PLACEMENT.count
    assert field.placed_since(later) == set()
    monkeypatch.setattr(field, "SINCE_LIMIT", 3)
    for _ in range(4):
        m.x = m.x
    assert field.placed_since(later) is None


def _check_all(game: Game) -> None:
    ctx = cast(Context, game)
    for u in game.state.units:
        want = plain_enemies(game, u)
        assert [e.id for e in geo.engaged_enemies(ctx, u)] == want, u.id
        assert geo.is_engaged(ctx, u) is bool(want), u.id


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_walks_skip_unmoved_enemies_with_the_plain_answers(seed: int) -> None:
    """R03.04-a: at each step some units change (moves, put-backs, removals, revivals, a
    restore, a count bumped without a model, the models reordered, one replaced by a copy or
    by another unit's model); the units asked (some of them, so that walks read entries of
    several counts back) get the plain answer, and most enemies were skipped."""
    game = Game.new(scaled_position(2), seed)
    s = game.state
    rng = random.Random(100 + seed)
    _crowd(game, rng)
    units = s.units
    calls = {"layout": 0}
    plain_layout = field.layout

    def counting(u: object) -> object:
        calls["layout"] += 1
        return plain_layout(u)  # type: ignore[arg-type]

    walked = 0
    for step in range(150):
        ctx = cast(Context, game)
        field.layout = counting  # type: ignore[assignment]
        try:
            for u in rng.sample(units, rng.randint(1, len(units))):
                walked += 1
                assert [e.id for e in geo.engaged_enemies(ctx, u)] == plain_enemies(game, u), \
                    (step, u.id)
        finally:
            field.layout = plain_layout  # type: ignore[assignment]
        kind = rng.random()
        if kind < 0.35:
            for u in rng.sample(units, rng.randint(1, 2)):
                for m in rng.sample(u.models, rng.randint(1, len(u.models))):
                    m.x = min(43.0, max(1.0, m.x + rng.uniform(-1.5, 1.5)))
        elif kind < 0.45:  # moved and put back: new counts, the same places
            m = rng.choice(_models(s))
            x = m.x
            m.x = x + 5.0
            m.x = x
        elif kind < 0.55:  # removed, or brought back
            m = rng.choice(_models(s))
            m.destroyed = not m.destroyed
        elif kind < 0.62:  # moved, then put back by a restore
            cp = s.checkpoint()
            m = rng.choice(_models(s))
            m.x += 3.0
            geo.engaged_enemies(ctx, rng.choice(units))
            s.restore(cp)
        elif kind < 0.68:
            PLACEMENT.count += 1  # another game's model set
        elif kind < 0.74:  # the same models in another order (a new count, nothing set)
            u = rng.choice(units)
            u.models.reverse()
            PLACEMENT.count += 1
        elif kind < 0.80:  # a model replaced by an equal copy, or by another unit's model
            u, v = rng.sample(units, 2)
            i = rng.randrange(len(u.models))
            if rng.random() < 0.5:
                u.models[i] = copy.copy(u.models[i])
            else:
                u.models[i], v.models[0] = v.models[0], u.models[i]
            units[0].models[0].x = units[0].models[0].x
        elif kind < 0.83:  # a unit handed to the other player, then a new count
            u = rng.choice(units)
            u.player = next(e.player for e in units if e.player != u.player)
            units[0].models[0].y = units[0].models[0].y
        # else: nothing placed, the same count
        if step % 25 == 0:
            _check_all(game)
    _check_all(game)
    # the walks read far fewer layouts than one per enemy asked
    assert calls["layout"] < walked * 4
