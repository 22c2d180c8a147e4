"""The values of one unit's attacks on one target unit (04.03 to 06.03): the request, the
readable account and the result, each with an exact JSON form (``to_json``/``from_json``).
The attack machine (:mod:`w40k.rules.attack_machine`) resolves a request into a result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import cast

from w40k.core.errors import DataError
from w40k.core.jsonval import JSON
from w40k.rules.attack_profile import AttackContext, WeaponEntry
from w40k.rules.primitives import ModelState


@dataclass(frozen=True, slots=True)
class AttackRequest:
    """One unit's attacks on one target unit."""

    weapons: tuple[WeaponEntry, ...]
    """The weapons, in the order the attacker resolves them (R04.03-d)."""
    target: tuple[ModelState, ...]
    """The target unit's models as they stand."""
    attacker: tuple[ModelState, ...] = ()
    """The attacking unit's models (for hazard rolls, 24.15)."""
    context: AttackContext = field(default_factory=AttackContext)
    """The circumstances."""

    def to_json(self) -> dict[str, JSON]:
        """The request as JSON (exact round trip through :meth:`from_json`)."""
        return {"weapons": [w.to_json() for w in self.weapons],
                "target": [m.to_json() for m in self.target],
                "attacker": [m.to_json() for m in self.attacker],
                "context": self.context.to_json()}

    @staticmethod
    def from_json(d: Mapping[str, JSON]) -> AttackRequest:
        """The inverse of :meth:`to_json`; DataError names the field of a malformed value."""
        def items(key: str) -> list[JSON]:
            v = d.get(key, [])
            if not isinstance(v, list):
                raise DataError(f"expected a list, got {v!r}", where=f"attack.{key}")
            return v

        def obj(v: JSON, where: str) -> dict[str, JSON]:
            if not isinstance(v, dict):
                raise DataError(f"expected an object, got {v!r}", where=where)
            return v

        return AttackRequest(
            tuple(WeaponEntry.from_json(obj(w, f"attack.weapons[{i}]"), f"attack.weapons[{i}]")
                  for i, w in enumerate(items("weapons"))),
            tuple(ModelState.from_json(obj(m, f"attack.target[{i}]"), f"attack.target[{i}]")
                  for i, m in enumerate(items("target"))),
            tuple(ModelState.from_json(obj(m, f"attack.attacker[{i}]"),
                                       f"attack.attacker[{i}]")
                  for i, m in enumerate(items("attacker"))),
            AttackContext.from_json(obj(d.get("context", {}), "attack.context"),
                                    "attack.context"))


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the readable account."""

    step: str
    """The sequence step (``hit``, ``wound``, ``save``, ``damage``, ``mortal``, ...)."""
    rule: str
    """The rule that decided it (``05.01``, ``24.36 [SUSTAINED HITS 1]`` ...)."""
    text: str
    """What happened."""

    def to_json(self) -> list[JSON]:
        """``[step, rule, text]``."""
        return [self.step, self.rule, self.text]

    @staticmethod
    def from_json(v: JSON) -> Event:
        """The inverse of :meth:`to_json`."""
        step, rule, text = cast(list[JSON], v)
        return Event(str(step), str(rule), str(text))


@dataclass(frozen=True, slots=True)
class PoolResult:
    """Counts for one pool of attack dice."""

    name: str
    """The weapon (the first of the pool)."""
    attacks: int
    """Attack dice gathered."""
    hits: int
    """Hits, critical hits and [SUSTAINED HITS] extra hits included."""
    critical_hits: int
    """Critical hits."""
    wounds: int
    """Wounds, [LETHAL HITS] automatic wounds and critical wounds included."""
    critical_wounds: int
    """Critical wounds."""
    unsaved: int
    """Save rolls that inflicted damage."""
    mortal_wounds: int
    """Mortal wounds inflicted by [DEVASTATING WOUNDS] (before the one-model cap)."""
    wounds_lost: int
    """Wounds the target lost to this pool."""
    models_destroyed: int
    """Target models destroyed by this pool."""

    def to_json(self) -> dict[str, JSON]:
        """The counts as JSON."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @staticmethod
    def from_json(d: Mapping[str, JSON]) -> PoolResult:
        """The inverse of :meth:`to_json`."""
        return PoolResult(str(d["name"]), *(int(cast(int, d[f.name]))
                                            for f in fields(PoolResult)[1:]))


@dataclass(frozen=True, slots=True)
class AttackResult:
    """The outcome of ``resolve_attack``."""

    pools: tuple[PoolResult, ...]
    """Per pool, in resolution order."""
    target: tuple[ModelState, ...]
    """The target's models afterwards (destroyed ones included, with wounds_lost = W)."""
    attacker: tuple[ModelState, ...]
    """The attacker's models afterwards (hazard rolls)."""
    hazard_rolls: tuple[int, ...]
    """The hazard roll results."""
    attacker_mortal_wounds: int
    """Mortal wounds the attacker suffered from failed hazard rolls."""
    attacker_wounds_lost: int
    """Wounds the attacker lost to them (after Feel No Pain)."""
    attacker_models_destroyed: int
    """Attacker models destroyed by them."""
    events: tuple[Event, ...]
    """The readable account."""

    def _sum(self, name: str) -> int:
        return sum(int(getattr(p, name)) for p in self.pools)

    @property
    def hits(self) -> int:
        """Total hits."""
        return self._sum("hits")

    @property
    def critical_hits(self) -> int:
        """Total critical hits."""
        return self._sum("critical_hits")

    @property
    def wounds(self) -> int:
        """Total wounds."""
        return self._sum("wounds")

    @property
    def critical_wounds(self) -> int:
        """Total critical wounds."""
        return self._sum("critical_wounds")

    @property
    def unsaved(self) -> int:
        """Total failed saves."""
        return self._sum("unsaved")

    @property
    def mortal_wounds(self) -> int:
        """Total mortal wounds inflicted on the target."""
        return self._sum("mortal_wounds")

    @property
    def wounds_lost(self) -> int:
        """Wounds the target lost."""
        return self._sum("wounds_lost")

    @property
    def models_destroyed(self) -> int:
        """Target models destroyed."""
        return self._sum("models_destroyed")
