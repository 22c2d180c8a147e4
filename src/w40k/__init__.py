"""w40k: a rules engine for the Warhammer 40,000 11th-edition core rules.

The most used names are re-exported here (attacks and their distributions, line-of-sight
queries, armies and positions, the game and its players); the layers are ``w40k.core`` (dice,
abilities, profiles), ``w40k.rules`` (attack sequence), ``w40k.math`` (distributions),
``w40k.geometry`` (battlefield), ``w40k.engine`` (the game), ``w40k.agents`` (players) and
``w40k.io`` (files).
"""

from w40k.agents import GreedyAgent, RandomAgent
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
    "position_from_armies",
    "resolve_attack",
    "scene_from_dict",
]
