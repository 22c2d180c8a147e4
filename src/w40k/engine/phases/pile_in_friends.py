"""The pile-in placement's last chunk of spots: rings around the unit's models nearest to
the model's goal (R03.03-a: a model too far to reach its target keeps within 2" of the
others as it closes in), built for every ring at once (``pile_in_propose._friend_spots``).

Each spot is ``(fx + d * c, fy + d * s)``: numpy's float64 products and sums are Python's,
so the same floats. Two distances are measured with ``np.hypot`` instead of ``math.hypot``
(each within an ulp or so of the exact distance, ~1e-14" on a battlefield): the move's
limit, settled by the array where the distance is more than 1e-9" from it and by
``math.hypot`` within that; and the sort key (the distance to the goal), whose order is the
array's where every two keys in a row differ by more than 1e-9" (then every exact key is
apart too, in the same order, with no ties: the stable sort of the exact keys gives that
order), and is the exact keys' stable sort otherwise.
"""

from __future__ import annotations

import math

import numpy as np

from w40k.engine.phases import pile_in_bounds as pb
from w40k.engine.phases.pile_in_bounds import Row
from w40k.engine.propose_moves import bearings
from w40k.geometry import Model

FRIENDS = 3
"""Models of the unit whose rings are tried (nearest to the model's goal)."""
FRIEND_GAPS = (0.1, 0.7, 1.3, 1.85)
"""Edge-to-edge gaps of the rings around the unit's other models (within 2", R03.03-a)."""
FRIEND_BEARINGS = 12
_CS = np.array(bearings(0.0, FRIEND_BEARINGS), dtype=np.float64).T.copy()
"""The rings' cosines (row 0) and sines (row 1), ``propose_moves.bearings`` of base 0.0
(the same floats every time)."""
APART = 1e-9
"""Inches: far beyond the roundings of ``np.hypot`` and ``math.hypot`` (~1e-14")."""
_hypot = np.hypot
"""The arrays' distances (``np.hypot``; a test perturbs them to check the guards)."""


def friend_spots(start: Model, near: list[tuple[float, float, float]],
                 goal: tuple[float, float], limit: float) -> np.ndarray:
    """The spots of the rings around ``near`` (each friend's x, y and the moved model's
    radius plus its own, in order) at :data:`FRIEND_GAPS` beyond that, on
    :data:`FRIEND_BEARINGS` bearings, within ``limit`` of ``start`` (``math.hypot``'s
    answer), the nearest to ``goal`` first (a stable sort: ties keep the rings' order), as
    the (n, 2) rows of a C-ordered (2, n) array (module docstring)."""
    rows = [(fx, fy, rf + g) for fx, fy, rf in near for g in FRIEND_GAPS]
    ring = pb.table(rows, 3)
    # (x, y) + dist * (cos, sin), ring by ring, bearing by bearing: (2, rings * bearings)
    every = (np.ascontiguousarray(ring[:, :2].T)[:, :, None]
             + ring[:, 2][None, :, None] * _CS[:, None, :]).reshape(2, -1)
    sx, sy = start.x, start.y
    ex, ey = every
    d = _hypot(ex - sx, ey - sy)
    keep = d <= limit - APART
    hypot = math.hypot
    # the spots the array leaves within APART of the limit either side (above limit -
    # APART, at most limit + APART: a NaN in neither) are measured; most chunks have none
    edge = d <= limit + APART
    edge ^= keep
    if edge.any():
        for i in edge.nonzero()[0].tolist():
            x, y = every[:, i].tolist()
            keep[i] = hypot(x - sx, y - sy) <= limit
    kept = every.compress(keep, axis=1)
    gx, gy = goal
    kx, ky = kept
    keys = _hypot(kx - gx, ky - gy)
    order = keys.argsort(kind="stable")
    if len(order) > 1:
        ranked = keys[order]
        apart = ranked[1:] - ranked[:-1] > APART
        if not np.logical_and.reduce(apart):
            # keys too close to be ordered by the array's: those ordered by the exact keys
            order = _ties_ordered(kept, order, apart, goal)
    out: np.ndarray = kept.take(order, axis=1).T
    return out


def _ties_ordered(kept: np.ndarray, order: np.ndarray, apart: np.ndarray,
                  goal: tuple[float, float]) -> list[int]:
    """The stable sort of the exact keys (``math.hypot`` of each of ``kept``'s spots to
    ``goal``) from the array keys' stable ``order`` and, between each two in a row of it,
    whether their array keys are more than :data:`APART` apart (``apart``, not all True).

    The array's order splits into runs of spots whose keys, in a row, are at most
    :data:`APART` apart: two spots of different runs have array keys more than
    :data:`APART` apart (a sorted sequence: their difference is at least one such gap's),
    so exact keys apart, in that order, and no tie; within a run the spots are sorted by
    their exact key, then their index (the stable sort's tie order). The same order as
    the exact keys' stable sort of every spot, measuring only the runs' spots."""
    out: list[int] = order.tolist()
    close: list[int] = (~apart).nonzero()[0].tolist()  # k: out[k], out[k + 1] in a run
    gx, gy = goal
    hypot = math.hypot
    i, n = 0, len(close)
    while i < n:
        a = b = close[i]
        while i + 1 < n and close[i + 1] == b + 1:
            i += 1
            b = close[i]
        run = out[a:b + 2]
        xs, ys = kept[:, run].tolist()
        out[a:b + 2] = [k for _, k in sorted(
            (hypot(x - gx, y - gy), k) for k, x, y in zip(run, xs, ys, strict=True))]
        i += 1
    return out


class Rows:
    """The unit's models' :func:`pile_in_bounds.row` where they are so far, in the unit's
    order (``pile_in_propose``'s ``cur``), kept as they move: ``pb.candidates``' friends'
    columns, read without a :func:`pb.row` call per friend per chunk (the same rows)."""

    def __init__(self, models: dict[str, Model]) -> None:
        self._rows: dict[str, Row] = {mid: pb.row(m) for mid, m in models.items()}
        self._uneven = sum(r[2] != r[3] for r in self._rows.values())

    def others(self, mid: str) -> list[Row]:
        """Every row but ``mid``'s, in order (``[row(f) for f in friends]``)."""
        return [r for oid, r in self._rows.items() if oid != mid]

    def even_others(self, mid: str) -> bool:
        """Whether every row of :meth:`others` has its bounding radius equal to its inner
        one (counted: the uneven rows less ``mid``'s own)."""
        own = self._rows[mid]
        return self._uneven - (own[2] != own[3]) == 0

    def move(self, mid: str, m: Model) -> None:
        """Model ``mid`` is now ``m`` (its row replaced where it was, the count kept)."""
        old, new = self._rows[mid], pb.row(m)
        self._uneven += (new[2] != new[3]) - (old[2] != old[3])
        self._rows[mid] = new
