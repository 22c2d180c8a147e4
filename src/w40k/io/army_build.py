"""Mustering: units from datasheets (02.06, 02.07) and attached units (19.01).

Pure functions: they read datasheets and choices and return new frozen values.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from w40k.core.abilities import DeepStrike
from w40k.core.errors import DataError
from w40k.core.keywords import canonical_keyword
from w40k.core.profiles import WeaponProfile
from w40k.io.army_fields import check_fields, count, items, mapping, text
from w40k.io.army_model import (
    Army,
    Catalogue,
    Datasheet,
    ModelInstance,
    Role,
    Unit,
    name_key,
)


@dataclass(frozen=True, slots=True)
class WargearChoice:
    """An army list's use of one wargear option (02.07)."""

    option: str
    """The option's name on the datasheet."""
    models: int = 1
    """How many models take it."""


def _model_counts(
    sheet: Datasheet, counts: Mapping[str, int] | None, total: int | None
) -> dict[str, int]:
    """Models per composition entry (02.06), checked against the composition."""
    per = {name_key(e.model): e.min for e in sheet.composition}
    if counts is not None and total is not None:
        raise DataError("give either count or models, not both", where="count")
    if counts is not None:
        for model, n in counts.items():
            if name_key(model) not in per:
                raise DataError(
                    f"the datasheet has no model {model!r} "
                    f"(composition: {', '.join(e.model for e in sheet.composition)})",
                    where=f"models: {model}",
                )
            per[name_key(model)] = n
    elif total is not None:
        variable = [e for e in sheet.composition if e.min != e.max]
        fixed = sum(e.min for e in sheet.composition if e.min == e.max)
        if len(variable) > 1:
            raise DataError(
                "this datasheet has several variable lines: give models per name instead",
                where="count",
            )
        if not sheet.min_models <= total <= sheet.max_models:
            allowed = (
                str(sheet.min_models)
                if sheet.min_models == sheet.max_models
                else f"{sheet.min_models} to {sheet.max_models}"
            )
            plural = "" if sheet.max_models == 1 else "s"
            raise DataError(
                f"the unit can have {allowed} model{plural}, got {total}", where="count"
            )
        if variable:
            per[name_key(variable[0].model)] = total - fixed
    for e in sheet.composition:
        n = per[name_key(e.model)]
        if not e.min <= n <= e.max:
            allowed = str(e.min) if e.min == e.max else f"{e.min} to {e.max}"
            raise DataError(
                f"the unit composition allows {allowed} {e.model} models, got {n} (02.06)",
                where=f"models: {e.model}",
            )
    return per


def make_unit(
    sheet: Datasheet,
    *,
    name: str | None = None,
    models: Mapping[str, int] | None = None,
    count: int | None = None,
    wargear: Sequence[WargearChoice] = (),
) -> Unit:
    """A unit of ``sheet`` with its default wargear (02.06) changed by ``wargear`` (02.07).

    ``models`` gives the number of models per profile name, ``count`` the total when only one
    line of the composition varies; with neither, each line's minimum. DataError locates the
    field (``models: Boy``, ``wargear[0]``).
    """
    per = _model_counts(sheet, models, count)
    loadouts: list[tuple[str, list[str]]] = []
    for e in sheet.composition:
        loadouts += [(e.model, list(e.wargear)) for _ in range(per[name_key(e.model)])]
    taken: Counter[tuple[int, str]] = Counter()
    for i, choice in enumerate(wargear):
        at = f"wargear[{i}]"
        try:
            option = sheet.option(choice.option)
        except KeyError:
            known = ", ".join(o.name for o in sheet.wargear_options) or "none"
            raise DataError(
                f"the datasheet has no wargear option {choice.option!r} (options: {known})",
                where=at,
            ) from None
        if choice.models < 1:
            raise DataError(f"must be at least 1, got {choice.models}", where=f"{at}: models")
        used = sum(n for (_, opt), n in taken.items() if opt == option.name)
        if option.max is not None and used + choice.models > option.max:
            raise DataError(
                f"option {option.name!r} can be taken by at most {option.max} model(s), "
                f"got {used + choice.models}",
                where=at,
            )
        # 02.07: the option replaces the listed weapons; a model takes each option once and
        # only while it still carries everything the option replaces.
        eligible = [
            j
            for j, (model, gear) in enumerate(loadouts)
            if name_key(model) == name_key(option.model)
            and not taken[(j, option.name)]
            and not (Counter(name_key(w) for w in option.replace) - Counter(map(name_key, gear)))
        ]
        if len(eligible) < choice.models:
            raise DataError(
                f"option {option.name!r} chosen for {choice.models} {option.model} model(s), "
                f"but only {len(eligible)} can take it",
                where=at,
            )
        for j in eligible[: choice.models]:
            gear = loadouts[j][1]
            for w in option.replace:
                gear.pop([name_key(g) for g in gear].index(name_key(w)))
            gear.extend(option.add)
            taken[(j, option.name)] += 1
    totals = Counter(model for model, _ in loadouts)
    seen: Counter[str] = Counter()
    instances: list[ModelInstance] = []
    for model, gear in loadouts:
        seen[model] += 1
        label = model if totals[model] == 1 else f"{model} {seen[model]}"
        weapons: tuple[WeaponProfile, ...] = tuple(sheet.weapon(w) for w in gear)
        instances.append(ModelInstance(label, sheet.model(model), weapons))
    return Unit(name=name or sheet.name, datasheet=sheet, models=tuple(instances),
                points=sheet.points_for(len(instances)))


