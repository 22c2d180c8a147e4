"""Rule primitives shared by the per-die attack sequence, the exact distributions and the
Monte Carlo engine (DESIGN.md: one source of truth per rule).

Each function is one rule of the rulebook, on plain numbers, so that all three consumers
aggregate the same judgement of a die.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import cast

from w40k.core.dice import Modifier
from w40k.core.errors import DataError
from w40k.core.jsonval import JSON
from w40k.core.keywords import canonical_keyword, keyword_set

_CHARACTER = canonical_keyword("CHARACTER")
_MONSTER = canonical_keyword("MONSTER")
_VEHICLE = canonical_keyword("VEHICLE")


class Outcome(IntEnum):
    """The result of a hit or wound roll (05.01, 05.02)."""

    FAIL = 0
    SUCCESS = 1
    CRITICAL = 2


def net_modifier(mods: Iterable[Modifier], cap: int | None = None) -> int:
    """The sum of roll modifiers; 11th has no cap (R05.01-f), the legacy +-1 cap is optional."""
    total = sum(m.value for m in mods)
    if cap is not None:
        total = max(-cap, min(cap, total))
    return total


def hit_outcome(
    unmodified: int, modifier: int, skill: int, *, crit_from: int = 6, fail_up_to: int = 1
) -> Outcome:
    """05.01, first matching condition: an unmodified 1 fails (or 1-5 / 1-3 for indirect fire,
    10.07), an unmodified 6 is a critical hit, a modified result >= BS/WS hits."""
    if unmodified <= fail_up_to:
        return Outcome.FAIL
    if unmodified >= crit_from:
        return Outcome.CRITICAL
    return Outcome.SUCCESS if unmodified + modifier >= skill else Outcome.FAIL


def wound_threshold(strength: int, toughness: int) -> int:
    """05.02: the wound roll needed for S against T."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def wound_outcome(unmodified: int, modifier: int, threshold: int, *, crit_from: int = 6) -> Outcome:
    """05.02, first matching condition: unmodified 1 fails, unmodified 6 (or [ANTI] Y+,
    24.03) is a critical wound, a modified result >= the required result wounds."""
    if unmodified <= 1:
        return Outcome.FAIL
    if unmodified >= crit_from:
        return Outcome.CRITICAL
    return Outcome.SUCCESS if unmodified + modifier >= threshold else Outcome.FAIL


def save_inflicts_damage(unmodified: int, ap: int, sv: int, insv: int | None) -> bool:
    """05.04 Check Save Roll, first matching condition: unmodified 1 inflicts damage; a result
    >= InSv (without AP) fails; result + AP >= Sv fails; otherwise damage (R05.04-c/d/e)."""
    if unmodified <= 1:
        return True
    if insv is not None and unmodified >= insv:
        return False
    return unmodified + ap < sv


def fnp_prevents(unmodified: int, threshold: int | None) -> bool:
    """24.12: a Feel No Pain roll of X+ means that wound is not lost."""
    return threshold is not None and unmodified >= threshold


def hazard_fails(unmodified: int) -> bool:
    """06.03: a hazard roll of 1-2 fails."""
    return unmodified <= 2


