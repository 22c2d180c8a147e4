"""The core stratagems 15.03, 15.05, 15.06, 15.10 and 15.12 in their windows (scripted dice):
each offered and changing the outcome, and not offered when it must not be."""

from __future__ import annotations

from typing import Any, cast

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import events, scripted
from tests.engine.melee_helpers import (
    BASE,
    charge_phase,
    fight_phase,
    fighter,
    pending,
    skip_to,
    unit,
)
from w40k.core.errors import IllegalChoice
from w40k.core.jsonval import JSON
from w40k.engine.game import Game
from w40k.engine.phases.fight_sequence import is_fights_first
from w40k.engine.requests import Request
from w40k.rules.decisions import DECLINE, DecisionKind

pytestmark = pytest.mark.stratagems

GAP = 1.0
"""Edge-to-edge gap of engaged pairs."""


def _names(req: Request) -> list[str]:
    return [str(cast(list[JSON], o)[0]) for o in req.options[1:]]


def _set_cp(pos: dict[str, JSON], red: int, blue: int) -> dict[str, JSON]:
    for p, n in zip(cast(list[dict[str, JSON]], pos["players"]), (red, blue), strict=True):
        p["cp"] = n
    return pos


def _turn_at(pos: dict[str, JSON], player: str, phase_step: int) -> dict[str, JSON]:
    """The position at the start of the turn's phase number ``phase_step`` (1 command ...
    3 shooting): a turn frame, so that the start-of-phase window opens."""
    pos["frames"] = [{"kind": "turn", "data": {"player": player, "step": phase_step,
                                                "closed": phase_step}}]
    pos["turn_player"] = pos["active"] = player
    return pos


def _quiet(game: Game, req: Request, use: str | None = None) -> JSON:
    """Nobody moves or charges; reactions: ``use`` if offered, else decline."""
    if req.kind is DecisionKind.REACTION:
        return next((o for o in req.options[1:] if cast(list[JSON], o)[0] == use), DECLINE)
    if req.kind == "positions":
        return str(req.context.get("decline", "cancel"))
    if req.kind == "declare_fight":
        return req.context["default"]
    for stop in ("done", "skip", "fail", "remain_stationary"):
        if stop in req.options:
            return stop
    return req.options[0]


def _run(game: Game, use: str | None = None) -> None:
    while (req := game.pending()) is not None:
        game.submit(_quiet(game, req, use))


# -- 15.03 Epic Challenge ------------------------------------------------------------------
def _challenge(cp: int) -> Game:
    hero = fighter("red.c.1", 10, 10, keywords=("INFANTRY", "CHARACTER"))
    guard = fighter("blue.b.1", 10, 10 + BASE + GAP, W=3)
    boss = fighter("blue.b.2", 11.5, 10 + BASE + GAP, W=3, keywords=("INFANTRY", "CHARACTER"))
    boss["leader"] = True
    blue = unit("blue.b", "blue", [guard, boss])
    blue["attached"] = True
    return Game.new(fight_phase([unit("red.c", "red", [hero]), blue], cp=(cp, 0),
                                player="red"), seed=3)


def test_epic_challenge_gives_the_characters_melee_weapons_precision() -> None:
    # R15.03-a: after the CHARACTER unit is selected to fight, Epic Challenge: the attack may
    # be allocated to the enemy CHARACTER (a [PRECISION] request), which it could not before.
    game = _challenge(cp=1)
    skip_to(game, "select_unit_to_fight")
    game.submit("red.c")
    req = pending(game)
    assert req.options[1:] == (["Epic Challenge", {"unit": "red.c", "model": "red.c.1"}],)
    game.submit(req.options[1])
    kinds = []
    while (req := game.pending()) is not None:
        kinds.append(str(req.kind))
        game.submit(_quiet(game, req))
    assert "precision" in kinds
    assert game.state.player("red").cp == 0


def test_epic_challenge_is_not_offered_without_cp_and_no_precision_is_asked() -> None:
    game = _challenge(cp=0)
    skip_to(game, "select_unit_to_fight")
    game.submit("red.c")
    kinds = []
    while (req := game.pending()) is not None:
        kinds.append(str(req.kind))
        game.submit(_quiet(game, req))
    assert "reaction" not in kinds and "precision" not in kinds