def attach(bodyguard: Unit, *components: Unit) -> Unit:
    """The attached unit formed by ``components`` leading ``bodyguard`` (19.01).

    IllegalChoice-like violations are DataErrors naming the rule: a component without Leader
    or Support, a bodyguard its datasheet does not list, two leaders or two supports, or a
    bodyguard that is itself attached.
    """
    if bodyguard.is_attached:
        raise DataError(f"{bodyguard.name!r} already has units attached", where="attached_to")
    roles: list[Role] = []
    for c in components:
        role = c.datasheet.role
        if role is Role.PLAIN:
            raise DataError(
                f"{c.name!r} has neither the Leader nor the Support ability, so it cannot lead "
                f"a bodyguard unit (19.01)",
                where="attached_to",
            )
        if not c.datasheet.can_lead(bodyguard.datasheet.name):
            listed = ", ".join(c.datasheet.leader_of) or "none"
            raise DataError(
                f"{c.name!r} cannot lead {bodyguard.name!r}: its datasheet "
                f"{c.datasheet.name!r} can lead only {listed} (19.01)",
                where="attached_to",
            )
        if role in roles:
            raise DataError(
                f"{bodyguard.name!r} already has a {role.value} unit attached: each bodyguard "
                f"unit can have only one leader unit and one support unit (19.01)",
                where="attached_to",
            )
        roles.append(role)
    # Leader first, then support: the order the Appendix and 19.02 name them in.
    ordered = sorted(components, key=lambda u: u.datasheet.role is not Role.LEADER)
    return dataclasses.replace(bodyguard, attached=tuple(ordered))


UNIT_FIELDS = ("datasheet",)
UNIT_OPTIONAL = ("name", "count", "models", "wargear", "attached_to", "embarked_in", "reserves")
RESERVES = ("strategic", "deep_strike")
"""A unit's starting state off the battlefield (``reserves``)."""
BATTLE_SIZES = {"incursion": 1000, "strike_force": 2000, "onslaught": 3000}
"""Points limit per battle size (docs/army-format.md "Points": the core rules name a points
limit per battle size, 20.01, without the figures; these are the project's)."""


def _wargear(value: object, where: str) -> tuple[WargearChoice, ...]:
    out: list[WargearChoice] = []
    for i, entry in enumerate(items(value, where)):
        at = f"{where}[{i}]"
        if isinstance(entry, str):
            out.append(WargearChoice(text(entry, at)))
            continue
        data = mapping(entry, at, what="an option name or {option, models}")
        check_fields(data, at, required=("option",), optional=("models",))
        n = count(data.get("models", 1), f"{at}: models", lo=1)
        out.append(WargearChoice(text(data["option"], f"{at}: option"), n))
    return tuple(out)


