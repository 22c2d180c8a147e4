"""The engine's per-step paths written out (issue 10, pass win21): ``Context.replace`` with
the top frame first, a window's listing that skips the reactions with no options, and
``open_window``'s test as plain loops. Each is compared with the plain expression it
replaces (R15.01: a window offers every usable option of each reaction, in table order, and
opens only when some reaction is usable by some player)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import cast

import pytest

from w40k.core.jsonval import JSON
from w40k.engine import windows
from w40k.engine.context import Context, CountingDice
from w40k.engine.frames import FrameData
from w40k.engine.state import GameState
from w40k.engine.windows import Reaction, Window, WindowFrame


def _frames(n: int) -> list[FrameData]:
    return [WindowFrame(Window.AFTER_ROLL, {"i": i}, ("red", "blue")) for i in range(n)]


def _ctx(frames: list[FrameData]) -> Context:
    """A context whose state holds only the frame stack."""
    return Context(cast(GameState, SimpleNamespace(frames=frames)), cast(CountingDice, None),
                   {})


def test_replace_puts_the_new_frame_where_the_old_one_is_searching_from_the_top() -> None:
    """Every place in stacks of 1-5 frames (the top one and those below), a frame held
    twice (the topmost is replaced), and a frame not on the stack (RuntimeError)."""
    for n in range(1, 6):
        for at in range(n):
            frames = _frames(n)
            ctx = _ctx(frames)
            new = WindowFrame(Window.END_OF_TURN, {}, ("red",))
            want = [*frames[:at], new, *frames[at + 1:]]
            ctx.replace(frames[at], new)
            assert frames == want and frames[at] is new
    frames = _frames(3)
    frames.append(frames[0])
    ctx = _ctx(frames)
    new = WindowFrame(Window.END_OF_TURN, {}, ("red",))
    old = frames[0]
    ctx.replace(old, new)
    assert frames[3] is new and frames[0] is old
    with pytest.raises(RuntimeError):
        ctx.replace(WindowFrame(Window.AFTER_ROLL, {}, ()), new)
    with pytest.raises(RuntimeError):
        _ctx([]).replace(old, new)


def _table(rng: random.Random) -> tuple[tuple[Reaction, ...], dict[tuple[str, str], list[JSON]]]:
    """Random reactions of two windows, each with random options per player."""
    options: dict[tuple[str, str], list[JSON]] = {}
    table: list[Reaction] = []
    for i in range(rng.randint(0, 5)):
        name = f"R{i}"
        for p in ("red", "blue"):
            options[(name, p)] = [{"unit": f"u{j}"} for j in range(rng.choice((0, 0, 0, 1, 3)))]

        def opts(ctx: Context, facts: windows.Facts, player: str, name: str = name
                 ) -> list[JSON]:
            return list(options[(name, player)])

        table.append(Reaction(name, rng.choice((Window.AFTER_ROLL, Window.END_OF_TURN)),
                              "15.01", opts, lambda ctx, facts, player, answer: None))
    return tuple(table), options


def test_window_listing_and_opening_answer_as_the_plain_expressions_R15_01(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R15.01: random tables: ``_usable`` is every reaction's options in table order,
    ``_any_usable`` whether any reaction has one, and ``open_window`` pushes a frame exactly
    when some player has a usable reaction (the active player first in its order)."""
    rng = random.Random(21)
    for _ in range(300):
        table, options = _table(rng)
        monkeypatch.setattr(windows, "REACTIONS", table)
        windows._INDEX.clear()
        players = [SimpleNamespace(name="red"), SimpleNamespace(name="blue")]
        state = SimpleNamespace(mission={}, active=rng.choice(("red", "blue", "")),
                                players=players, frames=[], events=[],
                                opponent=lambda p: "blue" if p == "red" else "red")
        ctx = cast(Context, SimpleNamespace(state=state, push=state.frames.append))
        for window in (Window.AFTER_ROLL, Window.END_OF_TURN):
            listed = tuple(r for r in table if r.window is window)
            for p in ("red", "blue"):
                plain = [[r.name, o] for r in listed for o in options[(r.name, p)]]
                assert windows._usable(ctx, window, {}, p) == plain
                assert windows._any_usable(ctx, listed, {}, p) == bool(plain)
            usable = any(options[(r.name, p)] for r in listed for p in ("red", "blue"))
            state.frames.clear()
            assert windows.open_window(ctx, window, unit="u0") is usable
            assert len(state.frames) == int(usable)
            if usable:
                frame = state.frames[0]
                first = state.active or "red"
                assert frame.players == (first, "blue" if first == "red" else "red")
    windows._INDEX.clear()
