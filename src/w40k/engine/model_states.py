"""A unit's models as the rules layer sees them (05.04, 06.02, 06.03 read these)."""

from __future__ import annotations

from w40k.core import kept
from w40k.core.abilities import Stealth
from w40k.core.profiles import ModelProfile
from w40k.engine.state import ModelData, UnitData
from w40k.rules.primitives import ModelState

_Traits = tuple[int, int, int, int | None, tuple[str, ...], int | None, bool]
"""A profile's part of a :class:`ModelState`: W, T, Sv, InSv, keywords, fnp, stealth."""

_TRAITS: dict[int, tuple[ModelProfile, _Traits]] = kept.table()
"""The traits of each profile seen, by the profile's id (the entry holds the profile: no id
reuse while kept). A profile is frozen, so its traits never change; every attack reads them for
every living model of both units (the Feel No Pain and Stealth lookups scan the abilities)."""
_TRAITS_LIMIT = 1024


def _traits(p: ModelProfile) -> _Traits:
    hit = _TRAITS.get(id(p))
    if hit is not None and hit[0] is p:
        return hit[1]
    if len(_TRAITS) >= _TRAITS_LIMIT:
        _TRAITS.clear()
    traits = profile_traits(p)
    _TRAITS[id(p)] = (p, traits)
    return traits


def profile_traits(p: ModelProfile) -> _Traits:
    """The profile's W, T, Sv, InSv, keywords, Feel No Pain and Stealth, computed from the
    profile (the plain answer that :func:`model_states` keeps per profile)."""
    return (p.W, p.T, p.Sv, p.InSv, p.keywords, p.fnp,
            any(isinstance(a, Stealth) for a in p.abilities))


_STATES: dict[int, tuple[ModelData, tuple[object, ...], ModelState]] = kept.table()
"""The last :class:`ModelState` built for each model, by the model object's id (the entry holds
the model: no id reuse while kept), with what it was built from (:func:`_inputs`, and the
position: the very float objects, so that a model moved and back, or to -0.0 from 0.0, is
built again). A model's state is a function of those alone, and frozen, so it is shared while
they are the same: a model is seen by many attacks between its moves and wounds. Emptied past
:data:`_TRAITS_LIMIT` entries."""


def _inputs(m: ModelData) -> tuple[object, ...]:
    """What :func:`_build` reads of ``m`` but its position."""
    return (m.id, m.profile, m.wounds_lost, m.leader, m.weapons)


def _build(m: ModelData) -> ModelState:
    """The model as the rules layer sees it (the plain answer, from the model's fields)."""
    w, t, sv, insv, keywords, fnp, stealth = _traits(m.profile)
    # positional (visible: True, the default): no keyword matching per model
    return ModelState(m.id, w, t, sv, insv, m.wounds_lost, keywords, fnp, m.leader, True,
                      stealth, tuple([x.name for x in m.weapons]), (m.x, m.y))


def _same(hit: tuple[ModelData, tuple[object, ...], ModelState], m: ModelData,
          inputs: tuple[object, ...]) -> bool:
    """``hit`` was built from ``m`` as it is now."""
    if hit[0] is not m or hit[1] != inputs:
        return False
    pos = hit[2].position
    return pos is not None and pos[0] is m.x and pos[1] is m.y


def model_states(u: UnitData) -> tuple[ModelState, ...]:
    """The unit's living models as the rules layer sees them: profile, wounds, wargear,
    leader role and position (05.04/06.02: what makes models not interchangeable)."""
    out = []
    kept = _STATES
    for m in u.alive:
        inputs = _inputs(m)
        hit = kept.get(id(m))
        if hit is None or not _same(hit, m, inputs):
            if len(kept) >= _TRAITS_LIMIT:
                kept.clear()
            hit = kept[id(m)] = (m, inputs, _build(m))
        out.append(hit[2])
    return tuple(out)
