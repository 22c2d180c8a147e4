"""The mission format (``--mission FILE_OR_NAME`` and a position's ``mission``) as one pydantic
model, and its consistency checks.

docs/missions.md describes it. A mission is either the small take-and-hold form (``name``,
``rounds``, ``scoring_from_round``, ``vp_per_objective``, ``vp_cap``: docs/battle.md) or a full
mission: battlefield, deployment zones, objective markers, a terrain layout (a shipped layout's
name or inline terrain), who deploys first and how the first turn is decided, battle length,
primary scoring rules and secondary objectives. Every number is bounded so that a mission
cannot ask for unbounded work (at most :data:`~w40k.io.limits.MAX_ROUNDS` battle rounds, at
most 20 scoring rules).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal, cast

from pydantic import Field, model_validator

from w40k.core.errors import DataError
from w40k.engine.serial import JSON
from w40k.io import limits
from w40k.io.model_base import Coord, Polygon, Strict, Text, Texts, validate
from w40k.io.safe_read import read_input
from w40k.io.scene_model import AreaModel, BattlefieldModel, FeatureModel, check_polygons

Round = Annotated[int, Field(ge=1, le=limits.MAX_ROUNDS)]
VP = Annotated[int, Field(ge=0, le=100)]
"""Victory points one scoring rule awards at once (per objective, per unit or in all)."""
Cap = Annotated[int, Field(ge=0, le=limits.MAX_CP)]
MAX_RULES = 20
"""The most primary scoring rules or secondary objectives in one mission."""

Timing = Literal["end_of_turn", "end_of_round", "command_phase"]
"""When a rule is checked: the end of a player's turn (07.02, that player scores), the end of the
battle round (07.03, both players score), or the end of a player's Command phase (08, that
player scores)."""
Condition = Literal["each_objective", "more_objectives", "opponent_zone_objectives",
                    "units_in_opponent_zone", "enemy_units_destroyed", "action"]
"""What a rule scores (docs/missions.md, "Scoring conditions")."""
ActionPhase = Literal["command", "movement", "shooting", "charge", "fight"]
ActionWhere = Literal["anywhere", "objective", "terrain_area_outside_own_zone", "opponent_zone"]


class ActionUnitsModel(Strict):
    """16.01 UNITS: which friendly units can perform the action."""

    keywords: Texts = []
    """The unit must have every one of these keywords (none: any unit)."""
    where: ActionWhere = "anywhere"
    """Where the unit must be when it starts the action."""


class ActionModel(Strict):
    """An action (16.01) that a secondary objective defines: STARTS, UNITS, USE LIMIT,
    COMPLETES. Its EFFECT is the secondary's ``vp``."""

    name: Text
    starts: ActionPhase
    """16.01 STARTS: the phase of your turn in which a unit starts it."""
    units: ActionUnitsModel = ActionUnitsModel()
    use_limit: Literal["once_per_turn", "once_per_battle", "unlimited"] = "once_per_turn"
    completes: Literal["end_of_phase", "end_of_turn"] = "end_of_turn"


class ScoringRuleModel(Strict):
    """One scoring rule: a primary rule, or a secondary objective."""

    name: Text
    condition: Condition
    vp: VP
    """VP per objective or unit counted (``each_objective``, ``opponent_zone_objectives``,
    ``units_in_opponent_zone``, ``enemy_units_destroyed``), or in all (``more_objectives``,
    ``action``: per completed action)."""
    when: Timing = "end_of_turn"
    from_round: Round = 1
    until_round: Round | None = None
    objectives: Texts = []
    """``each_objective`` only: count only these objectives (none: every objective)."""
    cap: Cap | None = None
    """The most VP this rule gives at one check."""
    battle_cap: Cap | None = None
    """The most VP this rule gives a player over the battle."""
    action: ActionModel | None = None
    """``action`` only: the action whose completion scores."""

    @model_validator(mode="after")
    def _consistent(self) -> ScoringRuleModel:
        if (self.condition == "action") != (self.action is not None):
            raise ValueError("expected an 'action' exactly when the condition is 'action'")
        if self.until_round is not None and self.until_round < self.from_round:
            raise ValueError(f"until_round ({self.until_round}) is before from_round "
                             f"({self.from_round}), found a rule that never scores")
        if self.objectives and self.condition != "each_objective":
            raise ValueError("'objectives' only applies to the each_objective condition")
        if self.condition == "enemy_units_destroyed" and self.when == "command_phase":
            raise ValueError("expected when: end_of_turn or end_of_round for "
                             "enemy_units_destroyed (units destroyed during the turn or round)")
        return self


