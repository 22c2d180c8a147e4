"""15.01 using stratagems, 15.02 Command Re-roll and 15.04 Insane Bravery in the engine's
reaction windows (scripted dice). Every stratagem is offered only when usable: enough CP, the
right turn and phase, not already used this phase, an eligible target."""

from __future__ import annotations

import json
from typing import cast

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import command_phase, dice_left, events, line, scripted, unit
from tests.engine.melee_helpers import BASE, charge_phase, fighter, pending
from w40k.core.errors import IllegalChoice
from w40k.core.jsonval import JSON
from w40k.engine.game import Game
from w40k.rules.decisions import DECLINE, DecisionKind

pytestmark = pytest.mark.stratagems

CR = "Command Re-roll"


def _reactions(game: Game) -> list[JSON]:
    req = game.pending()
    if req is None or req.kind is not DecisionKind.REACTION:
        return []
    return list(req.options[1:])


# -- charge rolls --------------------------------------------------------------------------
def _charge(dice: list[int], cp: int = 1, n: int = 1) -> Game:
    units = [unit(f"red.a{i}", "red", [fighter(f"red.a{i}.1", 10 + 20 * i, 10)])
             for i in range(n)]
    units += [unit(f"blue.b{i}", "blue", [fighter(f"blue.b{i}.1", 10 + 20 * i,
                                                   10 + BASE + 6.0)]) for i in range(n)]
    game = scripted(Game.new(charge_phase(units, cp=(cp, 0)), seed=1), dice)
    assert pending(game).kind == "select_unit_to_charge"
    game.submit("red.a0")
    return game


def test_command_reroll_rerolls_a_failed_charge_roll_in_full_for_1cp() -> None:
    # R15.02-a/b, R15.01-c: 1+1 does not reach the 6" gap; the re-roll (both dice) is 6+5.
    game = _charge([1, 1, 6, 5])
    assert _reactions(game) == [[CR, {"unit": "red.a0"}]]
    game.submit([CR, {"unit": "red.a0"}], player="red")
    assert game.state.player("red").cp == 0
    assert pending(game).kind == "charge_targets"
    use = events(game, "stratagem")[0]
    assert (use["name"], use["cp"], use["cp_left"], use["unit"]) == (CR, 1, 0, "red.a0")
    assert events(game, "command_reroll")[0]["new"] == [6, 5]
    assert events(game, "charge_roll")[-1]["roll"] == 11


def test_command_reroll_is_not_offered_without_enough_cp() -> None:
    # R15.01-c: 0 CP: nothing is asked, the charge fails.
    game = _charge([1, 1], cp=0)
    assert game.pending() is None
    assert any(e["event"] == "charge_failed" for e in events(game))


def test_the_same_stratagem_is_not_offered_twice_in_one_phase() -> None:
    # R15.01-a: red re-rolls its first charge; with 1 CP left, the second unit's failed
    # charge is not offered a second Command Re-roll in the same phase.
    game = _charge([1, 1, 6, 5], cp=2, n=2)
    game.submit([CR, {"unit": "red.a0"}])
    while (req := pending(game)).kind != "select_unit_to_charge":
        game.submit(req.options[-1] if req.kind != "charge_targets" else "fail")
    game.dice.inner.faces += [1, 1]  # type: ignore[attr-defined]
    game.submit("red.a1")
    assert _reactions(game) == []
    assert game.state.player("red").cp == 1


def test_a_refused_stratagem_answer_changes_nothing() -> None:
    # R15.01-c: an answer naming another unit is refused; CP and dice are as they were.
    game = _charge([1, 1, 6, 5])
    game.pending()
    before = json.dumps(game.save(), sort_keys=True)
    with pytest.raises(IllegalChoice):
        game.submit([CR, {"unit": "blue.b0"}])
    assert json.dumps(game.save(), sort_keys=True) == before


