"""12.03 / 12.08 (R12.03-c): base contact with an enemy model measured only against the enemy
units whose box comes within the tolerance of the unit's box (``melee_measure.
_contact_screen``, pile22). These tests compare ``_base_contact_enemy`` with the former loop
over every enemy unit at seeded games' positions (contacts among them), for models of their
own unit (inside its box: the screen) and of another (the full list), and the screen with
every enemy unit's box test."""

from __future__ import annotations

import math

import pytest

from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.engine import field, geo
from w40k.engine.context import Context
from w40k.engine.phases import melee_measure as mme
from w40k.engine.state import ModelData, UnitData
from w40k.geometry.battlefield import bounding_radius
from w40k.geometry.measure import in_base_contact


def _plain(ctx: Context, u: UnitData, m: ModelData) -> bool:
    """The former ``_base_contact_enemy``: every enemy unit's box test, then its models."""
    shape = geo.model_shape(m)
    fp = shape.footprint()
    cx, cy = fp.center
    r = bounding_radius(fp)
    for e in ctx.state.units:
        if e.player == u.player or e.destroyed:
            continue
        lay = field.layout(e)
        if not len(lay) or mme.box_gap(lay, cx, cy) - r > mme.CONTACT + 1e-3:
            continue
        xs, ys, rs = field.rows(lay)[:3]
        if any(math.hypot(xs[i] - cx, ys[i] - cy) - rs[i] - r <= mme.CONTACT + 1e-6
               and in_base_contact(shape, lay.models[i], mme.CONTACT)
               for i in range(len(lay))):
            return True
    return False


@pytest.mark.parametrize("seed", [1, 2])
def test_contact_with_the_screened_units_is_contact_with_every_unit_R12_03_c(
        seed: int) -> None:
    # R12.03-c: every living model of every unit, then a model of another unit asked as
    # the unit's (outside its box: every enemy unit measured), the same answer.
    asked = contacts = screened = 0
    for game in greedy_snapshots(seed, every=20, decisions=700):
        ctx = game.ctx
        units = [u for u in game.state.units if not u.destroyed and u.alive]
        for u in units:
            for m in u.alive:
                want = _plain(ctx, u, m)
                assert mme._base_contact_enemy(ctx, u, m) == want
                asked += 1
                contacts += want
            screen = mme._contact_screen(ctx, u)
            every = mme._enemy_layouts(ctx, u)
            assert [id(x) for x in screen] == [id(x) for x in every if x in screen]
            screened += len(every) - len(screen)
            for v in units:
                if v is not u and v.player == u.player:
                    m = v.alive[0]
                    assert mme._base_contact_enemy(ctx, u, m) == _plain(ctx, u, m)
    assert asked > 200 and contacts > 0 and screened > 0


def test_the_screen_keeps_a_unit_within_the_tolerance() -> None:
    # An enemy unit whose box is exactly at the screen's reach (and a float inside) is
    # kept; the kept answer is read again while nothing is placed.
    game = greedy_snapshots(3, every=100, decisions=200)[-1]
    ctx = game.ctx
    for u in [u for u in game.state.units if not u.destroyed and u.alive]:
        a = field.layout(u).box
        far = mme.CONTACT + 1e-3 + mme.SCREEN_SPARE
        want = [lay for lay in mme._enemy_layouts(ctx, u)
                if max(lay.box[0] - a[2], a[0] - lay.box[2], lay.box[1] - a[3],
                       a[1] - lay.box[3]) <= far]
        mme._SCREEN.clear()
        got = mme._contact_screen(ctx, u)
        assert [id(x) for x in got] == [id(x) for x in want]
        assert mme._contact_screen(ctx, u) is got
