"""Datasheet abilities as data (engine/ability_catalog.py, engine/ability_effects.py): each
ability of the default armies does what its datasheet text says, with scripted dice. The texts
are this project's (src/w40k/data/strike_force.yaml, waaagh_band.yaml); where a checklist ID
applies it is cited."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import (
    bare_phases,
    command_phase,
    events,
    line,
    marker,
    position,
    scripted,
    unit,
)
from tests.engine.melee_helpers import BASE, charge_phase, fight_phase, fighter, pending
from w40k.core.jsonval import JSON
from w40k.engine import windows
from w40k.engine.ability_catalog import known, not_applied
from w40k.engine.ability_effects import REACTIONS, start_of_command_phase
from w40k.engine.game import Game
from w40k.rules.decisions import DECLINE, DecisionKind


@pytest.fixture
def ability_reactions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The abilities' reactions only (the autouse fixture empties the table)."""
    monkeypatch.setattr(windows, "REACTIONS", REACTIONS)


def _with(models: list[dict[str, Any]], *names: str) -> list[dict[str, Any]]:
    for m in models:
        m["abilities"] = list(names)
    return models


# -- the catalog ------------------------------------------------------------------------------
def test_the_catalog_matches_names_as_written_and_lists_what_it_does_not_apply() -> None:
    assert known(["objective  secured", "Waaagh!", "Rites of Battle"]) == (
        "Objective Secured", "Waaagh!")
    assert not_applied([("Captain", "Rites of Battle"), ("Captain", "Oath of Moment")]) == [
        "'Rites of Battle' (Captain) is not applied"]


# -- shooting: Oath of Moment, Tactical Command, Tactical Precision ----------------------------
RIFLE = sh.weapon("rifle", A="1")
"""One BS 3+ S4 AP0 D1 attack."""


def _shoot(dice: list[int], *, shooter: list[dict[str, Any]], effects: dict[str, JSON] | None =
           None, others: tuple[dict[str, Any], ...] = (), T: int = 3, attached: bool = False
           ) -> Game:
    pos = sh.position(sh.unit("red.a", shooter), *others,
                      sh.unit("blue.x", [sh.model("blue.x.1", 10, 25, T=T, Sv=6)]))
    pos["units"][0]["attached"] = attached
    if effects:
        pos["players"][0]["effects"] = effects
    game = scripted(sh.start(pos), dice)
    sh.select(game, "red.a")
    game.submit({m["id"]: {"rifle": "blue.x"} for m in shooter if m["weapons"]})
    sh.finish(game)
    return game


def test_oath_of_moment_rerolls_a_failed_hit_roll_against_its_target() -> None:
    # Oath of Moment: attacks that target the Oath of Moment target can re-roll the Hit roll.
    # Hit 1 -> re-rolled 5, wound 6, save 1: the target dies. Without the oath the 1 misses.
    oath = {"Oath of Moment": "blue.x"}
    shooter = _with([sh.model("red.a.1", 10, 10, RIFLE)], "Oath of Moment")
    game = _shoot([1, 5, 6, 1], shooter=shooter, effects=oath)
    assert game.state.unit("blue.x").destroyed
    assert events(game, "ability")[0]["abilities"] == ["Oath of Moment"]
    game = _shoot([1], shooter=shooter)
    assert not game.state.unit("blue.x").destroyed and events(game, "attack")[0]["hits"] == 0
    # another target than the oath's: no re-roll
    game = _shoot([1], shooter=shooter, effects={"Oath of Moment": "blue.other"})
    assert not game.state.unit("blue.x").destroyed


def test_tactical_command_aura_rerolls_hit_rolls_of_1_within_6_inches() -> None:
    # R22.01-a/b: the aura (re-roll a Hit roll of 1) applies to a friendly unit within 6";
    # a 2 is not re-rolled; a unit 10" away gets nothing.
    captain = _with([sh.model("red.c.1", 14, 10)], "Tactical Command")
    near = (sh.unit("red.c", captain),)
    game = _shoot([1, 5, 6, 1], shooter=[sh.model("red.a.1", 10, 10, RIFLE)], others=near)
    assert game.state.unit("blue.x").destroyed
    assert events(game, "ability")[0]["abilities"] == ["Tactical Command"]
    game = _shoot([2], shooter=[sh.model("red.a.1", 10, 10, RIFLE)], others=near)
    assert events(game, "attack")[0]["hits"] == 0
    far = (sh.unit("red.c", _with([sh.model("red.c.1", 21.5, 10)], "Tactical Command")),)
    game = _shoot([1], shooter=[sh.model("red.a.1", 10, 10, RIFLE)], others=far)
    assert events(game, "attack")[0]["hits"] == 0 and not events(game, "ability")


