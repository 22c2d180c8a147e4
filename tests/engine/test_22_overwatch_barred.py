"""Fire Overwatch's search leaves out the units that ``usage.legal_targets`` drops whatever
their geometry (pass ow22): battle-shocked units (R01.07-c / R15.01-d) and units already
targeted by one of the player's stratagems this phase (R15.01-b). The options a window lists
are the same, in the same order, as with every unit searched; the kept answer is keyed on the
units left out."""

from __future__ import annotations

import random

import pytest

from tests.battle_shifts import shifted_rounds
from w40k.core import kept
from w40k.engine.game import Game
from w40k.engine.state import StratagemUse
from w40k.engine.stratagems import interventions, usage
from w40k.engine.stratagems.interventions import FIRE_OVERWATCH
from w40k.engine.stratagems.model import Target

pytestmark = pytest.mark.stratagems

FACTS = {"phase": "movement"}


def _plain(game: Game, player: str) -> list[Target]:
    """``legal_targets``' filter on the whole search (every unit searched)."""
    s = game.state
    targeted = {t for use in s.stratagems if use.player == player and use.round == s.round
                and use.turn == s.turn_player and use.phase == s.phase for t in use.units}
    return [t for t in interventions._overwatch_search(game.ctx, player)
            if t.unit not in targeted and not s.unit(t.unit).flag("battle_shocked")]


def _closer(game: Game) -> Game:
    """The second player's units 22" nearer the first's (the armies' zones are ~30" apart:
    most unit pairs then within 24", none engaged)."""
    for u in game.state.units_of(game.state.players[1].name):
        for m in u.models:
            m.y -= 22.0
    return game


def _movement_of(game: Game, mover: str, rng: random.Random) -> str:
    """The state set to ``mover``'s Movement phase, the other player with CP and some units
    battle-shocked or targeted this phase at random; the other player's name."""
    s = game.state
    player = s.opponent(mover)
    s.turn_player = s.active = mover
    s.phase = "movement"
    s.player(player).cp = 3
    s.stratagems.clear()
    for u in s.units_of(player):
        u.flags.pop("battle_shocked", None)
        roll = rng.random()
        if roll < 0.2:
            u.flags["battle_shocked"] = True
        elif roll < 0.35:
            s.stratagems.append(StratagemUse(player, "Other", (u.id,), {"unit": u.id}, 1,
                                             s.round, mover, "movement"))
        elif roll < 0.4:  # another turn's or phase's use: not a bar
            s.stratagems.append(StratagemUse(player, "Other", (u.id,), {"unit": u.id}, 1,
                                             s.round, mover, "shooting"))
    return player


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_barred_units_are_not_searched_and_the_options_are_the_same_R15_01_b_d(
        seed: int) -> None:
    rng = random.Random(seed)
    barred_seen = options_seen = 0
    for i, game in enumerate(shifted_rounds(seed)):
        if i == 0:
            _closer(game)
        for mover in [p.name for p in game.state.players]:
            player = _movement_of(game, mover, rng)
            ctx = game.ctx
            barred = interventions._barred(ctx, player)
            barred_seen += len(barred)
            want = _plain(game, player)
            kept.forget()
            got = usage.legal_targets(ctx, FIRE_OVERWATCH, FACTS, player)
            assert got == want
            options_seen += len(got)
            # the barred units' pairs are not searched at all
            fast = interventions._overwatch_search(ctx, player, barred)
            assert not any(t.unit in barred for t in fast)
            assert fast == [t for t in interventions._overwatch_search(ctx, player)
                            if t.unit not in barred]
    assert barred_seen > 10 and options_seen > 10


def test_the_kept_answer_is_keyed_on_the_barred_units() -> None:
    # the same battlefield: a unit battle-shocked at the first ask (not searched), then
    # recovered (searched again: its pairs are listed), then shocked again
    rng = random.Random(7)
    game = _closer(next(iter(shifted_rounds(4, rounds=1))))
    player = _movement_of(game, game.state.players[0].name, rng)
    kept.forget()
    full = _plain(game, player)
    assert full
    u = game.state.unit(full[0].unit)
    u.flags["battle_shocked"] = True
    shocked = usage.legal_targets(game.ctx, FIRE_OVERWATCH, FACTS, player)
    assert shocked == _plain(game, player) and all(t.unit != u.id for t in shocked)
    u.flags.pop("battle_shocked")
    assert usage.legal_targets(game.ctx, FIRE_OVERWATCH, FACTS, player) == full
    u.flags["battle_shocked"] = True
    assert usage.legal_targets(game.ctx, FIRE_OVERWATCH, FACTS, player) == shocked
