"""Where units from strategic reserves may arrive (20.04, 24.09), what may start in reserve
(20.01, 23.01) and which reserve units are destroyed (20.04), with exact geometry."""

from __future__ import annotations

import pytest

from w40k.geometry import Battlefield, Model, mm
from w40k.rules.reserves import (
    FormationUnit,
    destroyed_for_not_arriving,
    formation_violations,
    may_arrive,
)
from w40k.rules.setup import Ingress, ingress_violations, within_edge_distance, zone

BF = Battlefield(60.0, 44.0)
R = mm(32) / 2  # a 32 mm base's radius in inches
RED_ZONE = zone([(0, 0), (60, 0), (60, 12), (0, 12)])  # the opponent's zone (red deploys top)


def m(name: str, x: float, y: float) -> Model:
    return Model(name, x, y, base_mm=32.0)


ENEMY = [m("Boy 1", 30.0, 22.0)]


def rules_of(violations: list) -> set[str]:
    return {v.rule for v in violations}


def test_a_model_wholly_within_6_inches_of_an_edge_may_arrive_but_not_at_6_1():
    # R20.04-a: wholly within 6" of a battlefield edge: the far side of the base counts.
    inside = m("Intercessor 1", 6.0 - R, 30.0)
    outside = m("Intercessor 1", 6.1 - R, 30.0)
    assert within_edge_distance(inside, BF)
    assert not within_edge_distance(outside, BF)
    ing = Ingress(battle_round=2, opponent_zone=RED_ZONE)
    assert ingress_violations([inside], ENEMY, BF, ing) == []
    assert rules_of(ingress_violations([outside], ENEMY, BF, ing)) == {"R20.04-a"}


def test_a_corner_base_must_lie_wholly_in_the_edge_strips_not_just_near_two_edges():
    # R20.04-a: near a corner a base may use both edges, but a part beyond 6" of every
    # edge is not wholly within 6" of one or more edges.
    corner = m("Intercessor 1", 5.7, 38.3)  # 5.7" from the left and bottom edges
    assert not within_edge_distance(corner, BF)  # its inner rim is beyond 6" of both
    assert within_edge_distance(m("Intercessor 1", 5.5, 38.5), BF)  # rim 5.95" / 5.95"


def test_an_arrival_exactly_8_inches_from_an_enemy_is_refused_and_8_1_is_allowed():
    # R20.04-a: more than 8" horizontally from every enemy unit: exactly 8" is too close.
    enemy = [m("Boy 1", 20.0, 40.0)]
    gap = 2 * R
    ing = Ingress(battle_round=2, opponent_zone=RED_ZONE)
    at_8 = m("Intercessor 1", 20.0 - 8.0 - gap, 40.0)
    at_8_1 = m("Intercessor 1", 20.0 - 8.1 - gap, 40.0)
    assert rules_of(ingress_violations([at_8], enemy, BF, ing)) == {"R20.04-a"}
    assert ingress_violations([at_8_1], enemy, BF, ing) == []


def test_before_round_3_an_arrival_may_not_touch_the_opponents_zone():
    # R20.04-b: round 2 placement in the enemy deployment zone is refused; round 3 allowed.
    in_zone = m("Intercessor 1", 3.0, 11.0)
    assert rules_of(ingress_violations([in_zone], ENEMY, BF,
                                       Ingress(2, RED_ZONE))) == {"R20.04-b"}
    assert ingress_violations([in_zone], ENEMY, BF, Ingress(3, RED_ZONE)) == []


def test_deep_strike_sets_up_anywhere_more_than_8_inches_even_in_the_enemy_zone():
    # R24.09-a: round 2 drop in the enemy zone at 8.5" from the nearest enemy -> allowed;
    # at 7.9" -> refused. Deep Strike is not bound to the battlefield edges.
    enemy = [m("Boy 1", 30.0, 6.0)]
    gap = 2 * R
    ds = Ingress(battle_round=2, opponent_zone=RED_ZONE, deep_strike=True)
    ok = m("Terminator 1", 30.0 - 8.5 - gap, 6.0)
    near = m("Terminator 1", 30.0 - 7.9 - gap, 6.0)
    assert ingress_violations([ok], enemy, BF, ds) == []
    assert rules_of(ingress_violations([near], enemy, BF, ds)) == {"R24.09-a"}
    centre = m("Terminator 1", 30.0, 30.0)  # far from every edge
    assert ingress_violations([centre], enemy, BF, ds) == []
    assert "R20.04-a" in rules_of(ingress_violations(
        [centre], enemy, BF, Ingress(battle_round=2, opponent_zone=RED_ZONE)))


def test_reserve_units_arrive_from_the_second_battle_round():
    # R20.03-a: ingress in round 1 is not offered; round 2 is.
    assert not may_arrive(1)
    assert may_arrive(2)
    assert may_arrive(1, first_round=1)  # "unless otherwise stated"


def test_half_the_points_limit_may_start_in_reserve_counting_embarked_passengers():
    # R20.01-a: limit 2000 with 1000 points in reserve -> allowed; 1005 -> refused. A
    # transport (100) in reserve plus its embarked unit (200) counts as 300.
    ok = [FormationUnit("A", 1000, frozenset({"INFANTRY"}), in_reserve=True),
          FormationUnit("B", 1000, frozenset({"INFANTRY"}))]
    assert formation_violations(ok, 2000) == []
    over = [FormationUnit("A", 1005, frozenset({"INFANTRY"}), in_reserve=True)]
    assert [v[:9] for v in formation_violations(over, 2000)] == ["R20.01-a:"]
    carried = [FormationUnit("Rhino", 100, frozenset({"VEHICLE", "TRANSPORT"}),
                             in_reserve=True),
               FormationUnit("Squad", 200, frozenset({"INFANTRY"}), embarked_in="Rhino"),
               FormationUnit("Big", 700, frozenset({"INFANTRY"}), in_reserve=True)]
    assert formation_violations(carried, 2000) == []  # 100 + 200 + 700 = 1000
    carried.append(FormationUnit("Extra", 1, frozenset({"INFANTRY"}), in_reserve=True))
    assert [v[:12] for v in formation_violations(carried, 2000)] == ["R20.01-a: 10"]


def test_fortifications_may_not_be_reserved_and_aircraft_must_be():
    # R20.01-a FORTIFICATIONS excluded; R23.01-a every AIRCRAFT starts in reserves.
    bad = [FormationUnit("Bunker", 50, frozenset({"FORTIFICATION"}), in_reserve=True),
           FormationUnit("Jet", 150, frozenset({"VEHICLE", "AIRCRAFT", "FLY"}))]
    found = formation_violations(bad, 2000)
    assert [v[:9] for v in found] == ["R20.01-a:", "R23.01-a:"]


@pytest.mark.parametrize(("made", "repositioned", "carried", "round_", "destroyed"), [
    (False, False, False, 3, True),   # never arrived by the end of round 3
    (False, False, False, 2, False),  # still time
    (True, False, False, 3, False),   # an AIRCRAFT back in reserve has made an ingress move
    (False, True, False, 3, False),   # repositioned units are spared
    (False, False, True, 3, False),   # embarked in a transport that arrived
])
def test_unarrived_reserve_units_are_destroyed_at_the_end_of_round_3(made, repositioned,
                                                                       carried, round_,
                                                                       destroyed):
    # R20.04-e
    assert destroyed_for_not_arriving(battle_round=round_, has_made_ingress=made,
                                      repositioned=repositioned,
                                      transport_made_ingress=carried) is destroyed
