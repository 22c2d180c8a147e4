"""Starting strength and half-strength (Rules Appendix), as pure functions of numbers.

The starting strength is the number of models a unit has at the start of the first battle
round (or when it is added to the army); the caller records it then. A unit whose starting
strength is 1 is judged by its model's wounds; any other unit by its number of models. A
number that cannot be halved evenly can never be 'at half-strength'.

The one home of these rules: the engine (``engine/units.py``, ``engine/queries.py``) and the
army files read them from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from w40k.rules.primitives import ModelState


@dataclass(frozen=True, slots=True)
class Strength:
    """A unit's strength compared with its starting strength (Appendix table)."""

    below_starting: bool
    """Below starting strength: fewer models than it started with, or (starting strength 1)
    fewer wounds remaining than its W."""
    at_half: bool
    """At half-strength: exactly half (never for an odd starting strength or odd W)."""
    below_half: bool
    """Below half-strength: fewer than half."""

    @property
    def at_or_below_half(self) -> bool:
        """'At - or below - half-strength'."""
        return self.at_half or self.below_half


def _compare(remaining: int, full: int) -> Strength:
    # Appendix: 'cannot be evenly divided in half' -> never at half; integer arithmetic keeps
    # 5 of 11 below half (5 < 5.5) and 6 of 11 neither.
    return Strength(
        below_starting=remaining < full,
        at_half=full % 2 == 0 and 2 * remaining == full,
        below_half=2 * remaining < full,
    )


def strength(
    starting_strength: int,
    models_remaining: int,
    *,
    W: int | None = None,
    wounds_remaining: int | None = None,
) -> Strength:
    """The Appendix status of a unit.

    ``starting_strength`` >= 2: compares ``models_remaining`` with it. ``starting_strength`` 1:
    compares the model's ``wounds_remaining`` with its ``W`` (both required then; a destroyed
    model has 0 wounds remaining).
    """
    if starting_strength < 1:
        raise ValueError(f"a starting strength is at least 1, got {starting_strength}")
    if not 0 <= models_remaining <= starting_strength:
        raise ValueError(f"models remaining must be 0..{starting_strength}, got {models_remaining}")
    if starting_strength == 1:
        if W is None or wounds_remaining is None:
            raise ValueError("a unit with starting strength 1 is judged by W and wounds remaining")
        if W < 1 or not 0 <= wounds_remaining <= W:
            raise ValueError(f"wounds remaining must be 0..{W}, got {wounds_remaining}")
        return _compare(wounds_remaining if models_remaining else 0, W)
    return _compare(models_remaining, starting_strength)


def strength_of(starting_strength: int, models: Sequence[ModelState]) -> Strength:
    """The Appendix status of a unit whose models (destroyed ones included or not) now stand as
    ``models``; a single-model unit is judged by the wounds of its model."""
    alive = [m for m in models if not m.destroyed]
    if starting_strength == 1:
        if len(models) != 1:
            raise ValueError("a unit with starting strength 1 has exactly one model")
        model = models[0]
        return strength(1, len(alive), W=model.W, wounds_remaining=max(0, model.remaining))
    return strength(starting_strength, len(alive))


def is_below_starting_strength(starting_strength: int, models: Sequence[ModelState]) -> bool:
    """Appendix: below starting strength."""
    return strength_of(starting_strength, models).below_starting


def is_at_half_strength(starting_strength: int, models: Sequence[ModelState]) -> bool:
    """Appendix: at half-strength (exactly half)."""
    return strength_of(starting_strength, models).at_half


def is_below_half_strength(starting_strength: int, models: Sequence[ModelState]) -> bool:
    """Appendix: below half-strength."""
    return strength_of(starting_strength, models).below_half
