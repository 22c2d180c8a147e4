"""Queries about the stratagems in force, for the phases' hooks: what was used this phase, on
which unit, with which selection (read from ``GameState.stratagems``; imports nothing of the
phases, so any phase module may call it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from w40k.core.jsonval import JSON
from w40k.engine.state import StratagemUse

if TYPE_CHECKING:
    from w40k.engine.context import Context


def this_phase(ctx: Context, player: str | None = None) -> list[StratagemUse]:
    """The stratagems used in the current phase (of the current turn and round), by
    ``player`` when given."""
    s = ctx.state
    rnd, turn, phase = s.round, s.turn_player, s.phase  # read once, not per use
    return [u for u in s.stratagems
            if u.phase == phase and u.turn == turn and u.round == rnd
            and (player is None or u.player == player)]


def used_on(ctx: Context, name: str, unit: str) -> StratagemUse | None:
    """The use of stratagem ``name`` on ``unit`` this phase, if any."""
    return next((u for u in this_phase(ctx) if u.name == name and unit in u.units), None)


def insane_bravery(ctx: Context, unit: str) -> bool:
    """15.04: Insane Bravery was used on ``unit`` just before its battle-shock roll."""
    return used_on(ctx, "Insane Bravery", unit) is not None


def epic_challenge_model(ctx: Context, unit: str) -> str | None:
    """15.03: the CHARACTER model of ``unit`` whose melee weapons have [PRECISION] until the
    end of this phase."""
    use = used_on(ctx, "Epic Challenge", unit)
    if use is None:
        return None
    return str(cast(dict[str, JSON], use.answer)["model"])


def smokescreened(ctx: Context, unit: str) -> bool:
    """15.10: ``unit`` used Smokescreen this phase: attacks targeting it have the benefit of
    cover."""
    return used_on(ctx, "Smokescreen", unit) is not None


def smokescreen_units(ctx: Context, player: str) -> frozenset[str]:
    """15.10: the SMOKE units of ``player`` that used Smokescreen this phase."""
    return frozenset(uid for u in this_phase(ctx, player) if u.name == "Smokescreen"
                     for uid in u.units)


def counteroffensive_unit(ctx: Context, player: str) -> str | None:
    """15.12: the unit ``player`` must select next to fight this phase (Counteroffensive), if
    it has not been selected yet."""
    for use in this_phase(ctx, player):
        if use.name == "Counteroffensive":
            u = ctx.state.unit(use.units[0])
            if not u.flag("selected_to_fight") and not u.destroyed:
                return u.id
    return None
