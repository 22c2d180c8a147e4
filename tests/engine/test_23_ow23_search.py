"""Fire Overwatch's search without a ``ShooterFacts`` per unit (pass ow23): the unit, its
enemies, its scene index and the Visibility read once for every unit of the player. The
search lists the same (unit, enemy) selections in the same order as the search built on
``ShooterFacts`` (kept here as the reference: ow22's code), with units battle-shocked,
targeted, engaged (R15.08-a: unengaged units only; R15.09-e: no engaged enemy) and the
armies brought within 24" (R15.09-a)."""

from __future__ import annotations

import random

import pytest

from tests.battle_shifts import shifted_rounds
from tests.engine.test_22_overwatch_barred import _closer, _movement_of
from w40k.core import kept
from w40k.engine import field, geo
from w40k.engine.context import Context
from w40k.engine.phases.shooting_facts import ShooterFacts
from w40k.engine.stratagems import interventions
from w40k.engine.stratagems.model import Target
from w40k.engine.stratagems.overwatch_sight import seen_pairs

pytestmark = pytest.mark.stratagems


def _reference(ctx: Context, player: str, barred: frozenset[str]) -> list[Target]:
    """ow22's search: one ``ShooterFacts`` per unit."""
    shooters = [ShooterFacts(ctx, u) for u in ctx.state.units_of(player)
                if not (u.id in barred or u.has("TITANIC") or geo.is_engaged(ctx, u))]
    if not shooters:
        return []
    engaged: dict[int, bool] = {}
    enemies = shooters[0].enemies
    ids = [id(e) for e in enemies]
    sure = (interventions._reach_sure([field.layout(f.unit) for f in shooters],
                                      [field.layout(e) for e in enemies],
                                      interventions.SNAP_RANGE)
            if all([id(e) for e in f.enemies] == ids for f in shooters) else None)
    reach = [interventions._in_reach(ctx, f, engaged, None if sure is None else sure[i])
             for i, f in enumerate(shooters)]
    pairs = [(f, e) for f, es in zip(shooters, reach, strict=True) for e in es]
    seen = seen_pairs(shooters[0].vis, [(f.ou, f.tu(e.id)) for f, e in pairs])
    return [Target(f.unit.id, {"enemy": e.id})
            for (f, e), ok in zip(pairs, seen, strict=True) if ok]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_search_lists_as_with_shooter_facts_R15_09_a(seed: int) -> None:
    rng = random.Random(2330 + seed)
    listed = 0
    for i, game in enumerate(shifted_rounds(seed)):
        if i % 2 == 0:
            _closer(game)
        for mover in [p.name for p in game.state.players]:
            player = _movement_of(game, mover, rng)
            ctx = game.ctx
            for barred in (frozenset(), interventions._barred(ctx, player)):
                kept.forget()
                want = _reference(ctx, player, barred)
                kept.forget()
                got = interventions._overwatch_search(ctx, player, barred)
                assert got == want
                listed += len(got)
    assert listed > 20
