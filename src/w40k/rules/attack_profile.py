"""From a weapon, its target and the circumstances to the numbers one pool of attack dice
rolls with: every attack-affecting rule of 04, 05, 10, 13.08, 17.03, 22.05 and 24 applied in
one place, so the per-die sequence, the exact distributions and the Monte Carlo engine agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import cast

from w40k.core.abilities import (
    Anti,
    Blast,
    Cleave,
    CloseQuarters,
    DevastatingWounds,
    Hazardous,
    Heavy,
    IgnoresCover,
    Lance,
    LethalHits,
    Melta,
    Precision,
    Psychic,
    RapidFire,
    SustainedHits,
    Torrent,
    TwinLinked,
    WeaponAbility,
)
from w40k.core.dice import DiceExpr, Modifier
from w40k.core.errors import DataError
from w40k.core.jsonval import JSON
from w40k.core.keywords import canonical_keyword
from w40k.core.profiles import WeaponProfile
from w40k.rules.primitives import ModelState, net_modifier, per_five_bonus, unit_keys


class Reroll(StrEnum):
    """Which dice of a roll a re-roll ability lets the player re-roll."""

    NONE = "none"
    ONES = "ones"
    """Re-roll results of 1 (X002-l)."""
    FAILED = "failed"
    """Re-roll the roll: the documented default policy re-rolls the failures."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Switches for readings the checklist marks configurable."""

    hit_modifier_cap: int | None = None
    """X002-n / R05.01-f: 11th has no cap on hit-roll modifiers; 1 applies the legacy +-1 cap."""


@dataclass(frozen=True, slots=True)
class AttackContext:
    """The circumstances of an attack that the dice do not decide."""

    half_range: bool = False
    """The target was within half range at Select Targets ([RAPID FIRE], [MELTA])."""
    charged: bool = False
    """The attacking unit made a charge move this turn ([LANCE])."""
    remained_stationary: bool = False
    """[HEAVY] applies: the unit is unengaged, was not set up this turn and no model moved
    more than 3" (24.16); for indirect fire also 'remained stationary' (10.07)."""
    cover: bool = False
    """The target has the benefit of cover (13.08, Stealth 24.33): BS worsened by 1."""
    plunging_fire: bool = False
    """Plunging fire applies (22.05): BS improved by 1."""
    target_engaged: bool = False
    """17.03: ranged attacks at an engaged MONSTER/VEHICLE target subtract 1 from the hit roll
    (set this only for such a target; [CLOSE-QUARTERS] weapons of a unit engaged with the
    target are excepted, see ``attacker_engaged_with_target``)."""
    attacker_engaged_with_target: bool = False
    """The attacking unit is engaged with the target (17.03 and 10.06 exceptions)."""
    close_quarters_monster: bool = False
    """10.06: the attacker is a MONSTER/VEHICLE using close-quarters shooting: -1 to hit unless
    a [CLOSE-QUARTERS] weapon targets a unit it is engaged with."""
    indirect: bool = False
    """10.07 indirect shooting with [INDIRECT FIRE] weapons: the target has the benefit of
    cover, no hit re-rolls, unmodified 1-5 fail (1-3 if stationary and visible to a friend)."""
    target_visible_to_friendly: bool = True
    """10.07: the target is visible to one or more friendly units."""
    own_shooting_phase: bool = True
    """Whether the attack is made in the attacker's own Shooting phase ([HEAVY])."""
    snap_shooting: bool = False
    """15.09 snap shooting (Fire Overwatch): only an unmodified 6 hits, whatever the BS and
    modifiers, and hit rolls cannot be re-rolled (R15.09-b)."""
    target_models_at_select: int | None = None
    """Models in the target at Select Targets ([BLAST], [CLEAVE]); default: its living models."""
    single_target: bool = True
    """All of each weapon's attacks go to this one target ([CLEAVE])."""
    hit_modifiers: tuple[Modifier, ...] = ()
    """Further hit-roll modifiers from other rules."""
    wound_modifiers: tuple[Modifier, ...] = ()
    """Further wound-roll modifiers from other rules."""
    skill_changes: tuple[Modifier, ...] = ()
    """Further BS/WS changes: +1 improves (3+ -> 2+), -1 worsens."""
    reroll_hits: Reroll = Reroll.NONE
    """A hit re-roll ability the attacker has."""
    reroll_wounds: Reroll = Reroll.NONE
    """A wound re-roll ability the attacker has ([TWIN-LINKED] adds FAILED by itself)."""
    precision: bool = True
    """Use [PRECISION] when a visible CHARACTER is in the target (the documented default)."""
    lethal_hits_auto: bool = True
    """[LETHAL HITS]: take the automatic wound on each critical hit ('auto'), or roll."""
    psychic_drops_harmful: bool = True
    """[PSYCHIC] (24.29): ignore the modifiers that hurt the attacker (the default)."""
    ruleset: Ruleset = field(default_factory=Ruleset)
    """Configurable readings."""

    def to_json(self) -> dict[str, JSON]:
        """Every field as JSON (modifiers as ``[source, value]`` pairs); exact round trip."""
        out: dict[str, JSON] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in _MODIFIER_FIELDS:
                out[f.name] = [[m.source, m.value] for m in v]
            elif isinstance(v, Reroll):
                out[f.name] = str(v)
            elif isinstance(v, Ruleset):
                out[f.name] = {"hit_modifier_cap": v.hit_modifier_cap}
            else:
                out[f.name] = v
        return out

    @staticmethod
    def from_json(d: Mapping[str, JSON], where: str = "context") -> AttackContext:
        """The inverse of :meth:`to_json`; a missing field takes its default, an unknown one
        is refused (DataError naming it)."""
        kwargs: dict[str, object] = {}
        known = {f.name for f in fields(AttackContext)}
        for key, v in d.items():
            if key not in known:
                raise DataError("unknown attack context field", where=f"{where}.{key}")
            try:
                if key in _MODIFIER_FIELDS:
                    kwargs[key] = tuple(Modifier(str(cast(list[JSON], m)[0]),
                                                 _json_int(cast(list[JSON], m)[1]))
                                        for m in cast(list[JSON], v))
                elif key in ("reroll_hits", "reroll_wounds"):
                    kwargs[key] = Reroll(str(v))
                elif key == "ruleset":
                    cap = cast(dict[str, JSON], v).get("hit_modifier_cap")
                    kwargs[key] = Ruleset(None if cap is None else _json_int(cap))
                elif key == "target_models_at_select":
                    kwargs[key] = None if v is None else _json_int(v)
                elif isinstance(v, bool):
                    kwargs[key] = v
                else:
                    raise TypeError(f"expected true or false, got {v!r}")
            except (TypeError, ValueError, IndexError, AttributeError) as exc:
                raise DataError(f"malformed value: {exc}", where=f"{where}.{key}") from None
        return AttackContext(**kwargs)  # type: ignore[arg-type]


