"""Reading any input file safely: one function for every file the project reads.

:func:`read_input` refuses, with a :class:`DataError` naming the file:
- files over :data:`~w40k.io.limits.MAX_FILE_BYTES` (checked before reading them whole);
- bytes that are not UTF-8 (the message gives the byte offset), and UTF-16/32 files (a UTF-8
  byte-order mark is accepted and dropped, as editors on Windows write one);
- JSON with ``NaN``/``Infinity``, integers of more than :data:`~w40k.io.limits.MAX_INT_DIGITS`
  digits, or a key twice in one object;
- YAML aliases (``*name``: the "billion laughs" bomb expands a few aliases into 10^9 values),
  duplicate keys, and values JSON cannot hold (dates, sets, ``.nan``);
- nesting deeper than :data:`~w40k.io.limits.MAX_DEPTH` and more than
  :data:`~w40k.io.limits.MAX_NODES` values.

YAML is always read with ``yaml.SafeLoader`` (no Python objects).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Literal

import yaml

from w40k.core.errors import DataError
from w40k.io import limits

Format = Literal["json", "yaml"]
"""How a file's text is decoded."""

_UTF8_BOM = "\ufeff"
_OTHER_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16",
}


def format_of(path: str | Path, default: Format = "json") -> Format:
    """``yaml`` for ``.yaml``/``.yml`` files, ``json`` for ``.json``, else ``default``."""
    suffix = Path(path).suffix.lower()
    if suffix in (".yaml", ".yml"):
        return "yaml"
    return "json" if suffix == ".json" else default


