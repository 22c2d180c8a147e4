"""The shooting listing stages only the rows it reads (pass shoot15): ``Visibility.stage_rows``
decides the raw sight of the chosen observer models' rows alone, with the same answers as
the whole unit pair's sight matrix; and the listing's one-weapon selections built field by
field equal those of ``dataclasses.replace``, their verdicts read a target unit only
through its facts, and a kept ShooterFacts answers as a new one."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.engine.shooting_helpers import BOLTGUN, model, position, row, start, unit, wall
from tests.geometry.test_los_batch import random_scene
from w40k.core.abilities import Blast, CloseQuarters, IndirectFire, OneShot
from w40k.core.dice import DiceExpr
from w40k.core.profiles import WeaponProfile
from w40k.engine.phases.shooting import _one
from w40k.engine.phases.shooting_facts import ShooterFacts, shooter_facts
from w40k.geometry import Visibility, scene_from_dict
from w40k.rules.select import (
    AttackingModel,
    AttackKind,
    ModelChoice,
    Selection,
    TargetUnit,
    WeaponChoice,
    WeaponFacts,
    validate_selection,
)


def _pairs(v: Visibility) -> list[tuple[int, int]]:
    us = v.scene.units
    return [(a, b) for a in range(len(us)) for b in range(len(us))
            if us[a].player != us[b].player and us[a].models and us[b].models]


@pytest.mark.parametrize("seed", range(8))
def test_staged_rows_answer_as_the_full_sight_matrix(seed: int) -> None:
    """Rows staged alone give every row's model_sees and visible answers of the full sight
    matrix, the same raw codes, and leave the other rows' pairs undecided (R06.01-a, 13.09,
    24.24 masks included)."""
    scene = scene_from_dict(random_scene(np.random.default_rng(900 + seed)))
    rng = np.random.default_rng(seed)
    for conv in (False, True):
        full = Visibility(scene, conv, jit=False)
        ref = {(a, b): full.sight_matrix(full.scene.units[a].name, full.scene.units[b].name)
               for a, b in _pairs(full)}
        codes = {k: r.sight for k, r in full._raw_cache.items()}
        v = Visibility(scene, conv, jit=False)
        rows = {p: sorted({int(x) for x in rng.integers(0, ref[p].shape[0], size=2)})
                for p in _pairs(v) if rng.random() < 0.7}
        v.stage_rows(rows)
        for k, r in v._raw_cache.items():
            assert r.sight is codes[k], (seed, conv, k)
        for (a, b), oms in rows.items():
            for om in range(ref[(a, b)].shape[0]):
                if om in oms:
                    continue
                for tm in range(ref[(a, b)].shape[1]):
                    # another row: not decided unless its reverse pair was (06.01 symmetric)
                    staged_back = any(b == c and a == d and tm in rows.get((c, d), ())
                                      for c, d in rows)
                    if not staged_back:
                        assert (a, om, b, tm) not in v._raw_cache
        for (a, b), oms in rows.items():
            for om in oms:
                assert v.model_sees(a, om, b) == bool(ref[(a, b)][om].any())
                for tm in range(ref[(a, b)].shape[1]):
                    assert v.visible(a, om, b, tm) == bool(ref[(a, b)][om, tm])
        for (a, b), want in ref.items():
            assert v.unit_sees(a, b) == bool(want.any())
            for om in range(want.shape[0]):
                assert v.model_sees(a, om, b) == bool(want[om].any())


def test_a_staged_row_is_read_without_staging_the_unit_pair() -> None:
    """model_sees on a row staged alone stages no other row (the point of stage_rows)."""
    for seed in range(8):
        v = Visibility(scene_from_dict(random_scene(np.random.default_rng(900 + seed))),
                       jit=False)
        for a, b in _pairs(v):
            if len(v.scene.units[a].models) > 1 and (b, a) not in v._staged:
                v.stage_rows({(a, b): [0]})
                v.model_sees(a, 0, b)
                assert (a, b) not in v._staged
                return
    raise AssertionError("no unit pair with two observer models")


def _weapon(name: str) -> WeaponProfile:
    return WeaponProfile(name, 24.0, DiceExpr.parse("2"), 3, 4, 0, DiceExpr.parse("1"))


def test_unit_boxes_hold_every_footprint() -> None:
    """Visibility.unit_box (kept per scene) is the box of the unit's footprints' boxes."""
    for seed in range(4):
        v = Visibility(scene_from_dict(random_scene(np.random.default_rng(900 + seed))),
                       jit=False)
        for u, su in enumerate(v.scene.units):
            if su.models:
                boxes = np.array([v.footprints[(u, i)].bbox() for i in range(len(su.models))])
                want = (*boxes[:, :2].min(axis=0).tolist(), *boxes[:, 2:].max(axis=0).tolist())
                assert v.unit_box(u) == tuple(want)
                assert v.unit_box(u) is v.unit_box(u)


@pytest.mark.parametrize("seed", range(20))
def test_one_weapon_selection_equals_replace(seed: int) -> None:
    """_one builds the same Selection as dataclasses.replace of the unit's base selection
    (every field of Selection carried over; 04.01, 04.02)."""
    rng = np.random.default_rng(seed)
    w = _weapon("gun")
    base = Selection(
        AttackKind(str(rng.choice([k.value for k in AttackKind]))),
        (AttackingModel("m1", (w,), bool(rng.integers(2))),),
        (TargetUnit("t1", engaged=bool(rng.integers(2))),),
        {}, (), one_shots_used=frozenset({("m1", "gun")}) if rng.integers(2) else frozenset(),
        attacker_engaged=bool(rng.integers(2)), advanced=bool(rng.integers(2)),
        your_shooting_phase=bool(rng.integers(2)))
    f = WeaponFacts(*(bool(x) for x in rng.integers(0, 2, size=5)))
    got = _one(base, "m1", "gun", "t1", f)
    want = dataclasses.replace(base, facts={("m1", "gun", "t1"): f},
                               declaration=(ModelChoice("m1", (WeaponChoice("gun", ("t1",)),)),))
    assert got == want


def _random_weapon(rng: np.random.Generator, name: str) -> WeaponProfile:
    families = [Blast(), CloseQuarters(), IndirectFire(), OneShot()]
    picked = tuple(a for a in families if rng.random() < 0.4)
    return dataclasses.replace(_weapon(name), abilities=picked)


@pytest.mark.parametrize("seed", range(40))
def test_a_verdict_reads_a_target_only_through_its_facts(seed: int) -> None:
    """Whether a one-weapon selection breaks a rule is the same for two target units with
    the same facts (engaged, engaged with the attacker, MONSTER/VEHICLE), whatever their
    names: the listing keeps its verdicts by those facts (04.02, 10.06, 17.03, 24.05)."""
    rng = np.random.default_rng(seed)
    weapons = tuple(_random_weapon(rng, f"w{i}") for i in range(3))
    models = (AttackingModel("m1", weapons, bool(rng.integers(2))),)
    for _ in range(30):
        facts = tuple(bool(x) for x in rng.integers(0, 2, size=3))
        others = tuple(TargetUnit(f"x{i}", *(bool(x) for x in rng.integers(0, 2, size=3)))
                       for i in range(2))
        targets = (TargetUnit("t1", *facts), *others, TargetUnit("t2", *facts))
        base = Selection(
            AttackKind(str(rng.choice([k.value for k in AttackKind if k.value != "fight"]))),
            models, targets, {}, (),
            one_shots_used=frozenset({("m1", "w0")}) if rng.integers(2) else frozenset(),
            attacker_engaged=bool(rng.integers(2)), advanced=bool(rng.integers(2)),
            your_shooting_phase=bool(rng.integers(2)))
        f = WeaponFacts(*(bool(x) for x in rng.integers(0, 2, size=5)))
        name = weapons[int(rng.integers(3))].name
        a = validate_selection(_one(base, "m1", name, "t1", f))
        b = validate_selection(_one(base, "m1", name, "t2", f))
        assert bool(a) == bool(b)
        assert [v.rule for v in a] == [v.rule for v in b]


def _all_facts(f: ShooterFacts) -> list[object]:
    """Every fact a listing and its declaration read, per (model, weapon, enemy)."""
    out: list[object] = [f.target_units()]
    for m in f.unit.alive:
        for w in m.weapons:
            if w.range is not None:
                out += [f.weapon_facts(m.id, w, e.id) for e in f.enemies]
    return out


def test_kept_shooter_facts_answer_as_new_ones() -> None:
    """shooter_facts keeps one ShooterFacts while its unit's scene and enemies are the same
    (its facts then equal a new one's), and makes a new one once a model is destroyed
    (06.01, 04.02, 03.04)."""
    g = start(position(
        unit("red.a", [model("red.a.1", 30, 10, BOLTGUN), model("red.a.2", 20, 10, BOLTGUN)]),
        unit("blue.hid", row("blue.hid", 2, 30, 20, BOLTGUN)),
        unit("blue.y", row("blue.y", 2, 20, 20, BOLTGUN)),
        terrain=wall(27, 15, 33, 16)))
    ctx, u = g.ctx, g.state.unit("red.a")
    kept = shooter_facts(ctx, u)
    assert shooter_facts(ctx, u) is kept
    assert _all_facts(kept) == _all_facts(ShooterFacts(ctx, u))
    g.state.unit("blue.y").models[0].destroyed = True  # the scene changes
    fresh = shooter_facts(ctx, u)
    assert fresh is not kept
    assert _all_facts(fresh) == _all_facts(ShooterFacts(ctx, u))
    assert shooter_facts(ctx, g.state.unit("blue.y")) is not fresh  # another unit
