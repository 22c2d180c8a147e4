"""Output helpers for the CLI (``w40k attack --exact | --sims N``): a JSON-able dict, a rich
table with a terminal histogram, and a comparison table for several targets."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group
from rich.table import Table
from rich.text import Text

from w40k.math.distributions import AttackDistribution, Dist

BAR_WIDTH = 40
"""Characters of the longest histogram bar."""


def to_json(result: AttackDistribution) -> dict[str, object]:
    """The ``"exact"`` block of ``w40k attack --json`` (DESIGN.md), with more figures:
    ``models_destroyed`` / ``wounds_lost`` ({"0": p, ...}), ``mean_models_destroyed``,
    ``p_unit_destroyed``, ``mean_wounds_lost``, ``percentiles``, ``p_at_least``,
    ``expected_damage_wasted``, ``groups``, ``attacker`` (hazard), ``method``, ``reason``,
    and for a simulation ``trials``, ``seed`` and ``stderr``."""
    out: dict[str, object] = {
        "method": result.method,
        "reason": result.reason,
        "models_destroyed": result.models_destroyed.as_dict(),
        "wounds_lost": result.wounds_lost.as_dict(),
        "mean_models_destroyed": result.mean_models_destroyed,
        "p_unit_destroyed": result.p_unit_destroyed,
        "mean_wounds_lost": result.mean_wounds_lost,
        "percentiles": result.percentiles(),
        "p_at_least": {
            str(k): result.models_destroyed.p_at_least(k)
            for k in range(1, result.target_models + 1)
        },
        "expected_damage_wasted": result.expected_damage_wasted,
        "target_models": result.target_models,
        "groups": [
            {
                "label": g.label,
                "models": g.models,
                "character": g.character,
                "models_destroyed": g.models_destroyed.as_dict(),
                "mean_models_destroyed": g.models_destroyed.mean,
            }
            for g in result.groups
        ],
        "attacker": {
            "wounds_lost": result.attacker_wounds_lost.as_dict(),
            "models_destroyed": result.attacker_models_destroyed.as_dict(),
            "mean_wounds_lost": result.attacker_wounds_lost.mean,
        },
    }
    if result.method == "simulation":
        out["trials"] = result.trials
        out["seed"] = result.seed
        out["stderr"] = {
            "mean_models_destroyed": result.stderr_mean_models_destroyed,
            "p_unit_destroyed": result.stderr_p_unit_destroyed,
            "expected_damage_wasted": result.stderr_damage_wasted,
        }
    return out


def histogram(dist: Dist, *, width: int = BAR_WIDTH, label: str = "") -> str:
    """A terminal histogram: one line per value with P(= k), P(>= k) and a bar."""
    top = max(dist.pmf) or 1.0
    lines = [f"{label or 'k':>6}  {'P(=k)':>8}  {'P(>=k)':>8}"]
    for k, p in enumerate(dist.pmf):
        bar = "#" * round(width * p / top)
        lines.append(f"{k:>6}  {p:>8.2%}  {dist.p_at_least(k):>8.2%}  {bar}")
    return "\n".join(lines)


def render(result: AttackDistribution) -> Group:
    """A rich renderable: summary table, models-destroyed table with bars, per group."""
    summary = Table(title="Attack outcome", show_header=False)
    summary.add_column("figure")
    summary.add_column("value", justify="right")
    se = result.method == "simulation"

    def pm(value: float, err: float, fmt: str) -> str:
        return f"{value:{fmt}}" + (f" ± {err:{fmt}}" if se else "")

    summary.add_row("method", f"{result.method} ({result.reason})")
    summary.add_row(
        "mean models destroyed",
        pm(result.mean_models_destroyed, result.stderr_mean_models_destroyed, ".3f"),
    )
    summary.add_row(
        "P(unit destroyed)", pm(result.p_unit_destroyed, result.stderr_p_unit_destroyed, ".2%")
    )
    summary.add_row("mean wounds lost", f"{result.mean_wounds_lost:.3f}")
    summary.add_row(
        "expected damage wasted",
        pm(result.expected_damage_wasted, result.stderr_damage_wasted, ".3f"),
    )
    pct = result.percentiles()
    summary.add_row("percentiles (models)", ", ".join(f"{k} {v}" for k, v in pct.items()))
    if result.attacker_wounds_lost.pmf != (1.0,):
        summary.add_row("attacker wounds lost (hazard)", f"{result.attacker_wounds_lost.mean:.3f}")
    table = Table(title="Models destroyed")
    table.add_column("k", justify="right")
    table.add_column("P(=k)", justify="right")
    table.add_column("P(>=k)", justify="right")
    table.add_column("")
    top = max(result.models_destroyed.pmf) or 1.0
    for k, p in enumerate(result.models_destroyed.pmf):
        table.add_row(
            str(k),
            f"{p:.2%}",
            f"{result.models_destroyed.p_at_least(k):.2%}",
            Text("█" * round(BAR_WIDTH * p / top), style="green"),
        )
    groups = Table(title="Per allocation group")
    groups.add_column("group")
    groups.add_column("models", justify="right")
    groups.add_column("mean destroyed", justify="right")
    groups.add_column("P(all destroyed)", justify="right")
    for g in result.groups:
        groups.add_row(
            g.label + (" (CHARACTER)" if g.character else ""),
            str(g.models),
            f"{g.models_destroyed.mean:.3f}",
            f"{g.models_destroyed.p_at_least(g.models):.2%}",
        )
    return Group(summary, table, groups)


def comparison_table(results: Mapping[str, AttackDistribution]) -> Table:
    """One row per target (name -> result): mean destroyed, P(unit destroyed), wounds."""
    table = Table(title="Comparison")
    for col in ("target", "models", "mean destroyed", "P(destroyed)", "mean wounds", "median"):
        table.add_column(col, justify="left" if col == "target" else "right")
    for name, r in results.items():
        table.add_row(
            name,
            str(r.target_models),
            f"{r.mean_models_destroyed:.3f}",
            f"{r.p_unit_destroyed:.2%}",
            f"{r.mean_wounds_lost:.3f}",
            str(r.models_destroyed.percentile(0.5)),
        )
    return table