_MODIFIER_FIELDS = ("hit_modifiers", "wound_modifiers", "skill_changes")


def _json_int(v: JSON) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"expected a whole number, got {v!r}")
    return v


@dataclass(frozen=True, slots=True)
class WeaponEntry:
    """``count`` identical weapons attacking the target."""

    weapon: WeaponProfile
    """The profile."""
    count: int = 1
    """How many models use it (or how many such weapons there are)."""
    half_range: bool | None = None
    """Overrides the context's ``half_range`` for this weapon."""

    def to_json(self) -> dict[str, JSON]:
        """The entry as JSON (the weapon in its datasheet form)."""
        return {"weapon": self.weapon.to_json(), "count": self.count,
                "half_range": self.half_range}

    @staticmethod
    def from_json(d: Mapping[str, JSON], where: str = "weapon") -> WeaponEntry:
        """The inverse of :meth:`to_json` (validated)."""
        try:
            half = d.get("half_range")
            if half is not None and not isinstance(half, bool):
                raise TypeError(f"half_range: expected true, false or null, got {half!r}")
            return WeaponEntry(WeaponProfile.from_json(cast(dict[str, JSON], d["weapon"])),
                               _json_int(d.get("count", 1)), half)
        except DataError as exc:
            raise exc.at(where) from None
        except (KeyError, TypeError) as exc:
            raise DataError(f"malformed weapon entry: {exc}", where=where) from None


