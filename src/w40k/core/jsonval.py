"""The JSON value type shared by every layer (decision options, frames, positions, records)."""

from __future__ import annotations

JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]
"""A JSON value."""


def json_kind(value: JSON) -> str:
    """The JSON kind of a value (``list``, ``dict``, ``int`` ...), for error messages."""
    return "list" if isinstance(value, list) else type(value).__name__


def to_json(value: object) -> JSON:
    """Plain Python data (tuples, str-like enums, frozen values with ``__str__``) as JSON."""
    if value is None or isinstance(value, bool | int | float | str):
        return value if not isinstance(value, str) else str(value)
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return str(value)
