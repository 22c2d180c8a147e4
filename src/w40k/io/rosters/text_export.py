"""Plain-text exports of the official app and New Recruit, read into unit entries.

Both dialects come down to: a header (list name, faction, detachment, battle size), section
lines (``CHARACTERS``, ``## Battleline``, ``++ ... ++``), unit lines with points
(``Name (95 Points)``, ``Name (95 pts)``, ``Name [95pts]``, mangled ``Name95 Points``, an
optional ``10x`` model count and inline ``: wargear, ...``), and bullet lines under a unit
(``•`` models or wargear, ``◦`` wargear of the model line above, ``Enhancements: X``,
``Warlord``, ``Attached as: Leader (Character)``, ``Embarked in: Rhino``). Attachments are read
from "Attached unit N" blocks and from ``Leading X`` / ``Attached to: X`` / ``Led by: X``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from w40k.core.errors import DataError
from w40k.io.rosters import values as v

_PTS = r"(?P<pts>\d[\d,.\s]*?)\s*(?:Points|points|POINTS|pts|Pts|PTS|Punkte|Points de)"
_UNIT = re.compile(
    r"^(?:(?:Char|HQ|Troops?|Elites?|Fast|Heavy|DT|Flyer|Fort|Lord|Unit)\d*\s*:\s*)?"
    r"(?:(?P<n>\d+)\s*x\s+)?(?P<name>.+?)\s*"
    r"(?:\(\s*" + _PTS + r"\s*\)|\[\s*" + _PTS.replace("?P<pts>", "?P<pts2>") + r"\s*\]|"
    r"(?<=\D)" + _PTS.replace("?P<pts>", "?P<pts3>") + r")"
    r"\s*(?::\s*(?P<gear>.*))?$")
_BULLET = re.compile(r"^(?P<indent>\s*)(?P<mark>[•◦▪‣∙·*\-]|\+(?!\+))\s*(?P<body>.*)$")
_COUNT = re.compile(r"^(?P<n>\d+)\s*x\s*(?P<name>.+)$", re.IGNORECASE)
_SECTION = re.compile(r"^(?:#+\s*.*|\+\+.*|[^a-z\d]*[A-Z][^a-z\d]*)$")
_ATTACHED_BLOCK = re.compile(r"^(?:attached unit|unité)\s*\d+(?:\s*attachée)?\s*:?$",
                             re.IGNORECASE)
_LINK = re.compile(r"\b(leading|attached to|led by|supported by)\s*:?\s*(?P<target>[^,;]+)",
                   re.IGNORECASE)
_ROLE = re.compile(r"^(?:attached as|attachée? en tant que)\s*:?\s*(?P<role>[^(]*)",
                   re.IGNORECASE)
_EMBARK = re.compile(r"^(?:embarked in|embarked on|assigned transport|transport)\s*:\s*"
                     r"(?P<target>.+)$", re.IGNORECASE)
_ENH = re.compile(r"^(?:enhancements?|optimisation)\s*:\s*(?P<name>.+)$", re.IGNORECASE)
_BATTLE_SIZES = {"incursion", "strike force", "onslaught", "combat patrol", "force de frappe"}


@dataclass(slots=True)
class TextItem:
    """A bullet: ``count`` x ``name``, with the wargear lines nested under it."""

    name: str
    count: int
    children: list[TextItem] = field(default_factory=list)
    line: int = 0


@dataclass(slots=True)
class TextUnit:
    """A unit line and what its bullets say."""

    name: str
    points: int | None
    line: int
    count: int | None = None
    items: list[TextItem] = field(default_factory=list)
    enhancements: list[str] = field(default_factory=list)
    role: str = ""
    block: int = 0
    links: list[tuple[str, str]] = field(default_factory=list)
    embarked_in: str | None = None
    warlord: bool = False


@dataclass(slots=True)
class TextList:
    """A parsed text export."""

    name: str = ""
    faction: str = ""
    points: int | None = None
    units: list[TextUnit] = field(default_factory=list)
    header: list[str] = field(default_factory=list)


def _points(m: re.Match[str]) -> int | None:
    raw = m.group("pts") or m.group("pts2") or m.group("pts3") or ""
    digits = re.sub(r"[,.\s]", "", raw)
    return int(digits) if digits.isdigit() else None


def _items(text: str) -> list[TextItem]:
    """``2x Bolt pistol, Chainsword`` as items."""
    out = []
    for part in text.split(","):
        part = v.clean(part)
        if not part or _LINK.match(part):
            continue
        m = _COUNT.match(part)
        out.append(TextItem(v.clean(m.group("name")), int(m.group("n"))) if m
                   else TextItem(part, 1))
    return out


def _unit_body(unit: TextUnit, body: str, depth: int, line: int) -> None:
    body = v.clean(body)
    if not body:
        return
    for link in _LINK.finditer(body):
        unit.links.append((link.group(1).lower(), v.clean(link.group("target"))))
    if _LINK.match(body):
        return
    if m := _ROLE.match(body):
        unit.role = m.group("role").strip().lower()
        return
    if m := _EMBARK.match(body):
        unit.embarked_in = v.clean(m.group("target"))
        return
    if m := _ENH.match(body):
        unit.enhancements.append(v.clean(m.group("name")))
        return
    if body.lower() in {"warlord", "seigneur de guerre"}:
        unit.warlord = True
        return
    head, colon, inline = body.partition(":")
    m = _COUNT.match(v.clean(head if colon else body))
    item = (TextItem(v.clean(m.group("name")), int(m.group("n")), line=line) if m
            else TextItem(v.clean(head if colon else body), 1, line=line))
    if colon:
        item.children = _items(inline)
    if depth > 0 and unit.items:
        unit.items[-1].children.append(item)
    else:
        unit.items.append(item)


def parse_text(text: str, where: str) -> TextList:
    """The units, header and total of a text export."""
    out = TextList()
    lines = [v.clean(x) if not _BULLET.match(x) else x.replace("\u00a0", " ").rstrip()
             for x in text.splitlines()]
    unit: TextUnit | None = None
    seen_section = False
    block = 0
    in_attached = False
    bullet_indent: int | None = None
    for i, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        stripped = raw.strip()
        if m := re.search(r"(?:Total|TOTAL ARMY POINTS)\s*:?\s*\[?\s*([\d,.\s]+)\s*pts", stripped,
                          re.IGNORECASE):
            out.points = int(re.sub(r"\D", "", m.group(1)) or 0)
            continue
        if m := re.match(r"^\+\s*FACTION KEYWORD\s*:\s*(.+)$", stripped, re.IGNORECASE):
            out.faction = v.clean(m.group(1)).split(" - ")[-1]
            continue
        if stripped.lower().startswith(("exported with", "created with")):
            continue
        if _ATTACHED_BLOCK.match(stripped):
            block += 1
            in_attached = True
            unit = None
            continue
        b = _BULLET.match(raw)
        if b and unit is not None:
            indent = len(b.group("indent"))
            if bullet_indent is None or b.group("mark") == "•":
                bullet_indent = indent if bullet_indent is None else min(bullet_indent, indent)
            depth = 1 if b.group("mark") == "◦" or indent > (bullet_indent or 0) else 0
            _unit_body(unit, b.group("body"), depth, i)
            continue
        m = _UNIT.match(stripped)
        is_header = not seen_section and (
            (not out.units and i == next(j for j, x in enumerate(lines, 1) if x.strip()))
            or (m is not None and v.clean(m.group("name")).lower() in _BATTLE_SIZES))
        if m and not is_header:
            unit = TextUnit(v.clean(m.group("name")), _points(m), i,
                            count=int(m.group("n")) if m.group("n") else None,
                            block=block if in_attached else 0)
            if m.group("gear"):
                for link in _LINK.finditer(m.group("gear")):
                    unit.links.append((link.group(1).lower(), v.clean(link.group("target"))))
                unit.items = _items(m.group("gear"))
            out.units.append(unit)
            continue
        if m and is_header:
            if not out.name:
                out.name = re.sub(r"\s+-\s+Warhammer.*$|\s*-$", "", v.clean(m.group("name")))
                if out.points is None:
                    out.points = _points(m)
            out.header.append(stripped)
            continue
        if _SECTION.match(stripped) and not re.search(r"[a-z]", stripped.lstrip("#+ ")[:1]):
            if stripped.startswith("#") and not out.faction and not out.units:
                # New Recruit: the first "## Xenos - Orks" heading is the catalogue.
                out.faction = stripped.lstrip("# ").split(" - ")[-1]
            seen_section = True
            if not _ATTACHED_BLOCK.match(stripped) and "ATTACHED" not in stripped.upper():
                in_attached = False
            unit = None
            continue
        if unit is None:
            out.header.append(stripped)
            if not out.name and not out.units:
                out.name = stripped.lstrip("#+ ")
            elif not out.faction and not out.units and ":" not in stripped:
                out.faction = stripped.lstrip("#+ ")
            continue
        # A line under a unit that is neither a bullet nor a unit: pasted lists lose their
        # bullets, so read it as a bullet of the current unit.
        _unit_body(unit, stripped, 0, i)
    if not out.units:
        raise DataError("no unit lines found (a unit line is a name followed by its points, "
                        "such as 'Boyz (85 Points)' or 'Boyz [85pts]')", where=where)
    return out
