"""Exact damage distributions and fast Monte Carlo of one unit's attacks on another.

See docs/math.md. The per-die engine (:mod:`w40k.rules.attack_sequence`), the exact
computation and the simulation read the same rule primitives and pool profiles.
"""

from w40k.math.distributions import AttackDistribution, Dist, GroupResult
from w40k.math.exact import MAX_STATES, MAX_WORK, TooLarge, exact_distribution
from w40k.math.montecarlo import simulate
from w40k.math.setup import AttackSetup, build_setup

__all__ = [
    "MAX_STATES",
    "MAX_WORK",
    "AttackDistribution",
    "AttackSetup",
    "Dist",
    "GroupResult",
    "TooLarge",
    "build_setup",
    "exact_distribution",
    "simulate",
]
