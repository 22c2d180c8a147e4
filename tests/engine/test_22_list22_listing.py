"""The shooting listing's small exact cuts (list22): the same answers as the plain code.

- ``monster_or_vehicle`` reads two keys made once (``canonical_keyword`` of the constant
  words) instead of twice a call;
- ``Visibility._any_seen`` / ``_known_tally`` test a raw answer seen by identity
  (``s is CLEAR or (convention_visible and s is CONVENTION)``) instead of membership of the
  set ``_seen_values()`` (an Enum's ``__hash__`` is Python code);
- ``Visibility._seen`` parses the Lone Operative range only for a pair still seen;
- ``Visibility.stage_rows`` hands the unit pair's kept rule mask itself to the batch when
  every row is asked (the same mask as the copy cut to every row).

Checked on the seeded random scenes of ``test_los_batch`` (walls, areas, upper levels, ovals,
hidden INFANTRY, a Lone Operative unit; both PARTIAL_HEIGHT conventions) against the plain
computation written out here."""

from __future__ import annotations

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.core.keywords import canonical_keyword
from w40k.engine.phases.shooting_facts import monster_or_vehicle
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.los import Sight
from w40k.geometry.shapes import EPS
from w40k.geometry.sight_order import Tally
from w40k.geometry.visibility import (
    BLOCKED_REASON,
    PARTIAL_REASON,
    _hidden_reason,
    _lone_reason,
)


def _unit_pairs(v: Visibility) -> list[tuple[int, int]]:
    us = v.scene.units
    return [(i, j) for i in range(len(us)) for j in range(len(us)) if us[i].player != us[j].player]


@pytest.mark.parametrize("words", [
    (), ("MONSTER",), ("VEHICLE",), ("Monsters",), ("vehicles",), (" monster ",),
    ("INFANTRY", "CHARACTER"), ("INFANTRY", "Vehicle"), ("MONSTERS", "VEHICLES"),
    ("MONSTROUS",), ("VEHICLE-ish",), ("WALKER", "monster"),
])
def test_monster_or_vehicle_equals_the_canonical_keys(words: tuple[str, ...]) -> None:
    """R10.06 / R17.03: the kept keys answer as ``canonical_keyword`` made per call."""
    keys = frozenset(canonical_keyword(w) for w in words)
    plain = canonical_keyword("MONSTER") in keys or canonical_keyword("VEHICLE") in keys
    assert monster_or_vehicle(keys) == plain


def _plain_seen(v: Visibility, ou: int, om: int, tu: int, tm: int) -> tuple[bool, str]:
    """``Visibility._seen`` as it was written before (the Lone Operative range read first)."""
    units = v.scene.units
    res = v.raw_sight(ou, om, tu, tm)
    reason = ""
    seen = res.sight is Sight.CLEAR or (res.sight is Sight.CONVENTION and v.convention_visible)
    if not seen:
        reason = BLOCKED_REASON if res.sight is Sight.BLOCKED else PARTIAL_REASON
    if (seen and v.hidden(tu, tm)
            and float(v.unit_distances(ou, tu)[om, tm]) > units[tu].detection_range + EPS):
        seen, reason = False, _hidden_reason(units[tu])
    lone = units[tu].lone_operative
    if seen and lone is not None and float(v.unit_distances(ou, tu)[om].min()) > lone + EPS:
        seen, reason = False, _lone_reason(lone)
    return seen, reason


def _plain_tally(v: Visibility, unit_pairs: set[tuple[int, int]]) -> Tally:
    """``_known_tally`` with the set membership of ``_seen_values()``."""
    seen_values = v._seen_values()
    units = v.scene.units
    tally = Tally()
    for ou, tu in unit_pairs:
        for om in range(len(units[ou].models)):
            for tm in range(len(units[tu].models)):
                k = (ou, om, tu, tm)
                known = v._seen_cache.get(k)
                if known is not None:
                    tally.add(k, known[0])
                    continue
                r = v._raw_cache.get(k)
                if r is not None:
                    tally.add(k, r.sight in seen_values)
    return tally