def per_five_bonus(models_at_select: int, x: int) -> int:
    """24.05/24.06: X extra attack dice for every five models (rounding down)."""
    return x * (models_at_select // 5)


# ---------------------------------------------------------------------------------------------
# Models of a unit under attack


@dataclass(frozen=True, slots=True)
class ModelState:
    """A model of a unit as it stands now: what the attack sequence needs to know."""

    name: str
    """The model's name as output (``Boy 2``)."""
    W: int
    """Wounds characteristic."""
    T: int = 4
    """Toughness."""
    Sv: int = 7
    """Save (3 for 3+); 7 means no armour save can succeed."""
    InSv: int | None = None
    """Invulnerable save, if any."""
    wounds_lost: int = 0
    """Wounds already lost."""
    keywords: tuple[str, ...] = ()
    """The model's own keywords (a model does not gain its unit-mates', Appendix)."""
    fnp: int | None = None
    """Feel No Pain X+ (the instance that applies), if any."""
    leader: bool = False
    """Whether the model belongs to the leader/support component of an attached unit (19.02)."""
    visible: bool = True
    """Whether an attacking model can see it ([PRECISION], 24.28)."""
    stealth: bool = False
    """Whether the model has Stealth (24.33: a unit whose every model has it has the benefit
    of cover against ranged attacks)."""
    wargear: tuple[str, ...] = ()
    """The model's weapons and wargear by name (05.04/06.02: models with different wargear
    are not interchangeable)."""
    position: tuple[float, float] | None = None
    """The model's base centre (x, y) in inches, or None when unknown (05.04/06.02: models
    standing in different places are not interchangeable)."""

    @property
    def remaining(self) -> int:
        """Wounds remaining."""
        return self.W - self.wounds_lost

    @property
    def destroyed(self) -> bool:
        """02.02: a model whose wounds are reduced to 0 or fewer is destroyed."""
        return self.wounds_lost >= self.W

    @property
    def wounded(self) -> bool:
        """Has lost one or more wounds (and still stands)."""
        return 0 < self.wounds_lost < self.W

    @property
    def keys(self) -> frozenset[str]:
        """Canonical keyword keys."""
        return keyword_set(self.keywords)

    @property
    def is_character(self) -> bool:
        """Whether it has the CHARACTER keyword."""
        return _CHARACTER in self.keys

    def losing(self, wounds: int) -> ModelState:
        """This model after losing ``wounds`` more wounds (never below 0 remaining)."""
        # the constructor, not dataclasses.replace(): the same object at a fifth of the cost
        return ModelState(self.name, self.W, self.T, self.Sv, self.InSv,
                          min(self.W, self.wounds_lost + wounds), self.keywords, self.fnp,
                          self.leader, self.visible, self.stealth, self.wargear, self.position)

    def to_json(self) -> dict[str, JSON]:
        """The model as JSON (every field; :meth:`from_json` gives it back exactly)."""
        # list(), not list[JSON](): calling the generic alias costs ten times more (an attack
        # frame stores its models at every step)
        keywords: list[JSON] = list(self.keywords)
        wargear: list[JSON] = list(self.wargear)
        position: list[JSON] | None = None if self.position is None else list(self.position)
        return {"name": self.name, "W": self.W, "T": self.T, "Sv": self.Sv, "InSv": self.InSv,
                "wounds_lost": self.wounds_lost, "keywords": keywords,
                "fnp": self.fnp, "leader": self.leader, "visible": self.visible,
                "stealth": self.stealth, "wargear": wargear, "position": position}

    @staticmethod
    def from_json(d: Mapping[str, JSON], where: str = "model") -> ModelState:
        """The inverse of :meth:`to_json`; DataError names the field of a malformed value."""
        try:
            pos = d.get("position")
            return ModelState(
                str(d["name"]), _int(d["W"]), _int(d.get("T", 4)), _int(d.get("Sv", 7)),
                _opt_int(d.get("InSv")), _int(d.get("wounds_lost", 0)),
                tuple(str(k) for k in cast(list[JSON], d.get("keywords", []))),
                _opt_int(d.get("fnp")), bool(d.get("leader", False)),
                bool(d.get("visible", True)), bool(d.get("stealth", False)),
                tuple(str(k) for k in cast(list[JSON], d.get("wargear", []))),
                None if pos is None else (float(cast(float, cast(list[JSON], pos)[0])),
                                          float(cast(float, cast(list[JSON], pos)[1]))))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise DataError(f"malformed model state: {exc!r}", where=where) from None


def _int(v: JSON) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"expected a whole number, got {v!r}")
    return v


def _opt_int(v: JSON) -> int | None:
    return None if v is None else _int(v)


def interchangeable(models: Sequence[ModelState]) -> bool:
    """05.04 / 06.02 Select Model: whether the candidates are interchangeable, so that the
    controlling player has nothing to choose. They are not when they differ in profile
    (characteristics, keywords, abilities), wounds remaining, wargear, leader role, or
    position (when positions are known: with none given, identical models are
    interchangeable). One rule for attacks, mortal wounds, hazards, Deadly Demise and the
    Monte Carlo path."""
    return len({selection_signature(m) for m in models}) <= 1


def selection_signature(m: ModelState) -> tuple[object, ...]:
    """What makes two models different choices for Select Model (see :func:`interchangeable`)."""
    return (m.W, m.remaining, m.T, m.Sv, m.InSv, m.fnp, m.keys, m.leader, m.stealth,
            tuple(sorted(m.wargear)), m.position)


def unit_keys(models: Iterable[ModelState]) -> frozenset[str]:
    """Appendix 'Mixed keywords': a unit has every keyword of its models (its living ones:
    a destroyed model is no longer part of the unit, RA-Destroyed-c)."""
    keys: set[str] = set()
    last: tuple[str, ...] | None = None
    for m in models:
        # the models of a unit mostly carry equal keyword lists: each distinct run read once
        if m.wounds_lost < m.W and m.keywords != last:
            last = m.keywords
            keys |= keyword_set(last)
    return frozenset(keys)


def attack_toughness(models: Sequence[ModelState]) -> int:
    """19.02: the highest T among living bodyguard models, or among the leader/support models
    if only those remain. A plain unit is all bodyguard, so its highest T."""
    alive = [m for m in models if not m.destroyed]
    if not alive:
        raise ValueError("a destroyed unit cannot be attacked")
    bodyguard = [m.T for m in alive if not m.leader]
    return max(bodyguard) if bodyguard else max(m.T for m in alive)


def all_monster_or_vehicle(models: Sequence[ModelState]) -> bool:
    """06.03: whether each (living) model is a MONSTER/VEHICLE model."""
    alive = [m for m in models if not m.destroyed]
    return bool(alive) and all(_MONSTER in m.keys or _VEHICLE in m.keys for m in alive)


