"""The heuristic player's stratagems and Firing Deck (agents/heuristic_stratagems.py): each
stratagem it uses is used where its expected value beats what the CP is worth, and declined
where the gain is nil, too small for the CP left, or there is no CP; Firing Deck lends the
weapon that adds the most."""

from __future__ import annotations

from typing import Any, cast

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import command_phase, line, marker, scripted, unit
from tests.engine.melee_helpers import (
    BASE,
    charge_phase,
    fight_phase,
    fighter,
    melee_weapon,
    pending,
)
from w40k.agents import HeuristicAgent
from w40k.agents.heuristic_stratagems import cp_threshold, option_value
from w40k.core.jsonval import JSON
from w40k.engine.game import Game
from w40k.engine.requests import K, Request, request
from w40k.rules.decisions import DECLINE

pytestmark = pytest.mark.stratagems

CR = "Command Re-roll"


def _agent() -> HeuristicAgent:
    return HeuristicAgent(1, strict=True)


def _ask(player: str, window: str, facts: dict[str, JSON], *options: list[JSON]) -> Request:
    """A reaction request as engine/windows.py asks it."""
    return request(player, K.REACTION, "15.01", f"{window}: use a rule, or decline",
                   (DECLINE, *options), context={"window": window, "facts": facts},
                   default=DECLINE)


def _set_cp(game: Game, red: int, blue: int = 0) -> Game:
    game.state.player("red").cp = red
    game.state.player("blue").cp = blue
    return game


def test_the_stratagems_it_values_are_the_engines_core_stratagems_with_their_costs() -> None:
    from w40k.agents.heuristic_stratagems import STRATAGEM_COSTS, VALUED
    from w40k.engine.reactions_table import CORE_STRATAGEMS
    core = {s.name: s.cp for s in CORE_STRATAGEMS}
    assert set(core) >= VALUED and set(core) - VALUED == {"Rapid Ingress"}
    assert STRATAGEM_COSTS["Counteroffensive"] == 2 and STRATAGEM_COSTS["Explosives"] == 1


# -- what a CP is worth --------------------------------------------------------------------
def test_a_cp_is_worth_more_as_cp_runs_low_and_infinitely_much_without_it() -> None:
    game = Game.new(command_phase([unit("red.a", "red", [fighter("red.a.1", 10, 10)])]), 1)
    s = _set_cp(game, 7).state
    assert cp_threshold(s, "red", 1) == 0.75  # 6 left: plenty
    _set_cp(game, 5)
    assert cp_threshold(s, "red", 1) == 1.0  # 4 left
    _set_cp(game, 2)
    assert cp_threshold(s, "red", 1) == 1.5  # 1 left
    _set_cp(game, 1)
    assert cp_threshold(s, "red", 1) == 2.0  # none left
    assert cp_threshold(s, "red", 2) == float("inf")  # R15.01-c: not enough CP
    s.round = 3  # late: the last CP is kept for a charge re-roll
    assert cp_threshold(s, "red", 1) == 3.0
    assert cp_threshold(s, "red", 1, charge_reroll=True) == 2.0
    s.round = 5  # the last battle round: CP left at the end are wasted
    assert cp_threshold(s, "red", 1, charge_reroll=True) == 1.0


# -- Command Re-roll: charge -----------------------------------------------------------------
AXE = melee_weapon("axe", A=6, WS=2, S=8, AP=-2, D=2)


def _charge(dice: list[int], *, cp: int, weapons: list[dict[str, JSON]] | None = None) -> Game:
    red = unit("red.a", "red", [fighter("red.a.1", 10, 10, weapons=weapons or [AXE])])
    blue = unit("blue.b", "blue", [fighter(f"blue.b.{i + 1}", 10 + 1.5 * i, 10 + BASE + 6.0)
                                   for i in range(5)])
    game = scripted(Game.new(charge_phase([red, blue], cp=(cp, 0)), seed=1), dice)
    assert pending(game).kind == "select_unit_to_charge"
    game.submit("red.a")
    return game


def test_a_failed_charge_worth_making_is_rerolled_even_with_the_last_cp() -> None:
    # R11.04-a: 1+1 does not reach the 6" gap; a re-roll reaches with 26/36, and the axe
    # kills about 4 of the 5 Sv3 models: the re-roll is worth the last CP.
    game = _charge([1, 1, 6, 5], cp=1)
    req = pending(game)
    assert req.kind == K.REACTION and [CR, {"unit": "red.a"}] in req.options
    assert _agent().choose(game, req) == [CR, {"unit": "red.a"}]


