"""Typed frames (issue 9 item 4, DESIGN.md "Frames are typed"): one frozen dataclass per frame
kind with a JSON round trip, the position form unchanged, malformed frames refused naming
``frames[i]``, and saves taken inside an attack, a window and a move continuing identically."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from tests.engine.melee_helpers import BASE, charge_phase, fighter, unit
from tests.engine.test_fuzz import small_position as _small
from tests.engine.test_save_load_replay import finish, load, play
from w40k.core.errors import DataError
from w40k.core.jsonval import JSON
from w40k.engine import windows
from w40k.engine.attack import AttackFrame, AttackStep
from w40k.engine.context import Context
from w40k.engine.death import Death, DeathResolving, DeathsFrame
from w40k.engine.flow import (
    BattleFrame,
    CommandFrame,
    EndOfTurnFrame,
    RoundFrame,
    RoundStep,
    TurnFrame,
)
from w40k.engine.frames import FrameData
from w40k.engine.game import Game
from w40k.engine.phases.charge import ChargeFrame, ChargeStep, ChargeUnitFrame
from w40k.engine.phases.deployment import DeploymentFrame, DeployStep
from w40k.engine.phases.fight_frames import (
    FightFrame,
    FightMode,
    FightSeqFrame,
    FightStep,
    MeleeStepFrame,
)
from w40k.engine.phases.fight_sequence import FightUnitFrame, FightUnitStep
from w40k.engine.phases.melee_moves import MeleeMoveFrame
from w40k.engine.phases.movement_frames import MortalWoundsFrame, MovementFrame, MoveUnitFrame
from w40k.engine.phases.set_up import SetUpFrame, SetUpKind
from w40k.engine.phases.shooting import ShootingFrame, ShootUnitFrame
from w40k.engine.table import HANDLERS, read_frame
from w40k.engine.windows import Facts, Reaction, Window, WindowFrame
from w40k.io.battle_setup import default_position
from w40k.rules.select import AttackKind
from w40k.rules.transport import DisembarkMode


def small_position() -> dict[str, JSON]:
    return _small(default_position(), seed=1)


BOLTER: dict[str, JSON] = {"name": "boltgun", "range": 24, "A": "2", "skill": 3, "S": 4,
                           "AP": 0, "D": "1", "abilities": []}

SAMPLES: list[FrameData] = [
    BattleFrame(),
    RoundFrame(RoundStep.SECOND_TURN),
    TurnFrame("red", 3, closed=3),
    CommandFrame(),
    EndOfTurnFrame(),
    MovementFrame(("red.a", "red.b"), {"red.a": 4}, ("red.b",)),
    MoveUnitFrame("red.a", "advance", False, 4, None,
                  {"red.a.1": [[10.5, 12.0]], "red.a.2": [[11.0, 12.0, 3.0]]}),
    MoveUnitFrame("red.b", "fall_back_desperate", True, None, (1, 5, 6), "cancel", True, True),
    MortalWoundsFrame("blue.x", 3, "desperate escape", "blue.x.2"),
    SetUpFrame("red.squad", SetUpKind.DISEMBARK, DisembarkMode.COMBAT, True,
               {"red.squad.1": [3.0, 4.0]}),
    ShootingFrame(started=True),
    ShootUnitFrame("red.a", AttackKind.INDIRECT, resolved=True),
    ChargeFrame(done=False),
    ChargeUnitFrame("red.a", ChargeStep.TARGETS, (3, 4), 7),
    FightFrame(FightStep.CONSOLIDATE, ("red.a", "blue.x"), ("red.b",), ("red.a", "blue.x")),
    MeleeStepFrame("pile_in", ("red", "blue"), 1, ("red.a",)),
    FightSeqFrame(FightMode.REMAINING, "blue", ("red",), None, ended=False),
    FightUnitFrame("red.a", FightUnitStep.ATTACKS, "overrun",
                   [["red.a.1", [["choppa", [["blue.x", 2], ["blue.y", 1]]]]]]),
    MeleeMoveFrame("red.a", "consolidate", 3.0, ("blue.x",), [["blue.x"], "skip"], "engaging",
                   None, None, "overrun", None, "blue"),
    MeleeMoveFrame("red.b", "consolidate", 3.0, (), None, "objective", "alpha",
                   ("alpha", "beta"), "", "moved", "red"),
    AttackFrame("red.a", "blue.x", False,
                [{"weapon": BOLTER, "count": 2, "half_range": None}],
                {"cover": True, "target_models_at_select": 5}, AttackStep.ASKING,
                {"weapons": []}, {"step": "allocate"}),
    DeathsFrame("red.a", (Death("blue.x", "blue.x.1", 10.0, 12.5, 0.0),),
                DeathResolving("blue.y", "blue.y.1", 20.0, 30.0, 3.0, 6,
                               (("blue.y", 2), ("red.a", 1)))),
    WindowFrame(Window.AFTER_ROLL, {"kind": "charge", "unit": "red.a", "faces": [1, 2]},
                ("red", "blue"), 1),
    # the stratagems' fields (15.02 re-rolls, 15.04 battle-shock windows, 15.09, 15.11)
    CommandFrame(next=3, asked="red.b", abilities=True),
    MoveUnitFrame("red.c", "advance", False, 5, advance_rerolled=True),
    ShootUnitFrame("red.a", AttackKind.NORMAL, snap="blue.x"),
    ChargeUnitFrame("red.a", ChargeStep.TARGETS, (3, 4), 6, heroic="into_the_fray",
                    rerolled=True),
    # the pre-battle sequence (issue 12)
    BattleFrame(first_turn_decided=True),
    DeploymentFrame(DeployStep.SCOUTS, ("blue", "red"), "red", ("red.scouts",), ("blue",),
                    2000, {"red.scouts": 85, "blue.boyz": 90}, "",
                    {"unit": "red.scouts", "positions": {"red.scouts.1": [[3.0, 4.0]]}}),
    DeploymentFrame(DeployStep.FIRST_TURN, roll_winner="blue", answer="red"),
]
"""One frame of every kind, with realistic values."""


def test_every_frame_kind_has_a_sample() -> None:
    assert {f.KIND for f in SAMPLES} == set(HANDLERS)
    assert all(HANDLERS[f.KIND].frame is type(f) for f in SAMPLES)


@pytest.mark.parametrize("frame", SAMPLES, ids=[f"{i}-{f.KIND}" for i, f in enumerate(SAMPLES)])
def test_every_frame_kind_survives_a_json_round_trip(frame: FrameData) -> None:
    text = json.dumps(frame.frame_json(), sort_keys=True)
    back = read_frame(json.loads(text), "frames[0]")
    assert back == frame and type(back) is type(frame)
    assert json.dumps(back.frame_json(), sort_keys=True) == text


def test_frames_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        RoundFrame().step = RoundStep.END  # type: ignore[misc]


def test_saves_of_the_untyped_format_still_load() -> None:
    # Saves written before typed frames: integer round/fight steps, 'closed': 'turn', every
    # phase frame with step 0, an attack frame's progress as which keys exist ('asking').
    assert read_frame({"kind": "round", "data": {"step": 1}}) == RoundFrame(
        RoundStep.SECOND_TURN)
    assert read_frame({"kind": "turn", "data": {"player": "red", "step": 7,
                                                "closed": "turn"}}) == TurnFrame("red", 7, 7)
    assert read_frame({"kind": "fight", "data": {"step": 2, "engaged_at_start": ["a"],
                                                 "unengaged_at_start": [],
                                                 "ever_eligible": ["a"]}}) == FightFrame(
        FightStep.CONSOLIDATE, ("a",), (), ("a",))
    assert read_frame({"kind": "movement", "data": {"step": 0}}) == MovementFrame()
    assert read_frame({"kind": "shooting", "data": {"step": 0, "started": True}}) \
        == ShootingFrame(started=True)
    base: dict[str, JSON] = {"attacker": "a", "target": "b", "melee": True, "weapons": [],
                             "context": {}}
    assert read_frame({"kind": "attack", "data": base}).step is AttackStep.START  # type: ignore[attr-defined]
    asking = read_frame({"kind": "attack", "data": {**base, "request": {}, "state": {},
                                                    "asking": True}})
    assert asking.step is AttackStep.ASKING  # type: ignore[attr-defined]
    running = read_frame({"kind": "attack", "data": {**base, "request": {}, "state": {}}})
    assert running.step is AttackStep.RUNNING  # type: ignore[attr-defined]


@pytest.mark.parametrize(("frames", "where"), [
    ([{"kind": "battle", "data": {}}, {"kind": "round", "data": {"step": "later"}}],
     "frames[1].data.step"),
    ([{"kind": "turn", "data": {"step": 0}}], "frames[0].data.player"),
    ([{"kind": "attack", "data": {"attacker": 7, "target": "b", "melee": False,
                                  "weapons": [], "context": {}}}], "frames[0].data.attacker"),
    ([{"kind": "battle", "data": {}}, {"kind": "warp", "data": {}}], "frames[1].kind"),
    ([{"kind": "deaths", "data": {"pending": [{"unit": "a", "model": "a.1"}]}}],
     "frames[0].data.pending[0].x"),
])
def test_a_malformed_frame_in_a_position_is_refused_naming_it(
        frames: list[JSON], where: str) -> None:
    pos = small_position()
    pos["frames"] = frames
    with pytest.raises(DataError) as e:
        Game.new(pos, seed=1)
    assert where in str(e.value)
    saved = Game.new(small_position(), seed=1).save()
    saved["frames"] = frames
    with pytest.raises(DataError) as e:
        Game.load(saved)
    assert where in str(e.value)


def test_a_clone_shares_frames_and_a_handler_never_changes_them() -> None:
    game = Game.new(default_position(), seed=3)
    game.pending()
    twin = game.clone()
    before = [f.frame_json() for f in twin.state.frames]
    assert all(a is b for a, b in zip(game.state.frames, twin.state.frames, strict=True))
    for _ in range(5):  # the original moves on; the clone's frames stay as they were
        req = game.pending()
        assert req is not None
        game.submit(req.options[0] if req.options else "cancel")
    assert [f.frame_json() for f in twin.state.frames] == before


def test_the_context_keeps_the_older_push_of_a_kind_and_its_data() -> None:
    game = Game.new(small_position(), seed=1)
    ctx: Context = game.ctx
    ctx.push("mortal_wounds", unit="red.a", amount=2, cause="test")
    assert ctx.top == MortalWoundsFrame("red.a", 2, "test")
    with pytest.raises(DataError):
        ctx.push("mortal_wounds", unit="red.a")


# -- saves inside an attack, a window, a move ------------------------------------------------
def _resume_everywhere(kind: str, position: dict[str, JSON], seed: int, *,
                       greedy: bool = False, at_most: int = 6) -> int:
    """Load each save whose top frame is ``kind`` (a few, spread out) and continue it with the
    same choices: the event log must be the reference game's. Returns how many."""
    ref = play(position, seed, greedy=greedy)
    hits = [i for i, s in enumerate(ref.saves)
            if json.loads(s)["frames"] and json.loads(s)["frames"][-1]["kind"] == kind]
    picked = hits[:: max(1, len(hits) // at_most)][:at_most]
    for i in picked:
        game = finish(load(ref.saves[i]), ref.choices[i:])
        assert json.dumps(game.state.events) == ref.events, f"decision {i}"
        # the same with the save's keys sorted (the events logged before it come back with
        # sorted keys too, so the logs are compared as values)
        game = finish(load(json.dumps(json.loads(ref.saves[i]), sort_keys=True)),
                      ref.choices[i:])
        assert game.state.events == json.loads(ref.events), f"decision {i}, sorted keys"
    return len(picked)


def test_a_save_taken_inside_an_attack_loads_and_continues_identically() -> None:
    # The attack frame asks (allocation order, Select Model): the save holds the machine.
    assert _resume_everywhere("attack", small_position(), 2, greedy=True, at_most=3) > 0


def test_a_save_taken_inside_a_move_loads_and_continues_identically() -> None:
    assert _resume_everywhere("move_unit", small_position(), 4, at_most=3) > 0
    # a charge: its targets and its move are asked by the melee_move frame
    units = [unit("red.a", "red", [fighter("red.a.1", 10, 10), fighter("red.a.2", 11.5, 10)]),
             unit("blue.b", "blue", [fighter("blue.b.1", 10, 10 + BASE + 4.0)])]
    assert _resume_everywhere("melee_move", charge_phase(units), 1, greedy=True) > 0


def _always(ctx: Context, facts: Facts, player: str) -> list[JSON]:
    # usable at the start of each phase by the active player while they have 1 CP or more
    return ["spend"] if player == ctx.state.active and ctx.state.player(player).cp > 0 else []


def _spend(ctx: Context, facts: Facts, player: str, answer: JSON) -> None:
    ctx.state.player(player).cp -= 1


def test_a_save_taken_inside_a_window_loads_and_continues_identically(
        monkeypatch: Any) -> None:
    monkeypatch.setattr(windows, "REACTIONS", (
        Reaction("Test spend", Window.START_OF_PHASE, "test", _always, _spend),))
    assert _resume_everywhere("window", small_position(), 6, at_most=8) > 0


def test_an_attack_frame_holds_its_machine_state_and_writes_it_as_its_json() -> None:
    # within a game the frame holds the frozen request and machine state themselves (a battle
    # stores a state at every step and saves none); its position form is their JSON, and a
    # frame read back from it gives equal ones
    from w40k.agents.greedy import GreedyAgent
    from w40k.engine.attack import frame_request, frame_state
    from w40k.rules.attack_machine import AttackState
    from w40k.rules.attack_types import AttackRequest

    game = Game.new(default_position(), 1101)
    players = {p.name: GreedyAgent(i + 7) for i, p in enumerate(game.state.players)}
    seen = 0
    while (req := game.pending()) is not None and seen < 5:
        for f in game.state.frames:
            if isinstance(f, AttackFrame) and f.step is not AttackStep.START:
                assert isinstance(frame_state(f), AttackState)
                assert isinstance(frame_request(f), AttackRequest)
                data = f.to_json()
                assert data["state"] == frame_state(f).to_json()
                assert data["request"] == frame_request(f).to_json()
                back = read_frame(json.loads(json.dumps(f.frame_json())))
                assert isinstance(back, AttackFrame) and isinstance(back.state, dict)
                assert frame_state(back) == frame_state(f)
                assert frame_request(back) == frame_request(f)
                assert back.frame_json() == f.frame_json()
                seen += 1
        game.submit(players[req.player].choose(game, req))
    assert seen > 0
