"""Dice (01.05) and re-rolls (002: a die is re-rolled at most once, before modifiers).

Every roll is a :class:`DieRoll` record keeping the D6 faces rolled (the last one counts; two
faces mean the die was re-rolled), the unmodified value (a D3 is a D6 halved, rounding up) and
the modifiers with their sources. Randomness comes only from a :class:`DiceSource` owned by
the caller: :class:`SeededDice` (one seeded RNG, cloneable, serializable) or
:class:`ScriptedDice` (the faces a test or a player at the table rolled, per roll kind).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Protocol, cast

from w40k.core.errors import DiceError, DiceExhausted
from w40k.core.jsonval import JSON


class RollKind(StrEnum):
    """What a die is rolled for; scripted dice are kept in one list per kind."""

    ATTACKS = "attacks"
    """Rolling a random A characteristic (02.04)."""
    HIT = "hit"
    WOUND = "wound"
    SAVE = "save"
    DAMAGE = "damage"
    """Rolling a random D characteristic, also for [DEVASTATING WOUNDS] mortal wounds."""
    FNP = "fnp"
    HAZARD = "hazard"
    CHARGE = "charge"
    ADVANCE = "advance"
    LEADERSHIP = "leadership"
    """A Leadership test other than a battle-shock test."""
    BATTLE_SHOCK = "battle_shock"
    """A battle-shock test (01.07, 08.03): 2D6 against Ld."""
    ROLL_OFF = "roll_off"
    """A roll-off (01.05)."""
    DEADLY_DEMISE = "deadly_demise"
    OTHER = "other"


_EXPR = re.compile(r"^\s*(?:(\d*)\s*[dD]\s*(3|6)|(\d+))\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A characteristic that may be random: ``3``, ``D6``, ``D3+1``, ``2D6``, ``D6+2`` (01.05).

    ``count`` dice of ``sides`` (6, or 3 for a halved D6) plus ``bonus``.
    """

    count: int
    """Number of dice (0 for a fixed value)."""
    sides: int = 6
    """6 for D6, 3 for D3."""
    bonus: int = 0
    """The constant added after summing the dice (01.05: D6+1, 2D6+3)."""

    @staticmethod
    def fixed(value: int) -> DiceExpr:
        """A non-random value."""
        return DiceExpr(0, 6, value)

    @staticmethod
    def parse(text: str | int) -> DiceExpr:
        """Parse ``"D6+1"``, ``"2D6"``, ``"D3"``, ``"4"`` or an int (DiceError if malformed)."""
        if isinstance(text, bool):
            raise DiceError(f"not a dice expression: {text!r}")
        if isinstance(text, int):
            if text < 0:
                raise DiceError(f"a characteristic cannot be negative: {text}")
            return DiceExpr.fixed(text)
        m = _EXPR.match(str(text))
        if not m:
            raise DiceError(f"not a dice expression: {text!r} (expected e.g. 3, D6, D3+1, 2D6)")
        count_s, sides_s, const_s, sign, add_s = m.groups()
        add = int(add_s) if add_s else 0
        if sign == "-":
            add = -add
        if const_s is not None:
            if sign:
                raise DiceError(f"not a dice expression: {text!r}")
            return DiceExpr.fixed(int(const_s))
        count = int(count_s) if count_s else 1
        if count < 1:
            raise DiceError(f"not a dice expression: {text!r} (zero dice)")
        expr = DiceExpr(count, int(sides_s), add)
        if expr.min < 0:
            raise DiceError(f"dice expression {text!r} can be negative")
        return expr

    @property
    def is_random(self) -> bool:
        """Whether rolling is needed."""
        return self.count > 0

    @property
    def min(self) -> int:
        """The lowest possible value."""
        return self.count + self.bonus

    @property
    def max(self) -> int:
        """The highest possible value."""
        return self.count * self.sides + self.bonus

    def plus(self, k: int) -> DiceExpr:
        """This expression with ``k`` added (e.g. [MELTA 2] turns D6 into D6+2)."""
        return DiceExpr(self.count, self.sides, self.bonus + k)

    def distribution(self) -> dict[int, Fraction]:
        """The exact probability of each value (a D3 is 1-2 -> 1, 3-4 -> 2, 5-6 -> 3)."""
        dist: dict[int, Fraction] = {self.bonus: Fraction(1)}
        one = {v: Fraction(1, self.sides) for v in range(1, self.sides + 1)}
        for _ in range(self.count):
            nxt: dict[int, Fraction] = {}
            for a, pa in dist.items():
                for b, pb in one.items():
                    nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * pb
            dist = nxt
        return dict(sorted(dist.items()))

    def mean(self) -> Fraction:
        """The expected value."""
        return Fraction(self.count * (self.sides + 1), 2) + self.bonus

    def __str__(self) -> str:
        if not self.count:
            return str(self.bonus)
        text = f"{self.count if self.count > 1 else ''}D{self.sides}"
        if self.bonus:
            text += f"{self.bonus:+d}"
        return text


