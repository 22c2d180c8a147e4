"""Finding legal set-up places (the proposers of issue 12 build on these): blocks in
coherency, the first legal block for an ingress, and emergency disembark placement."""

from __future__ import annotations

from w40k.geometry import Battlefield, Model, mm
from w40k.geometry.measure import engaged, in_coherency, overlaps, wholly_within
from w40k.rules.placement import block, by_distance, emergency_placement, first_legal, grid
from w40k.rules.setup import Ingress, ingress_violations, set_up_violations, zone

BF = Battlefield(60.0, 44.0)
R = mm(32) / 2


def squad(n: int) -> list[Model]:
    return [Model(f"Intercessor {i + 1}", 0.0, 0.0, base_mm=32.0) for i in range(n)]


def test_a_block_of_ten_is_in_coherency_with_no_overlap():
    placed = block(squad(10), 20.0, 20.0)
    assert in_coherency(placed)
    assert not any(overlaps(a, b) for i, a in enumerate(placed) for b in placed[i + 1:])
    assert abs(sum(m.x for m in placed) / 10 - 20.0) < 1e-9


def test_the_first_legal_ingress_block_keeps_every_rule():
    # R20.04-a via the proposer: the block found is wholly within 6" of an edge and more
    # than 8" from the enemy, and the closest anchor to the goal is tried first.
    enemy = [Model("Boy 1", 30.0, 40.0, base_mm=32.0)]
    ing = Ingress(battle_round=2, opponent_zone=zone([(0, 0), (60, 0), (60, 12), (0, 12)]))

    def check(models: list[Model]) -> list:
        return (set_up_violations(models, enemy, BF)
                + ingress_violations(models, enemy, BF, ing))

    placed = first_legal(squad(5), by_distance(grid(BF), (30.0, 40.0)), check)
    assert placed is not None and check(placed) == []
    assert min(abs(m.x - 30.0) + abs(m.y - 40.0) for m in placed) < 20.0


def test_no_legal_block_gives_none_so_the_unit_stays_in_reserve():
    # R03.02-b: a unit that cannot be set up goes back where it was.
    enemy = [Model(f"Boy {i}", x, y, base_mm=32.0)
             for i, (x, y) in enumerate((x, y) for x in range(0, 61, 8) for y in range(0, 45, 8))]
    ing = Ingress(battle_round=2)
    assert first_legal(squad(5), grid(BF, 6.0),
                       lambda ms: ingress_violations(ms, enemy, BF, ing)) \
        is None


def test_an_emergency_disembark_places_models_close_and_destroys_those_without_room():
    # R18.05-a: space for only some models -> the rest are destroyed. The transport sits in
    # a corner, hemmed in by enemy lines at x = 9" and y = 9": a model must stay 2" from
    # them, so only a row below the hull is free (the strip beside it is too narrow).
    rhino = Model("Rhino", 3.0, 3.0, base_mm=(120.0, 70.0), height=3.0)
    enemies = [Model(f"Boy {i}", 9.0, 0.7 + 1.3 * i, base_mm=32.0) for i in range(8)]
    enemies += [Model(f"Boy {i + 8}", 0.7 + 1.3 * i, 9.0, base_mm=32.0) for i in range(7)]
    placed, lost = emergency_placement(squad(10), rhino, BF, [], enemies)
    assert 0 < len(placed) < 10
    assert len(placed) + len(lost) == 10
    assert not any(engaged(m, e) for m in placed for e in enemies)  # 03.02: unengaged
    for m in placed:
        assert wholly_within(m, rhino, 6.0)
        assert not any(overlaps(m, o) for o in [*placed, *enemies] if o is not m)
    free, none = emergency_placement(squad(5), Model("Rhino", 30.0, 22.0, base_mm=(120.0, 70.0),
                                                     height=3.0), BF, [], [])
    assert none == [] and len(free) == 5


def test_a_packed_mob_of_21_with_a_large_leader_stays_coherent_where_a_block_does_not():
    # R03.03-a / R03.03-b: 20 Boyz (32 mm) and a Warboss (50 mm). A block of fives steps
    # every base by the largest one and spreads the corners more than 9" apart; packed rows
    # of four (by each model's own base) keep every model within 9" of every other, within
    # 2" of a neighbour, and no two bases overlap.
    from w40k.rules.placement import packed

    mob = [*squad(20), Model("Warboss", 0.0, 0.0, base_mm=50.0)]
    assert not in_coherency(block(mob, 30.0, 22.0))
    for along_y in (False, True):
        placed = packed(mob, 30.0, 22.0, 4, along_y)
        assert in_coherency(placed)
        assert not any(overlaps(a, b) for i, a in enumerate(placed) for b in placed[i + 1:])
        xs = [m.x for m in placed]
        assert max(xs) - min(xs) < 12.0 - mm(50)  # fits a 12"-wide zone (flank-assault)
