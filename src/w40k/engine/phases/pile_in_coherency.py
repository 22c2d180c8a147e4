"""The unit's coherency breaks counted as the pile-in placement moves its models one at a
time (``pile_in_propose``, R03.03-d: a spot is refused where the unit ends with more breaks).

``coherency_breaks`` of the whole unit, asked for every spot tried, measures every pair of
models again; moving one model changes only its own pairs. :class:`Breaks` keeps each pair's
status as ``measure._coherency_breaks_scalar`` finds it (2: within 2"/5", 1: within 9"/5"
only, 0: farther) and, per model, how many of its pairs are 2 and 0: a model breaks R03.03-a
where none of its pairs is 2, R03.03-b where one is 0, so the number of breaks is counted
from those counts, the moved model's pairs measured again (the same float operations, in the
same index order, as the scalar count: the same statuses, so the same number). Units the
scalar count does not measure (more than ``SCALAR_COHERENCY`` models) are counted by
``coherency_breaks`` itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from w40k.geometry import Model
from w40k.geometry.measure import (
    COHERENCY_ALL,
    COHERENCY_NEIGHBOUR,
    COHERENCY_VERTICAL,
    SCALAR_COHERENCY,
    coherency_breaks,
    distance,
    vertical_extent,
)
from w40k.geometry.shapes import EPS, Circle, Shape

_NEAR_H = COHERENCY_NEIGHBOUR + EPS
_ALL_H = COHERENCY_ALL + EPS
_VERT = COHERENCY_VERTICAL + EPS

_Pos = tuple[Shape, tuple[float, float, float] | None, tuple[float, float]]
"""A model's footprint, its (x, y, r) where round (else None) and its vertical extent."""


def _pos(m: Model) -> _Pos:
    fp = m.footprint()
    return (fp, (fp.cx, fp.cy, fp.r) if isinstance(fp, Circle) else None, vertical_extent(m))


def _pair(a: _Pos, b: _Pos) -> tuple[int, int]:
    """The statuses (a's row at b, b's row at a) of models ``a`` before ``b`` in the unit's
    order, as ``_coherency_breaks_scalar`` measures them (its ``i < j`` pair)."""
    z0i, z1i = a[2]
    z0j, z1j = b[2]
    v_ok = z0j - z1i <= _VERT and z0i - z1j <= _VERT
    ri, rj = a[1], b[1]
    if ri is not None and rj is not None:
        dx, dy = ri[0] - rj[0], ri[1] - rj[1]
        h = math.sqrt(dx * dx + dy * dy) - ri[2] - rj[2]
        s = 0 if not v_ok or h > _ALL_H else (2 if h <= _NEAR_H else 1)
        return s, s
    h = distance(a[0], b[0])
    s_ab = 0 if not v_ok or h > _ALL_H else (2 if h <= _NEAR_H else 1)
    h = distance(b[0], a[0])
    s_ba = 0 if not v_ok or h > _ALL_H else (2 if h <= _NEAR_H else 1)
    return s_ab, s_ba


class Breaks:
    """``len(coherency_breaks(models))`` kept as the models move one at a time."""

    def __init__(self, models: Sequence[Model]) -> None:
        self.models = list(models)
        n = len(self.models)
        self._plain = n <= 1 or n > SCALAR_COHERENCY
        self.count = len(coherency_breaks(self.models)) if self._plain else 0
        """The number of breaks, the models where they are."""
        self._trial: tuple[int, Model, list[tuple[int, int]], int] | None = None
        """The last :meth:`moved` asked: the model, its spot, its new row and the count."""
        if self._plain:
            return
        self._pos = [_pos(m) for m in self.models]
        st = [[1] * n for _ in range(n)]  # a model with itself: neither 2 nor 0
        for i in range(n):
            for j in range(i + 1, n):
                st[i][j], st[j][i] = _pair(self._pos[i], self._pos[j])
        self._st = st
        self._n2 = [r.count(2) for r in st]
        self._n0 = [r.count(0) for r in st]
        self.count = sum((a == 0) + (b > 0) for a, b in zip(self._n2, self._n0, strict=True))

    def _row(self, k: int, p: _Pos) -> list[tuple[int, int]]:
        """Per model j: (k's row at j, j's row at k) with model ``k`` at ``p``."""
        return [(1, 1) if j == k else (_pair(p, q) if k < j else _pair(q, p)[::-1])
                for j, q in enumerate(self._pos)]

    def moved(self, k: int, end: Model) -> int:
        """``len(coherency_breaks(...))`` with model ``k`` (the unit's order) at ``end``."""
        if self._plain:
            out = len(coherency_breaks([end if j == k else m
                                        for j, m in enumerate(self.models)]))
            self._trial = (k, end, [], out)
            return out
        row = self._row(k, _pos(end))
        st, n2, n0 = self._st, self._n2, self._n0
        out = k2 = k0 = 0
        for j, (s_kj, s_jk) in enumerate(row):
            if j == k:
                continue
            k2 += s_kj == 2
            k0 += s_kj == 0
            old = st[j][k]
            a = n2[j] - (old == 2) + (s_jk == 2)
            b = n0[j] - (old == 0) + (s_jk == 0)
            out += (a == 0) + (b > 0)
        out += (k2 == 0) + (k0 > 0)
        self._trial = (k, end, row, out)
        return out

    def move(self, k: int, end: Model) -> None:
        """Model ``k`` is now at ``end`` (:attr:`count` becomes :meth:`moved`'s)."""
        if self._trial is None or self._trial[0] != k or self._trial[1] is not end:
            self.moved(k, end)
        assert self._trial is not None
        _, _, row, self.count = self._trial
        self._trial = None
        self.models[k] = end
        if self._plain:
            return
        self._pos[k] = _pos(end)
        st, n2, n0 = self._st, self._n2, self._n0
        for j, (s_kj, s_jk) in enumerate(row):
            if j != k:
                old = st[j][k]
                n2[j] += (s_jk == 2) - (old == 2)
                n0[j] += (s_jk == 0) - (old == 0)
                st[j][k], st[k][j] = s_jk, s_kj
        n2[k] = st[k].count(2)
        n0[k] = st[k].count(0)
