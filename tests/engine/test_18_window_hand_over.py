"""An attack roll's reaction window hands the options it listed to its first run (issue 10,
pass atk18): ``open_window_run_next`` lists each player's options to decide
whether to push the window, and the window's first run asks with those lists instead of
listing them again on the same state (R15.01: every usable option of the first player with
any; R15.02 Command Re-roll after an attack roll). The handed lists must equal the plain
listing at that run, the games must be the same, and a window whose state changed after the
push (or another frame) must list afresh."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from tests.engine.core_helpers import greedy_record
from w40k.core.jsonval import JSON
from w40k.engine import windows
from w40k.engine.context import Context
from w40k.engine.windows import Reaction, Window, WindowFrame

pytestmark = pytest.mark.stratagems  # plays with the core stratagems (Command Re-roll)



def test_handed_options_equal_the_plain_listing_at_the_windows_first_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R15.01 / R15.02: in greedy games, every list handed to a window's first run equals
    ``_usable`` of that player at that run (the same state), for both players' places."""
    handed_runs = 0
    plain_handed = windows._handed

    def checked(ctx: Context, frame: WindowFrame) -> list[list[JSON]] | None:
        nonlocal handed_runs
        lists = plain_handed(ctx, frame)
        if lists is not None:
            handed_runs += 1
            facts = cast(windows.Facts, frame.facts)
            for idx, options in enumerate(lists):
                assert options == windows._usable(ctx, frame.window, facts,
                                                  frame.players[idx])
            assert all(not o for o in lists[:-1]) and lists[-1]
        return lists

    monkeypatch.setattr(windows, "_handed", checked)
    for scale, seed in ((1, 0), (1, 1), (2, 0)):
        greedy_record(scale, seed)
    assert handed_runs > 20


def test_games_with_and_without_the_hand_over_are_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The records (events, dice, choices) are the same when every window lists afresh."""
    fast = [greedy_record(1, seed) for seed in (0, 2)]
    monkeypatch.setattr(windows, "_handed", lambda ctx, frame: None)
    assert [greedy_record(1, seed) for seed in (0, 2)] == fast


def _scene(monkeypatch: pytest.MonkeyPatch, per_player: dict[str, list[JSON]]) -> Context:
    """A context with two players and one AFTER_ROLL reaction whose options are read from
    ``per_player`` (changed by the tests to play a state that changed)."""
    reaction = Reaction("Test", Window.AFTER_ROLL, "15.01",
                        lambda ctx, facts, player: list(per_player[player]),
                        lambda ctx, facts, player, answer: None)
    monkeypatch.setattr(windows, "REACTIONS", (reaction,))
    players = [SimpleNamespace(name="red"), SimpleNamespace(name="blue")]
    state = SimpleNamespace(
        mission={}, active="red", players=players, frames=[], events=[],
        opponent=lambda p: "blue" if p == "red" else "red")
    return cast(Context, SimpleNamespace(state=state, push=state.frames.append,
                                         replace=lambda old, new: state.frames.__setitem__(
                                             state.frames.index(old), new)))


def _asked(ctx: Context) -> Any:
    """The window on top's first request: (player, options without decline)."""
    req = windows._run(ctx, ctx.state.frames[-1])
    assert req is not None
    return req.player, list(req.options[1:])


