"""A roster as its file gives it: the faithful record that every reader produces.

Values are kept as the roster writes them once parsed (``3`` for ``3+``, ``"D6+1"`` for a dice
expression, ``None`` when the roster gives nothing). ``w40k army`` prints this record;
:mod:`w40k.io.rosters.to_army` turns it into the engine's :class:`~w40k.io.army_model.Army`,
refusing (with a located error) what the engine cannot play.
"""

from __future__ import annotations

from dataclasses import dataclass

Inches = int | float
"""A distance in inches."""


@dataclass(frozen=True, slots=True)
class RosterAbility:
    """One ability as the roster names it, with its text and, when the engine implements it,
    the core-ability text it was read as (``Feel No Pain 5+``)."""

    name: str
    """The roster's own name (``Oath of Moment``, ``Invulnerable Save``)."""
    text: str = ""
    """Its rules text, when the roster has one."""
    applied: str | None = None
    """What the engine applies: a core ability (``Deep Strike``, ``Feel No Pain 5+``) or
    ``InSv 4+``; ``None``: kept as text only (listed in ``not_applied``)."""


@dataclass(frozen=True, slots=True)
class RosterWeapon:
    """One weapon profile (02.04) of a model group."""

    name: str
    """The profile's name (``Kannon - frag``; a leading ``➤`` is dropped)."""
    range: Inches | str | None
    """Inches, ``"Melee"``, or ``None`` when the roster gives none."""
    A: str | None
    """Attacks as written (``"2"``, ``"D6+1"``)."""
    skill: int | None
    """BS or WS, the number before the ``+``; ``None`` for ``N/A`` or a missing value."""
    S: int | None
    """Strength."""
    AP: int | None
    """Armour penetration, 0 or negative."""
    D: str | None
    """Damage as written."""
    abilities: tuple[str, ...] = ()
    """Weapon keywords as written (``Rapid Fire 2``, ``Bubblechukka``)."""
    count: int = 1
    """How many of this weapon the model group carries in all (the roster's total, not per
    model)."""
    group: str = ""
    """The wargear this profile belongs to: profiles of one multi-profile weapon share it."""


@dataclass(frozen=True, slots=True)
class RosterModel:
    """A group of identical models (same profile and wargear line) in a unit."""

    name: str
    """The roster's name for the model line (``Khorne Berzerker Champion``)."""
    count: int
    """How many such models."""
    M: Inches | str | None = None
    """Move in inches, ``"-"``, or ``None``."""
    T: int | None = None
    """Toughness."""
    Sv: int | None = None
    """Save, the number before the ``+``."""
    InSv: int | None = None
    """Invulnerable save, the number before the ``+``; ``None`` if none (or not one the engine
    applies: a conditional one is listed in ``not_applied``)."""
    W: int | None = None
    """Wounds."""
    Ld: int | None = None
    """Leadership, the number before the ``+``."""
    OC: int | str | None = None
    """Objective Control, or ``"-"``."""
    keywords: tuple[str, ...] = ()
    """Keywords, faction keywords included (``Infantry``, ``Orks``), as written."""
    abilities: tuple[RosterAbility, ...] = ()
    """Every ability of the model: the unit's and its own."""
    weapons: tuple[RosterWeapon, ...] = ()
    """Its weapons, every profile of a multi-profile weapon listed."""
    profile: str = ""
    """The name of the stat line the roster gives these models (may differ from ``name``)."""
    base_mm: float | tuple[float, float] | None = None
    """Base size when the source gives one (datasheet files do, rosters do not)."""
    height: float | None = None
    """Height in inches when the source gives one."""


@dataclass(frozen=True, slots=True)
class RosterUnit:
    """A unit as listed in the roster."""

    name: str
    """The roster's own name."""
    points: int | None
    """Its points (the unit's cost and every cost under it), ``None`` when the roster has none."""
    models: tuple[RosterModel, ...]
    """Its model groups."""
    leader_of: str | None = None
    """The name of the unit it is attached to as leader or support (19.01)."""
    embarked_in: str | None = None
    """The name of the transport it starts embarked in, when the roster says so."""
    not_applied: tuple[str, ...] = ()
    """Abilities and weapon keywords the engine does not implement, as text."""
    role: str = ""
    """``leader`` or ``support`` when the roster says how it is attached."""
    datasheet: str = ""
    """The datasheet it was matched to (text exports), else its own name."""
    warnings: tuple[str, ...] = ()
    """What the reader noticed but imported anyway."""


@dataclass(frozen=True, slots=True)
class Roster:
    """A roster read from a file."""

    source: str
    """The file, as named in messages."""
    format: str
    """``ros``, ``rosz``, ``newrecruit-json``, ``app-text``, ``newrecruit-text`` or ``army``."""
    name: str
    """The list's name."""
    faction: str
    """The faction as the roster writes it (``Orks``)."""
    points: int | None
    """Total points (the roster's total, else the sum of the units')."""
    units: tuple[RosterUnit, ...]
    """Units in roster order."""
    army_rules: tuple[str, ...] = ()
    """Army and detachment rules (kept as text, not applied)."""
    warnings: tuple[str, ...] = ()
    """What the reader noticed about the roster as a whole."""