def _unit(value: object, index: int, catalogue: Catalogue) -> tuple[Unit, str | None]:
    data = mapping(value, f"units[{index}]")
    raw_name = data.get("name", data.get("datasheet"))
    where = f"unit {raw_name!r}" if isinstance(raw_name, str) else f"units[{index}]"
    try:
        check_fields(data, "", required=UNIT_FIELDS, optional=UNIT_OPTIONAL)
        ds_name = text(data["datasheet"], "datasheet")
        if ds_name not in catalogue:
            raise DataError(
                f"unknown datasheet {ds_name!r} (known: {', '.join(catalogue.names) or 'none'})",
                where="datasheet",
            )
        sheet = catalogue[ds_name]
        name = text(data.get("name", sheet.name), "name")
        counts: dict[str, int] | None = None
        if "models" in data:
            raw = mapping(data["models"], "models", what="a mapping of model name to count")
            counts = {k: count(v, f"models: {k}") for k, v in raw.items()}
        total = None if data.get("count") is None else count(data["count"], "count", lo=1)
        unit = make_unit(
            sheet,
            name=name,
            models=counts,
            count=total,
            wargear=_wargear(data.get("wargear"), "wargear"),
        )
        target = (
            None if data.get("attached_to") is None else text(data["attached_to"], "attached_to")
        )
        start = _start(data, sheet)
        if start != (None, None):
            unit = dataclasses.replace(unit, embarked_in=start[0], reserves=start[1])
        return unit, target
    except DataError as exc:
        raise exc.at(where) from None


def _start(data: Mapping[str, object], sheet: Datasheet) -> tuple[str | None, str | None]:
    """``embarked_in`` and ``reserves``: where the unit starts the battle (not both)."""
    embarked = None if data.get("embarked_in") is None else text(data["embarked_in"],
                                                                   "embarked_in")
    reserves = None if data.get("reserves") is None else text(data["reserves"], "reserves")
    if reserves is not None and reserves not in RESERVES:
        raise DataError(f"expected one of {', '.join(RESERVES)}, found {reserves!r}",
                        where="reserves")
    if embarked is not None and reserves is not None:
        raise DataError("a unit starts either embarked or in reserves, not both",
                        where="reserves")
    if reserves == "deep_strike" and not any(isinstance(a, DeepStrike)
                                             for a in sheet.abilities):
        raise DataError(f"datasheet {sheet.name!r} has no Deep Strike ability (24.09)",
                        where="reserves")
    aircraft = canonical_keyword("AIRCRAFT") in sheet.keys
    if aircraft and reserves is None:
        raise DataError("an AIRCRAFT starts the battle in strategic reserves: write "
                        "reserves: strategic (23.01)", where="reserves")
    return embarked, reserves


def _check_starts(units: Sequence[Unit]) -> None:
    """``embarked_in`` names a TRANSPORT unit of the army that is not itself embarked."""
    by_name = {name_key(u.name): u for u in units}
    for u in units:
        if u.embarked_in is None:
            continue
        where = f"army: unit {u.name!r}: embarked_in"
        t = by_name.get(name_key(u.embarked_in))
        if t is None:
            raise DataError(f"no unit named {u.embarked_in!r} in this army", where=where)
        if not any(m.profile.transport is not None for m in t.all_models):
            raise DataError(f"{t.name!r} is not a TRANSPORT (18.01)", where=where)
        if t.embarked_in is not None:
            raise DataError(f"{t.name!r} is itself embarked", where=where)


