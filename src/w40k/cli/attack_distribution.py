"""`w40k attack --exact | --sims N`: the distribution of the outcome, per target."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

from rich.console import Console

from w40k.core.errors import DataError
from w40k.io import limits
from w40k.io.display import clean, plain
from w40k.io.outputs import write_with
from w40k.io.scenario import Scenario, volley_attacks
from w40k.io.work import exact_states, fallback_trials
from w40k.math import distribution, plot_distribution
from w40k.math.distributions import AttackDistribution
from w40k.math.report import comparison_table, render, to_json


def _plot(r: AttackDistribution, path: Path, *, title: str) -> None:
    plot_distribution(r, path, title=title)


def run_distribution(scenario: Scenario, *, exact: bool, sims: int | None, seed: int,
                     plot: Path | None, as_json: bool, console: Console) -> None:
    """Print (or write as JSON / a chart) the outcome distribution for each target.

    ``--exact`` computes exactly, falling back to ``--sims`` (or 200 000) simulated trials,
    and saying so, where the exact state space would explode; ``--sims N`` alone simulates.
    The distributions use the documented default decisions (docs/attack-scenario.md)."""
    key = "exact" if exact else "simulation"
    results: dict[str, AttackDistribution] = {}
    notes = []
    most = volley_attacks(scenario.weapons)
    for t in scenario.targets:
        # Bounded work: past the estimated state count, simulate instead (and say so) before
        # the exact engine allocates anything.
        states = exact_states(scenario.weapons, t.models)
        too_big = exact and states > limits.MAX_EXACT_STATES
        trials = sims or (fallback_trials(most) if too_big else 200_000)
        if too_big:
            notes.append(f"{clean(t.name)}: the exact computation would track about "
                         f"{states:.1e} states (limit {limits.MAX_EXACT_STATES:.0e}, "
                         f"docs/input-limits.md); simulated {trials} trials instead")
        results[t.name] = distribution(
            scenario.weapons, t.models, scenario.context, scenario.attacker,
            method="auto" if exact and not too_big else "simulation",
            trials=trials, seed=seed,
        )
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
                write_with(path, partial(_plot, r, title=clean(name)), "--plot")
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
        console.rule(f"[bold]{plain(name)}")
        console.print(render(r), markup=False)  # model names are text, never markup
    if len(results) > 1:
        console.print(comparison_table({clean(k): v for k, v in results.items()}), markup=False)
    for n in notes:
        console.print(f"[dim]note: {plain(n)}[/dim]")
