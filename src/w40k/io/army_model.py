"""Datasheets (02) and mustered armies (19) as typed, frozen data.

These types import only ``core`` and the rule primitive :class:`ModelState`; nothing here reads
files. The loaders (``army_load``, ``army_datasheet``, ``army_build``) produce them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from w40k.core.abilities import Leader, Support, UnitAbility
from w40k.core.keywords import canonical_keyword, keyword_set
from w40k.core.profiles import ModelProfile, WeaponProfile
from w40k.rules.primitives import ModelState


def name_key(name: str) -> str:
    """How names of models, weapons, options and units are compared: case and spacing ignored
    (a datasheet writes 'slugga' in its composition and 'Slugga' in its weapon table)."""
    return " ".join(name.strip().casefold().split())


class Role(StrEnum):
    """What a unit can be in an attached unit (19.01)."""

    PLAIN = "plain"
    """Neither Leader nor Support: it can only be a bodyguard (if some leader lists it)."""
    LEADER = "leader"
    """Has the Leader ability (24.22)."""
    SUPPORT = "support"
    """Has the Support ability (24.34)."""


@dataclass(frozen=True, slots=True)
class NamedAbility:
    """A datasheet ability the engine does not interpret (faction and datasheet abilities such
    as 'Get da Good Bitz'): kept as text for people and for future codex layers (02.03)."""

    name: str
    """The ability's name as printed."""
    text: str
    """Its rules text."""


@dataclass(frozen=True, slots=True)
class CompositionEntry:
    """One line of the unit composition (02.06): how many models of one profile, with which
    default wargear."""

    model: str
    """The model profile's name."""
    min: int
    """Fewest models of this profile the unit can include (the default count)."""
    max: int
    """Most models of this profile the unit can include."""
    wargear: tuple[str, ...]
    """Default wargear of each such model: weapon names, a weapon listed twice is carried
    twice."""


@dataclass(frozen=True, slots=True)
class WargearOption:
    """One wargear option (02.07): a model of one profile swaps some weapons for others."""

    name: str
    """The name an army list uses to choose the option."""
    model: str
    """The profile of the models that can take it."""
    replace: tuple[str, ...]
    """Weapons removed (empty: the option only adds weapons)."""
    add: tuple[str, ...]
    """Weapons given in their place."""
    max: int | None = None
    """How many models of the unit can take it; ``None``: any number."""


@dataclass(frozen=True, slots=True)
class Datasheet:
    """A unit's datasheet (02): profiles, abilities, weapons, keywords, composition, options."""

    name: str
    """Datasheet name (02.01)."""
    faction_keywords: tuple[str, ...]
    """Faction keywords (02.05); they work like other keywords in rules."""
    keywords: tuple[str, ...]
    """Other keywords every model has (02.05)."""
    models: tuple[ModelProfile, ...]
    """Model profiles (02.02); each profile's keywords are the faction keywords, the datasheet
    keywords and its own, and its abilities are the datasheet's core abilities and its own."""
    weapons: tuple[WeaponProfile, ...]
    """Weapon profiles (02.04): BS/WS belong to the weapon."""
    composition: tuple[CompositionEntry, ...]
    """Unit composition (02.06)."""
    abilities: tuple[UnitAbility, ...] = ()
    """Core abilities every model has, parsed; duplicates are kept as separate instances
    (24.02: the controlling player picks one when it matters)."""
    named_abilities: tuple[NamedAbility, ...] = ()
    """Faction and datasheet abilities kept as text (02.03)."""
    wargear_options: tuple[WargearOption, ...] = ()
    """Wargear options (02.07)."""
    leader_of: tuple[str, ...] = ()
    """Names of the bodyguard datasheets this leader/support unit can lead (02.06, 19.01)."""
    points: tuple[tuple[int, int], ...] = ()
    """``(models, points)`` per unit size, fewest models first (docs/army-format.md
    "Points"); empty: the datasheet gives no points."""

    def points_for(self, models: int) -> int | None:
        """The points of a unit of ``models`` models: the first size that holds it (a unit
        between two listed sizes costs the larger), None without points or above every
        size."""
        return next((p for n, p in self.points if models <= n), None)

    @property
    def role(self) -> Role:
        """Leader, support, or plain (19.01), from the core abilities."""
        if any(isinstance(a, Leader) for a in self.abilities):
            return Role.LEADER
        if any(isinstance(a, Support) for a in self.abilities):
            return Role.SUPPORT
        return Role.PLAIN

    @property
    def keys(self) -> frozenset[str]:
        """Canonical keys of every keyword any model of this datasheet has."""
        return keyword_set(k for m in self.models for k in m.keywords)

    @property
    def min_models(self) -> int:
        """The default (smallest) number of models (02.06)."""
        return sum(e.min for e in self.composition)

    @property
    def max_models(self) -> int:
        """The largest number of models."""
        return sum(e.max for e in self.composition)

    def model(self, name: str) -> ModelProfile:
        """The model profile called ``name`` (KeyError if none)."""
        for m in self.models:
            if name_key(m.name) == name_key(name):
                return m
        raise KeyError(name)

    def weapon(self, name: str) -> WeaponProfile:
        """The weapon profile called ``name`` (KeyError if none)."""
        for w in self.weapons:
            if name_key(w.name) == name_key(name):
                return w
        raise KeyError(name)

    def option(self, name: str) -> WargearOption:
        """The wargear option called ``name`` (KeyError if none)."""
        for o in self.wargear_options:
            if name_key(o.name) == name_key(name):
                return o
        raise KeyError(name)

    def can_lead(self, bodyguard: str) -> bool:
        """Whether this datasheet lists ``bodyguard`` as a unit it can lead (19.01)."""
        return name_key(bodyguard) in {name_key(n) for n in self.leader_of}


