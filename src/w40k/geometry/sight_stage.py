"""Which model pairs a batched stage of :class:`~w40k.geometry.sight_tables.SightTables`
decides: those of the asked unit pairs (of each, the pairs its mask keeps) whose raw sight is
not known yet, each under its canonical key (the observer's unit first in the scene, as
``SightTables._keep_raw`` keeps it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from w40k.geometry.scene import Unit

Key = tuple[int, int, int, int]
"""(observer unit, observer model, target unit, target model)."""


def wanted_pairs(units: Sequence[Unit], raw: Mapping[Key, object],
                 unit_pairs: list[tuple[int, int]],
                 masks: list[np.ndarray | None] | None) -> list[Key]:
    """The canonical keys of the model pairs of ``unit_pairs`` (``masks``: of each, only the
    pairs where its mask is True; None: all) not in ``raw``, without repeats, in the order
    of the unit pairs and, within one, row-major (observer model, then target model). A
    mask's pairs are read off its nonzero entries (row-major, so the order of the full
    loops) rather than by testing every pair of the unit pair."""
    wanted: dict[Key, None] = {}
    for i, (ou, tu) in enumerate(unit_pairs):
        kept = None if masks is None else masks[i]
        if kept is None:
            no, nt = len(units[ou].models), len(units[tu].models)
            oms = [om for om in range(no) for _ in range(nt)]
            tms = list(range(nt)) * no
        else:
            om_a, tm_a = kept.nonzero()
            oms, tms = om_a.tolist(), tm_a.tolist()
        for om, tm in zip(oms, tms, strict=True):
            if (ou, om, tu, tm) not in raw:
                wanted[(ou, om, tu, tm) if ou <= tu else (tu, tm, ou, om)] = None
    return list(wanted)
