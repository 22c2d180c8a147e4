"""Reading army/datasheet files (YAML or JSON, one structure) into :class:`ArmyFile`.

Top level: ``include`` (other files whose datasheets this one uses), ``datasheets``, ``army``.
Every error is a :class:`DataError` whose location starts with the file name. Loading reads
files and returns new values; it changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import yaml

from w40k.core.errors import DataError
from w40k.io.army_build import build_army
from w40k.io.army_datasheet import parse_datasheet
from w40k.io.army_fields import check_fields, items, mapping, text
from w40k.io.army_model import ArmyFile, Catalogue, name_key

TOP_FIELDS = ("include", "datasheets", "army")


# ---------------------------------------------------------------------------------------------
# Decoding: YAML (with duplicate keys rejected: a person editing a file would lose one silently)


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses a mapping with the same key twice."""


def _strict_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[object, object]:
    seen: set[object] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        try:
            duplicate = key in seen
        except TypeError:
            raise DataError(
                f"line {key_node.start_mark.line + 1}: a key must be text, got {key!r}"
            ) from None
        if duplicate:
            raise DataError(f"line {key_node.start_mark.line + 1}: key {key!r} appears twice")
        seen.add(key)
    return loader.construct_mapping(node)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _strict_mapping)


def _json_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise DataError(f"key {key!r} appears twice in one object")
        out[key] = value
    return out


def decode(content: str, *, source: str) -> object:
    """The decoded content of a file: JSON if ``source`` ends in ``.json``, else YAML."""
    try:
        if source.lower().endswith(".json"):
            try:
                return json.loads(content, object_pairs_hook=_json_pairs)
            except json.JSONDecodeError as exc:
                raise DataError(
                    f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
                ) from None
        try:
            return yaml.load(content, Loader=_StrictLoader)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark
            at = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
            raise DataError(f"not valid YAML: {exc.problem}{at}") from None
        except yaml.YAMLError as exc:
            raise DataError(f"not valid YAML: {exc}") from None
    except DataError as exc:
        raise exc.at(source) from None


# ---------------------------------------------------------------------------------------------
# Files and includes

Opener = Callable[[str], tuple[str, Traversable]]
"""Resolves an ``include`` entry to (source name, file)."""


def _builtin_dir() -> Traversable:
    return resources.files("w40k").joinpath("data")


def builtin_file(name: str) -> Traversable:
    """The shipped file called ``name`` (``boyz``, ``boyz.yaml``); DataError if none."""
    base = _builtin_dir()
    candidates = (
        [name] if name.endswith((".yaml", ".yml", ".json")) else [f"{name}.yaml", f"{name}.json"]
    )
    for candidate in candidates:
        entry = base.joinpath(candidate)
        if entry.is_file():
            return entry
    raise DataError(f"no shipped army file {name!r} (shipped: {', '.join(builtin_names())})")


def builtin_names() -> tuple[str, ...]:
    """Names of the shipped army/datasheet files (without extension)."""
    return tuple(
        sorted(
            e.name.rsplit(".", 1)[0]
            for e in _builtin_dir().iterdir()
            if e.is_file() and e.name.endswith((".yaml", ".json"))
        )
    )


def _read(entry: Traversable, source: str) -> str:
    try:
        return entry.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read the file ({exc})", where=source) from None


def _resolver(base: Traversable | None) -> Opener:
    def open_include(name: str) -> tuple[str, Traversable]:
        # A path relative to the including file first, then a shipped file of that name.
        if base is not None:
            entry = base.joinpath(name)
            if entry.is_file():
                return name, entry
        try:
            shipped = builtin_file(name)
        except DataError as exc:
            nearby = "no such file next to this one, and " if base is not None else ""
            raise DataError(f"{nearby}{exc.detail}") from None
        return shipped.name, shipped

    return open_include


def parse_file(
    data: object,
    *,
    source: str,
    open_include: Opener | None = None,
    _chain: tuple[str, ...] = (),
) -> ArmyFile:
    """An :class:`ArmyFile` from decoded YAML/JSON. ``open_include`` resolves ``include``
    entries (default: shipped files only)."""
    opener = open_include or _resolver(None)
    try:
        if data is None:
            raise DataError("the file is empty: expected include, datasheets and/or army")
        top = mapping(data, "", what="a mapping with include, datasheets and/or army")
        check_fields(top, "", optional=TOP_FIELDS)
        if not top:
            raise DataError("the file is empty: expected include, datasheets and/or army")
        catalogue = Catalogue()
        origin: dict[str, str] = {}
        for i, entry in enumerate(items(top.get("include"), "include")):
            at = f"include[{i}]"
            name = text(entry, at)
            try:
                inc_source, inc_file = opener(name)
            except DataError as exc:
                raise exc.at(at) from None
            if _identity(inc_file) in _chain:
                raise DataError(
                    f"including {name!r} here makes a cycle of includes "
                    f"({' -> '.join(Path(c).name for c in (*_chain, _identity(inc_file)))})",
                    where=at,
                )
            included = parse_file(
                decode(_read(inc_file, inc_source), source=inc_source),
                source=inc_source,
                open_include=_resolver(_parent(inc_file)),
                _chain=(*_chain, _identity(inc_file)),
            )
            catalogue = _merge(catalogue, included.catalogue, origin, inc_source, at)
        own = Catalogue(
            tuple(
                parse_datasheet(e, i)
                for i, e in enumerate(items(top.get("datasheets"), "datasheets"))
            )
        )
        catalogue = _merge(catalogue, own, origin, "this file", "datasheets")
        army = None if top.get("army") is None else build_army(top["army"], catalogue)
    except DataError as exc:
        raise exc.at(source) from None
    return ArmyFile(source=source, catalogue=catalogue, army=army)


def _identity(entry: Traversable) -> str:
    """What makes two includes the same file (a cycle of includes would never end)."""
    return str(entry.resolve()) if isinstance(entry, Path) else str(entry)


def _parent(entry: Traversable) -> Traversable | None:
    return entry.parent if isinstance(entry, Path) else _builtin_dir()


def _merge(
    into: Catalogue, more: Catalogue, origin: dict[str, str], source: str, where: str
) -> Catalogue:
    for sheet in more:
        key = name_key(sheet.name)
        if key in origin:
            raise DataError(
                f"datasheet {sheet.name!r} is defined twice ({origin[key]} and {source})",
                where=where,
            )
        origin[key] = source
    return into.merged(more)


def load_file(path: str | Path) -> ArmyFile:
    """Read an army/datasheet file (``.json`` as JSON, anything else as YAML). Includes are
    looked up next to it, then among the shipped files."""
    file = Path(path)
    source = str(path)
    return parse_file(
        decode(_read(file, source), source=source),
        source=source,
        open_include=_resolver(file.parent),
        _chain=(_identity(file),),
    )


def load_builtin(name: str) -> ArmyFile:
    """A shipped file (``boyz``, ``space_marines``)."""
    entry = builtin_file(name)
    return parse_file(
        decode(_read(entry, entry.name), source=entry.name),
        source=entry.name,
        open_include=_resolver(_builtin_dir()),
        _chain=(_identity(entry),),
    )
