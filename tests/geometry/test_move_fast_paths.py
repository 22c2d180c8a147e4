"""The fast paths of move validation (geometry/movement.py, measure.coherency_breaks) give the
plain answers: on seeded random units and moves (round, oval and hull footprints, several
levels, terrain features, distances at and around the thresholds), the scalar coherency test
equals the distance-matrix one, the reach-capsule pre-test of a step never rules out a
feature the exact swept test meets, and validate_move equals itself with every fast path
replaced by the plain measure."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from w40k.geometry import movement
from w40k.geometry.measure import (
    COHERENCY_ALL,
    COHERENCY_NEIGHBOUR,
    COHERENCY_VERTICAL,
    CoherencyBreak,
    Swept,
    _coherency_breaks_scalar,
    coherency_breaks,
    distance_matrix,
    plain_coherency_breaks,
    swept_region_distance,
    vertical_extent,
)
from w40k.geometry.movement import MoveType, Step, validate_move
from w40k.geometry.outlines import outline
from w40k.geometry.scene import Scene, Unit
from w40k.geometry.shapes import EPS, Battlefield, Circle, Model
from w40k.geometry.terrain import Category, Terrain, TerrainFeature

HULL = ((-1.5, -0.8), (1.5, -0.8), (1.7, 0.0), (1.5, 0.8), (-1.5, 0.8))


def _model(rng: random.Random, name: str, x: float, y: float, kinds: str = "roh") -> Model:
    kind = rng.choice(kinds)
    z = rng.choice((0.0, 0.0, 0.0, 3.0, 5.5, 8.0))
    facing = rng.uniform(-math.pi, math.pi)
    if kind == "o":  # an oval base
        return Model(name, x, y, z, (60.0, 35.0), 2.0, facing, frozenset({"MONSTER"}))
    if kind == "h":  # a FRAME hull (17.02)
        return Model(name, x, y, z, None, 4.0, facing, frozenset({"VEHICLE", "FRAME"}), HULL)
    base = rng.choice((25.0, 32.0, 40.0, 50.0))
    return Model(name, x, y, z, base, 1.6, facing, frozenset({"INFANTRY"}))


def _unit(rng: random.Random, prefix: str, n: int) -> list[Model]:
    """A random unit, some models at exactly (and just around) 2" or 9" from a round one."""
    cx, cy, spread = rng.uniform(10, 50), rng.uniform(8, 36), rng.choice((1.5, 3.0, 6.0))
    out = [_model(rng, f"{prefix}{i}", cx + rng.uniform(-spread, spread),
                  cy + rng.uniform(-spread, spread)) for i in range(n)]
    anchor = next((m for m in out if isinstance(m.base_mm, float)), None)
    if anchor is not None:
        for k, gap in enumerate(rng.sample((2.0, 2.0 + 1e-9, 2.0 - 1e-9, 9.0, 9.0 + 1e-9,
                                            9.0 - 1e-9, 0.0), 3)):
            a = rng.uniform(-math.pi, math.pi)
            assert isinstance(anchor.base_mm, float)
            d = anchor.base_mm / 50.8 + 32.0 / 50.8 + gap
            z = anchor.z + rng.choice((0.0, 5.0, 5.0 + 1e-9))
            out.append(Model(f"{prefix}t{k}", anchor.x + d * math.cos(a),
                             anchor.y + d * math.sin(a), z, 32.0))
    return out


def _reference_breaks(models: list[Model]) -> list[CoherencyBreak]:
    """The distance-matrix coherency test as it was written first (the reference)."""
    n = len(models)
    if n <= 1:
        return []
    h = distance_matrix(models)
    z0 = np.array([vertical_extent(m)[0] for m in models])
    z1 = np.array([vertical_extent(m)[1] for m in models])
    v = np.maximum(0.0, np.maximum(z0[None, :] - z1[:, None], z0[:, None] - z1[None, :]))
    near = (h <= COHERENCY_NEIGHBOUR + EPS) & (v <= COHERENCY_VERTICAL + EPS)
    np.fill_diagonal(near, False)
    ok_all = (h <= COHERENCY_ALL + EPS) & (v <= COHERENCY_VERTICAL + EPS)
    out: list[CoherencyBreak] = []
    for i, m in enumerate(models):
        if not near[i].any():
            out.append(CoherencyBreak(m.name, "R03.03-a"))
        far = [j for j in range(n) if j != i and not ok_all[i, j]]
        if far:
            out.append(CoherencyBreak(m.name, "R03.03-b", models[far[0]].name))
    return out


@pytest.mark.parametrize("seed", range(80))
def test_scalar_coherency_equals_the_distance_matrix(seed: int) -> None:
    # R03.03-a, R03.03-b: within 2"/5" of another model and 9"/5" of every other.
    rng = random.Random(seed)
    models = _unit(rng, "m", rng.randint(1, 30))
    if seed % 2:  # a tighter unit on one level: mostly coherent
        x0, y0 = models[0].x, models[0].y
        models = [m.moved(x0 + 0.4 * (m.x - x0), y0 + 0.4 * (m.y - y0), 0.0) for m in models]
    want = _reference_breaks(models)
    assert coherency_breaks(models) == want
    assert plain_coherency_breaks(models) == want
    if len(models) > 1:
        assert _coherency_breaks_scalar(models) == want


def _feature(rng: random.Random, cx: float, cy: float) -> TerrainFeature:
    """A random (possibly non-convex) polygon, some vertices on a 1" grid."""
    k = rng.choice((3, 4, 5, 8))
    pts = []
    for i in range(k):
        a = 2 * math.pi * i / k + rng.uniform(-0.2, 0.2)
        r = rng.uniform(1, 5)
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        if rng.random() < 0.3:
            x, y = round(x), round(y)
        pts.append((float(x), float(y)))
    return TerrainFeature("f", Category.DENSE, tuple(pts), rng.choice((1.0, 4.0, 6.0)))


