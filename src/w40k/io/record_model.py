"""Game records (docs/positions.md, "game record") as one pydantic model.

A record's header must agree with itself: the recorded ``mission`` is the setup's mission (an
edited mission would replay a different game), and the setup is a valid position.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, cast

from pydantic import Field

from w40k.core.errors import DataError
from w40k.engine.serial import JSON
from w40k.io import limits
from w40k.io.mission_model import MissionModel
from w40k.io.model_base import Strict, validate
from w40k.io.position_model import validate_position
from w40k.io.safe_read import read_input

RECORD_FORMAT = "w40k-record/2"
"""The record format this module checks (the engine's ``game.RECORD_FORMAT``)."""


class RecordModel(Strict):
    """A game record: header (format, seed, setup, mission), choices and event log."""

    format: Literal["w40k-record/2"]
    seed: Annotated[int, Field(ge=-(2**63), le=2**63)]
    setup: dict[str, Any]
    mission: MissionModel
    choices: Annotated[list[Any], Field(max_length=limits.MAX_RECORD_CHOICES)]
    events: Annotated[list[dict[str, Any]], Field(max_length=limits.MAX_EVENTS)]
    dice: dict[str, Any] | None = None
    options: dict[str, Any] | None = None


def validate_record(data: object, source: str) -> dict[str, JSON]:
    """``data`` checked as a record (DataError names ``source`` and the field)."""
    rec = validate(RecordModel, data, source)
    validate_position(rec.setup, f"{source}: setup")
    d = cast(dict[str, Any], data)
    setup_mission = rec.setup.get("mission")
    if setup_mission is not None and setup_mission != d["mission"]:
        raise DataError("expected the setup's mission (the record was edited), found a "
                        "different one", where=f"{source}: mission")
    return cast(dict[str, JSON], data)


def load_record(path: str | Path) -> dict[str, JSON]:
    """A record file, read safely and validated."""
    return validate_record(read_input(path, what="record"), str(path))
