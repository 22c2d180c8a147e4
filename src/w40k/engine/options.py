"""Game-level rule options: the readings the checklist marks configurable, carried by a
position (key ``options``) and a game with the same names and defaults as ``w40k attack``'s
scenario keys (docs/positions.md)."""

from __future__ import annotations

from typing import cast

from w40k.core.errors import DataError
from w40k.core.jsonval import JSON
from w40k.rules.attack_profile import Ruleset

DEFAULTS: dict[str, JSON] = {
    "hit_modifier_cap": None,
    "stratagems": True,
}
"""Every option and its default. ``hit_modifier_cap``: X002-n / R05.01-f, 11th edition has
no cap on hit-roll modifiers (null); 1 applies the legacy +-1 cap. ``stratagems``: false
plays without stratagems (15: none is ever offered; benchmarks compare)."""


def read_options(data: JSON, where: str = "options") -> dict[str, JSON]:
    """The options of a position or game, defaults filled in (DataError naming the option)."""
    if data is None:
        return dict(DEFAULTS)
    if not isinstance(data, dict):
        raise DataError(f"expected an object of rule options, got {data!r}", where=where)
    out = dict(DEFAULTS)
    for name, value in data.items():
        if name not in DEFAULTS:
            raise DataError(f"unknown rule option (known: {', '.join(sorted(DEFAULTS))})",
                            where=f"{where}.{name}")
        out[name] = value
    cap = out["hit_modifier_cap"]
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
        raise DataError(f"expected null or a whole number >= 0, got {cap!r}",
                        where=f"{where}.hit_modifier_cap")
    if not isinstance(out["stratagems"], bool):
        raise DataError(f"expected true or false, got {out['stratagems']!r}",
                        where=f"{where}.stratagems")
    return out


def ruleset(options: dict[str, JSON]) -> Ruleset:
    """The attack sequence's :class:`Ruleset` for these options."""
    cap = options.get("hit_modifier_cap")
    return Ruleset(None if cap is None else int(cast(int, cap)))
