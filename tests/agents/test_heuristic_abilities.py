"""The heuristic player's estimates see the abilities and effects in force (issue 13): each
estimate equals the math layer's exact expectation for the profile and context the engine
itself would give the attack (``engine.ability_effects.attack_abilities``), and a choice
flips because of an ability (it shoots the Oath of Moment target)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.melee_helpers import BASE, charge_phase, fight_phase, fighter, unit
from w40k.agents import HeuristicAgent
from w40k.agents import heuristic_eval as he
from w40k.agents.heuristic import charge_choice
from w40k.agents.heuristic_attacks import target_score
from w40k.core.abilities import LethalHits
from w40k.core.dice import Modifier
from w40k.core.profiles import WeaponProfile
from w40k.engine.game import Game
from w40k.engine.requests import K, request
from w40k.engine.state import UnitData
from w40k.math import distribution
from w40k.rules.attack_profile import AttackContext, Reroll, WeaponEntry

RIFLE = sh.weapon("rifle", A="1")
"""One BS 3+ S4 AP0 D1 attack (range 24")."""


def _exact(weapons: tuple[WeaponEntry, ...], target: UnitData, ctx: AttackContext) -> float:
    """The math layer's exact expected kills."""
    return distribution(weapons, he.target_states(target), ctx).mean_models_destroyed


def _shooting(effects: dict[str, Any] | None = None, *, target_y: float = 25.0,
              target_abilities: tuple[str, ...] = (),
              others: tuple[dict[str, Any], ...] = ()) -> Game:
    """One rifle at one T3 Sv6+ W1 model ``target_y - 10``" (centres) away."""
    target = sh.model("blue.x.1", 10, target_y, T=3, Sv=6)
    target["abilities"] = list(target_abilities)
    pos = sh.position(sh.unit("red.a", [sh.model("red.a.1", 10, 10, RIFLE)]), *others,
                      sh.unit("blue.x", [target]))
    if effects:
        pos["players"][0]["effects"] = effects
    return sh.start(pos)


def _units(game: Game) -> tuple[UnitData, UnitData]:
    return game.state.unit("red.a"), game.state.unit("blue.x")


RIFLE_ENTRY = (WeaponEntry(WeaponProfile.from_json(RIFLE), 1, False),)
PLAIN = AttackContext(target_models_at_select=1)


def test_the_oath_of_moment_estimate_is_the_exact_expectation_with_failed_hits_rerolled(
) -> None:
    # Oath of Moment: attacks on the target re-roll failed Hit rolls. Hit 3+ re-rolled
    # (8/9), wound S4 vs T3 on 3+ (2/3), Sv 6+ fails 5/6: 40/81 kills; 30/81 without.
    game = _shooting({"Oath of Moment": "blue.x"})
    a, x = _units(game)
    o = he.ranged_outcome(a, x, state=game.state)
    oath = AttackContext(target_models_at_select=1, reroll_hits=Reroll.FAILED)
    assert o.kills == pytest.approx(_exact(RIFLE_ENTRY, x, oath)) == pytest.approx(40 / 81)
    # the very modifiers the engine sets when it pushes the attack
    assert he.adjusted(a, x, RIFLE_ENTRY, PLAIN, melee=False, state=game.state)[2] == (
        "Oath of Moment",)
    # another target, or no state to read the effects from: the plain profile
    assert he.ranged_outcome(a, x).kills == pytest.approx(30 / 81)
    other = _shooting({"Oath of Moment": "blue.other"})
    a2, x2 = _units(other)
    assert he.ranged_outcome(a2, x2, state=other.state).kills == pytest.approx(30 / 81)


def test_a_kept_estimate_follows_the_effects_in_force() -> None:
    # The estimates are kept while the units are unchanged; the key holds the modifiers, so
    # an Oath of Moment selected after a first estimate changes the next one.
    game = _shooting()
    a, x = _units(game)
    est = he.Estimates(game.state)
    assert est.ranged_outcome(a, x).kills == pytest.approx(30 / 81)
    game.state.player("red").effects["Oath of Moment"] = "blue.x"
    assert est.ranged_outcome(a, x).kills == pytest.approx(40 / 81)
    del game.state.player("red").effects["Oath of Moment"]
    assert est.ranged_outcome(a, x).kills == pytest.approx(30 / 81)


def test_units_of_another_state_see_none_of_the_observed_abilities() -> None:
    # A clone's units (or an earlier game's) are not the observed state's: plain profile.
    game = _shooting({"Oath of Moment": "blue.x"})
    est = he.Estimates(game.state)
    clone = game.state.clone()
    a, x = clone.unit("red.a"), clone.unit("blue.x")
    assert he.state_of(a, game.state) is None
    assert est.ranged_outcome(a, x).kills == pytest.approx(30 / 81)
    assert est.ranged_outcome(*_units(game)).kills == pytest.approx(40 / 81)


def test_two_views_of_two_games_keep_their_own_estimates() -> None:
    # No module state (STYLE.md): two players' views, of two games in one process, each read
    # their own state and keep their own estimates, asked in any order.
    oath, plain = _shooting({"Oath of Moment": "blue.x"}), _shooting()
    one, two = he.Estimates(oath.state), he.Estimates(plain.state)
    for _ in range(2):
        assert one.ranged_outcome(*_units(oath)).kills == pytest.approx(40 / 81)
        assert two.ranged_outcome(*_units(plain)).kills == pytest.approx(30 / 81)
    assert len(one.ranged) == len(two.ranged) == 1
    # a player's view follows the state of the request it answers
    agent = HeuristicAgent(1, strict=True)
    req = plain.pending()
    assert req is not None
    agent.choose(plain, req)
    assert agent.estimates.state is plain.state


def test_sneaky_gits_takes_one_from_the_hit_roll_only_when_shot_from_more_than_12_inches(
) -> None:
    # Sneaky Gits (datasheet, docs/rulings.md): -1 to hit when the shooting unit is more than
    # 12" away (closest models). Hit 3+ at -1 needs a 4 (1/2): 1/2 x 2/3 x 5/6 = 5/18.
    game = _shooting(target_y=25.0, target_abilities=("Sneaky Gits",))
    a, x = _units(game)
    sneaky = AttackContext(target_models_at_select=1,
                           hit_modifiers=(Modifier("Sneaky Gits", -1),))
    far = he.ranged_outcome(a, x, state=game.state)  # 15" centres: ~13.7" apart
    assert far.kills == pytest.approx(_exact(RIFLE_ENTRY, x, sneaky)) == pytest.approx(5 / 18)
    # an estimate of a move not made yet measures the distance it is given
    assert he.ranged_outcome(a, x, distance=10.0, state=game.state).kills == pytest.approx(
        30 / 81)
    assert he.ranged_outcome(a, x, distance=18.0, state=game.state).kills == pytest.approx(
        5 / 18)
    near = _shooting(target_y=20.0, target_abilities=("Sneaky Gits",))  # ~8.7" apart
    assert he.ranged_outcome(*_units(near), state=near.state).kills == pytest.approx(30 / 81)


def test_the_tactical_command_aura_estimate_rerolls_hit_rolls_of_1() -> None:
    # R22.01-a/b: a friendly model with the aura within 6": re-roll Hit rolls of 1. Hit 3+
    # with 1s re-rolled: 2/3 + 1/6 x 2/3 = 7/9; x 2/3 x 5/6 = 35/81.
    captain = sh.model("red.c.1", 14, 10)
    captain["abilities"] = ["Tactical Command"]
    game = _shooting(others=(sh.unit("red.c", [captain]),))
    a, x = _units(game)
    ones = AttackContext(target_models_at_select=1, reroll_hits=Reroll.ONES)
    o = he.ranged_outcome(a, x, state=game.state)
    assert o.kills == pytest.approx(_exact(RIFLE_ENTRY, x, ones)) == pytest.approx(35 / 81)


def test_tactical_precision_gives_the_estimate_lethal_hits_while_its_bearer_leads() -> None:
    # Tactical Precision: while leading, the unit's weapons have [LETHAL HITS] (R24.23).
    lieutenant = sh.model("red.a.2", 11.5, 10)
    lieutenant["abilities"], lieutenant["leader"] = ["Tactical Precision"], True
    pos = sh.position(sh.unit("red.a", [sh.model("red.a.1", 10, 10, RIFLE), lieutenant]),
                      sh.unit("blue.x", [sh.model("blue.x.1", 10, 25, T=8, Sv=6)]))
    pos["units"][0]["attached"] = True
    game = sh.start(pos)
    a, x = _units(game)
    ws, _, applied = he.adjusted(a, x, RIFLE_ENTRY, PLAIN, melee=False, state=game.state)
    assert applied == ("Tactical Precision",)
    assert ws[0].weapon.abilities_of(LethalHits)
    # S4 vs T8 wounds on 6 (1/6); a critical hit (1/6) wounds automatically:
    # P(kill) = (1/6 + 1/2 x 1/6) x 5/6 = 5/24 (hit 3+: 1/6 critical, 1/2 ordinary)
    o = he.ranged_outcome(a, x, state=game.state)
    assert o.kills == pytest.approx(_exact(ws, x, PLAIN)) == pytest.approx(5 / 24)


def test_the_waaagh_estimate_adds_1_to_the_orks_melee_hit_and_wound_rolls() -> None:
    # Waaagh! (datasheet): while it lasts, +1 to the Hit and Wound rolls of ORKS melee
    # attacks (R05.01-d: modifiers change the roll). Two attacks WS 3+ (2+ with it), S4 vs T4
    # (3+ with it), save 3+ fails on 1-2.
    red = unit("red.a", "red", [fighter("red.a.1", 10, 10, keywords=["INFANTRY", "ORKS"])])
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 10, 10 + BASE + 1.0)])
    pos = fight_phase([red, blue])
    pos["players"][0]["effects"] = {"Waaagh!": 1, "Waaagh! active": 1}
    game = Game.new(pos, seed=1)
    a, b = game.state.unit("red.a"), game.state.unit("blue.b")
    waaagh = (Modifier("Waaagh!", 1),)
    ctx = AttackContext(charged=True, attacker_engaged_with_target=True,
                        target_models_at_select=1, hit_modifiers=waaagh,
                        wound_modifiers=waaagh)
    ws = he.entries(w for m in a.alive for w in he.best_melee(m))
    o = he.melee_outcome(a, b, charged=True, state=game.state)
    # each attack kills with 5/6 x 2/3 x 1/3 = 5/27: 1 - (22/27)^2 (one W1 model)
    assert o.kills == pytest.approx(distribution(ws, he.target_states(b), ctx)
                                     .mean_models_destroyed) == pytest.approx(245 / 729)
    # without it: 2/3 x 1/2 x 1/3 = 1/9 per attack, 1 - (8/9)^2
    assert he.melee_outcome(a, b, charged=True).kills == pytest.approx(17 / 81)
    # blue's attacks back are not ORKS ones (nor blue's Waaagh!): unchanged
    assert he.adjusted(b, a, ws, ctx, melee=True, state=game.state)[2] == ()


