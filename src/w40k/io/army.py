"""Army and datasheet files: the public entry points.

>>> army = builtin("space_marines").army
>>> [u.name for u in army.units]
['Intercessors', 'Lieutenant']

The file format is described in ``docs/army-format.md``; the JSON Schema is shipped as
``w40k/data/schema/army.schema.json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from w40k.core.errors import DataError
from w40k.io.army_build import WargearChoice, attach, build_army, make_unit
from w40k.io.army_load import builtin_names, load_builtin, load_file, parse_file
from w40k.io.army_model import (
    Army,
    ArmyFile,
    Catalogue,
    CompositionEntry,
    Datasheet,
    ModelInstance,
    NamedAbility,
    Role,
    Unit,
    WargearOption,
)
from w40k.rules.strength import Strength, strength, strength_of

__all__ = [
    "Army",
    "ArmyFile",
    "Catalogue",
    "CompositionEntry",
    "Datasheet",
    "ModelInstance",
    "NamedAbility",
    "Role",
    "Strength",
    "Unit",
    "WargearChoice",
    "WargearOption",
    "attach",
    "build_army",
    "builtin",
    "builtin_names",
    "load_army",
    "load_datasheets",
    "load_file",
    "make_unit",
    "parse_file",
    "strength",
    "strength_of",
]


def load_datasheets(path: str | Path) -> Catalogue:
    """Every datasheet a file defines or includes (DataError names the file and field)."""
    return load_file(path).catalogue


def load_army(path: str | Path, *, datasheets: Sequence[str | Path] = ()) -> Army:
    """The army of any file the project reads (DataError names the file, unit and field).

    The format is detected from the content (docs/rosters.md): the project's own YAML/JSON
    (a file with an ``army`` section), a BattleScribe ``.ros``/``.rosz``, a New Recruit JSON
    export, or an app / New Recruit text export, matched against ``datasheets`` (army or
    datasheet files, or earlier rosters) and the shipped datasheets."""
    from w40k.io.rosters import detect_format, read_roster, to_army

    if detect_format(path) != "army":
        return to_army(read_roster(path, datasheets=datasheets))
    loaded = load_file(path)
    if loaded.army is None:
        raise DataError("the file has no 'army' section", where=str(path))
    return loaded.army


def builtin(name: str) -> ArmyFile:
    """A shipped file by name (``boyz``, ``space_marines``): its datasheets and its army."""
    return load_builtin(name)
