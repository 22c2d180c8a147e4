"""`w40k attack --exact | --sims N`: the distribution of the outcome, per target."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

from w40k.core.errors import DataError
from w40k.io.scenario import Scenario
from w40k.math import comparison_table, distribution, plot_distribution, render, to_json
from w40k.math.distributions import AttackDistribution


def run_distribution(scenario: Scenario, *, exact: bool, sims: int | None, seed: int,
                     plot: Path | None, as_json: bool, console: Console) -> None:
    """Print (or write as JSON / a chart) the outcome distribution for each target.

    ``--exact`` computes exactly, falling back to ``--sims`` (or 200 000) simulated trials,
    and saying so, where the exact state space would explode; ``--sims N`` alone simulates.
    The distributions use the documented default decisions (docs/attack-scenario.md)."""
    key = "exact" if exact else "simulation"
    results: dict[str, AttackDistribution] = {}
    for t in scenario.targets:
        results[t.name] = distribution(
            scenario.weapons, t.models, scenario.context, scenario.attacker,
            method="auto" if exact else "simulation",
            trials=sims or 200_000, seed=seed,
        )
    notes = []
    if scenario.allocation_order:
        notes.append("allocation_order is a per-die choice; distributions use the default "
                     "order (docs/attack-scenario.md)")
    if scenario.dice is not None:
        notes.append("scripted dice are for referee mode; distributions ignore them")
    if plot is not None:
        for i, (name, r) in enumerate(results.items()):
            path = plot if len(results) == 1 else plot.with_name(
                f"{plot.stem}_{i + 1}{plot.suffix}")
            try:
                plot_distribution(r, path, title=name)
            except (RuntimeError, ValueError) as exc:  # no matplotlib, or not .png/.svg
                raise DataError(str(exc), where="--plot") from None
            if not as_json:
                console.print(f"wrote {path}")
    if as_json:
        docs = [{"target": name, key: to_json(r)} for name, r in results.items()]
        body: dict[str, object] = dict(docs[0]) if len(docs) == 1 else {"targets": docs}
        if notes:
            body["notes"] = notes
        print(json.dumps(body, indent=2))
        return
    for name, r in results.items():
        console.rule(f"[bold]{name}")
        console.print(render(r))
    if len(results) > 1:
        console.print(comparison_table(results))
    for n in notes:
        console.print(f"[dim]note: {n}[/dim]")
