"""The project's own army files shown like a roster (``w40k army my_army.yaml``)."""

from __future__ import annotations

from w40k.core.dice import DiceExpr
from w40k.core.profiles import ModelProfile, WeaponProfile
from w40k.engine.ability_catalog import entry
from w40k.io.army_model import Army, Unit
from w40k.io.rosters.model import Roster, RosterAbility, RosterModel, RosterUnit, RosterWeapon


def _dice(d: DiceExpr) -> str:
    return str(d)


def _weapon(w: WeaponProfile, count: int) -> RosterWeapon:
    rng: int | float | str = "Melee" if w.range is None else (
        int(w.range) if float(w.range).is_integer() else w.range)
    return RosterWeapon(name=w.name, range=rng, A=_dice(w.A), skill=w.skill, S=w.S, AP=w.AP,
                        D=_dice(w.D), abilities=tuple(str(a) for a in w.abilities), count=count)


def _model(p: ModelProfile, count: int, gear: tuple[WeaponProfile, ...],
           unit: Unit) -> RosterModel:
    abilities = [RosterAbility(str(a), applied=str(a)) for a in p.abilities]
    abilities += [RosterAbility(a.name, a.text) for a in unit.datasheet.named_abilities]
    per: dict[str, tuple[WeaponProfile, int]] = {}
    for w in gear:
        per[w.name] = (w, per.get(w.name, (w, 0))[1] + count)
    return RosterModel(name=p.name, count=count, M="-" if p.M is None else p.M, T=p.T, Sv=p.Sv,
                       InSv=p.InSv, W=p.W, Ld=p.Ld, OC="-" if p.OC is None else p.OC,
                       keywords=p.keywords, abilities=tuple(abilities),
                       weapons=tuple(_weapon(w, n) for w, n in per.values()), profile=p.name,
                       base_mm=p.base_mm, height=p.height)


def _unit(u: Unit, leader_of: str | None) -> RosterUnit:
    groups: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    order: list[tuple[ModelProfile, tuple[WeaponProfile, ...]]] = []
    for m in u.models:
        key = (m.profile.name, m.weapon_names())
        if key not in groups:
            groups[key] = [0]
            order.append((m.profile, m.weapons))
        groups[key][0] += 1
    models = tuple(_model(p, groups[(p.name, tuple(w.name for w in g))][0], g, u)
                   for p, g in order)
    # the catalog's abilities are applied (engine/ability_catalog.py); the others are listed
    not_applied = u.not_applied or tuple(a.name for a in u.datasheet.named_abilities
                                         if entry(a.name) is None)
    return RosterUnit(name=u.name, points=u.points, models=models, leader_of=leader_of,
                      embarked_in=u.embarked_in, not_applied=not_applied,
                      role=u.datasheet.role.value if leader_of else "",
                      datasheet=u.datasheet.name)


def roster_of_army(army: Army, *, source: str, fmt: str = "army") -> Roster:
    """The army as a :class:`Roster`: attached leaders listed after their bodyguard with
    ``leader_of`` set."""
    units: list[RosterUnit] = []
    for u in army.units:
        units.append(_unit(u, None))
        units += [_unit(c, u.name) for c in u.attached]
    pts = [x.points for x in units if x.points is not None]
    total = army.points if army.points is not None else (sum(pts) if pts else None)
    return Roster(source=source, format=fmt, name=army.name, faction=army.faction,
                  points=total, units=tuple(units))