def _plain_crosses(start: Model, end: Model, f: TerrainFeature) -> bool:
    fa = start.footprint()
    if isinstance(fa, Circle):
        o = outline(f)
        return o.disc_meets(fa.cx, fa.cy, fa.r - 1e-6) or o.segment_within(
            fa.cx, fa.cy, end.x, end.y, fa.r - 1e-6)
    return swept_region_distance(Swept(fa, end.x - start.x, end.y - start.y), f.array()) <= 0.0


@pytest.mark.parametrize("seed", range(40))
def test_the_reach_capsule_never_rules_out_a_crossing(seed: int) -> None:
    # R13.06-c: a step through a dense feature is found whatever the footprint.
    rng = random.Random(100 + seed)
    f = _feature(rng, 20.0, 20.0)
    o = outline(f)
    for _ in range(25):
        start = _model(rng, "m", rng.uniform(12, 28), rng.uniform(12, 28), "oh")
        reach = start.reach()
        if rng.random() < 0.4:  # just beyond (or at) the reach from a vertex
            vx, vy = rng.choice(f.footprint)
            a = rng.uniform(-math.pi, math.pi)
            d = reach + rng.choice((0.0, 1e-9, 1e-7, 1e-6, 2e-6, 0.01))
            start = start.moved(vx + d * math.cos(a), vy + d * math.sin(a))
        a, d = rng.uniform(-math.pi, math.pi), rng.uniform(0.0, 8.0)
        end = start.moved(start.x + d * math.cos(a), start.y + d * math.sin(a))
        assert movement.crosses_feature(start, end, o) == _plain_crosses(start, end, f)


def _scene(rng: random.Random) -> Scene:
    features = tuple(_feature(rng, rng.uniform(10, 50), rng.uniform(8, 36))
                     for _ in range(rng.randint(0, 4)))
    mine = _unit(rng, "a", rng.randint(1, 6))
    theirs = _unit(rng, "b", rng.randint(1, 6))
    return Scene(Battlefield(), Terrain(features=features),
                 (Unit("A", "p1", tuple(mine)), Unit("B", "p2", tuple(theirs))))


def _plain_near_points(discs: movement.Discs, models: list[Model], d: float
                       ) -> list[list[int]]:
    return [discs.near_segment(m.x, m.y, m.x, m.y, m.reach(), d) for m in models]


