"""The cached Python API and the output helpers the CLI calls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from tests.math.math_helpers import models, weapon
from w40k.math import (
    build_setup,
    comparison_table,
    distribution,
    expected_models_destroyed,
    histogram,
    p_destroy,
    plot_distribution,
    render,
    simulate,
    to_json,
)
from w40k.rules.attack_profile import WeaponEntry

ENTRIES = [WeaponEntry(weapon(AP=-1), 10)]
TARGET = models(10, W=1, T=4, Sv=3)


def test_the_api_answers_from_its_cache_on_the_same_question() -> None:
    first = distribution(ENTRIES, TARGET)
    assert distribution(list(ENTRIES), list(TARGET)) is first
    assert abs(expected_models_destroyed(ENTRIES, TARGET) - 5 / 3) < 1e-12
    assert abs(p_destroy(ENTRIES, TARGET) - (1 / 6) ** 10) < 1e-15


def test_the_json_block_has_the_documented_keys_and_serialises() -> None:
    out = to_json(distribution(ENTRIES, TARGET))
    for key in (
        "models_destroyed",
        "wounds_lost",
        "mean_models_destroyed",
        "p_unit_destroyed",
        "percentiles",
        "expected_damage_wasted",
        "groups",
        "attacker",
        "method",
    ):
        assert key in out
    assert json.loads(json.dumps(out))["models_destroyed"]["0"] == pytest.approx((5 / 6) ** 10)
    sim = to_json(simulate(build_setup(ENTRIES, TARGET), 1000, seed=3))
    assert sim["method"] == "simulation" and "stderr" in sim and sim["trials"] == 1000


def test_the_rich_table_and_histogram_render_as_text() -> None:
    r = distribution(ENTRIES, TARGET)
    console = Console(record=True, width=120)
    console.print(render(r))
    console.print(comparison_table({"Intercessors": r, "same again": r}))
    text = console.export_text()
    assert "Models destroyed" in text and "Intercessors" in text
    hist = histogram(r.models_destroyed)
    assert hist.splitlines()[2].split()[0] == "1" and "#" in hist


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_plot_is_written_by_suffix(tmp_path: Path, suffix: str) -> None:
    pytest.importorskip("matplotlib")
    path = plot_distribution(distribution(ENTRIES, TARGET), tmp_path / f"kills{suffix}")
    assert path.exists() and path.stat().st_size > 1000
    with pytest.raises(ValueError):
        plot_distribution(distribution(ENTRIES, TARGET), tmp_path / "kills.pdf")
