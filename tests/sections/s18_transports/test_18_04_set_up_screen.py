"""The set-up search drops, all at once, the blocks of a unit the move's own check would refuse
(issue 13, speed): a block with a base reaching farther than 3" from the hull (R18.04-c) or
into it (R03.02-a) before a Rapid or Tactical Disembark; an ingress block off the table
(R03.02-a), within 8" of an enemy (R20.04-a, R24.09-a), reaching more than 6" from every edge
(R20.04-a) or in the opponent's zone before round 3 (R20.04-b). Every block dropped is one
the exact check refuses, so the search finds the same block as without the screen. Exact
geometry (the Rhino and squad of test_18_04_disembark_placement)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.engine.movement_helpers import far_enemy, model, unit
from tests.sections.s18_transports.test_18_04_disembark_placement import (
    ENEMY,
    X,
    Y,
    _ruin,
    _squad,
    _surrounded,
)
from tests.sections.s18_transports.test_18_20_23_offtable import at_round, rhino
from w40k.engine import offtable
from w40k.engine.game import Game
from w40k.engine.phases import set_up
from w40k.engine.phases.set_up import SetUpKind
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.geometry import Model
from w40k.rules.placement import block, block_offsets, first_legal, grid
from w40k.rules.transport import DisembarkMode


def _shapes(u: UnitData) -> list[Model]:
    return set_up._shapes(u, {m.id: (m.x, m.y, 0.0) for m in u.alive})


def _sound(game: Game, uid: str, kind: SetUpKind, mode: DisembarkMode | None,
           anchors: list[tuple[float, float]]) -> int:
    """Every block the screen drops is refused by the check; the first legal block is the
    same with and without the screen. Returns how many blocks the screen drops."""
    ctx = game.ctx
    u = ctx.state.any_unit(uid)
    models = _shapes(u)
    screen = set_up._screen(ctx, u, kind, mode, models)
    assert screen is not None
    check = set_up.checker(ctx, u, kind, mode)

    def as_answered(placed: list[Model]) -> list:
        return check(set_up._shapes(u, {m.id: (p.x, p.y, 0.0)
                                        for m, p in zip(u.alive, placed, strict=True)}))
    at = np.asarray(anchors, dtype=float)
    dropped = 0
    for facing in (0.0, math.pi / 2):
        keep = screen(at[:, None, :] + block_offsets(models, facing)[None, :, :])
        for (x, y), kept in zip(anchors, keep.tolist(), strict=True):
            if not kept:
                dropped += 1
                assert as_answered(block(models, x, y, facing)), (x, y, facing)
    assert first_legal(models, anchors, as_answered, screen=screen) == \
        first_legal(models, anchors, as_answered)
    return dropped


def _near_hull(r: float) -> list[tuple[float, float]]:
    return [(X + dx / 2, Y + dy / 2) for dx in range(-2 * int(r), 2 * int(r) + 1)
            for dy in range(-2 * int(r), 2 * int(r) + 1)]


@pytest.mark.parametrize("n", [5, 10])
def test_disembark_blocks_out_of_3_inches_or_on_the_hull_are_dropped_and_only_those(
        n: int) -> None:
    # R18.04-c / R03.02-a round an oval Rhino hull, with a ruin and an Ork beside it
    enemy = unit("blue.ork", "blue", [model("blue.ork.1", *ENEMY)])
    pos = at_round(1, rhino("red.rhino", "red", X, Y), _squad(n), enemy)
    pos["terrain"] = _ruin()
    game = Game.new(pos, seed=1)
    assert _sound(game, "red.sq", SetUpKind.DISEMBARK, DisembarkMode.TACTICAL,
                  _near_hull(6.0)) > 0


def test_disembark_screen_round_a_surrounded_rhino() -> None:
    # the block search finds nothing; the screen drops blocks only the check refuses
    game = Game.new(at_round(1, rhino("red.rhino", "red", X, Y), _squad(10), _surrounded()),
                    seed=1)
    assert _sound(game, "red.sq", SetUpKind.DISEMBARK, DisembarkMode.COMBAT,
                  _near_hull(8.0)) > 0


@pytest.mark.parametrize(("round_", "deep"), [(2, False), (3, False), (2, True)])
def test_ingress_blocks_too_near_an_enemy_or_away_from_the_edges_are_dropped_and_only_those(
        round_: int, deep: bool) -> None:
    # R20.04-a/b, R24.09-a, R03.02-a over the whole table, enemies spread over it
    orks = [model(f"blue.o.{i + 1}", 6.0 + 7.0 * (i % 7), 8.0 + 9.0 * (i // 7))
            for i in range(14)]
    abilities = ("Deep Strike",) if deep else ()
    squad = [model(f"red.sq.{i + 1}", 0.0, 0.0, abilities=abilities) for i in range(10)]
    res: dict[str, JSON] = {**unit("red.sq", "red", squad), "location": "reserves"}
    game = Game.new(at_round(round_, res, unit("blue.o", "blue", orks), far_enemy()), seed=1)
    u = game.state.any_unit("red.sq")
    assert offtable.deep_strike(u) == deep
    bf = offtable.battlefield(game.state)
    assert _sound(game, "red.sq", SetUpKind.INGRESS, None, list(grid(bf, 1.0))) > 0


@pytest.mark.parametrize("facing", [0.0, 0.7, math.pi / 2])
@pytest.mark.parametrize("base", [(120.0, 70.0), (170.0, 105.0)])
def test_the_band_round_an_oval_hull_keeps_the_spots_of_the_unscreened_band(
        facing: float, base: tuple[float, float]) -> None:
    # R18.04-c: the spots (and their distances to the hull) within 3" or 6" of the hull are
    # those of every grid point measured from the hull's 128-gon, the screen only skips
    # points inside the hull or well beyond the distance
    from w40k.geometry import Battlefield
    from w40k.rules import ring_placement as rp
    from w40k.rules.placement import centre_gaps
    hull = Model("hull", 30.0, 22.0, base_mm=base, facing=facing)
    for distance in (3.0, 6.0):
        got = rp.band(hull, distance, Battlefield(60.0, 44.0), [], [])
        x0, y0, x1, y1 = hull.footprint().bbox()
        xs = np.arange(x0 - distance, x1 + distance + rp.STEP / 2, rp.STEP)
        ys = np.arange(y0 - distance, y1 + distance + rp.STEP / 2, rp.STEP)
        gx, gy = np.meshgrid(xs, ys, indexing="ij")
        pts = np.stack([gx.ravel(), gy.ravel()], axis=1).round(4)
        gaps = centre_gaps(pts, hull)
        keep = (gaps > 0.0) & (gaps < distance)
        assert np.array_equal(got.points, pts[keep])
        assert np.array_equal(got.to_hull, gaps[keep])
