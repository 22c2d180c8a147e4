"""The proof of BLOCKED over the set of lines (``los_sweep.shadows_cover``, 06.01, 13.10,
13.11): walls that block together without linking across the hull ("shadow" blocking) prove
BLOCKED before the vertex-vertex lines, and the search's answers and witnesses are the same
with or without the proof."""

from __future__ import annotations

import math

import numpy as np
import pytest

from w40k.geometry import los, los_chain, los_sweep
from w40k.geometry.los import Obstacles, Sight, SightResult, line_of_sight
from w40k.geometry.shapes import HALF_LINE, Circle, Oval, Polygon, Shape

from .random_obstacles import random_obstacles

Scene = tuple[Shape, float, Shape, float, Obstacles]


def _footprint(rng: np.random.Generator, x: float, y: float) -> Shape:
    kind = int(rng.integers(0, 4))
    if kind in (0, 3):
        return Circle(x, y, float(rng.uniform(0.5, 1.6)))
    if kind == 1:
        return Oval(x, y, float(rng.uniform(1.0, 4.5)), float(rng.uniform(0.6, 2.0)),
                    float(rng.uniform(0.0, math.pi)))
    w, h = float(rng.uniform(1.0, 2.5)), float(rng.uniform(0.8, 2.0))
    return Polygon(((x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)))


def _shadow_scene(rng: np.random.Generator) -> Scene:
    """Two footprints 10-20" apart and, near the view between them, short walls of random
    heights and rows of bases whose gaps are near the 1 mm line's width: blockers that
    often shut the view only together, and often leave one line through a narrow gap."""
    o = _footprint(rng, 5.0, 10.0)
    tx, ty = float(rng.uniform(15.0, 25.0)), float(rng.uniform(4.0, 16.0))
    t = _footprint(rng, tx, ty)
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(int(rng.integers(1, 7))):  # short walls across or along the view
        f = float(rng.uniform(0.15, 0.85))
        cx = 5.0 + (tx - 5.0) * f + float(rng.uniform(-3.0, 3.0))
        cy = 10.0 + (ty - 10.0) * f + float(rng.uniform(-3.0, 3.0))
        ang = float(rng.uniform(0.0, math.pi))
        half = float(rng.uniform(0.3, 3.0))
        d = np.array([math.cos(ang), math.sin(ang)]) * half
        n = np.array([-d[1], d[0]]) / half * 0.1
        c = np.array([cx, cy])
        top = float(rng.choice([1.0, 1.45, 2.5, 5.0, np.inf]))
        wall = np.array([c - d - n, c + d - n, c + d + n, c - d + n])
        items.append((wall, 1e-6 if np.isinf(top) else HALF_LINE, top))
    for _ in range(int(rng.integers(0, 3))):  # a row of bases with critical gaps
        r = float(rng.uniform(0.5, 1.0))
        f = float(rng.uniform(0.2, 0.8))
        cx = 5.0 + (tx - 5.0) * f + float(rng.uniform(-1.0, 1.0))
        cy = 10.0 + (ty - 10.0) * f + float(rng.uniform(-4.0, 0.0))
        top = float(rng.choice([1.6, 4.0]))
        for _ in range(int(rng.integers(2, 6))):
            items.append((np.array([[cx, cy]]), r + HALF_LINE, top))
            gap = float(rng.choice([0.0, 1e-7, 1e-5, 1e-3, 0.02, 0.04, 0.0394]))
            cy += 2 * r + gap
    return o, float(rng.choice([1.5, 3.0])), t, float(rng.choice([0.0, 1.3, 1.5, 3.0])), \
        Obstacles.build(items)


def _proved(c: Scene) -> bool:
    o, top_o, t, top_t, obs = c
    rel = los.relevant(o, t, obs)
    lowest = min(top_o, top_t)
    keep = ~((rel.top <= lowest + 1e-12) & np.isfinite(rel.top))
    vkeep = ~((rel.vert_top <= lowest + 1e-12) & np.isfinite(rel.vert_top))
    rel = rel.subset(keep, vkeep)
    return los_sweep.shadows_cover(o, t, rel, los._wall_owners(o, top_o, t, top_t, rel))


