"""07 The battle round in the engine: rounds, turns and phases in order, the first player,
the active player outside turns (01.03), the end of the battle, per-turn flag resets.

The action phases are replaced by phases in which nobody acts (``bare_phases``), so these
tests hold whatever the Movement, Shooting, Charge and Fight phases do.
"""

from __future__ import annotations

import pytest

from tests.engine.core_helpers import bare_phases, events, line, position, unit
from w40k.core.errors import W40kError
from w40k.engine.game import Game, GameOver
from w40k.engine.state import PHASES


def two_units(**kw: object) -> dict:
    return position([unit("red.a", "red", line("red.a", 3, x=10, y=5)),
                     unit("blue.a", "blue", line("blue.a", 3, x=10, y=39))], **kw)


def test_each_round_has_one_turn_per_player_and_the_same_player_goes_first_every_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R07.02-a: the mission makes blue first -> the order is blue, red in rounds 1 to 5.
    seen = bare_phases(monkeypatch)
    game = Game.new(two_units(first="blue"), seed=1)
    assert game.pending() is None
    turns = [(e["round"], e["player"]) for e in events(game, "turn_start")]
    assert turns == [(r, p) for r in range(1, 6) for p in ("blue", "red")]
    assert [(r, p) for r, p, ph in seen if ph == "movement"] == turns


def test_a_turn_runs_start_command_movement_shooting_charge_fight_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R07.02-b: Start of Turn -> Command -> Movement -> Shooting -> Charge -> Fight -> End of Turn.
    bare_phases(monkeypatch)
    game = Game.new(two_units(rounds=1), seed=1)
    game.pending()
    first_turn = []
    for e in events(game):
        first_turn.append((e["event"], e["phase"]))
        if e["event"] == "turn_end":
            break
    assert first_turn == [("round_start", ""), ("turn_start", ""),
                          *[("phase_start", p) for p in PHASES[:1]], ("gain_cp", "command"),
                          *[("phase_start", p) for p in PHASES[1:]], ("turn_end", "end_of_turn")]


def test_the_round_starts_before_the_first_turn_and_ends_after_the_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R07.01-a / R07.03-a: Start of Battle Round before any turn; End of Battle Round after both.
    bare_phases(monkeypatch)
    game = Game.new(two_units(rounds=2), seed=1)
    game.pending()
    names = [e["event"] for e in events(game) if e["event"] in
             ("round_start", "turn_start", "turn_end", "round_end", "battle_end")]
    one = ["round_start", "turn_start", "turn_end", "turn_start", "turn_end", "round_end"]
    assert names == one + one + ["battle_end"]


def test_the_battle_ends_after_the_missions_last_round(monkeypatch: pytest.MonkeyPatch) -> None:
    # R07.03-b: rounds=3 -> three rounds, then battle_end; nothing is pending and submit raises.
    bare_phases(monkeypatch)
    game = Game.new(two_units(rounds=3), seed=1)
    assert game.pending() is None
    assert [e["round"] for e in events(game, "round_start")] == [1, 2, 3]
    assert events(game)[-1]["event"] == "battle_end"
    assert game.state.ended and game.state.round == 3 and not game.state.frames
    with pytest.raises(GameOver):
        game.submit(0)
    assert isinstance(GameOver("x"), W40kError)


