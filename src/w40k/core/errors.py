"""Error types shared by every layer.

Bad input is reported with where it came from (file, unit, field, value) so that a person can
fix it without reading the code; illegal and malformed choices are distinct (STYLE.md, "One
boundary").
"""

from __future__ import annotations


class W40kError(Exception):
    """Base class of every error the engine raises on purpose."""


class DataError(W40kError, ValueError):
    """Bad datasheet, army, scenario or scene data.

    The message names the place: ``file: unit: field: problem (got value)``.
    """

    def __init__(self, message: str, *, where: str = "") -> None:
        self.where = where
        """Where the problem is (``file: unit: field``); empty when unknown."""
        self.detail = message
        """The problem itself, without the location."""
        super().__init__(f"{where}: {message}" if where else message)

    def at(self, prefix: str) -> DataError:
        """The same error with ``prefix`` put in front of its location."""
        where = f"{prefix}: {self.where}" if self.where else prefix
        return DataError(self.detail, where=where)


class DiceError(W40kError, ValueError):
    """A malformed dice expression or an impossible roll (e.g. re-rolling a die twice)."""


class DiceExhausted(W40kError, LookupError):
    """A scripted dice source ran out of dice of one kind."""

    def __init__(self, kind: str, used: int) -> None:
        self.kind = kind
        """The roll kind (``hit``, ``wound`` ...) that ran out."""
        self.used = used
        """How many dice of that kind were used before it ran out."""
        super().__init__(
            f"scripted dice: no '{kind}' die left (the script gave {used}, the rules needed more)"
        )


class MalformedChoice(W40kError, ValueError):
    """A choice that does not have the shape the decision request asked for."""


class IllegalChoice(W40kError, ValueError):
    """A well-formed choice that the rules forbid; the message names the rule broken."""

    def __init__(self, message: str, *, rule: str = "") -> None:
        self.rule = rule
        """The checklist ID of the rule that forbids the choice (``R05.03-c``)."""
        super().__init__(f"{rule}: {message}" if rule else message)