@dataclass(frozen=True, slots=True)
class ModelInstance:
    """One model of a mustered unit: its profile and the weapons it carries."""

    name: str
    """The model's name in this unit: the profile name, numbered when the unit has several
    models of that profile (``Boy 3``)."""
    profile: ModelProfile
    """Its characteristics, keywords and core abilities."""
    weapons: tuple[WeaponProfile, ...]
    """The weapons it is equipped with after wargear options (02.06, 02.07)."""

    @property
    def keywords(self) -> tuple[str, ...]:
        """The model's own keywords (it does not gain its unit-mates', Appendix)."""
        return self.profile.keywords

    def weapon_names(self) -> tuple[str, ...]:
        """Names of the weapons it carries, in order."""
        return tuple(w.name for w in self.weapons)


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit as mustered: one datasheet's models, plus the leader/support units attached to
    it (19.01). An attached unit is a single unit for all rules purposes; its components stay
    visible through :attr:`attached`."""

    name: str
    """The unit's name in the army (unique in it)."""
    datasheet: Datasheet
    """The datasheet it was built from."""
    models: tuple[ModelInstance, ...]
    """This component's own models (the bodyguard's, for an attached unit)."""
    attached: tuple[Unit, ...] = ()
    """Leader then support units attached to it (19.01); empty for a plain unit."""
    points: int | None = None
    """This component's points as its army list gives them (``None``: not given)."""
    embarked_in: str | None = None
    """The name of the TRANSPORT unit it starts the battle embarked within (18), when the
    army list says so."""
    reserves: str | None = None
    """``strategic`` or ``deep_strike``: it starts the battle in reserves (20, 24.09)."""
    not_applied: tuple[str, ...] = ()
    """Abilities and weapon keywords its roster gives that the engine does not implement,
    kept as text (docs/rosters.md)."""

    @property
    def components(self) -> tuple[Unit, ...]:
        """This unit and the units attached to it, bodyguard first."""
        return (self, *self.attached)

    @property
    def all_models(self) -> tuple[ModelInstance, ...]:
        """Every model of the (attached) unit: bodyguard models, then leader, then support."""
        return tuple(m for c in self.components for m in c.models)

    @property
    def is_attached(self) -> bool:
        """Whether leader/support units are attached to it."""
        return bool(self.attached)

    @property
    def keywords(self) -> tuple[str, ...]:
        """19.03 / Appendix 'Mixed keywords': the unit has every keyword of every model of every
        component (first-seen order, each canonical keyword once)."""
        seen: set[str] = set()
        out: list[str] = []
        for model in self.all_models:
            for k in model.keywords:
                key = canonical_keyword(k)
                if key not in seen:
                    seen.add(key)
                    out.append(k)
        return tuple(out)

    @property
    def keys(self) -> frozenset[str]:
        """Canonical keys of :attr:`keywords`, for membership tests."""
        return keyword_set(self.keywords)

    @property
    def named_abilities(self) -> tuple[NamedAbility, ...]:
        """The text abilities of every component (19.04: they apply to the attached unit while
        their source stands; the engine does not interpret them)."""
        return tuple(a for c in self.components for a in c.datasheet.named_abilities)

    @property
    def starting_strength(self) -> int:
        """Appendix: the number of models at the start of the first battle round; for a unit
        as mustered, all of its models (an attached unit counts every component, 19.02)."""
        return len(self.all_models)

    def to_model_states(self) -> tuple[ModelState, ...]:
        """The unit's models as the attack sequence sees them, unhurt: leader/support models
        flagged ``leader=True`` (19.02), Feel No Pain from each model's own abilities (24.12:
        'a model with this ability'), each model with only its own keywords (19.03)."""
        return tuple(
            ModelState(
                name=m.name,
                W=m.profile.W,
                T=m.profile.T,
                Sv=m.profile.Sv,
                InSv=m.profile.InSv,
                keywords=m.profile.keywords,
                fnp=m.profile.fnp,
                leader=component is not self,
            )
            for component in self.components
            for m in component.models
        )


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Datasheets by name, in file order."""

    datasheets: tuple[Datasheet, ...] = ()
    """The datasheets."""

    def __getitem__(self, name: str) -> Datasheet:
        for d in self.datasheets:
            if name_key(d.name) == name_key(name):
                return d
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and any(
            name_key(d.name) == name_key(name) for d in self.datasheets
        )

    def __iter__(self) -> Iterator[Datasheet]:
        return iter(self.datasheets)

    def __len__(self) -> int:
        return len(self.datasheets)

    @property
    def names(self) -> tuple[str, ...]:
        """Datasheet names in order."""
        return tuple(d.name for d in self.datasheets)

    def merged(self, other: Catalogue) -> Catalogue:
        """Both catalogues' datasheets (``other``'s after this one's); the caller checks that
        names do not clash."""
        return Catalogue(self.datasheets + other.datasheets)


@dataclass(frozen=True, slots=True)
class Army:
    """An army as mustered (19.01: leaders already attached)."""

    name: str
    """The army's name."""
    faction: str
    """Its faction keyword; every datasheet in it has this faction keyword (02.05)."""
    units: tuple[Unit, ...]
    """Its units; a leader or support unit that is attached appears only inside its
    bodyguard's :attr:`Unit.attached`."""
    points: int | None = None
    """Total points as the army list gives them (``None``: not given)."""
    battle_size: str | None = None
    """``incursion``, ``strike_force`` or ``onslaught`` (docs/army-format.md "Points"), when
    the army file declares one."""

    @property
    def total_points(self) -> int | None:
        """The army's points: the given total, else the sum of every unit's (None when a
        unit has none)."""
        if self.points is not None:
            return self.points
        each = [c.points for u in self.units for c in u.components]
        return None if not each or any(p is None for p in each) else sum(
            p for p in each if p is not None)

    def unit(self, name: str) -> Unit:
        """The unit called ``name``, looking inside attached units too (KeyError if none)."""
        for u in self.units:
            for c in u.components:
                if name_key(c.name) == name_key(name):
                    return c
        raise KeyError(name)

    def unit_containing(self, name: str) -> Unit:
        """The (attached) unit that the component called ``name`` is part of."""
        for u in self.units:
            if any(name_key(c.name) == name_key(name) for c in u.components):
                return u
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class ArmyFile:
    """What one army/datasheet file holds: its datasheets (with those it includes) and, if it
    has an ``army`` section, the army."""

    source: str
    """The file it came from (as named in error messages)."""
    catalogue: Catalogue
    """Every datasheet the file defines or includes."""
    army: Army | None = None
    """The army, if the file has one."""
