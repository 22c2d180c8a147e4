"""The working state of one attack (04.03 to 06.03) between two steps of the attack machine,
and the pauses the machine stops at (:mod:`w40k.rules.attack_machine`).

:class:`AttackState` is frozen and holds everything needed to continue: the step, the models
of both units as they stand now, the dice rolled and not yet used (:class:`DieRoll` records),
the counts of the pool being resolved, the indices of the loops (pool, save die, mortal wound,
the damaged model) and the account so far. ``to_json``/``from_json`` are an exact round trip,
also through a key-sorted copy (no meaning hangs on key order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import cast

from w40k.core.dice import DieRoll, Modifier, RollKind
from w40k.core.errors import DataError
from w40k.core.jsonval import JSON
from w40k.rules.attack_types import AttackResult, Event, PoolResult
from w40k.rules.primitives import AllocationGroup, ModelState


class Step(StrEnum):
    """Where an attack stands. ``*_ROLL`` steps roll a batch of dice and pause (``Rolled``);
    the matching ``*_USE`` step uses them. The string values are stable in saved games."""

    DUPLICATES = "duplicates"
    """24.02: the attacker picks one instance of each duplicated weapon ability."""
    GATHER = "gather"
    """04.03: the next pool starts; a random A is rolled (02.04)."""
    ATTACKS_USE = "attacks_use"
    HIT_ROLL = "hit_roll"
    """05.01 hit rolls, with the automatic re-rolls."""
    HIT_USE = "hit_use"
    LETHAL = "lethal"
    """24.23: one decision per critical hit."""
    WOUND_ROLL = "wound_roll"
    """05.02 wound rolls, with the automatic re-rolls."""
    WOUND_USE = "wound_use"
    ALLOCATION_ORDER = "allocation_order"
    """05.03: the defender declares the order of the allocation groups."""
    PRECISION = "precision"
    """24.28: the attacker may make a visible CHARACTER's group current."""
    SAVE_ROLL = "save_roll"
    """05.03 save rolls, made together."""
    SAVE_USE = "save_use"
    SAVE_RESOLVE = "save_resolve"
    """05.04: the next save die (lowest first): Select Model, check the save."""
    DAMAGE_ROLL = "damage_roll"
    """05.04: a random D is rolled per attack."""
    DAMAGE_USE = "damage_use"
    FNP_ROLL = "fnp_roll"
    """24.12: the damaged model's Feel No Pain rolls, then the wounds are lost."""
    FNP_USE = "fnp_use"
    DEVASTATING = "devastating"
    """24.10: the next critical wound's mortal wounds (a random D rolled)."""
    DEVASTATING_USE = "devastating_use"
    MORTAL = "mortal"
    """06.02: the next mortal wound, to the model Select Model gives."""
    POOL_END = "pool_end"
    HAZARD_ROLL = "hazard_roll"
    """06.03 / 24.15: hazard rolls after all attacks."""
    HAZARD_USE = "hazard_use"
    HAZARD_END = "hazard_end"
    DONE = "done"


USE_STEPS = frozenset({Step.ATTACKS_USE, Step.HIT_USE, Step.WOUND_USE, Step.SAVE_USE,
                       Step.DAMAGE_USE, Step.FNP_USE, Step.DEVASTATING_USE, Step.HAZARD_USE})
"""The steps at which a batch of rolled dice waits to be used (a ``Rolled`` pause)."""