class PrimaryModel(Strict):
    """The primary mission: its scoring rules and the most VP they give a player."""

    name: Text
    rules: Annotated[list[ScoringRuleModel], Field(min_length=1, max_length=MAX_RULES)]
    cap: Cap | None = None
    """The most primary VP a player can score over the battle."""


class ZoneModel(Strict):
    """A player's deployment zone."""

    player: Text
    polygon: Polygon


class MissionObjectiveModel(Strict):
    """An objective marker (40 mm, at x, y) or a terrain objective (a layout area's name)."""

    name: Text
    x: Coord = 0.0
    y: Coord = 0.0
    area: Text | None = None


class InlineTerrainModel(Strict):
    """Terrain given in the mission file itself (the scene format of docs/geometry.md)."""

    areas: Annotated[list[AreaModel], Field(max_length=limits.MAX_TERRAIN)] = []
    terrain: Annotated[list[FeatureModel], Field(max_length=limits.MAX_TERRAIN)] = []


class MissionModel(Strict):
    """A mission: its name, battle length and scoring, and (for a full mission) the battlefield,
    deployment zones, objectives, layout and first turn."""

    name: Text = "take-and-hold"
    rounds: Round = 5
    # take-and-hold scoring, used when there is no ``primary``:
    scoring_from_round: Round = 2
    vp_per_objective: Annotated[int, Field(ge=0, le=100)] = 5
    vp_cap: Annotated[int, Field(ge=0, le=limits.MAX_CP)] = 15
    # a full mission:
    battlefield: BattlefieldModel | None = None
    deployment_zones: Annotated[list[ZoneModel], Field(min_length=2, max_length=2)] | None = None
    objectives: Annotated[list[MissionObjectiveModel],
                          Field(max_length=limits.MAX_TERRAIN)] | None = None
    layout: Text | None = None
    """A shipped layout's name (``src/w40k/data/layouts/NAME.yaml``)."""
    terrain: InlineTerrainModel | None = None
    deploys_first: Text | None = None
    """The player who sets up their army first (a player of ``deployment_zones``)."""
    first_turn: Text | None = None
    """``roll-off`` (each player rolls a D6, re-rolling ties; the higher takes the first turn of
    every battle round), ``roll-off-choice`` (the same roll-off; its winner chooses who takes
    the first turn) or a player's name; none: the position's first player."""
    primary: PrimaryModel | None = None
    secondaries: Annotated[list[ScoringRuleModel], Field(max_length=MAX_RULES)] = []

    @model_validator(mode="after")
    def _scoring_in_battle(self) -> MissionModel:
        legacy = self.primary is None and not self.secondaries
        if legacy and self.scoring_from_round > self.rounds:
            raise ValueError(f"scoring_from_round ({self.scoring_from_round}) is after the last "
                             f"battle round ({self.rounds}), found a mission that never scores")
        return self