# -- 15.05 Explosives ------------------------------------------------------------------------
def _explosives(enemy_y: float, *, engaged_enemy: bool = False, cp: int = 1) -> Game:
    gun = sh.weapon("gun")
    red = sh.unit("red.g", [sh.model("red.g.1", 10, 10, gun, keywords=("INFANTRY", "GRENADES"))])
    blue = sh.unit("blue.t", sh.row("blue.t", 5, 10, enemy_y))
    units = [red, blue]
    if engaged_enemy:
        units.append(sh.unit("red.x", [sh.model("red.x.1", 10, enemy_y + BASE + 0.5)]))
    pos = _turn_at(_set_cp(sh.position(*units), cp, 0), "red", 3)
    return scripted(Game.new(pos, seed=1), [4, 4, 1, 6, 3, 5])


def test_explosives_rolls_six_dice_each_4_plus_a_mortal_wound() -> None:
    # R15.05-a: [4,4,1,6,3,5] -> 4 mortal wounds on the W1 enemy models 7" away.
    game = _explosives(17.0 - BASE)
    req = pending(game)
    option = ["Explosives", {"unit": "red.g", "model": "red.g.1", "enemy": "blue.t"}]
    assert req.options[1:] == (option,)
    game.submit(option)
    while (req := pending(game)).kind == "select_model":  # not interchangeable: positions
        game.submit(req.options[0])
    assert events(game, "explosives")[0]["mortal_wounds"] == 4
    assert len(game.state.unit("blue.t").alive) == 1
    # R15.05-b (recommended reading): the unit may still shoot afterwards.
    assert pending(game).kind == "select_unit_to_shoot" and "red.g" in pending(game).options


def test_explosives_not_offered_beyond_8_inches_nor_at_an_engaged_enemy() -> None:
    # R15.05-a: 8.5" -> not offered; an engaged enemy -> not offered.
    assert pending(_explosives(10 + 8.5 + BASE)).kind == "select_unit_to_shoot"
    assert pending(_explosives(17.0 - BASE, engaged_enemy=True)).kind == "select_unit_to_shoot"


def test_explosives_measures_from_the_grenades_model_not_the_closest_squad_mate() -> None:
    # R15.05-a: the GRENADES model 9" (base to base) from the enemy -> not offered, though a
    # squad-mate without grenades is 5" from it (the unit's closest pair is only a pre-test);
    # the GRENADES model 7.9" away -> offered, that model named.
    gun = sh.weapon("gun")

    def game(grenade_y: float) -> Game:
        red = sh.unit("red.g", [
            sh.model("red.g.1", 10, 10, gun, keywords=("INFANTRY",)),
            sh.model("red.g.2", 12, grenade_y, gun, keywords=("INFANTRY", "GRENADES"))])
        blue = sh.unit("blue.t", sh.row("blue.t", 2, 10, 10 + 5 + BASE))
        pos = _turn_at(_set_cp(sh.position(red, blue), 1, 0), "red", 3)
        return Game.new(pos, seed=1)

    assert pending(game(10 + 5 - 9.0)).kind == "select_unit_to_shoot"
    req = pending(game(10 + 5 - 7.9))
    assert req.options[1:] == (
        ["Explosives", {"unit": "red.g", "model": "red.g.2", "enemy": "blue.t"}],)


@pytest.mark.parametrize("dx", [0.0, 3.0, 7.5])
def test_explosives_box_pre_test_answers_as_the_model_distances_R15_05_a(
        dx: float, monkeypatch: pytest.MonkeyPatch) -> None:
    # R15.05-a: the boxes of the two units only refuse an enemy unit farther than 8" (+EPS, +1e-6)
    # from every model; the options equal those of the plain measure (every unit pair's
    # distances, the box test switched off), the enemy from 1e-3" inside to 1e-3" outside the
    # 8" edge, 1e-9" apart around it, straight ahead and diagonally (a box gap below the
    # model distance).
    from w40k.engine.stratagems import core

    gun = sh.weapon("gun")

    def options(gap: float) -> tuple[str, tuple[JSON, ...]]:
        red = sh.unit("red.g", [
            sh.model("red.g.1", 10, 10, gun, keywords=("INFANTRY", "GRENADES")),
            sh.model("red.g.2", 12, 10, gun, keywords=("INFANTRY",))])
        # the enemy's first model ``gap`` (base to base) from red.g.1, ``dx`` to the side
        far = (gap + BASE) ** 2 - dx ** 2
        blue = sh.unit("blue.t", sh.row("blue.t", 3, 10 + dx, 10 + far ** 0.5, dx=1.5))
        pos = _turn_at(_set_cp(sh.position(red, blue), 1, 0), "red", 3)
        req = pending(Game.new(pos, seed=1))
        return str(req.kind), req.options

    for off in (-1e-3, -1e-6, -2e-9, -1e-9, 0.0, 1e-9, 2e-9, 1e-6, 2e-6, 1e-3):
        fast = options(8.0 + off)
        with monkeypatch.context() as m:
            m.setattr(core, "box_gap", lambda a, b: 0.0)
            plain = options(8.0 + off)
        assert fast == plain, off
    # both answers met
    assert options(8.0 - 1e-3)[0] == "reaction" and options(8.0 + 1e-3)[0] != "reaction"


