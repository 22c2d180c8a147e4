"""The declare_shooting listing (04.02, 06.01): the rules other than visibility are checked
first, so a target they refuse is left out without a sight search, and the listing is the
same as checking every in-range target with its visibility."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.engine.shooting_helpers import (
    BOLTGUN,
    CHOPPA,
    model,
    position,
    row,
    select,
    start,
    unit,
    wall,
    weapon,
)
from tests.geometry.test_los_batch import random_scene
from w40k.engine.phases.shooting_facts import box_gap
from w40k.geometry import scene_from_dict
from w40k.geometry.visibility import Visibility


def _searched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the target unit of every per-model sight question (``model_sees``)."""
    asked: list[str] = []
    original = Visibility.model_sees

    def spy(self: Visibility, ou: int, om: int, tu: int) -> bool:
        asked.append(self.scene.units[tu].name)
        return original(self, ou, om, tu)

    monkeypatch.setattr(Visibility, "model_sees", spy)
    return asked


def _scene() -> Any:
    launcher = weapon("frag missile", range=36, abilities=("BLAST",))
    rifle = weapon("rifle", range=36)
    return start(position(
        unit("red.a", [model("red.a.1", 30, 10, rifle, launcher)]),
        unit("red.b", row("red.b", 1, 10, 25, CHOPPA)),
        unit("red.c", row("red.c", 1, 40, 25, CHOPPA)),
        unit("blue.x", row("blue.x", 1, 10, 26.5, BOLTGUN)),
        unit("blue.tank", [model("blue.tank.1", 40, 27.5, BOLTGUN, keywords=("VEHICLE",),
                                 T=10, Sv=3, W=12, base_mm=60)]),
        unit("blue.hid", row("blue.hid", 1, 30, 20, BOLTGUN)),
        unit("blue.far", row("blue.far", 1, 30, 60, BOLTGUN)),
        terrain=wall(27, 15, 33, 16)))


def test_r04_02_a_an_engaged_target_is_left_out_of_the_listing_without_a_sight_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = _scene()
    select(g, "red.a")
    asked = _searched(monkeypatch)
    req = g.pending()
    assert req is not None and req.kind == "declare_shooting"
    # R04.02-a: blue.x is engaged (with red.b) and no rule allows it: not listed and never
    # searched; blue.tank is an engaged VEHICLE (R17.03-a): listed for the rifle, and
    # [BLAST] never targets it (R17.03-b); blue.hid is behind a wall (R06.01-f); blue.far
    # is out of range (R04.02-a).
    assert req.context["targets"] == {"red.a.1": {"rifle": ["blue.tank"],
                                                  "frag missile": []}}
    assert "blue.x" not in asked and "blue.far" not in asked
    assert set(asked) == {"blue.tank", "blue.hid"}


def test_r06_01_f_the_listing_matches_every_target_checked_with_its_visibility() -> None:
    # the same scene without the engaged units: each target's place in the listing is the
    # one its own visibility, range and engagement give (R06.01-f, R04.02-a)
    launcher = weapon("frag missile", abilities=("BLAST",))
    g = start(position(
        unit("red.a", [model("red.a.1", 30, 10, BOLTGUN, launcher),
                       model("red.a.2", 20, 10, BOLTGUN)]),
        unit("blue.hid", row("blue.hid", 1, 30, 20, BOLTGUN)),
        unit("blue.y", row("blue.y", 1, 20, 20, BOLTGUN)),
        unit("blue.far", row("blue.far", 1, 30, 60, BOLTGUN)),
        terrain=wall(27, 15, 33, 16)))
    select(g, "red.a")
    req = g.pending()
    assert req is not None
    assert req.context["targets"] == {
        "red.a.1": {"boltgun": ["blue.y"], "frag missile": ["blue.y"]},
        "red.a.2": {"boltgun": ["blue.hid", "blue.y"]}}


def test_r04_02_a_a_unit_beyond_every_range_is_left_out_without_measuring_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R04.02-a: blue.far is 50" away, beyond the 36" of every weapon of red.a: its boxes'
    # gap proves it, so its model distances are never measured; blue.y (within range of the
    # boxes) is measured and listed
    g = start(position(
        unit("red.a", [model("red.a.1", 30, 10, BOLTGUN), model("red.a.2", 20, 10, BOLTGUN)]),
        unit("blue.y", row("blue.y", 1, 20, 20, BOLTGUN)),
        unit("blue.far", row("blue.far", 1, 30, 60, BOLTGUN))))
    select(g, "red.a")
    measured: list[str] = []
    original = Visibility.unit_distances

    def spy(self: Visibility, ou: int, tu: int) -> Any:
        measured.append(self.scene.units[tu].name)
        return original(self, ou, tu)

    monkeypatch.setattr(Visibility, "unit_distances", spy)
    req = g.pending()
    assert req is not None
    assert req.context["targets"] == {"red.a.1": {"boltgun": ["blue.y"]},
                                      "red.a.2": {"boltgun": ["blue.y"]}}
    assert "blue.y" in measured and "blue.far" not in measured


@pytest.mark.parametrize("seed", range(3))
def test_r04_02_a_the_box_gap_never_exceeds_a_model_distance(seed: int) -> None:
    # R04.02-a: the bound the listing skips out-of-range units with is a lower bound of every
    # model distance (round bases, ovals, hulls of the random scenes)
    v = Visibility(scene_from_dict(random_scene(np.random.default_rng(700 + seed))), jit=False)
    units = v.scene.units
    for ou in range(len(units)):
        for tu in range(len(units)):
            if ou != tu and units[ou].models and units[tu].models:
                gap = box_gap(v.unit_box(ou), v.unit_box(tu))
                assert gap <= float(v.unit_distances(ou, tu).min()) + 1e-9