def _plain_near_steps(discs: movement.Discs, by_name: dict[str, Model], moves: dict[str, object],
                      walks: list[list[Model]]) -> dict[tuple[str, int], list[int]]:
    out = {}
    for name, walk in zip(moves, walks, strict=True):
        cur = by_name[name]
        for k, nxt in enumerate(walk):
            if math.hypot(nxt.x - cur.x, nxt.y - cur.y) > EPS:
                out[(name, k)] = discs.near_segment(cur.x, cur.y, nxt.x, nxt.y, cur.reach(), 0.0)
            cur = nxt
    return out


def test_validate_move_equals_its_plain_form(monkeypatch: pytest.MonkeyPatch) -> None:
    # R03.01-a, R03.01-c, R03.01-d, R03.03-d, R09.05-a, R13.06-c: the same violations in
    # the same order with every fast path replaced by the plain measure.
    rng = random.Random(500)
    cases = []
    for _ in range(300):
        scene = _scene(rng)
        unit = scene.unit("A")
        moves = {}
        far = rng.choice((1.0, 3.0, 7.0))
        for m in rng.sample(unit.models, rng.randint(1, len(unit.models))):
            path = []
            x, y = m.x, m.y
            for _ in range(rng.randint(1, 2)):
                x, y = x + rng.uniform(-far, far), y + rng.uniform(-far, far)
                path.append(Step(x, y))
            moves[m.name] = path
        mt = rng.choice((MoveType.NORMAL, MoveType.ADVANCE, MoveType.CHARGE,
                         MoveType.FALL_BACK, MoveType.DESPERATE_ESCAPE))
        cases.append((scene, moves, mt, rng.choice((6.0, 12.0)), rng.random() < 0.1))
    fast = [validate_move(s, "A", mv, mt, b, take_to_skies=sk) for s, mv, mt, b, sk in cases]
    monkeypatch.setattr(movement, "coherency_breaks", plain_coherency_breaks)
    monkeypatch.setattr(movement, "_near_points", _plain_near_points)
    monkeypatch.setattr(movement, "_near_steps", _plain_near_steps)
    monkeypatch.setattr(movement, "crosses_feature",
                        lambda s, e, o: _plain_crosses(s, e, o.feature))
    movement._DISCS.clear()
    plain = [validate_move(s, "A", mv, mt, b, take_to_skies=sk) for s, mv, mt, b, sk in cases]
    assert fast == plain
    for (_, _, mt, _, sk), vs in zip(cases, fast, strict=True):
        if sk or mt is MoveType.DESPERATE_ESCAPE:  # R21.03-b, R09.07-c: through models
            assert not any(v.rule in ("R03.01-d", "R17.01-a") for v in vs)
        if sk:  # R21.03-b: over terrain
            assert not any(v.rule == "R13.06-c" for v in vs)
    seen = {v.rule for vs in fast for v in vs}
    assert {"R03.01-a", "R03.01-c", "R03.01-d", "R03.03-d", "R09.05-a", "R13.06-c",
            "R17.01-a"} <= seen
    assert sum(not vs for vs in fast) >= 10  # some legal moves too


def test_the_near_points_are_the_near_segment_discs() -> None:
    rng = random.Random(9)
    for _ in range(30):
        a, b = _unit(rng, "a", rng.randint(1, 8)), _unit(rng, "b", rng.randint(0, 8))
        discs = movement.Discs.of(b)
        for d in (0.0, 2.0, 2.0 + 1e-9):
            assert movement._near_points(discs, a, d) == _plain_near_points(discs, a, d)


@pytest.mark.parametrize("skip", [("R03.03-d",), ("R03.01-c",), ("R03.03-d", "R03.01-c")])
def test_skipped_checks_leave_every_other_violation(skip: tuple[str, ...]) -> None:
    # R03.01-c, R03.03-d: a proposer that checks coherency and ending on a model itself asks
    # validate_move to skip them; every other violation is the same, in the same order.
    rng = random.Random(501)
    compared = dropped = 0
    for _ in range(300):
        scene = _scene(rng)
        unit = scene.unit("A")
        m = rng.choice(unit.models)
        far = rng.choice((1.0, 3.0, 7.0))
        moves = {m.name: [Step(m.x + rng.uniform(-far, far), m.y + rng.uniform(-far, far))]}
        mt = rng.choice((MoveType.NORMAL, MoveType.CHARGE, MoveType.FALL_BACK))
        whole = validate_move(scene, "A", moves, mt, 6.0)
        part = validate_move(scene, "A", moves, mt, 6.0, skip=skip)
        assert part == [v for v in whole if v.rule not in skip]
        compared += 1
        dropped += sum(v.rule in skip for v in whole)
    assert compared == 300 and dropped >= 10  # the skipped rules did come up