def test_explosives_not_offered_in_the_opponents_shooting_phase() -> None:
    # R15.01-e: 'Your Shooting phase'.
    gun = sh.weapon("gun")
    red = sh.unit("red.g", [sh.model("red.g.1", 10, 10, gun, keywords=("INFANTRY", "GRENADES"))])
    blue = sh.unit("blue.t", sh.row("blue.t", 2, 10, 15, gun))
    pos = _turn_at(_set_cp(sh.position(red, blue), 3, 3), "blue", 3)
    req = pending(Game.new(pos, seed=1))
    assert req.kind == "select_unit_to_shoot" and req.player == "blue"


# -- 15.10 Smokescreen -----------------------------------------------------------------------
def _smoke(cp: int, keywords: tuple[str, ...] = ("INFANTRY", "SMOKE")) -> Game:
    gun = sh.weapon("gun", A="1")
    red = sh.unit("red.s", [sh.model("red.s.1", 10, 10, gun)])
    blue = sh.unit("blue.v", [sh.model("blue.v.1", 10, 20, keywords=keywords)])
    pos = _turn_at(_set_cp(sh.position(red, blue), 0, cp), "red", 3)
    return scripted(Game.new(pos, seed=1), [3, 6, 1])


def test_smokescreen_gives_cover_so_a_3_no_longer_hits() -> None:
    # R15.10-a: BS 3+ with cover (13.08: -1) -> a hit roll of 3 misses.
    game = _smoke(cp=1)
    req = pending(game)
    assert (req.player, _names(req)) == ("blue", ["Smokescreen"])
    game.submit(req.options[1], player="blue")
    sh.select(game, "red.s")
    game.submit({"red.s.1": {"gun": "blue.v"}})
    _run(game)
    assert events(game, "attack")[0]["hits"] == 0


def test_without_smokescreen_the_3_hits() -> None:
    # Not offered to a unit without SMOKE: the same roll hits.
    game = _smoke(cp=1, keywords=("INFANTRY",))
    sh.select(game, "red.s")
    game.submit({"red.s.1": {"gun": "blue.v"}})
    _run(game)
    assert events(game, "attack")[0]["hits"] == 1


# -- 15.06 Crushing Impact -------------------------------------------------------------------
def _impact(cp: int, keywords: tuple[str, ...] = ("MONSTER",), dice: list[int] | None = None
            ) -> Game:
    beast = fighter("red.m.1", 10, 10, keywords=keywords, W=20)
    cast(dict[str, Any], beast["profile"])["T"] = 9
    blue = unit("blue.b", "blue", [fighter(f"blue.b.{i}", 10 + 1.5 * i, 10 + BASE + 3.0, W=1)
                                   for i in range(8)])
    game = scripted(Game.new(charge_phase([unit("red.m", "red", [beast]), blue],
                                          cp=(cp, 0)), seed=1),
                    [3, 3] + (dice or [1, 1, 5, 6, 6, 5, 5, 5, 5]))
    game.submit("red.m")
    req = pending(game)
    while req.kind is DecisionKind.REACTION:  # decline the charge-roll re-roll
        game.submit(DECLINE)
        req = pending(game)
    game.submit(["blue.b"])
    game.submit({"red.m.1": [[10.0, 10.0 + 2.95]]})
    return game


def test_crushing_impact_t9_two_ones_and_seven_fives_capped_at_six() -> None:
    # R15.06-a: T9 dice [1,1,5,6,6,5,5,5,5] -> the unit takes 2, the enemy 6 (7 capped).
    game = _impact(cp=1)
    req = pending(game)
    assert _names(req) == ["Crushing Impact"]
    game.submit(req.options[1])
    _run(game)  # blue picks the models (they are not interchangeable: positions)
    impact = events(game, "crushing_impact")[0]
    assert impact["mortal_wounds"] == {"red.m": 2, "blue.b": 6}
    assert game.state.unit("red.m").models[0].wounds_lost == 2
    assert len(game.state.unit("blue.b").alive) == 2


