"""01.01 / 01.02: friendly and enemy units (R01.02-b); an effect on a unit applies to each of
its models (R01.02-d). The controlling player's choices (R01.01-a) are tested with the
emergency disembark (tests/sections/s18_transports/test_18_05_destroyed_transport.py)."""

from __future__ import annotations

from tests.engine.core_helpers import command_phase, line, unit
from w40k.engine.game import Game
from w40k.engine.units import is_enemy, is_friendly, model_oc


def _game() -> Game:
    return Game.new(command_phase([unit("red.a", "red", line("red.a", 10, x=10, y=10)),
                                   unit("red.b", "red", line("red.b", 1, x=10, y=20)),
                                   unit("blue.a", "blue", line("blue.a", 1, x=40, y=20))]),
                    seed=1)


def test_units_of_the_same_army_are_friendly_and_the_opponents_are_enemies():
    # R01.02-b
    s = _game().state
    a, b, e = s.unit("red.a"), s.unit("red.b"), s.unit("blue.a")
    assert is_enemy(a, e) and is_enemy(e, a)
    assert not is_enemy(a, b) and is_friendly(a, b) and is_friendly(a, a)


def test_an_effect_on_a_unit_applies_to_every_model_in_it():
    # R01.02-d: battle-shocked is a unit's status; each of the 10 models then has OC 0.
    game = _game()
    u = game.state.unit("red.a")
    assert all(model_oc(u, m) == 1 for m in u.alive)
    u.flags["battle_shocked"] = True
    assert [model_oc(u, m) for m in u.alive] == [0] * 10