@dataclass(frozen=True, slots=True)
class Modifier:
    """A modifier to a roll or a characteristic, with the rule it comes from."""

    source: str
    """What gives it (``[HEAVY]``, ``[LANCE]``, ``17.03 engaged VEHICLE``)."""
    value: int
    """The amount added (negative to subtract)."""


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die as rolled: faces in order (two when re-rolled), value, modifiers."""

    kind: str
    """The roll kind (:class:`RollKind`)."""
    faces: tuple[int, ...]
    """The D6 faces rolled for this die; the last one counts, a second one is a re-roll."""
    sides: int = 6
    """6 for a D6, 3 for a D3 (a D6 halved, rounding up)."""
    modifiers: tuple[Modifier, ...] = ()
    """Modifiers applied to the roll, with their sources."""

    @property
    def face(self) -> int:
        """The D6 face that counts (after any re-roll)."""
        return self.faces[-1]

    @property
    def unmodified(self) -> int:
        """The result after re-rolls and before modifiers (002); a D3 is the halved face."""
        face = self.faces[-1]
        return face if self.sides == 6 else (face + 1) // 2

    @property
    def rerolled(self) -> bool:
        """Whether this die has been re-rolled (it cannot be again)."""
        return len(self.faces) > 1

    @property
    def modifier_total(self) -> int:
        """The sum of the modifiers."""
        return sum(m.value for m in self.modifiers)

    @property
    def final(self) -> int:
        """The modified result."""
        return self.unmodified + self.modifier_total

    def modified(self, *mods: Modifier) -> DieRoll:
        """This roll with further modifiers."""
        return DieRoll(self.kind, self.faces, self.sides, self.modifiers + mods)


class DiceSource(Protocol):
    """Where D6 faces come from. The rules never call global ``random``."""

    def d6(self, kind: str) -> int:
        """One D6 face (1-6) for a roll of ``kind``."""
        ...


class SeededDice:
    """A seeded RNG: the same seed gives the same faces in the same order."""

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def d6(self, kind: str) -> int:
        """One D6 face: the draw of ``randint(1, 6)`` without its argument checks (it is
        ``1 + _randbelow(6)``: 3 random bits, drawn again while they make 6 or 7)."""
        bits = self._rng.getrandbits
        r = bits(3)
        while r >= 6:
            r = bits(3)
        return r + 1

    def clone(self) -> SeededDice:
        """An independent copy in the same state."""
        other = SeededDice(self.seed)
        other._rng.setstate(self._rng.getstate())
        return other

    def to_json(self) -> dict[str, JSON]:
        """The source's state as JSON (:func:`dice_from_json` reads it back)."""
        version, internal, gauss = self._rng.getstate()
        return {"type": "seeded", "seed": self.seed,
                "state": [version, list(internal), gauss]}

    @staticmethod
    def from_json(d: Mapping[str, JSON]) -> SeededDice:
        """The inverse of :meth:`to_json`."""
        seed = d.get("seed")
        out = SeededDice(seed if isinstance(seed, int) else None)
        state = d.get("state")
        if not isinstance(state, list) or len(state) != 3 or not isinstance(state[1], list):
            raise DiceError("seeded dice: 'state' must be [version, [624+1 ints], gauss]")
        version, internal, gauss = state
        try:
            out._rng.setstate((cast(int, version), tuple(cast(list[int], internal)),
                               cast(float | None, gauss)))
        except (TypeError, ValueError) as exc:
            raise DiceError(f"seeded dice: bad generator state ({exc})") from None
        return out


@dataclass
class ScriptedDice:
    """Faces given in advance, one list per roll kind, used in rolling order.

    A re-roll takes the next die of its kind. Running out raises :class:`DiceExhausted`
    unless a ``fallback`` source is given (then the fallback rolls the rest).
    """

    script: Mapping[str, Iterable[int]]
    fallback: DiceSource | None = None
    _queues: dict[str, list[int]] = field(init=False, repr=False)
    _used: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        queues: dict[str, list[int]] = {}
        for kind, faces in self.script.items():
            vals = list(faces)
            for i, v in enumerate(vals):
                if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
                    raise DiceError(f"dice.{kind}[{i}]: a D6 face is 1 to 6, got {v!r}")
            queues[str(kind)] = vals
        self._queues = queues
        self._used = {}

    def d6(self, kind: str) -> int:
        """The next scripted face of ``kind``."""
        queue = self._queues.get(kind)
        used = self._used.get(kind, 0)
        if queue is None or used >= len(queue):
            if self.fallback is not None:
                return self.fallback.d6(kind)
            raise DiceExhausted(kind, used)
        self._used[kind] = used + 1
        return queue[used]

    def unused(self) -> dict[str, list[int]]:
        """The scripted faces not used, per kind (a referee checks this is empty)."""
        return {
            k: q[self._used.get(k, 0) :]
            for k, q in self._queues.items()
            if len(q) > self._used.get(k, 0)
        }


    def to_json(self) -> dict[str, JSON]:
        """The faces not used yet (and the fallback's state) as JSON."""
        fallback = self.fallback
        return {"type": "scripted", "script": {k: list[JSON](v) for k, v in
                                               self.unused().items()},
                "fallback": None if fallback is None else _source_json(fallback)}


