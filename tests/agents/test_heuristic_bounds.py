"""The heuristic player values only what may decide (issue 10, pass heur8): a target's whole
value bounds every estimate on it (``value_bound``), so the hunt's prey, the charge and the
fall-back's guns test skip the candidates whose bound is below the best found, and choose
what the full valuation chose. The per-call shortcuts (kept weapon picks, the pool profile
the exact maths keep, the 2" links from plain floats) give the same values."""

from __future__ import annotations

import dataclasses
import random
from typing import cast

import pytest

from w40k.agents import HeuristicAgent
from w40k.agents.heuristic import (
    DECLINES,
    MIN_CHARGE_P,
    MIN_CHARGE_VALUE,
    charge_bound,
    charge_choice,
)
from w40k.agents.heuristic_attacks import _links
from w40k.agents.heuristic_eval import (
    ENGAGEMENT,
    Estimates,
    Outcome,
    _best_melee,
    _ranged_weapons,
    best_melee,
    gap,
    move_of,
    oc_on,
    on_objective,
    p_charge,
    ranged_weapons,
    unit_gap,
    value_bound,
    value_of,
)
from w40k.agents.heuristic_plan import prey
from w40k.core.profiles import WeaponProfile
from w40k.engine.game import Game
from w40k.engine.requests import K, Request
from w40k.engine.serial import JSON
from w40k.engine.state import GameState, ModelData, UnitData
from w40k.io.battle_setup import default_position, real_battle_position
from w40k.math.api import profile
from w40k.rules.attack_profile import AttackContext, WeaponEntry, pool_profile


# -- the bound -----------------------------------------------------------------------------------
def test_a_targets_whole_value_bounds_every_estimate_on_it() -> None:
    # Every unit's melee and ranged estimates on every enemy unit, a wounded target's too, and
    # the greatest outcome there is (every model, every wound, destroyed for sure) are within
    # the bound; a unit with no model left is worth nothing.
    game = Game.new(real_battle_position(), 1)
    s = game.state
    est = Estimates(s)
    for u in s.units:
        foes = s.units_of(s.opponent(u.player))
        for e in foes:
            bound = value_bound(e)
            assert value_of(est.melee_outcome(u, e, charged=True), e) <= bound
            assert value_of(est.ranged_outcome(u, e, distance=6.0), e) <= bound
            wounds = sum(m.profile.W - m.wounds_lost for m in e.alive)
            whole = value_of(Outcome(float(len(e.alive)), float(wounds), 1.0), e)
            assert whole <= bound <= whole * (1 + 1e-8) + 1e-8
    e = max(s.units, key=lambda x: x.alive[0].profile.W)
    e.alive[0].wounds_lost = e.alive[0].profile.W - 1
    wounds = sum(m.profile.W - m.wounds_lost for m in e.alive)
    assert value_of(Outcome(float(len(e.alive)), float(wounds), 1.0), e) <= value_bound(e)
    for m in e.models:
        m.destroyed = True
    assert value_bound(e) == 0.0


def test_the_charge_bound_is_at_least_the_charges_gain_in_every_state() -> None:
    # charge_choice's gain is at most the bound from what is dealt (nothing taken back, no
    # objective left), and at most the bound from the target's whole value.
    game = Game.new(real_battle_position(), 2)
    s = game.state
    est = Estimates(s)
    for u in s.units:
        for e in s.units_of(s.opponent(u.player)):
            p, ev = charge_choice(s, u, e, est)
            on = [on_objective(e, (o.x, o.y)) for o in s.objectives]
            dealt = value_of(est.melee_outcome(u, e, charged=True), e)
            assert ev <= charge_bound(p, dealt, on) <= charge_bound(p, value_bound(e), on)


# -- choices with bounds equal the full valuation ------------------------------------------------
def _prey_afresh(u: UnitData, near: list[UnitData], est: Estimates) -> UnitData:
    return max(near, key=lambda x: (value_of(est.melee_outcome(u, x, charged=True), x)
                                    - 0.1 * unit_gap(u, x), x.id))


