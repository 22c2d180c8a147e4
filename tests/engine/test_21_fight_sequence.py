"""The Fight step's selection frame goes on within one run (issue 10, pass win21): after a
fight is resolved, and after each change of the frame that hands the selection on (Fights
First to Remaining Combats, R12.04-c; to the other player, R12.04-c/d), ``fight._seq`` goes
on with the units eligible to fight listed once, instead of returning to the engine, which
ran the changed frame next and listed them again on the same state (R12.04-a: replacing the
selection frame, or the phase frame's ``ever_eligible``, changes nothing eligibility reads).
The reference below is the frame's run as it was: one change per run, eligibility listed at
every run. Every request asked and every record must be the same."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import cast

import pytest

from w40k.agents.greedy import GreedyAgent
from w40k.core.jsonval import JSON
from w40k.engine import table
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.phases import fight
from w40k.engine.phases import fight_sequence as fs
from w40k.engine.phases.fight_frames import FightMode, FightSeqFrame
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.io.battle_scale import scaled_position

pytestmark = pytest.mark.stratagems  # plays with the core stratagems (Counteroffensive)


def _plain_seq(ctx: Context, frame: FightSeqFrame) -> Request | None:
    """R12.04-a..e, RA-Unable-a: the selection frame's run before this pass, one change of
    the frame per run (the engine runs the changed frame next)."""
    s = ctx.state
    resolving = frame.resolving
    if resolving is not None:
        now = fight.fight_eligible(ctx)
        mode = frame.mode
        if mode is FightMode.REMAINING and any(fs.is_fights_first(u) for u in now):
            mode = FightMode.FIGHTS_FIRST  # R12.04-e
        ctx.replace(frame, replace(frame, resolving=None, passed=(),
                                   chooser=s.opponent(resolving), mode=mode))
        fight._remember_eligible(ctx, now)
        return None
    eligible = fight.fight_eligible(ctx)
    ended = frame.ended
    if ended:
        eligible = []
        new = replace(frame, mode=FightMode.REMAINING)
        ctx.replace(frame, new)
        frame = new
    chooser = frame.chooser
    passed = frame.passed
    if frame.mode is FightMode.FIGHTS_FIRST:
        ff = [u for u in eligible if fs.is_fights_first(u) and u.player not in passed]
        if not ff:
            ctx.replace(frame, replace(frame, mode=FightMode.REMAINING))  # R12.04-c
            return None
        pool = fight._counteroffensive([u for u in ff if u.player == chooser], ctx, chooser)
        if not pool:
            ctx.replace(frame, replace(frame, chooser=s.opponent(chooser)))  # R12.04-c
            return None
        rule = "R12.04-b"
    else:
        if not eligible:
            fight._remember_eligible(ctx, None if ended else eligible)
            ctx.log("fight_step_end")
            ctx.pop()
            return None
        pool = fight._counteroffensive([u for u in eligible if u.player == chooser], ctx,
                                       chooser)
        if not pool:
            ctx.replace(frame, replace(frame, chooser=s.opponent(chooser)))  # R12.04-d
            return None
        rule = "R12.04-d"
    options: list[JSON] = [u.id for u in pool]
    labels = [u.name for u in pool]
    if fight.may_pass(ctx, chooser, eligible):
        options.append("pass")
        labels.append("pass")
        rule = "RA-Unable-a"
    step = "Fights First" if frame.mode is FightMode.FIGHTS_FIRST else "Remaining Combats"
    return request(chooser, K.SELECT_UNIT_TO_FIGHT, rule,
                   f"{step}: select a unit to fight" + (" (or pass)" if "pass" in options
                                                         else ""),
                   tuple(options), context={"step": frame.mode.value}, labels=tuple(labels))


def _play(scale: int, seed: int) -> tuple[list[str], str]:
    """Every request of a greedy game (as JSON text) and its record."""
    pos = scaled_position(scale)
    pos["options"] = {**cast(dict[str, JSON], pos.get("options") or {}), "stratagems": True}
    game = Game.new(pos, seed)
    agents = {p.name: GreedyAgent(seed * 101 + i) for i, p in enumerate(game.state.players)}
    asked: list[str] = []
    while (req := game.pending()) is not None:
        asked.append(json.dumps(req.to_json(), sort_keys=True, default=str))
        game.submit(agents[req.player].choose(game, req))
    return asked, json.dumps(game.record(), sort_keys=True, default=str)


GAMES = ((1, 0), (1, 1), (1, 2), (2, 0))


@pytest.mark.parametrize(("scale", "seed"), GAMES)
def test_the_selection_frame_asks_as_the_one_change_per_run_reference_R12_04(
        monkeypatch: pytest.MonkeyPatch, scale: int, seed: int) -> None:
    """R12.04-a..e / RA-Unable-a: the same requests and the same record as the reference,
    and the frame went on within a run (after a fight resolved) in every game."""
    runs = {"on": 0}
    new_seq = fight._seq

    def counted(ctx: Context, frame: FightSeqFrame) -> Request | None:
        if frame.resolving is not None:
            runs["on"] += 1
        return new_seq(ctx, frame)

    handler = table.HANDLERS["fight_seq"]
    monkeypatch.setitem(table.HANDLERS, "fight_seq", Handler(FightSeqFrame, counted,
                                                             handler.apply))
    fast = _play(scale, seed)
    assert runs["on"] > 0
    monkeypatch.setitem(table.HANDLERS, "fight_seq", Handler(FightSeqFrame, _plain_seq,
                                                             handler.apply))
    plain = _play(scale, seed)
    assert fast[0] == plain[0]
    assert fast[1] == plain[1]
