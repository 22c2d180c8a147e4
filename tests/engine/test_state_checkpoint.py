"""A refused answer leaves the game untouched (DESIGN.md, the request/submit contract):
``submit`` takes a checkpoint of the state before applying an answer and, when the handler
raises, writes it back in place. The state after a restore is the position it was
(byte-identical JSON), in the same objects, and the kept battlefield model is dropped (the
models' fields were set back)."""

from __future__ import annotations

import dataclasses
import json
import threading

import pytest

from tests.engine.test_fuzz import small_position
from w40k.agents.greedy import GreedyAgent
from w40k.core.errors import IllegalChoice
from w40k.engine.context import Context
from w40k.engine.frames import FrameData
from w40k.engine.game import Game
from w40k.engine.state import StratagemUse, _Undo, placement_count
from w40k.engine.table import HANDLERS
from w40k.io.battle_setup import default_position


def _mid_game() -> Game:
    game = Game.new(small_position(default_position(), seed=3), 3)
    agents = {p.name: GreedyAgent(7 + i) for i, p in enumerate(game.state.players)}
    for _ in range(25):
        req = game.pending()
        assert req is not None
        game.submit(agents[req.player].choose(game, req))
    game.pending()
    return game


def test_a_restore_puts_back_every_field_of_the_state_in_the_same_objects() -> None:
    game = _mid_game()
    s = game.state
    before = json.dumps(s.to_json())
    units, models = list(s.units), [m for u in s.units for m in u.models]
    cp = s.checkpoint()
    # change everything a handler may change
    u = s.units[0]
    m = u.models[0]
    m.x += 3.0
    m.wounds_lost += 1
    m.one_shots_used.append("gun")
    u.flags["advanced"] = True
    u.models.pop()
    s.off_table.append(s.units.pop())
    s.players[0].cp += 2
    s.players[0].effects["x"] = 1
    s.objectives[0].controller = "nobody"
    s.events.append({"event": "x"})
    s.choices.append("x")
    s.frames.append(FrameData())
    s.stratagems.append(StratagemUse("red", "x", (), None, 1, 1, "red", "movement"))
    s.round, s.phase, s.ended = 9, "fight", True
    s.policies["red"] = "x"
    count = placement_count()
    s.restore(cp)
    assert json.dumps(s.to_json()) == before
    assert s.units == units and all(a is b for a, b in zip(s.units, units, strict=True))
    assert all(a is b for a, b in zip((m for u in s.units for m in u.models), models,
                                      strict=True))
    assert placement_count() > count  # the kept battlefield model is dropped


def test_a_refused_answer_leaves_the_game_as_it_was_and_it_plays_on_the_same() -> None:
    game, twin = _mid_game(), _mid_game()
    before = json.dumps(game.save())
    req = game.pending()
    assert req is not None
    answer = GreedyAgent(1).choose(game, req)

    def failing(ctx: Context, *args: object) -> None:
        ctx.state.units[0].models[0].x += 5.0
        ctx.state.units[0].flags["advanced"] = True
        ctx.state.events.append({"event": "half-applied"})
        raise IllegalChoice("refused after changing the state", rule="the test's handler")

    kind = game.state.frames[-1].kind
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(HANDLERS, kind, dataclasses.replace(HANDLERS[kind], apply=failing))
        with pytest.raises(IllegalChoice):
            game.submit(answer)
    assert json.dumps(game.save()) == before
    agents = {p.name: GreedyAgent(11 + i) for i, p in enumerate(game.state.players)}
    twins = {p.name: GreedyAgent(11 + i) for i, p in enumerate(twin.state.players)}
    for _ in range(40):
        a, b = game.pending(), twin.pending()
        if a is None or b is None:
            assert a is None and b is None
            break
        game.submit(agents[a.player].choose(game, a))
        twin.submit(twins[b.player].choose(twin, b))
    assert json.dumps(game.save()) == json.dumps(twin.save())


def test_a_checkpoint_logs_only_the_models_fields_that_are_set_and_a_release_drops_the_log(
) -> None:
    game = _mid_game()
    s = game.state
    m = s.units[0].models[0]
    x = m.x
    cp = s.checkpoint()
    m.x = x + 1.0
    assert _Undo.log is not None and _Undo.log[-1] == (m, "x", x)
    s.release(cp)
    assert _Undo.log is None and _Undo.depth == 0  # nothing kept after the answer applied
    assert m.x == x + 1.0
    m.x = x  # no checkpoint open: nothing logged
    assert _Undo.log is None


def test_a_restore_undoes_every_set_in_reverse_and_leaves_models_made_since_alone() -> None:
    game = _mid_game()
    s = game.state
    before = json.dumps(s.to_json())
    m = s.units[0].models[0]
    shots = m.one_shots_used
    cp = s.checkpoint()
    m.x += 1.0
    m.x += 2.0  # two sets: the first old value wins
    m.destroyed = True
    m.one_shots_used = ["gun"]  # a new list ...
    shots.append("other gun")  # ... and the old one changed in place
    m.note = "an attribute it did not have"  # type: ignore[attr-defined]
    copy_ = dataclasses.replace(m, x=50.0)  # made while the checkpoint is open
    copy_.y = 60.0
    s.units[0].models.append(copy_)
    s.restore(cp)
    assert json.dumps(s.to_json()) == before
    assert m.one_shots_used is shots and not hasattr(m, "note")
    assert (copy_.x, copy_.y) == (50.0, 60.0)  # not the state's at the checkpoint: untouched
    assert _Undo.log is None