def test_a_charge_roll_that_reaches_is_not_rerolled() -> None:
    game = _charge([4, 4], cp=3)
    req = pending(game)
    assert [CR, {"unit": "red.a"}] in req.options  # offered (R15.02-a), but nothing to gain
    assert _agent().choose(game, req) == DECLINE


def test_a_failed_charge_that_gains_nothing_is_not_rerolled() -> None:
    # A unit with a weak blade against five Sv3 models that hit back: the exchange is lost.
    weak = melee_weapon("knife", A=1, WS=5, S=2, AP=0, D=1)
    game = _charge([1, 1], cp=3, weapons=[weak])
    req = pending(game)
    assert [CR, {"unit": "red.a"}] in req.options
    assert _agent().choose(game, req) == DECLINE


# -- Command Re-roll: hit, wound and save dice ----------------------------------------------------
LASCANNON = sh.weapon("lascannon", range=48, A="1", skill=3, S=12, AP=-3, D="D6+1")


def _shoot(dice: list[int], gun: dict[str, Any], *, cp: tuple[int, int],
           W: int = 12, T: int = 10, Sv: int = 3) -> Game:
    pos = sh.position(sh.unit("red.s", [sh.model("red.s.1", 10, 10, gun)]),
                      sh.unit("blue.t", [sh.model("blue.t.1", 10, 20, W=W, T=T, Sv=Sv,
                                                  keywords=("VEHICLE",), base_mm=60.0)]))
    for p, n in zip(cast(list[dict[str, JSON]], pos["players"]), cp, strict=True):
        p["cp"] = n
    game = scripted(sh.start(pos), dice)
    sh.select(game, "red.s")
    game.submit({"red.s.1": {gun["name"]: "blue.t"}})
    return game


def test_a_missed_lascannon_shot_is_rerolled() -> None:
    # The hit die shows 1: a re-roll hits 4/6, wounds T10 on 3+ (4/6), is unsaved 5/6 (Sv3
    # with AP-3) and takes 4.5 of 12 wounds from a VEHICLE worth 12: about 1.7 > 1 CP.
    game = _shoot([1], LASCANNON, cp=(4, 0))
    req = pending(game)
    assert req.context["facts"]["kind"] == "hit"  # type: ignore[index]
    assert _agent().choose(game, req) == [CR, {"unit": "red.s", "die": 0, "face": 1}]


def test_a_missed_boltgun_shot_or_a_hit_is_not_rerolled() -> None:
    # A boltgun's one attack on a T3 W1 model is worth far less than a CP.
    game = _shoot([1], {**sh.BOLTGUN, "A": "1"}, cp=(4, 0), W=1, T=3, Sv=6)
    assert _agent().choose(game, pending(game)) == DECLINE
    # A die that hit: nothing to gain, however many CP.
    game = _shoot([5], LASCANNON, cp=(6, 0))
    req = pending(game)
    assert req.context["facts"]["kind"] == "hit"  # type: ignore[index]
    assert _agent().choose(game, req) == DECLINE


def test_a_failed_wound_die_of_a_lascannon_is_rerolled() -> None:
    game = _shoot([5, 1], LASCANNON, cp=(4, 0))
    hit = pending(game)
    assert hit.context["facts"]["kind"] == "hit"  # type: ignore[index]
    game.submit(DECLINE)
    req = pending(game)
    assert req.context["facts"]["kind"] == "wound"  # type: ignore[index]
    assert _agent().choose(game, req) == [CR, {"unit": "red.s", "die": 0, "face": 1}]


def test_the_die_options_of_one_roll_share_its_facts_with_the_same_values() -> None:
    # Three lascannon shots hit on 1, 2 and 6: one option per face (R15.02-b); the values read
    # the roll's pool, target and next victim once (``kept``), the same as asked one by one.
    game = _shoot([1, 2, 6], {**LASCANNON, "A": "3"}, cp=(4, 0))
    req = pending(game)
    facts = cast(dict[str, JSON], req.context["facts"])
    assert facts["kind"] == "hit"
    options = [cast(dict[str, JSON], o[1]) for o in cast(list[list[JSON]], req.options[1:])]
    assert [o["face"] for o in options] == [1, 2, 6]
    kept: dict[str, Any] = {}
    shared = [option_value(game, "red", CR, o, facts, kept=kept) for o in options]
    assert set(kept) == {"die"}
    assert shared == [option_value(game, "red", CR, o, facts) for o in options]
    assert shared[0] == shared[1] > 0 and shared[2] == 0.0


