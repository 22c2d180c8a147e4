"""The attack to compute: pool profiles, the target's and the attacker's models.

Both the exact computation and the Monte Carlo engine start from an :class:`AttackSetup`, so
they read the same :class:`~w40k.rules.attack_profile.PoolProfile` numbers (every
attack-affecting rule applied once, by :func:`~w40k.rules.attack_profile.pool_profile`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from w40k.core.abilities import Blast, Cleave
from w40k.core.dice import DiceExpr
from w40k.rules.attack_profile import (
    AttackContext,
    PoolProfile,
    WeaponEntry,
    pool_key,
    pool_profile,
)
from w40k.rules.primitives import ModelState

Gathered = tuple[tuple[DiceExpr, int], ...]
"""The attack dice of one pool: (A per weapon, number of weapons) for each weapon gathered."""


@dataclass(frozen=True, slots=True)
class AttackSetup:
    """One unit's weapon pools attacking one target unit (hashable: a cache key)."""

    pools: tuple[PoolProfile, ...]
    """The pools in resolution order (04.03: the attacker picks the order; listed order).
    Each is the profile of the first weapon gathered into it."""
    gathered: tuple[Gathered, ...]
    """Per pool, the attack dice of every weapon gathered into it (04.03 identical attacks
    are gathered together, e.g. boltguns A2 and a bolt pistol A1, R04.03-b)."""
    target: tuple[ModelState, ...]
    """The target's models as they stand before the attack (destroyed ones are ignored)."""
    attacker: tuple[ModelState, ...] = ()
    """The attacking unit's models (hazard rolls, 06.03)."""
    lethal_auto: bool = True
    """[LETHAL HITS]: critical hits wound automatically (24.23, the documented default)."""

    @property
    def start(self) -> tuple[int, ...]:
        """Remaining wounds of each target model (0 for a destroyed one)."""
        return tuple(max(0, m.remaining) for m in self.target)

    @property
    def attacker_start(self) -> tuple[int, ...]:
        """Remaining wounds of each attacker model."""
        return tuple(max(0, m.remaining) for m in self.attacker)

    @property
    def hazard_rolls(self) -> int:
        """24.15: one hazard roll per [HAZARDOUS] weapon selected."""
        return sum(
            count
            for p, dice in zip(self.pools, self.gathered, strict=True)
            if p.hazardous
            for _, count in dice
        )


def build_setup(
    weapons: Sequence[WeaponEntry],
    target: Sequence[ModelState],
    ctx: AttackContext | None = None,
    attacker: Sequence[ModelState] = (),
) -> AttackSetup:
    """The pool profiles of ``weapons`` against ``target`` under ``ctx``.

    [BLAST]/[CLEAVE] count the target's models at Select Targets (24.05, 24.06): unless the
    context says otherwise that is the living models before the first pool, also for later
    pools (R24.05-a: earlier casualties do not reduce the bonus)."""
    ctx = ctx or AttackContext()
    models = tuple(target)
    if not any(not m.destroyed for m in models):
        raise ValueError("the target has no living model")
    if ctx.target_models_at_select is None:
        alive = sum(1 for m in models if not m.destroyed)
        ctx = dataclasses.replace(ctx, target_models_at_select=alive)
    # 04.03 Gather Attack Dice: identical attacks (same pool key) form one pool, at the place
    # of the first of them, as the per-die engine gathers them.
    pools: dict[tuple[object, ...], tuple[PoolProfile, list[tuple[DiceExpr, int]]]] = {}
    seen = _seen(models)
    for entry in weapons:
        if entry.count <= 0:
            continue
        prof = _profile(entry, models, seen, ctx)
        pools.setdefault(pool_key(prof), (prof, []))[1].append((prof.attacks, entry.count))
    return AttackSetup(
        tuple(p for p, _ in pools.values()),
        tuple(tuple(dice) for _, dice in pools.values()),
        models,
        tuple(attacker),
        ctx.lethal_hits_auto,
    )


