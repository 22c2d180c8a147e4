"""Game state as plain data (DESIGN.md "State is data").

Everything the rules need between two decisions lives here: models with positions and wounds,
unit status flags, players' CP and VP, objectives, the battle round / turn / phase, the seeded
RNG's state, the pending-resolution stack of frames, the event log and the choices made. The
same JSON form is a *position* (our FEN): a person can write one by hand and start a game from
it (``Game.from_position``), and ``Game.save()`` writes it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import ClassVar, NamedTuple, TypeVar, cast

from w40k.core import kept
from w40k.core.errors import DataError
from w40k.core.keywords import canonical_keyword, keyword_set
from w40k.core.profiles import ModelProfile, WeaponProfile
from w40k.engine.frames import FrameData
from w40k.engine.serial import (
    JSON,
    profile_from_json,
    profile_to_json,
    weapon_from_json,
    weapon_to_json,
)
from w40k.engine.undo import (
    CHANGES,
    CONTENTS,
    UNDO,
    Entry,
    LoggedDict,
    LoggedList,
    close_undo,
    log_old,
    open_undo,
    put_back,
)

_T = TypeVar("_T")

FORMAT = "w40k-position/1"
"""The version tag of the position format."""

PHASES = ("command", "movement", "shooting", "charge", "fight")
"""The five phases in order (07.02)."""


class _Placement:
    """A counter bumped whenever a model's position, level, facing, profile or destroyed flag
    is set: the kept battlefield model (``engine/field.py``) is valid while it is unchanged."""

    count = 0
    restored = 0
    """The count after the last restore (it sets models' fields back without their stamps)."""


PLACEMENT_FIELDS = frozenset({"x", "y", "z", "facing", "destroyed", "profile"})
"""The ``ModelData`` fields that the battlefield geometry reads."""


def placement_count() -> int:
    """The current :class:`_Placement` count (any model of any game set since: a new one)."""
    return _Placement.count


PLACEMENT: type[_Placement] = _Placement
"""The counter itself, for the kept battlefield model's hot paths (``engine/field.py``): its
``count`` read directly is :func:`placement_count` without a call (tens of thousands a game)."""


_Undo = UNDO
"""This thread's undo log (``engine/undo.py``; the name the tests read)."""


class Parsed:
    """The model profiles and weapon lists one read of ``json.loads``' output has parsed, by
    their JSON's ``repr``: the models of a position repeat a few datasheets (k = 5: 6
    distinct profiles and 13 weapons for 135 models and 405 weapons), so each is validated
    once and its models share the one frozen object (an equal one each before). For JSON's
    types (dicts with string keys, lists, strings, numbers, booleans, None; no subclass)
    equal ``repr`` means equal values of the same types (``1``, ``1.0`` and ``True``
    differ), so a shared object is the one parsing that JSON again would give; profiles and
    weapons are frozen and the weapon lists tuples, so no model can change another's."""

    __slots__ = ("_profiles", "_weapons")

    def __init__(self) -> None:
        self._profiles: dict[str, ModelProfile] = {}
        self._weapons: dict[str, tuple[WeaponProfile, ...]] = {}

    def profile(self, d: dict[str, JSON]) -> ModelProfile:
        """``profile_from_json(d)``, each distinct JSON read once."""
        key = repr(d)
        hit = self._profiles.get(key)
        if hit is None:
            hit = self._profiles[key] = profile_from_json(d)
        return hit

    def weapons(self, ws: list[JSON]) -> tuple[WeaponProfile, ...]:
        """The weapons of a model's JSON list, each distinct list read once."""
        key = repr(ws)
        hit = self._weapons.get(key)
        if hit is None:
            hit = self._weapons[key] = _weapons(ws)
        return hit


def _weapons(ws: list[JSON]) -> tuple[WeaponProfile, ...]:
    """A model's weapons read from their JSON list."""
    return tuple([weapon_from_json(cast(dict[str, JSON], w)) for w in ws])


@dataclass
class ModelData:
    """One model on (or off) the battlefield."""

    placed_at: ClassVar[int] = 0
    """The :class:`_Placement` count when a :data:`PLACEMENT_FIELDS` field was last set (not
    a field, never saved): read by ``engine/field.py``'s kept layouts."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in PLACEMENT_FIELDS:
            _Placement.count += 1  # invalidates engine/field.py's kept battlefield model
            object.__setattr__(self, "placed_at", _Placement.count)
        elif name == "one_shots_used" and type(value) is not LoggedList:
            value = LoggedList(cast(list[str], value))  # its appends are logged (undo.py)
        log = _Undo.log
        if log is not None:  # a checkpoint is open: log the old value (_Undo)
            log_old(log, self, name, MODEL_FIELDS)
        object.__setattr__(self, name, value)

    id: str
    """Unique id (``red.boyz.3``)."""
    name: str
    """Display name (``Boy 3``)."""
    profile: ModelProfile
    """Its characteristics, keywords and core abilities."""
    weapons: tuple[WeaponProfile, ...] = ()
    """Its weapons."""
    x: float = 0.0
    """Centre x in inches."""
    y: float = 0.0
    """Centre y in inches."""
    z: float = 0.0
    """Level of the surface it stands on."""
    facing: float = 0.0
    """Facing in radians."""
    wounds_lost: int = 0
    """Wounds lost."""
    destroyed: bool = False
    """Destroyed (and removed)."""
    leader: bool = False
    """Part of the leader/support component of an attached unit (19.02)."""
    one_shots_used: list[str] = field(default_factory=LoggedList)
    """Names of its [ONE SHOT] weapons already used (24.26); a :class:`LoggedList` (a list
    set here becomes one: its in-place changes are logged for :meth:`GameState.restore`)."""
    abilities: tuple[str, ...] = ()
    """Names of the datasheet abilities it has that the engine applies
    (engine/ability_catalog.py; docs/battle.md "Abilities")."""

    @property
    def remaining(self) -> int:
        """Wounds remaining."""
        return self.profile.W - self.wounds_lost

    @property
    def keys(self) -> frozenset[str]:
        """Canonical keywords."""
        return self.profile.keys

    def to_json(self) -> dict[str, JSON]:
        """The position form (``abilities`` only when it has some)."""
        out: dict[str, JSON] = {
            "id": self.id, "name": self.name, "profile": profile_to_json(self.profile),
            "weapons": [weapon_to_json(w) for w in self.weapons], "x": self.x, "y": self.y,
            "z": self.z, "facing": self.facing, "wounds_lost": self.wounds_lost,
            "destroyed": self.destroyed, "leader": self.leader,
            "one_shots_used": list[JSON](self.one_shots_used)}
        if self.abilities:
            out["abilities"] = list[JSON](self.abilities)
        return out

    @staticmethod
    def from_json(d: dict[str, JSON], parsed: Parsed | None = None) -> ModelData:
        """Read the position form (``parsed``: for ``json.loads``' output, the profiles and
        weapons already read, shared by the models whose JSON is the same)."""
        profile, weapons = cast(dict[str, JSON], d["profile"]), cast(list[JSON],
                                                                      d.get("weapons", []))
        return ModelData(
            id=str(d["id"]), name=str(d.get("name", d["id"])),
            profile=profile_from_json(profile) if parsed is None else parsed.profile(profile),
            weapons=_weapons(weapons) if parsed is None else parsed.weapons(weapons),
            x=float(cast(float, d.get("x", 0.0))), y=float(cast(float, d.get("y", 0.0))),
            z=float(cast(float, d.get("z", 0.0))), facing=float(cast(float, d.get("facing", 0.0))),
            wounds_lost=int(cast(int, d.get("wounds_lost", 0))),
            destroyed=bool(d.get("destroyed", False)), leader=bool(d.get("leader", False)),
            one_shots_used=[str(s) for s in cast(list[JSON], d.get("one_shots_used", []))],
            abilities=tuple(str(a) for a in cast(list[JSON], d.get("abilities", []))),
        )


MODEL_FIELDS = frozenset(ModelData.__dataclass_fields__)
"""The :class:`ModelData` fields (read with ``getattr`` when logged: ``undo.log_old``)."""

_KEPT_LIMIT = 256
"""Entries of :data:`_UNIT_KEYS` before it is emptied (a game asks a few dozen units)."""

_UNIT_KEYS: dict[int, tuple[UnitData, int, list[ModelData], frozenset[str]]] = kept.table()
""":attr:`UnitData.keys` per unit: the unit (held, so its id is not reused while kept), the
:class:`_Placement` count and a copy of its model list when measured, and the keys. Exact:
the keys read only which models the list holds (compared by identity), their destroyed flags
and their profiles (frozen; setting either field bumps the count, as does a restore). Never
saved (a derived cache, like ``engine/field.py``'s)."""


UNIT_FLAGS = (
    "battle_shocked", "remained_stationary", "moved", "advanced", "fell_back",
    "desperate_escape", "charged", "shot", "fought", "selected_to_move", "selected_to_shoot",
    "selected_to_charge", "selected_to_fight", "fights_first", "set_up_this_turn",
    "ranged_attacks_this_turn", "ranged_attacks_last_turn",
    "made_ingress", "ingress_this_turn", "repositioned", "embarked_this_phase",
    "emergency_disembark", "moved_this_phase", "surged",
    "firing_deck",
)
"""Per-unit status flags (reset by the turn/phase rules that own them)."""


@dataclass
class UnitData:
    """One unit (an attached unit is one unit, 19.01)."""

    def __setattr__(self, name: str, value: object) -> None:
        # the containers changed in place log their changes (engine/undo.py): a list or dict
        # put here becomes one (a copy)
        if name == "flags" and type(value) is not LoggedDict:
            value = LoggedDict(cast(dict[str, bool], value))
        elif name == "models" and type(value) is not LoggedList:
            value = LoggedList(cast(list[ModelData], value))
        CHANGES.count += 1  # engine/field.py's kept scene reads the units' fields
        log = _Undo.log
        if log is not None:  # a checkpoint is open: log the old value (_Undo)
            log_old(log, self, name, UNIT_FIELDS)
        object.__setattr__(self, name, value)

    id: str
    """Unique id (``red.boyz``)."""
    name: str
    """Display name."""
    player: str
    """The controlling player's name."""
    models: list[ModelData]
    """Its models, destroyed ones included; a :class:`LoggedList` (a list set here becomes
    one: its in-place changes are logged for :meth:`GameState.restore`)."""
    starting_strength: int = 0
    """Models at the start of battle round 1 (Appendix); 0 until then."""
    flags: dict[str, bool] = field(default_factory=LoggedDict)
    """Status flags (:data:`UNIT_FLAGS`); a :class:`LoggedDict` (a dict set here becomes
    one: its in-place changes are logged for :meth:`GameState.restore`)."""
    max_move: float = 0.0
    """The longest distance a model of the unit has moved this turn ([HEAVY], 24.16)."""
    attached: bool = False
    """An attached unit (24.24 Lone Operative gives no protection)."""
    location: str = "battlefield"
    """Where it is: ``battlefield``, ``reserves`` (strategic reserves, 20) or ``embarked``
    (within :attr:`embarked_in`, 18). Units off the battlefield are kept in
    :attr:`GameState.off_table`, never in :attr:`GameState.units`."""
    embarked_in: str | None = None
    """The TRANSPORT unit it is embarked within (``location == "embarked"``)."""

    def flag(self, name: str) -> bool:
        """A status flag (False when unset)."""
        return self.flags.get(name, False)

    @property
    def alive(self) -> list[ModelData]:
        """The models not destroyed."""
        return [m for m in self.models if not m.destroyed]

    @property
    def destroyed(self) -> bool:
        """Appendix 'Destroyed': every model destroyed (``not self.alive``, without the
        list; a loop, not ``all()`` over a generator: 85k calls a battle)."""
        for m in self.models:  # noqa: SIM110 (all() over a generator: twice the time)
            if not m.destroyed:
                return False
        return True

    @property
    def keys(self) -> frozenset[str]:
        """Appendix 'Mixed keywords': the unit has all of its living models' keywords (with
        none living, all of its models'). Kept (:data:`_UNIT_KEYS`) while no model is placed
        and the unit holds the same model objects."""
        hit = _UNIT_KEYS.get(id(self))
        models = self.models
        if (hit is not None and hit[0] is self and hit[1] == _Placement.count
                and hit[2] == models):  # the same models, by identity first (list ==)
            return hit[3]
        out: set[str] = set()
        last: tuple[str, ...] | None = None
        for m in [m for m in models if not m.destroyed] or models:
            # the models of a unit share a few keyword lists (a position's models with the same
            # profile JSON share one object, :class:`Parsed`): each list is read once, by equality
            words = m.profile.keywords
            if words != last:
                last = words
                out |= keyword_set(words)
        keys = frozenset(out)
        if len(_UNIT_KEYS) >= _KEPT_LIMIT:
            _UNIT_KEYS.clear()
        _UNIT_KEYS[id(self)] = (self, _Placement.count, list(models), keys)
        return keys

    def has(self, keyword: str) -> bool:
        """Whether the unit has a keyword (02.05: any number): ``keyword in self.keys``
        (some living model has it; with none living, some model)."""
        return canonical_keyword(keyword) in self.keys

    def every_model(self, keyword: str) -> bool:
        """Whether each living model has a keyword (e.g. 06.03 MONSTER/VEHICLE)."""
        k = canonical_keyword(keyword)
        return bool(self.alive) and all(k in m.keys for m in self.alive)

    def to_json(self) -> dict[str, JSON]:
        """The position form."""
        out: dict[str, JSON] = {
            "id": self.id, "name": self.name, "player": self.player,
            "starting_strength": self.starting_strength,
            "flags": {k: v for k, v in sorted(self.flags.items()) if v},
            "max_move": self.max_move, "attached": self.attached,
            "models": [m.to_json() for m in self.models]}
        if self.location != "battlefield":  # units on the battlefield leave both keys out
            out["location"] = self.location
            out["embarked_in"] = self.embarked_in
        return out

    @staticmethod
    def from_json(d: dict[str, JSON], parsed: Parsed | None = None) -> UnitData:
        """Read the position form (``parsed``: as :meth:`ModelData.from_json`'s)."""
        flags = cast(dict[str, JSON], d.get("flags", {}))
        return UnitData(
            id=str(d["id"]), name=str(d.get("name", d["id"])), player=str(d["player"]),
            models=[ModelData.from_json(cast(dict[str, JSON], m), parsed)
                    for m in cast(list[JSON], d["models"])],
            starting_strength=int(cast(int, d.get("starting_strength", 0))),
            flags={str(k): bool(v) for k, v in flags.items()},
            max_move=float(cast(float, d.get("max_move", 0.0))),
            attached=bool(d.get("attached", False)),
            location=str(d.get("location", "battlefield")),
            embarked_in=None if d.get("embarked_in") is None else str(d["embarked_in"]),
        )


@dataclass
class PlayerData:
    """One player."""

    name: str
    """``red`` / ``blue`` or any name."""
    cp: int = 0
    """Command points."""
    vp: int = 0
    """Victory points."""
    effects: dict[str, JSON] = field(default_factory=dict)
    """The player's datasheet-ability effects in force and once-per-battle uses
    (engine/ability_effects.py: ``{"Oath of Moment": "<unit id>", "Waaagh!": <round>}``)."""

    def to_json(self) -> dict[str, JSON]:
        """The position form (``effects`` only when there are some)."""
        out: dict[str, JSON] = {"name": self.name, "cp": self.cp, "vp": self.vp}
        if self.effects:
            out["effects"] = dict(self.effects)
        return out


@dataclass
class ObjectiveData:
    """An objective: a 40 mm marker at (x, y), or a terrain objective (an area's name)."""

    name: str
    """Its name."""
    x: float = 0.0
    """Marker centre x."""
    y: float = 0.0
    """Marker centre y."""
    area: str | None = None
    """The terrain area that is the objective (14.01), or None for a marker."""
    controller: str | None = None
    """The player controlling it (14.02)."""
    secured_by: str | None = None
    """The player whose army has secured it (14.03)."""

    def to_json(self) -> dict[str, JSON]:
        """The position form."""
        return {"name": self.name, "x": self.x, "y": self.y, "area": self.area,
                "controller": self.controller, "secured_by": self.secured_by}


@dataclass(frozen=True)
class StratagemUse:
    """One use of a stratagem (15.01): who used it, when, on which units, with which answer.
    The per-phase limits (R15.01-a/b), once-per-battle restrictions and the effects that last
    'until the end of the phase' are all read from these records (engine/stratagems)."""

    player: str
    """Who used it."""
    name: str
    """The stratagem's name."""
    units: tuple[str, ...]
    """The units it targeted."""
    answer: JSON
    """The option chosen (docs/battle.md "Stratagems")."""
    cp: int
    """The CP paid (the +CP sections included)."""
    round: int
    """The battle round it was used in."""
    turn: str
    """Whose turn it was."""
    phase: str
    """The phase it was used in."""

    def to_json(self) -> dict[str, JSON]:
        """The position form."""
        return {"player": self.player, "name": self.name, "units": list[JSON](self.units),
                "answer": copy.deepcopy(self.answer), "cp": self.cp, "round": self.round,
                "turn": self.turn, "phase": self.phase}

    @staticmethod
    def from_json(d: dict[str, JSON]) -> StratagemUse:
        """Read the position form."""
        return StratagemUse(str(d["player"]), str(d["name"]),
                            tuple(str(u) for u in cast(list[JSON], d.get("units", []))),
                            copy.deepcopy(d.get("answer")), int(cast(int, d.get("cp", 0))),
                            int(cast(int, d.get("round", 0))), str(d.get("turn", "")),
                            str(d.get("phase", "")))


@dataclass(frozen=True)
class ActionRecord:
    """One action started by a unit (16.01): performing until it completes or fails."""

    name: str
    """The action's name."""
    unit: str
    """The unit performing it."""
    player: str
    """Its controller."""
    round: int
    """The battle round it was started in."""
    turn: str
    """Whose turn it was started in."""
    phase: str
    """The phase it was started in."""
    status: str = "performing"
    """``performing``, ``completed`` or ``failed``."""

    def to_json(self) -> dict[str, JSON]:
        """The position form."""
        return {"name": self.name, "unit": self.unit, "player": self.player,
                "round": self.round, "turn": self.turn, "phase": self.phase,
                "status": self.status}

    @staticmethod
    def from_json(d: dict[str, JSON]) -> ActionRecord:
        """Read the position form."""
        return ActionRecord(str(d["name"]), str(d["unit"]), str(d["player"]),
                            int(cast(int, d.get("round", 0))), str(d.get("turn", "")),
                            str(d.get("phase", "")), str(d.get("status", "performing")))


Frame = FrameData
"""One entry of the pending-resolution stack: a typed frozen frame (engine/frames.py; each
kind's class lives in the module that owns its rule)."""


UNIT_FIELDS = frozenset(UnitData.__dataclass_fields__)
"""The :class:`UnitData` fields (read with ``getattr`` when logged: ``undo.log_old``)."""


_MODEL_ORDER = tuple(f.name for f in fields(ModelData))  # in the constructor's order
_MODEL_GET = attrgetter(*_MODEL_ORDER)


def _copy_model(m: ModelData) -> ModelData:
    """A copy sharing only the immutable parts (profile, weapons): as ``copy.copy`` (nothing
    logged), but by name, never through ``__dict__`` (see :data:`_STATE_FIELDS`)."""
    out = ModelData.__new__(ModelData)
    put = object.__setattr__
    for name, value in zip(_MODEL_ORDER, _MODEL_GET(m), strict=True):
        put(out, name, value)
    put(out, "one_shots_used", LoggedList(m.one_shots_used))
    return out


def _copy_unit(u: UnitData) -> UnitData:
    """A copy sharing only the immutable parts of its models."""
    return UnitData(u.id, u.name, u.player, [_copy_model(m) for m in u.models],
                    u.starting_strength, dict(u.flags), u.max_move, u.attached, u.location,
                    u.embarked_in)


# the players' and objectives' fields and their getters (a checkpoint keeps the values)
_PLAYER_FIELDS = tuple(f.name for f in fields(PlayerData))
_PLAYER_GET = attrgetter(*_PLAYER_FIELDS)
_OBJECTIVE_FIELDS = tuple(f.name for f in fields(ObjectiveData))
_OBJECTIVE_GET = attrgetter(*_OBJECTIVE_FIELDS)


_LISTS = ("players", "units", "off_table", "objectives", "frames", "actions")
"""The :class:`GameState` lists a checkpoint copies (their items: frozen frames and records,
the players and objectives it copies itself, and the units, whose changes are logged)."""
_GROWING = ("events", "choices", "stratagems")
"""The :class:`GameState` lists that only ever grow (appended to, never changed in place): a
checkpoint keeps their lengths, and :meth:`GameState.restore` cuts them back (the event log
grows to thousands of entries: a copy per submit cost more than the rest of the lists)."""


class Checkpoint(NamedTuple):
    """:meth:`GameState.checkpoint`: the state's fields and, for each player and objective,
    its fields (mutable ones copied); the units; and where the undo log of the units' and
    models' fields and of the units' flags and model lists and the models' one-shot lists
    (changed in place: ``engine/undo.py``) starts. Written back by :meth:`GameState.restore`, or
    dropped by :meth:`GameState.release`: one of the two must follow (the undo log is kept
    while a checkpoint is open). A named tuple: typed, immutable, and made at every submit
    (a frozen dataclass's constructor cost ten ``object.__setattr__`` calls)."""

    top: list[object]
    """The state's own fields' values, in :data:`_STATE_FIELDS`' order."""
    kept: list[tuple[object, tuple[str, ...], tuple[object, ...]]]
    """Each player and objective, its fields' names and their values."""
    units: list[UnitData]
    """The units (on and off the battlefield)."""
    lengths: tuple[int, ...]
    """The lengths of the :data:`_GROWING` lists."""
    mark: int
    """Where this checkpoint's entries start in the undo log (:class:`_Undo`)."""


def _known(units: list[UnitData], entries: list[Entry]) -> set[int]:
    """The ids of what the state held at a checkpoint whose undo-log entries are ``entries``:
    its ``units``, their flags and model lists, those lists' models and the models' one-shot
    lists, each as it was then (its earliest entry, else what it holds now). Anything else
    (made or copied since, or another game's) is left alone by the restore."""
    then: dict[tuple[int, str], object] = {}
    for owner, name, old in entries:
        then.setdefault((id(owner), name), old)  # the earliest: the value at the checkpoint
    known = set(map(id, units))
    for u in units:
        flags, models = then.get((id(u), "flags"), u.flags), then.get((id(u), "models"), u.models)
        known.update((id(flags), id(models)))
        for m in cast(list[ModelData], then.get((id(models), CONTENTS), models)):
            known.add(id(m))
            known.add(id(then.get((id(m), "one_shots_used"), m.one_shots_used)))
    return known


@dataclass
class GameState:
    """Everything about a game between two decisions."""

    battlefield: dict[str, JSON]
    """``{"width", "depth"}`` in inches."""
    terrain: dict[str, JSON]
    """``{"areas": [...], "terrain": [...]}`` in the scene format of docs/geometry.md."""
    players: list[PlayerData]
    """The two players; the first takes the first turn of each battle round."""
    units: list[UnitData]
    """Every unit."""
    objectives: list[ObjectiveData] = field(default_factory=list)
    """Objectives."""
    mission: dict[str, JSON] = field(default_factory=dict)
    """Mission parameters (``name``, ``rounds``, scoring)."""
    round: int = 0
    """Battle round (0 before the battle)."""
    turn_player: str = ""
    """Whose turn it is ('' outside turns)."""
    active: str = ""
    """The active player (01.03)."""
    phase: str = ""
    """The current phase ('' outside phases)."""
    options: dict[str, JSON] = field(default_factory=dict)
    """Game-level rule options (engine/options.py), defaults filled in."""
    policies: dict[str, str] = field(default_factory=dict)
    """Standing allocation policies per player (``{"red": "closest_first"}``): the engine
    answers that player's Select Model requests with it (rules/allocation.py)."""
    frames: list[FrameData] = field(default_factory=list)
    """The pending-resolution stack (last = top): frozen frames, shared by clones."""
    off_table: list[UnitData] = field(default_factory=list)
    """Units in strategic reserves or embarked within a TRANSPORT (18, 20): not on the
    battlefield, so no rule that looks at :attr:`units` sees them (R18.02-b)."""
    events: list[dict[str, JSON]] = field(default_factory=list)
    """The event log."""
    choices: list[JSON] = field(default_factory=list)
    """Every choice submitted, in order."""
    ended: bool = False
    """The battle is over."""
    stratagems: list[StratagemUse] = field(default_factory=list)
    """Every stratagem used so far, in order (15.01)."""
    actions: list[ActionRecord] = field(default_factory=list)
    """Every action started so far, in order, with its status (16.01)."""

    def unit(self, uid: str) -> UnitData:
        """A unit on the battlefield by id."""
        for u in self.units:
            if u.id == uid:
                return u
        raise KeyError(uid)

    def any_unit(self, uid: str) -> UnitData:
        """A unit by id, on the battlefield or off it (:attr:`off_table`)."""
        for u in (*self.units, *self.off_table):
            if u.id == uid:
                return u
        raise KeyError(uid)

    def player(self, name: str) -> PlayerData:
        """A player by name."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def opponent(self, name: str) -> str:
        """The other player's name."""
        return next(p.name for p in self.players if p.name != name)

    def units_of(self, player: str) -> list[UnitData]:
        """A player's units still on the battlefield."""
        return [u for u in self.units if u.player == player and not u.destroyed]

    def clone(self) -> GameState:
        """A deep copy sharing only the immutable profiles (cheap enough for search)."""
        return GameState(
            battlefield=self.battlefield, terrain=self.terrain,
            players=[PlayerData(p.name, p.cp, p.vp, dict(p.effects)) for p in self.players],
            units=[_copy_unit(u) for u in self.units],
            off_table=[_copy_unit(u) for u in self.off_table],
            objectives=[ObjectiveData(*_OBJECTIVE_GET(o)) for o in self.objectives],  # by name
            mission=self.mission,
            round=self.round, turn_player=self.turn_player, active=self.active,
            phase=self.phase, options=self.options, policies=dict(self.policies),
            frames=list(self.frames),
            events=list(self.events), choices=list(self.choices), ended=self.ended,
            stratagems=list(self.stratagems), actions=list(self.actions),
        )

    def checkpoint(self) -> Checkpoint:
        """What :meth:`restore` needs to put this state back as it is now, in place (taken
        before every answer is applied): the state's lists and its players' and objectives'
        fields; the units' and models' fields, and the contents of the units' flags and
        model lists and of the models' ``one_shots_used`` lists, are logged when changed
        (``engine/undo.py``) until :meth:`restore` or :meth:`release`."""
        # the fields read as attributes, never through ``__dict__`` (see _STATE_FIELDS), in
        # one call each (a tuple of values: no dict to build)
        top = list(_STATE_GET(self))
        for i in _LISTS_AT:
            top[i] = list(cast(list[object], top[i]))
        top[_POLICIES_AT] = dict(self.policies)
        kept: list[tuple[object, tuple[str, ...], tuple[object, ...]]] = []
        keep = kept.append
        for p in self.players:
            d = list(_PLAYER_GET(p))
            d[_EFFECTS_AT] = dict(p.effects)
            keep((p, _PLAYER_FIELDS, tuple(d)))
        kept += [(o, _OBJECTIVE_FIELDS, _OBJECTIVE_GET(o)) for o in self.objectives]
        # the units' and models' fields, flags, model lists and one-shot lists are logged when
        # changed (engine/undo.py): nothing of them is copied here
        return Checkpoint(top, kept, [*self.units, *self.off_table],
                          tuple([len(cast(list[object], top[i])) for i in _GROWING_AT]),
                          open_undo())

    def release(self, checkpoint: Checkpoint) -> None:
        """Keep the state as it is: :meth:`checkpoint`'s undo log is no longer needed (an
        enclosing checkpoint's entries stay)."""
        close_undo()

    def restore(self, checkpoint: Checkpoint) -> None:
        """Put the state back as it was at :meth:`checkpoint`: every player, unit, model and
        objective it had (the same objects, their fields as then) and its lists."""
        log = _Undo.log
        if log is not None:
            entries = log[checkpoint.mark:]
            del log[checkpoint.mark:]
            # what the state had then (anything made or copied since is not touched)
            known = _known(checkpoint.units, entries)
            for owner, name, old in reversed(entries):  # the latest change first
                if id(owner) in known:
                    put_back(owner, name, old)
            # an enclosing checkpoint still needs the other objects' entries
            log += [e for e in entries if id(e[0]) not in known]
        # each field set back as an attribute (no ``__setattr__`` of the class, nothing
        # logged); the objects hold their fields only, so they hold what they held then
        put = object.__setattr__
        for obj, names, values in checkpoint.kept:
            for name, value in zip(names, values, strict=True):
                put(obj, name, value)
        for name, value in zip(_STATE_FIELDS, checkpoint.top, strict=True):
            put(self, name, value)
        for k, n in zip(_GROWING, checkpoint.lengths, strict=True):
            # the same list objects as then: cut back to that length
            del cast(list[object], getattr(self, k))[n:]
        _Placement.count += 1  # the models' fields were set back: derived caches are stale
        _Placement.restored = _Placement.count  # and without their stamps
        close_undo()

    def to_json(self) -> dict[str, JSON]:
        """The position form (docs/positions.md)."""
        return {
            "format": FORMAT, "battlefield": self.battlefield, "terrain": self.terrain,
            "mission": self.mission, "players": [p.to_json() for p in self.players],
            "units": [u.to_json() for u in (*self.units, *self.off_table)],
            "objectives": [o.to_json() for o in self.objectives],
            "round": self.round, "turn_player": self.turn_player, "active": self.active,
            "phase": self.phase, "options": dict(self.options),
            "policies": dict[str, JSON](self.policies),
            "frames": [f.frame_json() for f in self.frames],
            "events": list[JSON](self.events), "choices": list(self.choices),
            "ended": self.ended, "stratagems": [u.to_json() for u in self.stratagems],
            "actions": [a.to_json() for a in self.actions],
        }

    @staticmethod
    def from_json(d: dict[str, JSON],
                  read_frame: Callable[[JSON, str], FrameData], *,
                  loaded: bool = False) -> GameState:
        """Read the position form; ``read_frame(data, where)`` reads each frame (the table's
        ``engine.table.read_frame``: an unknown kind or malformed data is a DataError naming
        ``frames[i]``). ``loaded``: ``d`` is ``json.loads``' output (JSON's types only) that
        nothing else holds (``Game.new`` and ``Game.load`` read their own copy), so each
        distinct model profile and weapon list is read once (:class:`Parsed`) and the event
        log and choices are kept, not copied."""
        frames = d.get("frames", [])
        if not isinstance(frames, list):
            raise DataError("expected a list of frames", where="frames")
        fmt = d.get("format", FORMAT)
        if fmt != FORMAT:
            raise ValueError(f"unknown position format {fmt!r} (expected {FORMAT})")
        read = Parsed() if loaded else None
        all_units = [UnitData.from_json(u, read) for u in cast(list[dict[str, JSON]], d["units"])]
        return GameState(
            battlefield=cast(dict[str, JSON], d["battlefield"]),
            terrain=cast(dict[str, JSON], d.get("terrain", {"areas": [], "terrain": []})),
            players=[PlayerData(str(p["name"]), int(cast(int, p.get("cp", 0))),
                                int(cast(int, p.get("vp", 0))),
                                dict(cast(dict[str, JSON], p.get("effects") or {})))
                     for p in cast(list[dict[str, JSON]], d["players"])],
            units=[u for u in all_units if u.location == "battlefield"],
            off_table=[u for u in all_units if u.location != "battlefield"],
            objectives=[ObjectiveData(str(o["name"]), float(cast(float, o.get("x", 0.0))),
                                      float(cast(float, o.get("y", 0.0))),
                                      None if o.get("area") is None else str(o["area"]),
                                      None if o.get("controller") is None
                                      else str(o["controller"]),
                                      None if o.get("secured_by") is None
                                      else str(o["secured_by"]))
                        for o in cast(list[dict[str, JSON]], d.get("objectives", []))],
            mission=cast(dict[str, JSON], d.get("mission", {})),
            round=int(cast(int, d.get("round", 0))),
            turn_player=str(d.get("turn_player", "")), active=str(d.get("active", "")),
            phase=str(d.get("phase", "")),
            policies={str(k): str(v) for k, v in
                      cast(dict[str, JSON], d.get("policies") or {}).items()},
            # Copies, not the caller's lists: two games loaded from one dict stay independent
            # and a game never writes into the position it started from (a loaded read's
            # lists are the reader's own copy: kept as they are, a save's thousands of events
            # not copied twice).
            frames=[read_frame(f, f"frames[{i}]") for i, f in enumerate(frames)],
            events=_own(cast(list[dict[str, JSON]], d.get("events", [])), loaded),
            choices=_own(cast(list[JSON], d.get("choices", [])), loaded),
            ended=bool(d.get("ended", False)),
            stratagems=[StratagemUse.from_json(u)
                        for u in cast(list[dict[str, JSON]], d.get("stratagems", []))],
            actions=[ActionRecord.from_json(a)
                     for a in cast(list[dict[str, JSON]], d.get("actions", []))],
        )


_STATE_FIELDS = tuple(f.name for f in fields(GameState))
"""The :class:`GameState` fields. A checkpoint reads them (a restore sets them) by name, never
through ``__dict__``: reading it makes CPython 3.11 give the object a real dict in place of
its inline values, and every later attribute read of it is slower (~100k a k = 5 game)."""
_STATE_GET = attrgetter(*_STATE_FIELDS)
_LISTS_AT = tuple(_STATE_FIELDS.index(k) for k in _LISTS)
_GROWING_AT = tuple(_STATE_FIELDS.index(k) for k in _GROWING)
_POLICIES_AT = _STATE_FIELDS.index("policies")
_EFFECTS_AT = _PLAYER_FIELDS.index("effects")


def _own(items: list[_T], loaded: bool) -> list[_T]:
    """``items`` for a loaded read (the reader's own copy), else a deep copy."""
    return items if loaded else copy.deepcopy(items)


def unit_keywords(u: UnitData) -> frozenset[str]:
    """The unit's canonical keywords (helper for rules code)."""
    return keyword_set(k for m in u.alive for k in m.profile.keywords)
