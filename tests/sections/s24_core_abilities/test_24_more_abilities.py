"""The core abilities 24.02 (Scouts with several values), 24.04 [ASSAULT], 24.19 [INDIRECT
FIRE] and 24.27 [PISTOL] in the engine's shooting types. 24.14 Firing Deck needs transports
(18), which the engine does not have yet."""

from __future__ import annotations

from tests.engine import shooting_helpers as sh
from tests.engine.melee_helpers import BASE
from w40k.core.abilities import Scouts, Stealth
from w40k.core.abilities_units import scouts_distance
from w40k.engine.game import Game
from w40k.engine.phases.shooting_facts import shooting_types
from w40k.rules.select import AttackKind


def _types(*weapons: dict, flags: dict[str, bool] | None = None,
           engaged: bool = False) -> list[AttackKind]:
    red = sh.unit("red.a", [sh.model("red.a.1", 10, 10, *weapons)], flags=flags)
    y = 10 + BASE + 0.5 if engaged else 30
    game = Game.new(sh.position(red, sh.unit("blue.x", [sh.model("blue.x.1", 10, y)])), seed=1)
    return shooting_types(game, game.state.unit("red.a"))


def test_scouts_with_several_values_uses_each_models_best_then_the_lowest() -> None:
    # R24.02-c (recommended reading): {6, 8} for all -> 8; one model {6} and five {8} -> 6;
    # A {6, 8} and B {8} -> 8; a model without Scouts -> none.
    six, eight = Scouts(6.0), Scouts(8.0)
    assert scouts_distance([[six, eight], [six, eight]]) == 8.0
    assert scouts_distance([[six], *[[eight]] * 5]) == 6.0
    assert scouts_distance([[six, eight], [eight]]) == 8.0
    assert scouts_distance([[six], [Stealth()]]) is None


def test_assault_weapons_let_an_advanced_unit_shoot() -> None:
    # R24.04-a (R10.05-a): advanced -> assault shooting only with an [ASSAULT] weapon.
    rifle = sh.weapon("bolt rifle", abilities=("ASSAULT",))
    assert _types(rifle, flags={"advanced": True}) == [AttackKind.ASSAULT]
    assert _types(sh.weapon("boltgun"), flags={"advanced": True}) == []


def test_indirect_fire_weapons_give_indirect_shooting() -> None:
    # R24.19-a (R10.07): an unengaged unit that did not advance may use indirect shooting.
    mortar = sh.weapon("mortar", range=48, abilities=("INDIRECT FIRE",))
    assert AttackKind.INDIRECT in _types(mortar)
    assert AttackKind.INDIRECT not in _types(sh.weapon("boltgun"))
    assert AttackKind.INDIRECT not in _types(mortar, flags={"advanced": True})


def test_pistol_is_close_quarters_for_every_rule() -> None:
    # R24.27-a: an engaged unit with only pistols qualifies for close-quarters shooting.
    assert _types(sh.PISTOL, engaged=True) == [AttackKind.CLOSE_QUARTERS]
    assert _types(sh.weapon("boltgun"), engaged=True) == []