@dataclass(frozen=True, slots=True)
class PoolProfile:
    """The numbers one pool of identical attacks resolves with, and why."""

    name: str
    """The weapon's name."""
    count: int
    """Number of weapons in the pool."""
    attacks: DiceExpr
    """Attack dice per weapon (A plus [RAPID FIRE], [BLAST], [CLEAVE])."""
    torrent: bool
    """24.37: no hit roll; every attack hits (no critical hits)."""
    skill: int
    """Effective BS/WS after cover and plunging fire (may be 1 or 7)."""
    hit_modifier: int
    """Net hit-roll modifier."""
    hit_fail_up_to: int
    """Unmodified results up to this fail (1; 5 or 3 for indirect fire)."""
    reroll_hits: Reroll
    """Hit re-roll."""
    sustained: int
    """[SUSTAINED HITS X]: extra hits per critical hit."""
    lethal: bool
    """[LETHAL HITS] applies (the choice to use it is separate)."""
    strength: int
    """S."""
    wound_modifier: int
    """Net wound-roll modifier ([LANCE])."""
    wound_crit_from: int
    """Unmodified wound rolls of this or more are critical (6, or [ANTI] Y)."""
    reroll_wounds: Reroll
    """Wound re-roll ([TWIN-LINKED])."""
    devastating: bool
    """[DEVASTATING WOUNDS] applies."""
    ap: int
    """AP."""
    damage: DiceExpr
    """D, with [MELTA] added."""
    hazardous: bool
    """The weapon is [HAZARDOUS] (hazard rolls after all attacks)."""
    precision: bool
    """[PRECISION] applies."""
    notes: tuple[str, ...] = ()
    """What each rule did, for the readable account."""

    @property
    def total_attacks(self) -> DiceExpr:
        """All attack dice of the pool when fixed (``count`` x ``attacks``)."""
        if self.attacks.is_random:
            raise ValueError("random A: roll per weapon")
        return DiceExpr.fixed(self.attacks.bonus * self.count)


def _applicable(
    weapon: WeaponProfile, family: type[WeaponAbility], target_keys: frozenset[str]
) -> list[WeaponAbility]:
    return [a for a in weapon.abilities_of(family) if a.applies_to(target_keys)]


def _number(a: WeaponAbility) -> int:
    x = getattr(a, "x", 0)
    return x if isinstance(x, int) else 0


def choose_duplicate(
    weapon: WeaponProfile,
    family: type[WeaponAbility],
    target_keys: frozenset[str],
    choices: Mapping[str, WeaponAbility] | None = None,
) -> WeaponAbility | None:
    """24.02: of several instances of one ability only one applies. The player's choice (from
    ``choices``, by family name) if given, else the default: the instance best for the
    attacker among those that apply to this target (highest X; lowest [ANTI] threshold)."""
    instances = weapon.abilities_of(family)
    if not instances:
        return None
    if choices and family.__name__ in choices:
        chosen = choices[family.__name__]
        if chosen not in instances:
            raise ValueError(f"{chosen} is not an ability of {weapon.name}")
        return chosen if chosen.applies_to(target_keys) else None
    usable = _applicable(weapon, family, target_keys)
    if family is Anti:
        usable = [
            a for a in usable if isinstance(a, Anti) and canonical_keyword(a.keyword) in target_keys
        ]
        return min(usable, key=lambda a: a.threshold if isinstance(a, Anti) else 7, default=None)
    return max(usable, key=_number, default=None)


