"""Fire Overwatch's 24" reach from one matrix (pass ow21): ``interventions._reach_sure``
decides the (shooter, enemy) unit pairs of round bases whose least model gap is plainly
inside or past the reach, and leaves the others (-1) to ``_round_within`` pair by pair; and
``_in_reach`` given those answers lists the plain filter's units (R15.09-a: within 24";
R01.04-a: the units' distance is their closest model pair's)."""

from __future__ import annotations

import pytest

from tests.battle_shifts import shifted_rounds
from w40k.engine import field, geo
from w40k.engine.phases.melee_measure import EPS, units_distance, units_within
from w40k.engine.phases.shooting_facts import ShooterFacts
from w40k.engine.stratagems import interventions

pytestmark = pytest.mark.stratagems


def _round(u: object) -> bool:
    la = field.layout(u)  # type: ignore[arg-type]
    return bool(len(la) and la.round.all())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reach_matrix_answers_as_units_within_R15_09_a(seed: int) -> None:
    # every (player A unit, player B unit) pair of round bases, one unit shifted at random,
    # at 24" and at every pair's own distance with 1e-12" to 1e-3" either side: a decided
    # answer is units_within's, and the pairs within the margin of their limit are left
    decided = left = 0
    for game in shifted_rounds(seed):
        s = game.state
        a_units = [u for u in s.units_of(s.players[0].name) if _round(u)]
        b_units = [u for u in s.units_of(s.players[1].name) if _round(u)]
        la = [field.layout(u) for u in a_units]
        lb = [field.layout(u) for u in b_units]
        dists = {interventions.SNAP_RANGE}
        for a in a_units[:4]:
            for b in b_units[:4]:
                own = units_distance(a, b)
                dists |= {max(0.0, own - EPS + off)
                          for off in (-1e-3, -1e-6, -1e-9, -1e-12, 0.0, 1e-12, 1e-9, 1e-6)}
        for d in sorted(dists):
            sure = interventions._reach_sure(la, lb, d)
            assert sure is not None
            for i, a in enumerate(a_units):
                for j, b in enumerate(b_units):
                    if sure[i][j] < 0:
                        left += 1
                        continue
                    decided += 1
                    assert (sure[i][j] == 1) == units_within(a, b, d), (a.id, b.id, d)
                    assert (sure[i][j] == 1) == interventions._round_within(la[i], lb[j], d)
    assert decided > 1000 and left > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_in_reach_with_the_matrix_lists_the_plain_filter_R15_09_a(seed: int) -> None:
    for game in shifted_rounds(seed):
        ctx, s = game.ctx, game.state
        for p, q in ((0, 1), (1, 0)):
            shooters = [u for u in s.units_of(s.players[p].name) if _round(u)]
            enemies = [u for u in s.units_of(s.players[q].name)]
            sure = interventions._reach_sure([field.layout(u) for u in shooters],
                                             [field.layout(e) for e in enemies],
                                             interventions.SNAP_RANGE)
            if not all(_round(e) for e in enemies):
                assert sure is None
                continue
            assert sure is not None
            engaged: dict[int, bool] = {}
            for i, u in enumerate(shooters):
                facts = ShooterFacts(ctx, u)
                want = [e for e in facts.enemies
                        if units_within(u, e, interventions.SNAP_RANGE)
                        and not geo.is_engaged(ctx, e)]
                assert interventions._in_reach(ctx, facts, engaged, sure[i]) == want


def test_reach_matrix_needs_round_bases_and_models() -> None:
    game = next(shifted_rounds(1))
    lays = [field.layout(u) for u in game.state.units]
    assert interventions._reach_sure([], lays, 24.0) is None
    assert interventions._reach_sure(lays, [], 24.0) is None
