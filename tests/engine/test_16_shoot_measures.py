"""The shooting listing's distances measured together and the resolution's parts not checked
again (pass shoot16): ``Visibility.distances_to`` keeps the same floats as
``unit_distances`` of each unit pair, ``ShooterFacts.measure`` the same row minima as
``ShooterFacts.distance``, and every part of a legal shooting declaration is legal, so
``gather_requests(checked=True)`` gives what the checked call gives."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from tests.engine.shooting_helpers import BOLTGUN, PISTOL, model, position, start, unit, weapon
from tests.geometry.test_los_batch import random_scene
from w40k.core.profiles import WeaponProfile
from w40k.engine.phases.shooting_facts import ShooterFacts
from w40k.geometry import Visibility, scene_from_dict
from w40k.rules.select import (
    AttackingModel,
    AttackKind,
    ModelChoice,
    Selection,
    TargetUnit,
    WeaponChoice,
    WeaponFacts,
    gather_requests,
    validate_selection,
)


@pytest.mark.parametrize("seed", range(10))
def test_distances_to_keeps_the_same_floats(seed: int) -> None:
    """``distances_to`` of random unit lists (some pairs kept before, repeats, ovals) holds
    each unit pair's ``unit_distances`` of a fresh Visibility side by side, bit for bit, and
    keeps exactly those matrices."""
    scene = scene_from_dict(random_scene(np.random.default_rng(1600 + seed)))
    rng = random.Random(seed)
    n = len(scene.units)
    v = Visibility(scene, jit=False)
    fresh = Visibility(scene, jit=False)
    for _ in range(6):
        ou = rng.randrange(n)
        tus = [rng.randrange(n) for _ in range(rng.randint(0, 5))]
        if rng.random() < 0.3 and tus:
            v.unit_distances(ou, tus[0])  # some kept already
        got = v.distances_to(ou, tus)
        blocks = [fresh.unit_distances(ou, tu) for tu in tus]
        want = (np.concatenate(blocks, axis=1) if blocks
                else np.zeros((len(scene.units[ou].models), 0)))
        assert got.shape == want.shape
        assert got.tobytes() == want.tobytes(), (seed, ou, tus)
        for tu in tus:
            assert v.unit_distances(ou, tu).tobytes() == blocks[tus.index(tu)].tobytes()


def _position(rng: random.Random) -> dict[str, object]:
    units = [unit("red.a", [model(f"red.a.{i}", rng.uniform(5, 55), rng.uniform(5, 39),
                                  BOLTGUN, base_mm=rng.choice([25.0, 32.0, 40.0]))
                            for i in range(rng.randint(1, 5))])]
    for k in range(rng.randint(2, 5)):
        units.append(unit(f"blue.{k}", [
            model(f"blue.{k}.{i}", rng.uniform(5, 55), rng.uniform(5, 39), BOLTGUN,
                  base_mm=rng.choice([25.0, 32.0, 50.0]))
            for i in range(rng.randint(1, 4))]))
    return position(*units)


@pytest.mark.parametrize("seed", range(12))
def test_measure_gives_the_rows_of_distance(seed: int) -> None:
    """``ShooterFacts.measure`` of random enemy lists keeps, per enemy unit, the row minima
    a fresh ShooterFacts' ``distance`` gives (04.02 range: the closest model), float for
    float, and leaves range facts unchanged."""
    rng = random.Random(seed)
    g = start(_position(rng))
    ctx, u = g.ctx, g.state.unit("red.a")
    facts = ShooterFacts(ctx, u)
    enemies = [e.id for e in facts.enemies]
    facts.measure(rng.sample(enemies, rng.randint(2, len(enemies))) + enemies[:1])
    plain = ShooterFacts(ctx, u)
    plain.vis = Visibility(plain.vis.scene, jit=False)  # nothing kept from ``facts``
    w = WeaponProfile.from_json(weapon("w", rng.choice([6, 12, 24, 36])))
    for m in u.alive:
        for e in enemies:
            assert facts.distance(m.id, e) == plain.distance(m.id, e), (seed, m.id, e)
            assert facts.range_facts(m.id, w, e) == plain.range_facts(m.id, w, e)


def _legal_declarations(rng: random.Random) -> list[Selection]:
    """Random legal shooting declarations of a unit with pistols, rifles and twin copies."""
    bolt, pistol = WeaponProfile.from_json(BOLTGUN), WeaponProfile.from_json(PISTOL)
    models = tuple(AttackingModel(f"m{i}", rng.choice([(bolt,), (bolt, bolt), (pistol, bolt),
                                                        (pistol, pistol, bolt)]),
                                  monster_or_vehicle=rng.random() < 0.2)
                   for i in range(4))
    targets = tuple(TargetUnit(f"t{k}") for k in range(3))
    facts = {(m.name, w.name, t.name): WeaponFacts(visible=True, in_range=True,
                                                   half_range=rng.random() < 0.5)
             for m in models for w in m.weapons for t in targets}
    out: list[Selection] = []
    while len(out) < 20:
        decl = []
        for m in models:
            ws = [w for w in m.weapons if rng.random() < 0.8]
            decl.append(ModelChoice(m.name, tuple(
                WeaponChoice(w.name, (rng.choice(targets).name,)) for w in ws)))
        sel = Selection(AttackKind.NORMAL, models, targets, facts, tuple(decl))
        if not validate_selection(sel):
            out.append(sel)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_parts_of_a_legal_shooting_declaration_are_legal(seed: int) -> None:
    """Every part of a legal shooting declaration (per target, per subset of its weapon
    choices, as the resolution groups them) passes ``validate_selection`` (04.01, 04.02,
    24.07, 24.26), and ``gather_requests(checked=True)`` equals the checked call."""
    rng = random.Random(seed)
    for sel in _legal_declarations(rng):
        shots = [(c.model, wc) for c in sel.declaration for wc in c.weapons]
        for k in range(len(shots) + 1):
            for part in itertools.islice(itertools.combinations(shots, k), 12):
                per: dict[str, list[WeaponChoice]] = {}
                for mid, wc in part:
                    per.setdefault(mid, []).append(wc)
                sub = Selection(sel.kind, sel.models, sel.targets, sel.facts,
                                tuple(ModelChoice(m, tuple(ws)) for m, ws in per.items()))
                assert not validate_selection(sub), (seed, part)
                assert gather_requests(sub, checked=True) == gather_requests(sub)
