"""The reaction windows' asks without repeated work (issue 10, pass atk19): a stratagem whose
TARGET is the facts' unit for its owner only (``Stratagem.own_unit``: Command Re-roll 15.02,
Epic Challenge 15.03, Insane Bravery 15.04, Crushing Impact 15.06) answers another player's
unit without the rest of the 15.01 limits; a window moving on to its next player, and an
attack decision handed to its player, are built by their constructors instead of
``dataclasses.replace``. Each answer must be the plain one."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, cast

import pytest

from tests.engine.core_helpers import greedy_record
from w40k.core.jsonval import JSON
from w40k.engine import windows
from w40k.engine.context import Context
from w40k.engine.reactions_table import CORE_STRATAGEMS
from w40k.engine.stratagems import usage
from w40k.engine.stratagems.model import Stratagem, Target
from w40k.engine.windows import Facts, Window, WindowFrame
from w40k.rules.decisions import DecisionKind, DecisionRequest

pytestmark = pytest.mark.stratagems  # plays with the core stratagems


def _plain(strat: Stratagem) -> Stratagem:
    return dataclasses.replace(strat, own_unit=False)


def _answer(ctx: Context, strat: Stratagem, facts: Facts, player: str,
            ask: Any) -> object:
    """``ask``'s targets (as answers), or the error it raises."""
    try:
        return [t.answer() for t in ask(ctx, strat, facts, player)]
    except (KeyError, ValueError) as exc:
        return (type(exc), str(exc))


def test_own_unit_stratagems_are_the_four_whose_target_is_the_owners_unit() -> None:
    """R15.02-a 'a roll for a friendly unit', R15.03-a / R15.04-a / R15.06-a 'your unit':
    exactly these core stratagems are marked."""
    marked = {s.name for s in CORE_STRATAGEMS if s.own_unit}
    assert marked == {"Command Re-roll", "Epic Challenge", "Insane Bravery", "Crushing Impact"}


def test_own_unit_answers_equal_the_plain_limits_in_greedy_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R15.01-a..e, R15.02-a: at every stratagem ask of three greedy games, and for the other
    player too, ``legal_targets`` equals the plain one (every 15.01 limit read, then the
    TARGET); an own-unit stratagem asked of another player's unit selects nothing."""
    plain_lt = usage.legal_targets
    asked = {"own": 0, "other": 0}

    def checked(ctx: Context, strat: Stratagem, facts: Facts, player: str) -> list[Target]:
        for p in (player, ctx.state.opponent(player)):
            fast = _answer(ctx, strat, facts, p, plain_lt)
            assert fast == _answer(ctx, _plain(strat), facts, p, plain_lt)
            uid = facts.get("unit")
            if strat.own_unit and isinstance(uid, str):
                mine = ctx.state.unit(uid).player == p
                asked["own" if mine else "other"] += 1
                if not mine:
                    assert fast == []
                    assert strat.targets(ctx, facts, p) == []
        return plain_lt(ctx, strat, facts, player)

    monkeypatch.setattr(usage, "legal_targets", checked)
    for scale, seed in ((1, 0), (1, 1), (2, 0)):
        greedy_record(scale, seed)
    assert asked["own"] > 50 and asked["other"] > 50


