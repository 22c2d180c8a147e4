"""The charge and fight phases' own listings (charge22): each fast path against the plain
computation it replaces.

- ``fight._within_reach`` (R12.08-d's objective test of a consolidating unit) leaves a marker
  unmeasured where the discs' gap (the model's ``reach()`` disc and the marker's) is beyond
  3" by ``MARKER_SLACK``: compared with ``objective_distance(...) <= 3" + 1e-9`` for round,
  oval and hull bases, markers put on the threshold and within 1e-9" / 1e-6" of it.
- ``charge.eligible_to_charge`` tests R23.04-b's ignored enemies lazily inside its "any".
- ``movement._embark_options`` makes the moved models' shapes only for a transport.
"""

from __future__ import annotations

import math
import random

import pytest

from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.engine import geo
from w40k.engine.actions import started_this_turn
from w40k.engine.aircraft import visible_enemies
from w40k.engine.context import Context
from w40k.engine.phases import charge, fight, movement
from w40k.engine.phases import charge_propose as cp
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.phases.melee_measure import objective_distance, units_within
from w40k.engine.state import ObjectiveData, UnitData
from w40k.geometry import Model
from w40k.geometry.measure import MARKER_DIAMETER_MM, ObjectiveMarker
from w40k.geometry.shapes import mm


def _plain_reach(m: Model, o: ObjectiveData) -> bool:
    return objective_distance(None, m, o) <= fight.CONSOLIDATE_REACH + 1e-9  # type: ignore[arg-type]


def _model(rng: random.Random, x: float, y: float) -> Model:
    kind = rng.randrange(3)
    facing = rng.uniform(-math.pi, math.pi)
    if kind == 0:
        return Model("m", x, y, 0.0, rng.choice((25.0, 32.0, 40.0, 60.0)), 1.6, facing)
    if kind == 1:
        return Model("m", x, y, 0.0, (rng.uniform(60.0, 120.0), rng.uniform(35.0, 90.0)), 2.0,
                     facing)
    hull = ((-1.5, -1.0), (1.8, -0.9), (2.0, 0.8), (-1.2, 1.1))
    return Model("m", x, y, 0.0, None, 3.0, facing, hull=hull)


def test_marker_radius_is_the_markers_disc() -> None:
    assert ObjectiveMarker(1.0, 2.0).shape().r == fight.MARKER_RADIUS
    assert mm(MARKER_DIAMETER_MM) / 2 == fight.MARKER_RADIUS


def test_within_reach_equals_the_measured_test_R12_08_d() -> None:
    # R12.08-d: within 3" of an objective marker, measured from the footprint to the disc.
    rng = random.Random(2208)
    seen = {True: 0, False: 0}
    screened = 0
    for _ in range(3000):
        m = _model(rng, rng.uniform(10.0, 50.0), rng.uniform(10.0, 40.0))
        ang = rng.uniform(-math.pi, math.pi)
        fp = m.footprint()
        if rng.random() < 0.5:
            # on the threshold of a round base's measure, or of the discs' gap, give or take
            # an ulp-sized, 1e-9" or 1e-6" step
            base = fight.CONSOLIDATE_REACH + fight.MARKER_RADIUS
            base += (fp.r if hasattr(fp, "r") and not hasattr(fp, "a") else m.reach())
            if rng.random() < 0.5:
                base += fight.MARKER_SLACK
            d = base + rng.choice((0.0, 1e-15, -1e-15, 1e-9, -1e-9, 1e-6, -1e-6, 2e-6, -2e-6))
        else:
            d = rng.uniform(0.0, 8.0)
        o = ObjectiveData("o", m.x + d * math.cos(ang), m.y + d * math.sin(ang))
        want = _plain_reach(m, o)
        seen[want] += 1
        gap = math.hypot(m.x - o.x, m.y - o.y) - m.reach() - fight.MARKER_RADIUS
        screened += gap > fight.CONSOLIDATE_REACH + fight.MARKER_SLACK
        assert fight._within_reach(None, m, o) is want  # type: ignore[arg-type]
    assert seen[True] > 300 and seen[False] > 300 and screened > 300


def test_within_reach_measures_area_objectives(monkeypatch: pytest.MonkeyPatch) -> None:
    # R12.08-d, 14.01: a terrain objective is always measured (no screen).
    calls = []

    def fake(ctx: object, m: Model, o: ObjectiveData) -> float:
        calls.append(o.name)
        return 2.5 if o.name == "near" else 3.5

    monkeypatch.setattr(fight, "objective_distance", fake)
    m = Model("m", 0.0, 0.0)
    assert fight._within_reach(None, m, ObjectiveData("near", 60.0, 60.0, area="a"))  # type: ignore[arg-type]
    assert not fight._within_reach(None, m, ObjectiveData("far", 0.0, 0.0, area="a"))  # type: ignore[arg-type]
    assert calls == ["near", "far"]


