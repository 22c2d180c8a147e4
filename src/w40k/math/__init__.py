"""Exact damage distributions and fast Monte Carlo of one unit's attacks on another.

See docs/math.md. The per-die engine (:mod:`w40k.rules.attack_sequence`), the exact
computation and the simulation read the same rule primitives and pool profiles.

The output helpers (:mod:`w40k.math.report`: rich tables) load when first asked for, so a
caller of the maths alone (the heuristic player in ``w40k battle``) does not import rich.
"""

from typing import TYPE_CHECKING

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
from w40k.math.setup import AttackSetup, build_setup

if TYPE_CHECKING:
    from w40k.math.report import comparison_table, histogram, render, to_json

_REPORT = frozenset({"comparison_table", "histogram", "render", "to_json"})
"""The names :func:`__getattr__` takes from :mod:`w40k.math.report` on first use."""


def __getattr__(name: str) -> object:
    if name in _REPORT:
        from w40k.math import report

        return getattr(report, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