# -- attack rolls --------------------------------------------------------------------------
def _shoot(dice: list[int], *, cp: tuple[int, int] = (1, 0), attacks: int = 1,
           abilities: tuple[str, ...] = (), blue_flags: dict[str, bool] | None = None) -> Game:
    gun = sh.weapon("gun", A=str(attacks), abilities=abilities)
    pos = sh.position(sh.unit("red.s", [sh.model("red.s.1", 10, 10, gun)]),
                      sh.unit("blue.t", [sh.model("blue.t.1", 10, 20)], flags=blue_flags))
    for p, n in zip(cast(list[dict[str, JSON]], pos["players"]), cp, strict=True):
        p["cp"] = n
    game = scripted(sh.start(pos), dice)
    sh.select(game, "red.s")
    game.submit({"red.s.1": {"gun": "blue.t"}})
    return game


def test_command_reroll_rerolls_one_hit_die_and_the_attack_uses_the_new_face() -> None:
    # R15.02-a/c: just after the hit roll [1], before it is used: re-rolled to 5 (BS 3+ hits),
    # wound 4 (S4 v T3), save 1 (Sv 6+ fails): the model is destroyed.
    game = _shoot([1, 5, 4, 1])
    req = pending(game)
    assert (req.kind, req.player, req.context["facts"]["kind"]) == ("reaction", "red", "hit")
    game.submit([CR, {"unit": "red.s", "die": 0, "face": 1}])
    sh.finish(game)
    assert not dice_left(game)
    attack = events(game, "attack")[0]
    assert (attack["hits"], attack["wounds_lost"]) == (1, 1)
    assert events(game, "command_reroll")[0] == {**events(game, "command_reroll")[0],
                                                 "kind": "hit", "old": 1, "new": 5}


def test_of_several_dice_one_is_rerolled_one_option_per_face() -> None:
    # R15.02-b: hit dice [1, 1, 6]: one die is re-rolled; the two 1s are interchangeable.
    game = _shoot([1, 1, 6], attacks=3)
    assert _reactions(game) == [[CR, {"unit": "red.s", "die": 0, "face": 1}],
                                [CR, {"unit": "red.s", "die": 2, "face": 6}]]


def test_the_defender_rerolls_a_save_in_the_opponents_turn() -> None:
    # R15.02-a: a save roll made by the defending player for their unit -> allowed.
    game = _shoot([6, 6, 1, 6], cp=(0, 1))
    req = pending(game)
    assert (req.player, req.context["facts"]["kind"]) == ("blue", "save")
    game.submit([CR, {"unit": "blue.t", "die": 0, "face": 1}], player="blue")
    sh.finish(game)
    assert events(game, "attack")[0]["wounds_lost"] == 0
    assert game.state.player("blue").cp == 0


def test_a_battle_shocked_unit_cannot_be_targeted_by_its_players_stratagems() -> None:
    # R01.07-c / R15.01-d: the battle-shocked defender is not offered a save re-roll.
    game = _shoot([6, 6, 1], cp=(0, 1), blue_flags={"battle_shocked": True})
    assert _reactions(game) == []
    sh.finish(game)
    assert events(game, "attack")[0]["wounds_lost"] == 1
    assert game.state.player("blue").cp == 1


def test_a_die_already_rerolled_cannot_be_rerolled_again() -> None:
    # R15.02-e / X002-h: [TWIN-LINKED] re-rolls the failed wound 1 into 2 (still failed):
    # Command Re-roll is not offered for that die.
    game = _shoot([6, 1, 2], abilities=("TWIN-LINKED",))
    assert pending(game).context["facts"]["kind"] == "hit"
    game.submit(DECLINE)
    assert _reactions(game) == []
    sh.finish(game)
    assert events(game, "attack")[0]["wounds"] == 0


def test_command_reroll_is_never_offered_for_a_battle_shock_roll() -> None:
    # R15.02-a: battle-shock rolls are not in the list (only Insane Bravery comes before).
    units = [unit("red.a", "red", line("red.a", 3, x=10, y=10), starting_strength=3,
                  flags={"battle_shocked": True})]
    game = scripted(Game.new(command_phase(units, cp=(3, 0)), seed=1), [1, 1])
    assert game.pending() is None  # battle-shocked: no Insane Bravery either (R15.04-b)
    assert events(game, "battle_shock_roll")[0]["passed"] is False


# -- 15.04 Insane Bravery --------------------------------------------------------------------
def _half(**kw: object) -> list[dict[str, JSON]]:
    return [unit("red.half", "red", line("red.half", 4, x=5, y=5, dead=range(2)),
                 starting_strength=4, **kw)]  # type: ignore[arg-type]


