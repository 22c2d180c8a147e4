"""The windows' index keyed by the mission object (branch ``ow15``): ``windows._of_window``
must list, for every window, exactly the reactions of ``windows.reactions`` of that window in
their order, whichever reaction table and mission are in force and in whatever order they
change; and ``effects.this_phase`` must keep the uses of the current round, turn and phase."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import cast

import pytest

from w40k.core.jsonval import JSON
from w40k.engine import windows
from w40k.engine.context import Context
from w40k.engine.reactions_table import TABLE
from w40k.engine.state import StratagemUse
from w40k.engine.stratagems.effects import this_phase
from w40k.engine.windows import Window


def _mission(i: int) -> dict[str, JSON]:
    """A mission with ``i % 3`` action secondaries (none: no mission reactions)."""
    rules: list[JSON] = [
        {"name": f"Secondary {k}", "condition": "action", "vp": 5,
         "action": {"name": f"Action {i}.{k}", "starts": ("shooting", "movement")[k % 2],
                    "units": {"keywords": ["INFANTRY"], "where": "anywhere"},
                    "use_limit": "once_per_turn", "completes": "end_of_turn"}}
        for k in range(i % 3)]
    return {"rounds": 5, "secondaries": rules}


def _ctx(mission: dict[str, JSON]) -> Context:
    return cast(Context, SimpleNamespace(state=SimpleNamespace(mission=mission)))


def _plain(ctx: Context, window: Window) -> tuple[windows.Reaction, ...]:
    return tuple(r for r in windows.reactions(ctx) if r.window == window)


def test_the_index_lists_each_windows_reactions_as_the_plain_filter(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Random sequences of missions (new objects, the same object again, equal copies) and
    reaction tables (the core table, explicit tables): every window's reactions from the
    index equal the plain filter of ``reactions(ctx)``, in order."""
    rng = random.Random(15)
    missions = [_mission(i) for i in range(6)]
    tables: list[tuple[windows.Reaction, ...] | None] = [None, TABLE[:3], TABLE[::-1], ()]
    for _ in range(200):
        monkeypatch.setattr(windows, "REACTIONS", rng.choice(tables))
        pick = rng.randrange(len(missions) + 1)
        mission = _mission(rng.randrange(6)) if pick == len(missions) else missions[pick]
        ctx = _ctx(mission)
        for window in Window:
            assert windows._of_window(ctx, window) == _plain(ctx, window)


def _use(rng: random.Random) -> StratagemUse:
    return StratagemUse(rng.choice(("red", "blue")), "S", ("u",), None, 1,
                        rng.randrange(1, 3), rng.choice(("red", "blue")),
                        rng.choice(("command", "movement", "shooting")))


def test_this_phase_keeps_the_uses_of_the_current_phase() -> None:
    """Random lists of uses and current (round, turn, phase): ``this_phase`` equals the plain
    filter, in order, for either player and for both."""
    rng = random.Random(16)
    for _ in range(300):
        uses = [_use(rng) for _ in range(rng.randrange(8))]
        now = _use(rng)
        state = SimpleNamespace(stratagems=uses, round=now.round, turn_player=now.turn,
                                phase=now.phase)
        ctx = cast(Context, SimpleNamespace(state=state))
        for player in (None, "red", "blue"):
            want = [u for u in uses if (u.round, u.turn, u.phase) == (now.round, now.turn,
                                                                      now.phase)
                    and player in (None, u.player)]
            assert this_phase(ctx, player) == want