def check_mission(m: MissionModel, where: str) -> None:
    """Consistency of a full mission (``where`` is the location prefix, ``"file: "``): valid
    zone polygons on the battlefield, two different zone players, known players for the first
    turn and deployment, unique objective names on the table, a known layout or inline terrain
    (not both), rules within the battle's rounds that name existing objectives."""
    bf = m.battlefield
    players: list[str] = []
    if m.deployment_zones is not None:
        players = [z.player for z in m.deployment_zones]
        if players[0] == players[1]:
            raise DataError(f"expected two different players, found {players[0]!r} twice",
                            where=f"{where}deployment_zones[1].player")
        check_polygons([(f"deployment_zones[{i}].polygon", z.polygon)
                        for i, z in enumerate(m.deployment_zones)], where.removesuffix(": "))
        if bf is not None:
            for i, z in enumerate(m.deployment_zones):
                for j, (x, y) in enumerate(z.polygon):
                    if not (0 <= x <= bf.width and 0 <= y <= bf.depth):
                        raise DataError(f"expected a point on the {bf.width:g}\" x {bf.depth:g}"
                                        f"\" battlefield, found ({x:g}, {y:g})",
                                        where=f"{where}deployment_zones[{i}].polygon[{j}]")
    for key in ("first_turn", "deploys_first"):
        value = getattr(m, key)
        allowed = players + (["roll-off", "roll-off-choice"] if key == "first_turn" else [])
        if value is not None and players and value not in allowed:
            raise DataError(f"expected {' or '.join(map(repr, allowed))}, found {value!r}",
                            where=f"{where}{key}")
    if m.layout is not None and m.terrain is not None:
        raise DataError("expected a layout name or inline terrain, found both",
                        where=f"{where}terrain")
    if m.layout is not None:
        from w40k.io.missions import layout_names

        if m.layout not in layout_names():
            raise DataError(f"unknown layout {m.layout!r} (shipped: "
                            f"{', '.join(layout_names())})", where=f"{where}layout")
    names: list[str] = []
    for i, o in enumerate(m.objectives or []):
        if o.name in names:
            raise DataError(f"objective {o.name!r} is named twice",
                            where=f"{where}objectives[{i}].name")
        names.append(o.name)
        if o.area is None and bf is not None and not (0 <= o.x <= bf.width
                                                      and 0 <= o.y <= bf.depth):
            raise DataError(f"expected a point on the table, found ({o.x:g}, {o.y:g})",
                            where=f"{where}objectives[{i}]")
    rules = [(f"primary.rules[{i}]", r) for i, r in enumerate(m.primary.rules if m.primary
                                                             else [])]
    rules += [(f"secondaries[{i}]", r) for i, r in enumerate(m.secondaries)]
    zone_rule = ("opponent_zone_objectives", "units_in_opponent_zone")
    rule_names: set[str] = set()
    for at, r in rules:
        if r.name in rule_names:
            raise DataError(f"rule {r.name!r} is named twice (its caps count by name)",
                            where=f"{where}{at}.name")
        rule_names.add(r.name)
        if r.from_round > m.rounds:
            raise DataError(f"from_round ({r.from_round}) is after the last battle round "
                            f"({m.rounds}), found a rule that never scores",
                            where=f"{where}{at}.from_round")
        if r.condition in zone_rule and m.deployment_zones is None:
            raise DataError(f"expected deployment_zones for the {r.condition} condition",
                            where=f"{where}{at}.condition")
        for j, name in enumerate(r.objectives):
            if m.objectives is not None and name not in names:
                raise DataError(f"expected an objective ({', '.join(names) or 'none'}), found "
                                f"{name!r}", where=f"{where}{at}.objectives[{j}]")


def validate_mission(data: object, source: str) -> dict[str, JSON]:
    """``data`` checked as a mission (DataError names ``source`` and the field)."""
    check_mission(validate(MissionModel, data, source), f"{source}: ")
    return cast(dict[str, JSON], data)


def load_mission(path: str | Path) -> dict[str, JSON]:
    """A mission file (JSON, or YAML by suffix), read safely and validated."""
    data = read_input(path, what="mission")
    if not isinstance(data, dict):
        raise DataError("expected a mission object", where=str(path))
    return validate_mission(data, str(path))