def test_nested_checkpoints_restore_each_their_own_changes() -> None:
    game = _mid_game()
    s = game.state
    before = json.dumps(s.to_json())
    m = s.units[0].models[0]
    x = m.x
    outer = s.checkpoint()
    m.x = x + 1.0
    inner = s.checkpoint()
    m.x = x + 2.0
    s.restore(inner)
    assert m.x == x + 1.0 and _Undo.log is not None  # the outer one is still open
    inner = s.checkpoint()
    m.wounds_lost += 1
    s.release(inner)
    s.restore(outer)
    assert json.dumps(s.to_json()) == before and _Undo.log is None


def test_a_game_in_another_thread_neither_writes_to_nor_closes_this_threads_undo_log() -> None:
    # each thread has its own undo log: another thread's checkpoint and release, and its model
    # sets, leave this thread's open checkpoint able to restore
    game, other = _mid_game(), _mid_game()
    s = game.state
    before = json.dumps(s.to_json())
    m = s.units[0].models[0]
    cp = s.checkpoint()
    m.x += 1.0

    def play_other() -> None:
        o = other.state
        ocp = o.checkpoint()
        o.units[0].models[0].x += 3.0
        o.release(ocp)
        o.units[0].models[0].y += 1.0  # no checkpoint open in this thread: not logged

    t = threading.Thread(target=play_other)
    t.start()
    t.join()
    assert _Undo.log is not None and all(e[0] is m for e in _Undo.log)
    m.x += 2.0
    s.restore(cp)
    assert json.dumps(s.to_json()) == before and _Undo.log is None


def test_the_growing_lists_are_cut_back_and_one_shot_lists_refilled_in_the_same_objects(
) -> None:
    # the event log, the choices and the stratagems used only grow: a checkpoint keeps their
    # lengths, a restore cuts the same lists back; the one-shot lists (appended to in place)
    # that were empty are emptied, the others refilled
    game = _mid_game()
    s = game.state
    before = json.dumps(s.to_json())
    events, choices, used = s.events, s.choices, s.stratagems
    fired, empty = s.units[0].models[0], s.units[0].models[1]
    fired.one_shots_used.append("hunter-killer")
    held = fired.one_shots_used
    cp = s.checkpoint()
    s.events.append({"event": "x"})
    s.choices.append("x")
    s.stratagems.append(StratagemUse("red", "x", (), None, 1, 1, "red", "movement"))
    s.events = [*s.events, {"event": "a new list"}]  # a handler may replace one, too
    fired.one_shots_used.append("gun")
    empty.one_shots_used.append("gun")
    s.restore(cp)
    assert s.events is events and s.choices is choices and s.stratagems is used
    assert fired.one_shots_used is held and held == ["hunter-killer"]
    assert empty.one_shots_used == []
    held.clear()
    assert json.dumps(s.to_json()) == before


def test_a_refused_answer_that_rolled_dice_puts_the_dice_back_and_one_that_did_not_keeps_them(
) -> None:
    game = _mid_game()
    req = game.pending()
    assert req is not None
    answer = GreedyAgent(1).choose(game, req)
    dice, drawn, before = game.dice, game.dice.drawn, json.dumps(game.dice.to_json())

    def rolls(ctx: Context, *args: object) -> None:
        ctx.roll("hit", 3)
        raise IllegalChoice("refused after rolling", rule="the test's handler")

    def refuses(ctx: Context, *args: object) -> None:
        raise IllegalChoice("refused at once", rule="the test's handler")

    kind = game.state.frames[-1].kind
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(HANDLERS, kind, dataclasses.replace(HANDLERS[kind], apply=refuses))
        with pytest.raises(IllegalChoice):
            game.submit(answer)
        assert game.dice is dice and game.dice.drawn == drawn  # nothing drawn: the same
        mp.setitem(HANDLERS, kind, dataclasses.replace(HANDLERS[kind], apply=rolls))
        with pytest.raises(IllegalChoice):
            game.submit(answer)
    assert json.dumps(game.dice.to_json()) == before and game.dice.drawn == drawn
    assert game.ctx.dice is game.dice
    assert game.dice.disarm() is None  # nothing kept once the answer is settled


def test_a_restore_undoes_the_units_fields_from_the_log_and_leaves_units_made_since_alone(
) -> None:
    # the units' fields are logged when set, as the models' are; their flags and model lists
    # (changed in place) log their contents (engine/undo.py)
    game = _mid_game()
    s = game.state
    before = json.dumps(s.to_json())
    u, v = s.units[0], s.units[1]
    flags, models = u.flags, u.models
    n = len(models)
    cp = s.checkpoint()
    u.max_move = 7.5
    u.max_move = 9.0  # two sets: the first old value wins
    u.location, u.embarked_in = "embarked", "a transport"
    u.flags = {"advanced": True}  # a new dict ...
    flags["fell_back"] = True  # ... and the old one changed in place
    u.models = []  # a new list ...
    models.pop()  # ... and the old one changed in place
    v.starting_strength += 3
    v.note = "an attribute it did not have"  # type: ignore[attr-defined]
    made = dataclasses.replace(u, max_move=1.0)  # made while the checkpoint is open
    made.max_move = 2.0
    s.units.append(made)
    inner = s.checkpoint()
    v.attached = not v.attached
    s.restore(inner)  # nested: the outer checkpoint's entries stay
    assert _Undo.log is not None
    s.restore(cp)
    assert json.dumps(s.to_json()) == before
    assert not hasattr(v, "note") and "fell_back" not in u.flags
    assert u.models is models and len(models) == n  # the same list, its contents then
    assert u.flags is flags
    assert made.max_move == 2.0  # not the state's at the checkpoint: untouched
    assert _Undo.log is None
