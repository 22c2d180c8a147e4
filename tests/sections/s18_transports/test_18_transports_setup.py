"""Transport capacity, embarking and disembarking (18), and setting up units (03.02),
Infiltrators (24.20) and the end of a scout move (24.32), with exact geometry."""

from __future__ import annotations

from w40k.geometry import Battlefield, Model, mm
from w40k.rules.setup import (
    Ingress,
    deployment_violations,
    disembark_violations,
    infiltrator_violations,
    scout_end_violations,
    set_up_violations,
    unit_wholly_in_zone,
    zone,
)
from w40k.rules.transport import (
    Capacity,
    DisembarkMode,
    TransportMove,
    capacity_violations,
    disembark_mode,
    embark_violations,
    set_up_distance,
)
from w40k.rules.transport import (
    disembark_violations as disembark_eligibility,
)

BF = Battlefield(60.0, 44.0)
R = mm(32) / 2
INF = frozenset({"INFANTRY"})
RED_ZONE = zone([(0, 0), (60, 0), (60, 12), (0, 12)])
BLUE_ZONE = zone([(0, 32), (60, 32), (60, 44), (0, 44)])


def m(name: str, x: float, y: float, base: float = 32.0) -> Model:
    return Model(name, x, y, base_mm=base)


def rules_of(violations: list) -> set[str]:
    return {v.rule for v in violations}


def rhino(x: float = 30.0, y: float = 30.0) -> Model:
    return Model("Rhino", x, y, base_mm=(120.0, 70.0), height=3.0,
                 keywords=frozenset({"VEHICLE", "TRANSPORT"}))


def test_capacity_12_takes_units_of_10_and_2_but_not_10_and_5():
    # R18.01-a
    cap = Capacity(12)
    assert capacity_violations(cap, [[INF] * 10], [INF] * 2) == []
    assert [v[:9] for v in capacity_violations(cap, [[INF] * 10], [INF] * 5)] == ["R18.01-a:"]


def test_capacity_keywords_exclude_models_and_big_models_take_more_spaces():
    # R18.01-a: the capacity sets the type of model as well as the number.
    cap = Capacity(10, excluded=frozenset({"TERMINATOR"}), spaces=(("JUMP PACK", 2),))
    assert capacity_violations(cap, [], [frozenset({"INFANTRY", "TERMINATOR"})])
    assert capacity_violations(cap, [], [frozenset({"VEHICLE"})])  # not INFANTRY
    jumpers = [frozenset({"INFANTRY", "JUMP PACK"})] * 5
    assert capacity_violations(cap, [], jumpers) == []  # 10 spaces
    assert capacity_violations(cap, [[INF]], jumpers)  # 11 spaces


def test_a_unit_embarks_only_with_every_model_within_3_inches_of_the_transport():
    # R18.02-a: one model at 3.2" -> refused; all within 3" -> allowed.
    t = rhino()
    half = mm(120.0) / 2  # the hull's half length along x
    near = [m("Intercessor 1", 30.0 - half - 2.9 - R, 30.0)]
    far = [m("Intercessor 1", 30.0 - half - 3.2 - R, 30.0)]
    assert embark_violations(near, t, battle_round=1, set_up_this_turn=False,
                             move="normal") == []
    found = embark_violations(far, t, battle_round=1, set_up_this_turn=False, move="normal")
    assert [v[:9] for v in found] == ["R18.02-a:"]


def test_a_unit_set_up_this_turn_or_after_a_scout_move_cannot_embark():
    # R18.02-a (arrived by ingress or disembarked this turn) and R18.02-c (scout move).
    t = rhino()
    near = [m("Intercessor 1", 30.0, 30.0 - mm(70) / 2 - 1.0 - R)]
    assert [v[:9] for v in embark_violations(near, t, battle_round=2, set_up_this_turn=True,
                                             move="normal")] == ["R18.02-a:"]
    assert [v[:9] for v in embark_violations(near, t, battle_round=0, set_up_this_turn=False,
                                             move="scout")] == ["R18.02-c:"]
    assert embark_violations(near, t, battle_round=2, set_up_this_turn=False, move="charge")