def pool_profile(
    entry: WeaponEntry,
    target: Sequence[ModelState],
    ctx: AttackContext,
    choices: Mapping[str, WeaponAbility] | None = None,
) -> PoolProfile:
    """Apply every attack-affecting rule to one weapon attacking ``target`` (its models now)."""
    w = entry.weapon
    keys = unit_keys(target)
    notes: list[str] = []

    # the ability families the weapon holds, once: most families asked below are absent, and
    # choose_duplicate answers None for a family without an instance (whatever ``choices``)
    present = {type(a) for a in w.abilities}

    def has(family: type[WeaponAbility]) -> WeaponAbility | None:
        if not present or (family not in present
                           and not any(issubclass(t, family) for t in present)):
            return None
        return choose_duplicate(w, family, keys, choices)

    half = ctx.half_range if entry.half_range is None else entry.half_range
    ranged = not w.is_melee
    # --- Gather attack dice (04.03, 24.05, 24.06, 24.30)
    attacks = w.A
    models_at_select = (
        ctx.target_models_at_select
        if ctx.target_models_at_select is not None
        else sum(1 for m in target if not m.destroyed)
    )
    rf = has(RapidFire)
    if rf is not None and half and ranged:
        attacks = attacks.plus(_number(rf))
        notes.append(f"24.30 [{rf}]: +{_number(rf)} attack dice at half range")
    blast = has(Blast)
    if blast is not None and (bonus := per_five_bonus(models_at_select, _number(blast))):
        attacks = attacks.plus(bonus)
        notes.append(f"24.05 [{blast}]: +{bonus} attack dice ({models_at_select} models)")
    cleave = has(Cleave)
    if (
        cleave is not None
        and ctx.single_target
        and (bonus := per_five_bonus(models_at_select, _number(cleave)))
    ):
        attacks = attacks.plus(bonus)
        notes.append(f"24.06 [{cleave}]: +{bonus} attack dice ({models_at_select} models)")
    # --- Hit roll (05.01) and BS/WS changes
    torrent = has(Torrent) is not None
    cq = has(CloseQuarters) is not None
    skill_mods: list[Modifier] = list(ctx.skill_changes)
    # 24.33: a unit whose every model has Stealth always has the benefit of cover against
    # ranged attacks; cover is one yes/no state and does not stack (R13.08-d).
    living = [m for m in target if not m.destroyed]
    stealth = bool(living) and all(m.stealth for m in living)
    if ranged and stealth and not (ctx.cover or ctx.indirect):
        notes.append("24.33 Stealth: the target has the benefit of cover")
    if ranged and (ctx.cover or ctx.indirect or stealth):
        if has(IgnoresCover) is not None:
            notes.append("24.18 [IGNORES COVER]: no benefit of cover")
        else:
            skill_mods.append(Modifier("13.08 benefit of cover", -1))
    if ranged and ctx.plunging_fire:
        skill_mods.append(Modifier("22.05 plunging fire", +1))
    hit_mods: list[Modifier] = list(ctx.hit_modifiers)
    if ranged and has(Heavy) is not None and ctx.remained_stationary and ctx.own_shooting_phase:
        hit_mods.append(Modifier("24.16 [HEAVY]", +1))
    if ranged and ctx.target_engaged and not (cq and ctx.attacker_engaged_with_target):
        hit_mods.append(Modifier("17.03 engaged MONSTER/VEHICLE target", -1))
    if ranged and ctx.close_quarters_monster and not (cq and ctx.attacker_engaged_with_target):
        hit_mods.append(Modifier("10.06 MONSTER/VEHICLE close-quarters shooting", -1))
    if has(Psychic) is not None and ctx.psychic_drops_harmful:
        dropped = [m for m in (*skill_mods, *hit_mods) if m.value < 0]
        if dropped:
            notes.append("24.29 [PSYCHIC]: ignores " + ", ".join(m.source for m in dropped))
        skill_mods = [m for m in skill_mods if m.value >= 0]
        hit_mods = [m for m in hit_mods if m.value >= 0]
    for m in (*skill_mods, *hit_mods):
        notes.append(f"{m.source}: {m.value:+d}" + (" BS/WS" if m in skill_mods else " to hit"))
    skill = w.skill - sum(m.value for m in skill_mods)
    hit_fail = 1
    reroll_hits = ctx.reroll_hits
    if ctx.indirect:
        # 10.07: 1-5 fail, or 1-3 if stationary and the target is visible to a friendly unit.
        hit_fail = 3 if (ctx.remained_stationary and ctx.target_visible_to_friendly) else 5
        reroll_hits = Reroll.NONE
    if ctx.snap_shooting:
        # R15.09-b: an unmodified 6 hits (and is critical); 1-5 fail; no hit re-rolls.
        # [TORRENT] makes no hit roll and still hits (R15.09-d recommended reading).
        hit_fail = 5
        reroll_hits = Reroll.NONE
        notes.append("15.09 snap shooting: only an unmodified 6 hits")
    sustained = has(SustainedHits)
    # --- Wound roll (05.02)
    wound_mods: list[Modifier] = list(ctx.wound_modifiers)
    if has(Lance) is not None and ctx.charged:
        wound_mods.append(Modifier("24.21 [LANCE]", +1))
        notes.append("24.21 [LANCE]: +1 to wound after charging")
    anti = has(Anti)
    crit_from = anti.threshold if isinstance(anti, Anti) else 6
    if isinstance(anti, Anti):
        notes.append(f"24.03 [{anti}]: critical wounds on {anti.threshold}+")
    reroll_wounds = Reroll.FAILED if has(TwinLinked) is not None else ctx.reroll_wounds
    # --- Damage (24.25)
    damage = w.D
    melta = has(Melta)
    if melta is not None and half and ranged:
        damage = damage.plus(_number(melta))
        notes.append(f"24.25 [{melta}]: D becomes {damage}")
    return PoolProfile(
        name=w.name,
        count=entry.count,
        attacks=attacks,
        torrent=torrent,
        skill=skill,
        hit_modifier=net_modifier(hit_mods, ctx.ruleset.hit_modifier_cap),
        hit_fail_up_to=hit_fail,
        reroll_hits=reroll_hits,
        sustained=_number(sustained) if sustained is not None else 0,
        lethal=has(LethalHits) is not None,
        strength=w.S,
        wound_modifier=net_modifier(wound_mods),
        wound_crit_from=crit_from,
        reroll_wounds=reroll_wounds,
        devastating=has(DevastatingWounds) is not None,
        ap=w.AP,
        damage=damage,
        hazardous=bool(w.abilities_of(Hazardous)),
        precision=has(Precision) is not None and ctx.precision,
        notes=tuple(notes),
    )


