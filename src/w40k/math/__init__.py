"""Exact damage distributions and fast Monte Carlo of one unit's attacks on another.

See docs/math.md. The per-die engine (:mod:`w40k.rules.attack_sequence`), the exact
computation and the simulation read the same rule primitives and pool profiles.
"""

from w40k.math.api import (
    clear_caches,
    distribution,
    expected_models_destroyed,
    expected_wounds_lost,
    p_destroy,
)
from w40k.math.distributions import AttackDistribution, Dist, GroupResult
from w40k.math.exact import MAX_STATES, MAX_WORK, TooLarge, exact_distribution
from w40k.math.montecarlo import simulate
from w40k.math.plot import plot_distribution
from w40k.math.report import comparison_table, histogram, render, to_json
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
    "clear_caches",
    "comparison_table",
    "distribution",
    "exact_distribution",
    "expected_models_destroyed",
    "expected_wounds_lost",
    "histogram",
    "p_destroy",
    "plot_distribution",
    "render",
    "simulate",
    "to_json",
]
