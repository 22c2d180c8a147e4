"""12.03 / 12.08, the proposer's side: the engine's pile-in and consolidation answers are built
model by model (``engine/phases/pile_in_propose.py``): models in base contact stay, the others
end closer to their closest target and engaged (in base contact when they can), the unit stays
coherent, and whatever the proposer answers passes ``check_move``."""

from __future__ import annotations

import math
import random

import pytest

from tests.engine.core_helpers import marker
from tests.engine.melee_helpers import BASE, fight_phase, fighter, melee_violations, pending, unit
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.phases.melee_moves import MeleeMoveFrame, parse_positions
from w40k.engine.serial import JSON
from w40k.geometry import engaged
from w40k.geometry.measure import horizontal_distance

FF = {"charged": True, "fights_first": True}


def _u(uid: str, player: str, xs: list[float], y: float, flags: dict[str, bool] | None = None,
       ) -> dict[str, JSON]:
    return unit(uid, player, [fighter(f"{uid}.{i + 1}", x, y) for i, x in enumerate(xs)],
                flags=flags)


def _to_pile_in(units: list[dict[str, JSON]], terrain: dict[str, JSON] | None = None) -> Game:
    """red.a piles in first (the turn player's unit), its targets selected."""
    game = Game.new(fight_phase(units, terrain=terrain), seed=1)
    req = pending(game)
    assert req.kind == "select_unit_to_pile_in" and "red.a" in req.options
    game.submit("red.a")
    req = pending(game)
    if req.kind == "pile_in_targets":
        game.submit(req.options[0])
    assert pending(game).kind == "positions"
    return game


def test_a_charged_unit_piles_in_every_model_engaged_and_in_base_contact_R12_03_d() -> None:
    # R12.03-d: five models 2.5" (edge to edge) from a three-model target; each moved model
    # ends closer to it and engaged, and those facing a target model in base contact.
    red = _u("red.a", "red", [10.0 + 1.5 * i for i in range(5)], 10.0, flags=FF)
    blue = _u("blue.b", "blue", [11.0 + 1.5 * i for i in range(3)], 10.0 + BASE + 2.5)
    game = _to_pile_in([red, blue])
    answer = sample(game, pending(game), random.Random(1))
    assert isinstance(answer, dict) and len(answer) == 5
    assert melee_violations(game, answer) == []
    game.submit(answer)
    from w40k.engine import geo
    targets = geo.unit_shapes(game.state.unit("blue.b"))
    ends = geo.unit_shapes(game.state.unit("red.a"))
    assert all(any(engaged(e, t) for t in targets) for e in ends)
    contact = [e for e in ends if min(horizontal_distance(e, t) for t in targets) < 0.05]
    assert len(contact) >= 3


def test_models_in_base_contact_stay_and_the_others_pile_in_R12_03_c() -> None:
    # R12.03-c: red.a.1 is in base contact with blue.b.1 and is not moved; red.a.2 and
    # red.a.3 (engaged, not in contact) move into base contact.
    red = _u("red.a", "red", [10.0, 11.5, 13.0], 10.0)
    blue = _u("blue.b", "blue", [10.0, 12.0], 10.0 + BASE)
    game = _to_pile_in([red, blue])
    answer = sample(game, pending(game), random.Random(1))
    assert isinstance(answer, dict) and "red.a.1" not in answer and answer
    assert melee_violations(game, answer) == []


def test_a_model_engaged_with_one_unit_stays_engaged_with_it_R12_03_e() -> None:
    # R12.03-e: red.a.1 is engaged with blue.b (1" away) and blue.c is nearer its other side;
    # the answer keeps it engaged with blue.b.
    red = _u("red.a", "red", [20.0, 21.5], 20.0)
    blue_b = _u("blue.b", "blue", [20.0], 20.0 + BASE + 1.0)
    blue_c = _u("blue.c", "blue", [20.0], 20.0 - BASE - 0.6)
    game = _to_pile_in([red, blue_b, blue_c])
    answer = sample(game, pending(game), random.Random(1))
    if answer != "skip":
        assert melee_violations(game, answer) == []
        game.submit(answer)
    from w40k.engine import geo
    end = geo.model_shape(game.state.unit("red.a").alive[0])
    assert any(engaged(end, t) for t in geo.unit_shapes(game.state.unit("blue.b")))


