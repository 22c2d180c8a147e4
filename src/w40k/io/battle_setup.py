"""Starting positions for `w40k battle`: the embedded default (two small armies on a 60"x44"
table with terrain and five objectives) and positions built from army files."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import cast

import numpy as np

from w40k.engine.ability_catalog import known
from w40k.engine.ability_catalog import not_applied as catalog_not_applied
from w40k.engine.serial import JSON, profile_to_json, weapon_to_json
from w40k.engine.state import FORMAT
from w40k.io.army import builtin
from w40k.io.army_build import make_unit
from w40k.io.army_model import Army, Unit
from w40k.io.deploy import CLEAR, COHERENCY_ALL, block, spread

WIDTH, DEPTH = 60.0, 44.0
DEPLOY_DEPTH = 8.0

DEFAULT_TERRAIN: dict[str, JSON] = {
    "areas": [
        {"name": "north-west ruin", "footprint": [[12, 12], [20, 12], [20, 18], [12, 18]]},
        {"name": "north-east woods", "footprint": [[40, 12], [48, 12], [48, 18], [40, 18]]},
        {"name": "south-west woods", "footprint": [[12, 26], [20, 26], [20, 32], [12, 32]]},
        {"name": "south-east ruin", "footprint": [[40, 26], [48, 26], [48, 32], [40, 32]]},
    ],
    "terrain": [
        {"name": "ruin wall NW", "category": "dense", "area": "north-west ruin",
         "footprint": [[13, 13], [19, 13], [19, 13.5], [13, 13.5]], "height": 5.0},
        {"name": "ruin wall NW 2", "category": "dense", "area": "north-west ruin",
         "footprint": [[13, 13.5], [13.5, 13.5], [13.5, 17], [13, 17]], "height": 5.0},
        {"name": "trees NE", "category": "light", "area": "north-east woods",
         "footprint": [[42, 13], [46, 13], [46, 17], [42, 17]], "height": 4.0},
        {"name": "trees SW", "category": "light", "area": "south-west woods",
         "footprint": [[14, 27], [18, 27], [18, 31], [14, 31]], "height": 4.0},
        {"name": "ruin wall SE", "category": "dense", "area": "south-east ruin",
         "footprint": [[41, 30.5], [47, 30.5], [47, 31], [41, 31]], "height": 5.0},
        {"name": "ruin wall SE 2", "category": "dense", "area": "south-east ruin",
         "footprint": [[46.5, 27], [47, 27], [47, 30.5], [46.5, 30.5]], "height": 5.0},
        {"name": "crates", "category": "exposed", "area": None,
         "footprint": [[28, 17], [32, 17], [32, 18.5], [28, 18.5]], "height": 1.5},
    ],
}
"""Four terrain areas (two ruins with dense walls, two woods) and a line of crates."""

DEFAULT_OBJECTIVES: list[JSON] = [
    {"name": "centre", "x": 30.0, "y": 22.0},
    {"name": "west", "x": 8.0, "y": 22.0},
    {"name": "east", "x": 52.0, "y": 22.0},
    {"name": "red home", "x": 30.0, "y": 6.0},
    {"name": "blue home", "x": 30.0, "y": 38.0},
]
"""Five 40 mm objective markers."""

DEFAULT_MISSION: dict[str, JSON] = {
    "name": "take-and-hold", "rounds": 5, "scoring_from_round": 2, "vp_per_objective": 5,
    "vp_cap": 15,
}
"""The built-in mission (docs/battle.md)."""


def _formation(n: int, base_in: float, cx: float, y0: float, direction: int
               ) -> list[tuple[float, float]]:
    """Positions in rows of at most 5, 0.5" apart, starting at the deployment edge."""
    gap = base_in + 0.5
    per_row = min(5, n)
    out = []
    for i in range(n):
        row, col = divmod(i, per_row)
        x = cx + (col - (per_row - 1) / 2) * gap
        y = y0 + direction * (base_in / 2 + 0.5 + row * gap)
        out.append((round(x, 4), round(y, 4)))
    return out


