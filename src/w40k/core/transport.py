"""A TRANSPORT model's capacity (18.01) as datasheet data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from w40k.core.errors import DataError
from w40k.core.jsonval import JSON


@dataclass(frozen=True)
class Capacity:
    """A transport capacity (18.01), e.g. 12 INFANTRY models, each JUMP PACK model taking
    2 spaces, no TERMINATOR models."""

    models: int
    """Spaces in all."""
    allowed: frozenset[str] = frozenset({"INFANTRY"})
    """A model needs one of these keywords to embark (empty: any model)."""
    excluded: frozenset[str] = frozenset()
    """A model with one of these keywords cannot embark."""
    spaces: tuple[tuple[str, int], ...] = ()
    """(keyword, spaces) for models that take more than one space (the largest applies)."""

    def spaces_for(self, keywords: frozenset[str]) -> int | None:
        """The spaces one model takes, or None if it cannot embark at all."""
        if self.allowed and not keywords & self.allowed:
            return None
        if keywords & self.excluded:
            return None
        return max([1, *(n for k, n in self.spaces if k in keywords)])

    def to_json(self) -> dict[str, JSON]:
        """The datasheet / position form."""
        return {"models": self.models, "allowed": list[JSON](sorted(self.allowed)),
                "excluded": list[JSON](sorted(self.excluded)),
                "spaces": {k: n for k, n in self.spaces}}

    @staticmethod
    def from_json(data: object) -> Capacity:
        """Read the datasheet / position form (DataError naming the field)."""
        if not isinstance(data, Mapping):
            raise DataError(f"expected a mapping, got {data!r}", where="transport")
        known = {"models", "allowed", "excluded", "spaces"}
        for key in data:
            if key not in known:
                raise DataError(f"unknown field {key!r} (known: {', '.join(sorted(known))})",
                                where=f"transport.{key}")
        n = data.get("models")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 1000:
            raise DataError(f"expected a number of spaces from 1 to 1000, got {n!r}",
                            where="transport.models")

        def words(key: str, default: frozenset[str]) -> frozenset[str]:
            value = data.get(key)
            if value is None:
                return default
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip()
                                                      for v in value):
                raise DataError(f"expected a list of keywords, got {value!r}",
                                where=f"transport.{key}")
            return frozenset(v.strip().upper() for v in cast(list[str], value))

        spaces_in = data.get("spaces") or {}
        if not isinstance(spaces_in, Mapping):
            raise DataError(f"expected keyword: spaces, got {spaces_in!r}",
                            where="transport.spaces")
        spaces: list[tuple[str, int]] = []
        for k, v in spaces_in.items():
            if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int) \
                    or not 1 <= v <= n:
                raise DataError(f"expected a keyword and 1 to {n} spaces, got {k!r}: {v!r}",
                                where="transport.spaces")
            spaces.append((k.strip().upper(), v))
        return Capacity(n, words("allowed", frozenset({"INFANTRY"})),
                        words("excluded", frozenset()), tuple(sorted(spaces)))
