"""BattleScribe rosters (``.ros`` XML, ``.rosz``, New Recruit JSON) from the neutral tree.

Traversal (docs/rosters.md): a top-level selection of type ``unit`` or ``model`` in a force is a
unit; its model groups are the descendant selections of type ``model`` (or the unit itself when
it has none); each group takes the ``Unit`` profile on it, else the unit's profile of the same
name, else the unit's only one; weapons are the weapon profiles of the upgrades under a group,
with that upgrade's ``number`` as the group's total; abilities are rules and ability-like
profiles, on the unit (every model) or on a group (that group), each name once; keywords are the
unit's categories less the builder's own; points are the unit's cost plus every cost under it
(a unit's own cost never includes its children's).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from w40k.core.errors import DataError
from w40k.io.army_model import name_key
from w40k.io.rosters import values as v
from w40k.io.rosters.abilities import interpret, merge_insv
from w40k.io.rosters.model import Roster, RosterAbility, RosterModel, RosterUnit, RosterWeapon
from w40k.io.rosters.tree import Node

PTS_TYPE_IDS = {"51b2-306e-1021-d207", "points"}
"""The 40k points cost type (and the id some writers use instead)."""
WH40K_SYSTEM_IDS = {"sys-352e-adc2-7639-d6a9", "sys-352e-adc2-7639-d610"}
"""BSData game-system ids of Warhammer 40,000 10th and 11th edition."""
BUILDER_CATEGORIES = {"configuration", "unit", "(no category)", "(illegal units)",
                      "uncategorised", "no category"}
"""Categories that are list-builder plumbing, not keywords."""

_UNIT_TYPES = {"c547-1836-d8a-ff4f"}
_RANGED_TYPES = {"f77d-b953-8fa4-b762"}
_MELEE_TYPES = {"8a40-4aaa-c780-9046"}
_TRANSPORT_TYPES = {"74f8-5443-9d6d-1f1e"}


def check_game_system(root: Node, where: str) -> None:
    """Refuse a roster for another game system by name (Age of Sigmar, Kill Team, Horus
    Heresy ...); a roster that names none is read."""
    name = root.get("gameSystemName")
    sys_id = root.get("gameSystemId")
    if sys_id in WH40K_SYSTEM_IDS:
        return
    if not name and not sys_id:
        return
    low = name.lower()
    if ("40,000" in low or "40k" in low or "40000" in low) and "kill team" not in low:
        return
    raise DataError(
        f"this is a roster for {name or 'another game system'!r} (gameSystemId {sys_id!r}); "
        "w40k reads Warhammer 40,000 rosters only", where=f"{where}: roster: gameSystemName")


def _kind(profile: Node) -> str:
    type_name = v.clean(profile.get("typeName")).lower()
    type_id = profile.get("typeId")
    if type_id in _UNIT_TYPES or type_name in {"unit", "model"}:
        return "unit"
    if type_id in _RANGED_TYPES or type_name.startswith("ranged weapon"):
        return "ranged"
    if type_id in _MELEE_TYPES or type_name.startswith("melee weapon"):
        return "melee"
    if type_id in _TRANSPORT_TYPES or type_name == "transport":
        return "transport"
    return "ability"


def _chars(profile: Node) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in profile.all("characteristics", "characteristic"):
        key = v.clean(c.get("name")).lower()
        if key and key not in out:
            out[key] = c.text or c.get("value")
    return out


def _points(sel: Node) -> tuple[float, bool]:
    total, found = 0.0, False
    for s in _subtree(sel, stop_at_models=False):
        for cost in s.all("costs", "cost"):
            if cost.get("typeId") in PTS_TYPE_IDS or v.clean(cost.get("name")).lower() in {
                    "pts", "points"}:
                try:
                    total += float(cost.get("value") or 0)
                    found = True
                except ValueError:
                    pass
    return total, found


def _children(sel: Node) -> Iterator[Node]:
    return sel.all("selections", "selection")


def _subtree(sel: Node, *, stop_at_models: bool) -> Iterator[Node]:
    """``sel`` and the selections under it; with ``stop_at_models``, not entering model
    selections below ``sel``."""
    yield sel
    for c in _children(sel):
        if stop_at_models and c.get("type") == "model":
            continue
        yield from _subtree(c, stop_at_models=stop_at_models)


def _models_under(sel: Node) -> Iterator[Node]:
    for c in _children(sel):
        if c.get("type") == "model":
            yield c
        else:
            yield from _models_under(c)


def _number(sel: Node, notes: list[str], what: str) -> int:
    raw = sel.get("number", "1") or "1"
    try:
        n = int(float(raw))
    except ValueError:
        notes.append(f"{what}: number {raw!r} is not a whole number, read as 1")
        return 1
    return max(n, 0)


_MODE = re.compile(r"^\s*[➤>]\s*")


def _weapon(profile: Node, kind: str, count: int, group: str, notes: list[str]) -> RosterWeapon:
    c = _chars(profile)
    name = _MODE.sub("", v.clean(profile.get("name"))) or group
    if _MODE.match(profile.get("name", "")) and " - " not in name:
        notes.append(f"weapon {name!r}: a multi-profile weapon profile without a mode name")
    at = f"weapon {name!r}"
    # A multi-profile weapon (02.04) writes one profile per mode, "➤ Kannon - frag", under
    # one wargear selection; the profiles share the weapon's base name as their group.
    base = name.split(" - ", 1)[0]
    multi = bool(_MODE.match(profile.get("name", ""))) or (
        " - " in name and name_key(base) == name_key(group))
    group = base if multi else ""
    rng = v.weapon_range(c.get("range"), f"{at}: range", notes)
    if kind == "melee" and rng is None:
        rng = "Melee"
    skill_text = c.get("ws") if kind == "melee" else c.get("bs")
    if skill_text is None:
        skill_text = c.get("bs", c.get("ws"))
    return RosterWeapon(
        name=name, range=rng, A=v.dice(c.get("a")),
        skill=v.target(skill_text, f"{at}: {'WS' if kind == 'melee' else 'BS'}", notes),
        S=v.whole(c.get("s"), f"{at}: S", notes),
        AP=v.armour_penetration(c.get("ap"), f"{at}: AP", notes), D=v.dice(c.get("d")),
        abilities=v.weapon_keywords(c.get("keywords")), count=count, group=group)


def _abilities_of(sel: Node) -> Iterator[RosterAbility]:
    for rule in sel.all("rules", "rule"):
        desc = rule.first("description")
        yield RosterAbility(v.clean(rule.get("name")), v.clean(desc.text if desc else ""))
    for p in sel.all("profiles", "profile"):
        kind = _kind(p)
        if kind == "ability":
            c = _chars(p)
            text = c.get("description", next(iter(c.values()), ""))
            yield RosterAbility(v.clean(p.get("name")), v.clean(text))
        elif kind == "transport":
            yield RosterAbility("Transport", v.clean(_chars(p).get("capacity", "")))


class _Group:
    """A model group being read."""

    def __init__(self, sel: Node, count: int) -> None:
        self.sel = sel
        self.count = count
        self.stat: Node | None = None
        self.weapons: list[RosterWeapon] = []
        self.abilities: list[RosterAbility] = []
        self.keywords: list[str] = []


def _collect(sels: Iterator[Node], group: _Group | None, notes: list[str],
             sink_weapons: list[RosterWeapon], sink_abilities: list[RosterAbility],
             stats: list[Node]) -> None:
    for s in sels:
        n = group.count if group is not None and s is group.sel else _number(
            s, notes, f"selection {s.get('name')!r}")
        for p in s.all("profiles", "profile"):
            kind = _kind(p)
            if kind == "unit":
                stats.append(p)
            elif kind in {"ranged", "melee"}:
                sink_weapons.append(_weapon(p, kind, n, v.clean(s.get("name")), notes))
        sink_abilities.extend(_abilities_of(s))


def _keywords(sel: Node) -> tuple[list[str], list[str]]:
    kws: list[str] = []
    faction: list[str] = []
    for cat in sel.all("categories", "category"):
        name = v.clean(cat.get("name"))
        if not name or name.lower() in BUILDER_CATEGORIES:
            continue
        m = re.match(r"^faction\s*:\s*(.+)$", name, re.IGNORECASE)
        (faction if m else kws).append(m.group(1).strip() if m else name)
    return kws, faction


def _pick_stat(group: _Group, unit_stats: list[Node]) -> Node | None:
    if not unit_stats:
        return None
    want = name_key(group.sel.get("name"))
    for p in unit_stats:
        if name_key(p.get("name")) == want:
            return p
    for p in unit_stats:
        pn = name_key(p.get("name"))
        if pn and (want.startswith(pn) or pn in want):
            return p
    return unit_stats[0]


def _unit(sel: Node, ids: dict[str, str]) -> tuple[RosterUnit, list[tuple[str, str]], str]:
    """A unit, its links (kind, target selection id) and its faction keyword."""
    name = v.clean(sel.get("name")) or "(unnamed unit)"
    notes: list[str] = []
    kws, faction = _keywords(sel)
    model_sels = list(_models_under(sel))
    groups: list[_Group] = []
    unit_weapons: list[RosterWeapon] = []
    unit_abilities: list[RosterAbility] = []
    unit_stats: list[Node] = []
    if model_sels:
        _collect(_subtree(sel, stop_at_models=True), None, notes, unit_weapons, unit_abilities,
                 unit_stats)
        for m in model_sels:
            g = _Group(m, _number(m, notes, f"model {m.get('name')!r}"))
            stats: list[Node] = []
            _collect(_subtree(m, stop_at_models=True), g, notes, g.weapons, g.abilities, stats)
            g.stat = stats[0] if stats else None
            g.keywords, _ = _keywords(m)
            groups.append(g)
    else:
        g = _Group(sel, max(_number(sel, notes, f"unit {name!r}"), 1))
        stats = []
        _collect(_subtree(sel, stop_at_models=False), g, notes, g.weapons, g.abilities, stats)
        g.stat = stats[0] if stats else None
        unit_stats = stats[1:]
        groups.append(g)
    for g in groups:
        if g.stat is None:
            g.stat = _pick_stat(g, unit_stats)
    if unit_weapons:
        names = ", ".join(dict.fromkeys(w.name for w in unit_weapons))
        if len(groups) > 1:
            notes.append(f"weapons on the unit rather than a model ({names}): given to "
                         f"{groups[0].sel.get('name')!r}")
        groups[0].weapons[:0] = unit_weapons
    links: list[tuple[str, str]] = []
    for tag in ("association", "incomingAssociation"):
        for a in (*sel.all("associations", tag), *sel.all("incomingAssociations", tag)):
            label = " ".join(a.attrs.get(k, "") for k in ("name", "type", "kind")).lower()
            other = a.get("to") or a.get("target") or a.get("unit") or a.get("from")
            if a.tag == "incomingAssociation" or not other:
                continue
            if "lead" in label or "attach" in label or "support" in label:
                links.append(("support" if "support" in label else "leader", other))
            elif "embark" in label or "transport" in label:
                links.append(("embarked", other))
    seen: set[str] = set()
    unit_level: list[RosterAbility] = []
    for ab in unit_abilities:
        if ab.name and name_key(ab.name) not in seen:
            seen.add(name_key(ab.name))
            unit_level.append(ab)
    models: list[RosterModel] = []
    not_applied: list[str] = []
    for g in groups:
        own = [a for a in g.abilities if a.name]
        models.append(_model(g, unit_level, own, kws, faction, notes))
    model_list, not_applied, leader_text = interpret(models, notes)
    for kind, target in leader_text:
        links.append((kind, "name:" + target))
    points, found = _points(sel)
    unit = RosterUnit(name=name, points=round(points) if found else None,
                      models=tuple(model_list), not_applied=tuple(not_applied),
                      datasheet=name, warnings=tuple(f"unit {name!r}: {n}" for n in notes))
    ids[sel.get("id")] = name
    return unit, links, faction[0] if faction else ""


def _model(g: _Group, unit_level: list[RosterAbility], own: list[RosterAbility],
           kws: list[str], faction: list[str], notes: list[str]) -> RosterModel:
    name = v.clean(g.sel.get("name")) or "(unnamed model)"
    c = _chars(g.stat) if g.stat is not None else {}
    at = f"model {name!r}"
    if g.stat is None:
        notes.append(f"{at}: the roster gives no stat line")
    seen = {name_key(a.name) for a in unit_level}
    abilities = list(unit_level) + [a for a in own if name_key(a.name) not in seen]
    keywords = list(dict.fromkeys([*kws, *g.keywords, *faction]))
    insv = v.target(c.get("insv"), f"{at}: InSv", notes) if "insv" in c else None
    model = RosterModel(
        name=name, count=g.count, M=v.move(c.get("m"), f"{at}: M", notes),
        T=v.whole(c.get("t"), f"{at}: T", notes), Sv=v.target(c.get("sv"), f"{at}: Sv", notes),
        InSv=None, W=v.whole(c.get("w"), f"{at}: W", notes),
        Ld=v.target(c.get("ld"), f"{at}: Ld", notes),
        OC=v.control(c.get("oc"), f"{at}: OC", notes), keywords=tuple(keywords),
        abilities=tuple(abilities), weapons=tuple(g.weapons),
        profile=v.clean(g.stat.get("name")) if g.stat is not None else "")
    if insv is not None:
        raw = v.clean(c.get("insv"))
        model = merge_insv(model, insv, conditional="*" in raw, label=f"InSv {raw}")
    return model


def _forces(node: Node) -> Iterator[Node]:
    for f in node.all("forces", "force"):
        yield f
        yield from _forces(f)


def _detachment_rules(sel: Node) -> Iterator[str]:
    for s in _subtree(sel, stop_at_models=False):
        for a in _abilities_of(s):
            if a.name:
                yield a.name


def read_battlescribe(root: Node, *, source: str, fmt: str) -> Roster:
    """The roster in a BattleScribe/New Recruit tree."""
    if root.tag != "roster":
        what = {"catalogue": "a BattleScribe catalogue", "gameSystem": "a game system file"}.get(
            root.tag, f"a <{root.tag}> document")
        raise DataError(f"this is {what}, not a roster (root element 'roster')",
                        where=source)
    check_game_system(root, source)
    units: list[RosterUnit] = []
    links: list[list[tuple[str, str]]] = []
    factions: list[str] = []
    ids: dict[str, str] = {}
    army_rules: list[str] = []
    catalogue = ""
    for force in _forces(root):
        catalogue = catalogue or v.clean(force.get("catalogueName"))
        army_rules += [v.clean(r.get("name")) for r in force.all("rules", "rule")]
        for sel in force.all("selections", "selection"):
            if sel.get("type") in {"unit", "model"}:
                try:
                    unit, ln, fac = _unit(sel, ids)
                except DataError as exc:
                    raise exc.at(f"{source}: unit {sel.get('name')!r}") from None
                units.append(unit)
                links.append(ln)
                if fac:
                    factions.append(fac)
            elif re.search(r"detachment", sel.get("name"), re.IGNORECASE) or sel.get(
                    "group", "").lower().startswith("detachment"):
                army_rules += list(_detachment_rules(sel))
    if not units:
        raise DataError("the roster has no units (no selection of type unit or model in any "
                        "force)", where=source)
    return _finish(root, source, fmt, units, links, ids, factions, army_rules, catalogue)


def resolve_links(units: list[RosterUnit], links: list[list[tuple[str, str]]],
                  ids: dict[str, str]) -> list[RosterUnit]:
    """Units with ``leader_of`` / ``embarked_in`` set from their links: (kind, target) with
    target a selection id or ``name:<unit name>``; ``led_by``/``supported_by`` links point the
    other way (the bodyguard names its leader)."""
    by_key: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        by_key.setdefault(name_key(u.name), []).append(i)

    def find(other: str) -> int | None:
        # "Boyz[2]" (New Recruit text) is the second unit called Boyz.
        m = re.match(r"^(.*?)\s*\[(\d+)\]$", other)
        name, nth = (m.group(1), int(m.group(2))) if m else (other, 1)
        found = by_key.get(name_key(name), [])
        return found[nth - 1] if 0 < nth <= len(found) else None

    out = list(units)
    for i, ln in enumerate(links):
        for kind, target in ln:
            other = target[5:] if target.startswith("name:") else ids.get(target, "")
            j = find(other) if other else None
            if j is None:
                out[i] = replace(out[i], warnings=(
                    *out[i].warnings, f"unit {out[i].name!r}: {kind.replace('_', ' ')} "
                    f"{other or target!r}, which is not a unit of this roster: ignored"))
            elif kind == "embarked":
                out[i] = replace(out[i], embarked_in=units[j].name)
            elif kind in {"led_by", "supported_by"}:
                if out[j].leader_of is None:
                    role = "support" if kind == "supported_by" else "leader"
                    out[j] = replace(out[j], leader_of=units[i].name, role=role)
            else:
                out[i] = replace(out[i], leader_of=units[j].name, role=kind)
    return out


def _finish(root: Node, source: str, fmt: str, units: list[RosterUnit],
            links: list[list[tuple[str, str]]], ids: dict[str, str], factions: list[str],
            army_rules: list[str], catalogue: str) -> Roster:
    out = resolve_links(units, links, ids)
    total, found = _points(root) if any(True for _ in root.all("costs", "cost")) else (0, False)
    if not found:
        pts = [u.points for u in out if u.points is not None]
        total, found = float(sum(pts)), bool(pts)
    faction = max(dict.fromkeys(factions), key=factions.count) if factions else catalogue
    return Roster(source=source, format=fmt, name=v.clean(root.get("name")) or "Roster",
                  faction=faction, points=round(total) if found else None, units=tuple(out),
                  army_rules=tuple(dict.fromkeys(r for r in army_rules if r)),
                  warnings=tuple(w for u in out for w in u.warnings))
