"""w40k: a rules engine for the Warhammer 40,000 11th-edition core rules.

The most used names are re-exported here; the layers are ``w40k.core`` (dice, abilities,
profiles), ``w40k.rules`` (attack sequence), ``w40k.math`` (distributions), ``w40k.geometry``
(battlefield) and ``w40k.io`` (files).
"""

from w40k.core.dice import DiceExpr, ScriptedDice, SeededDice
from w40k.core.errors import DataError, IllegalChoice, MalformedChoice, W40kError
from w40k.core.profiles import ModelProfile, WeaponProfile
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
    "IllegalChoice",
    "MalformedChoice",
    "ModelProfile",
    "ModelState",
    "ScriptedDice",
    "SeededDice",
    "W40kError",
    "WeaponEntry",
    "WeaponProfile",
    "distribution",
    "expected_models_destroyed",
    "p_destroy",
    "resolve_attack",
]
