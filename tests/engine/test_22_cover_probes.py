"""The walls' shadows proven in plain floats for a few points of the base sample, and no array
pass (issue 10, cover22): :func:`shadow_point.first_shadowed` names the first point that
:func:`shadow_point.point_shadowed` proves, point by point (its edges read once, filtered by
the box of every point); :func:`full_visibility.hidden_facing_point` gives the answer it gave
with the array pass of the whole sample before the cuts (the former order, written out here),
and a hidden point, on the seeded scenes of tests/geometry/test_cover_full_visibility.py and
tests/engine/test_20_shadow_point.py."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engine.test_20_shadow_point import _shapes
from tests.geometry.test_cover_full_visibility import _scene as _fv_scene
from tests.geometry.test_cover_shadows import _scene as _shadow_scene
from w40k.geometry import full_visibility as fv
from w40k.geometry.cover_near import blocker_sure, capsule_blockers
from w40k.geometry.cover_shadows import shadowed_points
from w40k.geometry.los import Obstacles, Sight, line_of_sight
from w40k.geometry.los_hull import hull_blockers, kept_blockers
from w40k.geometry.shadow_point import first_shadowed, point_shadowed
from w40k.geometry.shapes import Circle, FloatArray, Shape


def _plain_first(o: Circle, top_o: float, xy: list[list[float]], level: float,
                 obs: Obstacles, partial: bool) -> int | None:
    for i, (x, y) in enumerate(xy):
        if point_shadowed(o, top_o, x, y, level, obs, partial):
            return i
    return None


@pytest.mark.parametrize("seed", range(60))
def test_the_first_proven_point_is_point_shadoweds(seed: int) -> None:
    # R06.01-a, R13.08-a: per point the same proof (subsets of the scene's points in a
    # random order, far and near ones together, single points, none)
    rng = np.random.default_rng(2200 + seed)
    for partial in (False, True):
        o, top_o, pts, level, obs = _shadow_scene(seed, partial)
        for size in (0, 1, 2, 5, 9):
            for _ in range(4):
                rows = rng.permutation(len(pts))[:size]
                xy = pts[rows].tolist()
                want = _plain_first(o, top_o, xy, level, obs, partial)
                assert first_shadowed(o, top_o, xy, level, obs, partial) == want
                # and for each point alone
                for i, p in enumerate(xy):
                    alone = first_shadowed(o, top_o, [p], level, obs, partial)
                    assert (alone == 0) == point_shadowed(o, top_o, *p, level, obs, partial), i


def test_the_first_proven_point_is_not_vacuous() -> None:
    # some sets are proven at a later point than the first (the union box keeps their edges)
    later = 0
    for seed in range(40):
        o, top_o, pts, level, obs = _shadow_scene(seed, True)
        xy = pts.tolist()[::-1]
        k = first_shadowed(o, top_o, xy, level, obs, True)
        later += int(k is not None and k > 0)
    assert later >= 10


def test_the_probes_spread_over_the_sample() -> None:
    # the first, the middle, the last, the quarters: distinct and in range
    assert fv._probes(24).tolist() == [0, 12, 23, 6, 18]
    assert fv._probes(1).tolist() == [0]
    assert fv._probes(2).tolist() == [0, 1]
    for n in range(1, fv.BASE_SAMPLES + 1):
        p = fv._probes(n).tolist()
        assert p[0] == 0 and n - 1 in p and n // 2 in p
        assert len(set(p)) == len(p) and all(0 <= i < n for i in p)


def _former(o: Shape, top_o: float, t: Shape, level: float, obs: Obstacles,
            cv: bool) -> tuple[bool, FloatArray | None]:
    """hidden_facing_point as it was (e2de85a): point 0 in floats, then the array pass of the
    whole base sample, then the blockers, the cuts and first_hidden."""
    owners = None
    if blocker_sure(o, t, level, top_o, obs):
        sample = fv._facing_sample(o, t)
        if sample is None:
            return True, None
        pts, facing, base = sample
    else:
        staged = fv._facing_base(o, top_o, t, level, obs)
        if staged is None:
            return True, None
        owners, pts, facing, base = staged
    base_rows = np.array(sorted(base), dtype=np.int64)
    disc = fv._shadow_disc(o)
    if disc is not None:
        x0, y0 = pts[base_rows[0]].tolist()
        if point_shadowed(disc, top_o, x0, y0, level, obs, not cv):
            return False, pts[base_rows[0]].copy()
        hid = shadowed_points(disc, top_o, pts[base_rows], level, obs, not cv)
        if hid.any():
            return False, pts[base_rows[int(np.argmax(hid))]].copy()
    if owners is None:
        owners = kept_blockers(o, t, level, top_o, obs)
        if owners is None:
            owners = capsule_blockers(o, t, level, top_o, obs)
        if owners is None:
            owners = hull_blockers(o, t, level, top_o, obs)
    rows = fv._tested_rows(o, obs, owners, pts, facing, base)
    tested = pts[rows]
    k = fv.first_hidden(o, top_o, tested, level, obs, cv, None)
    return (True, None) if k is None else (False, tested[k].copy())


def _check(o: Shape, top_o: float, t: Shape, level: float, obs: Obstacles,
           counts: dict[str, int]) -> None:
    for cv in (False, True):
        want, _ = _former(o, top_o, t, level, obs, cv)
        fully, point = fv.hidden_facing_point(o, top_o, t, level, obs, cv)
        assert fully == want
        assert (point is None) == fully
        counts["visible" if fully else "hidden"] += 1
        if point is not None:
            # a hidden facing point (the exact search's answer for it)
            seen = {Sight.CLEAR} | ({Sight.CONVENTION} if cv else set())
            tp = Circle(float(point[0]), float(point[1]), 0.0)
            assert line_of_sight(o, top_o, tp, level, obs).sight not in seen


def test_hidden_facing_point_gives_the_former_orders_answer() -> None:
    # R06.01-c, R13.08-a: the same answers as with the array pass before the cuts, on scenes
    # that are fully visible, hidden at a probe, and hidden elsewhere (first_hidden)
    counts = {"visible": 0, "hidden": 0}
    for seed in range(60):
        _check(*_fv_scene(seed), counts)
    for seed in range(60):
        o, t = _shapes(seed)
        for partial in (False, True):
            _, top_o, _, level, obs = _shadow_scene(seed, partial)
            _check(o, top_o, t, level, obs, counts)
    assert counts["visible"] >= 40 and counts["hidden"] >= 40, counts


def test_a_hidden_arc_between_the_probes_is_found_by_the_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # with no probe proven (the floats patched out) the answers are still the former ones:
    # first_hidden finds what the array pass would have marked
    monkeypatch.setattr(fv, "first_shadowed", lambda *a: None)
    counts = {"visible": 0, "hidden": 0}
    for seed in range(40):
        o, t = _shapes(seed)
        _, top_o, _, level, obs = _shadow_scene(seed, True)
        _check(o, top_o, t, level, obs, counts)
    assert counts["hidden"] >= 20, counts
