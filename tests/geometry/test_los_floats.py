"""The per-pair line-of-sight search's float paths (the sight6 pass, docs/geometry.md "Speed
paths"): one segment pair in float arithmetic, the candidate-line pair indices built per
stage, the disc tangents and the oval bisections with fewer numpy calls give the same floats
as the numpy code they replace, written out here as the reference; and the whole search
(R06.01-a) with the references put back answers as without them, witness for witness, on
random-obstacle scenes."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from tests.geometry.random_obstacles import random_obstacles
from w40k.geometry import los, los_dist, tangents
from w40k.geometry.los_dist import _seg_dist1, _seg_dist_xy
from w40k.geometry.shapes import Circle, FloatArray, Oval, Polygon, Shape


def _same(x: FloatArray, y: FloatArray) -> bool:
    return x.shape == y.shape and bool(np.array_equal(x, y))


def test_one_segment_pair_in_floats_is_the_numpy_distance_bit_for_bit() -> None:
    """Random segments, degenerate ones (points), and integer ones (touching, collinear and
    crossing at end points): ``_seg_dist1`` is ``_seg_dist_xy`` on one-element arrays."""
    rng = np.random.default_rng(1)
    for trial in range(20000):
        v = rng.uniform(-5, 5, size=8)
        if trial % 4 == 1:
            v[2:4] = v[0:2]
        elif trial % 4 == 2:
            v[6:8] = v[4:6]
        elif trial % 4 == 3:
            v = np.round(v)
        want = float(_seg_dist_xy(*(np.array([x]) for x in v))[0])
        got = _seg_dist1(*(float(x) for x in v))
        assert got == want and math.copysign(1.0, got) == math.copysign(1.0, want)


def _segment_cases(rng: np.random.Generator, shapes: list[tuple[tuple[int, ...], ...]],
                   scale: float, unit: float) -> Iterator[tuple[tuple[int, ...], FloatArray,
                                                               FloatArray]]:
    """3000 random segment batches (the p shape, p and q: x0, y0, x1, y1 stacked, uniform in
    +-``scale``), the shapes taken in turn; every fifth from the second on p degenerate (a
    point), then q, then both divided by ``unit`` and rounded to integers (touching,
    collinear and crossing segments)."""
    for trial in range(3000):
        ps, qs = shapes[trial % len(shapes)]
        p = rng.uniform(-scale, scale, size=(4, *ps))
        q = rng.uniform(-scale, scale, size=(4, *qs))
        if trial % 5 == 1:
            p[2:4] = p[0:2]
        elif trial % 5 == 2:
            q[2:4] = q[0:2]
        elif trial % 5 == 3:
            p, q = np.round(p / unit), np.round(q / unit)
        yield ps, p, q


def test_small_segment_batches_in_floats_are_the_array_distances_bit_for_bit() -> None:
    """``_seg_dist_xy`` measures up to ``SMALL_PAIRS`` broadcast pairs one by one in floats
    (branch sight10): the same floats and shape as the array formula, for one segment
    against a few edges, a few segments against one, (2, 1) x (1, n) grids, degenerate
    (point) and integer (touching, collinear, crossing) segments."""
    rng = np.random.default_rng(2)
    shapes = [((1,), (5,)), ((5,), (1,)), ((3,), (3,)), ((2, 1), (1, 6)), ((1,), (12,)),
              ((1,), (1,)), ((), ()), ((2, 1), (1, 7)), ((1,), (0,))]
    for _, p, q in _segment_cases(rng, shapes, 5.0, 1.0):
        args = (*p, *q)
        want = los_dist._seg_dist_plain(*args)
        got = _seg_dist_xy(*args)
        assert got.shape == want.shape and got.dtype == want.dtype
        assert np.array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))
    # the small path is taken for these sizes (and only these)
    one = np.zeros(1)
    assert los_dist._seg_dist_small(one, one, one, one, *(np.zeros(los_dist.SMALL_PAIRS),) * 4
                                    ) is not None
    assert los_dist._seg_dist_small(one, one, one, one,
                                    *(np.zeros(los_dist.SMALL_PAIRS + 1),) * 4) is None


def test_stacked_segment_distances_are_the_plain_ones_bit_for_bit() -> None:
    """``_seg_dist_arrays`` stacks its four point-segment distances for float64 inputs up to
    ``STACKED_MAX`` broadcast elements (branch sight11): the same floats, shape and signs of
    zeros as the four one after the other (``_seg_dist_plain``), for one segment against
    many edges, (2, 1) x (1, n) grids, equal shapes, scalars, degenerate (point) and
    integer-valued (touching, collinear, crossing) segments; integer arrays, Python floats
    mixed with arrays and sizes above the bound take the plain path."""
    rng = np.random.default_rng(3)
    shapes = [((1,), (40,)), ((40,), (1,)), ((25,), (25,)), ((2, 1), (1, 30)), ((1,), (13,)),
              ((2, 1, 1), (1, 3, 20)), ((), ()), ((), (17,)), ((1,), (0,)), ((3, 1), (1, 64))]
    for ps, p, q in _segment_cases(rng, shapes, 30.0, 10.0):
        args = (*p, *q)
        want = los_dist._seg_dist_plain(*args)
        got = los_dist._seg_dist_arrays(*args)
        assert got.shape == want.shape and got.dtype == want.dtype
        assert np.array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))
        if ps == ():  # Python floats for the p segment (the stacked path takes them)
            floats = (*(float(x) for x in p), *q)
            assert np.array_equal(los_dist._seg_dist_arrays(*floats),
                                  los_dist._seg_dist_plain(*floats))
    ints = tuple(rng.integers(-5, 5, size=(4, 9)))
    assert np.array_equal(los_dist._seg_dist_arrays(*ints[:2], *ints[2:], *ints),
                          los_dist._seg_dist_plain(*ints[:2], *ints[2:], *ints))
    big = tuple(rng.uniform(-5, 5, size=(8, los_dist.STACKED_MAX + 1)))
    assert np.array_equal(los_dist._seg_dist_arrays(*big), los_dist._seg_dist_plain(*big))


def test_candidate_pairs_per_stage_are_the_selected_triu_pairs() -> None:
    """``los._pairs`` gives the pairs of ``np.triu_indices`` that each stage selected, in the
    same order and dtype."""
    for n in range(2, 30):
        for n_ot in range(0, min(n, 18) + 1):
            i, j = np.triu_indices(n, 1)
            for stage, sel in ((0, np.ones(len(i), bool)), (1, i < n_ot), (2, i >= n_ot)):
                a, b = los._pairs(n, n_ot, stage)
                assert _same(a, i[sel]) and _same(b, j[sel]) and a.dtype == i.dtype


def _disc_tangents_ref(c1: FloatArray, r1: FloatArray, c2: FloatArray,
                       r2: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``tangents.disc_tangents`` as it was (each row subset taken per sign)."""
    d = c2 - c1
    length = np.sqrt((d * d).sum(axis=1))
    good = length > 1e-12
    d, length, c1, r1, r2 = d[good], length[good], c1[good], r1[good], r2[good]
    dh = d / length[:, None]
    dp = np.stack([-dh[:, 1], dh[:, 0]], axis=1)
    ns: list[FloatArray] = []
    cs: list[FloatArray] = []
    for cosv in ((r1 - r2) / length, (r1 + r2) / length):
        ok = np.abs(cosv) <= 1.0
        cv = cosv[ok]
        sv = np.sqrt(np.maximum(1.0 - cv * cv, 0.0))
        for sign in (1.0, -1.0):
            n = dh[ok] * cv[:, None] + sign * dp[ok] * sv[:, None]
            ns.append(n)
            cs.append((n * c1[ok]).sum(axis=1) + r1[ok])
    return np.concatenate(ns), np.concatenate(cs)


