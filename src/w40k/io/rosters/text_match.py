"""Text exports matched against datasheets: unit names to datasheets, model lines to profiles,
wargear to weapons, with close-name suggestions when a name does not match.

A text export has no profiles, so every stat line comes from a datasheet the user has (the
project's format, an earlier ``.ros``/JSON import, or a shipped file). A unit name that matches
no datasheet is an error naming the line and the closest names; wargear that matches no weapon
(a storm shield, grenades) is kept as text in ``not_applied`` with a warning.
"""

from __future__ import annotations

import dataclasses
import difflib
import re

from w40k.core.errors import DataError
from w40k.core.profiles import ModelProfile, WeaponProfile
from w40k.engine.ability_catalog import entry
from w40k.io.army_model import Catalogue, Datasheet, name_key
from w40k.io.rosters.battlescribe import resolve_links
from w40k.io.rosters.from_army import _weapon as weapon_record
from w40k.io.rosters.model import Roster, RosterAbility, RosterModel, RosterUnit, RosterWeapon
from w40k.io.rosters.text_export import TextItem, TextUnit, parse_text


def _close(name: str, names: list[str]) -> str:
    found = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    if not found:
        lowered = {n.casefold(): n for n in names}
        found = [lowered[n] for n in difflib.get_close_matches(
            name.casefold(), list(lowered), n=3, cutoff=0.6)]
    return f" (did you mean {', '.join(repr(f) for f in found)}?)" if found else ""


def _sheet(unit: TextUnit, catalogue: Catalogue) -> Datasheet:
    name = re.sub(r"\s*\[\d+\]$", "", unit.name)
    if name in catalogue:
        return catalogue[name]
    hint = _close(name, list(catalogue.names))
    raise DataError(f"no datasheet named {name!r}{hint}; give the file with its datasheets "
                    "with --datasheets (an army/datasheet file or an earlier .ros import)",
                    where="datasheet")


def _profile_of(sheet: Datasheet, name: str) -> ModelProfile | None:
    try:
        return sheet.model(name)
    except KeyError:
        pass
    # "Boy w/ Slugga" or a plural "Khorne Berzerkers" names a profile it starts with.
    for m in sorted(sheet.models, key=lambda p: -len(p.name)):
        if name_key(name).startswith(name_key(m.name)):
            return m
    return None


def _weapon_of(sheet: Datasheet, name: str) -> WeaponProfile | None:
    try:
        return sheet.weapon(name)
    except KeyError:
        return None


def _model(sheet: Datasheet, profile: ModelProfile, label: str, count: int,
           gear: list[tuple[WeaponProfile, int]]) -> RosterModel:
    abilities = [RosterAbility(str(a), applied=str(a)) for a in profile.abilities]
    abilities += [RosterAbility(a.name, a.text) for a in sheet.named_abilities]
    return RosterModel(
        name=label, count=count, M="-" if profile.M is None else profile.M, T=profile.T,
        Sv=profile.Sv, InSv=profile.InSv, W=profile.W, Ld=profile.Ld,
        OC="-" if profile.OC is None else profile.OC, keywords=profile.keywords,
        abilities=tuple(abilities),
        weapons=tuple(weapon_record(w, n) for w, n in gear), profile=profile.name,
        base_mm=profile.base_mm, height=profile.height)


def _default_gear(sheet: Datasheet, profile: ModelProfile, count: int
                  ) -> list[tuple[WeaponProfile, int]]:
    for e in sheet.composition:
        if name_key(e.model) == name_key(profile.name):
            return [(sheet.weapon(w), count) for w in e.wargear]
    return []


