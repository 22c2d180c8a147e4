"""move24: the normal move proposer's translation test on the ends' rows
(``movement_ends.translated_refused``) gives ``ends_refused``'s answer on the moved models, and
``movement.row_lists`` gives the per-row ``flatnonzero`` lists it replaces (``_near_steps``,
``_near_points``): seeded random scenes (round bases mostly, some ovals and hulls, several
levels, terrain features), translations onto, next to and just short of other models, ends
at the battlefield edge and at engagement range give or take 1e-9"."""

from __future__ import annotations

import math
import random

import numpy as np

from tests.geometry.test_move_fast_paths import _feature, _model
from w40k.geometry import movement
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL
from w40k.geometry.movement import ends_refused
from w40k.geometry.movement_ends import translated_refused
from w40k.geometry.scene import Scene, Unit
from w40k.geometry.shapes import EPS, Battlefield, Circle, Model
from w40k.geometry.terrain import Terrain


def _unit(rng: random.Random, prefix: str, n: int, kinds: str) -> list[Model]:
    cx, cy, spread = rng.uniform(4, 56), rng.uniform(4, 40), rng.choice((1.5, 3.0, 6.0))
    out = []
    for i in range(n):
        m = _model(rng, f"{prefix}{i}", cx + rng.uniform(-spread, spread),
                   cy + rng.uniform(-spread, spread), kinds)
        if rng.random() < 0.7:
            m = m.moved(m.x, m.y, 0.0)  # most at ground level
        out.append(m)
    return out


def _scene(rng: random.Random) -> Scene:
    kinds = "r" if rng.random() < 0.8 else "roh"
    features = tuple(_feature(rng, rng.uniform(5, 55), rng.uniform(5, 39))
                     for _ in range(rng.randint(0, 5)))
    units = [Unit("A", "p1", tuple(_unit(rng, "a", rng.randint(1, 10), kinds)))]
    for k in range(rng.randint(1, 3)):
        units.append(Unit(f"B{k}", rng.choice(("p1", "p2", "p2")),
                          tuple(_unit(rng, f"b{k}", rng.randint(1, 8), "r" if k else kinds))))
    return Scene(Battlefield(), Terrain(features=features), tuple(units))


def _vector(rng: random.Random, scene: Scene, starts: list[Model]) -> tuple[float, float]:
    """A translation: random, toward another model (onto it, touching, at engagement range
    give or take 1e-9"), or to the battlefield's edge (give or take 1e-9")."""
    m = starts[0]
    kind = rng.random()
    if kind < 0.4:
        o = rng.choice([o for u in scene.units[1:] for o in u.models])
        d = math.hypot(o.x - m.x, o.y - m.y) or 1.0
        gap = rng.choice((0.0, 0.5, 1.0, 1.5, 2.5))
        if isinstance(m.footprint(), Circle) and isinstance(o.footprint(), Circle):
            gap = rng.choice((gap, m.reach() + o.reach(),
                              m.reach() + o.reach() + ENGAGEMENT_HORIZONTAL))
        gap += rng.choice((0.0, 1e-9, -1e-9, 1e-6))
        f = 1.0 - gap / d
        return (o.x - m.x) * f, (o.y - m.y) * f
    if kind < 0.6 and isinstance(m.footprint(), Circle):
        r = m.reach()
        edge = rng.choice((r, 60.0 - r, 44.0 - r)) + rng.choice((0.0, 1e-9, -1e-9, EPS, -EPS))
        if rng.random() < 0.5:
            return edge - m.x, rng.uniform(-1, 1)
        return rng.uniform(-1, 1), edge - m.y
    far = rng.choice((1.0, 3.0, 8.0))
    return rng.uniform(-far, far), rng.uniform(-far, far)


def test_translated_refused_is_ends_refused_of_the_moved_models() -> None:
    # R03.01-c, R03.01-f, R03.01-i, R09.05-a, R13.06-e/g: the same answer, the models made
    # only where measured.
    rng = random.Random(2401)
    seen = {True: 0, False: 0}
    fallback = 0
    for _ in range(1500):
        scene = _scene(rng)
        movement._DISCS.clear()
        unit = scene.unit("A")
        starts = rng.sample(list(unit.models), rng.randint(1, len(unit.models)))
        dx, dy = _vector(rng, scene, starts)
        unengaged = rng.random() < 0.7
        skies = rng.random() < 0.1
        ends = [s.moved(s.x + dx, s.y + dy) for s in starts]
        want = ends_refused(scene, "A", "p1", ends, unengaged, skies)
        movement._DISCS.clear()
        got = translated_refused(scene, "A", "p1", starts, dx, dy, unengaged, skies)
        assert got == want
        seen[want] += 1
        fallback += not all(isinstance(s.footprint(), Circle) for s in starts)
    assert min(seen.values()) >= 300 and fallback >= 100  # both answers, both paths


def test_ends_clear_of_every_test_but_the_terrain() -> None:
    # R03.01-i, R13.06-g: a round base at ground level whose box meets a feature's box is
    # still measured (a feature just beside the end, give or take 1e-9").
    rng = random.Random(2402)
    refused = 0
    for _ in range(400):
        scene = _scene(rng)
        if not scene.terrain.features:
            continue
        f = rng.choice(scene.terrain.features)
        vx, vy = rng.choice(f.footprint)
        unit = scene.unit("A")
        starts = [rng.choice(unit.models)]
        r = starts[0].reach()
        side = rng.choice((r, -r)) + rng.choice((0.0, 1e-9, -1e-9, 1e-6, -0.3))
        dx, dy = vx + side - starts[0].x, vy - starts[0].y
        want = ends_refused(scene, "A", "p1", [starts[0].moved(starts[0].x + dx,
                                                              starts[0].y + dy)], False)
        assert translated_refused(scene, "A", "p1", starts, dx, dy, False) == want
        refused += want
    assert refused >= 40


def test_row_lists_are_the_rows_flatnonzero() -> None:
    rng = np.random.default_rng(2403)
    for _ in range(500):
        shape = (int(rng.integers(0, 7)), int(rng.integers(0, 12)))
        hit = rng.random(shape) < rng.choice((0.0, 0.1, 0.5, 1.0))
        want = [np.flatnonzero(row).tolist() for row in hit]
        got = movement.row_lists(hit)
        assert got == want
        assert all(type(j) is int for row in got for j in row)
