"""Scene facts a :class:`Visibility` keeps (pass vis6): the rule mask per unit pair (13.09
hidden beyond detection range, 24.24 Lone Operative), the hidden models per unit, each model's
area columns and the obstacles of a model pair answer exactly as computed afresh from the full
model x area matrix, on the seeded random scenes of ``test_los_batch`` (walls, dense areas,
INFANTRY, Lone Operatives, upper levels, ovals); also (pass stage6) the models' obstacle rows
kept by footprint."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict, sight_build
from w40k.geometry.los import Obstacles
from w40k.geometry.shapes import EPS, HALF_LINE, Circle, Oval, Polygon
from w40k.geometry.visibility import COVER_KEYWORDS


def _fresh_rows(data: dict[str, object]) -> np.ndarray:
    """The whole model x region matrix of a fresh Visibility, every row filled at once."""
    w = Visibility(scene_from_dict(data), jit=False)
    return w._area_rows(np.arange(len(w.models), dtype=np.int64)).copy()


@pytest.mark.parametrize("seed", range(6))
def test_kept_scene_facts_equal_fresh_ones(seed: int) -> None:
    # R13.09-b, R24.24-a, R13.10-a: the same masks, areas and obstacles as computed afresh
    data = random_scene(np.random.default_rng(900 + seed))
    rows = _fresh_rows(data)
    v = Visibility(scene_from_dict(data), jit=False)
    units = v.scene.units
    n_areas = len(v.scene.terrain.areas)
    for ou, a in enumerate(units):
        for tu, b in enumerate(units):
            if a.player == b.player:
                continue
            # 13.09 / 24.24 as Visibility._rule_mask computed them before they were kept
            d = v.unit_distances(ou, tu)
            hidden = np.array([
                not b.ranged_attacks_recently and m.has(*COVER_KEYWORDS)
                and any(v.dense_area[c] for c in np.nonzero(rows[v.model_index[(tu, tm)]]
                                                            [:n_areas])[0])
                for tm, m in enumerate(b.models)], dtype=bool)
            want = np.ones(d.shape, dtype=bool)
            want &= ~(hidden[None, :] & (d > b.detection_range + EPS))
            if b.lone_operative is not None:
                want &= ~(d.min(axis=1) > b.lone_operative + EPS)[:, None]
            got = v._rule_mask(ou, tu)
            assert (got == want).all()
            assert v._rule_mask(ou, tu) is got and not got.flags.writeable
            assert (v._hidden_models(tu) == hidden).all()
            for om in range(len(a.models)):
                for tm in range(len(b.models)):
                    og, tg = v.model_index[(ou, om)], v.model_index[(tu, tm)]
                    ex = np.nonzero(rows[og] | rows[tg])[0]
                    keep = (v.owner_unit != ou) & (v.owner_unit != tu)
                    keep &= ~np.isin(v.owner_area, ex)
                    obs = v._obstacles_for(ou, om, tu, tm)
                    assert np.array_equal(obs.a, v.obstacles.a[keep[v.obstacles.owner]])
                    assert np.array_equal(obs.verts,
                                          v.obstacles.verts[keep[v.obstacles.vert_owner]])
    for g, key in enumerate(v.models):
        assert v._regions(g) == frozenset(int(c) for c in np.nonzero(rows[g])[0])
        assert v.areas_of[key] == frozenset(int(c) for c in np.nonzero(rows[g][:n_areas])[0])


@pytest.mark.parametrize("seed", range(4))
def test_obstacles_with_the_terrain_part_kept_equal_one_build(seed: int) -> None:
    # R06.01-a, R13.10-a: the scene's blockers are the same arrays, item by item, in order
    data = random_scene(np.random.default_rng(950 + seed))
    for _ in range(2):  # the second scene finds the terrain's part kept
        v = Visibility(scene_from_dict(data), jit=False)
        ter = v._part.items
        models = [
            (np.array([[fp.cx, fp.cy]]), fp.r + HALF_LINE, m.top) if isinstance(fp, Circle)
            else (fp.outline(48), HALF_LINE, m.top) if isinstance(fp, Oval)
            else (fp.array(), HALF_LINE, m.top)
            for u in v.scene.units for m in u.models for fp in (m.footprint(),)
        ]
        want = Obstacles.build(list(ter) + models)
        fps = [m.footprint() for u in v.scene.units for m in u.models]
        tops = [m.top for u in v.scene.units for m in u.models]
        for got in (v.obstacles, sight_build.build(ter, models),
                    sight_build.build_models(ter, fps, tops)):
            for f in fields(Obstacles):
                x, y = getattr(got, f.name), getattr(want, f.name)
                assert x.dtype == y.dtype and np.array_equal(x, y), f.name
        data["units"][0]["models"][0]["x"] += 0.5


def test_model_rows_of_every_footprint_kind_equal_one_build() -> None:
    # R06.01-a: round bases, ovals and hulls block as their items (COLUMN convention), the
    # rows kept by footprint joined in order as one build makes them (asked twice: kept)
    ter = random_scene_items()
    fps = [Circle(10.0, 10.0, 0.63), Oval(20.0, 12.0, 1.5, 0.9, 0.4),
           Polygon(((30.0, 30.0), (34.0, 30.0), (34.0, 33.0), (30.0, 33.0))),
           Circle(10.0, 10.0, 0.63)]
    tops = [1.5, 2.0, 3.25, 4.0]
    want = Obstacles.build(list(ter) + [sight_build.model_item(f, t)
                                        for f, t in zip(fps, tops, strict=True)])
    for _ in range(2):
        got = sight_build.build_models(ter, fps, tops)
        for f in fields(Obstacles):
            x, y = getattr(got, f.name), getattr(want, f.name)
            assert x.dtype == y.dtype and np.array_equal(x, y), f.name


def random_scene_items() -> tuple[sight_build.Item, ...]:
    """The terrain items of a seeded random scene."""
    return Visibility(scene_from_dict(random_scene(np.random.default_rng(990))),
                      jit=False)._part.items