def _oval_circle_batch_ref(ov: Oval, cx: FloatArray, cy: FloatArray,
                           r: FloatArray) -> tuple[FloatArray, FloatArray, np.ndarray]:
    """``tangents._oval_circle_batch`` as it was (both functions by ``np.where``, the value
    at the lower end kept)."""
    theta = np.linspace(0.0, 2 * math.pi, 181)
    cth, sth = np.cos(theta), np.sin(theta)
    ca, sa = math.cos(ov.angle), math.sin(ov.angle)
    a, b, ox, oy = ov.a, ov.b, ov.cx, ov.cy

    def h_oval(n0: FloatArray, n1: FloatArray) -> FloatArray:
        nu = n0 * ca + n1 * sa
        nv = -n0 * sa + n1 * ca
        return n0 * ox + n1 * oy + np.sqrt((a * nu) ** 2 + (b * nv) ** 2)

    parts: list[tuple[np.ndarray, ...]] = []
    for which in (0, 1):
        n0, n1 = cth[None, :], sth[None, :]
        x, y, rad = cx[:, None], cy[:, None], r[:, None]
        v = (h_oval(n0, n1) - (n0 * x + n1 * y + rad) if which == 0
             else h_oval(n0, n1) + ((-n0) * x + (-n1) * y + rad))
        sg = np.sign(v)
        kk, idx = np.nonzero(sg[:, :-1] != sg[:, 1:])
        if len(kk):
            parts.append((kk, idx, v[kk, idx], np.full(len(kk), which == 1)))
    if not parts:
        return np.zeros((0, 2)), np.zeros(0), np.zeros(0, dtype=np.int64)
    kk = np.concatenate([q[0] for q in parts])
    idx = np.concatenate([q[1] for q in parts])
    flo = np.concatenate([q[2] for q in parts])
    second = np.concatenate([q[3] for q in parts])
    lo, hi = theta[idx].copy(), theta[idx + 1].copy()
    x, y, rad = cx[kk], cy[kk], r[kk]
    for _ in range(45):
        mid = 0.5 * (lo + hi)
        n0, n1 = np.cos(mid), np.sin(mid)
        h = h_oval(n0, n1)
        fm = np.where(second, h + ((-n0) * x + (-n1) * y + rad), h - (n0 * x + n1 * y + rad))
        same = np.sign(fm) == np.sign(flo)
        lo = np.where(same, mid, lo)
        flo = np.where(same, fm, flo)
        hi = np.where(same, hi, mid)
    t = 0.5 * (lo + hi)
    n0, n1 = np.cos(t), np.sin(t)
    order = np.argsort((kk * 2 + second.astype(np.int64)) * 181 + idx, kind="stable")
    return np.stack([n0, n1], axis=1)[order], h_oval(n0, n1)[order], kk[order]