def _wall(x0: float, y0: float, x1: float, y1: float) -> dict[str, JSON]:
    return {"areas": [], "terrain": [
        {"name": "wall", "category": "dense", "area": None,
         "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "height": 3.0}]}


def random_pile_in(rng: random.Random, models: tuple[int, int], cols: int,
                   spacing: tuple[float, float], targets: int, wall: bool) -> Game:
    """A game at a random pile-in: a packed charging unit (``models`` from-to, in 2 to
    ``cols`` columns, ``spacing`` beyond base to base), 1 to ``targets`` enemy models in
    front of it, and a wall across the way when ``wall``."""
    n = rng.randint(*models)
    cols = rng.randint(2, cols)
    step = BASE + rng.uniform(*spacing)
    x0, y0 = rng.uniform(10.0, 30.0), rng.uniform(8.0, 14.0)
    red = unit("red.a", "red", [fighter(f"red.a.{i + 1}", x0 + (i % cols) * step,
                                        y0 - (i // cols) * step, keywords=("MOUNTED",))
                                for i in range(n)], flags=FF)
    tx, ty = x0 + rng.uniform(-3.0, 5.0), y0 + BASE + rng.uniform(0.3, 4.5)
    blue = unit("blue.b", "blue", [fighter(f"blue.b.{i + 1}", tx + i * (BASE + 0.3), ty)
                                   for i in range(rng.randint(1, targets))])
    wx = x0 + rng.uniform(-4.0, 6.0)
    terrain = _wall(wx, y0 + 0.9, wx + rng.uniform(1.0, 5.0), y0 + 1.4) if wall else None
    return _to_pile_in([red, blue], terrain)


@pytest.mark.parametrize("seed", range(10))
def test_the_proposer_s_pile_in_answer_always_passes_check_move(seed: int) -> None:
    # R12.03-c/-d/-e, R03.03-d: random units, targets and walls; the proposer skips or
    # answers a move check_move accepts (and submit applies).
    game = random_pile_in(random.Random(seed), (2, 10), 5, (0.2, 0.9), 4, bool(seed % 2))
    answer = sample(game, pending(game), random.Random(seed))
    assert answer == "skip" or melee_violations(game, answer) == []
    game.submit(answer)


def test_objective_consolidation_is_placed_in_range_of_the_objective_R12_08_d() -> None:
    # R12.08-d: red.a charged, its target is gone; an objective 2.5" away: the proposer's
    # consolidation ends every model it moves within range.
    red = _u("red.a", "red", [10.0, 11.5, 13.0], 10.0, flags=FF)
    blue = _u("blue.b", "blue", [40.0], 40.0)
    obj = marker("o", 11.5, 10 + BASE / 2 + 0.79 + 2.5)
    game = Game.new(fight_phase([red, blue], objectives=[obj]), seed=1)
    while (req := pending(game)).kind != "select_unit_to_consolidate":
        if req.kind == "positions":
            game.submit(str(req.context["decline"]))
        elif req.kind in ("select_unit_to_pile_in",):
            game.submit("done")
        elif req.kind == "pile_in_targets":
            game.submit("skip")
        elif req.kind == "declare_fight":
            game.submit(req.context["default"])
        else:
            game.submit(req.options[0])
    game.submit("red.a")
    game.submit("o")
    req = pending(game)
    assert req.kind == "positions"
    answer = sample(game, req, random.Random(1))
    assert isinstance(answer, dict) and answer
    assert melee_violations(game, answer) == []
    from w40k.engine.phases.melee_moves import in_objective_range
    frame = game.ctx.top
    assert isinstance(frame, MeleeMoveFrame)
    u = game.state.unit("red.a")
    from w40k.engine.phases.melee_moves import finals_of
    finals = finals_of(u, parse_positions(u, answer))
    o = game.state.objectives[0]
    assert all(in_objective_range(game.ctx, finals[mid], o) for mid in answer)


def test_asking_again_for_a_pile_in_no_model_can_make_gives_the_same_answer_and_draws() -> None:
    # R12.03-c: both models of red.a are in base contact with blue.b, so none moves and the
    # proposer declines. Its first search draws from the generator without depending on the
    # draws, so asking again in the same state gives the kept answer after the same draws:
    # the generator ends where searching every time leaves it.
    from w40k.engine.phases import pile_in_propose as pp
    red = _u("red.a", "red", [10.0, 11.5], 10.0)
    blue = _u("blue.b", "blue", [10.0, 11.5], 10.0 + BASE)
    game = _to_pile_in([red, blue])
    pp._FIRST.clear()
    kept, fresh = random.Random(5), random.Random(5)
    assert [sample(game, pending(game), kept) for _ in range(3)] == ["skip"] * 3
    assert [e[2] for e in pp._FIRST.values()] == [1]  # its jitter, drawn again
    for _ in range(3):
        pp._FIRST.clear()
        assert sample(game, pending(game), fresh) == "skip"
    assert kept.getstate() == fresh.getstate()
    assert kept.random() == fresh.random()


def test_asking_again_for_a_pile_in_gives_the_same_moves_and_draws_R12_03_d() -> None:
    # R12.03-d: the first placement's answer (every model closer and engaged) is kept for
    # the same state and frame: asked again, the same moves (a new copy) after the same
    # draws as searching again.
    from w40k.engine.phases import pile_in_propose as pp
    red = _u("red.a", "red", [10.0 + 1.5 * i for i in range(5)], 10.0, flags=FF)
    blue = _u("blue.b", "blue", [11.0 + 1.5 * i for i in range(3)], 10.0 + BASE + 2.5)
    game = _to_pile_in([red, blue])
    frame = game.ctx.top
    assert isinstance(frame, MeleeMoveFrame)
    u = game.state.unit("red.a")
    pp._FIRST.clear()
    kept, fresh = random.Random(7), random.Random(7)
    first = pp.first_toward(game.ctx, u, frame, kept)
    assert first and len(first) == 5
    again = [pp.first_toward(game.ctx, u, frame, kept) for _ in range(2)]
    assert again == [first, first] and again[0] is not again[1]
    for _ in range(3):
        pp._FIRST.clear()
        assert pp.first_toward(game.ctx, u, frame, fresh) == first
    assert kept.getstate() == fresh.getstate()


@pytest.mark.parametrize("start_base, target_base", [
    ((75.0, 42.0), 32.0), (32.0, (105.0, 70.0)), ((90.0, 52.0), (60.0, 35.0))])
def test_an_oval_contact_ring_skips_only_bearings_the_move_cannot_reach(
        start_base: float | tuple[float, float], target_base: float | tuple[float, float]
) -> None:
    # R12.03-d: the pile-in proposer's contact rings around an oval base leave out (NaN) only
    # the bearings none of whose ring spots the 3" move reaches; every other bearing is the
    # same floats as the ring sought on every bearing.
    from w40k.engine.phases import pile_in_propose as pp
    from w40k.geometry import Model
    rng = random.Random(7)
    skipped = kept = 0
    for _ in range(40):
        t = Model("t", 30.0, 20.0, base_mm=target_base, facing=rng.uniform(0, 6.3))
        a = rng.uniform(0, 6.3)
        dist = rng.uniform(2.0, 8.0)
        start = Model("s", 30.0 + dist * math.cos(a), 20.0 + dist * math.sin(a),
                      base_mm=start_base, facing=rng.uniform(0, 6.3))
        base = math.atan2(start.y - t.y, start.x - t.x) + rng.uniform(-0.1, 0.1)
        budget = rng.choice([3.0, 6.0])
        full = pp._touching_ring(start, t, base)
        cut = pp._touching_ring(start, t, base, budget)
        assert len(cut) == len(full)
        for (x, y, c, s), whole in zip(cut, full, strict=True):
            assert (c, s) == whole[2:]
            if math.isnan(x):
                skipped += 1
                assert all(math.hypot(whole[0] + g * c - start.x, whole[1] + g * s - start.y)
                           > budget - pp.SLACK for g in pp.TARGET_GAPS)
            else:
                kept += 1
                assert (x, y, c, s) == whole
    assert skipped > 0 and kept > 0


@pytest.mark.parametrize("seed", [3, 4])
def test_a_round_contact_ring_leaves_out_only_bearings_the_move_cannot_reach(seed: int) -> None:
    # R12.03-d: the pile-in proposer's contact ring around a round base, given the move,
    # is a prefix of the whole ring (the same floats), and no ring spot of a bearing past it
    # (at any of TARGET_GAPS) is within the move's reach; starts near and far, jittered
    # bearings, 3" and 6" moves, and the bearings right at the limit.
    from w40k.engine.phases import pile_in_propose as pp
    from w40k.geometry import Model
    rng = random.Random(seed)
    cut_any = kept_all = close = 0
    for _ in range(400):
        t = Model("t", 30.0, 20.0, base_mm=rng.choice([25.0, 32.0, 40.0, 60.0]))
        a = rng.uniform(-math.pi, math.pi)
        dist = rng.uniform(0.5, 9.0)
        start = Model("s", 30.0 + dist * math.cos(a), 20.0 + dist * math.sin(a),
                      base_mm=rng.choice([25.0, 32.0, 40.0]))
        jitter = rng.choice([0.0, rng.uniform(-0.5, 0.5) * 2 * math.pi / pp.BEARINGS,
                             rng.uniform(-4.0, 4.0)])
        base = math.atan2(start.y - t.y, start.x - t.x) + jitter
        budget = rng.choice([3.0, 6.0])
        full = pp._touching_ring(start, t, base)
        cut = pp._touching_ring(start, t, base, budget)
        assert cut == full[:len(cut)]
        limit = budget - pp.SLACK
        for x, y, c, s in full[len(cut):]:
            for g in pp.TARGET_GAPS:
                d = math.hypot(x + g * c - start.x, y + g * s - start.y)
                assert d > limit
                close += d < limit + 0.05
        cut_any += len(cut) < len(full)
        kept_all += len(cut) == len(full)
    assert cut_any > 50 and kept_all > 20 and close > 0


def _tri(sure: object, fails: object) -> list[int]:
    import numpy as np
    out: list[int] = np.where(sure, 1, np.where(fails, 0, -1)).tolist()
    return out


@pytest.mark.parametrize("seed", range(12))
def test_the_pile_in_spot_bounds_settle_the_spots_as_each_test_s_bounds(seed: int) -> None:
    # R12.03-d / R12.03-e / 03.01: the pile-in placement's one-matrix pre-tests
    # (pile_in_bounds.candidates) keep the same spots, with the same tests left to measure,
    # as the closer, still-engaged and clear-of-friends bounds (battlefield.spot_bounds,
    # engaged_bounds) and Occupied.taken, each on its own (the reference below).
    import numpy as np

    from w40k.engine.phases import pile_in_bounds as pb
    from w40k.engine.phases import pile_in_propose as pp
    from w40k.engine.propose_moves import Occupied
    from w40k.geometry import Model
    from w40k.geometry.battlefield import MARGIN, engaged_bounds, spot_bounds
    rng = random.Random(seed)
    bases: list[float | tuple[float, float]] = [25.0, 32.0, 40.0, 60.0, (75.0, 42.0)]

    def model(name: str, x: float, y: float, z: float = 0.0) -> Model:
        return Model(name, x, y, z=z, base_mm=rng.choice(bases), facing=rng.uniform(0, 6.3))

    def near(n: int, cx: float, cy: float, spread: float, tag: str) -> list[Model]:
        return [model(f"{tag}{i}", cx + rng.uniform(-spread, spread),
                      cy + rng.uniform(-spread, spread),
                      z=rng.choice([0.0, 0.0, 0.0, 3.0, 8.0])) for i in range(n)]
    seen: set[int] = set()
    refused = 0
    for _ in range(20):
        start = model("s", 20.0, 20.0)
        targets = near(rng.randint(1, 6), 20.0 + rng.uniform(-4, 4), 23.0, 2.5, "t")
        groups = [near(rng.randint(0, 4), 20.0 + rng.uniform(-3, 3), 19.0, 2.5, f"g{k}")
                  for k in range(rng.randint(0, 2))]
        friends = near(rng.randint(0, 6), 20.0, 18.0, 3.0, "f")
        others = near(rng.randint(0, 30), 20.0, 20.0, 9.0, "o")
        budget = rng.choice([3.0, 6.0])
        spots = [(20.0 + rng.uniform(-budget, budget), 20.0 + rng.uniform(-budget, budget))
                 for _ in range(rng.randint(1, 80))]
        than = rng.uniform(0.0, 3.0)
        keep = rng.random() < 0.7
        no_target = rng.random() < 0.15
        # the placement's clearance, and another (pile_in_bounds merges the clear test's
        # refusals with Occupied.taken's only where the two clearances are one)
        gap = rng.choice([pp.CLEARANCE, pp.CLEARANCE, 0.05])
        pts = np.asarray(spots, dtype=np.float64)
        n = len(spots)
        if no_target:
            closer = [-1] * n
        else:
            lower, upper = spot_bounds(start, pts, targets)
            closer = _tri(upper.min(axis=1) < than - MARGIN, lower.min(axis=1) >= than + MARGIN)
        still = [1] * n
        if keep:
            sure = np.ones(n, dtype=bool)
            fails = np.zeros(n, dtype=bool)
            for g in groups:
                s, maybe = engaged_bounds(start, pts, g)
                sure &= s
                fails |= ~maybe
            still = _tri(sure, fails)
        clear = [1] * n
        if friends:
            lower, upper = spot_bounds(start, pts, friends)
            clear = _tri((lower > gap + MARGIN).all(axis=1),
                         (upper <= gap - MARGIN).any(axis=1))
        taken = Occupied(others).taken(start, spots, budget + 1.0)
        want = [(i, (pb.CLOSER if closer[i] < 0 else 0) | (pb.STILL if still[i] < 0 else 0)
                 | (pb.CLEAR if clear[i] < 0 else 0))
                for i in range(n) if closer[i] and still[i] and clear[i] and not taken[i]]
        fx = pb.fixed(start, None if no_target else targets, groups if keep else (),
                      [pb.block(tuple(others))], budget + 1.0)
        idx, codes = pb.candidates(start, spots, fx, friends, than, keep, gap)
        assert list(zip(idx, codes, strict=True)) == want
        seen.update(codes)
        refused += n - len(idx)
    assert refused > 0 and len(seen) > 2  # spots refused and left to measure, both seen


def test_a_round_base_centred_inside_a_solid_feature_ends_partway_through_it_R03_01_i() -> None:
    # R03.01-i / R13.06-g: where movement.centre_in_solid says a round base's centre lies
    # inside a feature it cannot stand in at its level, ending_violations refuses the base
    # there (the pile-in placement passes such spots over before building them).
    from w40k.engine import geo
    from w40k.geometry import Model
    from w40k.geometry.movement import centre_in_solid, ending_violations, solid_outlines
    from w40k.io.battle_setup import real_battle_position
    game = Game.new(real_battle_position(), 1)
    _, ter = geo.terrain(game.ctx)
    rng = random.Random(5)
    inside = 0
    for z in (0.0, 3.0, 6.0):
        solid = solid_outlines(ter, z)
        assert solid_outlines(ter, z) is solid
        for _ in range(3000):
            x, y = rng.uniform(0, 60), rng.uniform(0, 44)
            if centre_in_solid(solid, x, y):
                inside += 1
                m = Model("m", x, y, z=z, base_mm=rng.choice([25.0, 32.0, 40.0, 60.0]))
                assert ending_violations(ter, m)
    assert inside > 50


def test_a_round_base_meeting_a_solid_feature_ends_partway_through_it_R03_01_i() -> None:
    # R03.01-i / R13.06-g: where movement.disc_in_solid says a round base meets a
    # feature it cannot stand in at its level (centre inside or not), ending_violations
    # refuses the base there; and every centre movement.centre_in_solid finds, it finds too
    # (the pile-in placement passes such spots over before building them).
    from w40k.engine import geo
    from w40k.geometry import Model
    from w40k.geometry.movement import (
        centre_in_solid,
        disc_in_solid,
        ending_violations,
        solid_outlines,
    )
    from w40k.io.battle_setup import real_battle_position
    game = Game.new(real_battle_position(), 1)
    _, ter = geo.terrain(game.ctx)
    rng = random.Random(7)
    met = edge = 0
    for z in (0.0, 3.0, 6.0):
        solid = solid_outlines(ter, z)
        for _ in range(3000):
            x, y = rng.uniform(0, 60), rng.uniform(0, 44)
            m = Model("m", x, y, z=z, base_mm=rng.choice([25.0, 32.0, 40.0, 60.0, 100.0]))
            r = m.footprint().r  # type: ignore[union-attr]
            if centre_in_solid(solid, x, y):
                assert disc_in_solid(solid, x, y, r)
            if disc_in_solid(solid, x, y, r):
                met += 1
                edge += not centre_in_solid(solid, x, y)
                assert ending_violations(ter, m)
    assert met > 50 and edge > 20  # discs met with the centre outside, too


def test_units_whose_boxes_are_out_of_engagement_range_have_no_model_engaged_R12_03_e() -> None:
    # R12.03-e / R12.08-f: the pile-in placement, and check_move's still-engaged test
    # (melee_moves._check_toward), look for the units each model started engaged with
    # (03.04) only among those whose layout box comes within ENGAGE_SCREEN of its unit's box;
    # past that gap no pair of models is engaged (random round and oval bases, close and far).
    from w40k.engine.phases.pile_in_propose import ENGAGE_SCREEN
    from w40k.geometry import Model
    from w40k.geometry.battlefield import Layout
    rng = random.Random(11)
    screened = 0
    for _ in range(400):
        def group(cx: float, cy: float, name: str) -> list[Model]:
            return [Model(f"{name}{k}", cx + rng.uniform(-2, 2), cy + rng.uniform(-2, 2),
                          base_mm=rng.choice([25.0, 32.0, 40.0, (60.0, 35.0), (120.0, 92.0)]),
                          facing=rng.uniform(0, math.pi))
                    for k in range(rng.randint(1, 4))]
        a = group(20.0, 20.0, "a")
        b = group(20.0 + rng.uniform(0, 12), 20.0 + rng.uniform(-6, 6), "b")
        if Layout.of(a).box_gap(Layout.of(b)) > ENGAGE_SCREEN:
            screened += 1
            assert not any(engaged(x, y) for x in a for y in b)
    assert screened > 50


def test_the_placement_s_free_test_is_occupied_free_on_the_near_models_R03_01_c() -> None:
    # R03.01-c / R03.01-i (03.01 Ending a Move): pile_in_bounds.free, measured against the
    # models pile_in_bounds.fixed keeps near the start (no Occupied built), answers as
    # Occupied(every other model).free for spots within the move, on the real battle's
    # terrain at several levels (ovals, crowded scenes: both answers come up).
    from w40k.engine import geo
    from w40k.engine.phases import pile_in_bounds as pb
    from w40k.engine.propose_moves import Occupied
    from w40k.geometry import Model
    from w40k.io.battle_setup import real_battle_position
    game = Game.new(real_battle_position(), 1)
    _, ter = geo.terrain(game.ctx)
    rng = random.Random(11)
    bases: list[float | tuple[float, float]] = [25.0, 32.0, 40.0, 60.0, (75.0, 42.0)]
    answers: set[bool] = set()
    for _ in range(60):
        sx, sy = rng.uniform(4, 56), rng.uniform(4, 40)
        z = rng.choice([0.0, 0.0, 3.0, 6.0])
        start = Model("s", sx, sy, z=z, base_mm=rng.choice(bases), facing=rng.uniform(0, 6.3))
        others = [Model(f"o{i}", sx + rng.uniform(-12, 12), sy + rng.uniform(-12, 12),
                        z=rng.choice([0.0, z]), base_mm=rng.choice(bases),
                        facing=rng.uniform(0, 6.3)) for i in range(rng.randint(0, 60))]
        budget = rng.choice([3.0, 6.0])
        fx = pb.fixed(start, None, (), [pb.block(tuple(others))], budget + 1.0)
        occ = Occupied(others)
        for _ in range(40):
            a, r = rng.uniform(0, 2 * math.pi), budget * math.sqrt(rng.random())
            end = start.moved(sx + r * math.cos(a), sy + r * math.sin(a))
            want = occ.free(end, ter)
            assert pb.free(fx, end, ter) == want
            answers.add(want)
    assert answers == {True, False}


def test_the_kept_first_placement_counts_the_draws_the_generator_made_R12_03_d() -> None:
    # R12.03-d / R12.08-d: first_toward counts the placement's draws from the code (its one
    # jitter draw, made when the frame has a target unit or an objective) instead of the
    # generator's states; the count is what the generator shows (_draws): with targets,
    # with an objective, with neither.
    import dataclasses

    from w40k.engine.phases import pile_in_propose as pp
    red = _u("red.a", "red", [10.0 + 1.5 * i for i in range(5)], 10.0, flags=FF)
    blue = _u("blue.b", "blue", [11.0 + 1.5 * i for i in range(3)], 10.0 + BASE + 2.5)
    game = Game.new(fight_phase([red, blue], objectives=[marker("o", 12.0, 16.0)]), seed=1)
    game.submit("red.a")
    if pending(game).kind == "pile_in_targets":
        game.submit(pending(game).options[0])
    frame = game.ctx.top
    assert isinstance(frame, MeleeMoveFrame) and frame.targets
    u = game.state.unit("red.a")
    frames = [frame, dataclasses.replace(frame, targets=()),
              dataclasses.replace(frame, targets=(), move_type="consolidate",
                                  mode="objective", objective="o")]
    counts = []
    for f in frames:
        pp._FIRST.clear()
        rng = random.Random(3)
        before = rng.getstate()
        pp.first_toward(game.ctx, u, f, rng)
        (entry,) = pp._FIRST.values()
        assert entry[2] == pp._draws(before, rng)
        counts.append(entry[2])
    assert counts == [1, 0, 1]
