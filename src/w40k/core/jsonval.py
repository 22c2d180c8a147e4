"""The JSON value type shared by every layer (decision options, frames, positions, records)."""

from __future__ import annotations

JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]
"""A JSON value."""


def json_kind(value: JSON) -> str:
    """The JSON kind of a value (``list``, ``dict``, ``int`` ...), for error messages."""
    return "list" if isinstance(value, list) else type(value).__name__