def _numeric_tangents_ref(h1: tangents.SupportFn,
                          h2: tangents.SupportFn) -> tuple[FloatArray, FloatArray]:
    """``tangents.numeric_tangents`` as it was (the value at the lower end kept, each unit
    normal made twice)."""
    theta = np.linspace(0.0, 2 * math.pi, 181)
    ns: list[FloatArray] = []
    cs: list[FloatArray] = []

    def unit(t: FloatArray) -> FloatArray:
        return np.stack([np.cos(t), np.sin(t)], axis=1)

    funcs: list[Callable[[FloatArray], FloatArray]] = [
        lambda t: h1(unit(t)) - h2(unit(t)),
        lambda t: h1(unit(t)) + h2(-unit(t)),
    ]
    for f in funcs:
        v = f(theta)
        idx = np.nonzero(np.sign(v[:-1]) != np.sign(v[1:]))[0]
        if len(idx) == 0:
            continue
        lo, hi = theta[idx].copy(), theta[idx + 1].copy()
        flo = v[idx].copy()
        for _ in range(45):
            mid = 0.5 * (lo + hi)
            fm = f(mid)
            same = np.sign(fm) == np.sign(flo)
            lo = np.where(same, mid, lo)
            flo = np.where(same, fm, flo)
            hi = np.where(same, hi, mid)
        n = unit(0.5 * (lo + hi))
        ns.append(n)
        cs.append(h1(n))
    if not ns:
        return np.zeros((0, 2)), np.zeros(0)
    return np.concatenate(ns), np.concatenate(cs)


def _oval(rng: np.random.Generator, x: float, y: float) -> Oval:
    return Oval(x, y, float(rng.uniform(1, 3)), float(rng.uniform(0.4, 1)),
                float(rng.uniform(0, 3.2)))


