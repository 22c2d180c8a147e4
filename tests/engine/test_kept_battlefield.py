"""The engine's kept battlefield model (engine/field.py) is only a cache: at every decision of
seeded games its engagement, coherency and scene answers equal freshly computed ones, it
follows moves and removals, and a saved, loaded or cloned game answers the same."""

from __future__ import annotations

import json
import math

import pytest

from tests.engine.core_helpers import plain_shape, play_checking
from w40k.agents.greedy import GreedyAgent
from w40k.engine import field, geo
from w40k.engine.game import Game
from w40k.engine.state import UnitData
from w40k.geometry import engaged, in_coherency
from w40k.io.battle_scale import scaled_position


def _plain_engaged(a: UnitData, b: UnitData) -> bool:
    return any(engaged(plain_shape(x), plain_shape(y)) for x in a.alive for y in b.alive)


def _check(game: Game) -> None:
    units = [u for u in game.state.units if not u.destroyed]
    for a in units:
        # R03.03-a, R03.03-b: coherency of the living models
        assert geo.unit_in_coherency(game, a) == in_coherency([plain_shape(m) for m in a.alive])
        assert [s.name for s in geo.unit_shapes(a)] == [m.id for m in a.alive]
        assert [(s.x, s.y, s.z, s.facing) for s in geo.unit_shapes(a)] == [
            (m.x, m.y, m.z, m.facing) for m in a.alive]
        for b in units:
            if b.player != a.player:
                # R03.04-a: engaged while a model is within 2"/5" of an enemy model
                assert geo.units_engaged(a, b) == _plain_engaged(a, b), (a.id, b.id)
    scene_units = {u.name: [(m.name, m.x, m.y, m.z) for m in u.models]
                   for u in geo.scene(game).units}
    assert scene_units == {u.id: [(m.id, m.x, m.y, m.z) for m in u.alive] for u in units}


@pytest.mark.parametrize(("seed", "agent", "scale"),
                         [(1, "greedy", 1), (2, "random", 1), (3, "greedy", 2)])
def test_the_kept_answers_equal_fresh_answers_at_every_decision(seed: int, agent: str,
                                                                 scale: int) -> None:
    play_checking(scale, seed, agent, _check, agent_seed=7, limit=400)


def test_a_moved_or_removed_model_is_seen_at_its_new_place() -> None:
    game = Game.new(scaled_position(1), 5)
    red = next(u for u in game.state.units if u.player == "red")
    blue = next(u for u in game.state.units if u.player == "blue")
    assert not geo.units_engaged(red, blue)
    m = red.alive[0]
    target = blue.alive[0]
    m.x, m.y = target.x, target.y - 3.6  # 1.84" in front of the second row
    assert geo.units_engaged(red, blue) == _plain_engaged(red, blue) is True
    before = geo.model_shape(m)
    m.y = target.y - 8.0
    assert geo.model_shape(m) is not before and geo.model_shape(m).y == m.y
    assert geo.units_engaged(red, blue) == _plain_engaged(red, blue) is False
    m.y = target.y - 3.6
    assert geo.units_engaged(red, blue) is True
    for b in blue.alive:
        b.destroyed = True
    assert geo.units_engaged(red, blue) == _plain_engaged(red, blue) is False


def test_a_units_layout_and_pair_answers_outlive_another_units_move() -> None:
    # R03.04-a: engagement is measured again only for the units whose models moved; a model
    # moved and put back, or another unit's move, keeps the same layout and answer
    game = Game.new(scaled_position(1), 5)
    red = next(u for u in game.state.units if u.player == "red")
    blue = next(u for u in game.state.units if u.player == "blue")
    other = next(u for u in game.state.units if u is not red and u is not blue)
    lay_red, lay_blue = field.layout(red), field.layout(blue)
    assert geo.units_engaged(red, blue) is False
    m = other.alive[0]
    m.x += 1.0  # another unit moves: the placement count goes up
    assert field.layout(red) is lay_red and field.layout(blue) is lay_blue
    assert geo.units_engaged(red, blue) == _plain_engaged(red, blue) is False
    r = red.alive[0]
    x, y = r.x, r.y
    target = blue.alive[0]
    r.x, r.y = target.x, target.y - 3.6  # now engaged: red's layout is made again
    assert field.layout(red) is not lay_red and field.layout(blue) is lay_blue
    assert geo.units_engaged(red, blue) == _plain_engaged(red, blue) is True
    assert any(geo.models_engaged(red, blue))
    r.x, r.y = x, y  # put back: the same values as the first layout, but a new object
    assert geo.units_engaged(red, blue) == _plain_engaged(red, blue) is False
    assert not any(geo.models_engaged(red, blue))
    r.destroyed = True  # a removal is seen too
    assert [s.name for s in field.layout(red).models] == [q.id for q in red.alive]