def test_crushing_impact_not_offered_to_a_unit_that_is_not_monster_or_vehicle() -> None:
    game = _impact(cp=1, keywords=("INFANTRY",), dice=[])
    assert game.pending() is None


def test_crushing_impact_not_offered_after_a_failed_charge() -> None:
    # R15.06-b: only after a charge move that ended.
    beast = fighter("red.m.1", 10, 10, keywords=("MONSTER",))
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 10, 10 + BASE + 9.0)])
    game = scripted(Game.new(charge_phase([unit("red.m", "red", [beast]), blue], cp=(0, 0)),
                             seed=1), [1, 2])
    game.submit("red.m")
    assert game.pending() is None
    assert not events(game, "reaction")


# -- 15.12 Counteroffensive ------------------------------------------------------------------
FF = {"charged": True, "fights_first": True}


def _counter(cp: int) -> Game:
    def u(uid: str, player: str, x: float, y: float, flags: dict[str, bool] | None = None
          ) -> dict[str, JSON]:
        return unit(uid, player, [fighter(f"{uid}.1", x, y, W=10)], flags=flags)

    units = [u("red.a1", "red", 10, 10, FF), u("red.a2", "red", 20, 10),
             u("blue.b1", "blue", 10, 10 + BASE + GAP), u("blue.b2", "blue", 20, 10 + BASE + GAP)]
    return Game.new(fight_phase(units, cp=(3, cp)), seed=2)


def _fight_order(game: Game, use: str | None) -> list[str]:
    order = []
    while (req := game.pending()) is not None:
        ans = _quiet(game, req, use)
        if req.kind is DecisionKind.REACTION and ans != DECLINE:
            ans = req.options[-1]  # the last listed target (blue.b2)
        if req.kind == "select_unit_to_fight":
            order.append(str(ans))
        game.submit(ans)
    return order


def test_counteroffensive_makes_the_unit_fight_next_with_fights_first() -> None:
    # R15.12-a: after red.a1 (Fights First) fights, blue pays 2 CP for blue.b2: it is the
    # next unit blue selects, before red's remaining red.a2.
    assert _fight_order(_counter(0), None) == ["red.a1", "blue.b1", "red.a2", "blue.b2"]
    game = _counter(2)
    assert _fight_order(game, "Counteroffensive") == ["red.a1", "blue.b2", "red.a2", "blue.b1"]
    assert game.state.player("blue").cp == 0
    assert [e["unit"] for e in events(game, "stratagem")] == ["blue.b2"]


def test_counteroffensive_not_offered_with_1_cp_nor_in_ones_own_fight_phase() -> None:
    # R15.12-a: CP 1 -> not offered; red (the turn player, 3 CP) is never offered it.
    game = _counter(1)
    while (req := game.pending()) is not None:
        if req.kind is DecisionKind.REACTION:
            assert "Counteroffensive" not in _names(req)
        game.submit(_quiet(game, req))


# -- 15.08 Fire Overwatch with 15.09 snap shooting ---------------------------------------------
def _end_of(pos: dict[str, JSON], player: str, phase: str) -> dict[str, JSON]:
    """The position just as ``player``'s ``phase`` ends (the turn frame opens its
    end-of-phase window first)."""
    step = ("command", "movement", "shooting", "charge", "fight").index(phase) + 2
    pos["frames"] = [{"kind": "turn", "data": {"player": player, "step": step}}]
    pos["turn_player"] = pos["active"] = player
    pos["phase"] = phase
    return pos


def _overwatch(*extra: dict[str, JSON], cp: int = 1, turn: str = "red",
               keywords: tuple[str, ...] = ("INFANTRY",)) -> Game:
    gun = sh.weapon("gun")
    blue = sh.unit("blue.o", [sh.model("blue.o.1", 10, 10, gun, keywords=keywords)])
    red = sh.unit("red.r", [sh.model("red.r.1", 10, 25, gun, W=2)])
    pos = _end_of(_set_cp(sh.position(blue, red, *extra), 0, cp), turn, "movement")
    return scripted(Game.new(pos, seed=1), [5, 6, 4, 1])


