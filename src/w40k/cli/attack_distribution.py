"""`w40k attack --exact | --sims N`: distributions (wired to w40k.math)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from w40k.io.scenario import Scenario


def run_distribution(scenario: Scenario, *, exact: bool, sims: int | None, seed: int,
                     plot: Path | None, as_json: bool, console: Console) -> None:
    """Print (or write as JSON / a chart) the outcome distribution for each target."""
    raise NotImplementedError("distributions land with w40k.math")
