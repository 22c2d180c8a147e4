"""Using a stratagem (15.01): the limits that decide whether a window offers it, and the
sequence select targets -> pay CP -> resolve.

A stratagem is offered to a player in its window only when it is usable (R15.01-a..e,
R01.07-c): the ctx plays with stratagems (option ``stratagems``), it is the right turn and
phase, the player has not used it this phase (nor this battle, when once per battle), and some
selection of targets is legal: its unit is not battle-shocked, not already targeted by one of
the player's stratagems this phase, and the player has the CP for it (optional +CP sections
included). Each legal selection is one option of the ``reaction`` request:
``["<stratagem name>", {"unit": "<unit id>", ...}]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from w40k.core.errors import IllegalChoice
from w40k.core.jsonval import JSON
from w40k.engine.state import StratagemUse, UnitData
from w40k.engine.stratagems.effects import this_phase
from w40k.engine.stratagems.model import Stratagem, Target, TurnKey
from w40k.engine.windows import Facts, Reaction

if TYPE_CHECKING:
    from w40k.engine.context import Context


_YOURS, _OPPONENTS = TurnKey.YOURS, TurnKey.OPPONENTS
"""The two turn keys, read once (an enum member read off its class costs ~10x a global's;
every stratagem ask reads them: pass ow25)."""


def _when(ctx: Context, strat: Stratagem, player: str) -> bool:
    """R15.01-e: the turn and phase of the stratagem's WHEN."""
    s = ctx.state
    turn = strat.turn
    if turn is _YOURS and s.turn_player != player:
        return False
    if turn is _OPPONENTS and s.turn_player in ("", player):
        return False
    return not strat.phases or s.phase in strat.phases


def _facts_unit(ctx: Context, facts: Facts) -> UnitData | None:
    """The unit on the battlefield the facts' ``unit`` names (the first of that id, as
    ``GameState.unit`` finds it), or None (no such unit, or no unit id)."""
    uid = facts.get("unit")
    if not isinstance(uid, str):
        return None
    for u in ctx.state.units:
        if u.id == uid:
            return u
    return None


def legal_targets(ctx: Context, strat: Stratagem, facts: Facts, player: str) -> list[Target]:
    """The selections ``player`` may make with ``strat`` now (empty: not usable)."""
    s = ctx.state
    if not s.options.get("stratagems", True):
        return []
    cp = s.player(player).cp
    if cp < strat.cp or not _when(ctx, strat, player):
        return []  # R15.01-c: never without enough CP
    # the last unit looked up (a unit's selections come together); an own-unit stratagem's
    # is the facts' unit, found first on the battlefield as ``any_unit`` finds it there (its
    # units come before the units off it): no second lookup of it below (pass ow25)
    found: UnitData | None = None
    if strat.own_unit:
        found = _facts_unit(ctx, facts)
        if found is not None and found.player != player:
            return []  # TARGET: the facts' unit, for its owner only (nothing below raises)
    if strat.once_per_battle and any(u.player == player and u.name == strat.name
                                     for u in s.stratagems):
        return []  # 15.04 RESTRICTIONS
    used = this_phase(ctx, player)
    if any(u.name == strat.name for u in used):
        return []  # R15.01-a: the same stratagem at most once per phase
    targeted = {t for u in used for t in u.units}
    out: list[Target] = []
    for t in strat.targets(ctx, facts, player):
        # a unit in reserve too (15.07); Command Re-roll's die options all name one unit
        unit = found if found is not None and found.id == t.unit else s.any_unit(t.unit)
        found = unit
        if t.unit in targeted:
            continue  # R15.01-b: one stratagem per unit per phase
        if unit.flag("battle_shocked"):
            continue  # R01.07-c / R15.01-d
        if strat.cp + t.extra_cp > cp:
            continue  # R15.01-c: the +CP section needs the extra CP
        out.append(t)
    return out


def use_stratagem(ctx: Context, strat: Stratagem, facts: Facts, player: str,
                  answer: JSON) -> None:
    """15.01: select targets, pay the CP, resolve the effect. A selection that is not legal
    now is refused (IllegalChoice) with nothing changed."""
    targets = legal_targets(ctx, strat, facts, player)
    chosen = next((t for t in targets if t.answer() == answer), None)
    if chosen is None:
        raise IllegalChoice(f"{strat.name}: {answer!r} is not a legal use now", rule="R15.01-c")
    s = ctx.state
    cost = strat.cp + chosen.extra_cp
    p = s.player(player)
    p.cp -= cost
    s.stratagems.append(StratagemUse(player, strat.name, (chosen.unit,),
                                     cast(JSON, chosen.answer()), cost, s.round, s.turn_player,
                                     s.phase))
    ctx.log("stratagem", name=strat.name, by=player, unit=chosen.unit,
             answer=cast(JSON, chosen.answer()), cp=cost, cp_left=p.cp, rule=strat.rule)
    strat.effect(ctx, facts, player, chosen)


def as_reaction(strat: Stratagem) -> Reaction:
    """The stratagem as a reaction of its window."""

    def options(ctx: Context, facts: Facts, player: str) -> list[JSON]:
        return [cast(JSON, t.answer()) for t in legal_targets(ctx, strat, facts, player)]

    def use(ctx: Context, facts: Facts, player: str, answer: JSON) -> None:
        use_stratagem(ctx, strat, facts, player, answer)

    return Reaction(strat.name, strat.window, strat.rule, options, use)
