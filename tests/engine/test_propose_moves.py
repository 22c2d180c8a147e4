"""The proposers' shortcuts (engine/propose_moves.py) only skip candidates the full
validation refuses: on seeded games, every translation ``translation_refused`` skips is
refused by ``check_move``, and ``Occupied.free`` answers as measuring every model; the
melee moves' measuring shortcuts (``melee_moves``) give the same floats and answers."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np
import pytest

from tests.engine.movement_helpers import real_battle_walls
from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.core.errors import IllegalChoice
from w40k.engine import geo
from w40k.engine.game import Game
from w40k.engine.moves import check_move, parse_positions
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.propose_moves import (
    CLEARANCE,
    Occupied,
    occupied_around,
    ring,
    surely_overlapping,
    translation_refused,
)
from w40k.engine.serial import JSON
from w40k.geometry import Model, MoveType, Scene
from w40k.geometry.battlefield import MARGIN, spot_bounds
from w40k.geometry.measure import coherency_breaks, horizontal_distance, separation
from w40k.geometry.movement import _standing, ending_violations, scene_others
from w40k.geometry.shapes import EPS, Circle


@pytest.mark.parametrize("seed", [1, 2])
def test_a_skipped_translation_is_one_the_full_check_refuses(seed: int) -> None:
    # R03.01-f (edge), R03.01-c (ending on a model), R09.05-a (a normal move ends unengaged),
    # R03.01-i / R13.06-g (ending partway through terrain)
    rng = random.Random(seed)
    skipped = 0
    for game in greedy_snapshots(seed):
        for u in [u for u in game.state.units if not u.destroyed]:
            for _ in range(6):
                a, d = rng.uniform(-math.pi, math.pi), rng.uniform(0.5, 12.0)
                dx, dy = d * math.cos(a), d * math.sin(a)
                mt = rng.choice([MoveType.NORMAL, MoveType.ADVANCE, MoveType.CHARGE])
                answer: dict[str, JSON] = {m.id: [[m.x + dx, m.y + dy]] for m in u.alive}
                if not translation_refused(game, u, u.alive, dx, dy, mt):
                    continue
                skipped += 1
                with pytest.raises(IllegalChoice):
                    check_move(game, u, parse_positions(answer), mt, 13.0)
    assert skipped > 0


@pytest.mark.parametrize("seed", [3, 4])
def test_occupied_free_answers_as_measuring_every_model(seed: int) -> None:
    rng = random.Random(seed)
    for game in greedy_snapshots(seed):
        _, ter = geo.terrain(game)
        shapes = [s for u in game.state.units if not u.destroyed for s in geo.unit_shapes(u)]
        occupied = Occupied(shapes[:-3])
        for s in shapes[-3:]:
            occupied.append(s)
        for _ in range(60):
            s = rng.choice(shapes)
            cand = s.moved(s.x + rng.uniform(-3, 3), s.y + rng.uniform(-3, 3))
            plain = (all(separation(cand.footprint(), p.footprint()) > CLEARANCE
                         for p in shapes) and not ending_violations(ter, cand))
            assert occupied.free(cand, ter) == plain


def test_ring_bearings_are_the_formulas_floats() -> None:
    # ``ring`` keeps its bearing offsets per n: the same spots, bit for bit, as computing
    # ``base + (k + 1) // 2 * (+-1) * 2 * pi / n`` for each bearing.
    rng = random.Random(5)
    for _ in range(2000):
        cx, cy, dist = rng.uniform(0, 60), rng.uniform(0, 44), rng.uniform(0, 5)
        base, n = rng.uniform(-7, 7), rng.choice([8, 12, 24])
        plain = []
        for k in range(n):
            a = base + (k + 1) // 2 * (1 if k % 2 else -1) * 2 * math.pi / n
            plain.append((cx + dist * math.cos(a), cy + dist * math.sin(a)))
        assert ring(cx, cy, dist, base, n) == plain


@pytest.mark.parametrize("seed", [1, 2])
def test_unit_distances_are_the_minimum_over_every_pair(seed: int) -> None:
    # 01.04: the closest distance between a model and a unit, and between two units, as the
    # minimum of ``horizontal_distance`` over every pair (the same float; the shortcut
    # measures the pairs nearest by bounding discs first).
    rng = random.Random(seed)
    for game in greedy_snapshots(seed):
        units = [u for u in game.state.units if not u.destroyed]
        for a in units:
            for b in units:
                assert mm_._shapes_distance(a, b) == mm_.unit_distance(
                    geo.unit_shapes(a), geo.unit_shapes(b))
            s = rng.choice(geo.unit_shapes(a))
            m = s.moved(s.x + rng.uniform(-4, 4), s.y + rng.uniform(-4, 4))
            for b in units:
                assert mm_.model_to_unit(m, b) == mm_.unit_distance([m], geo.unit_shapes(b))


@pytest.mark.parametrize("seed", [3, 4])
def test_a_lonely_end_is_refused_as_coherency_breaks_refuses_it(seed: int) -> None:
    # R03.03-a: ``surely_refused`` refuses an end with no other model of the unit within 2"
    # before measuring coherency; ``coherency_breaks`` breaks there too.
    rng = random.Random(seed)
    lonely = 0
    for game in greedy_snapshots(seed):
        scene = geo.scene(game)
        for u in [u for u in game.state.units if not u.destroyed and len(u.alive) > 1]:
            s = rng.choice(geo.unit_shapes(u))
            for _ in range(8):
                end = s.moved(s.x + rng.uniform(-6, 6), s.y + rng.uniform(-6, 6))
                placed = [end if o.name == s.name else o for o in geo.unit_shapes(u)]
                if all(horizontal_distance(end, o) > 2.0 for o in placed if o.name != s.name):
                    lonely += 1
                    assert coherency_breaks(placed)
                    assert mm_.surely_refused(scene, u.id, s.name, end)
    assert lonely > 0


@pytest.mark.parametrize("seed", [3, 4])
def test_occupied_taken_answers_as_spot_bounds_over_the_near_models(seed: int) -> None:
    # 03.01 Ending a Move: ``Occupied.taken`` keeps each model's centre and inner radius;
    # its answers are ``battlefield.spot_bounds``' over the models near the start.
    rng = random.Random(seed)
    for game in greedy_snapshots(seed):
        shapes = [s for u in game.state.units if not u.destroyed for s in geo.unit_shapes(u)]
        occupied = Occupied(shapes[:-2])
        for s in shapes[-2:]:
            occupied.append(s)
        for _ in range(20):
            start = rng.choice(shapes)
            spots = [(start.x + rng.uniform(-3, 3), start.y + rng.uniform(-3, 3))
                     for _ in range(30)]
            reach = 4.0 + start.reach() + 1.0
            near = [o for o in shapes
                    if math.hypot(o.x - start.x, o.y - start.y) <= reach + o.reach()]
            _, upper = spot_bounds(start, np.asarray(spots, dtype=np.float64), near)
            plain = (upper <= CLEARANCE - MARGIN).any(axis=1).tolist()
            assert occupied.taken(start, spots, 4.0) == plain
            assert any(plain)


@pytest.mark.parametrize("seed", [3])
def test_the_kept_occupied_answers_as_one_built_again(seed: int) -> None:
    # 03.01 Ending a Move: ``occupied_around`` copies the kept ``Occupied`` of the other
    # units' models; a copy appended to leaves the kept one as it was.
    rng = random.Random(seed)
    for game in greedy_snapshots(seed):
        _, ter = geo.terrain(game)
        for u in [u for u in game.state.units if not u.destroyed][:3]:
            fresh = Occupied(s for e in game.state.units if e.id != u.id and not e.destroyed
                             for s in geo.unit_shapes(e))
            kept = occupied_around(game.ctx, u)
            assert [id(m) for m in kept.models] == [id(m) for m in fresh.models]
            kept.append(geo.unit_shapes(u)[0])
            again = occupied_around(game.ctx, u)
            assert len(again.models) == len(fresh.models)
            # shared (pile_in_propose measures against it only): the kept one itself
            shared = occupied_around(game.ctx, u, shared=True)
            assert shared is occupied_around(game.ctx, u, shared=True)
            assert shared is not again and shared.models == again.models
            for _ in range(20):
                s = rng.choice(fresh.models)
                cand = s.moved(s.x + rng.uniform(-3, 3), s.y + rng.uniform(-3, 3))
                assert again.free(cand, ter) == fresh.free(cand, ter)
                spots = [(cand.x, cand.y), (s.x, s.y)]
                assert again.taken(s, spots, 4.0) == fresh.taken(s, spots, 4.0)


@pytest.mark.parametrize("seed", [1])
def test_a_kept_base_contact_answer_is_the_measured_one(seed: int) -> None:
    # R12.03-c: in base contact with an enemy model, kept while no model is placed; so is
    # a model's distance to a unit (R12.03-d's closest target).
    for game in greedy_snapshots(seed):
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            for m in u.alive:
                s = geo.model_shape(m)
                for e in units[:4]:
                    plain = mm_.unit_distance([s], geo.unit_shapes(e))
                    assert mm_.model_to_unit(s, e) == plain == mm_.model_to_unit(s, e)
                    eng = mm_.Group.of_unit(e).engaged_any(s)
                    assert mm_.engaged_with_unit(s, e) == eng == mm_.engaged_with_unit(s, e)
                assert mm_.base_contact_enemy(game.ctx, u, m) == \
                    mm_._base_contact_enemy(game.ctx, u, m)
                assert mm_.base_contact_enemy(game.ctx, u, m) == \
                    mm_._base_contact_enemy(game.ctx, u, m)


def _plain_target_spots(start: Model, tshapes: Sequence[Model], budget: float, jitter: float
                        ) -> list[tuple[float, float]]:
    """The pile-in target spots built spot by spot (the reference of ``_target_chunks``)."""
    from w40k.engine.phases import pile_in_propose as pp
    near = sorted(tshapes, key=lambda t: horizontal_distance(start, t))[:pp.NEAREST]
    near = [t for t in near if horizontal_distance(start, t) <= budget + 2.0 + mm_.EPS]
    rings = [pp._contact_ring(start, t, math.atan2(start.y - t.y, start.x - t.x) + jitter)
             for t in near]
    spots = [(x + g * c, y + g * s) for g in pp.TARGET_GAPS for ring in rings
             for x, y, c, s in ring]
    spots = pp._reachable(start, spots, budget)
    t0 = min(tshapes, key=lambda t: horizontal_distance(start, t))
    dist = math.hypot(t0.x - start.x, t0.y - start.y)
    if dist > 0:
        k = min(1.0, (budget - pp.SLACK) / dist)
        spots += [(start.x + f * k * (t0.x - start.x), start.y + f * k * (t0.y - start.y))
                  for f in pp.STRAIGHT]
    return spots


@pytest.mark.parametrize("seed", [2])
def test_the_pile_in_target_chunks_are_the_target_spots(seed: int) -> None:
    # R12.03-d: the pile-in proposer's candidate spots, built for every gap at once, are
    # the same floats in the same order as built spot by spot.
    from w40k.engine.phases import pile_in_propose as pp
    rng = random.Random(seed)
    seen = 0
    for game in greedy_snapshots(seed):
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            enemies = [e for e in units if e.player != u.player]
            for m in u.alive[:3]:
                start = geo.model_shape(m)
                t = min(enemies, key=lambda e: mm_.model_to_unit(start, e))
                budget = rng.choice([3.0, 6.0, 12.0])
                jitter = rng.uniform(-0.2, 0.2)
                tshapes = geo.unit_shapes(t)
                joined = [(x, y) for c in pp._target_chunks(start, tshapes, budget, jitter)
                          for x, y in c.tolist()]
                assert joined == _plain_target_spots(start, tshapes, budget, jitter)
                seen += len(joined) > 3
    assert seen > 0


@pytest.mark.parametrize("seed", [1, 2])
def test_a_path_through_an_enemy_model_is_one_validate_move_refuses_R03_01_d(seed: int) -> None:
    # R03.01-d: a charge, pile-in or consolidation may not move through an enemy model; the
    # proposers' pretest says so only where validate_move refuses it for that rule.
    from w40k.engine.propose_moves import through_enemy
    from w40k.geometry.movement import Step, validate_move
    rng = random.Random(seed)
    refused = 0
    for game in greedy_snapshots(seed):
        scene = geo.scene(game.ctx)
        for u in [u for u in game.state.units if not u.destroyed]:
            enemies = [s for e in game.state.units if e.player != u.player and not e.destroyed
                       for s in geo.unit_shapes(e)]
            for start in geo.unit_shapes(u)[:3]:
                for _ in range(8):
                    mt = rng.choice([MoveType.CHARGE, MoveType.PILE_IN, MoveType.CONSOLIDATE])
                    o = rng.choice(enemies) if enemies and rng.random() < 0.5 else start
                    x, y = o.x + rng.uniform(-4, 4), o.y + rng.uniform(-4, 4)
                    if not through_enemy(scene, u.id, u.player, start, x, y, mt):
                        continue
                    refused += 1
                    rules = {v.rule for v in validate_move(
                        scene, u.id, {start.name: [Step(x, y)]}, mt, 40.0)}
                    assert "R03.01-d" in rules
    assert refused > 0


@pytest.mark.parametrize("seed", [1])
def test_a_path_through_terrain_is_one_validate_move_refuses_R13_06_c(seed: int) -> None:
    # R13.06-c: a model that is not INFANTRY, BEASTS or SWARM may not move through a dense
    # feature; the chain proposer's pretest says so only where validate_move refuses it.
    from w40k.engine.propose_moves import through_terrain
    from w40k.geometry.movement import Step, validate_move
    from w40k.io.battle_setup import real_battle_position
    rng = random.Random(seed)
    refused = 0
    for game in [Game.new(real_battle_position(), seed)]:
        scene = geo.scene(game.ctx)
        for u in [u for u in game.state.units if not u.destroyed]:
            for start in geo.unit_shapes(u)[:2]:
                for _ in range(60):
                    x, y = start.x + rng.uniform(-12, 12), start.y + rng.uniform(-12, 12)
                    if not through_terrain(scene, u.id, start, x, y, MoveType.CHARGE):
                        continue
                    refused += 1
                    rules = {v.rule for v in validate_move(
                        scene, u.id, {start.name: [Step(x, y)]}, MoveType.CHARGE, 40.0)}
                    assert rules & {"R13.06-c", "R24.35-a"}
    assert refused > 0


def test_rings_built_from_shared_bearings_are_ring_s_floats() -> None:
    # The charge chain's rings of several radii around one model share the bearings' cosines
    # and sines: the same spots, float for float, as ring().
    from w40k.engine.propose_moves import bearings
    rng = random.Random(5)
    for _ in range(50):
        cx, cy, base = rng.uniform(0, 44), rng.uniform(0, 60), rng.uniform(-7, 7)
        n = rng.choice([12, 24, 48])
        cs = bearings(base, n)
        for d in (rng.uniform(0.5, 3), rng.uniform(0.5, 3)):
            assert [(cx + d * c, cy + d * s) for c, s in cs] == ring(cx, cy, d, base, n)


@pytest.mark.parametrize("seed", [3, 4])
def test_taken_one_spot_at_a_time_answers_as_taken_R03_01_c(seed: int) -> None:
    # R03.01-c: ``Occupied.taken_test`` (the greedy move's spots, tried in order) is
    # ``Occupied.taken`` spot by spot: the same near models, the same floats.
    rng = random.Random(seed)
    hits = 0
    hull = ((-2.0, -1.0), (2.0, -1.0), (2.5, 0.0), (2.0, 1.0), (-2.0, 1.0))
    for game in greedy_snapshots(seed):
        shapes = [s for u in game.state.units if not u.destroyed for s in geo.unit_shapes(u)]
        s0 = shapes[0]  # an oval and a hull among them, moving and placed
        shapes += [Model("oval", s0.x + 1.5, s0.y, base_mm=(90.0, 52.0)),
                   Model("hull", s0.x, s0.y + 2.0, base_mm=None, height=3.0, hull=hull)]
        occupied = Occupied(shapes)
        for _ in range(30):
            start = rng.choice([*shapes, *shapes[-2:] * 5])
            budget = rng.choice([0.5, 3.0, 8.0])
            spots = [(start.x + rng.uniform(-budget, budget),
                      start.y + rng.uniform(-budget, budget)) for _ in range(40)]
            spots += [(s.x, s.y) for s in rng.sample(shapes, 5)]  # on a model
            whole = occupied.taken(start, spots, budget)
            one = occupied.taken_test(start, budget)
            assert [one(x, y) for x, y in spots] == whole
            hits += sum(whole)
    assert hits
    assert not any(Occupied(()).taken_test(shapes[0], 3.0)(x, y) for x, y in spots)


def _plain_overlapping(scene: Scene, unit: str, mid: str, start: Model,
                       spots: Sequence[tuple[float, float]]) -> list[bool]:
    """``surely_overlapping`` of a round ``start`` as it was written: every round model of
    the scene (its unit's others and every other unit's) measured."""
    fp = start.footprint()
    assert isinstance(fp, Circle)
    rows = [(f.cx, f.cy, f.r) for gu in scene.units for m in gu.models
            for f in [m.footprint()]
            if m.name != mid and type(f) is Circle and not start.top <= m.z + EPS
            and not m.top <= start.z + EPS]
    if not rows:
        return [False] * len(spots)
    c = np.array(rows, dtype=np.float64)
    pts = np.asarray(spots, dtype=np.float64)
    dx = pts[:, 0, None] + (fp.cx - start.x) - c[None, :, 0]
    dy = pts[:, 1, None] + (fp.cy - start.y) - c[None, :, 1]
    sep = np.sqrt(dx * dx + dy * dy) - fp.r - c[None, :, 2]
    return np.asarray((sep < -1e-6 - MARGIN).any(axis=1)).tolist()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_scene_with_the_unit_moved_shares_the_others_and_overlaps_as_measured_R03_01_c(
        seed: int) -> None:
    # R03.01-c: ``melee_moves._scene_with`` enters the base scene's list and discs of the
    # other units' models as its own (the same models in the same order as building them),
    # with a table of standing engagements of its own; ``surely_overlapping`` keeps the
    # other models' round rows per list and answers as measuring every model.
    rng = random.Random(seed)
    hits = 0
    for game in greedy_snapshots(seed):
        base = geo.scene(game.ctx)
        for u in [u for u in game.state.units if not u.destroyed]:
            shapes = {m.id: geo.model_shape(m) for m in u.alive}
            finals = {k: s.moved(s.x + rng.uniform(-2, 2), s.y + rng.uniform(-2, 2))
                      for k, s in shapes.items()}
            mid = rng.choice(sorted(shapes))
            scene = mm_._scene_with(game.ctx, u, finals, keep=mid)
            others, discs = scene_others(scene, u.id, u.player)
            assert others == [(e.player == u.player, m) for e in scene.units
                              if e.name != u.id for m in e.models]
            assert np.array_equal(discs.xs, np.array([m.x for _, m in others]))
            assert np.array_equal(discs.rs, np.array([m.reach() for _, m in others]))
            assert _standing(scene, u.id) is not _standing(base, u.id)
            start = shapes[mid]
            if not isinstance(start.footprint(), Circle):
                continue
            spots = [(start.x + rng.uniform(-4, 4), start.y + rng.uniform(-4, 4))
                     for _ in range(40)]
            for sc in (scene, base):
                got = surely_overlapping(sc, u.id, mid, start, spots)
                assert got == _plain_overlapping(sc, u.id, mid, start, spots)
                hits += sum(got)
    assert hits


@pytest.mark.parametrize("seed", [1, 2])
def test_spots_screened_as_walled_are_refused_by_through_terrain_R13_06_c(seed: int) -> None:
    # R13.06-c: terrain_crossed (every spot of the charge chain at once) answers as
    # through_terrain spot by spot for a round base (its own disc and segment tests,
    # elementwise): round VEHICLE and MONSTER models at random points of the real battle's
    # terrain (some against or within a wall), INFANTRY (passes every feature), ovals (not
    # screened: all False).
    from w40k.engine.propose_moves import terrain_crossed, through_terrain
    rng = random.Random(seed)
    scene, uid, walls = real_battle_walls(seed)
    crossed = kept = 0
    for n in range(120):
        if n % 3 == 0:  # next to (or on) a wall
            ol = rng.choice(walls)
            x, y = rng.uniform(ol.x0 - 1.5, ol.x1 + 1.5), rng.uniform(ol.y0 - 1.5, ol.y1 + 1.5)
        else:
            x, y = rng.uniform(2.0, 42.0), rng.uniform(2.0, 58.0)
        kind = rng.choice(["VEHICLE", "MONSTER", "INFANTRY", "oval"])
        start = Model("m", x, y, base_mm=(90.0, 52.0) if kind == "oval"
                      else rng.choice([25.0, 60.0, 90.0]), height=4.0,
                      keywords=frozenset({"VEHICLE" if kind == "oval" else kind}))
        reach = rng.choice([1.0, 6.0, 12.0])
        pts = np.array([(x + rng.uniform(-reach, reach), y + rng.uniform(-reach, reach))
                        for _ in range(60)] + [(x, y)], dtype=np.float64)
        got = terrain_crossed(scene, uid, start, pts, MoveType.CHARGE).tolist()
        want = [through_terrain(scene, uid, start, px, py, MoveType.CHARGE)
                for px, py in pts.tolist()]
        if kind == "oval":
            assert not any(got)
        else:
            assert got == want
        crossed += sum(got)
        kept += sum(w and not g for g, w in zip(got, want, strict=True))
    assert crossed > 100  # walls met
    assert kept > 0  # the ovals' refusals, left to through_terrain
