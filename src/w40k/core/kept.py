"""The tables the engine keeps answers in between calls, and emptying them all at once.

Many modules keep answers (a unit's layout, a model pair's sight, a proposal's first spots)
in module tables keyed by the ``id`` of the objects asked about, each entry holding those
objects too, so that the key cannot come to mean a newer object. Each table empties itself
only when it fills up (its own limit, thousands of entries), so until then it keeps alive what
its entries hold. In a process that plays battle after battle that is the states, units and
models of games long over: a table with one entry per game (the last scene of each) fills up
after thousands of games, and memory grew by about 1 MB per skirmish and 6 MB per k = 5
battle, without levelling off over 60 games.

A table made by :func:`table` (or a one-entry :func:`slot`) is also emptied by
:func:`forget`, which ``Game.new`` and ``Game.load`` call (``Game.clone`` does not): a new
game starts with nothing kept, so a process holds the answers of the games it is playing, not
of every game it played. Every read checks its entry, so emptying a table never changes an
answer; a game still running refills what it asks again (games played side by side stay
correct, each new game costing the others their kept answers once).
"""

from __future__ import annotations

from typing import Any

_TABLES: list[dict[Any, Any] | list[Any]] = []


def table() -> dict[Any, Any]:
    """A new empty table that :func:`forget` empties."""
    out: dict[Any, Any] = {}
    _TABLES.append(out)
    return out


def slot() -> list[Any]:
    """A new empty list (the last answer kept, one entry) that :func:`forget` empties."""
    out: list[Any] = []
    _TABLES.append(out)
    return out


def forget() -> None:
    """Empty every table made by :func:`table` or :func:`slot`."""
    for t in _TABLES:
        t.clear()
