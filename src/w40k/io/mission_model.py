"""The mission format (``--mission FILE`` and a position's ``mission``) as one pydantic model.

Keys follow docs/battle.md ("The built-in mission"); every number is bounded so that a mission
cannot ask for unbounded work (at most :data:`~w40k.io.limits.MAX_ROUNDS` battle rounds).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, cast

from pydantic import Field, model_validator

from w40k.core.errors import DataError
from w40k.engine.serial import JSON
from w40k.io import limits
from w40k.io.model_base import Strict, Text, validate
from w40k.io.safe_read import read_input

Round = Annotated[int, Field(ge=1, le=limits.MAX_ROUNDS)]


class MissionModel(Strict):
    """Mission parameters: its name, battle length and primary scoring."""

    name: Text = "take-and-hold"
    rounds: Round = 5
    scoring_from_round: Round = 2
    vp_per_objective: Annotated[int, Field(ge=0, le=100)] = 5
    vp_cap: Annotated[int, Field(ge=0, le=limits.MAX_CP)] = 15

    @model_validator(mode="after")
    def _scoring_in_battle(self) -> MissionModel:
        if self.scoring_from_round > self.rounds:
            raise ValueError(f"scoring_from_round ({self.scoring_from_round}) is after the last "
                             f"battle round ({self.rounds}), found a mission that never scores")
        return self


def validate_mission(data: object, source: str) -> dict[str, JSON]:
    """``data`` checked as a mission (DataError names ``source`` and the field)."""
    validate(MissionModel, data, source)
    return cast(dict[str, JSON], data)


def load_mission(path: str | Path) -> dict[str, JSON]:
    """A mission file (JSON, or YAML by suffix), read safely and validated."""
    data = read_input(path, what="mission")
    if not isinstance(data, dict):
        raise DataError("expected a mission object", where=str(path))
    return validate_mission(data, str(path))
