"""Result types of the exact and simulated attack distributions (typed, frozen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Method = Literal["exact", "simulation"]
"""How a result was obtained."""


@dataclass(frozen=True, slots=True)
class Dist:
    """A distribution over 0, 1, 2, ... (``pmf[k]`` = P(value = k))."""

    pmf: tuple[float, ...]
    """Probabilities indexed by value; trailing zeros removed (at least one entry)."""

    @staticmethod
    def from_mapping(probs: Mapping[int, float]) -> Dist:
        """From {value: probability} (missing values have probability 0)."""
        if not probs:
            return Dist((1.0,))
        top = max(k for k, p in probs.items() if p > 0.0) if any(probs.values()) else 0
        return Dist(tuple(float(probs.get(k, 0.0)) for k in range(top + 1)))

    @staticmethod
    def from_sequence(pmf: Sequence[float]) -> Dist:
        """From a list of probabilities (trailing zeros dropped)."""
        vals = [float(p) for p in pmf]
        while len(vals) > 1 and vals[-1] == 0.0:
            vals.pop()
        return Dist(tuple(vals) or (1.0,))

    @property
    def mean(self) -> float:
        """The expected value."""
        return sum(k * p for k, p in enumerate(self.pmf))

    @property
    def variance(self) -> float:
        """The variance."""
        m = self.mean
        return sum((k - m) ** 2 * p for k, p in enumerate(self.pmf))

    def p_at_least(self, k: int) -> float:
        """P(value >= k)."""
        return sum(self.pmf[max(k, 0) :])

    def percentile(self, q: float) -> int:
        """The smallest value v with P(value <= v) >= q (0 < q <= 1)."""
        if not 0.0 < q <= 1.0:
            raise ValueError(f"a percentile level lies in (0, 1], got {q}")
        acc = 0.0
        for k, p in enumerate(self.pmf):
            acc += p
            if acc >= q - 1e-12:
                return k
        return len(self.pmf) - 1

    def as_dict(self) -> dict[str, float]:
        """``{"0": p0, "1": p1, ...}`` (JSON keys are strings)."""
        return {str(k): p for k, p in enumerate(self.pmf)}


@dataclass(frozen=True, slots=True)
class GroupResult:
    """Models destroyed in one allocation group (05.03, formed at the start of the attack)."""

    label: str
    """The group's readable name (its first model's name, and the count)."""
    models: int
    """Living models in the group before the attack."""
    character: bool
    """Whether it is a CHARACTER model's group."""
    models_destroyed: Dist
    """Distribution of the group's models destroyed by the attack."""


@dataclass(frozen=True, slots=True)
class AttackDistribution:
    """The outcome of one unit's attacks on one target unit, as distributions."""

    method: Method
    """``"exact"`` (computed) or ``"simulation"`` (Monte Carlo)."""
    reason: str
    """Why this method was used (e.g. why the exact computation fell back)."""
    target_models: int
    """Living models in the target before the attack."""
    models_destroyed: Dist
    """Distribution of target models destroyed by this attack."""
    wounds_lost: Dist
    """Distribution of wounds the target lost to this attack."""
    groups: tuple[GroupResult, ...]
    """Per allocation group (groups as made before the first pool)."""
    expected_damage_wasted: float
    """Expected wounds an attack or a [DEVASTATING WOUNDS] critical wound would have removed
    (after Feel No Pain) beyond the remaining wounds of the model it damaged (R05.04-f,
    R24.10-b)."""
    attacker_models: int = 0
    """Living models in the attacking unit (for hazard rolls, 06.03)."""
    attacker_wounds_lost: Dist = Dist((1.0,))
    """Distribution of wounds the attacker lost to its hazard rolls."""
    attacker_models_destroyed: Dist = Dist((1.0,))
    """Distribution of attacker models destroyed by its hazard rolls."""
    trials: int = 0
    """Simulated trials (0 for exact)."""
    seed: int | None = None
    """The simulation seed, if simulated."""
    stderr_mean_models_destroyed: float = 0.0
    """Standard error of the mean models destroyed (0 when exact)."""
    stderr_p_unit_destroyed: float = 0.0
    """Standard error of P(unit destroyed) (0 when exact)."""
    stderr_damage_wasted: float = 0.0
    """Standard error of the expected damage wasted (0 when exact)."""

    @property
    def mean_models_destroyed(self) -> float:
        """E[models destroyed]."""
        return self.models_destroyed.mean

    @property
    def mean_wounds_lost(self) -> float:
        """E[wounds lost]."""
        return self.wounds_lost.mean

    @property
    def p_unit_destroyed(self) -> float:
        """P(every model of the target destroyed)."""
        if self.target_models == 0:
            return 1.0
        return self.models_destroyed.p_at_least(self.target_models)

    def percentiles(self, levels: Sequence[float] = (0.1, 0.25, 0.5, 0.75, 0.9)) -> dict[str, int]:
        """Percentiles of models destroyed, keyed ``"p50"`` etc."""
        return {f"p{round(q * 100)}": self.models_destroyed.percentile(q) for q in levels}
