"""sight_build's round-base rows (pass ow21): with every footprint a round base,
``build_models`` writes the models' rows straight from the centres, radii and tops; the
arrays must be exactly those of one ``Obstacles.build`` of the terrain's and the models'
items (R06.01-a: models block as columns up to their top, COLUMN convention)."""

from __future__ import annotations

from dataclasses import fields

import numpy as np

from tests.geometry.test_sight_kept_facts import random_scene_items
from w40k.geometry import sight_build
from w40k.geometry.los import Obstacles
from w40k.geometry.shapes import Circle, Oval


def _want(ter: tuple[sight_build.Item, ...], fps: list, tops: list[float]) -> Obstacles:
    return Obstacles.build(list(ter) + [sight_build.model_item(f, t)
                                        for f, t in zip(fps, tops, strict=True)])


def _same(got: Obstacles, want: Obstacles) -> None:
    for f in fields(Obstacles):
        x, y = getattr(got, f.name), getattr(want, f.name)
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), f.name


def test_round_bases_rows_equal_one_build() -> None:
    # R06.01-a: each round base a point obstacle grown by its radius + half a line's width
    ter = random_scene_items()
    rng = np.random.default_rng(2101)
    for n in (1, 2, 7, 40):
        fps = [Circle(float(x), float(y), float(r)) for x, y, r in
               zip(rng.uniform(-5, 65, n), rng.uniform(-5, 45, n),
                   rng.choice([0.5, 0.63, 0.79, 1.57, 2.0], n), strict=True)]
        fps.append(Circle(-0.0, 0.0, 0.63))  # a signed zero stays as it is
        tops = [float(t) for t in rng.uniform(0.5, 6.0, len(fps))]
        for _ in range(2):
            _same(sight_build.build_models(ter, fps, tops), _want(ter, fps, tops))
        # no terrain items at all
        _same(sight_build.build_models((), fps, tops), _want((), fps, tops))


def test_a_single_other_footprint_takes_the_kept_rows() -> None:
    # one oval among round bases: the per-footprint rows (the same arrays)
    ter = random_scene_items()
    fps = [Circle(10.0, 10.0, 0.63), Oval(20.0, 12.0, 1.5, 0.9, 0.4), Circle(3.0, 4.0, 1.0)]
    tops = [1.5, 2.0, 3.0]
    _same(sight_build.build_models(ter, fps, tops), _want(ter, fps, tops))
