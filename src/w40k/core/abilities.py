"""Weapon abilities (24, in square brackets) and unit core abilities, parsed once into typed data.

``parse_weapon_ability("SUSTAINED HITS 1: INFANTRY/BEASTS")`` gives
``SustainedHits(x=1, only_vs=("INFANTRY", "BEASTS"))``. Rules code reads these values at the
step of the attack sequence they belong to; nothing re-reads the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from w40k.core.dice import DiceExpr
from w40k.core.errors import DataError, DiceError
from w40k.core.keywords import has_any_keyword


@dataclass(frozen=True, slots=True)
class WeaponAbility:
    """Base of every weapon ability."""

    only_vs: tuple[str, ...] = ()
    """24.01: keywords after a colon; the ability applies only against a target unit that has
    one of them (empty: always)."""

    @property
    def family(self) -> str:
        """The ability's name without numbers or keywords: instances of one family are
        duplicates of each other (24.02)."""
        return type(self).__name__

    def applies_to(self, target_keywords: frozenset[str]) -> bool:
        """Whether this instance applies against a unit with these (canonical) keywords."""
        return not self.only_vs or has_any_keyword(target_keywords, self.only_vs)

    def _suffix(self) -> str:
        return f": {'/'.join(self.only_vs)}" if self.only_vs else ""


@dataclass(frozen=True, slots=True)
class Anti(WeaponAbility):
    """[ANTI-X Y+] (24.03): vs a unit with keyword X an unmodified wound roll of Y+ is critical."""

    keyword: str = ""
    """The keyword X."""
    threshold: int = 6
    """Y: unmodified wound rolls of Y+ are critical wounds."""

    def __str__(self) -> str:
        return f"ANTI-{self.keyword} {self.threshold}+{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Assault(WeaponAbility):
    """[ASSAULT] (24.04): allows assault shooting."""

    def __str__(self) -> str:
        return f"ASSAULT{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Blast(WeaponAbility):
    """[BLAST] / [BLAST X] (24.05): X more attack dice per 5 models in the target."""

    x: int = 1
    """Extra dice per full five models (1 for plain [BLAST])."""

    def __str__(self) -> str:
        return f"BLAST{'' if self.x == 1 else f' {self.x}'}{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Cleave(WeaponAbility):
    """[CLEAVE X] (24.06): X more attack dice per 5 models if all attacks go to one target."""

    x: int = 1
    """Extra dice per full five models."""

    def __str__(self) -> str:
        return f"CLEAVE {self.x}{self._suffix()}"


@dataclass(frozen=True, slots=True)
class CloseQuarters(WeaponAbility):
    """[CLOSE-QUARTERS] and its synonym [PISTOL] (24.07, 24.27)."""

    pistol: bool = False
    """Whether the datasheet wrote it as [PISTOL] (identical for all rules purposes)."""

    def __str__(self) -> str:
        return ("PISTOL" if self.pistol else "CLOSE-QUARTERS") + self._suffix()


@dataclass(frozen=True, slots=True)
class DevastatingWounds(WeaponAbility):
    """[DEVASTATING WOUNDS] (24.10): a critical wound ends the attack and inflicts D mortal
    wounds, which can damage at most one model."""

    def __str__(self) -> str:
        return f"DEVASTATING WOUNDS{self._suffix()}"


@dataclass(frozen=True, slots=True)
class ExtraAttacks(WeaponAbility):
    """[EXTRA ATTACKS] (24.11): used in addition to the model's other melee weapon."""

    def __str__(self) -> str:
        return f"EXTRA ATTACKS{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Hazardous(WeaponAbility):
    """[HAZARDOUS] (24.15): one hazard roll per weapon selected, after all attacks."""

    def __str__(self) -> str:
        return f"HAZARDOUS{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Heavy(WeaponAbility):
    """[HEAVY] (24.16): +1 to hit in your Shooting phase if the unit stayed (<=3") and is
    unengaged and was not set up this turn."""

    def __str__(self) -> str:
        return f"HEAVY{self._suffix()}"


