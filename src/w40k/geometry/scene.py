"""Scenes (battlefield, terrain, units) and the JSON scene loader used by ``w40k los``.

Errors name the file and the field path (``scene.json: units[2].models[0].base_mm: ...``).
Unit abilities are parsed here by a small local parser (``Stealth``, ``Lone Operative``,
``Lone Operative 6"``); unknown ability strings are kept but ignored by geometry.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from w40k.geometry.shapes import Battlefield, Model
from w40k.geometry.terrain import (
    SOLID_GAP,
    Category,
    Surface,
    Terrain,
    TerrainArea,
    TerrainFeature,
)

LONE_OPERATIVE_RANGE = 12.0
"""24.24: default Lone Operative range."""
DETECTION_RANGE = 15.0
"""13.09: default detection range."""

_LONE_OP = re.compile(
    r"^\s*lone\s+operative(?:\s+(\d+(?:\.\d+)?)\s*(?:\"|''|in(?:ches)?|”)?)?\s*$", re.I
)
_STEALTH = re.compile(r"^\s*stealth\s*$", re.I)


def parse_lone_operative(abilities: tuple[str, ...]) -> float | None:
    """The Lone Operative range of a unit (12" or X"), or None."""
    for a in abilities:
        m = _LONE_OP.match(a)
        if m:
            return float(m.group(1)) if m.group(1) else LONE_OPERATIVE_RANGE
    return None


def has_stealth(abilities: tuple[str, ...]) -> bool:
    """True if the abilities include Stealth."""
    return any(_STEALTH.match(a) for a in abilities)


@dataclass(frozen=True)
class Unit:
    """A unit on the battlefield, as geometry sees it."""

    name: str
    """Unit name."""
    player: str
    """Owning player (any string)."""
    models: tuple[Model, ...]
    """Its models."""
    abilities: tuple[str, ...] = ()
    """Abilities as the datasheet writes them."""
    ranged_attacks_recently: bool = False
    """13.09: made ranged attacks this turn or the previous one."""
    attached: bool = False
    """Part of an attached unit (24.24 then gives no protection)."""
    weapon_range: float | None = None
    """Optional weapon range (inches) for the ``in_range`` report."""
    detection_range: float = DETECTION_RANGE
    """13.09: its models' detection range."""

    @property
    def lone_operative(self) -> float | None:
        """24.24: Lone Operative range (None without the ability or when attached)."""
        if self.attached:
            return None
        return parse_lone_operative(self.abilities)

    @property
    def stealth(self) -> bool:
        """24.33: every model has Stealth (a unit-level ability applies to every model)."""
        return has_stealth(self.abilities)


@dataclass(frozen=True)
class Scene:
    """Battlefield, terrain and units."""

    battlefield: Battlefield
    """The table."""
    terrain: Terrain
    """Terrain areas and features."""
    units: tuple[Unit, ...]
    """All units."""

    def unit(self, name: str) -> Unit:
        """Look a unit up by name."""
        for u in self.units:
            if u.name == name:
                return u
        raise KeyError(name)


class SceneError(ValueError):
    """A malformed scene file: the message names the file and the field path."""


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, expected: str, got: object) -> SceneError:
        shown = json.dumps(got) if not isinstance(got, Mapping | list) else type(got).__name__
        return SceneError(f"{self.source}: {path}: expected {expected}, got {shown}")

    def obj(self, v: object, path: str) -> Mapping[str, object]:
        if not isinstance(v, Mapping):
            raise self.fail(path, "an object", v)
        return v

    def key(self, o: Mapping[str, object], k: str, path: str) -> object:
        if k not in o:
            raise SceneError(
                f"{self.source}: {path}.{k}: missing required key"
                if path
                else f"{self.source}: {k}: missing required key"
            )
        return o[k]

    def num(self, v: object, path: str) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(float(v)):
            raise self.fail(path, "a number", v)
        return float(v)

    def pos(self, v: object, path: str) -> float:
        x = self.num(v, path)
        if x < 0:
            raise self.fail(path, "a non-negative number", v)
        return x

    def string(self, v: object, path: str) -> str:
        if not isinstance(v, str):
            raise self.fail(path, "a string", v)
        return v

    def boolean(self, v: object, path: str) -> bool:
        if not isinstance(v, bool):
            raise self.fail(path, "true or false", v)
        return v

    def lst(self, v: object, path: str) -> list[object]:
        if not isinstance(v, list):
            raise self.fail(path, "a list", v)
        return v

    def points(self, v: object, path: str) -> tuple[tuple[float, float], ...]:
        pts = self.lst(v, path)
        out: list[tuple[float, float]] = []
        for i, p in enumerate(pts):
            if not isinstance(p, list) or len(p) != 2:
                raise self.fail(f"{path}[{i}]", "[x, y]", p)
            out.append((self.num(p[0], f"{path}[{i}][0]"), self.num(p[1], f"{path}[{i}][1]")))
        if len(out) < 3:
            raise self.fail(path, "a polygon of at least 3 points", v)
        return tuple(out)


