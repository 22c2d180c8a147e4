"""The twenty-second session's field23 pass: the kept scene (``engine/field.py``) is answered
without reading each unit while ``undo.CHANGES`` (bumped by every unit field set and every
in-place change of a unit's flags or model list) and the units list are unchanged. The kept
scene equals the state's units after random changes of every kind the scene reads, made
without placing a model (the same placement count), each followed by one or two questions."""

from __future__ import annotations

import random
from typing import cast

from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.state import PLACEMENT, ModelData, UnitData
from w40k.engine.undo import CHANGES
from w40k.io.battle_scale import scaled_position

_FLAGS = ("ranged_attacks_this_turn", "ranged_attacks_last_turn")


def _plain(game: Game) -> list[tuple[object, ...]]:
    """What the scene shows of each unit with living models, made afresh from the state."""
    return [(u.id, u.player, tuple((m.id, m.x, m.y, m.z, m.facing) for m in u.alive),
             bool(u.flag(_FLAGS[0]) or u.flag(_FLAGS[1])), u.attached)
            for u in game.state.units if not u.destroyed]


def _kept(game: Game) -> list[tuple[object, ...]]:
    sc = geo.scene(cast(Context, game))
    return [(x.name, x.player, tuple((m.name, m.x, m.y, m.z, m.facing) for m in x.models),
             bool(x.ranged_attacks_recently), x.attached) for x in sc.units]


def _change_flags(u: UnitData, rng: random.Random) -> None:
    """13.09's flags changed in place by each of the dict's mutators."""
    name = rng.choice(_FLAGS)
    how = rng.randrange(7)
    if how == 0:
        u.flags[name] = not u.flag(name)
    elif how == 1:
        u.flags.pop(name, None)
    elif how == 2:
        u.flags.update({name: not u.flag(name)})
    elif how == 3:
        u.flags.setdefault(name, True)
    elif how == 4:
        u.flags |= {name: not u.flag(name)}
    elif how == 5:
        u.flags.clear()
    elif name in u.flags:
        del u.flags[name]


def test_kept_scene_follows_every_change_at_one_placement_count() -> None:
    """13.09: flags set, cleared and removed by every mutator, a new flags dict, the
    attachment, a model list shortened, grown or replaced, the units list reordered or a unit
    swapped for another game's (the same length): each is seen at the same placement count;
    with nothing changed the very same scene comes back (the fast path)."""
    game = Game.new(scaled_position(2), 3)
    s = game.state
    rng = random.Random(23)
    spare: list[ModelData] = []
    same = 0
    for step in range(400):
        units = s.units
        u = rng.choice(units)
        count = PLACEMENT.count
        kind = rng.random()
        if kind < 0.35:
            _change_flags(u, rng)
        elif kind < 0.4:
            u.flags = {_FLAGS[0]: rng.random() < 0.5}
        elif kind < 0.5:
            u.attached = not u.attached
        elif kind < 0.55 and len(u.models) > 1:
            spare.append(u.models.pop())
        elif kind < 0.6 and spare:
            u.models.append(spare.pop())
        elif kind < 0.65 and len(u.models) > 1:
            u.models = list(u.models[1:])
        elif kind < 0.7:  # the same units in another order
            units.reverse()
        elif kind < 0.75:
            i, j = rng.randrange(len(units)), rng.randrange(len(units))
            units[i], units[j] = units[j], units[i]
        elif kind < 0.8:
            other = Game.new(scaled_position(2), 3).state.units[0]
            i = rng.randrange(len(units))
            units[i] = other  # another unit object in its place: the same length
        elif kind < 0.85:
            m = rng.choice(u.models)
            m.x = min(43.0, max(1.0, m.x + rng.uniform(-1.0, 1.0)))
        if PLACEMENT.count == count:
            changes = CHANGES.count
            first = geo.scene(cast(Context, game))
            assert _kept(game) == _plain(game), step
            if CHANGES.count == changes:
                assert geo.scene(cast(Context, game)) is first
                same += 1
        else:
            assert _kept(game) == _plain(game), step
    assert same > 200