@dataclass(frozen=True, slots=True)
class IgnoresCover(WeaponAbility):
    """[IGNORES COVER] (24.18): the target cannot have the benefit of cover."""

    def __str__(self) -> str:
        return f"IGNORES COVER{self._suffix()}"


@dataclass(frozen=True, slots=True)
class IndirectFire(WeaponAbility):
    """[INDIRECT FIRE] (24.19): allows indirect shooting."""

    def __str__(self) -> str:
        return f"INDIRECT FIRE{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Lance(WeaponAbility):
    """[LANCE] (24.21): +1 to the wound roll if the attacker's unit charged this turn."""

    def __str__(self) -> str:
        return f"LANCE{self._suffix()}"


@dataclass(frozen=True, slots=True)
class LethalHits(WeaponAbility):
    """[LETHAL HITS] (24.23): a critical hit may automatically wound."""

    def __str__(self) -> str:
        return f"LETHAL HITS{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Melta(WeaponAbility):
    """[MELTA X] (24.25): +X to D if the target was within half range at Select Targets."""

    x: int = 1
    """Added to the D characteristic."""

    def __str__(self) -> str:
        return f"MELTA {self.x}{self._suffix()}"


@dataclass(frozen=True, slots=True)
class OneShot(WeaponAbility):
    """[ONE SHOT] (24.26): selected at most once per battle."""

    def __str__(self) -> str:
        return f"ONE SHOT{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Precision(WeaponAbility):
    """[PRECISION] (24.28): the attacker may make a visible CHARACTER's group current."""

    def __str__(self) -> str:
        return f"PRECISION{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Psychic(WeaponAbility):
    """[PSYCHIC] (24.29): may ignore modifiers to BS/WS and to the hit roll."""

    def __str__(self) -> str:
        return f"PSYCHIC{self._suffix()}"


@dataclass(frozen=True, slots=True)
class RapidFire(WeaponAbility):
    """[RAPID FIRE X] (24.30): X more attack dice at half range."""

    x: int = 1
    """Extra attack dice."""

    def __str__(self) -> str:
        return f"RAPID FIRE {self.x}{self._suffix()}"


@dataclass(frozen=True, slots=True)
class SustainedHits(WeaponAbility):
    """[SUSTAINED HITS X] (24.36): a critical hit scores X additional hits."""

    x: int = 1
    """Additional hits per critical hit."""

    def __str__(self) -> str:
        return f"SUSTAINED HITS {self.x}{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Torrent(WeaponAbility):
    """[TORRENT] (24.37): every attack hits automatically (no hit roll, no critical hit)."""

    def __str__(self) -> str:
        return f"TORRENT{self._suffix()}"


@dataclass(frozen=True, slots=True)
class TwinLinked(WeaponAbility):
    """[TWIN-LINKED] (24.38): the wound roll may be re-rolled."""

    def __str__(self) -> str:
        return f"TWIN-LINKED{self._suffix()}"


_PLAIN_WEAPON: dict[str, type[WeaponAbility]] = {
    "ASSAULT": Assault,
    "BLAST": Blast,
    "CLOSE-QUARTERS": CloseQuarters,
    "DEVASTATING WOUNDS": DevastatingWounds,
    "EXTRA ATTACKS": ExtraAttacks,
    "HAZARDOUS": Hazardous,
    "HEAVY": Heavy,
    "IGNORES COVER": IgnoresCover,
    "INDIRECT FIRE": IndirectFire,
    "LANCE": Lance,
    "LETHAL HITS": LethalHits,
    "ONE SHOT": OneShot,
    "PRECISION": Precision,
    "PSYCHIC": Psychic,
    "TORRENT": Torrent,
    "TWIN-LINKED": TwinLinked,
}
_NUMBERED_WEAPON: dict[str, type[Blast | Cleave | Melta | RapidFire | SustainedHits]] = {
    "BLAST": Blast,
    "CLEAVE": Cleave,
    "MELTA": Melta,
    "RAPID FIRE": RapidFire,
    "SUSTAINED HITS": SustainedHits,
}
_ANTI = re.compile(r"^ANTI-([A-Z][A-Z0-9' -]*?)\s+([2-6])\+$")
_NUMBERED = re.compile(r"^([A-Z][A-Z -]*?)\s+(\d+)$")