def test_a_window_lists_afresh_when_the_log_grew_or_for_another_frame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The handed lists are read only by the frame pushed, at its first player, with the log
    as long as at the push: an event logged in between (the state moved on), or a window run
    for another frame first, makes the run list again (the options changed meanwhile)."""
    per: dict[str, list[JSON]] = {"red": [], "blue": [{"unit": "b1"}]}
    ctx = _scene(monkeypatch, per)
    # handed: the first player (red) has none, the second's list is asked
    assert windows.open_window_run_next(ctx, Window.AFTER_ROLL, kind="hit", unit="b1")
    per["blue"] = [{"unit": "b2"}]  # not re-listed: the promise is that nothing changed
    assert _asked(ctx) == ("blue", [["Test", {"unit": "b1"}]])
    # the log grew after the push: listed afresh
    ctx.state.frames.clear()
    assert windows.open_window_run_next(ctx, Window.AFTER_ROLL, kind="hit", unit="b1")
    cast(list[JSON], ctx.state.events).append({"event": "x"})
    per["blue"] = [{"unit": "b3"}]
    assert _asked(ctx) == ("blue", [["Test", {"unit": "b3"}]])
    # another window frame is run first: the handed lists are dropped
    ctx.state.frames.clear()
    assert windows.open_window_run_next(ctx, Window.AFTER_ROLL, kind="hit", unit="b1")
    pushed = ctx.state.frames[-1]
    other = WindowFrame(Window.AFTER_ROLL, {"kind": "hit"}, ("red", "blue"))
    ctx.state.frames.append(other)
    per["blue"] = [{"unit": "b4"}]
    assert _asked(ctx) == ("blue", [["Test", {"unit": "b4"}]])
    ctx.state.frames.pop()
    per["blue"] = [{"unit": "b5"}]
    assert ctx.state.frames[-1] is pushed
    assert _asked(ctx) == ("blue", [["Test", {"unit": "b5"}]])
    # nothing usable: nothing pushed, nothing handed
    ctx.state.frames.clear()
    per["blue"] = []
    assert not windows.open_window_run_next(ctx, Window.AFTER_ROLL, kind="hit")
    assert not ctx.state.frames and not windows._HANDED


def _plain_legal_targets(ctx: Context, strat: Any, facts: windows.Facts,
                         player: str) -> list[Any]:
    """``legal_targets`` as it was: every selection's unit looked up afresh."""
    s = ctx.state
    cp = s.player(player).cp
    used = [u for u in s.stratagems if u.player == player]
    if cp < strat.cp or any(u.name == strat.name for u in used):
        return []
    targeted = {t for u in used for t in u.units}
    out = []
    for t in strat.targets(ctx, facts, player):
        unit = s.any_unit(t.unit)
        if t.unit in targeted or unit.flag("battle_shocked") or strat.cp + t.extra_cp > cp:
            continue
        out.append(t)
    return out


def test_legal_targets_reads_a_units_selections_with_one_lookup() -> None:
    """R15.01-b/c/d: random selections (runs of one unit's dice, several units, units in
    reserve, battle-shocked or already targeted units, +CP sections): the same legal targets,
    in order, as looking every selection's unit up afresh."""
    import random

    from w40k.engine.stratagems.model import Stratagem, Target, TurnKey
    from w40k.engine.stratagems.usage import legal_targets

    rng = random.Random(1518)
    for _ in range(300):
        names = [f"u{i}" for i in range(5)]
        units = [SimpleNamespace(id=n, flags={"battle_shocked": rng.random() < 0.2},
                                 flag=None) for n in names]
        for u in units:
            u.flag = (lambda f, u=u: u.flags.get(f, False))
        on_table, off = units[:3], units[3:]
        lookups = []

        def any_unit(uid: str, on_table: Any = on_table, off: Any = off,
                     lookups: list[str] = lookups) -> Any:
            lookups.append(uid)
            return next(u for u in (*on_table, *off) if u.id == uid)

        picks = [Target(rng.choice(names), {"die": i}, rng.choice((0, 0, 1)))
                 for i in range(rng.randint(0, 6))]
        if rng.random() < 0.7:
            picks.sort(key=lambda t: t.unit)  # runs of one unit's selections
        strat = Stratagem("S", rng.choice((0, 1)), Window.AFTER_ROLL, TurnKey.EITHER, (),
                          "15.01", lambda ctx, facts, player, picks=picks: list(picks),
                          lambda *a: None)
        uses = [SimpleNamespace(player="red", name="T", units=(rng.choice(names),),
                                phase="shooting", turn="red", round=1)
                for _ in range(rng.randint(0, 2))]
        player = SimpleNamespace(name="red", cp=rng.randint(0, 2))
        state = SimpleNamespace(options={}, turn_player="red", phase="shooting", round=1,
                                stratagems=uses, player=lambda name, p=player: p,
                                any_unit=any_unit)
        ctx = cast(Context, SimpleNamespace(state=state))
        got = legal_targets(ctx, strat, {}, "red")
        assert len(lookups) <= len(picks)
        assert got == _plain_legal_targets(ctx, strat, {}, "red")
