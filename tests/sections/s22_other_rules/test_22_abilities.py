"""Other rules and abilities (22) as typed data (engine/abilities.py): auras (22.01), faction
abilities (22.02), psychic abilities (22.03) and wargear abilities (22.04)."""

from __future__ import annotations

from collections.abc import Iterable

from tests.engine.core_helpers import command_phase, events, line, unit
from tests.engine.melee_helpers import fighter, melee_weapon
from w40k.engine.abilities import (
    Ability,
    AbilityKind,
    auras_on,
    faction_applies,
    is_psychic,
    modifier,
    psychic_mortal_wounds,
    wargear_applies,
)
from w40k.engine.game import Game
from w40k.engine.state import ModelData

BANNER = Ability("Banner", AbilityKind.AURA, range=6.0, modifiers={"OC": 1})
WAAAGH = Ability("Waaagh!", AbilityKind.FACTION, faction="ORKS", modifiers={"A": 1})
HYMN = Ability("Hymn", AbilityKind.AURA, range=6.0, modifiers={"OC": 1})
SHIELD = Ability("Shield", AbilityKind.WARGEAR, wargear="Storm shield", modifiers={"Sv": 1})
SMITE = Ability("Smite", AbilityKind.PSYCHIC)


def _carried(table: dict[str, tuple[Ability, ...]]):
    def carried(m: ModelData) -> Iterable[Ability]:
        return table.get(m.id, ())
    return carried


def _game(*units: dict) -> Game:
    return Game.new(command_phase(list(units)), seed=1)


def test_a_model_is_within_range_of_its_own_aura() -> None:
    # R22.01-a: "within 6", +1 OC" applies to the bearer's own unit, and not to a unit 10" away.
    game = _game(unit("red.a", "red", line("red.a", 1, x=10, y=10)),
                 unit("red.b", "red", line("red.b", 1, x=10, y=20)))
    carried = _carried({"red.a.1": (BANNER,)})
    assert modifier(game, game.state.unit("red.a"), "OC", carried) == 1
    assert modifier(game, game.state.unit("red.b"), "OC", carried) == 0


def test_the_same_aura_applies_once_and_different_auras_stack() -> None:
    # R22.01-b: two identical banners in range -> +1, not +2; a banner and a hymn -> +2.
    game = _game(unit("red.a", "red", line("red.a", 2, x=10, y=10)),
                 unit("red.b", "red", line("red.b", 1, x=10, y=13)))
    target = game.state.unit("red.b")
    two_banners = _carried({"red.a.1": (BANNER,), "red.a.2": (BANNER,)})
    assert [a.name for a in auras_on(game, target, two_banners)] == ["Banner"]
    assert modifier(game, target, "OC", two_banners) == 1
    assert modifier(game, target, "OC", _carried({"red.a.1": (BANNER,),
                                                  "red.a.2": (HYMN,)})) == 2


def test_a_faction_ability_applies_only_for_the_army_faction() -> None:
    # R22.02-a: an allied unit without the army's faction keyword -> "Waaagh!" not applied.
    game = _game(unit("blue.boyz", "blue", line("blue.boyz", 1, x=10, y=10,
                                                keywords=("INFANTRY", "ORKS"))),
                 unit("blue.ally", "blue", line("blue.ally", 1, x=20, y=10,
                                                keywords=("INFANTRY", "GROTS"))))
    boyz, ally = game.state.unit("blue.boyz"), game.state.unit("blue.ally")
    assert faction_applies(WAAAGH, "ORKS", boyz)
    assert not faction_applies(WAAAGH, "ORKS", ally)
    assert not faction_applies(WAAAGH, "AELDARI", boyz)
    carried = _carried({"blue.boyz.1": (WAAAGH,), "blue.ally.1": (WAAAGH,)})
    assert modifier(game, boyz, "A", carried, army_faction="ORKS") == 1
    assert modifier(game, ally, "A", carried, army_faction="ORKS") == 0


def test_wounds_from_a_psychic_ability_are_a_psychic_attack() -> None:
    # R22.03-a: Smite's mortal wounds are tagged as inflicted by a psychic attack.
    game = _game(unit("blue.b", "blue", line("blue.b", 3, x=10, y=10)))
    psychic_mortal_wounds(game, SMITE, game.state.unit("blue.b"), 2)
    while (req := game.pending()) is not None and req.kind == "select_model":
        game.submit(req.options[0])  # blue picks (the models stand apart)
    wounds = events(game, "mortal_wound")
    assert len(wounds) == 2 and all(is_psychic(str(e["cause"])) for e in wounds)
    assert not is_psychic("desperate escape")


def test_a_wargear_ability_ends_when_its_bearer_is_destroyed() -> None:
    # R22.04-a: the Storm shield's ability applies while its bearer lives.
    bearer = fighter("red.a.1", 10, 10, weapons=[melee_weapon("Storm shield")])
    other = fighter("red.a.2", 11.5, 10)
    game = _game(unit("red.a", "red", [bearer, other]))
    u = game.state.unit("red.a")
    carried = _carried({"red.a.1": (SHIELD,)})
    assert wargear_applies(SHIELD, u) and modifier(game, u, "Sv", carried) == 1
    u.models[0].destroyed = True
    assert not wargear_applies(SHIELD, u) and modifier(game, u, "Sv", carried) == 0
