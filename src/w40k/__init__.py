"""w40k: a rules engine for the Warhammer 40,000 11th-edition core rules.

The most used names are re-exported here (attacks and their distributions, line-of-sight
queries, armies and positions, the game and its players); the layers are ``w40k.core`` (dice,
abilities, profiles), ``w40k.rules`` (attack sequence), ``w40k.math`` (distributions),
``w40k.geometry`` (battlefield), ``w40k.engine`` (the game), ``w40k.agents`` (players) and
``w40k.io`` (files).

The re-exports are lazy (PEP 562 module ``__getattr__``): ``import w40k`` loads no layer, and
``w40k.Game`` imports the engine on first use. So a command that needs only the attack maths
(``w40k attack``) never pays for geometry, the engine or the compiled kernels (docs/math.md,
"Start-up").
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names for type checkers and IDEs; at run time __getattr__ loads them
    from w40k.agents import GreedyAgent, RandomAgent
    from w40k.agents.play import play_game, play_games
    from w40k.agents.win_rates import summarise
    from w40k.core.dice import DiceExpr, ScriptedDice, SeededDice
    from w40k.core.errors import DataError, IllegalChoice, MalformedChoice, W40kError
    from w40k.core.profiles import ModelProfile, WeaponProfile
    from w40k.engine.game import Game
    from w40k.geometry import Visibility, scene_from_dict
    from w40k.io.army import load_army, load_datasheets
    from w40k.io.battle_setup import default_position, position_from_armies
    from w40k.io.scene_model import load_scene
    from w40k.math import distribution, expected_models_destroyed, p_destroy
    from w40k.rules.attack_profile import AttackContext, WeaponEntry
    from w40k.rules.attack_sequence import AttackRequest, AttackResult, resolve_attack
    from w40k.rules.decisions import Decider, DecisionRequest, DefaultDecider
    from w40k.rules.primitives import ModelState

__version__ = "0.1.0"

# Public name -> the module that defines it (the names of __all__ and the TYPE_CHECKING block).
_EXPORTS: dict[str, str] = {
    "GreedyAgent": "w40k.agents",
    "RandomAgent": "w40k.agents",
    "play_game": "w40k.agents.play",
    "play_games": "w40k.agents.play",
    "summarise": "w40k.agents.win_rates",
    "DiceExpr": "w40k.core.dice",
    "ScriptedDice": "w40k.core.dice",
    "SeededDice": "w40k.core.dice",
    "DataError": "w40k.core.errors",
    "IllegalChoice": "w40k.core.errors",
    "MalformedChoice": "w40k.core.errors",
    "W40kError": "w40k.core.errors",
    "ModelProfile": "w40k.core.profiles",
    "WeaponProfile": "w40k.core.profiles",
    "Game": "w40k.engine.game",
    "Visibility": "w40k.geometry",
    "load_scene": "w40k.io.scene_model",
    "scene_from_dict": "w40k.geometry",
    "load_army": "w40k.io.army",
    "load_datasheets": "w40k.io.army",
    "default_position": "w40k.io.battle_setup",
    "position_from_armies": "w40k.io.battle_setup",
    "distribution": "w40k.math",
    "expected_models_destroyed": "w40k.math",
    "p_destroy": "w40k.math",
    "AttackContext": "w40k.rules.attack_profile",
    "WeaponEntry": "w40k.rules.attack_profile",
    "AttackRequest": "w40k.rules.attack_sequence",
    "AttackResult": "w40k.rules.attack_sequence",
    "resolve_attack": "w40k.rules.attack_sequence",
    "Decider": "w40k.rules.decisions",
    "DecisionRequest": "w40k.rules.decisions",
    "DefaultDecider": "w40k.rules.decisions",
    "ModelState": "w40k.rules.primitives",
}

__all__ = [
    "AttackContext",
    "AttackRequest",
    "AttackResult",
    "DataError",
    "Decider",
    "DecisionRequest",
    "DefaultDecider",
    "DiceExpr",
    "Game",
    "GreedyAgent",
    "IllegalChoice",
    "MalformedChoice",
    "ModelProfile",
    "ModelState",
    "RandomAgent",
    "ScriptedDice",
    "SeededDice",
    "Visibility",
    "W40kError",
    "WeaponEntry",
    "WeaponProfile",
    "default_position",
    "distribution",
    "expected_models_destroyed",
    "load_army",
    "load_datasheets",
    "load_scene",
    "p_destroy",
    "play_game",
    "play_games",
    "position_from_armies",
    "resolve_attack",
    "scene_from_dict",
    "summarise",
]


def __getattr__(name: str) -> object:
    """Import a re-exported name's module on first use, then keep the name here."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'w40k' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