def _check(cases: list[Scene], monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    with_proof = [line_of_sight(*c) for c in cases]
    proved = [_proved(c) for c in cases]
    monkeypatch.setattr(los, "shadows_cover", lambda *a: False)
    without = [line_of_sight(*c) for c in cases]
    assert [repr(r) for r in with_proof] == [repr(r) for r in without]
    # every proof, asked directly (not only where the search asks it), is the full search's
    # answer: a proof that claimed BLOCKED where a clear line exists fails here
    wrong = [k for k, (r, p) in enumerate(zip(without, proved, strict=True))
             if p and r.sight is not Sight.BLOCKED]
    assert not wrong
    return proved


@pytest.mark.parametrize("seed", range(4))
def test_shadow_proofs_answer_as_the_full_search(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a, R13.10-b, R13.11-a: walls, obscuring areas and tall bases that together
    # shade every line between the footprints (round, oval and hull footprints, gaps near
    # the 1 mm line's width): each proof is the full search's answer (BLOCKED), and the
    # answers and witnesses are the same with or without the proof
    rng = np.random.default_rng(900 + seed)
    proved = _check([_shadow_scene(rng) for _ in range(150)], monkeypatch)
    assert sum(proved) >= 10


def test_shadow_proofs_on_random_obstacles(monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a: the same on the shared random obstacles (bases, walls, areas of every height)
    rng = np.random.default_rng(77)
    cases: list[Scene] = []
    for _ in range(200):
        o = _footprint(rng, float(rng.uniform(0, 20)), float(rng.uniform(0, 20)))
        t = _footprint(rng, float(rng.uniform(0, 20)), float(rng.uniform(0, 20)))
        obs = random_obstacles(rng, int(rng.integers(1, 40)))
        cases.append((o, float(rng.choice([0.0, 1.5, 3.0])), t,
                      float(rng.choice([0.0, 1.5, 3.0])), obs))
    proved = _check(cases, monkeypatch)
    assert any(proved)


def _two_shadows(low: float) -> Scene:
    # one wall near the observer hides the upper part of the view (down to ``low``), one
    # near the target the lower part (up to 10.7); they never link (6" apart along the view)
    w1 = np.array([[7.0, low], [7.1, low], [7.1, 13.0], [7.0, 13.0]])
    w2 = np.array([[13.0, 7.0], [13.1, 7.0], [13.1, 10.7], [13.0, 10.7]])
    obs = Obstacles.build([(w1, HALF_LINE, 5.0), (w2, HALF_LINE, 5.0)])
    return Circle(5.0, 10.0, 0.8), 1.5, Oval(15.0, 10.0, 2.0, 0.9, 1.2), 1.5, obs


def test_two_walls_that_never_link_shade_every_line() -> None:
    # R06.01-a: neither the single-wall nor the chain proof applies (the walls do not join
    # across the hull), the shadows do: BLOCKED without the vertex-vertex lines
    o, top_o, t, top_t, obs = _two_shadows(9.3)
    assert not los._single_wall_separates(o, top_o, t, top_t, obs)
    assert not los_chain.walls_separate(o, t, obs, np.array([0, 1]))
    assert los_sweep.shadows_cover(o, t, obs, np.array([0, 1]))
    assert line_of_sight(o, top_o, t, top_t, obs) == SightResult(Sight.BLOCKED)


def test_a_gap_between_the_shadows_is_not_proved_blocked() -> None:
    # R06.01-a: raising the near wall's end opens a clear line below it and above the far
    # wall: the proof fails and the search finds the witness
    o, top_o, t, top_t, obs = _two_shadows(10.5)
    assert not los_sweep.shadows_cover(o, t, obs, np.array([0, 1]))
    assert line_of_sight(o, top_o, t, top_t, obs).sight is Sight.CLEAR


def test_a_wall_behind_the_observer_casts_no_shadow() -> None:
    # R06.01-a: only walls between the footprints along every line count: a wall behind the
    # observer (which the infinite lines cross) proves nothing
    wall = np.array([[2.0, 5.0], [2.1, 5.0], [2.1, 15.0], [2.0, 15.0]])
    obs = Obstacles.build([(wall, HALF_LINE, 5.0)])
    o, t = Circle(5.0, 10.0, 0.8), Circle(15.0, 10.0, 0.8)
    assert not los_sweep.shadows_cover(o, t, obs, np.array([0]))
    assert line_of_sight(o, 1.5, t, 1.5, obs).sight is Sight.CLEAR


def _oval_scene(rng: np.random.Generator) -> Scene:
    """A shadow scene whose observer or target (or both) is an oval."""
    while True:
        c = _shadow_scene(rng)
        if isinstance(c[0], Oval) or isinstance(c[2], Oval):
            return c


def test_proofs_before_an_ovals_tangents_answer_as_the_full_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a, R13.10-b: with an oval footprint the shadow and chain proofs are tried after
    # stage 1's disc lines and before the oval's numeric tangents (branch sight10); a proof
    # holds only where no candidate line is clear, so the answers and witnesses are those of
    # the full search with neither proof
    rng = np.random.default_rng(4242)
    cases = [_oval_scene(rng) for _ in range(160)]
    with_proofs = [line_of_sight(*c) for c in cases]
    proved = [_proved(c) for c in cases]
    monkeypatch.setattr(los, "shadows_cover", lambda *a: False)
    monkeypatch.setattr(los_chain, "walls_separate", lambda *a: False)
    without = [line_of_sight(*c) for c in cases]
    assert [repr(r) for r in with_proofs] == [repr(r) for r in without]
    assert sum(proved) >= 10
    assert any(r.sight is Sight.CLEAR for r in without)


def test_a_proved_oval_search_skips_the_ovals_tangents(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R06.01-a: an oval behind two walls that shade every line (no clear line in stage 1's
    # disc lines) is proved BLOCKED without the oval's numeric tangents
    rng = np.random.default_rng(4243)
    cases = [c for c in (_oval_scene(rng) for _ in range(120)) if _proved(c)]
    assert cases
    expected = [line_of_sight(*c) for c in cases]

    def no_tangents(*a: object) -> tuple[np.ndarray, np.ndarray]:
        raise AssertionError("an oval's tangents computed for a proved search")

    monkeypatch.setattr(los, "oval_circle_tangents", no_tangents)
    monkeypatch.setattr(los, "numeric_tangents", no_tangents)
    assert all(r.sight is Sight.BLOCKED for r in expected)
    assert [repr(line_of_sight(*c)) for c in cases] == [repr(r) for r in expected]