def test_tactical_command_is_found_from_the_models_that_carry_it_as_the_aura_list_finds_it(
) -> None:
    # R22.01-a/b: the attack's check (only the models that have the aura) answers as the full
    # aura list (auras_in over every model's auras) does: in and out of range, a destroyed
    # source, the name as a datasheet may write it, the unit's own model as the source.
    from w40k.engine.abilities import auras_in
    from w40k.engine.ability_catalog import TACTICAL_COMMAND
    from w40k.engine.ability_effects import _in_aura, carried

    def both(x: float, name: str = "Tactical Command", dead: bool = False,
             own: bool = False) -> tuple[bool, bool]:
        shooter = [sh.model("red.a.1", 10, 10, RIFLE), sh.model("red.a.2", 11.5, 10, RIFLE)]
        others: tuple[dict[str, Any], ...] = ()
        if own:
            shooter = _with(shooter, "Oath of Moment", name)
        else:
            others = (sh.unit("red.b", _with([sh.model("red.b.1", 30, 30)], "Oath of Moment")),
                      sh.unit("red.c", _with([sh.model("red.c.1", x, 10),
                                              sh.model("red.c.2", x + 1.5, 10)], name)))
        pos = sh.position(sh.unit("red.a", shooter), *others,
                          sh.unit("blue.x", [sh.model("blue.x.1", x, 25)]))
        if dead:
            pos["units"][2]["models"][0]["destroyed"] = True
        s = sh.start(pos).state
        a = s.unit("red.a")
        return (_in_aura(s, a, TACTICAL_COMMAND),
                any(x.name == TACTICAL_COMMAND for x in auras_in(s, a, carried)))

    for x in (14.0, 17.0, 18.5, 19.0, 21.5, 40.0):
        for name in ("Tactical Command", "tactical  command"):
            for dead in (False, True):
                fast, full = both(x, name, dead)
                assert fast == full, (x, name, dead)
    assert both(14.0) == (True, True) and both(21.5) == (False, False)
    assert both(14.0, dead=True) == (True, True)  # red.c.2 still stands within 6"
    assert both(18.5) == (True, True) and both(18.5, dead=True) == (False, False)
    assert both(40.0, own=True) == (True, True)


def test_the_kept_tactical_command_answer_follows_moves_deaths_and_units_leaving() -> None:
    # R22.01-a: the answer kept per (state, unit) is asked again after the source moves out of
    # range and back, is destroyed, and its unit leaves the battlefield (embarked/reserves).
    from w40k.engine.ability_catalog import TACTICAL_COMMAND
    from w40k.engine.ability_effects import _in_aura, _in_aura_now

    captain = _with([sh.model("red.c.1", 14, 10)], "Tactical Command")
    pos = sh.position(sh.unit("red.a", [sh.model("red.a.1", 10, 10, RIFLE)]),
                      sh.unit("red.c", captain),
                      sh.unit("blue.x", [sh.model("blue.x.1", 10, 25)]))
    s = sh.start(pos).state
    a, c = s.unit("red.a"), s.unit("red.c")
    m = c.models[0]

    def check(expected: bool) -> None:
        assert _in_aura(s, a, TACTICAL_COMMAND) is expected
        assert _in_aura(s, a, TACTICAL_COMMAND) is expected  # kept
        assert _in_aura_now(s, a, TACTICAL_COMMAND) is expected

    check(True)
    m.x = 30.0
    check(False)
    m.x = 14.0
    check(True)
    m.destroyed = True
    check(False)
    m.destroyed = False
    check(True)
    s.units.remove(c)
    s.off_table.append(c)
    check(False)
    s.off_table.remove(c)
    s.units.append(c)
    check(True)
    clone = s.clone()  # another state: its own answer
    clone.unit("red.c").models[0].x = 30.0
    assert not _in_aura(clone, clone.unit("red.a"), TACTICAL_COMMAND)
    check(True)