def hazard_mortal_wounds(models: Sequence[ModelState]) -> int:
    """06.03: 1 mortal wound per failed hazard roll, 3 if every model is MONSTER/VEHICLE."""
    return 3 if all_monster_or_vehicle(models) else 1


def mortal_wound_candidates(models: Sequence[ModelState]) -> tuple[int, ...]:
    """06.02 Select Model, first applicable: a wounded non-CHARACTER, else any non-CHARACTER,
    else a wounded CHARACTER, else any CHARACTER (indices into ``models``)."""
    alive = [i for i, m in enumerate(models) if not m.destroyed]
    for character in (False, True):
        pool = [i for i in alive if models[i].is_character == character]
        if pool:
            wounded = [i for i in pool if models[i].wounded]
            return tuple(wounded or pool)
    return ()


# ---------------------------------------------------------------------------------------------
# Allocation groups (05.03)


@dataclass(frozen=True, slots=True)
class AllocationGroup:
    """05.03 Create Groups: one per CHARACTER model, one per W/Sv/InSv among the others."""

    members: tuple[int, ...]
    """Indices of the group's models in the unit's model list."""
    character: bool
    """Whether this is a CHARACTER model's group."""
    W: int
    """The W characteristic shared by the group."""
    Sv: int
    """The Sv characteristic shared by the group."""
    InSv: int | None
    """The InSv characteristic shared by the group."""

    def alive(self, models: Sequence[ModelState]) -> tuple[int, ...]:
        """The members not destroyed (``ModelState.destroyed``, inline)."""
        return tuple([i for i in self.members if models[i].wounds_lost < models[i].W])

    def is_wounded(self, models: Sequence[ModelState]) -> bool:
        """Whether a member has lost wounds (and still stands)."""
        return any(models[i].wounded for i in self.members)

    def label(self, models: Sequence[ModelState]) -> str:
        """A readable name: the first member's name (and the count)."""
        alive = self.alive(models) or self.members
        first = models[alive[0]].name
        return first if len(alive) == 1 else f"{first} (+{len(alive) - 1})"


def make_groups(models: Sequence[ModelState]) -> tuple[AllocationGroup, ...]:
    """05.03 Create Groups over the living models, in the order the unit lists them.

    Groups share characteristics, not remaining wounds (R05.03-a)."""
    # each group's members gathered first, the groups built once at the end
    found: list[tuple[list[int], bool, ModelState]] = []
    index: dict[tuple[int, int, int | None], list[int]] = {}
    for i, m in enumerate(models):
        if m.destroyed:
            continue
        if m.is_character:
            found.append(([i], True, m))
            continue
        key = (m.W, m.Sv, m.InSv)
        members = index.get(key)
        if members is not None:
            members.append(i)
        else:
            index[key] = [i]
            found.append((index[key], False, m))
    return tuple(AllocationGroup(tuple(members), character, m.W, m.Sv, m.InSv)
                 for members, character, m in found)


def order_violation(
    groups: Sequence[AllocationGroup], order: Sequence[int], models: Sequence[ModelState]
) -> tuple[str, str] | None:
    """Why an allocation order (group indices) breaks 05.03, as (rule ID, reason); None if legal."""
    if sorted(order) != list(range(len(groups))):
        return ("R05.03-e", "the order must name every allocation group exactly once")
    seq = [groups[i] for i in order]
    wounded_plain = [k for k, g in enumerate(seq) if not g.character and g.is_wounded(models)]
    if wounded_plain and wounded_plain[0] != 0:
        return ("R05.03-b", "a non-CHARACTER group with a wounded model must be first")
    seen_character = False
    for g in seq:
        if g.character:
            seen_character = True
        elif seen_character:
            return ("R05.03-c", "no CHARACTER group can come before a non-CHARACTER group")
    seen_unwounded_character = False
    for g in seq:
        if not g.character:
            continue
        if not g.is_wounded(models):
            seen_unwounded_character = True
        elif seen_unwounded_character:
            return ("R05.03-d", "wounded CHARACTER groups come before unwounded ones")
    return None


def default_order(
    groups: Sequence[AllocationGroup], models: Sequence[ModelState]
) -> tuple[int, ...]:
    """The documented default: the groups in the order the unit lists them, moved only as far
    as 05.03 requires (wounded non-CHARACTER group first, CHARACTER groups last, wounded
    CHARACTER groups before unwounded ones)."""

    def rank(i: int) -> tuple[int, int]:
        g = groups[i]
        if not g.character:
            return (0 if g.is_wounded(models) else 1, i)
        return (2 if g.is_wounded(models) else 3, i)

    return tuple(sorted(range(len(groups)), key=rank))


def group_model_candidates(group: AllocationGroup, models: Sequence[ModelState]) -> tuple[int, ...]:
    """05.04 Select Model: a model of the current group, one that has lost wounds if possible."""
    alive: list[int] = []
    wounded: list[int] = []
    for i in group.members:  # group.alive() and ModelState.wounded in one pass
        m = models[i]
        if m.wounds_lost < m.W:
            alive.append(i)
            if m.wounds_lost > 0:
                wounded.append(i)
    return tuple(wounded or alive)