def test_disembarking_needs_the_movement_phase_a_transport_on_the_table_that_did_not_run():
    # R18.03-a and R18.04-a
    ok = dict(transport_on_battlefield=True, embarked_this_phase=False,
              transport_move=TransportMove.NOT_SELECTED, active_player=True, phase="movement")
    assert disembark_eligibility(**ok) == []
    assert [v[:9] for v in disembark_eligibility(**{**ok, "phase": "shooting"})] == \
        ["R18.03-a:"]
    assert [v[:9] for v in disembark_eligibility(
        **{**ok, "transport_move": TransportMove.ADVANCE})] == ["R18.04-a:"]
    assert [v[:9] for v in disembark_eligibility(**{**ok, "embarked_this_phase": True})] == \
        ["R18.04-a:"]
    assert [v[:9] for v in disembark_eligibility(
        **{**ok, "transport_on_battlefield": False})] == ["R18.04-a:"]


def test_the_disembark_mode_follows_what_the_transport_did():
    # R18.04-b: moved normally -> Rapid; not yet moved with room -> Tactical; stationary
    # with no room within 3" -> Combat (6", hazard rolls). R18.04-f: Tactical first, then
    # the transport may still move.
    assert disembark_mode(TransportMove.NORMAL, True) is DisembarkMode.RAPID
    assert disembark_mode(TransportMove.INGRESS, False) is DisembarkMode.RAPID
    assert disembark_mode(TransportMove.NOT_SELECTED, True) is DisembarkMode.TACTICAL
    assert disembark_mode(TransportMove.STATIONARY, False) is DisembarkMode.COMBAT
    assert set_up_distance(DisembarkMode.TACTICAL) == 3.0
    assert set_up_distance(DisembarkMode.COMBAT) == 6.0


def test_disembarked_models_must_be_wholly_within_the_set_up_distance_of_the_hull():
    # R18.04-c: a base partly at 3.1" from the hull -> refused for Rapid or Tactical.
    t = rhino()
    half = mm(120.0) / 2
    inside = m("Intercessor 1", 30.0 + half + 3.0 - R, 30.0)
    partly = m("Intercessor 1", 30.0 + half + 3.1 - R, 30.0)
    assert disembark_violations([inside], t, 3.0, [], BF) == []
    assert rules_of(disembark_violations([partly], t, 3.0, [], BF)) == {"R18.04-c"}
    assert disembark_violations([partly], t, 6.0, [], BF) == []


def test_after_an_ingress_a_rapid_disembark_follows_the_ingress_rules():
    # R18.04-d: the transport arrived 9" from the enemy; a passenger 7.5" away -> refused.
    t = rhino(30.0, 38.0)
    enemy = [m("Boy 1", 30.0 + mm(120) / 2 + 9.0 + R, 38.0)]
    passenger = m("Intercessor 1", 30.0 + mm(120) / 2 + 1.5 - R, 38.0)  # 7.5" from the Boy
    found = disembark_violations([passenger], t, 3.0, enemy, BF,
                                 ingress=Ingress(battle_round=2, opponent_zone=RED_ZONE))
    assert "R18.04-d" in rules_of(found)
    assert "R18.04-d" not in rules_of(disembark_violations([passenger], t, 3.0, enemy, BF))


def test_a_unit_is_set_up_unengaged_coherent_and_on_the_table():
    # R03.02-a: one model 1.9" from an enemy -> illegal; out of coherency -> illegal.
    enemy = [m("Boy 1", 30.0, 20.0)]
    engaged_model = m("Intercessor 1", 30.0 - 2 * R - 1.9, 20.0)
    assert rules_of(set_up_violations([engaged_model], enemy, BF)) == {"R03.02-a"}
    apart = [m("Intercessor 1", 10.0, 10.0), m("Intercessor 2", 10.0 + 2 * R + 2.1, 10.0)]
    assert rules_of(set_up_violations(apart, [], BF)) == {"R03.02-a"}
    together = [m("Intercessor 1", 10.0, 10.0), m("Intercessor 2", 10.0 + 2 * R + 1.9, 10.0)]
    assert set_up_violations(together, [], BF) == []
    off_table = [m("Intercessor 1", R / 2, 10.0)]
    assert rules_of(set_up_violations(off_table, [], BF)) == {"R03.02-a"}
    stacked = [m("Intercessor 1", 10.0, 10.0), m("Intercessor 2", 10.5, 10.0)]
    assert set_up_violations(stacked, [], BF)