def test_tactical_precision_gives_lethal_hits_while_its_bearer_leads_the_unit() -> None:
    # Tactical Precision: while leading, the unit's weapons have [LETHAL HITS] (R24.23: a
    # critical hit wounds automatically). Against T8 a S4 wound needs a 6: hit 6, save 1.
    lieutenant = _with([sh.model("red.a.2", 11.5, 10)], "Tactical Precision")
    lieutenant[0]["leader"] = True
    shooter = [sh.model("red.a.1", 10, 10, RIFLE), *lieutenant]
    game = _shoot([6, 1], shooter=shooter, T=8, attached=True)
    assert events(game, "attack")[0]["wounds"] == 1 and game.state.unit("blue.x").destroyed
    # not leading (no attached unit): the 6 hits, the wound roll of 2 fails
    game = _shoot([6, 2], shooter=shooter, T=8, attached=False)
    assert events(game, "attack")[0]["wounds"] == 0


# -- melee: Waaagh! -------------------------------------------------------------------------------
def _melee(dice: list[int], effects: dict[str, JSON]) -> Game:
    red = unit("red.a", "red", [fighter("red.a.1", 10, 10, keywords=["INFANTRY", "ORKS"])],
               flags={"charged": True, "fights_first": True})
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 10, 10 + BASE + 1.0)])
    red["models"][0]["weapons"][0]["A"] = "1"
    pos = fight_phase([red, blue])
    pos["players"][0]["effects"] = effects
    game = scripted(Game.new(pos, seed=1), dice)
    while (req := game.pending()) is not None:
        if req.kind == "positions":
            game.submit(str(req.context["decline"]))
        elif req.kind == "declare_fight":
            game.submit(req.context["default"])
        elif req.kind in ("select_unit_to_pile_in", "select_unit_to_consolidate"):
            game.submit("done")
        elif req.kind in ("pile_in_targets", "consolidate_targets"):
            game.submit("skip")
        else:
            game.submit(req.options[0])
    return game


def test_waaagh_adds_1_to_melee_hit_and_wound_rolls_while_it_lasts() -> None:
    # Waaagh! (datasheet text): +1 to the Hit and Wound rolls of ORKS melee attacks. WS 3+
    # hits on a 2, S4 vs T4 wounds on a 3; save 3+ fails on a 1.
    game = _melee([2, 3, 1], {"Waaagh!": 1, "Waaagh! active": 1})
    assert game.state.unit("blue.b").destroyed
    assert events(game, "ability")[0]["abilities"] == ["Waaagh!"]
    # called earlier, no longer active: the 2 misses (then blue's two attacks miss on 1s)
    game = _melee([2, 1, 1], {"Waaagh!": 1})
    assert not game.state.unit("blue.b").destroyed
    assert events(game, "attack")[0]["hits"] == 0


@pytest.mark.usefixtures("ability_reactions")
def test_waaagh_is_called_at_the_start_of_the_command_phase_once_per_battle() -> None:
    # Waaagh!: once per battle, at the start of your Command phase; until the start of your
    # next Command phase.
    boyz = unit("red.boyz", "red", _with(line("red.boyz", 2, x=10, y=10, keywords=["ORKS"]),
                                         "Waaagh!"))
    pos = command_phase([boyz, unit("blue.x", "blue", line("blue.x", 1, x=10, y=30))])
    pos["frames"] = []
    pos["frames"] = [{"kind": "command", "data": {}}]
    game = Game.new(pos, seed=1)
    # the start-of-phase window is opened by the turn; open it here as the turn does
    windows.open_window(game.ctx, windows.Window.START_OF_PHASE, phase="command")
    req = pending(game)
    assert req.kind is DecisionKind.REACTION
    assert req.options == (DECLINE, ["Waaagh!", {"unit": "red.boyz"}])
    game.submit(["Waaagh!", {"unit": "red.boyz"}])
    effects = game.state.player("red").effects
    assert effects == {"Waaagh!": 1, "Waaagh! active": 1}
    start_of_command_phase(game.ctx, "red")  # its next Command phase: it ends
    assert game.state.player("red").effects == {"Waaagh!": 1}
    assert not windows.open_window(game.ctx, windows.Window.START_OF_PHASE, phase="command")