def test_the_next_victim_is_the_first_model_with_the_most_wounds_lost() -> None:
    from w40k.agents.heuristic_stratagems import _next_victim
    game = _shoot([1], LASCANNON, cp=(4, 0))
    t = game.state.unit("blue.t")
    assert _next_victim(t) is t.alive[0]
    pos = sh.position(sh.unit("red.s", [sh.model("red.s.1", 10, 10, LASCANNON)]),
                      sh.unit("blue.t", [sh.model(f"blue.t.{i}", 10 + 2 * i, 20, W=3)
                                         for i in range(1, 5)]))
    state = sh.start(pos).state
    u = state.unit("blue.t")
    u.alive[1].wounds_lost = 1
    u.alive[3].wounds_lost = 1
    assert _next_victim(u).id == "blue.t.2"
    u.alive[3].wounds_lost = 2
    assert _next_victim(u).id == "blue.t.4"


HEAVY = sh.weapon("heavy bolter", range=36, A="1", skill=3, S=5, AP=-1, D="3")


def test_the_defender_rerolls_a_failed_save_against_a_multi_damage_wound() -> None:
    # Blue's save die shows 1 against a D3 wound on a W3 Sv3 model: a re-roll saves with
    # 3/6 (AP-1) and keeps the whole model (worth 3): 1.5 > 1 CP with 4 CP.
    game = _shoot([5, 5, 1], HEAVY, cp=(0, 4), W=3, T=4, Sv=3)
    req = pending(game)
    assert (req.player, req.context["facts"]["kind"]) == ("blue", "save")  # type: ignore[index]
    assert _agent().choose(game, req) == [CR, {"unit": "blue.t", "die": 0, "face": 1}]


def test_a_failed_save_against_one_damage_on_a_three_wound_model_is_not_rerolled() -> None:
    one = {**HEAVY, "D": "1"}
    game = _shoot([5, 5, 1], one, cp=(0, 4), W=3, T=4, Sv=3)
    req = pending(game)
    assert (req.player, req.context["facts"]["kind"]) == ("blue", "save")  # type: ignore[index]
    assert _agent().choose(game, req) == DECLINE


# -- Fire Overwatch ------------------------------------------------------------------------
GUN = sh.weapon("autocannon", range=48, A="6", skill=3, S=8, AP=-2, D="2")


def _overwatch(enemy_y: float, enemy_weapons: list[dict[str, JSON]], cp: int) -> tuple[Game,
                                                                                       Request]:
    red = sh.unit("red.g", sh.row("red.g", 5, 10.0, 10.0, GUN))
    blue = sh.unit("blue.m", sh.row("blue.m", 10, 10.0, enemy_y, *enemy_weapons))
    game = _set_cp(sh.start(sh.position(red, blue)), cp)
    answer: JSON = {"unit": "red.g", "enemy": "blue.m"}
    return game, _ask("red", "end_of_phase", {"phase": "movement"}, ["Fire Overwatch", answer])


def test_fire_overwatch_at_a_unit_about_to_charge() -> None:
    # 30 attacks hitting on 6s only (15.09): about 5 hits, 4 unsaved, 4 W1 models: > 1 CP.
    game, req = _overwatch(18.0, [sh.CHOPPA], cp=3)
    assert _agent().choose(game, req) == ["Fire Overwatch", {"unit": "red.g", "enemy": "blue.m"}]


def test_no_fire_overwatch_at_a_unit_that_will_not_charge_nor_without_cp() -> None:
    # Too far to charge (more than 12" away) ...
    game, req = _overwatch(30.0, [sh.CHOPPA], cp=3)
    assert _agent().choose(game, req) == DECLINE
    # ... a gunline with no melee weapon (it shoots rather than charges) ...
    game, req = _overwatch(18.0, [sh.BOLTGUN], cp=3)
    assert _agent().choose(game, req) == DECLINE
    # ... or no CP left (R15.01-c: the engine would not offer it either).
    game, req = _overwatch(18.0, [sh.CHOPPA], cp=0)
    assert _agent().choose(game, req) == DECLINE


