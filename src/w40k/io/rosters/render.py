"""The army as read, for people (``w40k army FILE``) and as the JSON contract
(``w40k army FILE --json``, DESIGN.md "Interfaces")."""

from __future__ import annotations

from w40k.engine.serial import JSON
from w40k.io.rosters.model import Roster, RosterModel, RosterUnit, RosterWeapon


def weapon_json(w: RosterWeapon) -> dict[str, JSON]:
    """``{"name", "range", "A", "skill", "S", "AP", "D", "abilities"}``."""
    return {"name": w.name, "range": w.range, "A": w.A, "skill": w.skill, "S": w.S,
            "AP": w.AP, "D": w.D, "abilities": list(w.abilities)}


def model_json(m: RosterModel) -> dict[str, JSON]:
    """One model group."""
    return {"name": m.name, "count": m.count, "M": m.M, "T": m.T, "Sv": m.Sv, "InSv": m.InSv,
            "W": m.W, "Ld": m.Ld, "OC": m.OC, "keywords": list(m.keywords),
            "abilities": [a.name for a in m.abilities],
            "weapons": [weapon_json(w) for w in m.weapons]}


def unit_json(u: RosterUnit) -> dict[str, JSON]:
    """One unit."""
    return {"name": u.name, "points": u.points, "leader_of": u.leader_of,
            "embarked_in": u.embarked_in, "models": [model_json(m) for m in u.models],
            "not_applied": list(u.not_applied)}


def roster_json(r: Roster) -> dict[str, JSON]:
    """``{"name", "faction", "points", "units": [...]}``."""
    return {"name": r.name, "faction": r.faction, "points": r.points,
            "units": [unit_json(u) for u in r.units]}


def _target(n: int | None) -> str:
    return "-" if n is None else f"{n}+"


def _val(x: object) -> str:
    return "-" if x is None else str(x)


def _range(r: object) -> str:
    return "-" if r is None else ("Melee" if r == "Melee" else f'{r}"')


def _weapon_line(w: RosterWeapon) -> str:
    kw = f" [{', '.join(w.abilities)}]" if w.abilities else ""
    count = f"{w.count}x " if w.count != 1 else ""
    skill = ("WS" if w.range == "Melee" else "BS") + _target(w.skill)
    return (f"{count}{w.name}  {_range(w.range)} A{_val(w.A)} {skill} S{_val(w.S)} "
            f"AP{_val(w.AP)} D{_val(w.D)}{kw}")


def roster_text(r: Roster) -> list[str]:
    """What a player checks against their list builder, line by line."""
    pts = "?" if r.points is None else str(r.points)
    lines = [f"{r.name} ({r.faction}, {pts} pts) [{r.format}: {r.source}]"]
    for u in r.units:
        upts = "?" if u.points is None else str(u.points)
        links = []
        if u.leader_of:
            links.append(f"{u.role or 'leader'} of {u.leader_of}")
        if u.embarked_in:
            links.append(f"embarked in {u.embarked_in}")
        extra = f" [{'; '.join(links)}]" if links else ""
        lines.append("")
        lines.append(f"{u.name} ({upts} pts){extra}")
        for m in u.models:
            insv = f" InSv {m.InSv}+" if m.InSv is not None else ""
            move = _val(m.M) if m.M in (None, "-") else f'{m.M}"'
            lines.append(f"  {m.count}x {m.name}: M {move} T {_val(m.T)} Sv {_target(m.Sv)}"
                         f"{insv} W {_val(m.W)} Ld {_target(m.Ld)} OC {_val(m.OC)}")
            for w in m.weapons:
                lines.append(f"     {_weapon_line(w)}")
            if m.abilities:
                lines.append(f"     abilities: {', '.join(a.name for a in m.abilities)}")
            if m.keywords:
                lines.append(f"     keywords: {', '.join(m.keywords)}")
        if u.not_applied:
            lines.append(f"  not applied: {', '.join(u.not_applied)}")
    if r.army_rules:
        lines.append("")
        lines.append(f"army rules (not applied): {', '.join(r.army_rules)}")
    for note in r.warnings:
        lines.append(f"warning: {note}")
    return lines