@pytest.mark.usefixtures("ability_reactions")
def test_oath_of_moment_selects_an_enemy_unit_in_the_command_abilities_step() -> None:
    # R08.04-a: a Command-phase ability resolves after the battle-shock rolls; the target
    # lasts until the start of the player's next Command phase.
    marines = unit("red.m", "red", _with(line("red.m", 2, x=10, y=10), "Oath of Moment"))
    pos = command_phase([marines, unit("blue.x", "blue", line("blue.x", 1, x=10, y=30)),
                         unit("blue.y", "blue", line("blue.y", 1, x=30, y=30))])
    game = Game.new(pos, seed=1)
    req = pending(game)
    assert req.kind is DecisionKind.REACTION and req.context["window"] == "command_abilities"
    assert req.options == (DECLINE, ["Oath of Moment", {"unit": "blue.x"}],
                           ["Oath of Moment", {"unit": "blue.y"}])
    game.submit(["Oath of Moment", {"unit": "blue.y"}])
    assert game.pending() is None  # one target per phase
    assert game.state.player("red").effects == {"Oath of Moment": "blue.y"}
    start_of_command_phase(game.ctx, "red")
    assert game.state.player("red").effects == {}


@pytest.mark.usefixtures("ability_reactions")
def test_ere_we_go_rerolls_a_charge_roll_once_per_battle() -> None:
    # 'Ere We Go: once per battle, just after a Charge roll for the unit, re-roll it: 1+1
    # cannot cross the 6" gap, the re-roll 6+5 can. Used once: not offered again.
    # X002-m: a re-roll that is not a Command Re-roll re-rolls both dice of the 2D6 roll.
    boss = fighter("red.a.1", 10, 10)
    boss["abilities"] = ["'Ere We Go"]
    units = [unit("red.a", "red", [boss]),
             unit("blue.b", "blue", [fighter("blue.b.1", 10, 10 + BASE + 6.0)])]
    game = scripted(Game.new(charge_phase(units), seed=1), [1, 1, 6, 5])
    assert pending(game).kind == "select_unit_to_charge"
    game.submit("red.a")
    req = pending(game)
    assert req.options == (DECLINE, ["'Ere We Go", {"unit": "red.a"}])
    game.submit(["'Ere We Go", {"unit": "red.a"}])
    assert events(game, "charge_roll")[-1]["roll"] == 11
    assert game.state.player("red").effects == {"'Ere We Go": 1}
    assert pending(game).kind == "charge_targets"


# -- Objective Secured / Get da Good Bitz ----------------------------------------------------------
@pytest.mark.parametrize("ability", ["Objective Secured", "Get da Good Bitz"])
def test_objective_secured_keeps_an_objective_after_the_unit_leaves(
        monkeypatch: pytest.MonkeyPatch, ability: str) -> None:
    # R14.03-a: the unit controls the objective at the end of its Command phase, so the
    # objective is secured; it leaves in the Movement phase and the objective stays red's
    # (levels 0-0). Without the ability it is no longer controlled.
    for names, kept in (((ability,), "red"), ((), None)):
        def away(ctx: Any, phase: str) -> None:
            if phase == "movement":
                ctx.state.unit("red.a").models[0].x = 40.0

        bare_phases(monkeypatch, away)
        a = unit("red.a", "red", _with(line("red.a", 1, x=10, y=10), *names))
        pos = position([a, unit("blue.x", "blue", line("blue.x", 1, x=50, y=40))],
                       objectives=[marker("home", 10, 11, controller="red")], rounds=1,
                       first="red")
        game = Game.new(pos, seed=1)
        while (req := game.pending()) is not None:
            game.submit(req.options[0])
        obj = game.state.objectives[0]
        assert obj.controller == kept, names
        assert bool(events(game, "objective_secured")) == bool(names)


# -- Sneaky Gits (Kommandos) ---------------------------------------------------------------------
def _shoot_sneaky(dice: list[int], target_y: float) -> Game:
    target = _with([sh.model("blue.x.1", 10, target_y, T=3, Sv=6)], "Sneaky Gits")
    pos = sh.position(sh.unit("red.a", [sh.model("red.a.1", 10, 10, RIFLE)]),
                      sh.unit("blue.x", target))
    game = scripted(sh.start(pos), dice)
    sh.select(game, "red.a")
    game.submit({"red.a.1": {"rifle": "blue.x"}})
    sh.finish(game)
    return game


