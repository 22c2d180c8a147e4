"""Helpers for the move proposers (``engine/moves.py``, ``engine/phases/melee_moves.py``):
candidates are checked against only what they can touch, with the kept battlefield model
(``geometry/battlefield.py``), before the full validation the proposer still runs.

Every test here is a *necessary* condition of a legal move (the full ``validate_move`` or the
phase's own check would refuse the candidate too), so a proposer that skips a candidate for it
returns the same first legal candidate as before: agents choose exactly as they did."""

from __future__ import annotations

from collections.abc import Iterable

from w40k.geometry import Model, Terrain
from w40k.geometry.battlefield import Discs
from w40k.geometry.measure import separation
from w40k.geometry.movement import ending_violations

CLEARANCE = 1e-4
"""Inches between bases that the melee proposer keeps (its historical figure)."""


class Occupied:
    """The models a proposer places around: :meth:`free` measures a candidate against the
    models whose disc comes near it only."""

    def __init__(self, models: Iterable[Model]) -> None:
        self.models: list[Model] = list(models)
        self._discs: Discs | None = None

    def append(self, m: Model) -> None:
        """One more model placed."""
        self.models.append(m)
        self._discs = None

    def free(self, cand: Model, terrain: Terrain) -> bool:
        """03.01 Ending a Move: on no other model (more than :data:`CLEARANCE` apart), and not
        partway through a terrain feature (``ending_violations``)."""
        if self._discs is None:
            self._discs = Discs.of(self.models)
        near = self._discs.near_segment(cand.x, cand.y, cand.x, cand.y, cand.reach(),
                                        CLEARANCE)
        fp = cand.footprint()
        return (all(separation(fp, self.models[i].footprint()) > CLEARANCE for i in near)
                and not ending_violations(terrain, cand))
