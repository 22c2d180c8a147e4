"""More Fight phase (12) tests: the Fights First / Remaining Combats order, fighting being
mandatory, the pass rule (Appendix), eligibility after deaths and overruns, pile-in targets and
limits, and the Consolidate step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.engine.core_helpers import events, marker
from tests.engine.melee_helpers import BASE, fight_phase, fighter, melee_weapon, pending, unit
from w40k.core.errors import IllegalChoice
from w40k.engine.game import Game
from w40k.engine.phases.fight import consolidation_mode
from w40k.engine.requests import Request
from w40k.engine.serial import JSON

GAP = 1.0
"""Edge-to-edge gap of engaged pairs (within 2")."""
FF = {"charged": True, "fights_first": True}
CHARGED = {"charged": True}
KLAW = [melee_weapon("Power klaw", A=12, WS=2, S=10, AP=-4, D=3)]


def _u(uid: str, player: str, x: float, y: float, n: int = 1, *,
       flags: dict[str, bool] | None = None, weapons: list[dict[str, JSON]] | None = None,
       **prof: Any) -> dict[str, JSON]:
    return unit(uid, player, [fighter(f"{uid}.{i + 1}", x + i * 1.5, y, weapons=weapons,
                                      **prof) for i in range(n)], flags=flags)


def _quiet(req: Request) -> JSON:
    """Fight without moving: skip moves, the default declaration, the first option."""
    if req.kind == "positions":
        return str(req.context["decline"])
    if req.kind == "declare_fight":
        return req.context["default"]
    if req.kind in ("select_unit_to_pile_in", "select_unit_to_consolidate"):
        return "done"
    if req.kind in ("pile_in_targets", "consolidate_targets"):
        return "skip"
    return req.options[0]


def _until(game: Game, pred: Callable[[Request], bool], limit: int = 60) -> Request:
    """Answer quietly until a request matching ``pred`` is pending."""
    for _ in range(limit):
        req = pending(game)
        if pred(req):
            return req
        game.submit(_quiet(req))
    raise AssertionError("no such request")


def _next_selection(game: Game) -> Request:
    return _until(game, lambda r: r.kind == "select_unit_to_fight")


def _fight_order(game: Game) -> list[tuple[str, str, str]]:
    """(player, unit, step) of every selection, answering quietly to the end."""
    out = []
    while (req := game.pending()) is not None:
        ans = _quiet(req)
        if req.kind == "select_unit_to_fight":
            out.append((req.player, str(ans), str(req.context["step"])))
        game.submit(ans)
    return out


def _refused(game: Game, answer: JSON) -> str:
    """Submit an answer that must be refused; the rule ID (the game unchanged)."""
    before = game.save()
    with pytest.raises(IllegalChoice) as exc:
        game.submit(answer)
    assert game.save() == before
    return str(exc.value.rule)


# -- 12.04: the order of the Fight step ----------------------------------------------------
def test_both_players_fights_first_units_fight_first_starting_with_the_turn_player() -> None:
    # R12.04-b: red A1 (FF), blue B1 (FF), red A2 and blue B2 (plain), pairwise engaged.
    y = 10 + BASE + GAP
    units = [_u("red.a1", "red", 10, 10, W=10, flags=FF),
             _u("blue.b1", "blue", 10, y, W=10, abilities=["Fights First"]),
             _u("red.a2", "red", 30, 10, W=10), _u("blue.b2", "blue", 30, y, W=10)]
    order = _fight_order(Game.new(fight_phase(units), seed=2))
    assert order == [("red", "red.a1", "ff"), ("blue", "blue.b1", "ff"),
                     ("red", "red.a2", "rem"), ("blue", "blue.b2", "rem")]


def test_the_turn_player_is_asked_first_with_only_fights_first_units_offered() -> None:
    # R12.04-b: the first request goes to red and offers only red's Fights First unit.
    y = 10 + BASE + GAP
    units = [_u("red.a1", "red", 10, 10, W=10, flags=FF), _u("red.a2", "red", 30, 10, W=10),
             _u("blue.b1", "blue", 10, y, W=10, abilities=["Fights First"]),
             _u("blue.b2", "blue", 30, y, W=10)]
    game = Game.new(fight_phase(units), seed=2)
    req = _next_selection(game)
    assert (req.player, req.options, req.context["step"]) == ("red", ("red.a1",), "ff")
    assert _refused(game, "red.a2") == "R12.04-b"


def test_remaining_combats_alternate_and_the_other_player_continues_when_one_has_none(
) -> None:
    # R12.04-d: red's FF A1 fights; blue moves the sequence on, so blue starts Remaining
    # Combats with B2; red then fights A2 and, blue having none left, A4 as well.
    y = 10 + BASE + GAP
    blue = unit("blue.b2", "blue", [fighter(f"blue.b2.{i}", x, y, W=10)
                                    for i, x in enumerate((10.0, 20.0, 30.0), 1)])
    units = [_u("red.a1", "red", 10, 10, W=10, flags=FF), _u("red.a2", "red", 20, 10, W=10),
             _u("red.a4", "red", 30, 10, W=10), blue]
    order = _fight_order(Game.new(fight_phase(units), seed=3))
    assert order == [("red", "red.a1", "ff"), ("blue", "blue.b2", "rem"),
                     ("red", "red.a2", "rem"), ("red", "red.a4", "rem")]


# -- 12 sidebar: fighting is mandatory, moves are not -----------------------------------------
def test_every_eligible_unit_must_fight_but_pile_ins_may_be_skipped() -> None:
    # R12-a: pile-in selection offers "done"; fight selection offers no way out.
    y = 10 + BASE + GAP
    units = [_u("red.a", "red", 10, 10, W=10), _u("blue.b", "blue", 10, y, W=10),
             _u("red.c", "red", 30, 10, W=10), _u("blue.d", "blue", 30, y, W=10)]
    game = Game.new(fight_phase(units), seed=1)
    req = pending(game)
    assert req.kind == "select_unit_to_pile_in" and "done" in req.options
    game.submit("done")  # red skips every pile-in
    req = _next_selection(game)
    assert set(req.options) == {"red.a", "red.c"}
    assert _refused(game, "done") == "R12.04-d"
    assert _refused(game, "pass") == "R12.04-d"
    order = _fight_order(game)
    assert sorted(u for _, u, _ in order) == ["blue.b", "blue.d", "red.a", "red.c"]
    assert not events(game, "pile_in_move")


# -- Appendix: Eligible to Fight, but Unable to Fight -----------------------------------------
def test_a_unit_whose_target_died_with_no_enemy_within_5_inches_may_pass_and_both_passes_end(
) -> None:
    # RA-Unable-a: red's FF klaw unit kills blue.b; red.c (engaged with blue.b at the start of
    # the step) then has no enemy within 5" (blue.z is 6" away) -> red may pass; blue, whose
    # charged blue.z is also far from everything, passes too -> the Fight step ends.
    y = 10 + BASE + GAP
    units = [_u("red.a", "red", 10, 10, flags=FF, weapons=KLAW),
             _u("blue.b", "blue", 11.5, y),
             _u("red.c", "red", 13, 10),
             _u("blue.z", "blue", 13 + 6 + BASE, 10, flags=CHARGED)]
    game = Game.new(fight_phase(units), seed=1)
    req = _next_selection(game)
    assert req.options == ("red.a",)  # blue.b is within 5": no pass
    game.submit("red.a")
    req = _next_selection(game)
    assert game.state.unit("blue.b").destroyed
    # blue's turn: blue.z is eligible (charged) and far from everything -> it may pass.
    assert (req.player, req.options) == ("blue", ("blue.z", "pass"))
    game.submit("pass")
    req = pending(game)
    assert (req.kind, req.player, req.options) == ("select_unit_to_fight", "red",
                                                   ("red.c", "pass"))
    game.submit("pass")
    game.pending()
    assert [e["by"] for e in events(game, "fight_pass")] == ["blue", "red"]
    assert events(game, "fight_step_end")
    assert [e["unit"] for e in events(game, "select_to_fight")] == ["red.a"]


def test_passes_not_in_succession_do_not_end_the_step_and_a_pass_with_none_left_does() -> None:
    # RA-Unable-a: blue (turn player) fights blue.w; red fights red.c; blue passes with blue.z
    # (charged, far from every enemy): red still has red.e, so the step goes on and red
    # fights it; blue's second pass ends the step (red has no eligible unit left).
    y = 30 + BASE + GAP
    units = [_u("blue.z", "blue", 10, 10, flags=CHARGED), _u("red.c", "red", 30, 30, W=10),
             _u("red.e", "red", 50, 30, W=10),
             unit("blue.w", "blue", [fighter("blue.w.1", 30, y, W=10),
                                     fighter("blue.w.2", 50, y, W=10)])]
    game = Game.new(fight_phase(units, player="blue"), seed=1)
    seen: list[tuple[str, tuple[JSON, ...]]] = []
    script = {"blue": ["blue.w", "pass", "pass"], "red": ["red.c", "red.e"]}
    while (req := game.pending()) is not None:
        if req.kind == "select_unit_to_fight":
            seen.append((req.player, req.options))
            game.submit(script[req.player].pop(0))
        else:
            game.submit(_quiet(req))
    assert seen == [("blue", ("blue.z", "blue.w")), ("red", ("red.c", "red.e")),
                    ("blue", ("blue.z", "pass")), ("red", ("red.e",)),
                    ("blue", ("blue.z", "pass"))]
    assert [e["by"] for e in events(game, "fight_pass")] == ["blue", "blue"]
    assert [e["unit"] for e in events(game, "select_to_fight")] == ["blue.w", "red.c", "red.e"]
    assert len(events(game, "fight_step_end")) == 1


# -- 12.04 eligibility ------------------------------------------------------------------------
def test_a_unit_whose_only_enemy_died_earlier_in_the_step_may_still_fight_by_overrun() -> None:
    # R12.04-a: red.c was engaged only with blue.b at the start of the step; red.a kills
    # blue.b first; red.c stays eligible and makes an overrun fight toward blue.y (4" away).
    y = 10 + BASE + GAP
    units = [_u("red.a", "red", 10, 10, flags=FF, weapons=KLAW),
             _u("blue.b", "blue", 11.5, y),
             _u("red.c", "red", 13, 10),
             _u("blue.y", "blue", 13 + 4 + BASE, 10)]
    game = Game.new(fight_phase(units), seed=1)
    game.submit(_quiet(_next_selection(game)))  # red.a
    req = _next_selection(game)
    assert game.state.unit("blue.b").destroyed
    assert (req.player, req.options) == ("red", ("red.c",))
    game.submit("red.c")
    req = pending(game)
    assert events(game, "fight_type")[-1] == {**events(game, "fight_type")[-1],
                                              "unit": "red.c", "type": "overrun"}
    assert (req.kind, req.options) == ("pile_in_targets", (["blue.y"], "skip"))


def _overrun_scene(b5_abilities: list[str], killer: bool = False) -> Game:
    """Red turn. red.a2 (charged, plain) is unengaged with blue.b5 and blue.b6 about 4" away;
    red.a7 and blue.b8 (plain) are engaged far away."""
    y = 10 + BASE + GAP
    units = [_u("red.a2", "red", 10, 11, flags=CHARGED),
             _u("blue.b5", "blue", 9, 16, W=10, abilities=b5_abilities),
             _u("blue.b6", "blue", 11.5, 16, W=10, weapons=KLAW if killer else None),
             _u("red.a7", "red", 40, 10, W=10), _u("blue.b8", "blue", 40, y, W=10)]
    return Game.new(fight_phase(units), seed=5)


def _a2_overruns_into_both(game: Game) -> None:
    req = _next_selection(game)
    assert (req.player, req.context["step"]) == ("red", "rem")
    game.submit("red.a2")
    req = pending(game)
    assert req.kind == "pile_in_targets"
    game.submit(["blue.b5", "blue.b6"])
    game.submit({"red.a2.1": [[10.25, 13.5]]})
    assert game.state.unit("blue.b5").models[0].y == 16
    req = pending(game)
    assert req.kind == "declare_fight"
    game.submit(req.context["default"])


def test_enemy_units_engaged_by_an_overrun_become_eligible_to_fight() -> None:
    # R12.06-b: blue.b5 and blue.b6 were unengaged and not eligible; red.a2's overrun pile-in
    # engages them, so blue's next selection offers them beside blue.b8.
    game = _overrun_scene([])
    _a2_overruns_into_both(game)
    req = _next_selection(game)
    assert req.player == "blue" and req.context["step"] == "rem"
    assert set(req.options) == {"blue.b5", "blue.b6", "blue.b8"}


def test_a_fights_first_unit_engaged_by_a_remaining_combats_overrun_returns_to_fights_first(
) -> None:
    # R12.04-e (recommended reading: the next player in the alternation selects) and R12.06-b:
    # after red.a2's overrun in Remaining Combats engages blue's Fights First blue.b5, the next
    # selection is blue's, in the Fights First step, offering only blue.b5.
    game = _overrun_scene(["Fights First"])
    _a2_overruns_into_both(game)
    req = _next_selection(game)
    assert (req.player, req.context["step"], req.options) == ("blue", "ff", ("blue.b5",))
    assert _refused(game, "blue.b8") == "R12.04-b"


def test_a_unit_engaged_after_the_step_started_and_unengaged_again_cannot_fight_or_overrun(
) -> None:
    # R12.06-c (RF-4): blue.b6 kills red.a2 after the overrun; blue.b5, engaged only by that
    # overrun, is unengaged again and no longer eligible: it is never offered.
    game = _overrun_scene([], killer=True)
    _a2_overruns_into_both(game)
    req = _next_selection(game)
    game.submit("blue.b6")
    req = pending(game)
    assert (req.kind, req.options) == ("fight_type", ("normal", "overrun"))
    game.submit("normal")
    game.submit({"blue.b6.1": {"Power klaw": "red.a2"}})
    order = _fight_order(game)
    assert game.state.unit("red.a2").destroyed
    assert not game.state.unit("blue.b5").destroyed
    assert "blue.b5" not in {u for _, u, _ in order}
    selected = [e["unit"] for e in events(game, "select_to_fight")]
    assert "blue.b5" not in selected and "blue.b6" in selected
    assert events(game, "fight_step_end")


# -- 12.03 pile-in ---------------------------------------------------------------------------
def test_an_engaged_unit_piles_in_toward_every_unit_it_is_engaged_with_and_no_other() -> None:
    # R12.03-b: red.a is engaged with blue.x; blue.y is 4" away -> targets are {blue.x} only,
    # fixed (no pile_in_targets question).
    units = [_u("red.a", "red", 10, 10), _u("blue.x", "blue", 10, 10 + BASE + GAP),
             _u("blue.y", "blue", 10 - 4 - BASE, 10)]
    game = Game.new(fight_phase(units), seed=1)
    game.submit("red.a")
    req = pending(game)
    assert req.kind == "positions" and req.context["targets"] == ["blue.x"]


def test_a_pile_in_model_must_end_engaged_if_it_can_and_cannot_move_over_3_inches() -> None:
    # R12.03-d: red.a charged, blue.x 2.5" away (edge to edge): a move closer that stops
    # short of engagement is refused; a path over 3" is refused; a legal engaging move passes.
    units = [_u("red.a", "red", 10, 10, flags=CHARGED),
             _u("blue.x", "blue", 10, 10 + BASE + 2.5)]
    game = Game.new(fight_phase(units), seed=1)
    game.submit("red.a")
    req = pending(game)
    assert req.kind == "pile_in_targets"
    game.submit(["blue.x"])
    assert pending(game).kind == "positions"
    assert _refused(game, {"red.a.1": [[10.0, 10.2]]}) == "R12.03-d"
    # a dog-leg path of 1.6" + 1.9" ending at the same legal spot is over 3"
    assert _refused(game, {"red.a.1": [[11.6, 10.0], [10.0, 11.0]]}) == "R03.01-a"
    game.submit({"red.a.1": [[10.0, 11.0]]})
    assert events(game, "pile_in_move")


def test_a_pile_in_that_leaves_a_unit_it_started_engaged_with_is_refused() -> None:
    # R12.03-e: red.a.1 starts engaged with blue.x (1.8" gap) and moves 2" toward blue.y,
    # which is closer, ending out of engagement with blue.x.
    units = [_u("red.a", "red", 10, 10), _u("blue.x", "blue", 10, 10 - BASE - 1.8),
             _u("blue.y", "blue", 10, 10 + BASE + 1.5)]
    game = Game.new(fight_phase(units), seed=1)
    game.submit("red.a")
    req = pending(game)
    assert req.context["targets"] == ["blue.x", "blue.y"]
    assert _refused(game, {"red.a.1": [[10.0, 11.3]]}) == "R12.03-e"


# -- 12.07 / 12.08 consolidate ------------------------------------------------------------------
def test_the_turn_player_consolidates_all_units_first_and_each_unit_once() -> None:
    # R12.07-a
    y = 10 + BASE + GAP
    units = [_u("red.a", "red", 10, 10, W=10), _u("red.c", "red", 30, 10, W=10),
             unit("blue.b", "blue", [fighter("blue.b.1", 10, y, W=10),
                                     fighter("blue.b.2", 30, y, W=10)])]
    game = Game.new(fight_phase(units, player="blue"), seed=1)
    req = _until(game, lambda r: r.kind == "select_unit_to_consolidate")
    assert (req.player, req.options) == ("blue", ("blue.b", "done"))
    game.submit("blue.b")
    req = pending(game)
    game.submit(str(req.context["decline"]))
    req = pending(game)
    assert (req.kind, req.player, req.options) == ("select_unit_to_consolidate", "red",
                                                   ("red.a", "red.c", "done"))
    game.submit("red.a")
    game.submit(str(pending(game).context["decline"]))
    req = pending(game)
    assert (req.player, req.options) == ("red", ("red.c", "done"))
    assert _refused(game, "red.a") == "R12.07-a"


def test_a_unit_never_eligible_to_fight_cannot_consolidate_and_3_inches_is_the_limit() -> None:
    # R12.08-a: red.n (never engaged, never charged) is 1.5" from blue.x but not offered;
    # red.a (engaged) may consolidate up to 3" only.
    y = 10 + BASE + GAP
    units = [_u("red.a", "red", 10, 10, W=10), _u("blue.b", "blue", 10, y, W=10),
             _u("red.n", "red", 30, 10), _u("blue.x", "blue", 30, 10 + BASE + 2.5, W=10)]
    game = Game.new(fight_phase(units), seed=1)
    req = _until(game, lambda r: r.kind == "select_unit_to_consolidate")
    assert (req.player, req.options) == ("red", ("red.a", "done"))
    assert _refused(game, "red.n") == "R12.07-a"
    game.submit("red.a")
    assert pending(game).kind == "positions"
    # red.a.1 (1" from blue.b) moves 3.1" sideways-closer: over the limit.
    assert _refused(game, {"red.a.1": [[13.1, 10.0]]}) == "R03.01-a"


def test_an_engaged_unit_must_consolidate_ongoing_and_cannot_choose_an_objective() -> None:
    # R12.08-b: red.a is engaged with blue.b with an objective 1" away: the mode is ongoing,
    # no objective is asked, and a move away from blue.b toward the objective is refused.
    y = 10 + BASE + GAP
    units = [_u("red.a", "red", 10, 10, W=10), _u("blue.b", "blue", 10, y, W=10)]
    game = Game.new(fight_phase(units, objectives=[marker("o", 10, 10 - 2.0)]), seed=1)
    req = _until(game, lambda r: r.kind == "select_unit_to_consolidate")
    assert consolidation_mode(game, game.state.unit("red.a")) == ("ongoing", ["blue.b"])
    game.submit("red.a")
    req = pending(game)
    assert req.kind == "positions" and req.context["mode"] == "ongoing"
    assert req.context["targets"] == ["blue.b"]
    assert _refused(game, {"red.a.1": [[10.0, 9.0]]}) == "R12.08-b"


def test_an_unengaged_unit_near_an_enemy_must_use_engaging_consolidation_over_an_objective(
) -> None:
    # R12.08-c: red.a charged, never reached blue.b (2.8" away); an objective is 1" away.
    units = [_u("red.a", "red", 10, 10, flags=CHARGED),
             _u("blue.b", "blue", 10, 10 + BASE + 2.8)]
    game = Game.new(fight_phase(units, objectives=[marker("o", 10, 10 - 2.0)]), seed=1)
    req = _until(game, lambda r: r.kind == "select_unit_to_consolidate")
    assert req.options == ("red.a", "done")
    assert consolidation_mode(game, game.state.unit("red.a")) == ("engaging", ["blue.b"])
    game.submit("red.a")
    req = pending(game)
    assert (req.kind, req.options) == ("consolidate_targets", (["blue.b"], "skip"))
    game.submit(["blue.b"])
    assert _refused(game, {"red.a.1": [[10.0, 9.0]]}) == "R12.08-c"
    assert events(game, "consolidation_mode")[-1]["mode"] == "engaging"
