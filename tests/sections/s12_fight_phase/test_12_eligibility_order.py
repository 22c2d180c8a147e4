"""Fight eligibility (R12.04-a), the pile-in step's units (R12.03-a) and the pass rule
(RA-Unable-a) with their tests in a cheaper order and kept distances: the same answers as the
plain expressions on seeded random scenes."""

from __future__ import annotations

import random

import pytest

from tests.engine.core_helpers import marker
from tests.engine.melee_helpers import fight_phase, fighter, pending, unit
from w40k.engine import field, geo
from w40k.engine.game import Game
from w40k.engine.phases import fight
from w40k.engine.phases import fight_sequence as fs
from w40k.engine.phases.melee_measure import unit_distance
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData


def _scene(seed: int) -> Game:
    """Four red and four blue units of one to three models scattered over a 20" square, a
    few of them charged, three objective markers; the game at its first Fight step request
    (nothing piled in)."""
    rng = random.Random(seed)
    objectives = [marker(f"o{k}", rng.uniform(5, 25), rng.uniform(5, 25)) for k in range(3)]
    units: list[dict[str, JSON]] = []
    for player in ("red", "blue"):
        for k in range(4):
            x, y = rng.uniform(5, 25), rng.uniform(5, 25)
            n = rng.randint(1, 3)
            flags = {"charged": True, "fights_first": True} if rng.random() < 0.3 else None
            units.append(unit(f"{player}.u{k}", player,
                              [fighter(f"{player}.u{k}.{i}", x + 1.4 * i, y) for i in range(n)],
                              flags=flags))
    game = Game.new(fight_phase(units, objectives=objectives), seed=seed)
    for _ in range(40):
        req = pending(game)
        if req.kind == "select_unit_to_fight":
            return game
        game.submit("done" if "done" in req.options else req.options[0])
    raise AssertionError("no Fight step request")


def _plain_eligible(game: Game, u: UnitData) -> bool:
    if u.destroyed or u.flag("selected_to_fight"):
        return False
    pd = fs.phase_data(game.ctx)
    return (geo.is_engaged(game.ctx, u) or u.flag("charged")
            or u.id in (pd.engaged_at_start or ()))


def _plain_may_pass(game: Game, player: str) -> bool:
    ctx = game.ctx
    mine = [u for u in fight.fight_eligible(ctx) if u.player == player]
    enemies = [geo.unit_shapes(e) for e in ctx.state.units_of(ctx.state.opponent(player))]
    return all(unit_distance(geo.unit_shapes(u), es) > fight.UNABLE_DISTANCE
               for u in mine for es in enemies)


@pytest.mark.parametrize("seed", range(12))
def test_eligibility_and_the_pass_rule_answer_as_the_plain_tests_R12_04_a(seed: int) -> None:
    game = _scene(seed)
    ctx = game.ctx
    seen = set()
    for step in range(3):
        for u in ctx.state.units:
            want = _plain_eligible(game, u)
            assert fight.eligible_to_fight(ctx, u) == want
            assert fight.eligible_to_fight(ctx, u, fs.phase_data(ctx)) == want
            seen.add(want)
        for player in ("red", "blue"):
            want = _plain_may_pass(game, player)
            assert fight.may_pass(ctx, player) == want
            assert fight.may_pass(ctx, player, fight.fight_eligible(ctx)) == want
            field.forget()
            assert fight.may_pass(ctx, player) == want
        # move a model (a placement): the kept distances follow
        m = ctx.state.units[step].alive[0] if ctx.state.units[step].alive else None
        if m is not None:
            m.x += 3.0 if step % 2 else -3.0
    assert seen


@pytest.mark.parametrize("seed", range(6))
def test_the_pile_in_steps_units_answer_as_the_plain_test_R12_03_a(seed: int) -> None:
    game = _scene(seed)
    ctx = game.ctx
    for u in ctx.state.units:
        plain = (not u.destroyed and not u.flag("surged")
                 and (geo.is_engaged(ctx, u) or u.flag("charged"))
                 and fs.pile_in_options(ctx, u))
        assert fight._can_pile_in(ctx, u) == plain


@pytest.mark.parametrize("seed", range(12))
def test_a_consolidation_mode_applies_as_consolidation_mode_says_R12_08_a(seed: int) -> None:
    game = _scene(seed)
    ctx = game.ctx
    seen = set()
    for step in range(3):
        for u in ctx.state.units:
            want = bool(fight.consolidation_mode(ctx, u)[0])
            field.forget()
            assert fight._has_consolidation(ctx, u) == want
            seen.add(fight.consolidation_mode(ctx, u)[0])
        m = ctx.state.units[2 * step].alive[0] if ctx.state.units[2 * step].alive else None
        if m is not None:
            m.x += 4.0
    assert len(seen) >= 2