def _unit(unit: TextUnit, catalogue: Catalogue, notes: list[str]) -> RosterUnit:
    sheet = _sheet(unit, catalogue)
    not_applied: list[str] = [a.name for a in sheet.named_abilities if entry(a.name) is None]
    not_applied += [f"Enhancement: {e}" for e in unit.enhancements]
    models: list[RosterModel] = []
    loose: list[TextItem] = []
    for item in unit.items:
        profile = _profile_of(sheet, item.name)
        if item.children or (profile is not None and _weapon_of(sheet, item.name) is None):
            if profile is None:
                if len(sheet.models) == 1:
                    profile = sheet.models[0]
                else:
                    hint = _close(item.name, [m.name for m in sheet.models])
                    raise DataError(f"line {item.line}: the datasheet {sheet.name!r} has no "
                                    f"model {item.name!r}{hint}", where=f"model {item.name!r}")
            gear = []
            for w in item.children:
                wp = _weapon_of(sheet, w.name)
                if wp is None:
                    notes.append(f"wargear {w.name!r} is not a weapon of {sheet.name!r}"
                                 f"{_close(w.name, [x.name for x in sheet.weapons])}: kept "
                                 "as text")
                    not_applied.append(w.name)
                else:
                    gear.append((wp, w.count))
            if not item.children:
                gear = _default_gear(sheet, profile, item.count)
            models.append(_model(sheet, profile, item.name, item.count, gear))
        else:
            loose.append(item)
    if not models:
        total = unit.count
        for e in sheet.composition:
            n = e.min
            if total is not None and len(sheet.composition) == 1:
                n = total
            if n > 0:
                models.append(_model(sheet, sheet.model(e.model), e.model, n,
                                     [] if loose else _default_gear(
                                         sheet, sheet.model(e.model), n)))
        if not models:
            models.append(_model(sheet, sheet.models[0], sheet.models[0].name,
                                 unit.count or 1, []))
    extra: list[RosterWeapon] = []
    for item in loose:
        wp = _weapon_of(sheet, item.name)
        if wp is None:
            notes.append(f"line {item.line}: wargear {item.name!r} is not a weapon or model of "
                         f"{sheet.name!r}{_close(item.name, [x.name for x in sheet.weapons])}: "
                         "kept as text")
            not_applied.append(item.name)
        else:
            extra.append(weapon_record(wp, item.count))
    if extra:
        models[0] = dataclasses.replace(models[0], weapons=(*models[0].weapons, *extra))
    return RosterUnit(name=unit.name, points=unit.points, models=tuple(models),
                      embarked_in=None, not_applied=tuple(dict.fromkeys(not_applied)),
                      datasheet=sheet.name,
                      warnings=tuple(f"unit {unit.name!r}: {n}" for n in notes))


def read_text(text: str, *, source: str, fmt: str, catalogue: Catalogue) -> Roster:
    """A text export as a roster, every unit matched to a datasheet."""
    parsed = parse_text(text, source)
    units: list[RosterUnit] = []
    links: list[list[tuple[str, str]]] = []
    for tu in parsed.units:
        notes: list[str] = []
        try:
            units.append(_unit(tu, catalogue, notes))
        except DataError as exc:
            raise exc.at(f"{source}: line {tu.line}: unit {tu.name!r}") from None
        ln: list[tuple[str, str]] = []
        for kind, target in tu.links:
            ln.append(({"leading": "leader", "attached to": "leader", "led by": "led_by",
                        "supported by": "supported_by"}[kind], "name:" + target))
        if tu.embarked_in:
            ln.append(("embarked", "name:" + tu.embarked_in))
        links.append(ln)
    # "Attached unit N" blocks: the leader and support units lead the block's bodyguard.
    for block in {tu.block for tu in parsed.units if tu.block}:
        members = [i for i, tu in enumerate(parsed.units) if tu.block == block]
        guards = [i for i in members if parsed.units[i].role.startswith(("bodyguard", "garde"))]
        for i in members:
            role = parsed.units[i].role
            if guards and i not in guards and not links[i]:
                kind = "support" if role.startswith("support") else "leader"
                links[i].append((kind, "name:" + parsed.units[guards[0]].name))
    out = resolve_links(units, links, {})
    faction = parsed.faction
    if not faction:
        keys = [k for u in out for m in u.models for k in m.keywords[:1]]
        faction = max(set(keys), key=keys.count) if keys else ""
    pts = [u.points for u in out if u.points is not None]
    total = parsed.points if parsed.points is not None else (sum(pts) if pts else None)
    return Roster(source=source, format=fmt, name=parsed.name or "Army list", faction=faction,
                  points=total, units=tuple(out),
                  warnings=tuple(w for u in out for w in u.warnings))
