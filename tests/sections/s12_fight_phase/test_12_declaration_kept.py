"""The kept fight declaration check (``fight_sequence._checked``): a declaration accepted in a
state is accepted again with the same answer (R04.02-c / R04.02-e, R04.03-a) while nothing
it reads has changed, and checked afresh when something has (a model placed or destroyed, a
weapon changed, Epic Challenge used, another unit, a declaration of another shape)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.engine.core_helpers import events
from tests.engine.melee_helpers import BASE, fight_phase, fighter, melee_weapon, pending, unit
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine import field
from w40k.engine.game import Game
from w40k.engine.phases import fight_sequence as fs
from w40k.engine.serial import JSON
from w40k.engine.state import StratagemUse

GAP = 1.0


def _game() -> Game:
    """Red's Fight phase: red.a (three models, two melee weapons each) engaged with blue.b
    and blue.c; the declaration request of red.a pending."""
    weapons = [melee_weapon("Choppa", A=3), melee_weapon("Big choppa", A=2, S=6)]
    y = 10 + BASE + GAP
    units = [unit("red.a", "red", [fighter(f"red.a.{i + 1}", 10 + i * 1.5, 10,
                                           weapons=weapons, keywords=["Infantry", "Character"])
                                   for i in range(3)], flags={"charged": True,
                                                              "fights_first": True}),
             unit("blue.b", "blue", [fighter("blue.b.1", 10, y)]),
             unit("blue.c", "blue", [fighter("blue.c.1", 13, y)])]
    game = Game.new(fight_phase(units), seed=3)
    for _ in range(20):
        req = pending(game)
        if req.kind == "declare_fight":
            return game
        game.submit("red.a" if req.kind == "select_unit_to_fight"
                    else "skip" if req.kind == "pile_in_targets"
                    else req.context["decline"] if req.kind == "positions"
                    else "done" if "done" in req.options else req.options[0])
    raise AssertionError("no declare_fight request")


def _fresh(game: Game, choice: JSON) -> object:
    """The plain check's answer (nothing kept), or the error it raises."""
    fs._CHECKED.clear()
    field.forget()
    try:
        sel, entries = fs._check_declaration(game.ctx, game.state.unit("red.a"), choice)
    except (IllegalChoice, MalformedChoice) as exc:
        return (type(exc), str(exc), getattr(exc, "rule", None))
    return sel, entries


def _kept(game: Game, choice: JSON) -> object:
    """The kept check's answer (asked twice: the second may be the kept one), or its error."""
    try:
        fs.check_declaration(game.ctx, game.state.unit("red.a"), choice)
        out = fs._checked(game.ctx, game.state.unit("red.a"), choice)
    except (IllegalChoice, MalformedChoice) as exc:
        return (type(exc), str(exc), getattr(exc, "rule", None))
    return out.sel, out.per_target


DECL: dict[str, JSON] = {"red.a.1": {"Choppa": "blue.b"},
                         "red.a.2": {"Big choppa": {"blue.b": 1, "blue.c": 1}},
                         "red.a.3": {"Choppa": "blue.c"}}


def test_a_declaration_checked_again_in_the_same_state_is_the_kept_answer_R04_02_c() -> None:
    game = _game()
    u = game.state.unit("red.a")
    first = fs._checked(game.ctx, u, DECL)
    again = fs._checked(game.ctx, u, {k: dict(v) for k, v in DECL.items()})  # equal, new
    assert again is first
    assert _kept(game, DECL) == _fresh(game, DECL)
    # another declaration of the same unit is checked: its own answer
    other: dict[str, JSON] = {"red.a.1": {"Big choppa": "blue.b"},
                              "red.a.2": {"Choppa": "blue.c"}, "red.a.3": {"Choppa": "blue.c"}}
    assert fs._checked(game.ctx, u, other) is not first
    assert _kept(game, other) == _fresh(game, other)


