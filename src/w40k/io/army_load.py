"""Reading army/datasheet files (YAML or JSON, one structure) into :class:`ArmyFile`.

Top level: ``include`` (other files whose datasheets this one uses), ``datasheets``, ``army``.
Every error is a :class:`DataError` whose location starts with the file name. Loading reads
files and returns new values; it changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from w40k.core.errors import DataError
from w40k.io.army_build import build_army
from w40k.io.army_datasheet import parse_datasheet
from w40k.io.army_fields import items, mapping, text
from w40k.io.army_model import ArmyFile, Catalogue, name_key
from w40k.io.army_schema import ArmyFileModel
from w40k.io.model_base import validate
from w40k.io.safe_read import decode_bytes, decode_text, format_of, read_bytes

TOP_FIELDS = ("include", "datasheets", "army")


# ---------------------------------------------------------------------------------------------
# Decoding: the one safe reader (w40k.io.safe_read: size, UTF-8, depth, no YAML aliases, no
# duplicate keys: a person editing a file would lose one silently)


def decode(content: str, *, source: str, shipped: bool = False) -> object:
    """The decoded content of a file: JSON if ``source`` ends in ``.json``, else YAML
    (``shipped``: a file of the package, :func:`~w40k.io.safe_read.decode_text`)."""
    return decode_text(content, source=source, fmt=format_of(source, "yaml"), shipped=shipped)


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
    if isinstance(entry, Path):
        return decode_bytes(read_bytes(entry, what="army file"), source)
    try:
        data = entry.read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc})", where=source) from None
    return decode_bytes(data, source)


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
    if isinstance(data, dict):
        validate(ArmyFileModel, data, source)
    try:
        if data is None:
            raise DataError("the file is empty: expected include, datasheets and/or army")
        top = mapping(data, "", what="a mapping with include, datasheets and/or army")
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
        decode(_read(entry, entry.name), source=entry.name, shipped=True),
        source=entry.name,
        open_include=_resolver(_builtin_dir()),
        _chain=(_identity(entry),),
    )
