"""What the kept raw sight answers of a scene already settle about a unit pair, before a
unit-level proof is tried (06.01).

:meth:`SightTables._walled_apart` tries the one-wall proof of :mod:`sight_units` once per unit
pair, after a search of one of its pairs answered BLOCKED. The proof is sound: when one wall
separates the units, every model pair's raw sight is BLOCKED (the per-pair search's answer).
So a unit pair with a kept answer that is not BLOCKED (CLEAR or CONVENTION, the batch's or a
search's: each the pair's own per-pair answer) is not walled apart, and the try, which would
answer no, is not made. In the k = 5 greedy games most tries are of unit pairs whose other
rows the shooting listing's batch already saw CLEAR. Skipping a try never changes an answer:
without it, every pair of the unit pair is searched on its own, as after a failed try.
"""

from __future__ import annotations

from collections.abc import Mapping

from w40k.geometry.los import Sight, SightResult

Key = tuple[int, int, int, int]
"""(observer unit, observer model, target unit, target model)."""


def some_unblocked(raw: Mapping[Key, SightResult], ou: int, no: int, tu: int,
                   nt: int) -> bool:
    """Some model pair of units ``ou`` (``no`` models) and ``tu`` (``nt`` models) has a kept
    raw answer in ``raw`` that is not BLOCKED (the tables keep each answer under both
    orders, so the pairs are read observer ``ou`` first)."""
    get, blocked = raw.get, Sight.BLOCKED
    for om in range(no):
        for tm in range(nt):
            r = get((ou, om, tu, tm))
            if r is not None and r.sight is not blocked:
                return True
    return False
