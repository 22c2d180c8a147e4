"""The Python API for AI players' inner loops: cached exact answers, simulation fallback.

Results are cached on hashable frozen keys: the (weapon entries, target models, context,
attacker) as given, and underneath on the :class:`~w40k.math.setup.AttackSetup` (the pool
profiles and the target's state), so two contexts giving the same profiles share a result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from w40k.math.distributions import AttackDistribution
from w40k.math.exact import TooLarge, exact_distribution
from w40k.math.exact_tables import clear_exact_caches
from w40k.math.montecarlo import simulate
from w40k.math.setup import AttackSetup, build_setup, clear_setup_caches, kept_profile
from w40k.math.stages import clear_stage_caches
from w40k.rules.attack_profile import AttackContext, PoolProfile, WeaponEntry
from w40k.rules.primitives import ModelState

FALLBACK_TRIALS = 200_000
"""Simulated trials when the exact computation is over its limits."""

Choice = Literal["auto", "exact", "simulation"]
"""``auto``: exact, or simulation (and say why) past the limits."""


@lru_cache(maxsize=4096)
def _setup(
    weapons: tuple[WeaponEntry, ...],
    target: tuple[ModelState, ...],
    ctx: AttackContext,
    attacker: tuple[ModelState, ...],
) -> AttackSetup:
    return build_setup(weapons, target, ctx, attacker)


@lru_cache(maxsize=4096)
def _exact_or_fallback(setup: AttackSetup, trials: int, seed: int) -> AttackDistribution:
    try:
        return exact_distribution(setup)
    except TooLarge as exc:
        sim = simulate(setup, trials, seed)
        return dataclasses.replace(
            sim, reason=f"exact computation too large ({exc}); Monte Carlo, {trials} trials"
        )


def distribution(
    weapons: Sequence[WeaponEntry],
    target: Sequence[ModelState],
    ctx: AttackContext | None = None,
    attacker: Sequence[ModelState] = (),
    *,
    method: Choice = "auto",
    trials: int = FALLBACK_TRIALS,
    seed: int = 0,
) -> AttackDistribution:
    """The distribution of one unit's attacks (``weapons``, resolved in order) on ``target``.

    ``method="auto"`` computes it exactly, or simulates ``trials`` trials when the exact
    computation would exceed its limits (``result.method`` and ``result.reason`` say so);
    ``"exact"`` raises :class:`~w40k.math.exact.TooLarge` instead; ``"simulation"`` always
    simulates. Exact results are cached."""
    setup = _setup(tuple(weapons), tuple(target), ctx or AttackContext(), tuple(attacker))
    if method == "simulation":
        return simulate(setup, trials, seed)
    if method == "exact":
        return _exact_only(setup)
    return _exact_or_fallback(setup, trials, seed)


@lru_cache(maxsize=4096)
def _exact_only(setup: AttackSetup) -> AttackDistribution:
    return exact_distribution(setup)


def profile(entry: WeaponEntry, target: Sequence[ModelState], ctx: AttackContext
            ) -> PoolProfile:
    """``rules.attack_profile.pool_profile(entry, target, ctx)`` (the same profile), from the
    pool profiles :func:`distribution`'s setups keep (``math.setup.kept_profile``)."""
    return kept_profile(entry, target, ctx)


def expected_models_destroyed(
    weapons: Sequence[WeaponEntry],
    target: Sequence[ModelState],
    ctx: AttackContext | None = None,
) -> float:
    """E[models of ``target`` destroyed] by ``weapons`` (cached)."""
    return distribution(weapons, target, ctx).mean_models_destroyed


def expected_wounds_lost(
    weapons: Sequence[WeaponEntry],
    target: Sequence[ModelState],
    ctx: AttackContext | None = None,
) -> float:
    """E[wounds ``target`` loses] to ``weapons`` (cached)."""
    return distribution(weapons, target, ctx).mean_wounds_lost


def p_destroy(
    weapons: Sequence[WeaponEntry],
    target: Sequence[ModelState],
    ctx: AttackContext | None = None,
) -> float:
    """P(every model of ``target`` destroyed) by ``weapons`` (cached)."""
    return distribution(weapons, target, ctx).p_unit_destroyed


def clear_caches() -> None:
    """Forget every cached setup and result, and the per-die tables (e.g. for cold timings)."""
    clear_stage_caches()
    clear_exact_caches()
    clear_setup_caches()
    _setup.cache_clear()
    _exact_or_fallback.cache_clear()
    _exact_only.cache_clear()
