"""A read roster as the engine's :class:`~w40k.io.army_model.Army`.

What the engine cannot play is refused with a located error (a model without T, a weapon
without S); what it does not implement is already text in ``not_applied``. Rosters carry no
base sizes: a model without one gets :data:`DEFAULT_BASE_MM` (docs/rosters.md).
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from w40k.core.abilities import Leader, Support, Torrent, UnitAbility
from w40k.core.errors import DataError
from w40k.core.keywords import canonical_keyword
from w40k.core.profiles import ModelProfile, WeaponProfile
from w40k.io.army_build import attach
from w40k.io.army_model import (
    Army,
    CompositionEntry,
    Datasheet,
    ModelInstance,
    NamedAbility,
    Unit,
    name_key,
)
from w40k.io.rosters import values as v
from w40k.io.rosters.model import Roster, RosterModel, RosterUnit, RosterWeapon

DEFAULT_BASE_MM = 32.0
"""Base diameter given to a model whose source has none (rosters never do)."""
TORRENT_SKILL = 6
"""BS given to a [TORRENT] weapon whose roster BS is ``N/A``: it is never rolled (24.36)."""


def _missing(field: str) -> DataError:
    return DataError(f"the roster gives no {field}: the engine cannot play it without one",
                     where=field)


def _profile(m: RosterModel) -> ModelProfile:
    for field in ("T", "Sv", "W", "Ld", "OC", "M"):
        if getattr(m, field) is None:
            raise _missing(field)
    applied = [a.applied for a in m.abilities if a.applied and not a.applied.startswith("InSv")]
    try:
        return ModelProfile.build(
            m.profile or m.name, T=m.T, Sv=m.Sv, W=m.W, M=m.M, Ld=m.Ld, OC=m.OC, InSv=m.InSv,
            base_mm=m.base_mm if m.base_mm is not None else DEFAULT_BASE_MM,
            height=m.height if m.height is not None else 1.5,
            keywords=[" ".join(k.upper().split()) for k in m.keywords],
            abilities=list(dict.fromkeys(applied)))
    except DataError as exc:
        raise DataError(exc.detail, where=exc.where.split(": ", 1)[-1]) from None


def _weapon(w: RosterWeapon) -> WeaponProfile:
    known = [k for k in w.abilities if v.weapon_ability_known(k)]
    skill = w.skill
    if skill is None:
        probe = WeaponProfile.build("probe", range=1, A=1, skill=3, S=1, AP=0, D=1,
                                    abilities=known)
        if not probe.abilities_of(Torrent):
            raise _missing("BS" if w.range != "Melee" else "WS")
        skill = TORRENT_SKILL
    for field in ("range", "A", "S", "AP", "D"):
        if getattr(w, field) is None:
            raise _missing(field)
    try:
        return WeaponProfile.build(w.name, range=w.range, A=w.A, skill=skill, S=w.S, AP=w.AP,
                                   D=w.D, abilities=known)
    except DataError as exc:
        raise DataError(exc.detail, where=exc.where.split(": ", 1)[-1]) from None


def _unit(u: RosterUnit, name: str, faction: str) -> Unit:
    profiles: list[ModelProfile] = []
    instances: list[ModelInstance] = []
    weapons: dict[str, WeaponProfile] = {}
    totals = Counter(name_key(m.name) for m in u.models for _ in range(m.count))
    seen: Counter[str] = Counter()
    for m in u.models:
        try:
            profile = _profile(m)
        except DataError as exc:
            raise exc.at(f"model {m.name!r}") from None
        profiles.append(profile)
        loadouts: list[list[WeaponProfile]] = [[] for _ in range(m.count)]
        firsts: dict[str, str] = {}
        for w in m.weapons:
            if w.group and firsts.setdefault(name_key(w.group), w.name) != w.name:
                continue  # another profile of a multi-profile weapon: not_applied lists it
            try:
                built = weapons.setdefault(name_key(w.name), _weapon(w))
            except DataError as exc:
                raise exc.at(f"model {m.name!r}: weapon {w.name!r}") from None
            # The roster gives the group's total: spread it over the group's models.
            for k in range(w.count):
                if loadouts:
                    loadouts[k % len(loadouts)].append(built)
        for gear in loadouts:
            key = name_key(m.name)
            seen[key] += 1
            label = m.name if totals[key] == 1 else f"{m.name} {seen[key]}"
            instances.append(ModelInstance(label, profile, tuple(gear)))
    if not instances:
        raise DataError("the unit has no models", where="models")
    roles: list[UnitAbility] = []
    for p in profiles:
        roles += [a for a in p.abilities if isinstance(a, Leader | Support) and a not in roles]
    named = {name_key(a.name): NamedAbility(a.name, a.text or a.name)
             for m in u.models for a in m.abilities if a.applied is None}
    fac = [k.upper() for k in profiles[0].keywords
           if canonical_keyword(k) == canonical_keyword(faction)] or [faction.upper()]
    sheet = Datasheet(
        name=u.datasheet or u.name, faction_keywords=tuple(fac[:1]), keywords=(),
        models=tuple(profiles), weapons=tuple(weapons.values()),
        composition=tuple(CompositionEntry(p.name, m.count, m.count, ())
                          for p, m in zip(profiles, u.models, strict=True)),
        abilities=tuple(roles), named_abilities=tuple(named.values()))
    return Unit(name=name, datasheet=sheet, models=tuple(instances), points=u.points,
                embarked_in=u.embarked_in, not_applied=u.not_applied)


def to_army(roster: Roster) -> Army:
    """The engine's army: one datasheet per roster unit (its own profiles), leaders attached
    to their bodyguards (19.01, checked), duplicate unit names numbered (``Boyz 2``)."""
    names: Counter[str] = Counter()
    built: list[Unit] = []
    for u in roster.units:
        names[name_key(u.name)] += 1
        name = u.name if names[name_key(u.name)] == 1 else f"{u.name} {names[name_key(u.name)]}"
        try:
            built.append(_unit(u, name, roster.faction))
        except DataError as exc:
            raise exc.at(f"{roster.source}: unit {u.name!r}") from None
    index = {name_key(b.name): i for i, b in reversed(list(enumerate(built)))}
    leads: dict[int, list[Unit]] = {}
    attached: set[int] = set()
    for i, u in enumerate(roster.units):
        if u.leader_of is None:
            continue
        j = index.get(name_key(u.leader_of))
        if j is None or j == i:
            raise DataError(f"attached to {u.leader_of!r}, which is not another unit of this "
                            "roster", where=f"{roster.source}: unit {u.name!r}: leader_of")
        sheet = dataclasses.replace(built[i].datasheet,
                                    leader_of=(built[j].datasheet.name,))
        leads.setdefault(j, []).append(dataclasses.replace(built[i], datasheet=sheet))
        attached.add(i)
    units: list[Unit] = []
    for j, unit in enumerate(built):
        if j in attached:
            if j in leads:
                raise DataError(f"{unit.name!r} is attached to {roster.units[j].leader_of!r} "
                                "and has units attached itself: a unit can only lead a "
                                "bodyguard unit (19.01)",
                                where=f"{roster.source}: unit {unit.name!r}: leader_of")
            continue
        try:
            units.append(attach(unit, *leads[j]) if j in leads else unit)
        except DataError as exc:
            raise DataError(exc.detail,
                            where=f"{roster.source}: unit {leads[j][-1].name!r}: leader_of"
                            ) from None
    return Army(name=roster.name, faction=" ".join(roster.faction.upper().split()),
                units=tuple(units), points=roster.points)
