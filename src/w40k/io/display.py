"""Names from files, made safe to print: control characters removed (an ``ESC[2J`` in a weapon
name must not clear the user's terminal) and rich markup escaped (``[link=...]`` or ``[/]`` in
a unit name is text, never markup). rich loads only when :func:`plain` is first called:
``w40k battle`` prints with ``clean`` alone and never needs it."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")


def clean(text: object) -> str:
    """``text`` without control characters (newline and tab are kept)."""
    return _CONTROL.sub("", str(text))


def plain(text: object) -> str:
    """``text`` for rich: control characters removed, markup escaped."""
    from rich.markup import escape

    return escape(clean(text))