WEAPON_ABILITY_NAMES = (
    "ANTI-X Y+",
    *sorted({*_PLAIN_WEAPON, *_NUMBERED_WEAPON, "PISTOL"} - {"BLAST"}),
    "BLAST",
    "BLAST X",
)
"""The forms the parser accepts (for error messages and documentation)."""


def parse_weapon_ability(text: str) -> WeaponAbility:
    """Parse one weapon ability as a datasheet writes it (brackets optional).

    Raises DataError naming the text when it is not a section-24 weapon ability.
    """
    raw = " ".join(text.strip().strip("[]").upper().split())
    body, colon, restrict = raw.partition(":")
    body = body.strip()
    only_vs: tuple[str, ...] = ()
    if colon:
        # 24.01: a colon introduces the keywords the ability is restricted to.
        only_vs = tuple(k.strip() for k in restrict.split("/") if k.strip())
        if not only_vs:
            raise DataError(f"unknown weapon ability {text!r}: no keyword after ':'")
    if body == "PISTOL":
        return CloseQuarters(only_vs=only_vs, pistol=True)
    if body in _PLAIN_WEAPON:
        return _PLAIN_WEAPON[body](only_vs=only_vs)
    m = _ANTI.match(body)
    if m:
        return Anti(only_vs=only_vs, keyword=m.group(1).strip(), threshold=int(m.group(2)))
    m = _NUMBERED.match(body)
    if m and m.group(1) in _NUMBERED_WEAPON:
        x = int(m.group(2))
        if x < 1:
            raise DataError(f"weapon ability {text!r}: X must be at least 1")
        return _NUMBERED_WEAPON[m.group(1)](only_vs=only_vs, x=x)
    raise DataError(f"unknown weapon ability {text!r} (known: {', '.join(WEAPON_ABILITY_NAMES)})")


# ---------------------------------------------------------------------------------------------
# Unit (core) abilities


@dataclass(frozen=True, slots=True)
class UnitAbility:
    """Base of every core ability a datasheet lists for its models."""

    @property
    def family(self) -> str:
        """Instances of one family are duplicates (24.02)."""
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class FeelNoPain(UnitAbility):
    """Feel No Pain X+ (24.12): roll a D6 each time a wound would be lost; X+ keeps it."""

    threshold: int = 6
    """X."""

    def __str__(self) -> str:
        return f"Feel No Pain {self.threshold}+"


@dataclass(frozen=True, slots=True)
class Stealth(UnitAbility):
    """Stealth (24.33): if every model has it, benefit of cover against ranged attacks."""

    def __str__(self) -> str:
        return "Stealth"


@dataclass(frozen=True, slots=True)
class LoneOperative(UnitAbility):
    """Lone Operative [X"] (24.24): unless attached, not visible beyond X" (default 12")."""

    distance: float = 12.0
    """X in inches."""

    def __str__(self) -> str:
        return "Lone Operative" if self.distance == 12.0 else f'Lone Operative {self.distance:g}"'


@dataclass(frozen=True, slots=True)
class DeadlyDemise(UnitAbility):
    """Deadly Demise X (24.08): on a 6 when destroyed, X mortal wounds to each unit within 6"."""

    x: DiceExpr = DiceExpr.fixed(1)
    """Mortal wounds inflicted (may be random, rolled per unit)."""

    def __str__(self) -> str:
        return f"Deadly Demise {self.x}"


@dataclass(frozen=True, slots=True)
class FightsFirst(UnitAbility):
    """Fights First (24.13): a Fights First unit if every model has it."""

    def __str__(self) -> str:
        return "Fights First"


@dataclass(frozen=True, slots=True)
class Leader(UnitAbility):
    """Leader (24.22): may lead a bodyguard unit (19)."""

    def __str__(self) -> str:
        return "Leader"