def _plain_eligible(ctx: Context, u: UnitData) -> bool:
    """``eligible_to_charge`` as it was: the ignored enemies left out first."""
    if u.destroyed or u.flag("selected_to_charge") or u.flag("advanced") or u.flag("fell_back") \
            or u.flag("emergency_disembark") or u.has("AIRCRAFT") or u.flag("surged"):
        return False
    if started_this_turn(ctx, u.id) or geo.is_engaged(ctx, u):
        return False
    return any(units_within(u, e, charge.CHARGE_RANGE) for e in visible_enemies(
        u, ctx.state.units_of(ctx.state.opponent(u.player))))


@pytest.mark.parametrize("seed", [1, 3])
def test_charge_eligibility_and_embark_options_equal_the_plain_ones_R11_02_a(
        seed: int) -> None:
    # R11.02-a with R23.04-b's ignored AIRCRAFT; 18.02's transports (none near: none).
    total = within = 0
    for game in greedy_snapshots(seed, every=25, decisions=500):
        ctx, s = game.ctx, game.state
        for u in s.units:
            if u.destroyed:
                continue
            want = _plain_eligible(ctx, u)
            assert charge.eligible_to_charge(ctx, u) is want
            total += 1
            within += want
            for mt in ("normal", "advance", "fall_back_ordered"):
                models = [geo.model_shape(m) for m in u.alive]
                assert movement._embark_options(ctx, u, mt) == _plain_embark(ctx, u, mt, models)
    assert total > 50 and within > 5, (total, within)


def _plain_embark(ctx: object, u: object, mt: str, models: list[Model]) -> list[object]:
    from w40k.engine import offtable
    from w40k.rules.transport import embark_violations
    s = ctx.state  # type: ignore[attr-defined]
    move = "fall_back" if mt.startswith("fall_back") else mt
    out = []
    for t in s.units:
        if t.id == u.id or t.player != u.player or t.destroyed \
                or offtable.capacity_of(t) is None:  # type: ignore[attr-defined]
            continue
        hull = geo.model_shape(next(m for m in t.alive if m.profile.transport is not None))
        if embark_violations(models, hull, battle_round=s.round,
                             set_up_this_turn=u.flag("set_up_this_turn"),  # type: ignore[attr-defined]
                             move=move):
            continue
        if not offtable.can_carry(s, t, u):  # type: ignore[arg-type]
            out.append(t)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_chain_with_the_plain_list_of_avoided_models_R11_04_d(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # R11.04-b/c/d: the chain given the non-target enemy models as a bare list answers as
    # with a ``melee_moves.Group`` of them (which also made their discs), the same answers
    # and the same draws; the models come in the order of their least distance to a target.
    rng = random.Random(seed)
    answered = 0
    for game in greedy_snapshots(seed, every=40, decisions=400):
        ctx, s = game.ctx, game.state
        for u in s.units:
            if u.destroyed:
                continue
            enemies = [e for e in s.units_of(s.opponent(u.player))
                       if units_within(u, e, 12.0)]
            if not enemies:
                continue
            targets = rng.sample(enemies, rng.randint(1, min(2, len(enemies))))
            budget = rng.uniform(2.0, 12.0)
            attempt = rng.randrange(3)
            key = [min(mm_.model_to_unit(geo.model_shape(m), t) for t in targets)
                   for m in u.alive]
            plain = [u.alive[i] for _, i in sorted(zip(key, range(len(key)), strict=True))]
            start_d = {m.id: {t.id: mm_.model_to_unit(geo.model_shape(m), t) for t in targets}
                       for m in u.alive}
            assert sorted(u.alive, key=lambda m: min(start_d[m.id].values())) == plain
            r1, r2 = random.Random(seed * 7 + attempt), random.Random(seed * 7 + attempt)
            got = cp.propose_charge(ctx, u, targets, budget, r1, attempt)
            with monkeypatch.context() as mp:
                mp.setattr(cp, "NonTargets", mm_.Group)
                want = cp.propose_charge(ctx, u, targets, budget, r2, attempt)
            assert got == want and r1.getstate() == r2.getstate()
            answered += got is not None
    assert answered > 3