def test_the_heuristic_player_shoots_the_oath_of_moment_target() -> None:
    # Two five-model targets at the same distance, the same value per model: blue.b's Sv 6+
    # makes it the better target (2/3 x 2/3 x 5/6 per attack against 2/3 x 2/3 x 4/6 on
    # blue.a). With the Oath of Moment on blue.a its failed hits are re-rolled (8/9), which
    # makes blue.a the better one: the choice flips.
    bolt = sh.weapon("bolter", A="2")
    pos = sh.position(
        sh.unit("red.squad", sh.row("red.squad", 5, 20.0, 10.0, bolt)),
        sh.unit("blue.a", sh.row("blue.a", 5, 14.0, 20.0, Sv=5)),
        sh.unit("blue.b", sh.row("blue.b", 5, 26.0, 20.0, Sv=6)),
    )

    def targets(effects: dict[str, Any]) -> set[str]:
        pos["players"][0]["effects"] = effects
        game = sh.start(pos)
        s = game.state
        u, a, b = s.unit("red.squad"), s.unit("blue.a"), s.unit("blue.b")
        ws = [WeaponProfile.from_json(bolt)] * 5
        # the situation is what the test says
        assert (target_score(s, u, a, ws) > target_score(s, u, b, ws)) == bool(effects)
        agent = HeuristicAgent(1, strict=True)
        req = game.pending()
        assert req is not None and req.kind == K.SELECT_UNIT_TO_SHOOT
        game.submit(agent.choose(game, req))
        req = game.pending()
        assert req is not None and req.kind == K.DECLARE_SHOOTING
        answer: Any = agent.choose(game, req)
        chosen = {answer[m]["bolter"] for m in answer}
        estimated = he.adjusted(u, s.unit(min(chosen)), (), AttackContext(), melee=False,
                                state=s)[2]
        game.submit(answer)  # and the game accepts it
        # the engine applied the very abilities the estimate did
        logged = [e["abilities"] for e in game.state.events if e["event"] == "ability"]
        assert logged == ([list(estimated)] if estimated else [])
        return chosen

    assert targets({}) == {"blue.b"}
    assert targets({"Oath of Moment": "blue.a"}) == {"blue.a"}


