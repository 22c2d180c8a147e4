"""The exact line of sight (06.01, 13.10, 13.11) searched sooner, with the same answers and
witnesses: the candidate lines made group by group in their order, both tangent functions of
an oval bisected in one loop, and the single-wall proof of BLOCKED for ovals (their
circumscribed polygon stands in)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from w40k.geometry import los
from w40k.geometry.los import Obstacles, Sight, line_of_sight
from w40k.geometry.shapes import HALF_LINE, Circle, Oval, Polygon, Shape
from w40k.geometry.tangents import numeric_tangents, oval_circle_tangents, support_of


def _footprint(rng: np.random.Generator, x: float, y: float) -> Shape:
    kind = int(rng.integers(0, 3))
    if kind == 0:
        return Circle(x, y, float(rng.uniform(0.5, 1.6)))
    if kind == 1:
        return Oval(x, y, float(rng.uniform(1.0, 3.0)), float(rng.uniform(0.6, 1.5)),
                    float(rng.uniform(0.0, math.pi)))
    w, h = float(rng.uniform(1.0, 2.5)), float(rng.uniform(0.8, 2.0))
    return Polygon(((x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)))


def _scene(rng: np.random.Generator) -> tuple[Shape, float, Shape, float, Obstacles]:
    """Two footprints 10-20" apart and walls, low features and model bases between them."""
    o = _footprint(rng, 5.0, 10.0)
    t = _footprint(rng, float(rng.uniform(15.0, 25.0)), float(rng.uniform(4.0, 16.0)))
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(int(rng.integers(1, 5))):
        cx, cy = float(rng.uniform(8.0, 20.0)), float(rng.uniform(2.0, 18.0))
        ang = float(rng.uniform(0.0, math.pi))
        half = float(rng.uniform(0.5, 6.0))
        d = np.array([math.cos(ang), math.sin(ang)]) * half
        n = np.array([-d[1], d[0]]) / half * 0.1
        c = np.array([cx, cy])
        wall = np.array([c - d - n, c + d - n, c + d + n, c - d + n])
        items.append((wall, HALF_LINE, float(rng.choice([1.0, 2.5, 5.0]))))
    for _ in range(int(rng.integers(0, 4))):
        items.append((np.array([[rng.uniform(8.0, 20.0), rng.uniform(2.0, 18.0)]]),
                      float(rng.uniform(0.5, 1.2)) + HALF_LINE, 1.5))
    return o, float(rng.choice([1.5, 3.0])), t, float(rng.choice([1.5, 3.0])), \
        Obstacles.build(items)


def test_candidate_groups_concatenate_to_the_candidate_lines_bit_for_bit() -> None:
    # the staged search evaluates the lines of candidate_lines in its order, the same bits
    rng = np.random.default_rng(7)
    for _ in range(60):
        o, _, t, _, obs = _scene(rng)
        for stage in (0, 1, 2):
            a, d = los.candidate_lines(o, t, obs, stage)
            groups = list(los._tangent_groups(o, t, obs, stage))
            ga, gd = los._lines(np.concatenate([g[0] for g in groups]),
                                np.concatenate([g[1] for g in groups]))
            assert np.array_equal(a[1:], ga) and np.array_equal(d[1:], gd)


def test_oval_disc_tangents_equal_the_numeric_tangents_of_each_disc() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        ov = Oval(10.0, 10.0, float(rng.uniform(1.0, 3.0)), float(rng.uniform(0.5, 1.5)),
                  float(rng.uniform(0.0, 2 * math.pi)))
        k = int(rng.integers(1, 12))
        x, y, r = rng.uniform(0, 20, k), rng.uniform(0, 20, k), rng.uniform(0.0, 1.0, k)
        nn, oo = oval_circle_tangents(ov, x, y, r)
        parts = [numeric_tangents(support_of(ov), support_of(Circle(float(x[i]), float(y[i]),
                                                                     float(r[i]))))
                 for i in range(k)]
        assert np.array_equal(nn, np.concatenate([p[0] for p in parts]))
        assert np.array_equal(oo, np.concatenate([p[1] for p in parts]))


def _proofs_agree_with_the_search(cases: list[tuple[Shape, float, Shape, float, Obstacles]],
                                  monkeypatch: pytest.MonkeyPatch
                                  ) -> list[bool]:
    """Which ``cases`` the single-wall proof settles, after checking that each proof says
    BLOCKED and that every answer and witness is the same without the proof."""
    with_proof = [line_of_sight(*c) for c in cases]
    proved = [los._single_wall_separates(*c) for c in cases]
    monkeypatch.setattr(los, "_single_wall_separates", lambda *a: False)
    without = [line_of_sight(*c) for c in cases]
    assert with_proof == without
    assert all(r.sight is Sight.BLOCKED for r, p in zip(with_proof, proved, strict=True) if p)
    return proved