def test_deployment_is_wholly_within_the_players_zone():
    # R03.02-a with the mission's zones: a base across the zone's edge is refused.
    assert deployment_violations([m("Intercessor 1", 10.0, 32.0 + R)], BLUE_ZONE) == []
    assert rules_of(deployment_violations([m("Intercessor 1", 10.0, 32.0 + R / 2)],
                                          BLUE_ZONE)) == {"R03.02-a"}
    assert unit_wholly_in_zone([m("Intercessor 1", 10.0, 40.0)], BLUE_ZONE)
    assert not unit_wholly_in_zone([m("Intercessor 1", 10.0, 32.0)], BLUE_ZONE)


def test_infiltrators_set_up_more_than_8_inches_from_the_enemy_zone_and_units():
    # R24.20-a: 8.5" from the zone and 9" from the nearest enemy -> allowed; 7.9" from the
    # zone -> refused.
    enemy = [m("Boy 1", 50.0, 5.0)]
    ok = m("Scout 1", 10.0, 12.0 + 8.5 + R)
    near = m("Scout 1", 10.0, 12.0 + 7.9 + R)
    assert infiltrator_violations([ok], enemy, RED_ZONE) == []
    assert rules_of(infiltrator_violations([near], enemy, RED_ZONE)) == {"R24.20-a"}
    close_enemy = [m("Boy 1", 10.0, ok.y + 2 * R + 7.0)]
    assert rules_of(infiltrator_violations([ok], close_enemy, RED_ZONE)) == {"R24.20-a"}


def test_a_scout_move_ends_more_than_8_inches_from_every_enemy():
    # R24.32-a: ending 7.9" from an enemy -> refused; 8.1" -> allowed.
    enemy = [m("Boy 1", 30.0, 20.0)]
    assert rules_of(scout_end_violations([m("Scout 1", 30.0, 20.0 + 2 * R + 7.9)],
                                         enemy)) == {"R24.32-a"}
    assert scout_end_violations([m("Scout 1", 30.0, 20.0 + 2 * R + 8.1)], enemy) == []


def test_a_transport_capacity_is_datasheet_data_kept_through_positions():
    # R18.01-a: the capacity is read from a datasheet model's `transport` and survives the
    # position form; a malformed capacity is refused naming the field.
    import pytest

    from w40k.core.errors import DataError
    from w40k.core.profiles import ModelProfile
    from w40k.engine.serial import profile_from_json, profile_to_json

    p = ModelProfile.build("Rhino", T=9, Sv=3, W=10, base_mm=[120, 70],
                           keywords=["VEHICLE", "TRANSPORT"],
                           transport={"models": 12, "excluded": ["Jump Pack"],
                                      "spaces": {"MEGA ARMOUR": 2}})
    assert p.transport == Capacity(12, frozenset({"INFANTRY"}), frozenset({"JUMP PACK"}),
                                   (("MEGA ARMOUR", 2),))
    assert profile_from_json(profile_to_json(p)) == p
    assert "transport" not in profile_to_json(ModelProfile.build("Boy", T=5, Sv=6, W=1))
    with pytest.raises(DataError, match=r"transport\.models"):
        ModelProfile.build("Rhino", T=9, Sv=3, W=10, transport={"models": 0})
    with pytest.raises(DataError, match=r"transport\.seats"):
        ModelProfile.build("Rhino", T=9, Sv=3, W=10, transport={"models": 5, "seats": 2})
