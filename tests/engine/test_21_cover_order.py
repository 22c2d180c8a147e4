"""The walls' shadows asked after the cuts where no point of the base sample is proven in
floats (issue 10, cover21; :func:`shadow_point.some_shadowed`,
:func:`full_visibility.hidden_facing_point`): the same answer and hidden point as asking the
array pass (:func:`cover_shadows.shadowed_points`) before the cuts, on the seeded scenes of
tests/geometry/test_cover_full_visibility.py and tests/engine/test_20_shadow_point.py (round
and oval footprints, walls, partial obstacles, third-party bases, both conventions);
``some_shadowed`` says True only where the array pass marks a point; and the scenes hold
every order the code can take (fully visible with the pass spared, a hidden point found by
the batched test and then the pass's, a hidden point the pass does not mark)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.engine.test_20_shadow_point import _shapes
from tests.geometry.test_cover_full_visibility import _scene as _fv_scene
from tests.geometry.test_cover_shadows import _scene as _shadow_scene
from w40k.geometry import full_visibility, shadow_point
from w40k.geometry.cover_shadows import shadowed_points
from w40k.geometry.full_visibility import _facing_sample, _shadow_disc, hidden_facing_point
from w40k.geometry.los import Obstacles
from w40k.geometry.shadow_point import some_shadowed
from w40k.geometry.shapes import Shape

Case = tuple[Shape, float, Shape, float, Obstacles, bool]


def _cases() -> list[Case]:
    cases: list[Case] = []
    for seed in range(60):
        o, top_o, t, level, obs = _fv_scene(seed)
        cases += [(o, top_o, t, level, obs, cv) for cv in (False, True)]
    for seed in range(60):
        o, t = _shapes(seed)
        for partial in (False, True):
            _, top_o, _, level, obs = _shadow_scene(seed, partial)
            cases += [(o, top_o, t, level, obs, cv) for cv in (False, True)]
    return cases


_CASES = _cases()


def _same(a: tuple[bool, np.ndarray | None], b: tuple[bool, np.ndarray | None]) -> bool:
    if a[0] != b[0] or (a[1] is None) != (b[1] is None):
        return False
    return a[1] is None or b[1] is None or a[1].tolist() == b[1].tolist()


def test_the_same_answer_and_point_as_the_shadows_before_the_cuts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # R06.01-a, R13.08-a: the order of the proofs changes neither the answer (fully visible
    # or not) nor the hidden point returned
    fast = [hidden_facing_point(*c) for c in _CASES]
    monkeypatch.setattr(full_visibility, "some_shadowed", lambda *a: True)
    plain = [hidden_facing_point(*c) for c in _CASES]
    bad = [i for i, (f, p) in enumerate(zip(fast, plain, strict=True)) if not _same(f, p)]
    assert not bad, bad[:10]


def test_some_shadowed_only_says_what_the_array_pass_says() -> None:
    # R06.01-a: a point proven in floats is one the array marks (so the pass marks one)
    said = 0
    for o, top_o, t, level, obs, cv in _CASES:
        disc = _shadow_disc(o)
        sample = _facing_sample(o, t)
        if disc is None or sample is None:
            continue
        pts, _, base = sample
        rows = np.array(sorted(base), dtype=np.int64)
        if some_shadowed(disc, top_o, pts, rows, level, obs, not cv):
            said += 1
            assert shadowed_points(disc, top_o, pts[rows], level, obs, not cv).any()
    assert said >= 5


def test_the_scenes_take_every_order(monkeypatch: pytest.MonkeyPatch) -> None:
    # not vacuous: counts of the calls by the way they ended
    seen: dict[str, int] = {}
    real_some, real_first = shadow_point.some_shadowed, full_visibility.first_hidden
    log: list[str] = []

    def some(*a: Any) -> bool:
        out: bool = real_some(*a)
        log.append("early" if out else "late")
        return out

    def first(*a: Any, **k: Any) -> int | None:
        out: int | None = real_first(*a, **k)
        log.append("visible" if out is None else "hidden")
        return out

    monkeypatch.setattr(full_visibility, "some_shadowed", some)
    monkeypatch.setattr(full_visibility, "first_hidden", first)
    for c in _CASES:
        log.clear()
        fully, _ = hidden_facing_point(*c)
        key = "+".join(log) + ("=visible" if fully else "=hidden")
        seen[key] = seen.get(key, 0) + 1
    # the pass spared where the model is fully visible; asked after a hidden point is found
    assert seen.get("late+visible=visible", 0) >= 5, seen
    assert seen.get("late+hidden=hidden", 0) >= 3, seen
    assert seen.get("early=hidden", 0) >= 3, seen
