"""Rosters from the list builders players use: BattleScribe ``.ros``/``.rosz``, New Recruit
JSON, and the text exports of the official app and New Recruit (docs/rosters.md).

>>> roster = read_roster("my_list.rosz")          # doctest: +SKIP
>>> army = to_army(roster)                        # doctest: +SKIP

Every reader produces a :class:`Roster` (the list as its file gives it); :func:`to_army` turns
it into the engine's :class:`~w40k.io.army_model.Army`. The format is detected from the
content, the suffix is only a hint.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from w40k.core.errors import DataError
from w40k.io.army_model import Catalogue, Datasheet
from w40k.io.rosters.model import Roster, RosterAbility, RosterModel, RosterUnit, RosterWeapon
from w40k.io.rosters.source import FORMATS, open_roster
from w40k.io.rosters.to_army import to_army

__all__ = [
    "FORMATS",
    "Roster",
    "RosterAbility",
    "RosterModel",
    "RosterUnit",
    "RosterWeapon",
    "detect_format",
    "read_roster",
    "to_army",
]


def detect_format(path: str | Path) -> str:
    """The format of a file, from its content (one of :data:`FORMATS`)."""
    return open_roster(path).format


def read_roster(path: str | Path, *, datasheets: Sequence[str | Path] = ()) -> Roster:
    """The roster in ``path``, whatever its format. Text exports are matched against
    ``datasheets`` (army/datasheet files or earlier rosters) and the shipped datasheets.
    DataError names the file, unit and field."""
    src = open_roster(path)
    if src.format in {"ros", "rosz"}:
        from w40k.io.rosters.ros import read_ros

        return read_ros(src.text, source=src.path, fmt=src.format)
    if src.format == "newrecruit-json":
        from w40k.io.rosters.newrecruit_json import read_newrecruit_json

        return read_newrecruit_json(src.text, source=src.path)
    if src.format in {"app-text", "newrecruit-text"}:
        from w40k.io.rosters.text_match import read_text

        return read_text(src.text, source=src.path, fmt=src.format,
                         catalogue=datasheet_catalogue(datasheets))
    from w40k.io.army_load import load_file
    from w40k.io.rosters.from_army import roster_of_army

    loaded = load_file(path)
    if loaded.army is None:
        raise DataError("the file has no 'army' section", where=str(path))
    return roster_of_army(loaded.army, source=str(path))


def datasheet_catalogue(paths: Sequence[str | Path]) -> Catalogue:
    """The datasheets of army/datasheet files and earlier rosters, then the shipped ones
    (a name defined twice keeps its first definition)."""
    from w40k.io.army_load import builtin_names, load_builtin, load_file

    sheets = []
    for p in paths:
        fmt = open_roster(p).format
        if fmt == "army":
            sheets += list(load_file(p).catalogue)
        else:
            army = to_army(read_roster(p))
            sheets += [c.datasheet for u in army.units for c in u.components]
    for name in builtin_names():
        sheets += list(load_builtin(name).catalogue)
    from w40k.io.army_model import name_key

    unique: dict[str, Datasheet] = {}
    for s in sheets:
        unique.setdefault(name_key(s.name), s)
    return Catalogue(tuple(unique.values()))
