"""The kept battlefield model's engagement pairs in floats (``engine/field.py``
``_engaged_rows``) answer as the vectorised matrix they replace
(``geometry.battlefield.any_engaged`` / ``engaged_with``) and as every pair measured alone
(03.04), on random groups of round bases, ovals and FRAME hulls, at several levels, with
pairs placed right at the engagement range's edge."""

from __future__ import annotations

import math
import random

import pytest

from w40k.engine import field
from w40k.geometry import Model, engaged
from w40k.geometry.battlefield import Layout, any_engaged, engaged_with
from w40k.geometry.shapes import mm

_HULL = ((-2.0, -1.2), (2.2, -1.0), (2.4, 1.1), (-1.9, 1.3))
"""A FRAME model's hull in its own frame (inches)."""


def _model(rng: random.Random, name: str, x: float, y: float) -> Model:
    kind = rng.random()
    z = rng.choice((0.0, 0.0, 0.0, 3.0, 5.0, 7.5))
    facing = rng.uniform(0.0, math.tau)
    if kind < 0.6:
        return Model(name, x, y, z, rng.choice((25.0, 32.0, 40.0, 50.0)), 1.6, facing)
    if kind < 0.85:
        return Model(name, x, y, z, rng.choice(((75.0, 42.0), (115.0, 70.0))), 2.0, facing)
    return Model(name, x, y, z, None, rng.uniform(2.0, 6.0), facing, frozenset({"FRAME"}),
                 hull=_HULL)


def _group(rng: random.Random, tag: str, cx: float, cy: float, n: int) -> list[Model]:
    return [_model(rng, f"{tag}{i}", cx + rng.uniform(-4.0, 4.0), cy + rng.uniform(-4.0, 4.0))
            for i in range(n)]


def _at_edge(rng: random.Random, a: Model, tag: str) -> Model:
    """A round-based model whose base is ~2" from ``a``'s round base (the range's edge, to
    1e-6" either way), so the pair is decided near the threshold."""
    r = mm(32.0) / 2 + mm(float(a.base_mm)) / 2 if isinstance(a.base_mm, float) else 2.0
    d = r + 2.0 + rng.choice((-1e-6, -1e-8, -1e-9, 0.0, 1e-9, 1e-8, 1e-6))
    t = rng.uniform(0.0, math.tau)
    return Model(tag, a.x + d * math.cos(t), a.y + d * math.sin(t), a.z, 32.0, 1.6, 0.0)


@pytest.mark.parametrize("seed", range(12))
def test_engaged_rows_answer_as_the_matrix_and_the_pairs_R03_04_a_R03_04_b(seed: int) -> None:
    rng = random.Random(seed)
    met = {True: 0, False: 0}
    for trial in range(40):
        a = _group(rng, "a", 20.0, 20.0, rng.randint(0, 7))
        b = _group(rng, "b", 20.0 + rng.uniform(-9.0, 9.0), 20.0 + rng.uniform(-9.0, 9.0),
                   rng.randint(0, 7))
        if a and trial % 3 == 0:
            b.append(_at_edge(rng, rng.choice(a), f"edge{trial}"))
        la, lb = Layout.of(a), Layout.of(b)
        plain = [any(engaged(x, y) for y in b) for x in a]
        rows = field.engaged_with(la, lb)
        assert rows == [bool(v) for v in engaged_with(la, lb)] == plain
        assert field.any_engaged(la, lb) == any_engaged(la, lb) == any(plain)
        # R03.04-b: the unit is engaged while one of its models is
        assert field.any_engaged(lb, la) == any_engaged(lb, la)
        met[any(plain)] += 1
    assert met[True] > 5 and met[False] > 5


def test_a_model_past_the_other_box_is_not_paired() -> None:
    # R03.04-a: 2.1" from the only enemy base -> not engaged; 1.9" -> engaged
    a = [Model("a", 10.0, 10.0, 0.0, 32.0, 1.6)]
    gap = 2 * mm(32.0) / 2
    for d, want in ((2.1, False), (1.9, True), (2.0, True)):
        lb = Layout.of([Model("b", 10.0 + gap + d, 10.0, 0.0, 32.0, 1.6)])
        assert field.engaged_with(Layout.of(a), lb) == [want]
        assert field.any_engaged(Layout.of(a), lb) is want
    # 1" apart but 5.5" above: not engaged
    lb = Layout.of([Model("b", 10.0 + gap + 1.0, 10.0, 5.5, 32.0, 1.6)])
    assert field.engaged_with(Layout.of(a), lb) == [False]