def test_games_with_and_without_own_unit_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The records are the same when every stratagem reads every 15.01 limit."""
    fast = [greedy_record(1, seed) for seed in (0, 2)]
    plain_lt = usage.legal_targets
    monkeypatch.setattr(usage, "legal_targets",
                        lambda ctx, strat, facts, player: plain_lt(ctx, _plain(strat), facts,
                                                                   player))
    assert [greedy_record(1, seed) for seed in (0, 2)] == fast


def test_a_unit_id_naming_no_unit_is_asked_as_before() -> None:
    """Facts naming no unit on the battlefield: the stratagem's own lookup raises, as the
    plain ask does; facts without a unit select nothing."""
    from w40k.agents.greedy import GreedyAgent
    from w40k.engine.game import Game
    from w40k.io.battle_scale import scaled_position

    pos = scaled_position(1)
    pos["options"] = {**cast(dict[str, JSON], pos.get("options") or {}), "stratagems": True}
    game = Game.new(pos, 0)
    agents = {p.name: GreedyAgent(i) for i, p in enumerate(game.state.players)}
    while game.state.phase != "shooting":
        req = game.pending()
        assert req is not None
        game.submit(agents[req.player].choose(game, req))
    ctx = game.ctx
    reroll = next(s for s in CORE_STRATAGEMS if s.name == "Command Re-roll")
    for facts in ({"kind": "hit", "unit": "no.such.unit", "faces": [1], "rerollable": [0]},
                  {"kind": "hit", "faces": [1], "rerollable": [0]},
                  {"kind": "hit", "unit": 3, "faces": [1], "rerollable": [0]}):
        for p in game.state.players:
            fast = _answer(ctx, reroll, cast(Facts, facts), p.name, usage.legal_targets)
            assert fast == _answer(ctx, _plain(reroll), cast(Facts, facts), p.name,
                                   usage.legal_targets)
    # a unit id naming no unit: no facts unit, so the stratagem is asked as before
    assert usage._facts_unit(ctx, {"unit": "no.such.unit"}) is None


def test_a_window_moving_on_equals_replace() -> None:
    """The next player's frame is ``replace(frame, idx=...)``: equal, of the same type."""
    rng = random.Random(19)
    for _ in range(200):
        frame = WindowFrame(rng.choice(list(Window)),
                            cast(JSON, {"unit": f"u{rng.randrange(9)}",
                                        "faces": [rng.randint(1, 6)]}),
                            tuple(rng.sample(["red", "blue", "green"], 2)), rng.randrange(3))
        idx = rng.randrange(4)
        got = windows._asking(frame, idx)
        want = dataclasses.replace(frame, idx=idx)
        assert got == want and type(got) is type(want)
        assert got.facts is frame.facts and got.players is frame.players


def test_an_attack_decision_handed_to_its_player_equals_replace() -> None:
    """05.03 / 05.04 / 24.23 / 24.28 decisions: the asked request is ``replace(pause,
    player=..., context=...)`` field for field."""
    rng = random.Random(5)
    for _ in range(200):
        options = tuple(rng.sample(range(9), rng.randint(1, 4)))
        pause = DecisionRequest(rng.choice(list(DecisionKind)), rng.choice(["attacker",
                                                                            "defender"]),
                                f"R05.0{rng.randint(1, 4)}-a", "Which?", options,
                                options[0], tuple(str(o) for o in options),
                                groups=(("a", "b"),) if rng.random() < 0.5 else (),
                                id=rng.randrange(3))
        context: dict[str, JSON] = {"attacker": "red.a", "target": "blue.b"}
        got = pause.remade("red", context, pause.id)
        want = dataclasses.replace(pause, player="red", context=context)
        assert got == want and type(got) is DecisionRequest
        assert got.context is context


def test_the_turns_windows_hand_their_lists_to_their_first_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R15.01 / R15.08-a / R15.11 / 08.03 / 08.04: the turn's own windows (start of turn,
    start and end of each phase, before a battle-shock roll, the Command Abilities step) are
    pushed by a frame's run that returns at once, so their first run reads the lists listed
    to push them; each equals ``_usable`` of that player at that run, and the records are
    the same when every window lists afresh."""
    plain_handed = windows._handed
    by_window: dict[str, int] = {}

    def checked(ctx: Context, frame: WindowFrame) -> list[list[JSON]] | None:
        lists = plain_handed(ctx, frame)
        if lists is not None:
            by_window[frame.window.value] = by_window.get(frame.window.value, 0) + 1
            facts = cast(Facts, frame.facts)
            for idx, options in enumerate(lists):
                assert options == windows._usable(ctx, frame.window, facts,
                                                  frame.players[idx])
            assert all(not o for o in lists[:-1]) and lists[-1]
        return lists

    monkeypatch.setattr(windows, "_handed", checked)
    fast = [greedy_record(2, seed) for seed in (0, 1)]
    assert by_window.get("end_of_phase", 0) > 0 and by_window.get("start_of_phase", 0) > 0
    monkeypatch.setattr(windows, "_handed", lambda ctx, frame: None)
    assert [greedy_record(2, seed) for seed in (0, 1)] == fast
