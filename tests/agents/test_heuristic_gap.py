"""The heuristic player's kept unit gaps (``heuristic_eval.unit_gap``) are the plain closest
distance after every change of the battlefield: a move, a removal, another game."""

from __future__ import annotations

import math

from w40k.agents.heuristic_eval import gap, unit_gap
from w40k.engine.game import Game
from w40k.engine.state import UnitData
from w40k.io.battle_setup import default_position


def _plain(a: UnitData, b: UnitData) -> float:
    return min((gap(x, y) for x in a.alive for y in b.alive), default=math.inf)


def test_kept_unit_gaps_follow_moves_removals_and_clones() -> None:
    # R01.04-a: the distance between two units is between their closest models
    game = Game.new(default_position(), 1)
    s = game.state
    red, blue = s.units_of(s.players[0].name), s.units_of(s.players[1].name)
    pairs = [(a, b) for a in red for b in blue]
    assert all(unit_gap(a, b) == _plain(a, b) for a, b in pairs)
    a, b = pairs[0]
    a.alive[0].x += 5.0  # a move: every kept gap is dropped
    assert unit_gap(a, b) == _plain(a, b)
    b.alive[0].destroyed = True  # a removal
    assert unit_gap(a, b) == _plain(a, b)
    other = game.clone()  # another game's units are other objects
    oa = other.state.unit(a.id)
    oa.alive[0].y += 3.0
    assert unit_gap(oa, other.state.unit(b.id)) == _plain(oa, other.state.unit(b.id))
    assert unit_gap(a, b) == _plain(a, b)
    for m in b.models:
        m.destroyed = True
    assert unit_gap(a, b) == math.inf


def test_kept_melee_estimates_follow_wounds_and_removals() -> None:
    # the whole-unit melee estimate is the one computed afresh after each change
    from w40k.agents.heuristic_eval import Estimates, _melee_outcome
    game = Game.new(default_position(), 1)
    s = game.state
    a, t = s.units_of(s.players[0].name)[0], s.units_of(s.players[1].name)[0]
    est = Estimates(s)
    for change in (lambda: None, lambda: setattr(t.alive[0], "wounds_lost", 1),
                   lambda: setattr(t.alive[0], "destroyed", True),
                   lambda: setattr(a.alive[0], "destroyed", True)):
        change()
        for charged in (False, True):
            assert est.melee_outcome(a, t, charged=charged) == _melee_outcome(a, t, charged,
                                                                               None, s)


def test_kept_ranged_estimates_follow_wounds_removals_and_distance() -> None:
    from w40k.agents.heuristic_eval import Estimates, _ranged_outcome
    game = Game.new(default_position(), 1)
    s = game.state
    a, t = s.units_of(s.players[0].name)[0], s.units_of(s.players[1].name)[0]
    est = Estimates(s)
    for change in (lambda: None, lambda: setattr(t.alive[0], "wounds_lost", 1),
                   lambda: setattr(t.alive[0], "destroyed", True)):
        change()
        for d in (3.0, 12.0, 30.0):
            assert est.ranged_outcome(a, t, distance=d) == _ranged_outcome(
                a, t, d, measured=d, state=s)
        assert est.ranged_outcome(a, t) == _ranged_outcome(a, t, unit_gap(a, t), state=s)
