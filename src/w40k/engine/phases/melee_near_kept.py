"""``melee_moves.can_reach``'s bound test of its spots (``battlefield.gap_tri``), kept per
exact inputs.

The pile-in repair (``pile_in_propose._repair``) asks ``can_reach`` of a moved model that
ends unengaged, and ``check_move`` asks the same search of the rounded answer: the same
start, the same candidate rows (``melee_moves.candidate_rows``' kept array), the same target
models and gap; only the unit's other models (the rounded answer) differ, and ``gap_tri``
does not read them. At k = 5 seed 0 every one of the check's 49 ``gap_tri`` calls repeats a
repair's. The answer is kept with the objects it was measured on, so a later call is served
only for those very objects (models are immutable, the rows array is never written to:
``candidate_rows``' callers only read it): the same list of codes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from w40k.core import kept
from w40k.geometry import Model
from w40k.geometry.battlefield import gap_tri

_NEAR: dict[tuple[int, int, tuple[int, ...], float],
            tuple[Model, npt.NDArray[np.float64], tuple[Model, ...], list[int]]] = kept.table()
""":func:`near_codes`' answers by (start, rows, targets' ids, limit), with those objects (an
entry holds them, so an ``id`` is not reused while it is kept); emptied past
:data:`NEAR_LIMIT` entries."""
NEAR_LIMIT = 64


def near_codes(start: Model, rows: npt.NDArray[np.float64], targets: Sequence[Model],
               limit: float) -> list[int]:
    """``gap_tri(start, rows, targets, limit)`` (callers only read the list): the answer
    found before for the same start, rows array and target model objects and the same
    limit, else measured and kept."""
    tids = tuple(map(id, targets))
    key = (id(start), id(rows), tids, limit)
    hit = _NEAR.get(key)
    # the entry holds its objects alive, so equal ids are the same objects; checked anyway
    if hit is not None and hit[0] is start and hit[1] is rows:
        return hit[3]
    out = gap_tri(start, rows, targets, limit)
    if len(_NEAR) >= NEAR_LIMIT:
        _NEAR.clear()
    _NEAR[key] = (start, rows, tuple(targets), out)
    return out
