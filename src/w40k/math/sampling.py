"""Random draws for the Monte Carlo engines: dice rolls and counts (numpy, seeded Generator).

:func:`table_sample` draws from a table of pmfs by inverse CDF with a guide table: a few
vectorised steps per draw and no per-element sampler set-up, which is what makes counts with a
different ``n`` per trial cheap (:func:`binom_table`).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from w40k.core.dice import DiceExpr

FloatArray = npt.NDArray[np.float64]
"""A float64 array."""
IntArray = npt.NDArray[np.int64]
"""An int64 array."""


def roll(rng: np.random.Generator, expr: DiceExpr, n: int, times: int = 1) -> IntArray:
    """``times`` rolls of ``expr`` summed, for ``n`` trials (a D3 is a D6 halved, 01.05)."""
    if not expr.is_random:
        return np.full(n, expr.bonus * times, dtype=np.int64)
    faces = rng.integers(1, 7, size=(n, expr.count * times))
    if expr.sides == 3:
        faces = (faces + 1) // 2
    out: IntArray = faces.sum(axis=1).astype(np.int64) + expr.bonus * times
    return out


def binom(rng: np.random.Generator, n: IntArray, p: float | FloatArray) -> IntArray:
    out: IntArray = rng.binomial(n, np.clip(p, 0.0, 1.0)).astype(np.int64)
    return out


def _log_comb(n: int) -> FloatArray:
    """log C(n, k) for k = 0..n."""
    k = np.arange(n + 1)
    out: FloatArray = np.array([math.lgamma(n + 1) for _ in k]) - np.array(
        [math.lgamma(x + 1) + math.lgamma(n - x + 1) for x in k.tolist()]
    )
    return out


def table_sample(rng: np.random.Generator, pmf_rows: FloatArray, row: IntArray) -> IntArray:
    """One draw per trial from the pmf in row ``row[i]`` of ``pmf_rows`` (an outcome index),
    by inverse CDF with a guide table: the outcome is the number of CDF thresholds at or below
    a uniform ``u``, found from a guide (the count at the grid point below ``u``) plus a few
    vectorised steps (no per-element branching search)."""
    rows, width = pmf_rows.shape
    # Thresholds: each row's CDF without its last entry, then a sentinel above any u.
    thresholds = np.full((rows, width), 2.0)
    thresholds[:, : width - 1] = np.cumsum(pmf_rows, axis=1)[:, : width - 1]
    cells = 8 * width
    grid = np.arange(cells) / cells
    u = rng.random(len(row))
    cell = (u * cells).astype(np.int64)
    if rows == 1:
        flat = thresholds[0]
        count: IntArray = np.searchsorted(flat, grid, side="right")[cell]
        base: IntArray | None = None
    else:
        guide = np.empty((rows, cells), dtype=np.int64)
        for r in range(rows):
            guide[r] = np.searchsorted(thresholds[r], grid, side="right")
        count = guide[row, cell]
        flat = thresholds.ravel()
        base = row * width
    # The guide is a lower bound: step on while u is at or above the next threshold (most
    # draws need no step; the few that do are followed alone).
    at = count if base is None else base + count
    todo = np.nonzero(u >= flat[at])[0]
    while len(todo):
        count[todo] += 1
        at_todo = count[todo] if base is None else base[todo] + count[todo]
        todo = todo[u[todo] >= flat[at_todo]]
    return count


def binom_table(rng: np.random.Generator, n: IntArray, p: float) -> IntArray:
    """Binomial(n, p) counts for an array of ``n`` and one ``p`` (:func:`table_sample` over
    the rows Binomial(0..max n, p)): several times faster than ``Generator.binomial`` with an
    array of ``n``, which sets up its sampler per element."""
    p = min(max(p, 0.0), 1.0)
    nmax = int(n.max(initial=0))
    if nmax == 0:
        return np.zeros(len(n), dtype=np.int64)
    if nmax > 256:
        return binom(rng, n, p)
    if int(n.min()) == nmax:
        # One n for every trial: one row.
        k = np.arange(nmax + 1)
        row = np.exp(_log_comb(nmax)) * p**k * (1.0 - p) ** (nmax - k)
        return table_sample(rng, row.reshape(1, -1), np.zeros(len(n), dtype=np.int64))
    # P(Binomial(k, p) = m) by the recurrence on k (row k from row k - 1).
    pmf = np.zeros((nmax + 1, nmax + 1))
    pmf[0, 0] = 1.0
    for j in range(1, nmax + 1):
        pmf[j, 0] = pmf[j - 1, 0] * (1.0 - p)
        pmf[j, 1 : j + 1] = pmf[j - 1, 1 : j + 1] * (1.0 - p) + pmf[j - 1, :j] * p
    return table_sample(rng, pmf, n)