@dataclass
class OrderedDice:
    """Faces given in advance in the order they are rolled, whatever the roll kind (the dice
    a player at the table rolled, one after another). Running out raises
    :class:`DiceExhausted` unless a ``fallback`` source is given."""

    faces: list[int]
    fallback: DiceSource | None = None
    used: int = 0

    def __post_init__(self) -> None:
        for i, v in enumerate(self.faces):
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
                raise DiceError(f"dice[{i}]: a D6 face is 1 to 6, got {v!r}")

    def d6(self, kind: str) -> int:
        """The next face."""
        if self.used >= len(self.faces):
            if self.fallback is not None:
                return self.fallback.d6(kind)
            raise DiceExhausted(kind, self.used)
        self.used += 1
        return self.faces[self.used - 1]

    def to_json(self) -> dict[str, JSON]:
        """The faces not used yet (and the fallback's state) as JSON."""
        fallback = self.fallback
        return {"type": "ordered", "faces": list[JSON](self.faces[self.used:]),
                "fallback": None if fallback is None else _source_json(fallback)}


class SerializableDice(Protocol):
    """A dice source whose state can be saved with a game (``to_json``)."""

    def d6(self, kind: str) -> int:
        """One D6 face (1-6) for a roll of ``kind``."""
        ...

    def to_json(self) -> dict[str, JSON]:
        """The state as JSON (:func:`dice_from_json` reads it back)."""
        ...


def _source_json(source: DiceSource) -> dict[str, JSON]:
    to_json = getattr(source, "to_json", None)
    if to_json is None:
        raise DiceError(f"{type(source).__name__} cannot be saved: it has no to_json()")
    return cast(dict[str, JSON], to_json())


def dice_from_json(d: JSON) -> SerializableDice:
    """A dice source in the state its ``to_json`` wrote (seeded, scripted or ordered)."""
    if not isinstance(d, dict):
        raise DiceError(f"dice: expected an object, got {d!r}")
    kind = d.get("type")
    fb = d.get("fallback")
    fallback = None if fb is None else dice_from_json(fb)
    if kind == "seeded":
        return SeededDice.from_json(d)
    if kind == "scripted":
        script = d.get("script", {})
        if not isinstance(script, dict):
            raise DiceError("scripted dice: 'script' must be an object of face lists")
        return ScriptedDice({k: cast(list[int], v) for k, v in script.items()}, fallback)
    if kind == "ordered":
        return OrderedDice(list(cast(list[int], d.get("faces", []))), fallback)
    raise DiceError(f"dice: unknown type {kind!r} (expected seeded, scripted or ordered)")


def clone_dice(source: SerializableDice) -> SerializableDice:
    """An independent copy of a dice source in the same state."""
    return dice_from_json(source.to_json())


_FRESH: dict[tuple[type, str, int], dict[int, DieRoll]] = {}
"""The dice just rolled (one face, no modifiers) per kind (its type too: a ``RollKind``
and its plain string are equal keys but different values), sides and face. A
:class:`DieRoll` is frozen, so every batch shares them instead of building each die."""


def _fresh(kind: str, sides: int) -> dict[int, DieRoll]:
    """The dice of one face each of ``kind`` and ``sides``, by face (1 to 6)."""
    key = (kind.__class__, kind, sides)
    got = _FRESH.get(key)
    if got is None:
        if len(_FRESH) >= 64:
            _FRESH.clear()
        got = _FRESH[key] = {f: DieRoll(kind, (f,), sides) for f in range(1, 7)}
    return got


class Roller:
    """Rolls dice from a source and returns records."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        """Where the faces come from."""

    def die(self, kind: str, sides: int = 6) -> DieRoll:
        """One D6 (or D3)."""
        return DieRoll(kind, (self.source.d6(kind),), sides)

    def dice(self, kind: str, n: int, sides: int = 6) -> tuple[DieRoll, ...]:
        """``n`` dice rolled together (05: each step's dice are simultaneous)."""
        d6 = self.source.d6
        fresh = _fresh(kind, sides)
        return tuple([fresh.get(f) or DieRoll(kind, (f,), sides)
                      for f in [d6(kind) for _ in range(n)]])

    def reroll(self, die: DieRoll) -> DieRoll:
        """Re-roll ``die``; a die is never re-rolled twice (002)."""
        if die.rerolled:
            raise DiceError(f"a {die.kind} die cannot be re-rolled twice (faces {die.faces})")
        if die.modifiers:
            # 002: re-rolls happen before modifiers are applied.
            raise DiceError("re-rolls happen before modifiers: re-roll the unmodified die")
        return DieRoll(die.kind, (*die.faces, self.source.d6(die.kind)), die.sides)

    def expr(self, kind: str, expr: DiceExpr) -> tuple[int, tuple[DieRoll, ...]]:
        """Roll a dice expression: its total and the dice (01.05: constant added after)."""
        dice = self.dice(kind, expr.count, expr.sides)
        return sum(d.unmodified for d in dice) + expr.bonus, dice