# -- Insane Bravery ----------------------------------------------------------------------------
def _bravery(on_objective: bool, cp: int) -> tuple[Game, Request]:
    squad = unit("red.s", "red", line("red.s", 2, x=10.0, y=10.0, Ld=8), starting_strength=5)
    obj = marker("o", 10.5, 11.0) if on_objective else marker("o", 40.0, 30.0)
    game = Game.new(command_phase([squad], objectives=[obj], cp=(cp, 0)), 1)
    return game, _ask("red", "before_battle_shock", {"unit": "red.s"},
                      ["Insane Bravery", {"unit": "red.s"}])


def test_insane_bravery_for_a_unit_holding_an_objective() -> None:
    # Ld 8+: the roll fails 21/36 of the time, and the unit's OC on the objective is lost.
    game, req = _bravery(True, cp=2)
    assert _agent().choose(game, req) == ["Insane Bravery", {"unit": "red.s"}]


def test_no_insane_bravery_away_from_objectives() -> None:
    game, req = _bravery(False, cp=5)
    assert _agent().choose(game, req) == DECLINE


# -- Epic Challenge ------------------------------------------------------------------------------
def _challenge(blue_character: bool) -> tuple[Game, Request]:
    sword = melee_weapon("sword", A=5, WS=2, S=6, AP=-2, D=2)
    hero = fighter("red.h.1", 10, 10, weapons=[sword], W=5,
                   keywords=("INFANTRY", "CHARACTER"))
    blue = [fighter(f"blue.u.{i + 1}", 8.5 + 1.5 * i, 10 + BASE + 0.5) for i in range(4)]
    if blue_character:
        blue[0]["profile"]["keywords"] = ["INFANTRY", "CHARACTER"]  # type: ignore[index]
        blue[0]["profile"]["W"] = 4  # type: ignore[index]
    units = [unit("red.h", "red", [hero]), unit("blue.u", "blue", blue)]
    game = Game.new(fight_phase(units, cp=(3, 0)), 1)
    return game, _ask("red", "unit_selected", {"unit": "red.h", "action": "fight"},
                      ["Epic Challenge", {"unit": "red.h", "model": "red.h.1"}])


def test_epic_challenge_against_a_unit_led_by_a_character() -> None:
    game, req = _challenge(True)
    s = game.state
    value = option_value(game, "red", "Epic Challenge", {"unit": "red.h", "model": "red.h.1"},
                         {})
    assert value > cp_threshold(s, "red", 1)
    assert _agent().choose(game, req) == ["Epic Challenge", {"unit": "red.h", "model": "red.h.1"}]


def test_no_epic_challenge_against_a_unit_without_a_character() -> None:
    game, req = _challenge(False)
    assert _agent().choose(game, req) == DECLINE


# -- Heroic Intervention -------------------------------------------------------------------------
def _heroic(weapons: list[dict[str, JSON]], cp: int = 3) -> tuple[Game, Request]:
    red = unit("red.h", "red", [fighter("red.h.1", 10, 10, weapons=weapons)])
    blue = unit("blue.c", "blue", [fighter(f"blue.c.{i + 1}", 10 + 1.5 * i, 10 + BASE + 3.0)
                                   for i in range(3)], flags={"charged": True})
    game = Game.new(charge_phase([red, blue], player="blue", cp=(cp, 0)), 1)
    leap: JSON = {"unit": "red.h", "mode": "leap_to_defend"}
    fray: JSON = {"unit": "red.h", "mode": "into_the_fray"}
    return game, _ask("red", "end_of_phase", {"phase": "charge"},
                      ["Heroic Intervention", leap], ["Heroic Intervention", fray])


def test_heroic_intervention_when_it_wins_the_exchange_leap_to_defend_for_1cp() -> None:
    # 3" from a unit that charged: 2D6 reaches with 33/36 and the axe wins the exchange;
    # Into the Fray would reach the same unit for a CP more.
    game, req = _heroic([AXE])
    assert _agent().choose(game, req) == ["Heroic Intervention",
                                          {"unit": "red.h", "mode": "leap_to_defend"}]


def test_no_heroic_intervention_that_loses_the_exchange() -> None:
    weak = melee_weapon("knife", A=1, WS=5, S=2, AP=0, D=1)
    game, req = _heroic([weak])
    assert _agent().choose(game, req) == DECLINE