def test_fire_overwatch_at_the_end_of_the_opponents_movement_hits_only_on_sixes() -> None:
    # R15.08-a, R15.09-b: hit dice [5, 6] with BS 3+: only the unmodified 6 hits.
    game = _overwatch()
    req = pending(game)
    option = ["Fire Overwatch", {"unit": "blue.o", "enemy": "red.r"}]
    assert (req.player, req.options[1:]) == ("blue", (option,))
    game.submit(option, player="blue")
    req = pending(game)
    assert (req.kind, req.player, req.context["targets"]) == (
        "declare_shooting", "blue", {"blue.o.1": {"gun": ["red.r"]}})
    game.submit({"blue.o.1": {"gun": "red.r"}})
    while (req := pending(game)).kind is DecisionKind.REACTION:
        game.submit(DECLINE)
    attack = events(game, "attack")[0]
    assert (attack["hits"], attack["wounds_lost"]) == (1, 1)
    assert req.kind == "select_unit_to_shoot" and req.player == "red"  # red's turn goes on


def test_snap_shooting_targets_only_the_selected_unit() -> None:
    # R15.09-a: a weapon declared at another enemy unit is refused.
    other = sh.unit("red.q", [sh.model("red.q.1", 20, 25)])
    game = _overwatch(other)
    game.submit(["Fire Overwatch", {"unit": "blue.o", "enemy": "red.r"}])
    with pytest.raises(IllegalChoice) as exc:
        game.submit({"blue.o.1": {"gun": "red.q"}})
    assert exc.value.rule == "R15.09-a"


def test_fire_overwatch_not_offered_in_ones_own_movement_phase() -> None:
    # R15.01-e / R15.08-a: blue's own Movement phase ends: nothing is offered.
    game = _overwatch(turn="blue")
    assert pending(game).kind == "select_unit_to_shoot"


def test_fire_overwatch_not_offered_to_a_titanic_unit_nor_beyond_24_inches() -> None:
    # R15.08-a: TITANIC -> not offered; R15.09-a: no enemy within 24" -> nothing to shoot.
    assert pending(_overwatch(keywords=("INFANTRY", "TITANIC"))).kind == "select_unit_to_shoot"
    gun = sh.weapon("gun")
    blue = sh.unit("blue.o", [sh.model("blue.o.1", 10, 10, gun)])
    red = sh.unit("red.r", [sh.model("red.r.1", 10, 36, gun)])
    pos = _end_of(_set_cp(sh.position(blue, red), 0, 1), "red", "movement")
    assert pending(Game.new(pos, seed=1)).kind == "select_unit_to_shoot"


# -- 15.11 Heroic Intervention -----------------------------------------------------------------
def _heroic(cp: int, dice: list[int], red: list[dict[str, JSON]]) -> Game:
    blue = unit("blue.h", "blue", [fighter("blue.h.1", 30, 20, W=10)])
    pos = _end_of(charge_phase([blue, *red], cp=(0, cp)), "red", "charge")
    return scripted(Game.new(pos, seed=1), dice)


def _red(uid: str, gap: float, *, charged: bool, left: bool = False) -> dict[str, JSON]:
    x, y = (30 - BASE - gap, 20) if left else (30, 20 + BASE + gap)
    return unit(uid, "red", [fighter(f"{uid}.1", x, y, W=10)],
                flags={"charged": True} if charged else None)


def test_heroic_intervention_leap_to_defend_only_units_that_charged() -> None:
    # R15.11-b: X charged and is 5" away, Y did not and is 4" away; roll 6 -> only X.
    # R15.01-c: with 1 CP, Into the Fray (2 CP) is not offered. R15.01-b: the intervening
    # unit's charge roll is not offered a Command Re-roll (already targeted this phase).
    game = _heroic(2 - 1, [3, 3], [_red("red.x", 5.0, charged=True),
                                   _red("red.y", 4.0, charged=False, left=True)])
    req = pending(game)
    assert req.options[1:] == (["Heroic Intervention",
                                {"unit": "blue.h", "mode": "leap_to_defend"}],)
    game.submit(req.options[1], player="blue")
    req = pending(game)
    assert (req.kind, req.player) == ("charge_targets", "blue")
    assert req.options == (["red.x"], "fail")
    assert game.state.player("blue").cp == 0


def test_heroic_intervention_into_the_fray_costs_2cp_caps_the_roll_at_6() -> None:
    # R15.11-c: roll [5,6] = 11 -> 6; an enemy 6.5" away that charged -> not selectable; one
    # 5" away that did not charge -> selectable.
    game = _heroic(2, [5, 6], [_red("red.far", 6.5, charged=True),
                               _red("red.near", 5.0, charged=False, left=True)])
    req = pending(game)
    fray = ["Heroic Intervention", {"unit": "blue.h", "mode": "into_the_fray"}]
    assert fray in req.options
    game.submit(fray, player="blue")
    req = pending(game)
    assert req.options == (["red.near"], "fail")
    assert events(game, "charge_roll")[0]["roll"] == 6
    assert game.state.player("blue").cp == 0


