"""Surge moves (21.01, 21.02): a test-only ability triggers one at the end of the opponent's
Shooting phase; the move is a ``melee_move`` of type ``surge`` toward the closest enemy unit."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.engine.core_helpers import events, frame, model, position, scripted, unit
from w40k.core.errors import IllegalChoice
from w40k.engine import legal, windows
from w40k.engine.game import Game
from w40k.engine.phases.charge import eligible_to_charge
from w40k.engine.phases.movement import eligible_move_types
from w40k.engine.phases.surge import SurgeTrigger, surge_reaction
from w40k.engine.serial import JSON
from w40k.engine.windows import Facts, Window

ABILITY = "Test Surge"
MARK = "SURGER"
"""The keyword that stands for the test ability on a datasheet (positions hold no datasheet
abilities yet)."""


def _triggered(ctx: Any, facts: Facts, u: Any) -> bool:
    return facts.get("phase") == "shooting" and u.has(MARK)


TEST_SURGE = SurgeTrigger(ABILITY, Window.END_OF_PHASE, "D6", _triggered)
"""A test-only datasheet ability: at the end of a Shooting phase, a surge move of D6"."""


@pytest.fixture(autouse=True)
def _surge_table(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(windows, "REACTIONS", (surge_reaction(TEST_SURGE),))
    yield


def _game(units: list[dict[str, JSON]], dice: tuple[int, ...] = (4,)) -> Game:
    """Blue's Shooting phase has just ended: the window is open, red is asked."""
    win = frame("window", window="end_of_phase", facts={"phase": "shooting"},
                players=["blue", "red"])
    pos = position(units, round=1, first="blue", turn_player="blue", phase="shooting",
                   frames=[win])
    game = Game.new(pos, seed=1)
    scripted(game, dice)
    return game


def _surger(x: float = 10.0, y: float = 10.0, *, flags: dict[str, bool] | None = None,
            keywords: tuple[str, ...] = ("INFANTRY",)) -> dict[str, JSON]:
    return unit("red.s", "red", [model("red.s.1", x, y, keywords=(*keywords, MARK))],
                flags=flags)


def _enemy(uid: str, x: float, y: float, keywords: tuple[str, ...] = ("INFANTRY",)
           ) -> dict[str, JSON]:
    return unit(uid, "blue", [model(f"{uid}.1", x, y, keywords=keywords)])


def _use(game: Game) -> None:
    req = game.pending()
    assert req is not None and req.kind == "reaction" and req.player == "red", req
    game.submit([ABILITY, {"unit": "red.s"}])


def test_a_triggered_surge_moves_up_to_the_rolled_distance_and_ends_engaged_R21_02_d() -> None:
    # R21.02-d: the distance is the trigger's D6 (a 4). R21.02-b: the target is the closest
    # enemy unit (5" centre to centre, not the one at 20"); the model ends engaged with it.
    game = _game([_surger(), _enemy("blue.near", 10.0, 15.0), _enemy("blue.far", 30.0, 10.0)])
    _use(game)
    req = game.pending()
    assert req is not None and req.kind == "positions" and req.player == "red"  # R01.03-c
    assert req.context["max_distance"] == 4.0 and req.context["targets"] == ["blue.near"]
    assert req.context["move_type"] == "surge"
    game.submit({"red.s.1": [[10.0, 12.0]]})
    ev = events(game, "surge")[0]
    assert ev["distance"] == 4 and ev["target"] == "blue.near"
    assert events(game, "surge_move")
    u = game.state.unit("red.s")
    assert u.flag("surged") and u.flag("moved_this_phase")


def test_a_surge_past_the_rolled_distance_is_refused_R21_02_d() -> None:
    # R21.02-d: a 4 allows 4", not 4.5".
    game = _game([_surger(), _enemy("blue.near", 10.0, 25.0)])
    _use(game)
    with pytest.raises(IllegalChoice) as e:
        game.submit({"red.s.1": [[10.0, 14.5]]})
    assert e.value.rule == "R03.01-a"


def test_a_model_that_can_end_engaged_with_the_target_must_R21_02_b() -> None:
    # R21.02-b: 1.5" toward a target it can reach -> refused; sideways -> refused too.
    game = _game([_surger(), _enemy("blue.near", 10.0, 15.0)])
    _use(game)
    with pytest.raises(IllegalChoice) as e:
        game.submit({"red.s.1": [[10.0, 11.0]]})
    assert e.value.rule == "R21.02-b"
    with pytest.raises(IllegalChoice) as e:
        game.submit({})  # staying put when it can end engaged
    assert e.value.rule == "R21.02-b"


def test_a_model_that_cannot_reach_the_target_must_end_closer_to_it_R21_02_b() -> None:
    # R21.02-b: the target is 15" away; moving away is refused, moving 4" toward it is fine.
    game = _game([_surger(), _enemy("blue.near", 10.0, 25.0)])
    _use(game)
    with pytest.raises(IllegalChoice) as e:
        game.submit({"red.s.1": [[13.0, 10.0]]})
    assert e.value.rule == "R21.02-b"
    game.submit({"red.s.1": [[10.0, 13.9]]})
    assert game.state.unit("red.s").models[0].y == pytest.approx(13.9)


def test_the_surge_target_ignores_a_closer_aircraft_unless_the_unit_can_fly_R21_02_b() -> None:
    # R21.02-b / R23.02-d: an AIRCRAFT 2.5" away and an infantry unit 3" away (edge to edge):
    # a non-FLYING unit surges toward the infantry, a FLYING one toward the AIRCRAFT.
    base = 32.0 / 25.4
    jet = _enemy("blue.jet", 10.0, 10.0 + base + 2.5, ("VEHICLE", "AIRCRAFT", "FLY"))
    inf = _enemy("blue.inf", 10.0 - base - 3.0, 10.0)
    game = _game([_surger(), jet, inf])
    _use(game)
    assert game.pending().context["targets"] == ["blue.inf"]  # type: ignore[union-attr]
    game = _game([_surger(keywords=("INFANTRY", "FLY")), jet, inf])
    _use(game)
    assert game.pending().context["targets"] == ["blue.jet"]  # type: ignore[union-attr]


@pytest.mark.parametrize("flags", [{"battle_shocked": True}, {"moved_this_phase": True}])
def test_a_battle_shocked_or_moved_unit_is_not_offered_a_surge_R21_02_a(
        flags: dict[str, bool]) -> None:
    # R21.02-a: not battle-shocked, not moved this phase: nothing is asked.
    game = _game([_surger(flags=flags), _enemy("blue.near", 10.0, 15.0)])
    assert game.pending() is None


def test_an_engaged_unit_or_an_untriggered_one_is_not_offered_a_surge_R21_02_a() -> None:
    # R21.02-a: unengaged (an enemy 1" away) ...
    game = _game([_surger(), _enemy("blue.near", 10.0, 11.5)])
    assert game.pending() is None
    # ... and the rule allowing it must have been triggered (not a Fight phase).
    win = frame("window", window="end_of_phase", facts={"phase": "fight"},
                players=["blue", "red"])
    pos = position([_surger(), _enemy("blue.near", 10.0, 15.0)], round=1, first="blue",
                   turn_player="blue", phase="fight", frames=[win])
    assert Game.new(pos, seed=1).pending() is None


def test_a_surge_may_not_end_engaged_with_another_enemy_unit_R21_02_c() -> None:
    # R21.02-c: the target is 5" away (centres); another enemy sits beside the end spot.
    game = _game([_surger(), _enemy("blue.near", 10.0, 15.0), _enemy("blue.side", 13.0, 12.5)])
    _use(game)
    with pytest.raises(IllegalChoice) as e:
        game.submit({"red.s.1": [[10.0, 12.5]]})
    assert e.value.rule == "R21.02-c"


def test_after_a_surge_the_unit_cannot_move_again_this_phase_R21_02_c() -> None:
    # R21.02-c: no charge, and only 'remain stationary' in a Movement phase, this phase.
    game = _game([_surger(), _enemy("blue.near", 10.0, 15.0)])
    _use(game)
    game.submit({"red.s.1": [[10.0, 12.0]]})
    u = game.state.unit("red.s")
    assert not eligible_to_charge(game.ctx, u)
    assert eligible_move_types(game.ctx, u) == ["remain_stationary"]


def test_the_proposer_answers_a_surge_with_a_legal_move_and_save_load_continues() -> None:
    # The random player's answer (engine/table.py proposer) is legal; a save in the middle of
    # the surge continues identically.
    game = _game([_surger(), _enemy("blue.near", 10.0, 15.0)])
    _use(game)
    loaded = Game.load(game.save())
    req = game.pending()
    assert req is not None and loaded.pending() == req
    answer = legal.sample(game, req, random.Random(3))
    assert answer != "skip"
    game.submit(answer)
    loaded.submit(answer)
    assert game.save()["units"] == loaded.save()["units"]
    assert events(game, "surge_move")