# -- Smokescreen -------------------------------------------------------------------------------
def _smoke(blue_x: float, blue_y: float, cp: int = 3) -> tuple[Game, Request]:
    red = sh.unit("red.s", sh.row("red.s", 10, 2.0, 2.0, W=2, T=4, Sv=3,
                                  keywords=("INFANTRY", "SMOKE")))
    blue = sh.unit("blue.g", sh.row("blue.g", 3, blue_x, blue_y, GUN))
    game = _set_cp(sh.start(sh.position(red, blue)), cp)
    return game, _ask("red", "start_of_phase", {"phase": "shooting"},
                      ["Smokescreen", {"unit": "red.s"}])


def test_smokescreen_against_heavy_fire_in_range() -> None:
    # Three autocannons 12" away kill about 6.7 of the ten W2 Sv3 models; with cover (13.08,
    # -1 BS) about 5: the half of that saving expected on this unit is worth a CP.
    game, req = _smoke(2.0, 14.0)
    assert _agent().choose(game, req) == ["Smokescreen", {"unit": "red.s"}]


def test_no_smokescreen_when_nothing_can_shoot_the_unit() -> None:
    # The autocannons reach 48": 50" away, cover saves nothing.
    game, req = _smoke(50.0, 40.0)
    assert _agent().choose(game, req) == DECLINE


# -- Explosives and Crushing Impact --------------------------------------------------------------
def _explosives(cp: int) -> tuple[Game, Request]:
    red = sh.unit("red.g", sh.row("red.g", 3, 10.0, 10.0, keywords=("INFANTRY", "GRENADES")))
    blue = sh.unit("blue.t", sh.row("blue.t", 5, 10.0, 16.0))
    game = _set_cp(sh.start(sh.position(red, blue)), cp)
    answer: JSON = {"unit": "red.g", "model": "red.g.1", "enemy": "blue.t"}
    return game, _ask("red", "start_of_phase", {"phase": "shooting"}, ["Explosives", answer])


def test_explosives_at_a_unit_of_one_wound_models() -> None:
    # Six D6, each 4+ a mortal wound: 3 of the 5 models expected, worth the last CP.
    game, req = _explosives(cp=1)
    assert _agent().choose(game, req) == ["Explosives", {"unit": "red.g", "model": "red.g.1",
                                                         "enemy": "blue.t"}]


def test_no_explosives_without_cp() -> None:
    game, req = _explosives(cp=0)
    assert _agent().choose(game, req) == DECLINE


def _impact(blue_w: int, blue_n: int) -> tuple[Game, Request]:
    beast = fighter("red.m.1", 10, 10, W=12, keywords=("MONSTER",), base_mm=60.0)
    beast["profile"]["T"] = 10  # type: ignore[index]
    blue = [fighter(f"blue.t.{i + 1}", 8.5 + 1.5 * i, 10 + 60 / 25.4 / 2 + 0.8, W=blue_w)
            for i in range(blue_n)]
    units = [unit("red.m", "red", [beast]), unit("blue.t", "blue", blue)]
    game = Game.new(charge_phase(units, cp=(3, 0)), 1)
    answer: JSON = {"unit": "red.m", "enemy": "blue.t", "model": "red.m.1"}
    return game, _ask("red", "charge_move_ended", {"unit": "red.m"},
                      ["Crushing Impact", answer])


def test_crushing_impact_into_a_unit_of_one_wound_models() -> None:
    # T10: ten D6, 5+ a mortal wound on the enemy (3.3 expected), 1s on the monster (1.7).
    game, req = _impact(1, 5)
    assert _agent().choose(game, req) == ["Crushing Impact", {"unit": "red.m", "enemy": "blue.t",
                                                              "model": "red.m.1"}]


def test_no_crushing_impact_into_a_big_model_it_cannot_kill() -> None:
    game, req = _impact(16, 1)
    assert _agent().choose(game, req) == DECLINE


# -- Counteroffensive ------------------------------------------------------------------------------
def _counter(enemy_fought: bool) -> tuple[Game, Request]:
    red = unit("red.a", "red", [fighter(f"red.a.{i + 1}", 10 + 1.5 * i, 10, weapons=[AXE])
                                for i in range(3)])
    brutes = melee_weapon("claws", A=4, WS=3, S=6, AP=-1, D=2)
    blue = unit("blue.b", "blue", [fighter(f"blue.b.{i + 1}", 10 + 1.5 * i, 10 + BASE + 0.5,
                                           weapons=[brutes]) for i in range(5)],
                flags={"fought": enemy_fought})
    game = Game.new(fight_phase([red, blue], player="blue", cp=(4, 0)), 1)
    return game, _ask("red", "after_fight", {"unit": "blue.x"},
                      ["Counteroffensive", {"unit": "red.a"}])