def unit_id(player: str, name: str, taken: set[str]) -> str:
    """A unit id made from a name, unique among ``taken`` (which it joins): two names that
    differ only in punctuation ("Second squad", "Second-squad") get distinct ids."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unit"
    uid = f"{player}.{slug}"
    n = 1
    while uid in taken:
        n += 1
        uid = f"{player}.{slug}-{n}"
    taken.add(uid)
    return uid


def model_abilities(component: Unit) -> tuple[str, ...]:
    """The catalog abilities (engine/ability_catalog.py) of a component's datasheet: what
    each of its models carries in a position."""
    return known(a.name for a in component.datasheet.named_abilities)


def not_applied(army: Army) -> list[str]:
    """The named abilities of ``army``'s datasheets that the engine does not apply (one line
    each, ``'Rites of Battle' (Captain) is not applied``), never silently dropped."""
    return catalog_not_applied((c.datasheet.name, a.name) for u in army.units
                               for c in u.components for a in c.datasheet.named_abilities)


def _unit_json(unit: Unit, player: str, cx: float, edge_y: float, direction: int,
               taken: set[str], *, abilities: bool = False) -> dict[str, JSON]:
    models = [(m, comp is not unit, model_abilities(comp) if abilities else ())
              for comp in unit.components for m in comp.models]
    bases = [(m.profile.base_mm if isinstance(m.profile.base_mm, float)
              else max(m.profile.base_mm or (32.0, 32.0))) for m, _, _ in models]
    places = _formation(len(models), max(bases) / 25.4, cx, edge_y, direction)
    radii = [b / 25.4 / 2 for b in bases]
    if spread(np.asarray(places), radii) > COHERENCY_ALL - CLEAR:
        # R03.03-b: rows of five would put two models more than 9" apart (a big mob with a
        # leader on a large base): a round cluster, its near edge 0.5" from the edge
        offsets = block(radii)
        near = float(min(oy - r for (_, oy), r in zip(offsets, radii, strict=True)))
        places = [(round(cx + float(ox), 4), round(edge_y + direction * (0.5 + float(oy) - near),
                                                   4)) for ox, oy in offsets]
    uid = unit_id(player, unit.name, taken)
    seen: dict[str, int] = {}
    out_models: list[JSON] = []
    for (m, leader, names), (x, y) in zip(models, places, strict=True):
        seen[m.name] = seen.get(m.name, 0) + 1
        model: dict[str, JSON] = {
            "id": f"{uid}.{len(out_models) + 1}", "name": m.name,
            "profile": profile_to_json(m.profile),
            "weapons": [weapon_to_json(w) for w in m.weapons],
            "x": x, "y": y, "facing": 0.0 if direction > 0 else math.pi, "leader": leader,
        }
        if names:
            model["abilities"] = list[JSON](names)
        out_models.append(model)
    return {"id": uid, "name": unit.name, "player": player, "attached": unit.is_attached,
            "models": out_models}


def _starts_off(u: Unit, army: Army) -> bool:
    """The unit starts in reserves, or embarked within a TRANSPORT of its army (a roster's
    transport without a capacity: its passengers deploy as the others)."""
    if u.reserves is not None:
        return True
    if u.embarked_in is None:
        return False
    return any(t.name.casefold() == u.embarked_in.casefold()
               and any(m.profile.transport is not None for m in t.all_models)
               for t in army.units)


def position_from_armies(red: Army, blue: Army, *, terrain: dict[str, JSON] | None = None,
                         objectives: Sequence[JSON] | None = None,
                         mission: dict[str, JSON] | None = None,
                         abilities: bool = False) -> dict[str, JSON]:
    """A starting position: red deploys along the top edge, blue along the bottom, each unit
    on the battlefield in its own column of the deployment zone; a unit the army file starts
    ``embarked_in`` a transport or in ``reserves`` starts there (off the battlefield).
    ``abilities``: models carry their datasheets' catalog abilities (docs/battle.md
    "Abilities")."""
    units: list[JSON] = []
    taken: set[str] = set()
    for army, player, edge, direction in ((red, "red", 0.0, 1), (blue, "blue", DEPTH, -1)):
        off = {u.name for u in army.units if _starts_off(u, army)}
        on_table = [u for u in army.units if u.name not in off]
        n = len(on_table)
        ids: dict[str, str] = {}
        made: list[tuple[Unit, dict[str, JSON]]] = []
        for unit in army.units:
            cx = WIDTH * (on_table.index(unit) + 1) / (n + 1) if unit in on_table \
                else WIDTH / 2  # off the battlefield: its coordinates are not used
            made.append((unit, _unit_json(unit, player, cx, edge, direction, taken,
                                          abilities=abilities)))
            ids[unit.name.casefold()] = str(made[-1][1]["id"])
        for unit, data in made:
            if unit.reserves is not None:
                data["location"] = "reserves"  # 20.01 (Deep Strike: 24.09)
                data["embarked_in"] = None
            elif unit.name in off:
                data["location"] = "embarked"  # 18: within its TRANSPORT
                data["embarked_in"] = ids[cast(str, unit.embarked_in).casefold()]
            units.append(data)
    return {"format": FORMAT, "battlefield": {"width": WIDTH, "depth": DEPTH},
            "terrain": terrain if terrain is not None else DEFAULT_TERRAIN,
            "mission": mission if mission is not None else DEFAULT_MISSION,
            "players": [{"name": "red", "cp": 0, "vp": 0}, {"name": "blue", "cp": 0, "vp": 0}],
            "units": units,
            "objectives": list(objectives if objectives is not None else DEFAULT_OBJECTIVES)}


def default_armies() -> tuple[Army, Army]:
    """The embedded default armies: a Space Marine strike force (Intercessors led by a Captain,
    a Lieutenant) and two mobs of ten Boyz."""
    red = builtin("space_marines").army
    orks = builtin("boyz")
    assert red is not None
    sheet = orks.catalogue["Boyz"]
    blue = Army("Waaagh!", "ORKS", (make_unit(sheet, name="Boyz", count=10),
                                   make_unit(sheet, name="More Boyz", count=10)))
    return red, blue


def default_position() -> dict[str, JSON]:
    """The embedded default: :func:`default_armies` on the default table."""
    return position_from_armies(*default_armies())


REAL_MISSION = "flank-assault"
"""The shipped mission :func:`real_battle_position` and ``w40k battle`` play by default."""

DEFAULT_ARMIES: dict[str, str] = {"red": "strike_force", "blue": "waaagh_band"}
"""The shipped armies ``w40k battle`` plays by default (:func:`real_armies`)."""


def real_armies() -> tuple[Army, Army]:
    """The two default armies of about 1000 points (Incursion): ``strike_force`` (red) and
    ``waaagh_band`` (blue)."""
    red, blue = builtin(DEFAULT_ARMIES["red"]).army, builtin(DEFAULT_ARMIES["blue"]).army
    assert red is not None and blue is not None
    return red, blue


def real_battle_position(mission: str = REAL_MISSION, layout: str | None = None, *,
                         rounds: int | None = None, pre_battle: bool = False
                         ) -> dict[str, JSON]:
    """A full battle: :func:`real_armies` on a shipped ``mission`` (its layout, or the
    shipped ``layout`` given; ``rounds`` instead of the mission's battle length), with the
    units' catalog abilities and their starting state (embarked, reserves); with
    ``pre_battle``, starting with the pre-battle sequence instead (the players declare
    reserves and deploy; the army files' choices stay in the starting position)."""
    from w40k.io.missions import mission_position, shipped_mission

    params = shipped_mission(mission)
    if layout is not None:
        params = {**params, "layout": layout}
        params.pop("terrain", None)
    if rounds is not None:
        params = {**params, "rounds": rounds}
    return mission_position(*real_armies(), params, abilities=True, pre_battle=pre_battle)
