"""Datasheet profiles (02.02, 02.04): typed, frozen, validated on construction.

``WeaponProfile.build(...)`` and ``ModelProfile.build(...)`` take datasheet values (``"D6+1"``,
``"3+"``, ``"Melee"``, ability strings) and raise :class:`DataError` naming the field and value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from w40k.core.abilities import (
    FeelNoPain,
    UnitAbility,
    WeaponAbility,
    parse_unit_ability,
    parse_weapon_ability,
)
from w40k.core.dice import DiceExpr
from w40k.core.errors import DataError, DiceError
from w40k.core.jsonval import JSON
from w40k.core.keywords import canonical_keyword, keyword_set
from w40k.core.transport import Capacity

_CHARACTER = canonical_keyword("CHARACTER")
"""The CHARACTER keyword's key, built once (``is_character`` is asked ~10k times a game)."""


def parse_target(value: object, field: str, *, lo: int = 2, hi: int = 7) -> int:
    """A dice target written ``3+``, ``"3"`` or ``3``, checked to lie in ``lo..hi``."""
    text = str(value).strip() if not isinstance(value, bool) else ""
    if text.endswith("+"):
        text = text[:-1]
    if not text.isdigit():
        raise DataError(f"expected a dice target such as 3+, got {value!r}", where=field)
    n = int(text)
    if not lo <= n <= hi:
        raise DataError(f"a dice target must be {lo}+ to {hi}+, got {value!r}", where=field)
    return n


def parse_int(value: object, field: str, *, lo: int | None = None, hi: int | None = None) -> int:
    """An integer characteristic checked against bounds."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise DataError(f"expected a whole number, got {value!r}", where=field)
    text = str(value).strip().rstrip('"')
    try:
        n = int(text)
    except ValueError:
        raise DataError(f"expected a whole number, got {value!r}", where=field) from None
    if lo is not None and n < lo:
        raise DataError(f"must be at least {lo}, got {value!r}", where=field)
    if hi is not None and n > hi:
        raise DataError(f"must be at most {hi}, got {value!r}", where=field)
    return n


def parse_dice(value: object, field: str, *, min_value: int = 0) -> DiceExpr:
    """A characteristic that may be random (A, D)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise DataError(f"expected a number or dice expression, got {value!r}", where=field)
    try:
        expr = DiceExpr.parse(value)
    except DiceError as exc:
        raise DataError(str(exc), where=field) from None
    if expr.min < min_value:
        raise DataError(f"must be at least {min_value}, got {value!r}", where=field)
    return expr


