"""The `w40k attack` scenario format as one pydantic model (docs/attack-scenario.md).

:func:`w40k.io.scenario.parse_scenario` validates a decoded file (or the command line's inline
profiles) against :class:`ScenarioModel` before building the typed attack request; the JSON
Schema in docs/schemas/scenario.schema.json is exported from it.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, model_validator
from pydantic.json_schema import WithJsonSchema

from w40k.io import limits
from w40k.io.model_base import (
    Characteristic,
    Dice,
    Strict,
    Text,
    Texts,
    dice_target,
    dice_target_schema,
    found,
    int_or_text,
    int_or_text_schema,
)

Skill = Annotated[int, dice_target(2, 6), dice_target_schema(2, 6)]
"""BS or WS: ``3`` or ``"3+"``."""
Save = Annotated[int, dice_target(2, 7), dice_target_schema(2, 7)]
"""Sv or InSv (7: no save)."""
ArmourPen = Annotated[int, int_or_text(-6, 0), int_or_text_schema(-6, 0)]
"""AP: 0 to -6."""
Strength = Annotated[int, int_or_text(1, limits.MAX_CHARACTERISTIC),
                     int_or_text_schema(1, limits.MAX_CHARACTERISTIC)]
"""S."""


def _range(value: object) -> object:
    if isinstance(value, str):
        if value.strip().lower() == "melee":
            return "Melee"
        if m := re.fullmatch(r'\s*(\d{1,3}(?:\.\d+)?)\s*(?:"|in)?\s*', value):
            value = float(m.group(1))
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not 0 < value <= limits.MAX_TABLE_INCHES):
        raise ValueError(f'expected a range in inches (0 to {limits.MAX_TABLE_INCHES:g}) or '
                         f'"Melee", found {found(value)}')
    return value


WeaponRange = Annotated[float | str, BeforeValidator(_range), WithJsonSchema({"oneOf": [
    {"type": "number", "exclusiveMinimum": 0, "maximum": limits.MAX_TABLE_INCHES},
    {"type": "string", "pattern": r'^\s*([Mm]elee|[0-9]+(\.[0-9]+)?"?)\s*$'}]})]
"""A weapon's range in inches (``24`` or ``'24"'``), or ``"Melee"``."""
DiceKind = Literal["attacks", "hit", "wound", "save", "damage", "fnp", "hazard"]
Face = Annotated[int, Field(ge=1, le=6)]
DiceList = Annotated[list[Face], Field(max_length=limits.MAX_DICE_SCRIPT)]


class WeaponModel(Strict):
    """One ``weapons[i]`` entry."""

    name: Text | None = None
    count: Annotated[int, Field(ge=1, le=limits.MAX_WEAPON_COUNT)] = 1
    range: WeaponRange
    A: Dice
    skill: Skill | None = None
    BS: Skill | None = None
    WS: Skill | None = None
    S: Strength
    AP: ArmourPen = 0
    D: Dice
    abilities: Texts = []
    half_range: bool | None = None

    @model_validator(mode="after")
    def _one_skill(self) -> WeaponModel:
        if self.skill is None and self.BS is None and self.WS is None:
            raise ValueError("missing skill (give skill, BS or WS), found none")
        return self


class ModelEntry(Strict):
    """One ``models[i]`` entry of a target or attacker (``count`` models alike)."""

    name: Text | None = None
    count: Annotated[int, Field(ge=1, le=limits.MAX_MODELS_PER_UNIT)] = 1
    T: Characteristic | None = None
    Sv: Save | None = None
    InSv: Save | None = None
    W: Characteristic
    wounds_lost: Annotated[int, Field(ge=0, le=limits.MAX_CHARACTERISTIC)] = 0
    keywords: Texts = []
    abilities: Texts = []
    leader: bool = False
    visible: bool = True


class UnitModel(Strict):
    """A target or attacking unit."""

    name: Text | None = None
    models: Annotated[list[ModelEntry], Field(min_length=1, max_length=limits.MAX_MODELS_PER_UNIT)]


Modifier = Annotated[int, Field(ge=-6, le=6)]
Reroll = Literal["none", "ones", "failed"]


class ContextModel(Strict):
    """The ``context`` object: the circumstances of the attack."""

    half_range: bool = False
    charged: bool = False
    remained_stationary: bool = False
    cover: bool = False
    plunging_fire: bool = False
    target_engaged: bool = False
    attacker_engaged_with_target: bool = False
    close_quarters_monster: bool = False
    indirect: bool = False
    target_visible_to_friendly: bool = False
    own_shooting_phase: bool = False
    single_target: bool = False
    precision: bool = False
    target_models_at_select: (Annotated[int, Field(ge=0, le=limits.MAX_MODELS_PER_UNIT)]
                              | None) = None
    hit_modifier: Modifier = 0
    wound_modifier: Modifier = 0
    reroll_hits: Reroll = "none"
    reroll_wounds: Reroll = "none"
    hit_modifier_cap: Annotated[int, Field(ge=0, le=6)] | None = None


class ScenarioModel(Strict):
    """An attack scenario: weapons, one target (or several to compare), context, dice."""

    weapons: Annotated[list[WeaponModel], Field(min_length=1, max_length=limits.MAX_LIST)]
    target: UnitModel | None = None
    targets: Annotated[list[UnitModel], Field(min_length=1, max_length=20)] | None = None
    attacker: UnitModel | None = None
    context: ContextModel = ContextModel()
    dice: dict[DiceKind, DiceList] | None = None
    lethal_hits: Literal["auto", "roll"] = "auto"
    allocation_order: Texts = []

    @model_validator(mode="after")
    def _one_target(self) -> ScenarioModel:
        if (self.target is None) == (self.targets is None):
            raise ValueError("expected exactly one of target and targets, found "
                             f"{'both' if self.target else 'neither'}")
        return self