def _select_charge_afresh(s: GameState, r: Request, est: Estimates) -> JSON:
    best: tuple[float, str] | None = None
    for o in r.options:
        if o in DECLINES:
            continue
        u = s.unit(str(o))
        for e in s.units_of(s.opponent(u.player)):
            d = unit_gap(u, e)
            if d > 12.0 or p_charge(d) < MIN_CHARGE_P:
                continue
            p, ev = charge_choice(s, u, e, est)
            if p >= MIN_CHARGE_P and ev >= MIN_CHARGE_VALUE and (best is None or ev > best[0]):
                best = (ev, str(o))
    if best is not None:
        return best[1]
    return "done" if r.accepts("done") else r.options[-1]


def _falls_back_afresh(s: GameState, u: UnitData, est: Estimates) -> bool | None:
    """``move_type``'s engaged answer as before: fall back (True), stay (False); None when
    the unit is not engaged."""
    enemies = s.units_of(s.opponent(u.player))
    engaged = [e for e in enemies if unit_gap(u, e) <= ENGAGEMENT]
    if not engaged:
        return None
    mine = sum(value_of(est.melee_outcome(u, e), e) for e in engaged)
    theirs = sum(value_of(est.melee_outcome(e, u), u) for e in engaged)
    if not theirs > 1.5 * mine:
        return False
    guns = max((value_of(est.ranged_outcome(u, e, distance=12.0), e) for e in enemies),
               default=0.0)
    held = guns > mine and any(
        on_objective(u, (o.x, o.y)) and oc_on(u, (o.x, o.y)) > sum(
            oc_on(e, (o.x, o.y)) for e in engaged) for o in s.objectives)
    return guns > mine and not held


@pytest.mark.parametrize("battle", ["default", "real"])
def test_choices_valued_within_their_bounds_are_the_full_valuations(battle: str) -> None:
    # A whole battle: at every request the heuristic's bounded choices (the hunt's prey of
    # each unit, the unit to charge, the fall-back of an engaged unit offered Ordered
    # Retreat) equal the full valuation's.
    if battle == "default":
        game = Game.new(default_position(), 3)
    else:
        game = Game.new(real_battle_position(rounds=3), 1)
    agents = {p.name: HeuristicAgent(7 + i, strict=True)
              for i, p in enumerate(game.state.players)}
    seen: dict[str, int] = {}
    while (req := game.pending()) is not None:
        s = game.state
        agent = agents[req.player]
        est = Estimates(s)
        kind = str(req.kind)
        if kind == K.SELECT_UNIT_TO_MOVE:
            for u in s.units_of(req.player):
                enemies = s.units_of(s.opponent(u.player))
                if enemies:
                    reach = move_of(u) * 2 + 12.0
                    near = [e for e in enemies if unit_gap(u, e) <= reach] or enemies
                    assert prey(u, near, est) is _prey_afresh(u, near, est)
                    seen["prey"] = seen.get("prey", 0) + 1
        elif kind == K.SELECT_UNIT_TO_CHARGE:
            assert agent._select_charge(game, req) == _select_charge_afresh(s, req, est)
            seen[kind] = seen.get(kind, 0) + 1
        elif kind == K.MOVE_TYPE and "fall_back_ordered" in req.options:
            u = s.unit(str(req.context["unit"]))
            want_back = _falls_back_afresh(s, u, est)
            if want_back is not None and (s.round, s.turn_player, u.id) not in agent._gave_up:
                answer = agent._move_type(game, req)
                assert (answer == "fall_back_ordered") == want_back
                seen[kind] = seen.get(kind, 0) + 1
        game.submit(agent.choose(game, req), player=req.player, request_id=req.id)
    assert seen.get("prey", 0) > 5 and seen.get(K.SELECT_UNIT_TO_CHARGE, 0) > 0
    if battle == "real":
        assert seen.get(K.MOVE_TYPE, 0) > 0


