"""13.09 hidden models read off the area rows at once (pass ow21,
``Visibility._hidden_models``): equal to ``Visibility.hidden`` model by model (R13.09-a:
INFANTRY / BEASTS / SWARM within an area with a dense feature, its unit having made no ranged
attacks recently)."""

from __future__ import annotations

import numpy as np

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict


def test_hidden_models_equal_hidden_model_by_model_R13_09_a() -> None:
    hidden = 0
    for seed in range(12):
        hidden += _one_scene(seed)
    assert hidden > 20  # (80 of the 117 models within an area)


def _one_scene(seed: int) -> int:
    rng = np.random.default_rng(2130 + seed)
    data = random_scene(np.random.default_rng(900 + seed))
    for u in data["units"]:
        if rng.random() < 0.3:
            u["keywords"] = ["VEHICLE"]
        if rng.random() < 0.2:
            u["ranged_attacks_recently"] = True
    # models spread over the table, some within the areas
    for u in data["units"]:
        for m in u["models"]:
            m["x"], m["y"] = float(rng.uniform(1, 29)), float(rng.uniform(1, 21))
    v = Visibility(scene_from_dict(data), jit=False)
    fresh = Visibility(scene_from_dict(data), jit=False)
    hidden = 0
    for tu, unit in enumerate(v.scene.units):
        got = v._hidden_models(tu)
        want = [fresh.hidden(tu, tm) for tm in range(len(unit.models))]
        assert got.tolist() == want, tu
        hidden += sum(want)
    return hidden
