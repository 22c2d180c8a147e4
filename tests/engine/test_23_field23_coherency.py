"""The twenty-second session's field23 pass: a unit's coherency on round bases in floats
(``engine/field.py`` ``_coherent_round``, read by ``in_coherency``) answers as the two
vectorised matrices it replaces (``geometry.battlefield.coherent``: 03.03, within 2"/5" of
another model and 9"/5" of every model; the engine's answer, bit for bit), on
random round-based groups at several levels with pairs placed 1e-9" to 1e-6" around the 2"
and 9" limits and levels around the 5" limit."""

from __future__ import annotations

import math
import random

import pytest

from w40k.engine import field
from w40k.geometry import Model
from w40k.geometry.battlefield import Layout, coherent
from w40k.geometry.shapes import mm

_TINY = (-1e-6, -1e-8, -1e-9, 0.0, 1e-9, 1e-8, 1e-6)
_BASES = (25.0, 28.5, 32.0, 40.0, 50.0)
_HEIGHT = 1.6


def _next(rng: random.Random, group: list[Model], i: int) -> Model:
    """A round-based model placed from a model of ``group``: at 2" or 9" of its base to a
    hair either way, on its level or ~5" above or below its top, or anywhere near."""
    base = rng.choice(_BASES)
    a = rng.choice(group)
    assert isinstance(a.base_mm, float)
    r = mm(a.base_mm) / 2 + mm(base) / 2
    kind = rng.random()
    if kind < 0.6:
        d = r + 2.0 + rng.choice(_TINY)
    elif kind < 0.7:
        d = r + 9.0 + rng.choice(_TINY)
    else:
        d = r + rng.uniform(0.0, 2.5)
    t = rng.uniform(0.0, math.tau)
    z = a.z
    if rng.random() < 0.1:  # a level ~5" above a's top, or below its bottom
        z = a.z + _HEIGHT + 5.0 + rng.choice(_TINY) if rng.random() < 0.5 \
            else a.z - _HEIGHT - 5.0 - rng.choice(_TINY)
    return Model(f"m{i}", a.x + d * math.cos(t), a.y + d * math.sin(t), z, base, _HEIGHT,
                 rng.uniform(0.0, math.tau))


@pytest.mark.parametrize("seed", range(8))
def test_coherency_in_floats_answers_as_the_matrices_R03_03_a(seed: int) -> None:
    rng = random.Random(2300 + seed)
    met = {True: 0, False: 0}
    for _ in range(150):
        group = [Model("m0", rng.uniform(10.0, 30.0), rng.uniform(10.0, 30.0),
                       rng.choice((0.0, 3.0)), rng.choice(_BASES), _HEIGHT, 0.0)]
        for i in range(1, rng.randint(2, 9)):
            group.append(_next(rng, group, i))
        lay = Layout.of(group)
        want = coherent(lay)
        assert field._coherent_round(field.rows(lay)) is want
        met[want] += 1
    assert min(met.values()) > 20


def test_coherency_in_floats_is_read_for_round_units_only() -> None:
    """``in_coherency`` reads the floats only for two or more models, all on round bases
    (one model is coherent; an oval or a hull goes to the matrices)."""
    one = Layout.of([Model("a", 10.0, 10.0, 0.0, 32.0, _HEIGHT, 0.0)])
    assert coherent(one)
    oval = Layout.of([Model("a", 10.0, 10.0, 0.0, (75.0, 42.0), 2.0, 0.0),
                      Model("b", 13.0, 10.0, 0.0, 32.0, _HEIGHT, 0.0)])
    assert not all(field.rows(oval)[5])


def _exactly(limit: float, start: float, gap: object) -> float:
    """A coordinate within 300 ulps of ``start`` at which ``gap(coordinate)`` (the pair's
    distance as the layouts' floats give it) is ``limit`` exactly."""
    assert callable(gap)
    up, down = start, start
    for _ in range(300):
        for x in (up, down):
            if gap(x) == limit:
                return x
        up, down = math.nextafter(up, math.inf), math.nextafter(down, -math.inf)
    raise AssertionError("no coordinate at the limit")


def _rows_gap(models: list[Model], i: int, j: int) -> float:
    xs, ys, rs, _, _, _ = field.rows(Layout.of(models))
    dx, dy = xs[i] - xs[j], ys[i] - ys[j]
    return math.sqrt(dx * dx + dy * dy) - rs[i] - rs[j]


def _rows_vertical(models: list[Model], i: int, j: int) -> float:
    _, _, _, z0s, z1s, _ = field.rows(Layout.of(models))
    return max(0.0, max(z0s[j] - z1s[i], z0s[i] - z1s[j]))


@pytest.mark.parametrize("limit", ["near", "all", "vertical"])
def test_coherency_at_the_exact_limits_R03_03_a(limit: str) -> None:
    """A pair exactly at 2" + 1e-9 (the matrix's limit), two models exactly 9" + 1e-9 apart
    at the ends of a chain, a model exactly 5" + 1e-9 above another: coherent (the limits
    are "at most"); one ulp farther: not coherent, in floats as in the matrices."""
    def m(name: str, x: float, z: float = 0.0) -> Model:
        return Model(name, x, 0.5, z, 32.0, _HEIGHT, 0.0)

    if limit == "near":
        def group(x: float) -> list[Model]:
            return [m("a", 0.25), m("b", x)]
        at = _exactly(2.0 + 1e-9, 0.25 + 2.0 + 1e-9 + mm(32.0),
                      lambda x: _rows_gap(group(x), 0, 1))
    elif limit == "all":
        def group(x: float) -> list[Model]:
            return [m("a", 0.25), m("b", 2.75), m("c", 5.25), m("d", 7.75), m("e", x)]
        at = _exactly(9.0 + 1e-9, 0.25 + 9.0 + 1e-9 + mm(32.0),
                      lambda x: _rows_gap(group(x), 0, 4))
    else:
        def group(x: float) -> list[Model]:
            return [m("a", 0.25), m("b", 0.25, x)]
        at = _exactly(5.0 + 1e-9, 5.0 + 1e-9, lambda z: _rows_vertical(group(z), 0, 1))
    for x, want in ((at, True), (math.nextafter(at, math.inf), False)):
        lay = Layout.of(group(x))
        assert coherent(lay) is want
        assert field._coherent_round(field.rows(lay)) is want