@dataclass(frozen=True)
class AttackState:
    """One attack between two steps (see the module docstring). Not a slots class: its
    fields live in its ``__dict__``, so the attack machine copies and sets them in one call
    each (rules/attack_machine.py)."""

    step: Step
    target: tuple[ModelState, ...]
    """The target unit's models as they stand now."""
    attacker: tuple[ModelState, ...]
    """The attacking unit's models as they stand now (hazard rolls)."""
    events: tuple[Event, ...] = ()
    """The account so far."""
    # -- 24.02 duplicates and 04.03 pools
    duplicates: tuple[tuple[int, str, str], ...] = ()
    """(weapon entry index, ability family, the instance chosen) per duplicated family."""
    entry: int = 0
    """DUPLICATES: the weapon entry being asked about."""
    family: int = 0
    """DUPLICATES: the duplicated family of that entry being asked about."""
    pools: tuple[tuple[int, ...], ...] = ()
    """The pools of identical attacks, as weapon entry indices, in resolution order."""
    pool: int = 0
    """The pool being resolved."""
    results: tuple[PoolResult, ...] = ()
    """The pools resolved so far."""
    # -- the pool being resolved
    attacks: int = 0
    hits: int = 0
    critical_hits: int = 0
    auto_wounds: int = 0
    """[LETHAL HITS] automatic wounds."""
    lethal_asked: int = 0
    """Critical hits already decided for [LETHAL HITS]."""
    wounds: int = 0
    critical_wounds: int = 0
    devastating: int = 0
    """Critical wounds that inflict mortal wounds (24.10)."""
    to_save: int = 0
    unsaved: int = 0
    mortal_total: int = 0
    crit_index: int = 0
    """DEVASTATING: the critical wounds whose mortal wounds are done."""
    start_lost: tuple[int, ...] = ()
    """Wounds lost per target model when the pool (or the hazard step) started."""
    start_dead: int = 0
    """Models destroyed when the pool (or the hazard step) started."""
    # -- dice rolled and not yet used
    rolled: tuple[DieRoll, ...] = ()
    """The last batch, waiting at a ``*_USE`` step (re-rollable there)."""
    # -- 05.03 / 05.04 allocation and saves
    groups: tuple[AllocationGroup, ...] = ()
    order: tuple[int, ...] = ()
    precision: int | None = None
    """The [PRECISION] group made current, if any."""
    saves: tuple[DieRoll, ...] = ()
    """The save dice, lowest first (05.04)."""
    save_index: int = 0
    """The next save die to resolve."""
    # -- losing wounds (05.04, 06.02, 24.12)
    side: str = "target"
    """Whose model is losing wounds or taking mortal wounds: ``target`` or ``attacker``."""
    model: int = 0
    """The model losing wounds."""
    amount: int = 0
    """The wounds it is about to lose (before Feel No Pain)."""
    loss_rule: str = ""
    """The rule the loss is logged under."""
    ret: Step = Step.DONE
    """The step to go on with once the wounds are lost."""
    # -- 06.02 mortal wounds
    mw_amount: int = 0
    mw_done: int = 0
    damaged: int | None = None
    """24.10: the model the current critical wound's mortal wounds damage."""
    capped: bool = False
    """24.10: the one-model cap applies."""
    mw_player: str = "defender"
    mw_ret: Step = Step.DONE
    # -- 06.03 hazard rolls
    hazard_rolls: tuple[int, ...] = ()
    hazard_mw: int = 0
    hazard_lost: int = 0
    hazard_dead: int = 0

    def to_json(self) -> dict[str, JSON]:
        """Every field as JSON; :meth:`from_json` gives back an equal state."""
        # the field names and their encoders listed once (_CODECS): an attack frame stores
        # its state at every step of the machine
        return {name: getattr(self, name) if enc is None else enc(getattr(self, name))
                for name, enc in _CODECS}

    @staticmethod
    def from_json(d: Mapping[str, JSON]) -> AttackState:
        """The inverse of :meth:`to_json`; DataError names a malformed field."""
        kwargs: dict[str, object] = {}
        for name, _ in _CODECS:
            if name not in d:
                continue
            try:
                kwargs[name] = _DECODE.get(name, _plain)(d[name])
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise DataError(f"malformed value: {exc!r}", where=f"attack state.{name}") \
                    from None
        for key in d:
            if key not in kwargs:
                raise DataError("unknown field", where=f"attack state.{key}")
        return AttackState(**kwargs)  # type: ignore[arg-type]


def die_to_json(d: DieRoll) -> dict[str, JSON]:
    """A die as JSON."""
    # list(), not list[JSON](): calling the generic alias costs ten times more
    faces: list[JSON] = list(d.faces)
    return {"kind": str(d.kind), "faces": faces, "sides": d.sides,
            "modifiers": [[m.source, m.value] for m in d.modifiers]}


def die_from_json(v: JSON) -> DieRoll:
    """The inverse of :func:`die_to_json`."""
    d = cast(dict[str, JSON], v)
    return DieRoll(str(d["kind"]), tuple(int(cast(int, f)) for f in cast(list[JSON], d["faces"])),
                   int(cast(int, d["sides"])),
                   tuple(Modifier(str(cast(list[JSON], m)[0]), int(cast(list[int], m)[1]))
                         for m in cast(list[JSON], d.get("modifiers", []))))


