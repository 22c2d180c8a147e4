"""15.10 Smokescreen, second part (exact geometry, scripted dice): a unit that is not fully
visible to the attacking model because of the SMOKE unit's models has the benefit of cover
until the end of the phase; one hidden only by terrain, or fully visible, gains nothing."""

from __future__ import annotations

from typing import cast

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import events, scripted
from w40k.core.jsonval import JSON
from w40k.engine.game import Game
from w40k.engine.phases.shooting_facts import ShooterFacts
from w40k.rules.decisions import DECLINE, DecisionKind

pytestmark = pytest.mark.stratagems

GUN = sh.weapon("gun", A="1")


def _game(smoke_y: float, *, target_x: float = 10.0, terrain: JSON = None) -> Game:
    """Red's shooter at (10, 10); blue's SMOKE vehicle (60 mm base) at (10, ``smoke_y``);
    blue's target at (``target_x``, 20). Blue has 1 CP, so Smokescreen is offered first."""
    red = sh.unit("red.s", [sh.model("red.s.1", 10, 10, GUN)])
    smoke = sh.unit("blue.v", [sh.model("blue.v.1", 10, smoke_y, base_mm=60.0,
                                        keywords=("VEHICLE", "SMOKE"))])
    target = sh.unit("blue.t", [sh.model("blue.t.1", target_x, 20)])
    pos = sh.position(red, smoke, target, terrain=cast(dict[str, JSON], terrain) or None)
    cast(list[dict[str, JSON]], pos["players"])[1]["cp"] = 1
    pos["frames"] = [{"kind": "turn", "data": {"player": "red", "step": 3, "closed": 3}}]
    return scripted(Game.new(pos, seed=1), [3, 6, 1])


def _smokescreen(game: Game, use: bool) -> None:
    req = game.pending()
    assert req is not None and req.kind is DecisionKind.REACTION and req.player == "blue"
    assert [cast(list[JSON], o)[0] for o in req.options[1:]] == ["Smokescreen"]
    game.submit(req.options[1] if use else DECLINE, player="blue")


def _shoot(game: Game) -> dict[str, JSON]:
    """red.s.1 shoots blue.t once: the attack event (hit roll 3, BS 3+)."""
    sh.select(game, "red.s")
    game.submit({"red.s.1": {"gun": "blue.t"}})
    while (req := game.pending()) is not None and game.state.phase == "shooting" \
            and req.kind != "select_unit_to_shoot":
        game.submit(req.options[0] if req.options else DECLINE)
    return events(game, "attack")[0]


def _facts(game: Game) -> ShooterFacts:
    return ShooterFacts(game.ctx, game.state.unit("red.s"))


def test_a_unit_behind_the_smoke_units_models_has_cover_after_smokescreen() -> None:
    # R15.10-a: blue.t is visible but not fully visible to red.s.1 only because of the SMOKE
    # vehicle's base between them (no terrain): with Smokescreen the hit roll of 3 misses.
    game = _game(smoke_y=15.0)
    _smokescreen(game, use=True)
    f = _facts(game)
    assert f.visible("red.s.1", "blue.t") and not f.cover("red.s.1", "blue.t")
    assert f.smoke_cover("red.s.1", "blue.t")
    assert _shoot(game)["hits"] == 0


def test_the_same_unit_without_smokescreen_is_hit() -> None:
    # R15.10-a: declined, the vehicle's models hide part of blue.t but give no cover (13.08).
    game = _game(smoke_y=15.0)
    _smokescreen(game, use=False)
    assert not _facts(game).smoke_cover("red.s.1", "blue.t")
    assert _shoot(game)["hits"] == 1


