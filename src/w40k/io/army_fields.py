"""Small readers for decoded YAML/JSON values that raise :class:`DataError` with the field.

Every reader takes the decoded value and the field's location (``models[0] 'Boy': T``); the
callers add the file and datasheet/unit in front with :meth:`DataError.at`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from w40k.core.errors import DataError


def type_name(value: object) -> str:
    """A person's word for a decoded value's type."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def mapping(value: object, where: str, *, what: str = "a mapping") -> Mapping[str, object]:
    """``value`` as a mapping with text keys."""
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise DataError(f"expected {what}, got {type_name(value)} {value!r}", where=where)
    return value


def check_fields(
    data: Mapping[str, object],
    where: str,
    *,
    required: Sequence[str] = (),
    optional: Sequence[str] = (),
) -> None:
    """Reject missing required fields and unknown ones (a typo would otherwise be ignored)."""
    for key in required:
        if key not in data:
            raise DataError(f"missing field {key!r}", where=where)
    known = (*required, *optional)
    for key in data:
        if key not in known:
            raise DataError(f"unknown field {key!r} (expected: {', '.join(known)})", where=where)


def text(value: object, where: str) -> str:
    """Non-empty text."""
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"expected non-empty text, got {value!r}", where=where)
    return value.strip()


def items(value: object, where: str) -> list[object]:
    """A list (``None`` reads as empty)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise DataError(f"expected a list, got {type_name(value)} {value!r}", where=where)
    return value


def texts(value: object, where: str) -> tuple[str, ...]:
    """A list of non-empty texts."""
    return tuple(text(v, f"{where}[{i}]") for i, v in enumerate(items(value, where)))


def count(value: object, where: str, *, lo: int = 0) -> int:
    """A whole number of models, at least ``lo``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise DataError(f"expected a whole number, got {value!r}", where=where)
    if value < lo:
        raise DataError(f"must be at least {lo}, got {value!r}", where=where)
    return value


def label(data: Mapping[str, object], index: int, field: str) -> str:
    """``models[0] 'Boy'``: a list entry's index and, when it has one, its name."""
    name = data.get("name")
    return f"{field}[{index}] {name!r}" if isinstance(name, str) else f"{field}[{index}]"
