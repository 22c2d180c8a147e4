"""The automatic set-up of a starting position (io/battle_setup.py default columns and
io/deploy.py, ``--auto-deploy``) keeps every unit in coherency, a big mob with a leader on a
large base included: rows of five spaced for the largest base put its corners more than 9"
apart (R03.03-b), and the engine removed seven Boyz at the end of the 1000-point battle's
first turn."""

from __future__ import annotations

import numpy as np

from w40k.engine import geo
from w40k.engine.game import Game
from w40k.io.battle_setup import real_battle_position
from w40k.io.deploy import block, spread
from w40k.io.position_model import validate_position

BOY, WARBOSS = 32 / 25.4 / 2, 50 / 25.4 / 2


def test_a_mob_of_twenty_with_a_large_based_leader_is_set_up_within_9_inches() -> None:
    # R03.03-b: every model within 9" of every other model of its unit
    radii = [WARBOSS] + [BOY] * 21
    offsets = block(radii)
    assert spread(offsets, radii) <= 9.0
    r = np.asarray(radii)
    d = np.hypot(offsets[:, None, 0] - offsets[None, :, 0],
                 offsets[:, None, 1] - offsets[None, :, 1]) - r[:, None] - r[None, :]
    np.fill_diagonal(d, np.inf)
    assert d.min() >= 0.5 - 1e-9  # no base overlaps another (0.5" apart at least)
    assert (d <= 2.0).sum(axis=1).min() >= 2  # R03.03-a: two neighbours within 2"


def test_a_small_unit_keeps_its_rows_of_five() -> None:
    radii = [BOY] * 10
    offsets = block(radii)
    assert sorted({round(float(y), 2) for _, y in offsets}) == [-0.88, 0.88]  # two rows


def test_every_unit_of_the_1000_point_battle_starts_in_coherency() -> None:
    # R03.03-a, R03.03-b
    game = Game.new(validate_position(real_battle_position(), "real battle"), 1)
    on_table = [u for u in game.state.units if u.alive and u not in game.state.off_table]
    assert any(len(u.alive) > 20 for u in on_table)
    assert all(geo.unit_in_coherency(game.ctx, u) for u in on_table), [
        u.name for u in on_table if not geo.unit_in_coherency(game.ctx, u)]