@dataclass(frozen=True, slots=True)
class WeaponProfile:
    """A weapon's characteristics (02.04); BS/WS belong to the weapon."""

    name: str
    """The weapon's name."""
    range: float | None
    """Range in inches; ``None`` for a melee weapon (R 'Melee')."""
    A: DiceExpr
    """Attacks (may be random: a 'roll to determine the number of attacks')."""
    skill: int
    """BS (ranged) or WS (melee) as the dice target, 3 for 3+."""
    S: int
    """Strength."""
    AP: int
    """Armour penetration, 0 or negative."""
    D: DiceExpr
    """Damage (may be random: a damage roll)."""
    abilities: tuple[WeaponAbility, ...] = ()
    """Weapon abilities (24), parsed."""

    @property
    def is_melee(self) -> bool:
        """02.04: R 'Melee' makes a melee weapon."""
        return self.range is None

    def abilities_of(self, family: type[WeaponAbility]) -> tuple[WeaponAbility, ...]:
        """Every instance of one ability family (several are duplicates, 24.02)."""
        return tuple([a for a in self.abilities if isinstance(a, family)])

    def to_json(self) -> dict[str, JSON]:
        """The weapon as a datasheet writes it (:meth:`from_json` gives it back exactly)."""
        return weapon_to_json(self)

    @staticmethod
    def from_json(d: Mapping[str, JSON]) -> WeaponProfile:
        """The inverse of :meth:`to_json` (validated; DataError names the field)."""
        return weapon_from_json(d)

    @staticmethod
    def build(
        name: str,
        *,
        range: object,
        A: object,
        skill: object,
        S: object,
        AP: object,
        D: object,
        abilities: Iterable[str] = (),
    ) -> WeaponProfile:
        """A validated weapon from datasheet values; DataError names the field."""
        where = f"weapon {name!r}"
        try:
            rng: float | None
            if isinstance(range, str) and range.strip().lower() == "melee":
                rng = None
            else:
                if isinstance(range, bool) or not isinstance(range, int | float | str):
                    raise DataError(f'expected inches or "Melee", got {range!r}', where="range")
                try:
                    rng = float(str(range).strip().rstrip('"'))
                except ValueError:
                    raise DataError(
                        f'expected inches or "Melee", got {range!r}', where="range"
                    ) from None
                if rng <= 0:
                    raise DataError(f"a range must be positive, got {range!r}", where="range")
            ap = parse_int(AP, "AP", hi=0)
            parsed: list[WeaponAbility] = []
            for i, text in enumerate(abilities):
                if not isinstance(text, str):
                    raise DataError(f"expected text, got {text!r}", where=f"abilities[{i}]")
                try:
                    parsed.append(parse_weapon_ability(text))
                except DataError as exc:
                    raise exc.at(f"abilities[{i}]") from None
            return WeaponProfile(
                name=name,
                range=rng,
                A=parse_dice(A, "A", min_value=1),
                skill=parse_target(skill, "skill", lo=2, hi=6),
                S=parse_int(S, "S", lo=1),
                AP=ap,
                D=parse_dice(D, "D", min_value=1),
                abilities=tuple(parsed),
            )
        except DataError as exc:
            raise exc.at(where) from None


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """A model's characteristics (02.02), keywords (02.05) and core abilities."""

    name: str
    """The model's name (``Boss Nob``)."""
    T: int
    """Toughness."""
    Sv: int
    """Save as a dice target (3 for 3+)."""
    W: int
    """Wounds."""
    M: int | None = 6
    """Move in inches; ``None`` for '-' (set up, never moved)."""
    Ld: int = 7
    """Leadership as a dice target (7 for 7+)."""
    OC: int | None = 1
    """Objective Control; ``None`` for '-'."""
    InSv: int | None = None
    """Invulnerable save as a dice target, if the model has one."""
    base_mm: float | tuple[float, float] | None = 32.0
    """Base diameter in mm, ``(w, h)`` for an oval, ``None`` for no base (FRAME)."""
    height: float = 1.5
    """Height in inches, for line of sight."""
    keywords: tuple[str, ...] = ()
    """Keywords as written (faction and other keywords together)."""
    abilities: tuple[UnitAbility, ...] = ()
    """Core abilities, parsed."""
    transport: Capacity | None = None
    """Its transport capacity (18.01), for a TRANSPORT model."""

    @property
    def keys(self) -> frozenset[str]:
        """Canonical keyword keys (02.05: singular and plural equivalent)."""
        return keyword_set(self.keywords)

    @property
    def is_character(self) -> bool:
        """Whether the model has the CHARACTER keyword."""
        return _CHARACTER in keyword_set(self.keywords)

    @property
    def fnp(self) -> int | None:
        """The best Feel No Pain X+ the model has (24.02: one instance applies)."""
        values = [a.threshold for a in self.abilities if isinstance(a, FeelNoPain)]
        return min(values) if values else None

    @staticmethod
    def build(
        name: str,
        *,
        T: object,
        Sv: object,
        W: object,
        M: object = 6,
        Ld: object = 7,
        OC: object = 1,
        InSv: object = None,
        base_mm: object = 32.0,
        height: object = 1.5,
        keywords: Sequence[str] = (),
        abilities: Sequence[str] = (),
        transport: object = None,
    ) -> ModelProfile:
        """A validated model profile from datasheet values; DataError names the field."""
        where = f"model {name!r}"
        try:
            base: float | tuple[float, float] | None
            if base_mm is None:
                base = None
            elif isinstance(base_mm, int | float) and not isinstance(base_mm, bool):
                if base_mm <= 0:
                    raise DataError(f"must be positive, got {base_mm!r}", where="base_mm")
                base = float(base_mm)
            elif (
                isinstance(base_mm, list | tuple)
                and len(base_mm) == 2
                and all(
                    isinstance(v, int | float) and not isinstance(v, bool) and v > 0
                    for v in base_mm
                )
            ):
                base = (float(base_mm[0]), float(base_mm[1]))
            else:
                raise DataError(
                    f"expected a diameter in mm or [w, h], got {base_mm!r}", where="base_mm"
                )
            if isinstance(height, bool) or not isinstance(height, int | float) or height <= 0:
                raise DataError(
                    f"expected a positive number of inches, got {height!r}", where="height"
                )
            kws = []
            for i, k in enumerate(keywords):
                if not isinstance(k, str) or not k.strip():
                    raise DataError(f"expected a keyword, got {k!r}", where=f"keywords[{i}]")
                kws.append(k.strip().upper())
            parsed: list[UnitAbility] = []
            for i, text in enumerate(abilities):
                if not isinstance(text, str):
                    raise DataError(f"expected text, got {text!r}", where=f"abilities[{i}]")
                try:
                    parsed.append(parse_unit_ability(text))
                except DataError as exc:
                    raise exc.at(f"abilities[{i}]") from None
            move = None if M in (None, "-") else parse_int(M, "M", lo=0)
            oc = None if OC in (None, "-") else parse_int(OC, "OC", lo=0)
            return ModelProfile(
                name=name,
                T=parse_int(T, "T", lo=1),
                Sv=parse_target(Sv, "Sv", lo=2, hi=7),
                W=parse_int(W, "W", lo=1),
                M=move,
                Ld=parse_target(Ld, "Ld", lo=2, hi=12),
                OC=oc,
                InSv=None if InSv is None else parse_target(InSv, "InSv", lo=2, hi=6),
                base_mm=base,
                height=float(height),
                keywords=tuple(kws),
                abilities=tuple(parsed),
                transport=None if transport is None else Capacity.from_json(transport),
            )
        except DataError as exc:
            raise exc.at(where) from None