def test_a_fully_visible_unit_gets_nothing_from_smokescreen() -> None:
    # R15.10-a: the vehicle stands aside (x 10, y 15; target at x 25): blue.t is fully
    # visible, so the roll of 3 hits even though Smokescreen was used.
    game = _game(smoke_y=15.0, target_x=25.0)
    _smokescreen(game, use=True)
    f = _facts(game)
    assert f.vis.unit_fully_visible(f.ou, 0, f.tu("blue.t"))
    assert not f.smoke_cover("red.s.1", "blue.t")
    assert _shoot(game)["hits"] == 1


def test_a_unit_hidden_only_by_a_wall_gets_no_extra_benefit() -> None:
    # R15.10-a: the SMOKE vehicle is far aside; a wall hides part of blue.t. Terrain gives it
    # cover (13.08) with or without Smokescreen; Smokescreen adds nothing (smoke_cover False).
    wall = sh.wall(9.0, 15.0, 10.0, 15.5, height=10.0)
    for use in (True, False):
        game = _game(smoke_y=35.0, terrain=wall)
        _smokescreen(game, use=use)
        f = _facts(game)
        assert f.visible("red.s.1", "blue.t") and f.cover("red.s.1", "blue.t")
        assert not f.smoke_cover("red.s.1", "blue.t")
        assert _shoot(game)["hits"] == 0


def test_smokescreen_ends_with_the_phase() -> None:
    # R15.10-a: "until the end of the phase": in the Charge phase that follows, the same
    # geometry no longer gives blue.t the Smokescreen's cover.
    game = _game(smoke_y=15.0)
    _smokescreen(game, use=True)
    assert _facts(game).smoke_cover("red.s.1", "blue.t")
    sh.select(game, "red.s")
    game.submit({"red.s.1": {"gun": "blue.t"}})
    while (req := game.pending()) is not None and game.state.phase == "shooting":
        game.submit("done" if req.kind == "select_unit_to_shoot"
                    else req.options[0] if req.options else DECLINE)
    assert game.state.phase != "shooting"
    assert not _facts(game).smoke_cover("red.s.1", "blue.t")


def test_terrain_and_smoke_models_both_hiding_the_target_leave_terrain_cover_only() -> None:
    # R15.10-a reading: the wall alone stops blue.t being fully visible, so it is not "because
    # of" the SMOKE models (smoke_cover False); the wall's own 13.08 cover still applies.
    game = _game(smoke_y=15.0, terrain=sh.wall(9.0, 17.0, 10.0, 17.5, height=10.0))
    _smokescreen(game, use=True)
    f = _facts(game)
    assert f.visible("red.s.1", "blue.t") and f.cover("red.s.1", "blue.t")
    assert not f.smoke_cover("red.s.1", "blue.t")
    assert _shoot(game)["hits"] == 0


def test_a_third_units_models_also_hiding_the_target_mean_no_smokescreen_cover() -> None:
    # R15.10-a reading: a blue non-SMOKE model (blue.w) also stands in the line; without the
    # SMOKE models blue.t is still not fully visible, so Smokescreen gives it no cover and
    # models give none (13.08): the roll of 3 hits.
    red = sh.unit("red.s", [sh.model("red.s.1", 10, 10, GUN)])
    smoke = sh.unit("blue.v", [sh.model("blue.v.1", 10, 15, base_mm=60.0,
                                        keywords=("VEHICLE", "SMOKE"))])
    other = sh.unit("blue.w", [sh.model("blue.w.1", 10, 18)])
    target = sh.unit("blue.t", [sh.model("blue.t.1", 10, 20)])
    pos = sh.position(red, smoke, other, target)
    cast(list[dict[str, JSON]], pos["players"])[1]["cp"] = 1
    pos["frames"] = [{"kind": "turn", "data": {"player": "red", "step": 3, "closed": 3}}]
    game = scripted(Game.new(pos, seed=1), [3, 6, 1])
    _smokescreen(game, use=True)
    f = _facts(game)
    assert f.visible("red.s.1", "blue.t") and not f.cover("red.s.1", "blue.t")
    assert not f.smoke_cover("red.s.1", "blue.t")
    assert _shoot(game)["hits"] == 1
