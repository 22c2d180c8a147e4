"""Bounds on the work one `w40k attack` may do, checked before any work starts.

:func:`exact_states` estimates the size of the exact engine's computation from the profiles
alone (a pure function, no call into ``w40k.math``): per weapon pool, the pairs of (dice
rolled, successes) it tracks times the target's wound states. Past
:data:`~w40k.io.limits.MAX_EXACT_STATES` the command simulates instead and says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from w40k.core.errors import DataError
from w40k.io import limits
from w40k.rules.attack_profile import WeaponEntry
from w40k.rules.primitives import ModelState


def _extra_hits(entry: WeaponEntry) -> int:
    """The most extra hits one die can give ([SUSTAINED HITS X] at its largest)."""
    best = 0
    for a in entry.weapon.abilities:
        text = str(a).upper()
        if text.startswith("SUSTAINED HITS"):
            digits = "".join(c for c in text if c.isdigit())
            best = max(best, int(digits[:3]) * 6 if digits else 6)
    return best


def exact_states(weapons: Sequence[WeaponEntry], target: Sequence[ModelState]) -> int:
    """An upper estimate of the exact computation's size for one target."""
    wounds = sum(m.remaining for m in target) + 1
    total = 0
    for w in weapons:
        dice = w.count * w.weapon.A.max * (1 + _extra_hits(w)) + 1
        total += dice * dice * wounds
    return total


def check_sims(sims: int | None, most_attacks: int) -> None:
    """Refuse a ``--sims`` over its limits (before any work)."""
    if sims is None:
        return
    if sims < 1:
        raise DataError(f"expected at least 1, found {sims}", where="--sims")
    if sims > limits.MAX_SIMS:
        raise DataError(f"expected at most {limits.MAX_SIMS} trials, found {sims} "
                        "(docs/input-limits.md)", where="--sims")
    if sims * max(most_attacks, 1) > limits.MAX_SIM_DICE:
        raise DataError(f"{sims} trials of up to {most_attacks} attacks would roll more than "
                        f"{limits.MAX_SIM_DICE:.0e} dice; give --sims "
                        f"{limits.MAX_SIM_DICE // max(most_attacks, 1)} or fewer "
                        "(docs/input-limits.md)", where="--sims")


def fallback_trials(most_attacks: int, wanted: int = 200_000) -> int:
    """Simulated trials for a fallback from ``--exact``, within the dice budget."""
    return max(1000, min(wanted, limits.MAX_SIM_DICE // max(most_attacks, 1)))