def weapon_to_json(w: WeaponProfile) -> dict[str, JSON]:
    """A weapon as a datasheet writes it: the canonical JSON form of a weapon profile."""
    return {"name": w.name, "range": "Melee" if w.range is None else w.range, "A": str(w.A),
            "skill": w.skill, "S": w.S, "AP": w.AP, "D": str(w.D),
            "abilities": [str(a) for a in w.abilities]}


def weapon_from_json(d: Mapping[str, JSON]) -> WeaponProfile:
    """The inverse of :func:`weapon_to_json`, validated by :meth:`WeaponProfile.build`."""
    if not isinstance(d, Mapping) or "name" not in d:
        raise DataError(f"expected a weapon object with a name, got {d!r}", where="weapon")
    missing = [k for k in ("range", "A", "skill", "S", "D") if k not in d]
    if missing:
        raise DataError(f"missing {', '.join(missing)}", where=f"weapon {d['name']!r}")
    abilities = d.get("abilities", [])
    if not isinstance(abilities, list):
        raise DataError(f"expected a list, got {abilities!r}",
                        where=f"weapon {d['name']!r}: abilities")
    return WeaponProfile.build(
        str(d["name"]), range=d["range"], A=d["A"], skill=d["skill"], S=d["S"],
        AP=d.get("AP", 0), D=d["D"], abilities=[cast(str, a) for a in abilities])
