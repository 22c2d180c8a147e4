"""A unit's models as the rules layer sees them (05.04, 06.02, 06.03 read these)."""

from __future__ import annotations

from w40k.core.abilities import Stealth
from w40k.engine.state import UnitData
from w40k.rules.primitives import ModelState


def model_states(u: UnitData) -> tuple[ModelState, ...]:
    """The unit's living models as the rules layer sees them: profile, wounds, wargear,
    leader role and position (05.04/06.02: what makes models not interchangeable)."""
    return tuple(ModelState(m.id, m.profile.W, m.profile.T, m.profile.Sv, m.profile.InSv,
                            m.wounds_lost, m.profile.keywords, m.profile.fnp, m.leader,
                            stealth=any(isinstance(a, Stealth) for a in m.profile.abilities),
                            wargear=tuple(w.name for w in m.weapons), position=(m.x, m.y))
                 for m in u.alive)