def pool_key(p: PoolProfile) -> tuple[object, ...]:
    """04.03 identical attacks: same BS/WS, S, AP, D and the same applicable rules."""
    return (
        p.attacks.count,
        p.attacks.sides,
        p.torrent,
        p.skill,
        p.hit_modifier,
        p.hit_fail_up_to,
        p.reroll_hits,
        p.sustained,
        p.lethal,
        p.strength,
        p.wound_modifier,
        p.wound_crit_from,
        p.reroll_wounds,
        p.devastating,
        p.ap,
        p.damage,
        p.hazardous,
        p.precision,
    )


_POOL_CONTEXT_FIELDS = tuple(f.name for f in fields(AttackContext)
                             if f.name != "target_models_at_select")
"""The context fields :func:`pool_profile` may read as they are (every one but the count of
models at Select Targets, which it reads through ``models_at_select``)."""
_CONTEXT_TOKENS: dict[tuple[object, ...], int] = {}
"""A small number per distinct tuple of those fields (hashed once, not per lookup)."""
_CONTEXT_OF: dict[int, tuple[AttackContext, int]] = {}
"""Each context object's token, by the object's id (the entry holds it: no id reuse)."""
_KEPT_POOLS: dict[tuple[object, ...], tuple[WeaponProfile, PoolProfile]] = {}
"""The pool profiles made, by :func:`_pool_inputs` (the entry holds the weapon, whose id is in
the key). Emptied past :data:`_KEPT_LIMIT` entries, like the two tables above."""
_KEPT_LIMIT = 1024


def _context_token(ctx: AttackContext) -> int:
    """The token of ``ctx``'s fields but ``target_models_at_select``."""
    hit = _CONTEXT_OF.get(id(ctx))
    if hit is not None and hit[0] is ctx:
        return hit[1]
    if len(_CONTEXT_OF) >= _KEPT_LIMIT or len(_CONTEXT_TOKENS) >= _KEPT_LIMIT:
        _CONTEXT_OF.clear()
        _CONTEXT_TOKENS.clear()
        _KEPT_POOLS.clear()  # its keys hold tokens
    values = tuple([getattr(ctx, name) for name in _POOL_CONTEXT_FIELDS])
    token = _CONTEXT_TOKENS.setdefault(values, len(_CONTEXT_TOKENS))
    _CONTEXT_OF[id(ctx)] = (ctx, token)
    return token


def _pool_inputs(entry: WeaponEntry, target: Sequence[ModelState], ctx: AttackContext,
                 choices: Mapping[str, WeaponAbility] | None) -> tuple[object, ...]:
    """Everything :func:`pool_profile` reads: the weapon (by identity), its count and
    half-range override, the context's fields, the target's keywords (``unit_keys``), whether
    every living model has Stealth (24.33), the models at Select Targets where a [BLAST] or
    [CLEAVE] ability reads them (24.05, 24.06), and the duplicate choices (24.02)."""
    w = entry.weapon
    living = [m for m in target if not m.destroyed]
    per_five = None
    if any(isinstance(a, Blast | Cleave) for a in w.abilities):
        per_five = (ctx.target_models_at_select if ctx.target_models_at_select is not None
                    else len(living))
    return (id(w), entry.count, entry.half_range, _context_token(ctx), unit_keys(target),
            bool(living) and all(m.stealth for m in living), per_five,
            tuple(choices.items()) if choices else ())


def kept_pool_profile(
    entry: WeaponEntry,
    target: Sequence[ModelState],
    ctx: AttackContext,
    choices: Mapping[str, WeaponAbility] | None = None,
) -> PoolProfile:
    """``pool_profile(entry, target, ctx, choices)``, kept across attacks for the same inputs
    (:func:`_pool_inputs`: the profile is a function of them alone, and frozen, so one is
    shared). The same weapons fire at the same kinds of target again and again in a battle."""
    key = _pool_inputs(entry, target, ctx, choices)
    hit = _KEPT_POOLS.get(key)
    if hit is not None and hit[0] is entry.weapon:
        return hit[1]
    if len(_KEPT_POOLS) >= _KEPT_LIMIT:
        _KEPT_POOLS.clear()
    made = pool_profile(entry, target, ctx, choices)
    _KEPT_POOLS[key] = (entry.weapon, made)
    return made