def read_bytes(path: str | Path, *, what: str = "file") -> bytes:
    """The file's bytes, at most :data:`~w40k.io.limits.MAX_FILE_BYTES` of them."""
    p = Path(path)
    source = str(path)
    try:
        if p.is_dir():
            raise DataError(f"expected a {what} file, found a folder", where=source)
        with p.open("rb") as fh:
            data = fh.read(limits.MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise DataError(f"cannot read the {what}: {exc.strerror or exc}", where=source) from None
    if len(data) > limits.MAX_FILE_BYTES:
        raise DataError(f"the {what} is larger than the limit of "
                        f"{limits.MAX_FILE_BYTES // (1024 * 1024)} MiB "
                        "(docs/input-limits.md)", where=source)
    return data


def decode_bytes(data: bytes, source: str) -> str:
    """UTF-8 text (a UTF-8 byte-order mark dropped); DataError names the file otherwise."""
    for bom, name in _OTHER_BOMS.items():
        if data.startswith(bom):
            raise DataError(f"the file is {name} (it starts with a {name} byte-order mark); "
                            "save it as UTF-8", where=source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text: byte {exc.start} is {data[exc.start]:#04x}; save "
                        "the file as UTF-8", where=source) from None
    return text[1:] if text.startswith(_UTF8_BOM) else text


def read_input(path: str | Path, *, what: str = "file", default: Format = "json") -> object:
    """The decoded content of an input file (JSON, or YAML by suffix), within the limits."""
    source = str(path)
    text = decode_bytes(read_bytes(path, what=what), source)
    return decode_text(text, source=source, fmt=format_of(path, default))


def decode_text(text: str, *, source: str, fmt: Format, shipped: bool = False) -> object:
    """Decode JSON or YAML text under the same rules as :func:`read_input`. ``shipped``: a
    file of the package itself (its YAML is read by libyaml when installed, the same values;
    :func:`_shipped_yaml`)."""
    if len(text) > limits.MAX_FILE_BYTES:
        raise DataError(f"the text is longer than the limit of {limits.MAX_FILE_BYTES} "
                        "characters", where=source)
    try:
        data = _json(text) if fmt == "json" else (_shipped_yaml(text) if shipped
                                                  else _yaml(text))
    except DataError as exc:
        raise exc.at(source) from None
    except RecursionError:
        raise DataError(f"nested deeper than the limit of {limits.MAX_DEPTH} levels",
                        where=source) from None
    try:
        check_tree(data)
    except DataError as exc:
        raise exc.at(source) from None
    return data


# -- JSON -----------------------------------------------------------------------------------------


def _constant(name: str) -> object:
    # NaN and Infinity decode as floats so that check_tree refuses them with their path.
    return float(name)


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > limits.MAX_INT_DIGITS:
        raise DataError(f"an integer of {len(digits)} digits is over the limit of "
                        f"{limits.MAX_INT_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise DataError(f"the number {text[:30]} is too large")
    return value


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise DataError(f"key {key[:60]!r} appears twice in one object")
        out[key] = value
    return out


def _json(text: str) -> object:
    try:
        return json.loads(text, parse_constant=_constant, parse_int=_int, parse_float=_float,
                          object_pairs_hook=_pairs)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
                        ) from None


# -- YAML -----------------------------------------------------------------------------------------


class _SafeLoader(yaml.SafeLoader):
    """SafeLoader that refuses aliases and duplicate keys."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise DataError(
                f"line {event.start_mark.line + 1}: YAML aliases (*{event.anchor}) are not "
                "accepted: write the value out (aliases can expand a small file into billions "
                "of values)")
        return super().compose_node(parent, index)


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


_SafeLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _strict_mapping)


_CLoader: type | None = None
"""libyaml's safe loader with the same duplicate-key refusal (None without libyaml)."""
if getattr(yaml, "CSafeLoader", None) is not None:
    class _CSafeLoader(yaml.CSafeLoader):
        """CSafeLoader refusing duplicate keys (no aliases: :func:`_shipped_yaml`)."""

    _CSafeLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                 _strict_mapping)
    _CLoader = _CSafeLoader


def _shipped_yaml(text: str) -> object:
    """:func:`_yaml` of a shipped file, parsed by libyaml (ten times faster: the set-up of
    every ``w40k battle`` reads two army files, a mission and a layout). The same
    constructor and resolver, so the same values; a text that could hold an alias or anchor
    (``*``, ``&``), or that libyaml refuses, goes to :func:`_yaml` for its answer."""
    if _CLoader is None or "*" in text or "&" in text:
        return _yaml(text)
    try:
        return yaml.load(text, Loader=_CLoader)  # a safe loader (CSafeLoader)
    except Exception:  # the pure loader gives the error (the same one as ever)
        return _yaml(text)


def _yaml(text: str) -> object:
    try:
        return yaml.load(text, Loader=_SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        at = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise DataError(f"not valid YAML: {exc.problem}{at}") from None
    except yaml.YAMLError as exc:
        raise DataError(f"not valid YAML: {exc}") from None
    except DataError:
        raise
    except ValueError as exc:  # e.g. an integer over Python's digit limit
        raise DataError(f"not valid YAML: {str(exc)[:200]}") from None


# -- the decoded tree -----------------------------------------------------------------------------


def check_tree(data: object) -> None:
    """Refuse nesting past :data:`~w40k.io.limits.MAX_DEPTH`, too many values, values JSON
    cannot hold, non-text keys, non-finite numbers and integers past the limit."""
    stack: list[tuple[object, int, str]] = [(data, 0, "")]
    nodes = 0
    while stack:
        value, depth, path = stack.pop()
        nodes += 1
        if nodes > limits.MAX_NODES:
            raise DataError(f"more than {limits.MAX_NODES} values in one file")
        if depth > limits.MAX_DEPTH:
            raise DataError(f"nested deeper than the limit of {limits.MAX_DEPTH} levels",
                            where=path or "(top)")
        if isinstance(value, dict):
            for k, v in value.items():
                if not isinstance(k, str):
                    raise DataError(f"a key must be text, got {k!r}", where=path or "(top)")
                stack.append((v, depth + 1, f"{path}.{k}" if path else k))
        elif isinstance(value, list):
            stack.extend((v, depth + 1, f"{path}[{i}]") for i, v in enumerate(value))
        elif isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        elif isinstance(value, int):
            if abs(value) > limits.MAX_ABS_INT:
                raise DataError(f"expected an integer of at most {limits.MAX_ABS_INT:.0e}, "
                                "found a larger one", where=path or "(top)")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise DataError(f"expected a finite number, found {value} (NaN and Infinity "
                                "are refused)",
                                where=path or "(top)")
        else:
            raise DataError(f"expected text, a number, true/false, a list or an object, found "
                            f"a YAML {type(value).__name__} (quote it)", where=path or "(top)")