def test_tangents_are_the_reference_tangents_bit_for_bit() -> None:
    """Disc pairs (some coincident, radii 0 to 3), ovals against discs (some touching the
    oval, on integer points) and against ovals, circles and rectangles: the same normals and
    offsets, row for row."""
    rng = np.random.default_rng(7)
    for trial in range(400):
        k = int(rng.integers(0, 50))
        c1, c2 = rng.uniform(-10, 10, (k, 2)), rng.uniform(-10, 10, (k, 2))
        r1, r2 = rng.choice([0.0, 0.5, 1.0, 3.0], k), rng.choice([0.0, 0.5, 1.0, 3.0], k)
        if trial % 3 == 0:
            c2[: k // 2] = c1[: k // 2]
        got, want = tangents.disc_tangents(c1, r1, c2, r2), _disc_tangents_ref(c1, r1, c2, r2)
        assert all(_same(g, w) for g, w in zip(got, want, strict=True))
        ov = _oval(rng, float(rng.uniform(-3, 3)), float(rng.uniform(-3, 3)))
        k = int(rng.integers(1, 30))
        cx, cy = rng.uniform(-12, 12, k), rng.uniform(-12, 12, k)
        rr = rng.choice([0.0, 1e-6, 0.02, 0.5, 1.0, 2.0], k)
        if trial % 4 == 0:
            cx, cy = np.round(cx), np.round(cy)
        if trial % 7 == 0:  # discs touching the oval's top
            cx[:3], cy[:3] = ov.cx, ov.cy + ov.b + rr[:3]
        got3 = tangents._oval_circle_batch(ov, cx, cy, rr)
        want3 = _oval_circle_batch_ref(ov, cx, cy, rr)
        assert all(_same(g, w) for g, w in zip(got3, want3, strict=True))
        if trial % 4 == 0:
            x, y = float(rng.uniform(-15, 15)), float(rng.uniform(-15, 15))
            other: Shape = (_oval(rng, x, y), Circle(x, y, float(rng.uniform(0.3, 2))),
                            Polygon(((x, y), (x + 2, y), (x + 2, y + 1), (x, y + 1))))[
                                (trial // 4) % 3]
            got2 = tangents.numeric_tangents(ov.support, other.support)
            want2 = _numeric_tangents_ref(ov.support, other.support)
            assert all(_same(g, w) for g, w in zip(got2, want2, strict=True))


def _footprint(rng: np.random.Generator, cx: float, cy: float, kind: int) -> Shape:
    if kind == 0:
        return Circle(cx, cy, float(rng.uniform(0.4, 1.6)))
    if kind == 1:
        return _oval(rng, cx, cy)
    w, h = float(rng.uniform(1, 3)), float(rng.uniform(1, 2))
    return Polygon(((cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)))


def _line_clear_ref(o: Shape, top_o: float, t: Shape, top_t: float, obs: los.Obstacles,
                    ax: float, ay: float, dx: float, dy: float, rows: object = None,
                    ) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The centre line (or another line: ``_first_clear``'s) by ``evaluate_lines`` (what
    ``_line_clear`` stands for; ``rows``, the edges' floats, unused)."""
    clear, pn, qn = los.evaluate_lines(o, top_o, t, top_t, obs, np.array([[ax, ay]]),
                                       np.array([[dx, dy]]))
    return los._pts(pn[0], qn[0]) if clear[0] else None


def _triu_pairs_ref(n: int, n_ot: int, stage: int) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(n, 1)
    if stage == 1:
        sel = i < n_ot
        return i[sel], j[sel]
    if stage == 2:
        sel = i >= n_ot
        return i[sel], j[sel]
    return i, j


def test_search_with_the_reference_paths_answers_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R06.01-a: random footprints (round, oval, rectangle), tops and 5 to 30 random
    obstacles; every answer and witness of ``line_of_sight`` is the one it gives with the
    reference paths (the centre line by ``evaluate_lines``, the pairs selected from all,
    the tangents as they were) put back."""
    rng = np.random.default_rng(23)
    scenes = []
    for trial in range(300):
        o = _footprint(rng, float(rng.uniform(-2, 4)), float(rng.uniform(-2, 22)), trial % 3)
        t = _footprint(rng, float(rng.uniform(16, 22)), float(rng.uniform(-2, 22)),
                       (trial // 3) % 3)
        top_o, top_t = (float(v) for v in rng.choice([1.0, 1.5, 2.0, 3.0], size=2))
        scenes.append((o, top_o, t, top_t, random_obstacles(rng, int(rng.integers(5, 30)))))
    fast = [los.line_of_sight(*s) for s in scenes]
    tangents._OVAL_DISC.clear()
    monkeypatch.setattr(los, "_line_clear", _line_clear_ref)
    monkeypatch.setattr(los, "_pairs", _triu_pairs_ref)
    monkeypatch.setattr(los, "disc_tangents", _disc_tangents_ref)
    monkeypatch.setattr(tangents, "_oval_circle_batch", _oval_circle_batch_ref)
    monkeypatch.setattr(tangents, "numeric_tangents", _numeric_tangents_ref)
    monkeypatch.setattr(los, "numeric_tangents", _numeric_tangents_ref)
    ref = [los.line_of_sight(*s) for s in scenes]
    tangents._OVAL_DISC.clear()
    assert fast == ref
    kinds = {r.sight for r in fast}
    assert kinds >= {los.Sight.CLEAR, los.Sight.BLOCKED}
