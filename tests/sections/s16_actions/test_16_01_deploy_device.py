"""The rulebook's example action Deploy Device (R16.01-f) as an Action value
(engine/deploy_device.py): an INFANTRY unit within a terrain area that is not within its own
deployment zone."""

from __future__ import annotations

import pytest

from tests.engine import shooting_helpers as sh
from tests.engine.core_helpers import events
from w40k.core.jsonval import JSON
from w40k.engine import actions, windows
from w40k.engine.actions import start_reaction
from w40k.engine.deploy_device import DEPLOY_DEVICE, may_deploy_device
from w40k.engine.game import Game
from w40k.engine.reactions_table import TABLE
from w40k.rules.decisions import DECLINE, DecisionKind

pytestmark = pytest.mark.stratagems

RED_ZONE = [[0, 0], [60, 0], [60, 12], [0, 12]]
BLUE_ZONE = [[0, 32], [60, 32], [60, 44], [0, 44]]


def _area(name: str, x0: float, y0: float, x1: float, y1: float) -> dict[str, JSON]:
    return {"name": name, "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def _position(x: float, y: float, keywords: tuple[str, ...] = ("INFANTRY",)) -> dict[str, JSON]:
    red = sh.unit("red.a", [sh.model("red.a.1", x, y, keywords=keywords)])
    blue = sh.unit("blue.x", [sh.model("blue.x.1", 50, 40)])
    terrain = {"areas": [_area("home", 5, 2, 15, 10), _area("middle", 25, 18, 35, 26)],
               "terrain": []}
    pos = sh.position(red, blue, terrain=terrain)
    pos["frames"] = [{"kind": "turn", "data": {"player": "red", "step": 3, "closed": 3}}]
    pos["mission"] = {"rounds": 5, "scoring_from_round": 9,
                      "deployment_zones": [{"player": "red", "polygon": RED_ZONE},
                                           {"player": "blue", "polygon": BLUE_ZONE}]}
    return pos


@pytest.mark.parametrize(("x", "y", "keywords", "eligible"), [
    (30.0, 22.0, ("INFANTRY",), True),     # in an area outside its deployment zone
    (10.0, 6.0, ("INFANTRY",), False),     # in an area inside its own deployment zone
    (45.0, 22.0, ("INFANTRY",), False),    # in no terrain area
    (30.0, 22.0, ("VEHICLE",), False),     # not INFANTRY
])
def test_deploy_device_needs_infantry_in_an_area_outside_its_own_zone_R16_01_f(
        x: float, y: float, keywords: tuple[str, ...], eligible: bool) -> None:
    game = Game.new(_position(x, y, keywords), seed=1)
    assert may_deploy_device(game.ctx, game.state.unit("red.a")) is eligible


def test_deploy_device_starts_in_the_shooting_phase_and_sets_a_marker_in_the_area_R16_01_f(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R16.01-f with the R16.01-d mechanism: offered at the start of the Shooting phase, it
    # completes at the end of the turn and its marker is in the 'middle' area.
    monkeypatch.setattr(actions, "ACTIONS", (DEPLOY_DEVICE,))
    monkeypatch.setattr(windows, "REACTIONS", (*TABLE, start_reaction(DEPLOY_DEVICE)))
    game = Game.new(_position(30.0, 22.0), seed=1)
    want = ["Deploy Device", {"unit": "red.a"}]
    offered = False
    while (req := game.pending()) is not None:
        if req.kind is DecisionKind.REACTION and want in req.options:
            offered = True
            game.submit(want)
            continue
        ans = DECLINE if req.kind is DecisionKind.REACTION else next(
            (s for s in ("done", "skip", "fail", "remain_stationary") if s in req.options),
            req.options[0] if req.options else {})
        game.submit(ans)
    assert offered
    ev = events(game, "device_deployed")[0]
    assert ev["area"] == "middle" and ev["unit"] == "red.a"
    assert 25 <= float(ev["x"]) <= 35 and 18 <= float(ev["y"]) <= 26  # type: ignore[arg-type]


def test_the_kept_device_areas_follow_moves_and_removals_R16_01_f() -> None:
    # R16.01-f: device_areas is kept per unit while its layout (engine/field.py) is the same
    # object; a move into or out of an area, a move put back, another unit's move and a
    # removal each give the answer a fresh measure gives.
    from w40k.engine import deploy_device
    game = Game.new(_position(30.0, 22.0), seed=1)
    ctx = game.ctx
    red, blue = game.state.unit("red.a"), game.state.unit("blue.x")
    m = red.models[0]

    def fresh() -> list[str]:
        deploy_device._AREAS.clear()
        return deploy_device.device_areas(ctx, red)

    steps: list[list[str]] = []
    for x, y in [(30.0, 22.0), (45.0, 22.0), (10.0, 6.0), (30.0, 22.0), (30.0, 22.0)]:
        m.x, m.y = x, y
        kept = deploy_device.device_areas(ctx, red)
        assert deploy_device.device_areas(ctx, red) == kept == fresh()
        steps.append(kept)
    assert steps == [["middle"], [], [], ["middle"], ["middle"]]
    blue.models[0].x = 26.0  # another unit's move: red's answer stays right
    assert deploy_device.device_areas(ctx, red) == ["middle"] == fresh()
    kept = deploy_device.device_areas(ctx, red)
    kept.append("changed")  # a caller's list is its own
    assert deploy_device.device_areas(ctx, red) == ["middle"]
    m.destroyed = True  # R16.01-f: a unit with no model on the battlefield is within none
    assert deploy_device.device_areas(ctx, red) == [] == fresh()