def test_a_charge_counts_the_enemy_waaagh_in_the_blows_it_takes_back() -> None:
    # The charge's exchange (heuristic.charge_choice) reads the state's effects: the Orks'
    # Waaagh! (+1 to hit and wound in melee) makes what the charger takes back larger.
    def exchange(effects: dict[str, Any]) -> tuple[float, float]:
        red = unit("red.a", "red", [fighter("red.a.1", 10, 10)])
        blue = unit("blue.b", "blue", [fighter("blue.b.1", 10, 17,
                                               keywords=["INFANTRY", "ORKS"])])
        pos = charge_phase([red, blue])
        pos["players"][1]["effects"] = effects
        game = Game.new(pos, seed=1)
        s = game.state
        return charge_choice(s, s.unit("red.a"), s.unit("blue.b"))

    p, plain = exchange({})
    p2, waaagh = exchange({"Waaagh!": 1, "Waaagh! active": 1})
    assert p == p2 and waaagh < plain


def test_a_fall_back_it_cannot_place_is_not_asked_for_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R03.02-b: a move the proposer cannot place is cancelled; the unit then remains
    # stationary for the turn instead of choosing the same fall back again and again (the
    # abilities changed a real battle's game into one such endless loop).
    import w40k.agents.heuristic as heuristic

    # red.a (a rifle, no melee weapon) is engaged with a blue fighter: it would fall back
    pos = sh.position(sh.unit("red.a", [sh.model("red.a.1", 10, 10, RIFLE)]),
                      sh.unit("blue.x", [fighter("blue.x.1", 10, 10 + BASE + 0.5)]),
                      sh.unit("blue.y", [sh.model("blue.y.1", 10, 30)]))
    game = sh.start(pos)
    uid = "red.a"
    kind = request("red", K.MOVE_TYPE, "09.01", "move type",
                   ("remain_stationary", "fall_back_ordered", "fall_back_desperate"),
                   context={"unit": uid})
    assert HeuristicAgent(1, strict=True).choose(game, kind) == "fall_back_ordered"
    monkeypatch.setattr(heuristic, "sample", lambda g, r, rng: "cancel")
    agent = HeuristicAgent(1, strict=True)
    place = request("red", K.POSITIONS, "09.07", "fall back", free_form="positions",
                    context={"unit": uid, "move_type": "fall_back"})
    assert agent.choose(game, place) == "cancel"
    assert agent.choose(game, kind) == "remain_stationary"
