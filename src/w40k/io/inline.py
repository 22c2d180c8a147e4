"""Compact one-line profiles for the command line.

Weapons: ``"10x Boltgun 24\\" A2 BS3+ S4 AP0 D1 [RAPID FIRE 1]"`` (``Melee`` and ``WS3+`` for
melee; ``A=D6``, ``D=D3+1`` or ``DD3`` for random values; ``D3`` alone means damage 3).
Targets: ``"5x Intercessor T4 Sv3+ W2 InSv4+ FNP5+ lost=1 INFANTRY leader hidden"``, several
model entries separated by ``;`` (``Sv-`` for no save). Upper-case words are keywords; ``[...]``
are abilities.
"""

from __future__ import annotations

import re

from w40k.core.errors import DataError

_BRACKETS = re.compile(r"\[([^\]]+)\]")
_COUNT = re.compile(r"^\s*(\d+)\s*[xX×]\s+")
_KEYWORD = re.compile(r"^[A-Z][A-Z-]+$")
"""Upper-case words of two or more letters (and hyphens) are keywords."""


def _split(text: str, where: str) -> tuple[int, list[str], list[str]]:
    abilities = [a.strip() for a in _BRACKETS.findall(text)]
    rest = _BRACKETS.sub(" ", text)
    count = 1
    if m := _COUNT.match(rest):
        if len(m.group(1)) > 6:
            raise DataError(f"a count of {len(m.group(1))} digits is over the limits "
                            "(docs/input-limits.md)", where=where)
        count = int(m.group(1))
        rest = rest[m.end():]
    return count, rest.split(), abilities


def parse_weapon_text(text: str, where: str = "--weapon", *,
                      default_range: float | None = None) -> dict[str, object]:
    """A scenario ``weapons[i]`` object from a compact profile (``default_range`` is used
    when the text gives no range)."""
    count, tokens, abilities = _split(text, where)
    out: dict[str, object] = {"count": count, "abilities": abilities}
    name: list[str] = []
    for tok in tokens:
        key, eq, val = tok.partition("=")
        up = key.upper()
        if eq:
            field = {"R": "range", "RANGE": "range", "A": "A", "BS": "skill", "WS": "skill",
                     "S": "S", "AP": "AP", "D": "D"}.get(up)
            if field is None:
                raise DataError(f"unknown field {key!r} in {text!r}", where=where)
            out[field] = val
        elif up == "MELEE":
            out["range"] = "Melee"
        elif m := re.fullmatch(r'(\d{1,6}(?:\.\d+)?)(?:"|IN|\'\')', up):
            out["range"] = float(m.group(1))
        elif m := re.fullmatch(r"(BS|WS)(\d)\+?", up):
            out["skill"] = int(m.group(2))
        elif m := re.fullmatch(r"AP([+-]?\d{1,6})", up):
            out["AP"] = int(m.group(1))
        elif m := re.fullmatch(r"A(\d{1,9}|D[36](?:[+-]\d{1,6})?|\dD[36](?:[+-]\d+)?)", up):
            out["A"] = m.group(1)
        elif m := re.fullmatch(r"S(\d{1,6})", up):
            out["S"] = int(m.group(1))
        elif m := re.fullmatch(r"D(\d{1,9}|D[36](?:[+-]\d{1,6})?|\dD[36](?:[+-]\d+)?)", up):
            out["D"] = m.group(1)
        else:
            name.append(tok)
    out["name"] = " ".join(name) or "Weapon"
    if "range" not in out and default_range is not None:
        out["range"] = default_range
    for key in ("range", "A", "skill", "S", "D"):
        if key not in out:
            raise DataError(f"{text!r} gives no {key} (e.g. 24\" A2 BS3+ S4 AP-1 D1)",
                            where=where)
    return out


def parse_target_text(text: str, where: str = "--target", *,
                      defaults: dict[str, int] | None = None) -> dict[str, object]:
    """A scenario ``target`` object from compact model entries separated by ``;``
    (``defaults`` fills characteristics the text leaves out, e.g. T and Sv of attackers)."""
    models: list[dict[str, object]] = []
    for part in (p for p in text.split(";") if p.strip()):
        count, tokens, abilities = _split(part, where)
        m: dict[str, object] = {"count": count, "abilities": abilities, "keywords": []}
        name: list[str] = []
        keywords: list[str] = []
        for tok in tokens:
            up = tok.upper()
            if mm := re.fullmatch(r"T(\d{1,6})", up):
                m["T"] = int(mm.group(1))
            elif mm := re.fullmatch(r"SV(\d)\+?", up):
                m["Sv"] = int(mm.group(1))
            elif up == "SV-":
                m["Sv"] = 7  # no armour save
            elif mm := re.fullmatch(r"INSV(\d)\+?", up):
                m["InSv"] = int(mm.group(1))
            elif mm := re.fullmatch(r"W(\d{1,6})", up):
                m["W"] = int(mm.group(1))
            elif mm := re.fullmatch(r"FNP(\d)\+?", up):
                abilities.append(f"Feel No Pain {mm.group(1)}+")
            elif mm := re.fullmatch(r"LOST=(\d{1,6})", up):
                m["wounds_lost"] = int(mm.group(1))
            elif tok == "leader":
                m["leader"] = True
            elif tok == "hidden":
                m["visible"] = False
            elif _KEYWORD.match(tok):
                keywords.append(tok)
            else:
                name.append(tok)
        m["name"] = " ".join(name) or "Model"
        m["keywords"] = keywords
        for key, value in (defaults or {}).items():
            m.setdefault(key, value)
        for key in ("T", "Sv", "W"):
            if key not in m:
                raise DataError(f"{part.strip()!r} gives no {key} (e.g. T4 Sv3+ W2)",
                                where=where)
        models.append(m)
    if not models:
        raise DataError("no models given", where=where)
    return {"name": str(models[0]["name"]), "models": models}


def parse_dice_text(items: list[str], where: str = "--dice") -> dict[str, list[int]]:
    """``["hit=6,3,1", "wound=4 5"]`` -> scripted dice per kind."""
    out: dict[str, list[int]] = {}
    for item in items:
        for chunk in item.split(";"):
            if not chunk.strip():
                continue
            kind, eq, faces = chunk.partition("=")
            if not eq:
                raise DataError(f"expected kind=faces such as hit=6,3,1, got {chunk!r}",
                                where=where)
            vals = [v for v in re.split(r"[,\s]+", faces.strip()) if v]
            if not all(re.fullmatch(r"[0-9]{1,3}", v) for v in vals):
                raise DataError(f"faces must be numbers 1-6, got {faces!r}", where=where)
            out.setdefault(kind.strip(), []).extend(int(v) for v in vals)
    return out