def _finals(scene: Scene, moves: dict[str, list[Step]]) -> list[Model]:
    unit = scene.unit("A")
    out = []
    for m in unit.models:
        for s in moves.get(m.name, ()):
            m = m.moved(s.x, s.y)
        if m.name in moves:
            out.append(m)
    return out


@pytest.mark.parametrize("skip", [(), ("R03.03-d", "R03.01-c")])
def test_the_first_violation_and_the_checked_ends_leave_the_answer(
        skip: tuple[str, ...]) -> None:
    # R03.01-a, R03.01-c, R03.01-d, R03.01-i, R13.06-c: ``first`` answers the full answer's
    # first violation alone (empty exactly when it is empty: a proposer asks only whether a
    # move is legal, ``moves.check_move`` reports only the first); ``ENDS_CHECKED`` (a caller
    # that measured ``ending_violations`` of the ends) drops those alone, in the same order.
    rng = random.Random(502)
    legal = ends_found = 0
    for _ in range(300):
        scene = _scene(rng)
        unit = scene.unit("A")
        far = rng.choice((1.0, 3.0, 7.0))
        moves = {}
        for m in rng.sample(unit.models, rng.randint(1, min(2, len(unit.models)))):
            moves[m.name] = [Step(m.x + rng.uniform(-far, far), m.y + rng.uniform(-far, far))]
        mt = rng.choice((MoveType.NORMAL, MoveType.CHARGE, MoveType.PILE_IN,
                         MoveType.FALL_BACK))
        whole = validate_move(scene, "A", moves, mt, 6.0, skip=skip)
        assert validate_move(scene, "A", moves, mt, 6.0, skip=skip, first=True) == whole[:1]
        ends = [v for e in _finals(scene, moves)
                for v in movement.ending_violations(scene.terrain, e)]
        rest = [v for v in whole if v not in ends]
        checked = (*skip, movement.ENDS_CHECKED)
        assert validate_move(scene, "A", moves, mt, 6.0, skip=checked) == rest
        assert validate_move(scene, "A", moves, mt, 6.0, skip=checked, first=True) == rest[:1]
        legal += not whole
        ends_found += bool(ends)
    assert legal >= 10 and ends_found >= 10  # both kinds of answer came up


def test_the_kept_standing_engagements_leave_the_answer() -> None:
    # R09.05-a, R09.07-e: the first engaged enemy model of each model a move leaves where
    # the scene has it is kept per scene; moving one model after another on the same scene
    # (as the proposers do) gives the answers of a fresh table each time.
    rng = random.Random(503)
    kept_engaged = 0
    for _ in range(200):
        scene = _scene(rng)
        unit = scene.unit("A")
        movement._DISCS.clear()
        for _ in range(4):
            m = rng.choice(unit.models)
            far = rng.choice((1.0, 3.0))
            moves = {m.name: [Step(m.x + rng.uniform(-far, far), m.y + rng.uniform(-far, far))]}
            mt = rng.choice((MoveType.NORMAL, MoveType.FALL_BACK, MoveType.CHARGE))
            kept = validate_move(scene, "A", moves, mt, 6.0)
            kept_first = validate_move(scene, "A", moves, mt, 6.0, first=True)
            table = dict(movement._standing(scene, "A"))
            movement._DISCS.clear()
            assert validate_move(scene, "A", moves, mt, 6.0) == kept
            assert kept_first == kept[:1]
            movement._DISCS[(id(scene), "A")][3].update(table)  # keep what was found
            kept_engaged += any(v.rule in ("R09.05-a", "R09.07-e") and v.model != m.name
                                for v in kept)
    assert kept_engaged >= 10  # models left where they stand engaged did come up