def test_the_battle_end_names_the_winner_by_victory_points(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The built-in mission (docs/battle.md): more VP wins; equal VP is a draw.
    bare_phases(monkeypatch)
    game = Game.new(two_units(rounds=1), seed=1)
    game.pending()
    assert events(game, "battle_end")[0]["winner"] is None
    pos = two_units(rounds=1)
    pos["players"][1]["vp"] = 3  # type: ignore[index]
    game = Game.new(pos, seed=1)
    game.pending()
    end = events(game, "battle_end")[0]
    assert end["winner"] == "blue" and end["vp"] == {"red": 0, "blue": 3}


def test_one_player_is_active_at_every_point_of_a_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # R01.03-a: in every phase the player whose turn it is is active (and the other opposing).
    actives: list[tuple[str, str]] = []
    bare_phases(monkeypatch, lambda g, ph: actives.append((g.state.turn_player, g.state.active)))
    game = Game.new(two_units(rounds=2), seed=1)
    game.pending()
    assert actives and all(t == a and a in ("red", "blue") for t, a in actives)
    for e in events(game):
        if e["event"] in ("phase_start", "turn_start", "turn_end", "gain_cp"):
            assert e["player"] in ("red", "blue")


def test_outside_player_turns_the_first_player_is_active(monkeypatch: pytest.MonkeyPatch) -> None:
    # R01.03-b: the mission makes blue first; at the start of battle round 3 and between rounds
    # blue is active.
    bare_phases(monkeypatch)
    game = Game.new(two_units(first="blue"), seed=1)
    # Run the battle frame by frame and look at the state where a round starts.
    from w40k.engine.table import HANDLERS

    starts = []
    while game.state.frames:
        top = game.state.frames[-1]
        before = len(game.state.events)
        assert HANDLERS[top.kind].run(game.ctx, top) is None
        for e in game.state.events[before:]:
            if e["event"] in ("round_start", "round_end"):
                starts.append((e["event"], e["round"], e["player"], game.state.active))
    assert ("round_start", 3, "", "blue") in starts
    assert all(active == "blue" and player == "" for _, _, player, active in starts)


def test_turn_flags_are_cleared_at_the_start_of_each_turn_but_battle_shock_is_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 07.02 Start of Turn: 'this turn' flags (advanced, fell back, charged, shot, fought ...)
    # describe one turn; battle-shock lasts until a roll is passed (R08.03-b).
    turn_flags = {"advanced": True, "fell_back": True, "charged": True, "shot": True,
                  "fought": True, "remained_stationary": True, "selected_to_move": True}
    seen: list[dict[str, bool]] = []
    bare_phases(monkeypatch, lambda g, ph: seen.append(dict(g.state.unit("blue.a").flags))
                if ph == "movement" else None)
    pos = position([unit("red.a", "red", line("red.a", 3, x=10, y=5)),
                    unit("blue.a", "blue", line("blue.a", 3, x=10, y=39),
                         flags={**turn_flags, "battle_shocked": True})],
                   rounds=1)
    Game.new(pos, seed=3).pending()
    # In red's turn the flags set before the battle are gone; blue's own roll may clear the
    # battle-shock in blue's Command phase, but red's turn starts with it still set.
    assert {k for k, v in seen[0].items() if v} == {"battle_shocked"}


def test_ranged_attack_bookkeeping_moves_to_last_turn_at_the_start_of_a_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 13.09: 'made ranged attacks this turn or in the previous turn'.
    seen: list[tuple[bool, bool]] = []

    def hook(g: Game, ph: str) -> None:
        u = g.state.unit("red.a")
        if ph == "movement":
            seen.append((u.flag("ranged_attacks_this_turn"), u.flag("ranged_attacks_last_turn")))
        if ph == "shooting" and g.state.turn_player == "red":
            u.flags["ranged_attacks_this_turn"] = True

    bare_phases(monkeypatch, hook)
    game = Game.new(two_units(rounds=2), seed=1)
    game.pending()
    # red's turn 1, blue's turn 1 (red shot last turn), red's turn 2 (red's last turn was
    # blue's turn: no ranged attacks then), blue's turn 2.
    assert seen == [(False, False), (False, True), (False, False), (False, True)]


def test_rounds_and_turns_leave_no_frames_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    # 07: after the battle, the pending-resolution stack is empty and nobody is active.
    bare_phases(monkeypatch)
    game = Game.new(two_units(rounds=1), seed=1)
    assert game.pending() is None
    s = game.state
    assert s.frames == [] and s.turn_player == "" and s.phase == ""


def test_a_hand_written_position_starts_after_its_last_completed_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/positions.md: without frames, 'round' is the last round completed, so a position
    # written with round 2 plays rounds 3, 4 and 5.
    bare_phases(monkeypatch)
    game = Game.new(two_units(round=2), seed=1)
    game.pending()
    assert [e["round"] for e in events(game, "round_start")] == [3, 4, 5]


def test_end_of_turn_coherency_removals_come_before_the_turns_mission_scoring(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R07.02-c: in round 2 red's split unit holds the objective with the model it must
    # remove in the End of Turn step; scoring (a mission rule) comes after, so red scores
    # nothing for it.
    from tests.engine.core_helpers import frame, marker, model

    bare_phases(monkeypatch)
    red = [model("red.a.1", 30, 21), model("red.a.2", 30, 11)]
    pos = position([unit("red.a", "red", red)], objectives=[marker("centre", 30, 22)],
                   round=2, turn_player="red", phase="end_of_turn",
                   frames=[frame("turn", player="red", step=7),
                           frame("end_of_turn", step=0)])
    pos["objectives"][0]["controller"] = "red"  # type: ignore[index]
    game = Game.new(pos, seed=1)
    req = game.pending()
    assert req is not None and req.kind == "remove_for_coherency"
    game.submit("red.a.1")
    assert game.pending() is None
    assert events(game, "score") == []
    assert [e["event"] for e in events(game)] == ["destroyed", "objective_control", "turn_end"]