def test_the_kept_answer_follows_what_the_check_reads_R04_02_e_R04_03_a() -> None:
    game = _game()
    s = game.state
    u = s.unit("red.a")
    assert _kept(game, DECL) == _fresh(game, DECL)
    # a model destroyed: it may no longer be listed (and the unit's models change)
    fs._checked(game.ctx, u, DECL)
    u.models[2].destroyed = True
    kept, fresh = _kept(game, DECL), _fresh(game, DECL)
    assert kept == fresh and isinstance(kept, tuple) and kept[0] is IllegalChoice
    u.models[2].destroyed = False
    assert _kept(game, DECL) == _fresh(game, DECL)
    # a weapon taken away without a placement (as a Firing Deck's lent weapon is given back)
    fs._checked(game.ctx, u, DECL)
    m = u.models[0]
    m.weapons = tuple(w for w in m.weapons if w.name != "Choppa")
    kept = _kept(game, DECL)
    assert kept == _fresh(game, DECL) and isinstance(kept, tuple) and kept[0] is IllegalChoice
    m.weapons = tuple(u.models[1].weapons)
    assert _kept(game, DECL) == _fresh(game, DECL)
    # a target moved out of engagement (R04.02-c: only engaged units are targets)
    fs._checked(game.ctx, u, DECL)
    c = s.unit("blue.c").models[0]
    c.y += 6.0
    kept = _kept(game, DECL)
    assert kept == _fresh(game, DECL) and isinstance(kept, tuple) and kept[0] is IllegalChoice
    c.y -= 6.0
    # 15.03 Epic Challenge used on the unit: its model's melee weapons gain [PRECISION]
    before = fs._checked(game.ctx, u, DECL)
    s.stratagems.append(StratagemUse("red", "Epic Challenge", ("red.a",),
                                     {"unit": "red.a", "model": "red.a.1"}, 1, s.round,
                                     s.turn_player, s.phase))
    after = fs._checked(game.ctx, u, DECL)
    assert after is not before and after.sel != before.sel
    assert _kept(game, DECL) == _fresh(game, DECL)
    # the state's units changed (a unit gone from the battlefield without a placement)
    fs._checked(game.ctx, u, DECL)
    gone = s.units.pop()
    kept = _kept(game, DECL)
    assert kept == _fresh(game, DECL) and isinstance(kept, tuple) and kept[0] is IllegalChoice
    s.units.append(gone)
    assert _kept(game, DECL) == _fresh(game, DECL)


@pytest.mark.parametrize("count", [True, 1.0, "1"])
def test_attacks_of_another_type_are_not_the_kept_declaration_R04_03_a(count: JSON) -> None:
    # 1, 1.0 and True are equal keys: the kept answer for 1 must not answer True or 1.0
    game = _game()
    u = game.state.unit("red.a")
    fs._checked(game.ctx, u, DECL)
    odd = {**DECL, "red.a.2": {"Big choppa": {"blue.b": count, "blue.c": 1}}}
    kept = _kept(game, odd)
    assert kept == _fresh(game, odd)
    assert isinstance(kept, tuple) and kept[0] is MalformedChoice


def test_an_illegal_declaration_is_not_kept_and_a_clone_is_checked_on_its_own() -> None:
    game = _game()
    u = game.state.unit("red.a")
    missing: dict[str, JSON] = {"red.a.1": {"Choppa": "blue.b"}}  # R04.02-e
    for _ in range(2):
        with pytest.raises(IllegalChoice) as exc:
            fs.check_declaration(game.ctx, u, missing)
        assert exc.value.rule == "R04.02-e"
    first = fs._checked(game.ctx, u, DECL)
    clone = game.clone()
    got = fs._checked(clone.ctx, clone.state.unit("red.a"), DECL)
    assert got is not first
    assert (got.sel, got.per_target) == (first.sel, first.per_target)


def test_the_attacks_step_makes_the_gathered_attacks_of_the_declaration() -> None:
    # the frame's attacks step takes the kept entries (a copy): the game plays on as with the
    # plain check, every declared target attacked in order (R04.03-a)
    game = _game()
    plain = _game()
    fs._CHECKED.clear()
    game.submit(DECL)
    kept = fs._checked(game.ctx, game.state.unit("red.a"), DECL)
    assert dataclasses.is_dataclass(kept)
    while game.pending() is not None and pending(game).kind != "select_unit_to_fight":
        game.submit(pending(game).options[0] if pending(game).options else DECL)
    # the same game with nothing kept between the checks
    plain.submit(DECL)
    while plain.pending() is not None and pending(plain).kind != "select_unit_to_fight":
        fs._CHECKED.clear()
        plain.submit(pending(plain).options[0] if pending(plain).options else DECL)
    assert events(game) == events(plain)
    assert [e["event"] for e in events(game)].count("declare_fight") == 1
