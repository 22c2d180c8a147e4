"""The JSON Schemas of every input format, exported from the pydantic models
(``python -m w40k.io.schemas docs/schemas`` writes them; a test checks they are current)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel

from w40k.io.army_schema import ArmyFileModel
from w40k.io.layout_model import LayoutModel
from w40k.io.mission_model import MissionModel
from w40k.io.position_model import PositionModel
from w40k.io.record_model import RecordModel
from w40k.io.scenario_model import ScenarioModel
from w40k.io.scene_model import SceneModel

MODELS: dict[str, type[BaseModel]] = {
    "scenario": ScenarioModel, "scene": SceneModel, "army": ArmyFileModel,
    "mission": MissionModel, "position": PositionModel, "record": RecordModel,
    "layout": LayoutModel,
}
"""Format name -> its model."""


def schema_text(name: str) -> str:
    """The JSON Schema of one format, as the file docs/schemas/NAME.schema.json holds it."""
    schema = MODELS[name].model_json_schema(by_alias=True)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def export(folder: Path) -> list[Path]:
    """Write every schema into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in MODELS:
        path = folder / f"{name}.schema.json"
        path.write_text(schema_text(name), encoding="utf-8")
        out.append(path)
    return out


if __name__ == "__main__":
    for p in export(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas")):
        print(p)