@pytest.mark.parametrize("seed", range(3))
def test_the_single_wall_proof_answers_as_the_full_search(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a, R13.11-a: every proof of BLOCKED (ovals included) is the full search's answer,
    # and the same answer and witness come out with or without the proof
    rng = np.random.default_rng(seed)
    cases = [_scene(rng) for _ in range(40)]
    proved = _proofs_agree_with_the_search(cases, monkeypatch)
    assert any(p and (isinstance(c[0], Oval) or isinstance(c[2], Oval))
               for c, p in zip(cases, proved, strict=True))


def test_the_single_wall_proof_covers_ovals() -> None:
    # an oval behind a long high wall: proved BLOCKED by the stand-in polygon
    wall = np.array([[10.0, 0.0], [10.2, 0.0], [10.2, 20.0], [10.0, 20.0]])
    obs = Obstacles.build([(wall, HALF_LINE, 5.0)])
    o = Oval(5.0, 10.0, 2.0, 1.0, 0.3)
    t = Circle(15.0, 10.0, 0.6)
    assert los._single_wall_separates(o, 3.0, t, 1.5, obs)
    assert line_of_sight(o, 3.0, t, 1.5, obs).sight is Sight.BLOCKED
    assert isinstance(los._hull_stand_in(o), Polygon)


def _l_wall(rng: np.random.Generator) -> np.ndarray:
    """An L-shaped ruin wall (not convex), 0.2" thick, arms 1-6" long, turned at random."""
    a, b = float(rng.uniform(1.0, 6.0)), float(rng.uniform(1.0, 6.0))
    pts = np.array([[0.0, 0.0], [a, 0.0], [a, 0.2], [0.2, 0.2], [0.2, b], [0.0, b]])
    ang = float(rng.uniform(0.0, 2 * math.pi))
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    return np.asarray(pts @ rot.T + rng.uniform([8.0, 2.0], [18.0, 18.0]))


def _l_scene(rng: np.random.Generator) -> tuple[Shape, float, Shape, float, Obstacles]:
    """Two footprints and L-shaped walls and boxes, some above both tops, some of a height
    between the tops (partial obstacles the height bound may prove to be walls)."""
    o = _footprint(rng, 5.0, 10.0)
    t = _footprint(rng, float(rng.uniform(15.0, 25.0)), float(rng.uniform(4.0, 16.0)))
    top_o, top_t = float(rng.choice([1.5, 3.0])), float(rng.choice([0.0, 1.3, 2.6]))
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(int(rng.integers(1, 4))):
        items.append((_l_wall(rng), HALF_LINE, float(rng.choice([1.45, 2.0, 6.0]))))
    for _ in range(int(rng.integers(0, 3))):
        x, y = float(rng.uniform(8.0, 18.0)), float(rng.uniform(2.0, 18.0))
        w, h = float(rng.uniform(0.5, 2.0)), float(rng.uniform(0.5, 3.0))
        box = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
        items.append((box, HALF_LINE, float(rng.choice([1.45, 6.0]))))
    return o, top_o, t, top_t, Obstacles.build(items)


@pytest.mark.parametrize("seed", range(3))
def test_the_wall_proof_with_one_edge_of_an_l_wall_or_a_partial_wall_answers_as_the_search(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a, R13.11-a: one edge of an L-shaped wall (not convex) that joins both hull
    # sides, or a convex obstacle of intermediate height that the height bound proves to be
    # above every line near it, proves BLOCKED: the full search's answer, and the same
    # answers and witnesses with or without the proof
    rng = np.random.default_rng(100 + seed)
    cases = [_l_scene(rng) for _ in range(60)]
    proved = _proofs_agree_with_the_search(cases, monkeypatch)
    assert any(proved)


def test_one_edge_of_an_l_shaped_wall_proves_blocked() -> None:
    # R06.01-a: the long arm of an L-shaped ruin wall crosses the hull of two bases; the
    # polygon is not convex, its outer edge is, so the proof applies
    wall = np.array([[10.0, 0.0], [10.2, 0.0], [10.2, 19.8], [16.0, 19.8], [16.0, 20.0],
                     [10.0, 20.0]])
    obs = Obstacles.build([(wall, HALF_LINE, 5.0)])
    assert obs.convex is not None and not bool(obs.convex[0])
    o, t = Circle(5.0, 10.0, 0.6), Circle(15.0, 10.0, 0.6)
    assert los._single_wall_separates(o, 1.5, t, 1.5, obs)
    assert line_of_sight(o, 1.5, t, 1.5, obs).sight is Sight.BLOCKED


def test_a_partial_box_above_every_line_near_it_proves_blocked() -> None:
    # R06.01-a: a 1.45" box between a 1.5" observer and a target on the ground (a facing
    # point at level 0) is above every line near it (the height bound), so it blocks like a
    # wall; a 1.2" box is not proven and the search decides
    box = np.array([[12.0, 5.0], [13.0, 5.0], [13.0, 15.0], [12.0, 15.0]])
    o, t = Circle(5.0, 10.0, 0.6), Circle(25.0, 10.0, 0.0)
    obs = Obstacles.build([(box, HALF_LINE, 1.45)])
    assert los._single_wall_separates(o, 1.5, t, 0.0, obs)
    assert line_of_sight(o, 1.5, t, 0.0, obs).sight is Sight.BLOCKED
    low = Obstacles.build([(box, HALF_LINE, 0.3)])
    assert not los._single_wall_separates(o, 1.5, t, 0.0, low)


def _crowd_scene(rng: np.random.Generator) -> tuple[Shape, float, Shape, float, Obstacles]:
    """Two footprints and, between them, short walls meeting at corners or nearly, tall
    models in a tight row (bases a hair apart, some touching a wall) and low boxes: blockers
    that often shut the view only together."""
    o = _footprint(rng, 5.0, 10.0)
    t = _footprint(rng, float(rng.uniform(15.0, 25.0)), float(rng.uniform(4.0, 16.0)))
    top_o, top_t = float(rng.choice([1.5, 3.0])), float(rng.choice([0.0, 1.3, 2.6]))
    items: list[tuple[np.ndarray, float, float]] = []
    x0 = float(rng.uniform(9.0, 13.0))
    y = float(rng.uniform(0.0, 8.0))
    for _ in range(int(rng.integers(1, 4))):  # a broken line of short walls across the view
        length = float(rng.uniform(1.0, 5.0))
        ang = float(rng.uniform(0.3, 2.8))
        d = np.array([math.cos(ang), math.sin(ang)]) * length
        a = np.array([x0 + float(rng.uniform(-0.5, 0.5)), y])
        n = np.array([-d[1], d[0]]) / length * 0.1
        items.append((np.array([a, a + d, a + d + n, a + n]), HALF_LINE,
                      float(rng.choice([1.45, 5.0]))))
        x0, y = float(a[0] + d[0]), float(a[1] + d[1]) + float(rng.choice([0.0, 0.03, 0.5]))
    r = float(rng.uniform(0.5, 1.0))
    cx, cy = float(rng.uniform(10.0, 16.0)), float(rng.uniform(2.0, 10.0))
    for _ in range(int(rng.integers(0, 6))):  # a row of bases, a hair apart
        items.append((np.array([[cx, cy]]), r + HALF_LINE, float(rng.choice([1.6, 4.0]))))
        cy += 2 * r + float(rng.choice([0.0, 0.02, 0.05]))
    return o, top_o, t, top_t, Obstacles.build(items)


@pytest.mark.parametrize("seed", range(3))
def test_the_wall_chain_proof_answers_as_the_full_search(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a, R13.10-b, R13.11-a: walls, obscuring areas and tall bases that together cut
    # the hull of the two footprints (linked inside it, clear of both) block every line: each
    # chain proof is the full search's answer (BLOCKED), and the answers and witnesses are
    # the same with or without the proof
    from w40k.geometry import los_chain

    rng = np.random.default_rng(200 + seed)
    cases = [_crowd_scene(rng) for _ in range(60)]
    with_proof = [line_of_sight(*c) for c in cases]
    proved = [los_chain.walls_separate(c[0], c[2], los.relevant(c[0], c[2], c[4]),
                                       los._wall_owners(*c)) for c in cases]
    monkeypatch.setattr(los_chain, "walls_separate", lambda *a: False)
    without = [line_of_sight(*c) for c in cases]
    assert with_proof == without
    assert all(r.sight is Sight.BLOCKED for r, p in zip(with_proof, proved, strict=True) if p)
    assert any(proved)


def test_two_walls_meeting_at_a_corner_prove_blocked_together() -> None:
    # R06.01-a: two high walls meeting at a corner between the bases, neither crossing the
    # hull alone: the chain of the two proves BLOCKED (the single-wall proof does not)
    from w40k.geometry import los_chain

    w1 = np.array([[10.0, 4.0], [10.2, 4.0], [10.2, 10.1], [10.0, 10.1]])
    w2 = np.array([[10.0, 9.9], [10.2, 9.9], [10.2, 16.0], [10.0, 16.0]])
    obs = Obstacles.build([(w1, HALF_LINE, 5.0), (w2, HALF_LINE, 5.0)])
    o, t = Circle(5.0, 10.0, 0.6), Circle(15.0, 10.0, 0.6)
    assert not los._single_wall_separates(o, 1.5, t, 1.5, obs)
    assert los_chain.walls_separate(o, t, obs, np.array([0, 1]))
    assert line_of_sight(o, 1.5, t, 1.5, obs).sight is Sight.BLOCKED
    # a 0.5" gap between them leaves a clear line through it
    w2[:, 1] += 0.5
    gap = Obstacles.build([(w1, HALF_LINE, 5.0), (w2, HALF_LINE, 5.0)])
    assert not los_chain.walls_separate(o, t, gap, np.array([0, 1]))
    assert line_of_sight(o, 1.5, t, 1.5, gap).sight is Sight.CLEAR
