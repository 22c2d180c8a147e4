"""The army/datasheet file format (docs/army-format.md) as one pydantic model.

:func:`w40k.io.army_load.parse_file` validates each decoded file against :class:`ArmyFileModel`
(types, bounds, unknown keys) before building datasheets and the army, which checks what a
schema cannot (names that must match, composition counts, attachments, unique unit names).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from w40k.io import limits
from w40k.io.model_base import (
    CapacityModel,
    Characteristic,
    Dice,
    LongText,
    Strict,
    Text,
    Texts,
    dice_target,
    dice_target_schema,
    int_or_text,
    int_or_text_schema,
)
from w40k.io.scenario_model import ArmourPen, Save, Skill, Strength, WeaponRange

Models = Annotated[int, Field(ge=0, le=limits.MAX_MODELS_PER_UNIT)]
Move = Annotated[int | None, int_or_text(0, 100, dash=True), int_or_text_schema(0, 100, dash=True)]
Leadership = Annotated[int, dice_target(2, 12), dice_target_schema(2, 12)]
BaseMm = Annotated[float, Field(gt=0, le=1000)]


class NamedAbilityModel(Strict):
    """A datasheet ability kept with its rules text."""

    name: Text
    text: LongText = ""


class PointsModel(Strict):
    """A unit size and its points cost."""

    models: Annotated[int, Field(ge=1, le=limits.MAX_MODELS_PER_UNIT)]
    points: Annotated[int, Field(ge=0, le=100000)]


class SheetModel(Strict):
    """A model's profile on a datasheet."""

    name: Text
    M: Move
    T: Characteristic
    Sv: Save
    InSv: Save | None = None
    W: Characteristic
    Ld: Leadership
    OC: Move
    base_mm: BaseMm | Annotated[list[BaseMm], Field(min_length=2, max_length=2)] | None
    height: Annotated[float, Field(gt=0, le=100)] | None = None
    keywords: Texts = []
    abilities: Texts = []
    transport: CapacityModel | None = None


class SheetWeaponModel(Strict):
    """A weapon profile on a datasheet (BS for ranged weapons, WS for melee)."""

    name: Text
    range: WeaponRange
    A: Dice
    BS: Skill | None = None
    WS: Skill | None = None
    S: Strength
    AP: ArmourPen
    D: Dice
    abilities: Texts = []

    @model_validator(mode="after")
    def _one_skill(self) -> SheetWeaponModel:
        if (self.BS is None) == (self.WS is None):
            raise ValueError("expected exactly one of BS and WS, found "
                             f"{'both' if self.BS is not None else 'neither'}")
        return self


class CompositionModel(Strict):
    """One line of unit composition: a fixed count, or min and max."""

    model: Text
    count: Annotated[int, Field(ge=1, le=limits.MAX_MODELS_PER_UNIT)] | None = None
    min: Models | None = None
    max: Annotated[int, Field(ge=1, le=limits.MAX_MODELS_PER_UNIT)] | None = None
    wargear: Texts = []

    @model_validator(mode="after")
    def _count_or_range(self) -> CompositionModel:
        ranged = self.min is not None or self.max is not None
        if (self.count is None) == (not ranged) or (ranged and (self.min is None
                                                                 or self.max is None)):
            raise ValueError("expected count, or min and max, found "
                             f"{'both' if self.count is not None and ranged else 'neither'}")
        return self


class WargearOptionModel(Strict):
    """A wargear option: replace some of a model's weapons with others."""

    name: Text
    model: Text
    replace: Texts = []
    with_: Annotated[list[Text], Field(min_length=1, max_length=50, alias="with")]
    max: Annotated[int, Field(ge=1, le=limits.MAX_MODELS_PER_UNIT)] | None = None


class DatasheetModel(Strict):
    """A datasheet (02)."""

    name: Text
    faction_keywords: Annotated[list[Text], Field(min_length=1, max_length=20)]
    keywords: Texts = []
    abilities: Annotated[list[Text | NamedAbilityModel], Field(max_length=100)] = []
    models: Annotated[list[SheetModel], Field(min_length=1, max_length=50)]
    weapons: Annotated[list[SheetWeaponModel], Field(max_length=200)]
    composition: Annotated[list[CompositionModel], Field(min_length=1, max_length=50)]
    wargear_options: Annotated[list[WargearOptionModel], Field(max_length=100)] = []
    leader_of: Texts = []
    points: Annotated[list[PointsModel], Field(max_length=50)] = []


class WargearChoiceModel(Strict):
    """A chosen wargear option, for some of the unit's models."""

    option: Text
    models: Annotated[int, Field(ge=1, le=limits.MAX_MODELS_PER_UNIT)] | None = None


class ArmyUnitModel(Strict):
    """A unit of the army: a datasheet, its size and wargear, its leader."""

    datasheet: Text
    name: Text | None = None
    count: Annotated[int, Field(ge=1, le=limits.MAX_MODELS_PER_UNIT)] | None = None
    models: dict[str, Models] | None = None
    wargear: Annotated[list[Text | WargearChoiceModel], Field(max_length=100)] = []
    attached_to: Text | None = None
    embarked_in: Text | None = None
    reserves: Literal["strategic", "deep_strike"] | None = None

    @model_validator(mode="after")
    def _count_or_models(self) -> ArmyUnitModel:
        if self.count is not None and self.models is not None:
            raise ValueError("expected count or models, found both")
        return self


class ArmyModel(Strict):
    """An army (19.01)."""

    name: Text
    faction: Text
    battle_size: Literal["incursion", "strike_force", "onslaught"] | None = None
    units: Annotated[list[ArmyUnitModel], Field(min_length=1, max_length=limits.MAX_UNITS)]


class ArmyFileModel(Strict):
    """An army/datasheet file: includes, datasheets and/or an army."""

    include: Texts | None = None
    datasheets: Annotated[list[DatasheetModel], Field(max_length=500)] | None = None
    army: ArmyModel | None = None