@pytest.mark.parametrize("seed", (0, 1, 2, 3, 4, 5, 6, 7))
def test_model_and_unit_sight_equal_the_plain_answers(seed: int) -> None:
    """R06.01-a, R13.09-b, R24.24-a: after the listing's rows are staged (every row of a unit
    pair, or some rows), ``model_sees`` and ``unit_sees`` equal the model pairs' own
    ``_seen`` written out (the raw answer with the convention, hidden, Lone Operative) and
    every kept visibility equals it; the tallies equal the set-membership count; the raw
    answers the batch kept equal a Visibility staged pair by pair with copied masks."""
    rng = np.random.default_rng(2200 + seed)
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    units = scene.units
    asked = 0
    for conv in (False, True):
        v = Visibility(scene, conv, jit=False)
        ref = Visibility(scene, conv, jit=False)
        plain = Visibility(scene, conv, jit=False)
        pairs = _unit_pairs(v)
        rows: dict[tuple[int, int], list[int]] = {}
        for ou, tu in pairs:
            no = len(units[ou].models)
            if rng.random() < 0.5:
                rows[(ou, tu)] = [int(x) for x in rng.permutation(no)]  # every row, shuffled
            else:
                rows[(ou, tu)] = sorted({int(x) for x in rng.integers(0, no, size=no)})
        v.stage_rows(rows)
        # the plain code: every asked row cut from a copy of the mask, one pair at a time
        for (ou, tu), oms in rows.items():
            mask = plain._rule_mask(ou, tu)
            keep = np.zeros_like(mask)
            keep[oms] = mask[oms]
            plain._rows_staged.update((ou, tu, om) for om in oms)
            plain._batch_stage([(ou, tu)], [keep])
        assert {k: r.sight for k, r in v._raw_cache.items()} == \
            {k: r.sight for k, r in plain._raw_cache.items()}
        assert v._raw_cache.keys() == plain._raw_cache.keys()
        for ou, tu in pairs:
            nt = len(units[tu].models)
            for om in rows[(ou, tu)]:
                want = any(ref._rule_mask(ou, tu)[om, tm] and _plain_seen(ref, ou, om, tu, tm)[0]
                           for tm in range(nt))
                assert v.model_sees(ou, om, tu) == want, (seed, conv, ou, om, tu)
                asked += 1
            assert _plain_tally(v, {(ou, tu)}).observer == v._known_tally({(ou, tu)}).observer
            assert _plain_tally(v, {(ou, tu)}).target == v._known_tally({(ou, tu)}).target
            whole = any(ref._rule_mask(ou, tu)[om, tm] and _plain_seen(ref, ou, om, tu, tm)[0]
                        for om in range(len(units[ou].models)) for tm in range(nt))
            assert v.unit_sees(ou, tu) == whole, (seed, conv, ou, tu)
        for k, got in v._seen_cache.items():
            assert got == _plain_seen(ref, *k), (seed, conv, k)
    assert asked > 20


@pytest.mark.parametrize("seed", (0, 1, 2, 3, 4, 5, 6, 7))
def test_known_raw_answers_read_as_the_plain_code(seed: int) -> None:
    """With every raw answer known first (CONVENTION ones among them, none yet in the kept
    visibility), ``model_sees``, ``unit_sees`` and the tallies read them as the set
    membership does, under both conventions; ``_seen`` of every model pair, those a rule
    hides included (13.09, 24.24), equals the plain code's answer and reason."""
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    units = scene.units
    for conv in (False, True):
        v = Visibility(scene, conv, jit=False)
        ref = Visibility(scene, conv, jit=False)
        pairs = _unit_pairs(v)
        v.prepare(pairs)  # every raw answer known, no visibility kept yet
        for ou, tu in pairs:
            assert _plain_tally(v, {(ou, tu)}).observer == v._known_tally({(ou, tu)}).observer
            assert _plain_tally(v, {(ou, tu)}).target == v._known_tally({(ou, tu)}).target
            seen_values = v._seen_values()
            mask = v._rule_mask(ou, tu)
            raw = [[v._raw_cache[(ou, om, tu, tm)].sight in seen_values and bool(mask[om, tm])
                    for tm in range(len(units[tu].models))]
                   for om in range(len(units[ou].models))]
            for om, row in enumerate(raw):
                assert v.model_sees(ou, om, tu) == any(row), (seed, conv, ou, om, tu)
            assert v.unit_sees(ou, tu) == any(map(any, raw)), (seed, conv, ou, tu)
        for ou, tu in pairs:
            for om in range(len(units[ou].models)):
                for tm in range(len(units[tu].models)):
                    k = (ou, om, tu, tm)
                    assert v._seen(*k) == _plain_seen(ref, *k), (seed, conv, k)


def test_the_scenes_have_what_the_cuts_read() -> None:
    """A guard: the scenes hold CONVENTION answers, hidden models, a Lone Operative unit seen
    from beyond its range, and full and partial row sets."""
    convention = lone_beyond = hidden = 0
    for seed in range(8):
        scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
        v = Visibility(scene, jit=False)
        units = scene.units
        for ou, tu in _unit_pairs(v):
            v.stage(ou, tu)
            lone = units[tu].lone_operative
            d = v.unit_distances(ou, tu)
            for om in range(len(units[ou].models)):
                if lone is not None and float(d[om].min()) > lone + EPS:
                    lone_beyond += 1
                for tm in range(len(units[tu].models)):
                    if v.raw_sight(ou, om, tu, tm).sight is Sight.CONVENTION:
                        convention += 1
            hidden += int(v._hidden_models(tu).sum())
    assert convention > 0 and lone_beyond > 0 and hidden > 0