def scene_from_dict(data: object, source: str = "scene") -> Scene:
    """Build a scene from parsed JSON (see docs/geometry.md for the format)."""
    r = _Reader(source)
    root = r.obj(data, "(root)")
    bf = r.obj(r.key(root, "battlefield", ""), "battlefield")
    battlefield = Battlefield(
        r.pos(r.key(bf, "width", "battlefield"), "battlefield.width"),
        r.pos(r.key(bf, "depth", "battlefield"), "battlefield.depth"),
    )
    areas: list[TerrainArea] = []
    for i, a in enumerate(r.lst(root.get("areas", []), "areas")):
        p = f"areas[{i}]"
        ao = r.obj(a, p)
        areas.append(
            TerrainArea(
                r.string(r.key(ao, "name", p), f"{p}.name"),
                r.points(r.key(ao, "footprint", p), f"{p}.footprint"),
            )
        )
    names = {a.name for a in areas}
    features: list[TerrainFeature] = []
    for i, f in enumerate(r.lst(root.get("terrain", []), "terrain")):
        p = f"terrain[{i}]"
        fo = r.obj(f, p)
        cat = r.string(r.key(fo, "category", p), f"{p}.category")
        try:
            category = Category(cat.lower())
        except ValueError:
            raise r.fail(f"{p}.category", '"exposed", "light" or "dense"', cat) from None
        area: str | None = None
        if fo.get("area") is not None:
            area = r.string(fo["area"], f"{p}.area")
            if area not in names:
                raise SceneError(
                    f"{source}: {p}.area: unknown terrain area {json.dumps(area)}"
                    f" (areas: {', '.join(sorted(names)) or 'none'})"
                )
        surfaces: list[Surface] = []
        for j, s in enumerate(r.lst(fo.get("surfaces", []), f"{p}.surfaces")):
            sp = f"{p}.surfaces[{j}]"
            so = r.obj(s, sp)
            surfaces.append(
                Surface(
                    r.points(r.key(so, "footprint", sp), f"{sp}.footprint"),
                    r.pos(r.key(so, "height", sp), f"{sp}.height"),
                    r.boolean(so.get("stable", True), f"{sp}.stable"),
                )
            )
        opaque = fo.get("opaque_height")
        features.append(
            TerrainFeature(
                r.string(r.key(fo, "name", p), f"{p}.name"),
                category,
                r.points(r.key(fo, "footprint", p), f"{p}.footprint"),
                r.pos(r.key(fo, "height", p), f"{p}.height"),
                area,
                None if opaque is None else r.pos(opaque, f"{p}.opaque_height"),
                tuple(surfaces),
            )
        )
    units: list[Unit] = []
    for i, u in enumerate(r.lst(r.key(root, "units", ""), "units")):
        p = f"units[{i}]"
        uo = r.obj(u, p)
        kws = [
            r.string(k, f"{p}.keywords[{j}]").upper()
            for j, k in enumerate(r.lst(uo.get("keywords", []), f"{p}.keywords"))
        ]
        abilities = tuple(
            r.string(k, f"{p}.abilities[{j}]")
            for j, k in enumerate(r.lst(uo.get("abilities", []), f"{p}.abilities"))
        )
        uname = r.string(r.key(uo, "name", p), f"{p}.name")
        models: list[Model] = []
        mlist = r.lst(r.key(uo, "models", p), f"{p}.models")
        if not mlist:
            raise r.fail(f"{p}.models", "at least one model", mlist)
        for j, m in enumerate(mlist):
            mp = f"{p}.models[{j}]"
            mo = r.obj(m, mp)
            base = mo.get("base_mm", 32)
            base_mm: float | tuple[float, float] | None
            if base is None:
                base_mm = None
            elif isinstance(base, list):
                if len(base) != 2:
                    raise r.fail(f"{mp}.base_mm", "a number or [w, h]", base)
                base_mm = (r.pos(base[0], f"{mp}.base_mm[0]"), r.pos(base[1], f"{mp}.base_mm[1]"))
            elif isinstance(base, bool) or not isinstance(base, int | float):
                raise r.fail(f"{mp}.base_mm", "a number or [w, h]", base)
            else:
                base_mm = r.pos(base, f"{mp}.base_mm")
            mk = kws + [
                r.string(k, f"{mp}.keywords[{q}]").upper()
                for q, k in enumerate(r.lst(mo.get("keywords", []), f"{mp}.keywords"))
            ]
            hull = None
            if mo.get("hull") is not None:
                hull = r.points(mo["hull"], f"{mp}.hull")
            if base_mm is None and hull is None:
                raise SceneError(f"{source}: {mp}: a model needs base_mm or hull")
            models.append(
                Model(
                    name=r.string(mo.get("name", f"{uname} {j + 1}"), f"{mp}.name"),
                    x=r.num(r.key(mo, "x", mp), f"{mp}.x"),
                    y=r.num(r.key(mo, "y", mp), f"{mp}.y"),
                    z=r.pos(mo.get("z", 0), f"{mp}.z"),
                    base_mm=base_mm,
                    height=r.pos(mo.get("height", 1.6), f"{mp}.height"),
                    facing=r.num(mo.get("facing", 0.0), f"{mp}.facing"),
                    keywords=frozenset(mk),
                    hull=hull,
                )
            )
        rng = uo.get("range")
        units.append(
            Unit(
                name=uname,
                player=r.string(r.key(uo, "player", p), f"{p}.player"),
                models=tuple(models),
                abilities=abilities,
                ranged_attacks_recently=r.boolean(
                    uo.get("ranged_attacks_recently", False), f"{p}.ranged_attacks_recently"
                ),
                attached=r.boolean(uo.get("attached", False), f"{p}.attached"),
                weapon_range=None if rng is None else r.pos(rng, f"{p}.range"),
                detection_range=r.pos(
                    uo.get("detection_range", DETECTION_RANGE), f"{p}.detection_range"
                ),
            )
        )
    seen: set[str] = set()
    for i, un in enumerate(units):
        if un.name in seen:
            raise SceneError(
                f"{source}: units[{i}].name: duplicate unit name {json.dumps(un.name)}"
            )
        seen.add(un.name)
    # R13.11-b reading: gaps up to 3" between dense features of one area block (null: off)
    gap = root.get("solid_gap", SOLID_GAP)
    solid_gap = None if gap is None else r.pos(gap, "solid_gap")
    return Scene(battlefield, Terrain(tuple(areas), tuple(features), solid_gap), tuple(units))


def load_scene(path: str | Path) -> Scene:
    """Read and validate a scene file (raises :class:`SceneError`).

    The low-level reader of the geometry layer; ``w40k los`` and ``w40k.load_scene`` use
    :func:`w40k.io.scene_model.load_scene`, which adds the project's input limits and the
    consistency checks (docs/input-limits.md)."""
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8-sig")
    except OSError as e:
        raise SceneError(f"{p.name}: cannot read file ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise SceneError(f"{p.name}: not UTF-8 text (byte {e.start})") from None

    def refuse(name: str) -> object:
        raise SceneError(f"{p.name}: {name} is not a number (give a finite number)")

    try:
        data = json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError as e:
        raise SceneError(
            f"{p.name}: invalid JSON at line {e.lineno} column {e.colno}: {e.msg}"
        ) from None
    except (RecursionError, ValueError) as e:
        raise SceneError(f"{p.name}: cannot read the JSON ({str(e)[:100]})") from None
    return scene_from_dict(data, p.name)
