"""The centre line of every line-of-sight search is evaluated in float arithmetic
(``los._line_clear``): the same answer and the same witness floats as ``evaluate_lines`` on
that one line, and the hull sides, boxes and circumradii kept per footprint are those
computed afresh (docs/geometry.md "Speed paths"; R06.01-a answers unchanged)."""

from __future__ import annotations

import numpy as np

from tests.geometry.random_obstacles import random_obstacles
from w40k.geometry import los
from w40k.geometry.los import Obstacles, _line_clear, _pts, evaluate_lines
from w40k.geometry.shapes import Circle, Oval, Polygon, Shape


def _footprint(rng: np.random.Generator, cx: float, cy: float, kind: int) -> Shape:
    if kind == 0:
        return Circle(cx, cy, float(rng.uniform(0.4, 1.6)))
    if kind == 1:
        return Oval(cx, cy, float(rng.uniform(1.0, 2.5)), float(rng.uniform(0.5, 1.0)),
                    float(rng.uniform(0, np.pi)))
    w, h = float(rng.uniform(1, 3)), float(rng.uniform(1, 2))
    return Polygon(((cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)))


def test_centre_line_in_floats_is_evaluate_lines_bit_for_bit() -> None:
    """Random footprints (circles, ovals, polygons), tops and obstacles, some lines grazing a
    base (the line passes at exactly its grow): ``_line_clear`` answers as ``evaluate_lines``
    on the centre line, with the same witness floats."""
    rng = np.random.default_rng(11)
    seen = {True: 0, False: 0}
    for trial in range(600):
        o = _footprint(rng, 0.0, float(rng.uniform(-3, 3)), trial % 3)
        t = _footprint(rng, 20.0, float(rng.uniform(-3, 23)), (trial // 3) % 3)
        top_o, top_t = (float(v) for v in rng.choice([1.0, 1.5, 2.0, 3.0], size=2))
        obs = random_obstacles(rng, int(rng.integers(1, 12)))
        oc, tc = np.asarray(o.center), np.asarray(t.center)
        d = (tc - oc) / float(np.hypot(*(tc - oc)))
        if trial % 4 == 0:  # a base whose grown disc grazes the centre line
            mid = oc + (tc - oc) * 0.5
            nrm = np.array([-d[1], d[0]])
            obs = Obstacles.build([(np.array([mid + nrm * 0.8]), 0.8, 5.0)])
        clear, pn, qn = evaluate_lines(o, top_o, t, top_t, obs, oc[None, :], d[None, :])
        want = _pts(pn[0], qn[0]) if clear[0] else None
        got = _line_clear(o, top_o, t, top_t, obs, float(oc[0]), float(oc[1]), float(d[0]),
                          float(d[1]))
        assert got == want
        seen[got is not None] += 1
    assert seen[True] > 50 and seen[False] > 50


def test_kept_hull_sides_boxes_and_radii_are_computed_afresh() -> None:
    """The kept (lru_cache) answers equal the computation on the same shapes, and the kept
    arrays cannot be written."""
    rng = np.random.default_rng(5)
    for trial in range(60):
        o = los._hull_stand_in(_footprint(rng, 0.0, 0.0, trial % 3))
        t = los._hull_stand_in(_footprint(rng, 15.0, float(rng.uniform(-5, 5)), trial % 2))
        kept, fresh = los._outer_sides(o, t), los._outer_sides_of(o, t)
        assert (kept is None) == (fresh is None)
        if kept is not None and fresh is not None:
            for (a, b), (c, e) in zip(kept, fresh, strict=True):
                assert np.array_equal(a, c) and np.array_equal(b, e)
                assert not a.flags.writeable
        lo, hi = los._box(o)
        lo2, hi2 = los._box_of(o)
        assert np.array_equal(lo, lo2) and np.array_equal(hi, hi2)
        assert los._circumradius(o) == los._circumradius.__wrapped__(o)