def test_heroic_intervention_not_offered_to_a_vehicle_that_is_not_character_or_walker() -> None:
    # R15.11-a: a Rhino-like VEHICLE -> not offered; a WALKER -> offered.
    for keywords, offered in ((("VEHICLE",), False), (("VEHICLE", "WALKER"), True)):
        blue = unit("blue.v", "blue", [fighter("blue.v.1", 30, 20, W=10, keywords=keywords)])
        pos = _end_of(charge_phase([blue, _red("red.x", 5.0, charged=True)], cp=(0, 1)),
                      "red", "charge")
        req = pending(Game.new(pos, seed=1))
        assert (req.kind is DecisionKind.REACTION) is offered


def test_snap_shooting_with_a_torrent_weapon_still_hits_automatically() -> None:
    # R15.09-d (recommended reading): [TORRENT] makes no hit roll: both attacks hit.
    flamer = sh.weapon("flamer", range=12, A="2", abilities=("TORRENT",))
    blue = sh.unit("blue.o", [sh.model("blue.o.1", 10, 10, flamer)])
    red = sh.unit("red.r", [sh.model("red.r.1", 10, 18, W=5)])
    game = scripted(Game.new(_end_of(_set_cp(sh.position(blue, red), 0, 1), "red", "movement"),
                             seed=1), [6, 6, 6, 6])
    game.submit(["Fire Overwatch", {"unit": "blue.o", "enemy": "red.r"}])
    game.submit({"blue.o.1": {"flamer": "red.r"}})
    while (req := game.pending()) is not None and req.kind is DecisionKind.REACTION:
        game.submit(DECLINE)
    assert events(game, "attack")[0]["hits"] == 2


def test_fire_overwatch_cannot_target_an_engaged_enemy_vehicle() -> None:
    # R15.09-e: 17.03 applies only in your Shooting phase: an engaged enemy VEHICLE is no
    # target of snap shooting (nothing else in range: not offered at all).
    gun = sh.weapon("gun")
    blue = sh.unit("blue.o", [sh.model("blue.o.1", 10, 10, gun)])
    tank = sh.unit("red.t", [sh.model("red.t.1", 10, 20, keywords=("VEHICLE",))])
    guard = sh.unit("blue.g", [sh.model("blue.g.1", 10, 20 + BASE + 0.5)])
    pos = _end_of(_set_cp(sh.position(blue, tank, guard), 0, 1), "red", "movement")
    req = Game.new(pos, seed=1).pending()
    assert req is not None and req.kind is not DecisionKind.REACTION


def test_a_heroic_intervention_charge_move_gives_fights_first_for_the_opponents_turn() -> None:
    # R15.11-d: the intervening unit has charged this turn: Fights First in the opponent's
    # Fight phase.
    game = _heroic(1, [3, 3], [_red("red.x", 5.0, charged=True)])
    game.submit(["Heroic Intervention", {"unit": "blue.h", "mode": "leap_to_defend"}])
    game.submit(["red.x"])
    game.submit({"blue.h.1": [[30.0, 20.0 + 4.9]]})
    while pending(game).kind is DecisionKind.REACTION:
        game.submit(DECLINE)
    u = game.state.unit("blue.h")
    assert u.flag("charged") and is_fights_first(u)
    assert events(game, "charge_move")[0]["unit"] == "blue.h"


@pytest.mark.parametrize("flags", [{"emergency_disembark": True}, {"surged": True}])
def test_heroic_intervention_keeps_the_charge_restrictions_of_the_opponents_turn_R15_11_e(
        flags: dict[str, bool]) -> None:
    # R15.11-e: the unit emergency-disembarked in the opponent's Shooting phase (or surged
    # this phase, R21.02-c): not offered; the same unit without it: offered.
    for f, offered in ((flags, False), ({}, True)):
        blue = unit("blue.h", "blue", [fighter("blue.h.1", 30, 20, W=10)], flags=f)
        pos = _end_of(charge_phase([blue, _red("red.x", 5.0, charged=True)], cp=(0, 1)),
                      "red", "charge")
        req = pending(Game.new(pos, seed=1))
        assert (req.kind is DecisionKind.REACTION) is offered
