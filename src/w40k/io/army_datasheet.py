"""Reading one datasheet (02) from decoded YAML/JSON into a :class:`Datasheet`.

Profiles are validated by ``ModelProfile.build`` / ``WeaponProfile.build``; this module checks
the structure around them and puts the datasheet's field path in front of their errors.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from w40k.core.abilities import UNIT_ABILITY_NAMES, UnitAbility, parse_unit_ability
from w40k.core.errors import DataError
from w40k.core.keywords import canonical_keyword
from w40k.core.profiles import ModelProfile, WeaponProfile
from w40k.io.army_fields import (
    check_fields,
    count,
    items,
    label,
    mapping,
    text,
    texts,
)
from w40k.io.army_model import (
    CompositionEntry,
    Datasheet,
    NamedAbility,
    Role,
    WargearOption,
    name_key,
)

DATASHEET_FIELDS = ("name", "faction_keywords", "models", "weapons", "composition")
DATASHEET_OPTIONAL = ("keywords", "abilities", "wargear_options", "leader_of", "points")
MODEL_FIELDS = ("name", "M", "T", "Sv", "W", "Ld", "OC", "base_mm")
MODEL_OPTIONAL = ("InSv", "height", "keywords", "abilities", "transport")
WEAPON_FIELDS = ("name", "range", "A", "S", "AP", "D")
WEAPON_OPTIONAL = ("BS", "WS", "abilities")


def _relocate(exc: DataError, built_as: str, where: str, rename: Mapping[str, str]) -> DataError:
    """A profile builder's error (located ``model 'Boy': T``) located at ``where`` instead,
    with the builder's field names turned back into the file's (``skill`` -> ``BS``)."""
    rest = exc.where
    if rest == built_as:
        rest = ""
    elif rest.startswith(built_as + ": "):
        rest = rest[len(built_as) + 2 :]
    head, sep, tail = rest.partition(":")
    rest = rename.get(head, head) + sep + tail
    return DataError(exc.detail, where=f"{where}: {rest}" if rest else where)


def _keywords(value: object, where: str) -> tuple[str, ...]:
    return tuple(" ".join(k.upper().split()) for k in texts(value, where))


def _merge_keywords(*groups: tuple[str, ...]) -> tuple[str, ...]:
    """Keywords in order, each canonical keyword once (02.05: singular = plural)."""
    seen: set[str] = set()
    out: list[str] = []
    for group in groups:
        for k in group:
            if canonical_keyword(k) not in seen:
                seen.add(canonical_keyword(k))
                out.append(k)
    return tuple(out)


def _abilities(
    value: object, where: str
) -> tuple[tuple[UnitAbility, ...], tuple[NamedAbility, ...]]:
    """Core abilities (text) and named ones (``{name, text}``), in file order each."""
    core: list[UnitAbility] = []
    named: list[NamedAbility] = []
    for i, entry in enumerate(items(value, where)):
        at = f"{where}[{i}]"
        if isinstance(entry, str):
            try:
                core.append(parse_unit_ability(entry))
            except DataError:
                raise DataError(
                    f"unknown core ability {entry!r} (known: {', '.join(UNIT_ABILITY_NAMES)}; "
                    "write any other ability as {name: ..., text: ...})",
                    where=at,
                ) from None
        else:
            data = mapping(entry, at, what="a core ability or {name, text}")
            check_fields(data, at, required=("name",), optional=("text",))
            named.append(
                NamedAbility(text(data["name"], f"{at}: name"),
                             "" if data.get("text") is None
                             else text(data["text"], f"{at}: text"))
            )
    return tuple(core), tuple(named)


def _model(
    entry: object, at: str, common_kw: tuple[str, ...], common_ab: tuple[UnitAbility, ...]
) -> ModelProfile:
    data = mapping(entry, at)
    check_fields(data, at, required=MODEL_FIELDS, optional=MODEL_OPTIONAL)
    name = text(data["name"], f"{at}: name")
    own_abilities = texts(data.get("abilities"), f"{at}: abilities")
    try:
        profile = ModelProfile.build(
            name,
            T=data["T"],
            Sv=data["Sv"],
            W=data["W"],
            M=data["M"],
            Ld=data["Ld"],
            OC=data["OC"],
            InSv=data.get("InSv"),
            base_mm=data["base_mm"],
            height=data.get("height", 1.5),
            keywords=texts(data.get("keywords"), f"{at}: keywords"),
            abilities=own_abilities,
            transport=data.get("transport"),
        )
    except DataError as exc:
        raise _relocate(exc, f"model {name!r}", at, {}) from None
    # 02.05: every model has the faction and datasheet keywords; the datasheet's core abilities
    # belong to every model, its own come after them (24.02: duplicates stay separate).
    return dataclasses.replace(
        profile,
        keywords=_merge_keywords(common_kw, profile.keywords),
        abilities=common_ab + profile.abilities,
    )


def _weapon(entry: object, at: str) -> WeaponProfile:
    data = mapping(entry, at)
    check_fields(data, at, required=WEAPON_FIELDS, optional=WEAPON_OPTIONAL)
    name = text(data["name"], f"{at}: name")
    rng = data["range"]
    melee = isinstance(rng, str) and rng.strip().lower() == "melee"
    # 02.04: a ranged weapon has BS, a melee weapon WS, both on the weapon's own profile.
    skill_key, other = ("WS", "BS") if melee else ("BS", "WS")
    if other in data:
        kind = "melee" if melee else "ranged"
        raise DataError(
            f"a {kind} weapon has {skill_key}, not {other} (02.04), got {other}: {data[other]!r}",
            where=f"{at}: {other}",
        )
    if skill_key not in data:
        raise DataError(f"missing field {skill_key!r}", where=at)
    try:
        return WeaponProfile.build(
            name,
            range=rng,
            A=data["A"],
            skill=data[skill_key],
            S=data["S"],
            AP=data["AP"],
            D=data["D"],
            abilities=texts(data.get("abilities"), f"{at}: abilities"),
        )
    except DataError as exc:
        raise _relocate(exc, f"weapon {name!r}", at, {"skill": skill_key}) from None


def _composition(
    entry: object, at: str, models: Mapping[str, ModelProfile], weapons: Mapping[str, WeaponProfile]
) -> CompositionEntry:
    data = mapping(entry, at)
    check_fields(data, at, required=("model",), optional=("count", "min", "max", "wargear"))
    model = text(data["model"], f"{at}: model")
    if name_key(model) not in models:
        raise DataError(
            f"unknown model {model!r} (models: {', '.join(m.name for m in models.values())})",
            where=f"{at}: model",
        )
    if "count" in data:
        if "min" in data or "max" in data:
            raise DataError("give either count or min and max, not both", where=at)
        lo = hi = count(data["count"], f"{at}: count", lo=1)
    elif "min" in data and "max" in data:
        lo = count(data["min"], f"{at}: min")
        hi = count(data["max"], f"{at}: max", lo=max(lo, 1))
    else:
        raise DataError("missing field 'count' (or 'min' and 'max')", where=at)
    wargear = texts(data.get("wargear"), f"{at}: wargear")
    for i, w in enumerate(wargear):
        if name_key(w) not in weapons:
            raise DataError(
                f"unknown weapon {w!r} (weapons: {', '.join(x.name for x in weapons.values())})",
                where=f"{at}: wargear[{i}]",
            )
    return CompositionEntry(
        model=models[name_key(model)].name,
        min=lo,
        max=hi,
        wargear=tuple(weapons[name_key(w)].name for w in wargear),
    )


def _option(
    entry: object,
    at: str,
    composition: Mapping[str, CompositionEntry],
    weapons: Mapping[str, WeaponProfile],
) -> WargearOption:
    data = mapping(entry, at)
    check_fields(data, at, required=("name", "model", "with"), optional=("replace", "max"))
    name = text(data["name"], f"{at}: name")
    model = text(data["model"], f"{at}: model")
    if name_key(model) not in composition:
        raise DataError(f"model {model!r} is not in the unit composition", where=f"{at}: model")
    names: dict[str, tuple[str, ...]] = {}
    for field in ("replace", "with"):
        listed = texts(data.get(field), f"{at}: {field}")
        for i, w in enumerate(listed):
            if name_key(w) not in weapons:
                raise DataError(
                    f"unknown weapon {w!r} (weapons: "
                    f"{', '.join(x.name for x in weapons.values())})",
                    where=f"{at}: {field}[{i}]",
                )
        names[field] = tuple(weapons[name_key(w)].name for w in listed)
    if not names["with"]:
        raise DataError("an option gives at least one weapon", where=f"{at}: with")
    most = None if data.get("max") is None else count(data["max"], f"{at}: max", lo=1)
    return WargearOption(
        name=name,
        model=composition[name_key(model)].model,
        replace=names["replace"],
        add=names["with"],
        max=most,
    )


def _unique(names: list[str], where: str, what: str) -> None:
    seen: set[str] = set()
    for i, n in enumerate(names):
        if name_key(n) in seen:
            raise DataError(f"two {what} named {n!r}", where=f"{where}[{i}]")
        seen.add(name_key(n))


def parse_datasheet(value: object, index: int) -> Datasheet:
    """The datasheet at ``datasheets[index]``; DataError located at ``datasheet 'Name'``."""
    data = mapping(value, f"datasheets[{index}]")
    name = data.get("name")
    where = f"datasheet {name!r}" if isinstance(name, str) else f"datasheets[{index}]"
    try:
        return _parse(data)
    except DataError as exc:
        raise exc.at(where) from None


def _parse(data: Mapping[str, object]) -> Datasheet:
    check_fields(data, "", required=DATASHEET_FIELDS, optional=DATASHEET_OPTIONAL)
    name = text(data["name"], "name")
    faction = _keywords(data["faction_keywords"], "faction_keywords")
    if not faction:
        raise DataError(
            "a datasheet has at least one faction keyword (02.05)", where="faction_keywords"
        )
    keywords = _keywords(data.get("keywords"), "keywords")
    core, named = _abilities(data.get("abilities"), "abilities")
    common_kw = _merge_keywords(faction, keywords)

    model_entries = items(data["models"], "models")
    if not model_entries:
        raise DataError("a datasheet has at least one model profile", where="models")
    models = [
        _model(e, label(mapping(e, f"models[{i}]"), i, "models"), common_kw, core)
        for i, e in enumerate(model_entries)
    ]
    _unique([m.name for m in models], "models", "model profiles")
    weapons = [
        _weapon(e, label(mapping(e, f"weapons[{i}]"), i, "weapons"))
        for i, e in enumerate(items(data["weapons"], "weapons"))
    ]
    _unique([w.name for w in weapons], "weapons", "weapons")
    by_model = {name_key(m.name): m for m in models}
    by_weapon = {name_key(w.name): w for w in weapons}

    comp_entries = items(data["composition"], "composition")
    composition = [
        _composition(e, f"composition[{i}]", by_model, by_weapon)
        for i, e in enumerate(comp_entries)
    ]
    _unique([c.model for c in composition], "composition", "composition entries for models")
    if sum(c.max for c in composition) < 1:
        raise DataError("a unit has at least one model", where="composition")
    by_entry = {name_key(c.model): c for c in composition}

    options = [
        _option(
            e, label(mapping(e, f"wargear_options[{i}]"), i, "wargear_options"), by_entry, by_weapon
        )
        for i, e in enumerate(items(data.get("wargear_options"), "wargear_options"))
    ]
    _unique([o.name for o in options], "wargear_options", "wargear options")
    for i, opt in enumerate(options):
        # An option can only take away a weapon the model has by default or from an option.
        reachable = {name_key(w) for w in by_entry[name_key(opt.model)].wargear}
        reachable |= {name_key(w) for o in options if o.model == opt.model for w in o.add}
        for j, w in enumerate(opt.replace):
            if name_key(w) not in reachable:
                raise DataError(
                    f"a {opt.model} never carries {w!r}, so it cannot be replaced",
                    where=f"wargear_options[{i}] {opt.name!r}: replace[{j}]",
                )

    leader_of = texts(data.get("leader_of"), "leader_of")
    points = _points(data.get("points"), "points")
    sheet = Datasheet(
        name=name,
        faction_keywords=faction,
        keywords=keywords,
        models=tuple(models),
        weapons=tuple(weapons),
        composition=tuple(composition),
        abilities=core,
        named_abilities=named,
        wargear_options=tuple(options),
        leader_of=leader_of,
        points=points,
    )
    if leader_of and sheet.role is Role.PLAIN:
        raise DataError(
            "only a unit with the Leader or Support ability can lead a bodyguard unit (19.01)",
            where="leader_of",
        )
    return sheet


def _points(value: object, where: str) -> tuple[tuple[int, int], ...]:
    """``points``: ``[{models, points}, ...]``, sizes strictly increasing."""
    out: list[tuple[int, int]] = []
    for i, entry in enumerate(items(value, where)):
        at = f"{where}[{i}]"
        data = mapping(entry, at, what="{models, points}")
        check_fields(data, at, required=("models", "points"))
        n = count(data["models"], f"{at}: models", lo=1)
        p = count(data["points"], f"{at}: points", lo=0)
        if out and n <= out[-1][0]:
            raise DataError(f"unit sizes must increase: {n} after {out[-1][0]}",
                            where=f"{at}: models")
        out.append((n, p))
    return tuple(out)
