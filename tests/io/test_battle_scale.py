"""``scaled_position(k)``: k times the default armies, deployed so that no bases overlap and
every model stands wholly in its player's 8" deployment zone on the 60"x44" table."""

from __future__ import annotations

import math
from typing import cast

import pytest

from w40k.io.battle_scale import scaled_position
from w40k.io.battle_setup import DEPLOY_DEPTH, DEPTH, WIDTH, default_position


def test_scale_one_is_the_default_position() -> None:
    assert scaled_position(1) == default_position()


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_k_copies_deploy_without_overlap_inside_the_zones(k: int) -> None:
    pos = scaled_position(k)
    units = cast(list[dict[str, object]], pos["units"])
    base = cast(list[dict[str, object]], default_position()["units"])
    assert len(units) == k * len(base)
    ids = [str(u["id"]) for u in units]
    assert len(set(ids)) == len(ids)
    discs = []
    for u in units:
        for m in cast(list[dict[str, object]], u["models"]):
            profile = cast(dict[str, object], m["profile"])
            r = float(cast(float, profile["base_mm"])) / 25.4 / 2
            x, y = float(cast(float, m["x"])), float(cast(float, m["y"]))
            red = u["player"] == "red"
            lo, hi = (0.0, DEPLOY_DEPTH) if red else (DEPTH - DEPLOY_DEPTH, DEPTH)
            assert r <= x <= WIDTH - r and lo + r <= y <= hi - r
            discs.append((x, y, r))
    for i, (x, y, r) in enumerate(discs):
        for x2, y2, r2 in discs[i + 1:]:
            assert math.hypot(x - x2, y - y2) >= r + r2


def test_scales_outside_one_to_five_are_refused() -> None:
    with pytest.raises(ValueError, match=r"1\.\.5"):
        scaled_position(6)