def test_the_bounded_choices_follow_a_changed_best() -> None:
    # The best prey destroyed (its bound now 0, its gap infinite), another unit is the prey,
    # the one the full valuation picks: nothing is kept between the calls.
    game = Game.new(real_battle_position(), 1)
    s = game.state
    est = Estimates(s)
    u = s.units_of(s.players[0].name)[0]
    enemies = s.units_of(s.opponent(u.player))
    first = prey(u, enemies, est)
    assert first is _prey_afresh(u, enemies, est)
    for m in first.models:
        m.destroyed = True
    again = [*(e for e in enemies if e is not first), first]
    assert prey(u, again, est) is _prey_afresh(u, again, est)
    assert prey(u, again, est) is not first


# -- per-call shortcuts ------------------------------------------------------------------------
def test_kept_weapon_picks_equal_fresh_ones_and_are_new_lists() -> None:
    game = Game.new(real_battle_position(), 1)
    for u in game.state.units:
        for m in u.models:
            assert best_melee(m) == _best_melee(tuple(m.weapons))
            assert ranged_weapons(m) == _ranged_weapons(tuple(m.weapons), m.profile)
            picked = best_melee(m)
            picked.append(picked[0]) if picked else picked.append(m.weapons[0])
            assert best_melee(m) == _best_melee(tuple(m.weapons))  # the kept list unchanged
            # a model given another profile or weapons reads its own
            monster = dataclasses.replace(m.profile, keywords=(*m.profile.keywords, "MONSTER"))
            other = dataclasses.replace(m, profile=monster)
            assert ranged_weapons(other) == [w for w in m.weapons if not w.is_melee]
            fewer = dataclasses.replace(m, weapons=tuple(m.weapons[:1]))
            assert best_melee(fewer) == _best_melee(tuple(m.weapons[:1]))
            listed = dataclasses.replace(m, weapons=cast(tuple[WeaponProfile, ...],
                                                         list(m.weapons)))
            assert best_melee(listed) == _best_melee(tuple(m.weapons))


def test_the_kept_pool_profile_is_pool_profiles() -> None:
    # Every weapon of the real battle on every unit, at and beyond half range, counted,
    # charged or not: the same profile, asked twice (computed, then kept).
    from w40k.agents.heuristic_eval import target_states
    game = Game.new(real_battle_position(), 1)
    units = game.state.units
    weapons = {w for u in units for m in u.models for w in m.weapons}
    for w in sorted(weapons, key=lambda w: w.name):
        for t in units[:: 3]:
            models = target_states(t)
            for half in (True, False):
                entry = WeaponEntry(w, 2, half)
                for ctx in (AttackContext(target_models_at_select=len(models)),
                            AttackContext(charged=True, target_models_at_select=3)):
                    want = pool_profile(entry, models, ctx)
                    assert profile(entry, models, ctx) == want
                    assert profile(entry, list(models), ctx) == want


def _links_afresh(models: list[ModelData]) -> list[list[int]] | None:
    n = len(models)
    out: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            ab = gap(models[i], models[j]) <= 2.0
            if ab != (gap(models[j], models[i]) <= 2.0):
                return None
            if ab:
                out[i].append(j)
                out[j].append(i)
    return out


def test_the_links_from_plain_floats_are_gaps_both_ways() -> None:
    # Random formations and lines of bases exactly 2" apart edge to edge (where gap may
    # differ in the last bit between the two orders): the same links, or None alike.
    s = Game.new(default_position(), 1).state
    base = max(s.units, key=lambda u: len(u.models)).models
    rng = random.Random(5)
    for _ in range(400):
        n = rng.randint(1, min(10, len(base)))
        spacing = rng.choice((None, 2.0, 2.0, 1.0))
        unit = []
        for i, m in enumerate(base[:n]):
            if spacing is None:
                x, y = rng.uniform(0, 12), rng.uniform(0, 12)
            else:
                step = spacing + 2 * (m.profile.base_mm or 32) / 25.4 / 2
                x, y = rng.uniform(0, 30) + i * step, rng.uniform(0, 30)
            unit.append(dataclasses.replace(m, x=x, y=y))
        want = _links_afresh(unit)
        assert _links(unit) == want