@pytest.mark.parametrize("answers", [
    ("CONVENTION",), ("BLOCKED", "CONVENTION"), ("BLOCKED", "BLOCKED"), ("CLEAR", "BLOCKED"),
    ("BLOCKED", "CONVENTION", "CLEAR"),
])
def test_a_row_of_known_answers_reads_convention_by_the_setting(answers: tuple[str, ...]) -> None:
    """R06.01 with the PARTIAL_HEIGHT convention: a row whose known raw answers are these
    (the rest of the row BLOCKED) is seen exactly when one is CLEAR, or CONVENTION with
    ``convention_visible``; ``model_sees``, ``unit_sees`` and the tally read it so."""
    from w40k.geometry.los_obstacles import SightResult

    scene = scene_from_dict(random_scene(np.random.default_rng(501)))
    units = scene.units
    for conv in (False, True):
        v = Visibility(scene, conv, jit=False)
        ou, tu = next((a, b) for a, b in _unit_pairs(v)
                      if len(units[b].models) >= len(answers) and v._rule_mask(a, b).all())
        for om in range(len(units[ou].models)):
            for tm in range(len(units[tu].models)):
                name = answers[tm] if om == 0 and tm < len(answers) else "BLOCKED"
                r = SightResult(Sight[name], ((0.0, 0.0), (1.0, 1.0)) if name == "CLEAR" else None)
                v._raw_cache[(ou, om, tu, tm)] = r
                v._raw_cache[(tu, tm, ou, om)] = r.turned()
        want = "CLEAR" in answers or (conv and "CONVENTION" in answers)
        assert _plain_tally(v, {(ou, tu)}).target == v._known_tally({(ou, tu)}).target
        assert _plain_tally(v, {(ou, tu)}).observer == v._known_tally({(ou, tu)}).observer
        v._staged.add((ou, tu))  # (the answers above stand for the batch's)
        assert v.model_sees(ou, 0, tu) == want
        assert v.unit_sees(ou, tu) == want


def _plain_range(d: float, reach: float, lone: float | None) -> tuple[bool, bool, bool]:
    """04.02 range and half range, 24.24 Lone Operative beyond, for one distance."""
    return (d <= reach + EPS, d <= reach / 2.0 + EPS, lone is not None and d > lone + EPS)


@pytest.mark.parametrize("seed", range(10))
def test_range_facts_kept_by_row_equal_each_models_own(seed: int) -> None:
    """R04.02-a, R24.24-a: ``range_facts`` kept per (weapon range, target) for every model
    equals each model's own tests on its distance, with ranges and Lone Operative ranges put
    exactly at, and 1e-9" and 1e-12" around, the models' distances (and half ranges), asked
    in a random order of models, weapons and targets."""
    import dataclasses
    import random

    from tests.engine.shooting_helpers import start, weapon
    from tests.engine.test_16_shoot_measures import _position
    from w40k.core.profiles import WeaponProfile
    from w40k.engine.phases.shooting_facts import ShooterFacts

    rng = random.Random(seed)
    g = start(_position(rng))
    ctx, u = g.ctx, g.state.unit("red.a")
    facts = ShooterFacts(ctx, u)
    plain = ShooterFacts(ctx, u)
    enemies = [e.id for e in facts.enemies]
    dists = [plain.distance(m.id, e) for m in u.alive for e in enemies]
    reaches = {6.0, 12.0, 24.0}
    for d in rng.sample(dists, min(4, len(dists))):
        for off in (0.0, EPS, -EPS, 1e-9, -1e-9, 1e-12, -1e-12):
            reaches |= {max(0.5, d - EPS + off), max(0.5, 2.0 * (d - EPS) + off)}
    weapons = [WeaponProfile.from_json(weapon(f"w{i}", 24)) for i in range(len(reaches))]
    weapons = [dataclasses.replace(w, range=r) for w, r in zip(weapons, sorted(reaches),
                                                                strict=True)]
    lones: dict[str, float | None] = {}
    for e in enemies:
        pick = rng.random()
        lones[e] = (None if pick < 0.3 else
                    max(0.5, rng.choice(dists) - EPS + rng.choice((0.0, 1e-9, -1e-9))))
        facts._lone[e] = lones[e]  # (a Lone Operative range put at a model's distance)
    asks = [(m.id, w, e) for m in u.alive for w in weapons for e in enemies]
    rng.shuffle(asks)
    for mid, w, e in asks:
        assert w.range is not None
        got = facts.range_facts(mid, w, e)
        want = _plain_range(plain.distance(mid, e), w.range, lones[e])
        assert (got.in_range, got.half_range, got.lone_operative_beyond) == want, (mid, w, e)
        assert got.visible and not got.engaged_with_model