def test_save_load_and_clone_answer_as_the_original() -> None:
    game = Game.new(scaled_position(2), 11)
    agents = {p.name: GreedyAgent(i) for i, p in enumerate(game.state.players)}
    for _ in range(120):
        req = game.pending()
        if req is None:
            break
        game.submit(agents[req.player].choose(game, req))
    loaded = Game.load(json.loads(json.dumps(game.save())))
    clone = game.clone()
    field.forget()
    for g in (loaded, clone):
        _check(g)
        assert json.dumps(g.save(), sort_keys=True) == json.dumps(game.save(), sort_keys=True)
        for a, b in zip(g.state.units, game.state.units, strict=True):
            for c, d in zip(g.state.units, game.state.units, strict=True):
                if a.player != c.player and not a.destroyed and not c.destroyed:
                    assert geo.units_engaged(a, c) == geo.units_engaged(b, d)


def test_kept_unit_distances_follow_moves_and_removals() -> None:
    # R01.04-a: the distance between two units is between their closest models; the kept
    # answer of units_within (Fire Overwatch's 24", charge and melee reaches) is the plain one
    from w40k.engine.phases.melee_moves import unit_distance, units_within
    game = Game.new(scaled_position(1), 5)
    red = next(u for u in game.state.units if u.player == "red")
    blue = next(u for u in game.state.units if u.player == "blue")

    def plain() -> float:
        return unit_distance(geo.unit_shapes(red), geo.unit_shapes(blue))

    d = plain()
    assert units_within(red, blue, d) and not units_within(red, blue, d - 0.01)
    m = red.alive[0]
    m.y += 4.0 if m.y < blue.alive[0].y else -4.0  # toward the enemy
    assert plain() < d
    assert units_within(red, blue, plain()) and not units_within(red, blue, plain() - 0.01)
    for b in blue.alive[1:]:
        b.destroyed = True
    assert units_within(red, blue, plain()) and not units_within(red, blue, plain() - 0.01)


def test_base_contact_with_an_enemy_measures_only_near_models_and_answers_as_the_plain_scan(
) -> None:
    # R12.03-c (base contact with an enemy model: footprints within 0.5 mm): the disc-gap
    # filter changes no answer
    from w40k.engine.phases.melee_moves import base_contact_enemy
    from w40k.geometry.measure import in_base_contact
    game = Game.new(scaled_position(1), 5)
    red = next(u for u in game.state.units if u.player == "red")
    blue = next(u for u in game.state.units if u.player == "blue")
    m, t = red.alive[0], blue.alive[0]

    def plain() -> bool:
        shape = geo.model_shape(m)
        return any(in_base_contact(shape, geo.model_shape(o)) for e in game.state.units
                   if e.player != red.player and not e.destroyed for o in e.alive)

    touching = geo.model_shape(m).reach() + geo.model_shape(t).reach()
    answers = []
    for k in range(8):
        a = k * math.pi / 4
        for gap in (0.0, 0.01, 0.019, 0.03, 0.5, 5.0):
            m.x = t.x + (touching + gap) * math.cos(a)
            m.y = t.y + (touching + gap) * math.sin(a)
            answers.append(base_contact_enemy(game.ctx, red, m))
            assert answers[-1] == plain(), (k, gap)
    assert True in answers and False in answers


def test_the_kept_scene_follows_the_units_flags_and_attachment() -> None:
    # The scene is kept while no model is placed and each unit's attachment, recent ranged
    # attacks and model count are the same: a change of any one of them makes it again.
    game = Game.new(scaled_position(1), 5)
    u = game.state.units[0]
    first = geo.scene(game)
    assert geo.scene(game) is first
    assert not first.unit(u.id).ranged_attacks_recently
    u.flags["ranged_attacks_last_turn"] = True
    second = geo.scene(game)
    assert second is not first and second.unit(u.id).ranged_attacks_recently
    assert geo.scene(game) is second
    u.flags["ranged_attacks_last_turn"] = False
    u.flags["ranged_attacks_this_turn"] = True
    third = geo.scene(game)
    assert third is not second and third.unit(u.id).ranged_attacks_recently
    u.attached = not u.attached
    fourth = geo.scene(game)
    assert fourth is not third and fourth.unit(u.id).attached == u.attached
    assert geo.scene(game) is fourth


def test_a_rebuilt_scene_keeps_the_units_that_did_not_move_and_sees_the_moved_one() -> None:
    # A model placed makes the scene again; a unit whose layout is the same object keeps its
    # geometry unit, the moved unit's is made again at the model's new place (R03.04-a reads it).
    game = Game.new(scaled_position(1), 5)
    mover, still = game.state.units[0], game.state.units[1]
    first = geo.scene(game)
    m = mover.alive[0]
    m.x += 1.0
    second = geo.scene(game)
    assert second is not first
    assert second.unit(still.id) is first.unit(still.id)
    moved = second.unit(mover.id)
    assert moved is not first.unit(mover.id)
    assert [(s.x, s.y) for s in moved.models] == [(q.x, q.y) for q in mover.alive]
    assert moved.abilities == first.unit(mover.id).abilities
    m.destroyed = True
    assert [s.name for s in geo.scene(game).unit(mover.id).models] == [
        q.id for q in mover.alive]