def _group_to_json(g: AllocationGroup) -> JSON:
    members: list[JSON] = list(g.members)
    return {"members": members, "character": g.character, "W": g.W, "Sv": g.Sv, "InSv": g.InSv}


def _group_from_json(v: JSON) -> AllocationGroup:
    d = cast(dict[str, JSON], v)
    insv = d["InSv"]
    return AllocationGroup(_ints(d["members"]), bool(d["character"]), int(cast(int, d["W"])),
                           int(cast(int, d["Sv"])), None if insv is None else int(cast(int, insv)))


def _plain(v: object) -> JSON:
    return cast(JSON, v)


def _ints(v: object) -> tuple[int, ...]:
    return tuple(int(cast(int, x)) for x in cast(list[JSON], v))


def _list_of(fn: Callable[[object], JSON]) -> Callable[[object], JSON]:
    return lambda v: [fn(x) for x in cast(tuple[object, ...], v)]


def _tuple_of(fn: Callable[[JSON], object]) -> Callable[[JSON], object]:
    return lambda v: tuple(fn(x) for x in cast(list[JSON], v))


_ENCODE: dict[str, Callable[[object], JSON]] = {
    "step": lambda v: str(v), "ret": lambda v: str(v), "mw_ret": lambda v: str(v),
    "target": lambda v: [m.to_json() for m in cast(tuple[ModelState, ...], v)],
    "attacker": lambda v: [m.to_json() for m in cast(tuple[ModelState, ...], v)],
    "events": lambda v: [[e.step, e.rule, e.text] for e in cast(tuple[Event, ...], v)],
    "results": _list_of(lambda r: cast(PoolResult, r).to_json()),
    "rolled": _list_of(lambda d: die_to_json(cast(DieRoll, d))),
    "saves": _list_of(lambda d: die_to_json(cast(DieRoll, d))),
    "groups": _list_of(lambda g: _group_to_json(cast(AllocationGroup, g))),
    "duplicates": _list_of(lambda t: list(cast(tuple[JSON, ...], t))),
    "pools": _list_of(lambda t: list(cast(tuple[JSON, ...], t))),
    "order": lambda v: list(cast(tuple[JSON, ...], v)),
    "start_lost": lambda v: list(cast(tuple[JSON, ...], v)),
    "hazard_rolls": lambda v: list(cast(tuple[JSON, ...], v)),
}

_CODECS: tuple[tuple[str, Callable[[object], JSON] | None], ...] = tuple(
    (f.name, _ENCODE.get(f.name)) for f in fields(AttackState))
"""Every field of :class:`AttackState` in order, with its encoder (None: the value as it
is)."""

_DECODE: dict[str, Callable[[JSON], object]] = {
    "step": lambda v: Step(str(v)), "ret": lambda v: Step(str(v)),
    "mw_ret": lambda v: Step(str(v)),
    "target": _tuple_of(lambda m: ModelState.from_json(cast(dict[str, JSON], m))),
    "attacker": _tuple_of(lambda m: ModelState.from_json(cast(dict[str, JSON], m))),
    "events": _tuple_of(Event.from_json),
    "results": _tuple_of(lambda r: PoolResult.from_json(cast(dict[str, JSON], r))),
    "rolled": _tuple_of(die_from_json), "saves": _tuple_of(die_from_json),
    "groups": _tuple_of(_group_from_json),
    "duplicates": _tuple_of(lambda t: (int(cast(list[int], t)[0]), str(cast(list[str], t)[1]),
                                       str(cast(list[str], t)[2]))),
    "pools": _tuple_of(_ints), "order": _ints, "start_lost": _ints, "hazard_rolls": _ints,
}


# ---------------------------------------------------------------------------------------------
# Pauses


@dataclass(frozen=True, slots=True)
class Rolled:
    """A batch of dice has just been rolled (automatic re-rolls applied) and is not yet used:
    the moment 'after a roll' (a reaction window: Command Re-roll, via ``reroll``)."""

    kind: RollKind
    """What the dice were rolled for."""
    dice: tuple[DieRoll, ...]
    """The batch."""
    indices: tuple[int, ...]
    """The positions in ``dice`` that may still be re-rolled (not re-rolled yet, 002)."""
    pool: int
    """The pool being resolved (the number of pools for hazard rolls)."""


@dataclass(frozen=True, slots=True)
class Done:
    """The attack is resolved."""

    result: AttackResult
