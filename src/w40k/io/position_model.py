"""Positions (docs/positions.md) as one pydantic model, plus the consistency checks a model
cannot express: :func:`validate_position` is called before a position reaches the engine.

Hand-written parts are strict (unknown keys are errors). A saved game's extra parts are
accepted as ``Game.save()`` writes them: ``frames`` (shape only: a list of
``{"kind", "data"}`` with a frame kind the engine knows; the engine validates frame data),
``events``, ``choices``, ``seed``, ``setup`` (itself a position), and the opaque objects
``dice`` (dice-source state) and ``options`` (rule options).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, cast

from pydantic import Field

from w40k.core.errors import DataError
from w40k.engine.serial import JSON
from w40k.io import limits
from w40k.io.army_schema import BaseMm, Leadership, Move
from w40k.io.mission_model import MissionModel, check_mission
from w40k.io.model_base import (
    CapacityModel,
    Characteristic,
    Coord,
    Dice,
    Inches,
    Strict,
    Text,
    Texts,
    validate,
)
from w40k.io.scenario_model import ArmourPen, Save, Skill, Strength, WeaponRange
from w40k.io.scene_model import AreaModel, BattlefieldModel, FeatureModel, check_polygons

FORMAT: Literal["w40k-position/1"] = "w40k-position/1"
"""The position format this module checks (the engine's ``state.FORMAT``)."""

Count = Annotated[int, Field(ge=0, le=limits.MAX_MODELS_PER_UNIT)]
Points = Annotated[int, Field(ge=0, le=limits.MAX_CP)]


class ProfileModel(Strict):
    """A model's characteristics as a datasheet writes them."""

    name: Text
    M: Move = 6
    T: Characteristic
    Sv: Save
    W: Characteristic
    Ld: Leadership = 7
    OC: Move = 1
    InSv: Save | None = None
    base_mm: BaseMm | Annotated[list[BaseMm], Field(min_length=2, max_length=2)] | None = 32.0
    height: Annotated[float, Field(gt=0, le=100)] = 1.5
    keywords: Texts = []
    abilities: Texts = []
    transport: CapacityModel | None = None


class WeaponModel(Strict):
    """A weapon as a datasheet writes it."""

    name: Text
    range: WeaponRange
    A: Dice
    skill: Skill
    S: Strength
    AP: ArmourPen
    D: Dice
    abilities: Texts = []


class ModelModel(Strict):
    """One model of a unit."""

    id: Text
    name: Text | None = None
    profile: ProfileModel
    weapons: Annotated[list[WeaponModel], Field(max_length=50)] = []
    x: Coord = 0.0
    y: Coord = 0.0
    z: Inches = 0.0
    facing: Annotated[float, Field(ge=-100, le=100)] = 0.0
    wounds_lost: Annotated[int, Field(ge=0, le=limits.MAX_CHARACTERISTIC)] = 0
    destroyed: bool = False
    leader: bool = False
    one_shots_used: Texts = []
    abilities: Texts = []


class UnitModel(Strict):
    """One unit (an attached unit is one unit)."""

    id: Text
    name: Text | None = None
    player: Text
    starting_strength: Count = 0
    flags: dict[str, bool] = {}
    max_move: Inches = 0.0
    attached: bool = False
    location: Literal["battlefield", "reserves", "embarked", "undeployed"] = "battlefield"
    embarked_in: Text | None = None
    models: Annotated[list[ModelModel], Field(min_length=1, max_length=limits.MAX_MODELS_PER_UNIT)]


class PlayerModel(Strict):
    """A player."""

    name: Text
    cp: Points = 0
    vp: Points = 0
    effects: dict[str, Text | Annotated[int, Field(ge=0, le=limits.MAX_ROUNDS)] | None] = {}


class ObjectiveModel(Strict):
    """An objective marker or terrain objective."""

    name: Text
    x: Coord = 0.0
    y: Coord = 0.0
    area: Text | None = None
    controller: Text | None = None
    secured_by: Text | None = None


class TerrainModel(Strict):
    """Terrain areas and features (the scene format)."""

    areas: Annotated[list[AreaModel], Field(max_length=limits.MAX_TERRAIN)] = []
    terrain: Annotated[list[FeatureModel], Field(max_length=limits.MAX_TERRAIN)] = []


class StratagemUseModel(Strict):
    """One stratagem used (15.01; the per-phase limits are read from these)."""

    player: Text
    name: Text
    units: Annotated[list[Text], Field(max_length=limits.MAX_UNITS)] = []
    answer: Any = None
    cp: Points = 0
    round: Annotated[int, Field(ge=0, le=limits.MAX_ROUNDS)] = 0
    turn: str = ""
    phase: str = ""


class ActionRecordModel(Strict):
    """One action started (16.01) and its status."""

    name: Text
    unit: Text
    player: Text
    round: Annotated[int, Field(ge=0, le=limits.MAX_ROUNDS)] = 0
    turn: str = ""
    phase: str = ""
    status: Literal["performing", "completed", "failed"] = "performing"


class FrameModel(Strict):
    """One pending-resolution frame of a saved game (its data is checked by the kind's typed
    frame, engine/frames.py: :func:`validate_position`)."""

    kind: Text
    data: dict[str, Any]


class PreBattleModel(Strict):
    """The pre-battle section: the battle size's points limit and each unit's points
    (20.01's 50% share of strategic reserves)."""

    points_limit: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    points: dict[str, Annotated[int, Field(ge=0, le=1_000_000)]] = {}


class PositionModel(Strict):
    """A position: hand-written, or saved by ``Game.save()``."""

    format: Literal["w40k-position/1"] = FORMAT
    battlefield: BattlefieldModel
    terrain: TerrainModel = TerrainModel()
    mission: MissionModel = MissionModel()
    players: Annotated[list[PlayerModel], Field(min_length=2, max_length=2)]
    units: Annotated[list[UnitModel], Field(max_length=limits.MAX_UNITS)]
    objectives: Annotated[list[ObjectiveModel], Field(max_length=limits.MAX_TERRAIN)] = []
    round: Annotated[int, Field(ge=0, le=limits.MAX_ROUNDS)] = 0
    turn_player: str = ""
    active: str = ""
    phase: str = ""
    ended: bool = False
    stratagems: Annotated[list[StratagemUseModel], Field(max_length=limits.MAX_EVENTS)] = []
    actions: Annotated[list[ActionRecordModel], Field(max_length=limits.MAX_EVENTS)] = []
    pre_battle: bool | PreBattleModel | None = None
    """Start with the pre-battle sequence (engine/phases/deployment.py): Declare Battle
    Formations, Deployment, Scouts and the first turn."""
    # Saved-game parts (Game.save()):
    frames: Annotated[list[FrameModel], Field(max_length=1000)] = []
    events: Annotated[list[dict[str, Any]], Field(max_length=limits.MAX_EVENTS)] = []
    choices: Annotated[list[Any], Field(max_length=limits.MAX_RECORD_CHOICES)] = []
    seed: Annotated[int, Field(ge=-(2**63), le=2**63)] | None = None
    setup: dict[str, Any] | None = None
    dice: dict[str, Any] | None = None
    options: dict[str, Any] | None = None
    policies: dict[str, Literal['listed', 'closest_first']] | None = None


def engine_names() -> tuple[frozenset[str], tuple[str, ...], tuple[str, ...]]:
    """The engine's frame kinds, phases and unit flags (read lazily: the engine's tables)."""
    from w40k.engine import game as _game  # noqa: F401  (fills the handler table)
    from w40k.engine.state import PHASES, UNIT_FLAGS
    from w40k.engine.table import HANDLERS

    return frozenset(HANDLERS), PHASES, UNIT_FLAGS


def _radius(profile: ProfileModel) -> float:
    """The smallest half-width of a base, in inches (ovals count by their short axis, so that
    the overlap check never refuses a legal position)."""
    base = profile.base_mm
    if base is None:
        return 0.0
    mm = min(base) if isinstance(base, list) else base
    return mm / 25.4 / 2


def _check_names(p: PositionModel, where: str) -> None:
    names = [pl.name for pl in p.players]
    if names[0] == names[1]:
        raise DataError(f"expected two different player names, found {names[0]!r} twice",
                        where=f"{where}players[1].name")
    for key in ("turn_player", "active"):
        value = getattr(p, key)
        if value and value not in names:
            raise DataError(f"expected '' or a player ({', '.join(names)}), found {value!r}",
                            where=f"{where}{key}")
    for i, o in enumerate(p.objectives):
        for key in ("controller", "secured_by"):
            value = getattr(o, key)
            if value is not None and value not in names:
                raise DataError(f"expected null or a player ({', '.join(names)}), found "
                                f"{value!r}", where=f"{where}objectives[{i}].{key}")
    unit_ids: set[str] = set()
    model_ids: set[str] = set()
    for i, u in enumerate(p.units):
        if u.player not in names:
            raise DataError(f"expected a player ({', '.join(names)}), found {u.player!r}",
                            where=f"{where}units[{i}].player")
        if u.id in unit_ids:
            raise DataError(f"unit id {u.id!r} is used twice", where=f"{where}units[{i}].id")
        unit_ids.add(u.id)
        if (u.location == "embarked") != (u.embarked_in is not None):
            raise DataError("an embarked unit names its transport in 'embarked_in', and only "
                            "an embarked unit does", where=f"{where}units[{i}].embarked_in")
        for j, m in enumerate(u.models):
            if m.id in model_ids:
                raise DataError(f"model id {m.id!r} is used twice",
                                where=f"{where}units[{i}].models[{j}].id")
            model_ids.add(m.id)
    _check_transports(p, where)


def _check_transports(p: PositionModel, where: str) -> None:
    """18.01: an embarked unit is within a friendly TRANSPORT unit that is not embarked
    itself, each of its models may embark, and no transport holds more than its capacity."""
    from w40k.core.transport import Capacity
    from w40k.rules.transport import capacity_violations

    by_id = {u.id: u for u in p.units}
    loads: dict[str, list[list[frozenset[str]]]] = {}
    for i, u in enumerate(p.units):
        if u.embarked_in is None:
            continue
        at = f"{where}units[{i}].embarked_in"
        host = by_id.get(u.embarked_in)
        cap = None if host is None else next(
            (m.profile.transport for m in host.models if m.profile.transport is not None),
            None)
        if host is None or cap is None or host.location == "embarked" \
                or host.player != u.player:
            raise DataError(f"expected a friendly TRANSPORT unit with a capacity that is not "
                            f"embarked itself, found {u.embarked_in!r}", where=at)
        capacity = Capacity.from_json(cap.model_dump())
        unit = [frozenset(k.upper() for k in m.profile.keywords)
                for m in u.models if not m.destroyed]
        problems = capacity_violations(capacity, loads.get(host.id, []), unit)
        if problems:
            raise DataError(problems[0], where=at)
        loads.setdefault(host.id, []).append(unit)


def _check_models(p: PositionModel, where: str) -> None:
    import numpy as np

    _, _, flags = engine_names()
    bf = p.battlefield
    total = sum(len(u.models) for u in p.units)
    if total > limits.MAX_MODELS:
        raise DataError(f"{total} models, over the limit of {limits.MAX_MODELS}",
                        where=f"{where}units")
    living: list[tuple[str, float, float, float]] = []
    for i, u in enumerate(p.units):
        for key in u.flags:
            if key not in flags:
                raise DataError(f"unknown flag {key!r} (flags: {', '.join(flags)})",
                                where=f"{where}units[{i}].flags.{key}")
        for j, m in enumerate(u.models):
            at = f"{where}units[{i}].models[{j}]"
            if m.destroyed:
                if m.wounds_lost > m.profile.W:
                    raise DataError(f"expected at most W ({m.profile.W}), found "
                                    f"{m.wounds_lost}", where=f"{at}.wounds_lost")
                continue
            if m.wounds_lost >= m.profile.W:
                raise DataError(f"expected fewer wounds lost than W ({m.profile.W}) for a "
                                f"living model, found {m.wounds_lost} (or mark it destroyed)",
                                where=f"{at}.wounds_lost")
            if u.location != "battlefield" or p.pre_battle:
                continue  # off the battlefield or to be deployed: not on the table yet
            r = _radius(m.profile)
            eps = 1e-6
            if not (r - eps <= m.x <= bf.width - r + eps and r - eps <= m.y <= bf.depth - r + eps):
                raise DataError(f"expected the model's base on the {bf.width:g}\" x "
                                f"{bf.depth:g}\" table, found its centre at ({m.x:g}, {m.y:g})",
                                where=at)
            living.append((at, m.x, m.y, r))
    if len(living) > 1:
        xy = np.array([(x, y) for _, x, y, _ in living])
        rr = np.array([r for *_, r in living])
        for k in range(len(living) - 1):
            d = np.hypot(xy[k + 1:, 0] - xy[k, 0], xy[k + 1:, 1] - xy[k, 1])
            hit = np.nonzero(d < rr[k + 1:] + rr[k] - 1e-3)[0]
            if hit.size:
                other = living[k + 1 + int(hit[0])][0]
                raise DataError(f"its base overlaps the base of {other.removeprefix(where)}",
                                where=living[k][0])


def _check_board(p: PositionModel, where: str) -> None:
    kinds, phases, _ = engine_names()
    if p.phase and p.phase not in phases:
        raise DataError(f"expected '' or one of {', '.join(phases)}, found {p.phase!r}",
                        where=f"{where}phase")
    check_mission(p.mission, f"{where}mission.")
    names = [pl.name for pl in p.players]
    for i, z in enumerate(p.mission.deployment_zones or []):
        if z.player not in names:
            raise DataError(f"expected a player ({', '.join(names)}), found {z.player!r}",
                            where=f"{where}mission.deployment_zones[{i}].player")
    if p.mission.first_turn not in (None, "roll-off", "roll-off-choice", *names):
        raise DataError(f"expected 'roll-off', 'roll-off-choice' or a player "
                        f"({', '.join(names)}), found {p.mission.first_turn!r}",
                        where=f"{where}mission.first_turn")
    if p.round > p.mission.rounds and not p.ended:
        raise DataError(f"expected at most the mission's {p.mission.rounds} rounds, found "
                        f"{p.round}", where=f"{where}round")
    polys: list[tuple[str, Sequence[Sequence[float]]]] = [
        (f"terrain.areas[{i}].footprint", a.footprint) for i, a in enumerate(p.terrain.areas)]
    polys += [(f"terrain.terrain[{i}].footprint", f.footprint)
              for i, f in enumerate(p.terrain.terrain)]
    try:
        check_polygons(polys, "")
    except DataError as exc:
        raise DataError(exc.detail, where=f"{where}{exc.where.removeprefix(': ')}") from None
    areas = {a.name for a in p.terrain.areas}
    for i, f in enumerate(p.terrain.terrain):
        if f.area is not None and f.area not in areas:
            raise DataError(f"expected a terrain area ({', '.join(sorted(areas)) or 'none'}), "
                            f"found {f.area!r}", where=f"{where}terrain.terrain[{i}].area")
    bf = p.battlefield
    for i, o in enumerate(p.objectives):
        if o.area is not None:
            if o.area not in areas:
                raise DataError(f"expected a terrain area ({', '.join(sorted(areas)) or 'none'})"
                                f", found {o.area!r}", where=f"{where}objectives[{i}].area")
        elif not (0 <= o.x <= bf.width and 0 <= o.y <= bf.depth):
            raise DataError(f"expected a point on the table, found ({o.x:g}, {o.y:g})",
                            where=f"{where}objectives[{i}]")
    from w40k.engine.table import read_frame

    for i, frame in enumerate(p.frames):
        if frame.kind not in kinds:
            raise DataError(f"unknown frame kind {frame.kind!r} "
                            f"(known: {', '.join(sorted(kinds))})",
                            where=f"{where}frames[{i}].kind")
        # the data as the kind's typed frame reads it (engine/frames.py)
        read_frame({"kind": frame.kind, "data": cast(JSON, frame.data)},
                   f"{where}frames[{i}]")


def validate_position(data: object, source: str) -> dict[str, JSON]:
    """``data`` checked as a position: its shape (:class:`PositionModel`) and its consistency
    (two distinct players, unique ids, models on the table without overlapping bases, living
    models with fewer wounds lost than W, known phase, flags and frame kinds, valid terrain
    polygons and objectives). Returns ``data``; a DataError names ``source`` and the field."""
    p = validate(PositionModel, data, source)
    where = f"{source}: "
    _check_names(p, where)
    _check_board(p, where)
    _check_models(p, where)
    if p.setup is not None:
        validate_position(p.setup, f"{source}: setup")
    return cast(dict[str, JSON], data)