def test_sneaky_gits_subtract_1_from_the_hit_roll_of_a_unit_shooting_from_beyond_12_inches(
        ) -> None:
    # Sneaky Gits: shot at from more than 12" away (the units' closest models 15" - 1.26"
    # = 13.7" apart) a BS 3+ Hit roll of 3 misses (3 - 1 = 2); from 8.7" away it hits,
    # wounds on 6 and the save of 1 fails (R05.04-a: the modified roll decides).
    game = _shoot_sneaky([3], target_y=25)
    assert events(game, "attack")[0]["hits"] == 0
    assert events(game, "ability")[0]["abilities"] == ["Sneaky Gits"]
    game = _shoot_sneaky([3, 6, 1], target_y=20)
    assert events(game, "attack")[0]["hits"] == 1 and game.state.unit("blue.x").destroyed
    assert not events(game, "ability")


def test_sneaky_gits_do_not_apply_at_exactly_12_inches() -> None:
    # "more than 12\" away": the closest models exactly 12" apart get no -1 (a 3 hits).
    from w40k.geometry import mm

    game = _shoot_sneaky([3, 6, 1], target_y=10 + 12 + mm(32))
    assert events(game, "attack")[0]["hits"] == 1 and not events(game, "ability")


# -- Omni-scramblers (Infiltrator Squad) ---------------------------------------------------------
def test_omni_scramblers_keep_units_arriving_from_reserves_more_than_12_inches_away() -> None:
    # Omni-scramblers: an enemy unit set up from reserves cannot be set up within 12" of the
    # unit (R20.04-a's 8" still applies to every other enemy unit). An arrival 11.9" from
    # the Infiltrator is refused naming the ability and leaves the game as it was; 12.1" is
    # set up.
    import json

    from tests.engine.movement_helpers import model as mmodel
    from tests.engine.movement_helpers import row
    from tests.engine.movement_helpers import unit as munit
    from tests.sections.s18_transports.test_18_20_23_offtable import (
        R,
        _arrive,
        at_round,
        reserve,
    )
    from w40k.core.errors import IllegalChoice

    squad = reserve(munit("red.res", "red", row("red.res", 2, x=0.0, y=0.0)))
    scrambler = mmodel("blue.inf.1", 1.0 + 1.5 + 2 * R + 12.1, 40.0)
    scrambler["abilities"] = ["Omni-scramblers"]
    game, _ = _arrive(at_round(2, squad, munit("blue.inf", "blue", [scrambler])))
    before = json.dumps(game.save())
    near = {"red.res.1": [1.0 + 0.2, 40.0], "red.res.2": [2.5 + 0.2, 40.0]}  # 11.9"
    with pytest.raises(IllegalChoice) as err:
        game.submit(near)
    assert err.value.rule == "Omni-scramblers" and "Omni-scramblers" in str(err.value)
    assert json.dumps(game.save()) == before
    game.submit({"red.res.1": [1.0, 40.0], "red.res.2": [2.5, 40.0]})  # 12.1"
    game.pending()
    assert [(m.x, m.y) for m in game.state.unit("red.res").alive] == [(1.0, 40.0), (2.5, 40.0)]


def test_omni_scramblers_also_bind_deep_strike_and_the_set_up_search() -> None:
    # Omni-scramblers apply to every set-up from reserves, Deep Strike included; the
    # engine's own search (the players' proposals) keeps the 12".
    from w40k.engine.ability_catalog import OMNI_SCRAMBLERS
    from w40k.geometry import Battlefield, Model
    from w40k.rules.setup import Ingress, ingress_violations

    bf = Battlefield(60.0, 44.0)
    scr = Model("Infiltrator 1", 30.0, 30.0, base_mm=32.0)
    ds = Ingress(battle_round=2, deep_strike=True, kept_away=(scr,))
    near = Model("Terminator 1", 30.0, 30.0 - 10.0, base_mm=40.0)
    far = Model("Terminator 1", 30.0, 30.0 - 14.0, base_mm=40.0)
    assert {v.rule for v in ingress_violations([near], [], bf, ds)} == {OMNI_SCRAMBLERS}
    assert ingress_violations([far], [], bf, ds) == []
    assert ingress_violations([near], [], bf, Ingress(battle_round=2, deep_strike=True)) == []