@dataclass(frozen=True, slots=True)
class Support(UnitAbility):
    """Support (24.34): may support a bodyguard unit (19)."""

    def __str__(self) -> str:
        return "Support"


@dataclass(frozen=True, slots=True)
class Scouts(UnitAbility):
    """Scouts X" (24.31)."""

    distance: float = 6.0
    """X in inches."""

    def __str__(self) -> str:
        return f'Scouts {self.distance:g}"'


@dataclass(frozen=True, slots=True)
class Infiltrators(UnitAbility):
    """Infiltrators (24.20)."""

    def __str__(self) -> str:
        return "Infiltrators"


@dataclass(frozen=True, slots=True)
class DeepStrike(UnitAbility):
    """Deep Strike (24.09)."""

    def __str__(self) -> str:
        return "Deep Strike"


@dataclass(frozen=True, slots=True)
class FiringDeck(UnitAbility):
    """Firing Deck X (24.14)."""

    x: int = 1
    """Embarked models that may lend a weapon."""

    def __str__(self) -> str:
        return f"Firing Deck {self.x}"


@dataclass(frozen=True, slots=True)
class Hover(UnitAbility):
    """Hover (24.17)."""

    def __str__(self) -> str:
        return "Hover"


@dataclass(frozen=True, slots=True)
class SuperHeavyWalker(UnitAbility):
    """Super-heavy Walker (24.35)."""

    def __str__(self) -> str:
        return "Super-heavy Walker"


_PLAIN_UNIT: dict[str, UnitAbility] = {
    "STEALTH": Stealth(),
    "LONE OPERATIVE": LoneOperative(),
    "FIGHTS FIRST": FightsFirst(),
    "LEADER": Leader(),
    "SUPPORT": Support(),
    "INFILTRATORS": Infiltrators(),
    "DEEP STRIKE": DeepStrike(),
    "HOVER": Hover(),
    "SUPER-HEAVY WALKER": SuperHeavyWalker(),
}
_FNP = re.compile(r"^FEEL NO PAIN\s+([2-6])\+$")
_DISTANCE = re.compile(r"^(LONE OPERATIVE|SCOUTS)\s+(\d+(?:\.\d+)?)\s*(?:\"|''|INCHES|IN)?$")
_DEADLY = re.compile(r"^DEADLY DEMISE\s+(\S+)$")
_FIRING = re.compile(r"^FIRING DECK\s+(\d+)$")

UNIT_ABILITY_NAMES = (
    "Feel No Pain X+",
    "Stealth",
    "Lone Operative",
    'Lone Operative X"',
    "Deadly Demise X",
    "Fights First",
    "Leader",
    "Support",
    'Scouts X"',
    "Infiltrators",
    "Deep Strike",
    "Firing Deck X",
    "Hover",
    "Super-heavy Walker",
)
"""The core abilities the parser accepts."""


def parse_unit_ability(text: str) -> UnitAbility:
    """Parse one core ability as a datasheet writes it (``Feel No Pain 5+``, ``Scouts 6"``).

    Raises DataError naming the text when it is not a core ability.
    """
    raw = " ".join(text.strip().upper().replace("\u201d", '"').replace("\u2033", '"').split())
    if raw in _PLAIN_UNIT:
        return _PLAIN_UNIT[raw]
    if m := _FNP.match(raw):
        return FeelNoPain(int(m.group(1)))
    if m := _DISTANCE.match(raw):
        dist = float(m.group(2))
        return LoneOperative(dist) if m.group(1) == "LONE OPERATIVE" else Scouts(dist)
    if m := _DEADLY.match(raw):
        try:
            return DeadlyDemise(DiceExpr.parse(m.group(1)))
        except DiceError as exc:
            raise DataError(f"ability {text!r}: {exc}") from None
    if m := _FIRING.match(raw):
        return FiringDeck(int(m.group(1)))
    raise DataError(f"unknown ability {text!r} (known: {', '.join(UNIT_ABILITY_NAMES)})")
