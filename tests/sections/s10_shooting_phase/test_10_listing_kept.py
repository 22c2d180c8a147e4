"""The declare_shooting listing (04.02, 06.01) with what it keeps (pass listing14): a unit's
facts read the kept Visibility of a scene that differs only in its own player's 13.09 / 24.24
flags (``shooting_facts.blind_to``: a unit of the same player shot since), and the listing
keeps one verdict per weapon profile, model keyword, used [ONE SHOT], target and facts. The
listing is the plain one: every ranged weapon of every model checked against every enemy unit
with its own facts on a fresh Visibility; and such a kept Visibility answers every question
about the other player's units as a fresh one."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import numpy as np
import pytest

from tests.engine.shooting_helpers import (
    BOLTGUN,
    CHOPPA,
    model,
    position,
    row,
    select,
    start,
    unit,
    weapon,
)
from tests.geometry.test_los_batch import random_scene
from w40k.agents.greedy import GreedyAgent
from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.phases.shooting import ShootUnitFrame, _selection
from w40k.engine.phases.shooting_facts import ShooterFacts, blind_to
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.geometry import Scene, Visibility, scene_from_dict
from w40k.io.battle_scale import scaled_position
from w40k.rules.select import AttackKind, ModelChoice, WeaponChoice, validate_selection


def _plain(ctx: Context, u: UnitData, kind: AttackKind,
           snap: str | None) -> dict[str, dict[str, list[str]]]:
    """Per model and ranged weapon, the enemy units a selection of that weapon alone may
    target, each checked with its own facts (visibility on a fresh Visibility)."""
    facts = ShooterFacts(ctx, u)
    facts.vis = Visibility(geo.scene(ctx))
    facts.ou = facts.vis.unit_index[u.id]
    out: dict[str, dict[str, list[str]]] = {}
    for m in u.alive:
        per = out[m.id] = {}
        for w in m.weapons:
            if w.is_melee or w.name in per:
                continue
            per[w.name] = [
                e.id for e in facts.enemies if snap in (None, e.id) and not validate_selection(
                    _selection(facts, kind, {(m.id, w.name, e.id): facts.weapon_facts(
                        m.id, w, e.id)}, (ModelChoice(m.id, (WeaponChoice(w.name, (e.id,)),)),)))]
    return out


@pytest.mark.parametrize("seed", [0, 1])
def test_r06_01_f_the_listing_is_every_weapon_checked_on_a_fresh_visibility(seed: int) -> None:
    # R04.02-a, R06.01-f, R24.07-a: a greedy battle's every listing, some of them on a kept
    # Visibility of an earlier scene (a unit of the same player shot since: its 13.09 flag)
    pos = scaled_position(1)
    pos["options"] = {**cast(dict[str, JSON], pos.get("options") or {}), "stratagems": True}
    game = Game.new(pos, seed)
    agents = {p.name: GreedyAgent(seed * 101 + i) for i, p in enumerate(game.state.players)}
    listings = kept = 0
    req = game.pending()
    while req is not None:
        if req.kind == "declare_shooting":
            ctx = game.ctx
            u = ctx.state.unit(str(req.context["unit"]))
            frame = ctx.find(ShootUnitFrame)
            assert frame is not None
            listings += 1
            kept += ShooterFacts(ctx, u).vis.scene != geo.scene(ctx)
            assert req.context["targets"] == _plain(
                ctx, u, AttackKind(str(req.context["type"])), frame.snap)
        game.submit(agents[req.player].choose(game, req))
        req = game.pending()
    assert listings > 5 and kept > 0


def _flagged(scene: Scene, player: str, seed: int) -> Scene:
    """The scene with some of ``player``'s units' 13.09 / 24.24 flags turned."""
    rng = np.random.default_rng(seed)
    return replace(scene, units=tuple(
        replace(u, ranged_attacks_recently=not u.ranged_attacks_recently,
                attached=bool(rng.random() < 0.5))
        if u.player == player and rng.random() < 0.7 else u for u in scene.units))


@pytest.mark.parametrize("seed", range(6))
def test_r13_09_a_kept_visibility_answers_as_a_fresh_one_for_the_other_players_targets(
        seed: int) -> None:
    # R06.01-a, R13.08-a, R13.09-b, R24.24-a, R22.05-a: a Visibility of the scene before
    # player A's units turned their flags answers every question whose target is B's as a
    # fresh Visibility of the scene after (random scenes: dense areas, INFANTRY, Lone
    # Operatives, upper levels, ovals), and blind_to allows it for A only
    old = scene_from_dict(random_scene(np.random.default_rng(900 + seed)))
    new = _flagged(old, "A", seed)
    assert blind_to(old, new, "A") and blind_to(old, old, "B")
    assert not blind_to(old, new, "B") or new == old
    kept, fresh = Visibility(old, jit=False), Visibility(new, jit=False)
    units = new.units
    for ou, a in enumerate(units):
        for tu, b in enumerate(units):
            if a.player == b.player or b.player == "A":
                continue
            assert kept.unit_sees(ou, tu) == fresh.unit_sees(ou, tu)
            for om in range(len(a.models)):
                assert kept.model_sees(ou, om, tu) == fresh.model_sees(ou, om, tu)
                assert kept.cover_against(ou, om, tu) == fresh.cover_against(ou, om, tu)
                assert kept.plunging_fire(ou, om, tu) == fresh.plunging_fire(ou, om, tu)
                assert kept.unit_fully_visible(ou, om, tu) == fresh.unit_fully_visible(
                    ou, om, tu)
                for tm in range(len(b.models)):
                    assert kept.visible(ou, om, tu, tm) == fresh.visible(ou, om, tu, tm)


def test_r13_09_a_the_turned_flags_change_answers_for_their_own_units() -> None:
    # guards the point of the test above: the turned flags change some answer whose target
    # is one of A's units (13.09 hidden, 24.24 Lone Operative), so blind_to must refuse them
    # for B's questions
    changed = 0
    for seed in range(6):
        old = scene_from_dict(random_scene(np.random.default_rng(900 + seed)))
        new = _flagged(old, "A", seed)
        kept, fresh = Visibility(old, jit=False), Visibility(new, jit=False)
        for ou, a in enumerate(new.units):
            for tu, b in enumerate(new.units):
                if a.player == "B" and b.player == "A":
                    changed += sum(kept.model_sees(ou, om, tu) != fresh.model_sees(ou, om, tu)
                                   for om in range(len(a.models)))
    assert changed > 0


def test_r06_01_a_blind_to_refuses_a_moved_model_and_another_unit_list() -> None:
    # a model moved (its footprint blocks other pairs, 06.01), a unit gone, or another
    # player's unit changed (its abilities: 24.33 Stealth): never reused
    old = scene_from_dict(random_scene(np.random.default_rng(900)))
    u = old.units[0]
    moved = replace(u, models=(replace(u.models[0], x=u.models[0].x + 0.5), *u.models[1:]))
    assert not blind_to(old, replace(old, units=(moved, *old.units[1:])), u.player)
    assert not blind_to(old, replace(old, units=old.units[1:]), u.player)
    other = replace(old.units[-1], abilities=(*old.units[-1].abilities, "Stealth"))
    assert not blind_to(old, replace(old, units=(*old.units[:-1], other)), u.player)


def test_r24_26_a_the_listing_keeps_a_verdict_per_weapon_profile_keywords_and_one_shot() -> None:
    # the listing checks each one-weapon selection once per weapon profile, MONSTER/VEHICLE
    # keyword, used [ONE SHOT] (R24.26-a), target and facts: models that differ in any of
    # them get their own verdicts (a used missile; a same-named [BLAST] launcher against an
    # engaged VEHICLE, R17.03-b, which the missile may shoot, R17.03-a; a VEHICLE model), as
    # the plain check gives
    missile = weapon("missile", range=36, abilities=("ONE SHOT",))
    blast = weapon("missile", range=36, abilities=("BLAST",))
    g = start(position(
        unit("red.a", [model("red.a.1", 30, 10, missile, BOLTGUN, one_shots_used=("missile",)),
                       model("red.a.2", 32, 10, missile, BOLTGUN),
                       model("red.a.3", 34, 10, blast, BOLTGUN),
                       model("red.a.4", 36, 10, blast, BOLTGUN, keywords=("VEHICLE",),
                             base_mm=60)]),
        unit("red.b", row("red.b", 1, 10, 25, CHOPPA)),
        unit("red.c", row("red.c", 1, 40, 25, CHOPPA)),
        unit("blue.x", row("blue.x", 2, 10, 26.5, BOLTGUN)),
        unit("blue.tank", [model("blue.tank.1", 40, 27.5, BOLTGUN, keywords=("VEHICLE",),
                                 T=10, Sv=3, W=12, base_mm=60)]),
        unit("blue.y", row("blue.y", 3, 30, 20, BOLTGUN))))
    select(g, "red.a")
    req = g.pending()
    assert req is not None and req.kind == "declare_shooting"
    u = g.ctx.state.unit("red.a")
    listing = req.context["targets"]
    assert listing == _plain(g.ctx, u, AttackKind(str(req.context["type"])), None)
    assert listing["red.a.1"]["missile"] == []  # R24.26-a: used
    assert listing["red.a.2"]["missile"] == ["blue.tank", "blue.y"]
    assert listing["red.a.3"]["missile"] == ["blue.y"]  # R17.03-b: [BLAST], engaged
    assert listing["red.a.4"]["missile"] == ["blue.y"]
    assert "blue.x" not in listing["red.a.2"]["boltgun"]  # R04.02-a: engaged
