"""``plot_distribution(result, path)``: a PNG or SVG (by suffix) of the kills distribution and
the cumulative P(at least k). matplotlib (the ``plot`` extra) is imported only here, lazily."""

from __future__ import annotations

from pathlib import Path

from w40k.math.distributions import AttackDistribution


def plot_distribution(result: AttackDistribution, path: str | Path, title: str = "") -> Path:
    """Write the plot to ``path`` (``.png`` or ``.svg``) and return the path."""
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"plot file must end in .png or .svg, got {out.name!r}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise RuntimeError("plotting needs matplotlib: pip install 'w40k[plot]'") from exc
    pmf = result.models_destroyed.pmf
    ks = list(range(len(pmf)))
    at_least = [result.models_destroyed.p_at_least(k) for k in ks]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.bar(ks, pmf, color="#3b7dd8")
    ax1.set_xlabel("models destroyed")
    ax1.set_ylabel("probability")
    ax1.set_title("P(exactly k)")
    ax1.axvline(result.mean_models_destroyed, color="k", linestyle="--", label="mean")
    ax1.legend()
    ax2.step(ks, at_least, where="mid", color="#d8533b")
    ax2.plot(ks, at_least, "o", color="#d8533b")
    ax2.set_ylim(0, 1.05)
    ax2.set_xlabel("k")
    ax2.set_title("P(at least k destroyed)")
    note = result.method if result.method == "exact" else f"simulation, {result.trials} trials"
    fig.suptitle(f"{title} ({note})" if title else note)
    fig.tight_layout()
    fig.savefig(out, format=suffix[1:])
    plt.close(fig)
    return out
