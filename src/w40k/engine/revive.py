"""Appendix 'Revived' (RA-Revive-a..d): a rule that revives, resurrects or returns destroyed
models to a unit calls :func:`revive` with the models it returns, in order, and where each is
set up; the engine adds them to the unit or refuses the whole return with IllegalChoice.

- RA-Revive-a: never beyond the unit's starting strength (the returns past it are not made);
  each model comes back with the wargear and enhancements it started the battle with (its
  weapons, its profile, its used [ONE SHOT] weapons: RA-Revive-d, R24.26-a) and, unless the
  rule states otherwise (``wounds_remaining``), its full wounds.
- RA-Revive-b: on the battlefield, a returned model is set up wholly on it, on no other model,
  within 2" horizontally and 5" vertically of a model of the unit that was on the battlefield
  when the rule was used, with the unit in coherency afterwards; it may be engaged only with
  enemy units already engaged with the unit.
- RA-Revive-c: a leader or support model of an attached unit is still a model of that unit, so
  it returns to it (``ModelData.leader`` is kept); its abilities apply again (R19.04-d).

A datasheet ability calls it from its own frame (the choice of models and places is that
frame's request); nothing new is kept in the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from w40k.core.errors import IllegalChoice
from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.offtable import battlefield
from w40k.engine.state import ModelData, UnitData
from w40k.geometry import Model, coherency_breaks, within
from w40k.geometry.measure import COHERENCY_NEIGHBOUR, COHERENCY_VERTICAL
from w40k.rules.setup import set_up_violations


@dataclass(frozen=True)
class Return:
    """One destroyed model to return, and where it is set up (ignored off the battlefield)."""

    model: str
    """The destroyed model's id (a model of the unit)."""
    x: float = 0.0
    """Centre x."""
    y: float = 0.0
    """Centre y."""
    z: float = 0.0
    """Level."""


def room(u: UnitData) -> int:
    """RA-Revive-a: how many models can still be returned (to its starting strength; before
    that is fixed, to the models it has)."""
    full = u.starting_strength or len(u.models)
    return max(0, full - len(u.alive))


def _placement_violations(ctx: Context, u: UnitData, shapes: list[Model]) -> list[str]:
    """RA-Revive-b for models returned to a unit on the battlefield (see the module)."""
    s = ctx.state
    present = geo.unit_shapes(u)  # on the battlefield when the rule is used
    if not present:
        return ["no model of the unit is on the battlefield to return to"]
    engaged_ids = {e.id for e in geo.engaged_enemies(ctx, u)}
    enemies = [geo.model_shape(m) for e in s.units if e.player != u.player
               and e.id not in engaged_ids for m in e.alive]
    others = [geo.model_shape(m) for e in s.units if e.id in engaged_ids for m in e.alive]
    others += [geo.model_shape(m) for e in s.units if e.player == u.player for m in e.alive]
    out = [f"{v.rule}: {v.model} {v.message}" for v in set_up_violations(
        shapes, enemies, battlefield(s), others) if "coherency" not in v.message]
    for m in shapes:
        if not any(within(m, p, COHERENCY_NEIGHBOUR, COHERENCY_VERTICAL) for p in present):
            out.append(f"{m.name} is not in coherency with a model of the unit "
                       f"already on the battlefield")
    names = {m.name for m in shapes}
    out += [f"{b.model} breaks coherency ({b.rule})"
            for b in coherency_breaks([*present, *shapes]) if b.model in names]
    return out


def revive(ctx: Context, u: UnitData, returns: Sequence[Return], *,
           wounds_remaining: int | None = None, rule: str = "") -> list[str]:
    """Return destroyed models of ``u`` (module docstring); ``returns`` in the order the rule
    returns them, those past the starting strength left out (RA-Revive-a). Returns the ids
    returned; refuses (IllegalChoice) a model that is not a destroyed model of the unit or a
    place that breaks RA-Revive-b, leaving the state untouched."""
    if u.destroyed:
        raise IllegalChoice(f"{u.name} is destroyed: it cannot be selected by rules",
                            rule="RA-Destroyed-c")
    by_id = {m.id: m for m in u.models}
    seen: set[str] = set()
    for r in returns:
        m = by_id.get(r.model)
        if m is None or not m.destroyed or r.model in seen:
            raise IllegalChoice(f"{r.model} is not a destroyed model of {u.name}",
                                rule="RA-Revive-a")
        seen.add(r.model)
    made = list(returns)[:room(u)]  # RA-Revive-a: never beyond the starting strength
    chosen: list[tuple[ModelData, Return]] = [(by_id[r.model], r) for r in made]
    if u.location == "battlefield" and chosen:
        shapes = [geo.model_shape(m, r.x, r.y, r.z) for m, r in chosen]
        broken = _placement_violations(ctx, u, shapes)
        if broken:
            raise IllegalChoice("; ".join(broken), rule="RA-Revive-b")
    for m, r in chosen:
        if u.location == "battlefield":
            m.x, m.y, m.z = r.x, r.y, r.z
        full = m.profile.W if wounds_remaining is None else min(wounds_remaining, m.profile.W)
        m.wounds_lost = m.profile.W - full  # RA-Revive-a: full wounds unless stated
        m.destroyed = False  # RA-Revive-c: a leader model is still part of its unit
        ctx.log("revived", unit=u.id, model=m.id, leader=m.leader,
                wounds_remaining=m.remaining, rule=rule or "RA-Revive-a")
    return [m.id for m, _ in chosen]