def check_points(army: Army) -> None:
    """The army's points against its battle size's limit, and the strategic reserves'
    points against half of it (R20.01-a: units embarked within a TRANSPORT in reserves
    count). DataError naming the army (the loader adds the file)."""
    if army.battle_size is None:
        return
    limit = BATTLE_SIZES[army.battle_size]
    total = army.total_points
    if total is None:
        raise DataError(f"a {army.battle_size} army needs points on every unit's datasheet",
                        where="army: battle_size")
    if total > limit:
        raise DataError(f"army {army.name!r} is {total} points, over the {limit}-point limit "
                        f"of {army.battle_size.replace('_', ' ')}", where="army: battle_size")
    in_reserve = {name_key(u.name) for u in army.units if u.reserves is not None}
    reserve = sum(c.points or 0 for u in army.units for c in u.components
                  if name_key(u.name) in in_reserve or (
                      u.embarked_in is not None and name_key(u.embarked_in) in in_reserve))
    if reserve * 2 > limit:
        raise DataError(f"{reserve} points in strategic reserves is over half the {limit}-point "
                        "limit (R20.01-a)", where="army: units")


def build_army(value: object, catalogue: Catalogue) -> Army:
    """The ``army`` section: units mustered and leaders attached (19.01). DataError locates the
    unit and field (``army: unit 'Captain': attached_to``)."""
    try:
        data = mapping(value, "")
        check_fields(data, "", required=("name", "faction", "units"),
                     optional=("battle_size",))
        size = None if data.get("battle_size") is None else text(data["battle_size"],
                                                                  "battle_size")
        if size is not None and size not in BATTLE_SIZES:
            raise DataError(f"expected one of {', '.join(BATTLE_SIZES)}, found {size!r}",
                            where="battle_size")
        name = text(data["name"], "name")
        faction = " ".join(text(data["faction"], "faction").upper().split())
        entries = items(data["units"], "units")
        if not entries:
            raise DataError("an army has at least one unit", where="units")
        built = [_unit(e, i, catalogue) for i, e in enumerate(entries)]
    except DataError as exc:
        raise exc.at("army") from None

    by_name: dict[str, Unit] = {}
    for unit, _ in built:
        where = f"army: unit {unit.name!r}"
        if name_key(unit.name) in by_name:
            raise DataError(
                "two units have this name: give each a distinct name", where=f"{where}: name"
            )
        by_name[name_key(unit.name)] = unit
        # 02.05: faction keywords decide which units an army can include.
        if canonical_keyword(faction) not in {
            canonical_keyword(k) for k in unit.datasheet.faction_keywords
        }:
            raise DataError(
                f"datasheet {unit.datasheet.name!r} has faction keywords "
                f"{', '.join(unit.datasheet.faction_keywords)}, not the army's {faction}",
                where=f"{where}: datasheet",
            )

    # 19.01: each leader/support unit may lead one friendly bodyguard unit it lists.
    leads: dict[str, list[Unit]] = {}
    for unit, target in built:
        if target is None:
            continue
        where = f"army: unit {unit.name!r}: attached_to"
        if name_key(target) not in by_name:
            raise DataError(
                f"no unit named {target!r} in this army (a leader or support unit can only "
                f"lead a friendly unit of its own army, 19.01)",
                where=where,
            )
        if name_key(target) == name_key(unit.name):
            raise DataError("a unit cannot lead itself (19.01)", where=where)
        leads.setdefault(name_key(target), []).append(unit)
    leading = {name_key(u.name): t for u, t in built if t is not None}
    for key, target in leading.items():
        if name_key(target) in leading:
            raise DataError(
                f"{by_name[name_key(target)].name!r} is itself attached to "
                f"{leading[name_key(target)]!r}: a unit can only lead a bodyguard unit, not a "
                f"leader or support unit (19.01)",
                where=f"army: unit {by_name[key].name!r}: attached_to",
            )
    units: list[Unit] = []
    for unit, target in built:
        if target is not None:
            continue
        components = leads.get(name_key(unit.name), [])
        # Attach one at a time so that the error names the unit that breaks 19.01.
        for j in range(1, len(components) + 1):
            try:
                attach(unit, *components[:j])
            except DataError as exc:
                raise DataError(
                    exc.detail, where=f"army: unit {components[j - 1].name!r}: attached_to"
                ) from None
        units.append(attach(unit, *components) if components else unit)
    _check_starts(units)
    army = Army(name=name, faction=faction, units=tuple(units), battle_size=size)
    check_points(army)
    return army