def test_counteroffensive_before_an_engaged_enemy_that_has_not_fought_strikes() -> None:
    game, req = _counter(False)
    assert _agent().choose(game, req) == ["Counteroffensive", {"unit": "red.a"}]


def test_no_counteroffensive_when_the_engaged_enemy_has_fought() -> None:
    game, req = _counter(True)
    assert _agent().choose(game, req) == DECLINE


# -- what it leaves alone ----------------------------------------------------------------------
def test_rapid_ingress_and_non_stratagem_reactions_are_declined() -> None:
    game = Game.new(command_phase([unit("red.a", "red", [fighter("red.a.1", 10, 10)])],
                                  cp=(6, 0)), 1)
    req = _ask("red", "end_of_phase", {"phase": "movement"}, ["Rapid Ingress", {"unit": "red.a"}])
    assert _agent().choose(game, req) == DECLINE


# -- Firing Deck (24.14) ---------------------------------------------------------------------
PLASMA = sh.weapon("plasma gun", range=24, A="1", S=8, AP=-3, D="2")


def _deck(target_y: float, deck: int = 1) -> tuple[Game, Request]:
    hull = sh.model("red.rhino.1", 20.0, 10.0, sh.weapon("storm bolter", range=24),
                    keywords=("VEHICLE", "TRANSPORT"), T=9, W=10)
    hull["profile"].update(transport={"models": 12}, abilities=[f"Firing Deck {deck}"],
                           base_mm=[120.0, 70.0])
    ms = sh.row("red.sq", 5, 0.0, 0.0, sh.BOLTGUN)
    ms[2]["weapons"] = [sh.BOLTGUN, PLASMA]
    squad = {**sh.unit("red.sq", ms), "location": "embarked", "embarked_in": "red.rhino"}
    target = sh.unit("blue.t", sh.row("blue.t", 5, 20.0, target_y, W=3, T=4, Sv=4))
    game = sh.start(sh.position(sh.unit("red.rhino", [hull]), squad, target))
    sh.select(game, "red.rhino")
    req = pending(game)
    assert req.kind == K.FIRING_DECK
    return game, req


def test_firing_deck_lends_the_weapon_that_adds_the_most() -> None:
    # R24.14-a: one weapon; the plasma gun (S8 AP-3 D2) does more to W3 Sv4 models than a
    # boltgun, and the game accepts the answer.
    game, req = _deck(25.0)
    answer = HeuristicAgent(1, strict=True).choose(game, req)
    assert answer == [["red.sq.3", "plasma gun"]]
    game.submit(answer)
    assert pending(game).kind in (K.SHOOTING_TYPE, K.DECLARE_SHOOTING)
    # Firing Deck 2: the plasma gun and a boltgun of another model.
    game, req = _deck(25.0, deck=2)
    answer = HeuristicAgent(1, strict=True).choose(game, req)
    assert answer[0] == ["red.sq.3", "plasma gun"] and len(answer) == 2  # type: ignore[index]
    assert answer[1][1] == "boltgun"  # type: ignore[index]


def test_firing_deck_lends_nothing_when_no_weapon_reaches_an_enemy() -> None:
    game, req = _deck(43.0)
    for m in game.state.unit("blue.t").models:
        m.x += 30.0  # more than 24" from the transport: no weapon reaches
    assert HeuristicAgent(1, strict=True).choose(game, req) == []


# -- whole battle --------------------------------------------------------------------------
def test_the_heuristic_player_plays_a_whole_battle_with_stratagems_legally() -> None:
    # The default position against the greedy player (faster than heuristic against itself):
    # strict, so every answer is the heuristic's own and legal; it uses stratagems.
    from w40k.agents import GreedyAgent
    from w40k.io.battle_setup import default_position
    used = False
    for seed in (3, 4, 5, 6):  # a game in which it uses one (the others are legal too)
        game = Game.new(default_position(), seed)
        agents = {"red": HeuristicAgent(seed + 4, strict=True), "blue": GreedyAgent(seed)}
        while (req := game.pending()) is not None:
            game.submit(agents[req.player].choose(game, req), player=req.player,
                        request_id=req.id)
        assert game.state.events[-1]["event"] == "battle_end"
        used = any(e["event"] == "stratagem" and e["by"] == "red" for e in game.state.events)
        if used:
            break
    assert used
