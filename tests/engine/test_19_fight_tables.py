"""A fight declaration's engagement table measured once (issue 10, pass atk19): the
``declare_fight`` request's default declaration and the declaration's check read the
:func:`engaged_targets` table their caller made in the same state instead of making it again
(R04.02-c: a melee weapon targets a unit engaged with its model; R04.02-e: a model engaged
with an enemy unit must fight; 23.04's refusals). Each answer must be the plain one."""

from __future__ import annotations

from typing import cast

import pytest

from tests.engine.core_helpers import greedy_record
from w40k.agents.greedy import GreedyAgent
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.core.jsonval import JSON
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.phases import fight_sequence as fs
from w40k.engine.state import UnitData
from w40k.io.battle_scale import scaled_position
from w40k.rules.select import Selection, gather_requests

pytestmark = pytest.mark.stratagems


def _plain_check(ctx: Context, u: UnitData, choice: JSON) -> object:
    """``_check_declaration`` as it was: each part makes its own table (R04.02-c/e, 23.04);
    the answer, or the error raised."""
    from w40k.engine.aircraft import melee_refusal

    try:
        decl = fs.parse_declaration(u, choice)
        models = {m.id: m for m in u.alive}
        enemies = {e.id: e for e in ctx.state.units if e.player != u.player}
        for c in decl:
            m = models.get(c.model)
            for wc in c.weapons:
                for t in wc.targets:
                    enemy = enemies.get(t)
                    why = None if enemy is None or m is None else melee_refusal(u, m, enemy)
                    if why is not None:
                        raise IllegalChoice(f"{c.model}: cannot make melee attacks against {t} "
                                            "(AIRCRAFT fight only FLYING units; only FLYING "
                                            "models fight AIRCRAFT)", rule=why)
        sel = fs.selection(ctx, u, decl)
        per_target = gather_requests(sel)
        listed = {c.model for c in decl}
        for mid, ts in fs.attackable_targets(ctx, u).items():
            if ts and mid not in listed and fs._melee_names(u)[mid]:
                raise IllegalChoice(f"{mid}: a model with an enemy unit engaged with it must "
                                    "select its melee weapons and targets", rule="R04.02-e")
    except (IllegalChoice, MalformedChoice) as exc:
        return (type(exc), str(exc), getattr(exc, "rule", None))
    return sel, per_target


def _fast_check(ctx: Context, u: UnitData, choice: JSON) -> object:
    try:
        return fs._check_declaration(ctx, u, choice)
    except (IllegalChoice, MalformedChoice) as exc:
        return (type(exc), str(exc), getattr(exc, "rule", None))


def _declarations(u: UnitData, table: dict[str, list[str]]) -> list[JSON]:
    """Legal and illegal declarations: the default, one model left out (R04.02-e), a target
    not engaged with the model (R04.02-c), a weapon the model lacks (R04.01-b)."""
    out: list[JSON] = []
    enemies = sorted({t for ts in table.values() for t in ts})
    for m in u.alive:
        melee = [w.name for w in m.weapons if w.is_melee]
        if melee and enemies:
            out.append({m.id: {melee[0]: enemies[-1]}})
            out.append({m.id: {"no such weapon": enemies[0]}})
    return out


def test_declare_fight_tables_equal_the_plain_ones() -> None:
    """R04.02-c / R04.02-e / 23.04: at every declare_fight request of greedy games, the
    default declaration, the attackable targets and the selection read with the caller's
    table equal the plain ones, and every checked declaration (the default, the agent's,
    illegal ones) gives the plain answer or error."""
    checked = 0
    for scale, seed in ((1, 0), (1, 1), (2, 0), (2, 1)):
        pos = scaled_position(scale)
        pos["options"] = {**cast(dict[str, JSON], pos.get("options") or {}),
                          "stratagems": True}
        game = Game.new(pos, seed)
        agents = {p.name: GreedyAgent(seed * 101 + i) for i, p in enumerate(game.state.players)}
        while (req := game.pending()) is not None:
            choice = agents[req.player].choose(game, req)
            if req.kind == "declare_fight":
                ctx = game.ctx
                u = game.state.unit(str(req.context["unit"]))
                table = fs.engaged_targets(ctx, u)
                assert fs.default_declaration(ctx, u, engaged=table) == \
                    fs.default_declaration(ctx, u)
                assert fs.attackable_targets(ctx, u, table) == fs.attackable_targets(ctx, u)
                decl = fs.parse_declaration(u, req.context["default"])
                sel: Selection = fs.selection(ctx, u, decl, table)
                assert sel == fs.selection(ctx, u, decl)
                for answer in (req.context["default"], choice, *_declarations(u, table)):
                    assert _fast_check(ctx, u, answer) == _plain_check(ctx, u, answer)
                    checked += 1
            game.submit(choice)
    assert checked > 20


def test_games_are_the_same_with_the_plain_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """The records are the same when every part makes its own engagement table."""
    fast = [greedy_record(2, seed) for seed in (0, 1)]
    plain_default = fs.default_declaration
    monkeypatch.setattr(fs, "default_declaration",
                        lambda ctx, u, rng=None, engaged=None: plain_default(ctx, u, rng))
    monkeypatch.setattr(fs, "_check_declaration", lambda ctx, u, choice: cast(
        tuple[Selection, dict[str, object]], _raise(_plain_check(ctx, u, choice))))
    fs._CHECKED.clear()
    assert [greedy_record(2, seed) for seed in (0, 1)] == fast


def _raise(answer: object) -> object:
    if isinstance(answer, tuple) and len(answer) == 3 and isinstance(answer[0], type):
        raise answer[0](answer[1], rule=answer[2])
    return answer