def test_insane_bravery_passes_the_battle_shock_roll_without_dice() -> None:
    # R15.04-a: just before the roll; automatically successful; 1 CP (1 + 1 gained - 1).
    game = Game.new(command_phase(_half(), cp=(1, 0)), seed=1)
    assert _reactions(game) == [["Insane Bravery", {"unit": "red.half"}]]
    game.submit(["Insane Bravery", {"unit": "red.half"}])
    assert game.pending() is None
    roll = events(game, "battle_shock_roll")[0]
    assert (roll["passed"], roll["dice"]) == (True, [])
    assert game.state.player("red").cp == 1
    assert not [e for e in events(game, "roll")]


def test_insane_bravery_declined_the_roll_is_made() -> None:
    game = scripted(Game.new(command_phase(_half(), cp=(1, 0)), seed=1), [1, 1])
    game.submit(DECLINE)
    assert game.pending() is None
    assert game.state.unit("red.half").flag("battle_shocked")


def test_insane_bravery_only_once_per_battle() -> None:
    # R15.04-a: a use in round 1 -> not offered in round 2 (the roll is made).
    pos = command_phase(_half(), cp=(3, 0), round=2)
    pos["stratagems"] = [{"player": "red", "name": "Insane Bravery", "units": ["red.half"],
                          "answer": {"unit": "red.half"}, "cp": 1, "round": 1, "turn": "red",
                          "phase": "command"}]
    game = scripted(Game.new(pos, seed=1), [6, 6])
    assert game.pending() is None
    assert events(game, "battle_shock_roll")[0]["dice"] == [6, 6]


def test_insane_bravery_is_not_offered_to_an_already_battle_shocked_unit() -> None:
    # R15.04-b (R01.07-c): the unit rolling to recover is battle-shocked.
    game = scripted(Game.new(command_phase(_half(flags={"battle_shocked": True}), cp=(3, 0)),
                             seed=1), [6, 6])
    assert game.pending() is None


def test_a_game_saved_in_a_stratagem_window_continues_identically() -> None:
    # Save/load in the middle of a window (sorted keys): the same request, the same result.
    game = _charge([1, 1, 6, 5])
    saved = json.loads(json.dumps(game.save(), sort_keys=True))
    twin = Game.load(saved)
    assert twin.pending() == game.pending()
    for g in (game, twin):
        g.submit([CR, {"unit": "red.a0"}])
        g.pending()
    assert twin.save() == game.save()


def test_command_reroll_comes_just_after_the_roll_and_not_later() -> None:
    # R15.02-c: the save window opens before any damage is allocated; once declined, no later
    # request offers a re-roll of those saves.
    game = _shoot([6, 6, 1], cp=(0, 1))
    req = pending(game)
    assert req.context["facts"]["kind"] == "save"
    assert game.state.unit("blue.t").models[0].wounds_lost == 0  # nothing allocated yet
    game.submit(DECLINE)
    while (req := game.pending()) is not None:
        assert req.kind is not DecisionKind.REACTION
        game.submit(req.options[0] if req.kind != "select_unit_to_shoot" else "done")
    assert game.state.unit("blue.t").destroyed


def test_no_command_reroll_of_hit_rolls_in_indirect_shooting() -> None:
    # R15.02-d: indirect fire bans hit re-rolls: the hit roll opens no Command Re-roll; the
    # wound roll does.
    mortar = sh.weapon("mortar", range=48, A="1", abilities=("INDIRECT FIRE",))
    pos = sh.position(sh.unit("red.s", [sh.model("red.s.1", 10, 10, mortar)]),
                      sh.unit("blue.t", [sh.model("blue.t.1", 10, 20)]))
    cast(list[dict[str, JSON]], pos["players"])[0]["cp"] = 1
    game = scripted(sh.start(pos), [6, 6, 6])
    sh.select(game, "red.s")
    assert pending(game).kind == "shooting_type"
    game.submit("indirect")
    game.submit({"red.s.1": {"mortar": "blue.t"}})
    req = pending(game)
    assert (req.kind, req.context["facts"]["kind"]) == ("reaction", "wound")
    assert events(game, "roll")[0]["kind"] == "hit"
