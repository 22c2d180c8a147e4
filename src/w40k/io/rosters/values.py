"""Reading the characteristics rosters write (``6"``, ``3+``, ``-1``, ``D6+1``, ``N/A``).

Each reader returns the value or ``None`` when the roster gives none, and appends a warning to
``notes`` when it reads something odd but usable (AP written without its sign).
"""

from __future__ import annotations

import re

from w40k.core.abilities import parse_unit_ability, parse_weapon_ability
from w40k.core.errors import DataError
from w40k.io.rosters.model import Inches

_BLANK = {"", "-", "\u2013", "\u2014", "n/a", "na", "none", "*"}
_NUMBER = re.compile(r"^(\d+(?:\.\d+)?)")
_TARGET = re.compile(r"^(\d+)\s*\+?\s*\*?$")


def clean(value: str | None) -> str:
    """Whitespace collapsed, non-breaking spaces and typographic inch marks normalised."""
    if value is None:
        return ""
    text = value.replace("\u00a0", " ").replace("\u201d", '"').replace("\u2033", '"')
    return " ".join(text.split())


def is_blank(value: str | None) -> bool:
    """Whether the roster gives nothing (empty, ``-``, ``N/A``)."""
    return clean(value).lower() in _BLANK


def inches(value: str | None, field: str, notes: list[str]) -> Inches | None:
    """``6"`` -> 6, ``12.5"`` -> 12.5; ``None`` when blank."""
    text = clean(value)
    if is_blank(text):
        return None
    m = _NUMBER.match(text)
    if not m:
        notes.append(f"{field}: cannot read {text!r} as inches")
        return None
    rest = text[m.end():].strip().strip('"').strip()
    if rest:
        notes.append(f"{field}: read {text!r} as {m.group(1)}\"")
    n = float(m.group(1))
    return int(n) if n.is_integer() else n


def move(value: str | None, field: str, notes: list[str]) -> Inches | str | None:
    """M: inches, or ``"-"`` (never moves); ``None`` when the roster gives nothing."""
    text = clean(value)
    if text in {"-", "\u2013", "\u2014"}:
        return "-"
    return inches(text, field, notes)


def weapon_range(value: str | None, field: str, notes: list[str]) -> Inches | str | None:
    """Range: inches or ``"Melee"``."""
    text = clean(value)
    if text.lower() == "melee":
        return "Melee"
    return inches(text, field, notes)


def target(value: str | None, field: str, notes: list[str]) -> int | None:
    """A dice target (``3+`` -> 3, ``7`` -> 7); ``None`` when blank."""
    text = clean(value)
    if is_blank(text):
        return None
    m = _TARGET.match(text)
    if not m:
        notes.append(f"{field}: cannot read {text!r} as a dice target")
        return None
    return int(m.group(1))


def whole(value: str | None, field: str, notes: list[str]) -> int | None:
    """A whole number (T, W, S); ``None`` when blank."""
    text = clean(value).rstrip('"')
    if is_blank(text):
        return None
    try:
        return int(text)
    except ValueError:
        notes.append(f"{field}: cannot read {text!r} as a whole number")
        return None


def control(value: str | None, field: str, notes: list[str]) -> int | str | None:
    """OC: a whole number or ``"-"``."""
    text = clean(value)
    if text in {"-", "\u2013", "\u2014"}:
        return "-"
    return whole(text, field, notes)


def armour_penetration(value: str | None, field: str, notes: list[str]) -> int | None:
    """AP: ``-1`` -> -1, ``0`` -> 0; ``4`` (sign left out, seen in real exports) -> -4 with a
    warning."""
    text = clean(value).replace("\u2212", "-")
    if is_blank(text):
        return None
    try:
        n = int(text)
    except ValueError:
        notes.append(f"{field}: cannot read {text!r} as AP")
        return None
    if n > 0:
        notes.append(f"{field}: AP {text!r} has no sign, read as -{n}")
        return -n
    return n


def dice(value: str | None) -> str | None:
    """A number or dice expression as text (``"D6+1"``); ``None`` when blank."""
    text = clean(value).replace(" ", "")
    return None if is_blank(text) else text


def weapon_keywords(value: str | None) -> tuple[str, ...]:
    """A weapon's Keywords cell (``Rapid Fire 2, Anti-Vehicle 4+``) as separate keywords."""
    text = clean(value)
    if is_blank(text):
        return ()
    return tuple(k.strip() for k in text.split(",") if not is_blank(k))


def weapon_ability_known(text: str) -> bool:
    """Whether the engine implements this weapon keyword (24.03-24.38). A negated restriction
    ("LETHAL HITS: non-MONSTER/VEHICLE", seen in real exports) is not a 24.01 keyword list:
    read literally it would apply against exactly the units it excludes, so it stays text."""
    _, colon, restrict = text.partition(":")
    if colon and re.search(r"\bnon[- ]|\bexcept\b|\bnot\b", restrict, re.IGNORECASE):
        return False
    try:
        parse_weapon_ability(text)
    except DataError:
        return False
    return True


_INV = re.compile(r"([2-6])\s*\+\s*(\*?)")
_INV_CONDITION = re.compile(r"\*|ranged|melee|mortal|psychic|against|while|if |each time",
                            re.IGNORECASE)
_FNP = re.compile(r"feel no pain\s*\(?\s*([2-6])\s*\+\s*\)?\s*(\*?)", re.IGNORECASE)


def is_invulnerable(name: str) -> bool:
    """Whether an ability is an invulnerable save (``Invulnerable Save``, ``Invulnerable Save
    (5+)``, ``Invulnerable save 4+*``)."""
    return clean(name).lower().startswith("invulnerable save")


def invulnerable(name: str, text: str) -> tuple[int | None, bool]:
    """(the save, whether it is conditional) from an invulnerable-save ability's name and text:
    ``Invulnerable Save (5+)``, ``Invulnerable Save`` with "This model has a 4+ invulnerable
    save.", "Models in this unit have a 5+ ...", a bare "4+", ``(5+*)`` / "against ranged
    attacks" (conditional)."""
    name_c, text_c = clean(name), clean(text)
    for source in (name_c, text_c):
        m = _INV.search(source)
        if m:
            rest = name_c[len("invulnerable save"):] + " " + text_c
            # A condition anywhere in the text ("against ranged attacks only", "*") makes it an
            # invulnerable save the engine cannot apply unconditionally.
            conditional = bool(m.group(2)) or bool(_INV_CONDITION.search(
                rest.replace(m.group(0), " ").replace("invulnerable save", " ")))
            return int(m.group(1)), conditional
    return None, False


def feel_no_pain(name: str, text: str) -> tuple[int | None, bool]:
    """(X, conditional) for ``Feel No Pain 5+``, or a ``Feel No Pain`` ability whose text is a
    bare ``5+``; conditional when restricted (``*``, "against mortal wounds")."""
    name_c, text_c = clean(name), clean(text)
    if not name_c.lower().startswith("feel no pain"):
        return None, False
    m = _FNP.search(name_c)
    if m is None and re.fullmatch(r"[2-6]\+\*?", text_c):
        m = _FNP.search(f"feel no pain {text_c}")
    if m is None:
        return None, False
    rest = name_c[m.end():]
    conditional = bool(m.group(2)) or bool(rest.strip())
    return int(m.group(1)), conditional


def core_ability(name: str) -> str | None:
    """The core ability the engine reads a roster ability name as (``Deep Strike``,
    ``Scouts 6"``), else ``None``."""
    try:
        return str(parse_unit_ability(clean(name)))
    except DataError:
        return None