def _seen(models: tuple[ModelState, ...]) -> tuple[frozenset[tuple[str, ...]], bool]:
    """What :func:`~w40k.rules.attack_profile.pool_profile` reads of the target's models: the
    keywords of its living models (the unit's keywords are their union, ``unit_keys``) and
    whether every living model has Stealth (24.33); the number of models at Select Targets
    comes from the context."""
    living = [m for m in models if not m.destroyed]
    return frozenset(m.keywords for m in living), bool(living) and all(m.stealth for m in living)


_PROFILES: dict[tuple[object, ...], PoolProfile] = {}
"""Pool profiles by (the function in use, weapon, half range, what it reads of the target,
context; :func:`_profile`): the same weapon on the same unit in another wound state, or on
another unit with the same keywords, has the same profile (bounded by
:data:`PROFILE_LIMIT`; :func:`clear_setup_caches`)."""
_UNCOUNTED: dict[AttackContext, AttackContext] = {}
"""Contexts without their ``target_models_at_select`` (cache keys; bounded by
:data:`PROFILE_LIMIT` too)."""
PROFILE_LIMIT = 8192
"""Kept pool profiles (emptied past it)."""


def kept_profile(entry: WeaponEntry, target: Sequence[ModelState], ctx: AttackContext
                 ) -> PoolProfile:
    """``rules.attack_profile.pool_profile(entry, target, ctx)`` (the same profile), from the
    pool profiles the setups keep (:func:`_profile`: per weapon, half range, what the profile
    reads of the target's models, context)."""
    models = tuple(target)
    return _profile(entry, models, _seen(models), ctx)


def _profile(entry: WeaponEntry, models: tuple[ModelState, ...],
             seen: tuple[frozenset[tuple[str, ...]], bool], ctx: AttackContext) -> PoolProfile:
    """``pool_profile(entry, models, ctx)``, kept per weapon, half range, :func:`_seen` of
    ``models`` and context, by what the profile reads of them: ``ctx`` has
    ``target_models_at_select`` set, read only for [BLAST] (24.05) and [CLEAVE] (24.06)
    (without them it is left out of the key); the target's keywords are read only by the
    weapon's abilities, its Stealth only by ranged attacks; the entry's count is only
    copied onto the profile."""
    kctx = ctx
    if not any(isinstance(a, (Blast, Cleave)) for a in entry.weapon.abilities):
        got_ctx = _UNCOUNTED.get(ctx)
        if got_ctx is None:
            if len(_UNCOUNTED) >= PROFILE_LIMIT:
                _UNCOUNTED.clear()
            got_ctx = _UNCOUNTED[ctx] = dataclasses.replace(ctx, target_models_at_select=None)
        kctx = got_ctx
    w = entry.weapon
    if not w.abilities:
        # no ability reads the target's keywords; Stealth only changes ranged attacks
        seen = (frozenset(), seen[1] and not w.is_melee)
    key = (pool_profile, w, entry.half_range, seen, kctx)
    got = _PROFILES.get(key)
    if got is None:
        if len(_PROFILES) >= PROFILE_LIMIT:
            _PROFILES.clear()
        got = _PROFILES[key] = pool_profile(entry, models, ctx)
    elif got.count != entry.count:
        # the entry's count is only recorded on the profile
        got = dataclasses.replace(got, count=entry.count)
    return got


def clear_setup_caches() -> None:
    """Forget the kept pool profiles (e.g. for cold timings)."""
    _PROFILES.clear()
    _UNCOUNTED.clear()


def models_at(models: Sequence[ModelState], remaining: Sequence[int]) -> tuple[ModelState, ...]:
    """``models`` with their remaining wounds set to ``remaining``."""
    # the constructor, not dataclasses.replace(): the same object at a fifth of the cost (the
    # exact computation sets the models of every state it reaches)
    return tuple(
        m if m.remaining == r else ModelState(
            m.name, m.W, m.T, m.Sv, m.InSv, m.W - r, m.keywords, m.fnp, m.leader, m.visible,
            m.stealth, m.wargear, m.position)
        for m, r in zip(models, remaining, strict=True)
    )
