"""The heuristic player's own thinking, done with less work (issue 10, pass heur6): each
shortcut gives the answer the full evaluation gave. Declarations keep one weapon's value at a
target for the whole declaration; the plan's hold step reads each unit's bases once; a mission
action's valuation stops at the first enemy unit its shooting is worth the VP against;
Counteroffensive is nil without a threat, whatever the unit deals."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import pytest

from tests.engine.core_helpers import command_phase, unit
from tests.engine.melee_helpers import fighter
from w40k.agents import HeuristicAgent
from w40k.agents import heuristic_actions as ha
from w40k.agents.heuristic_attacks import (
    _best_melee_target,
    _melee_value,
    _on_any_objective,
    _weapon_value,
    fight_declaration,
    shooting_declaration,
    target_score,
)
from w40k.agents.heuristic_eval import (
    Estimates,
    best_melee,
    max_range,
    on_objective,
    unit_gap,
    value_of,
)
from w40k.agents.heuristic_plan import _bases, _near
from w40k.agents.heuristic_stratagems import (
    STRATAGEM_COSTS,
    choose_stratagem,
    cp_threshold,
    option_value,
)
from w40k.core.abilities import CloseQuarters, ExtraAttacks
from w40k.core.dice import RollKind
from w40k.core.profiles import WeaponProfile
from w40k.engine.game import Game
from w40k.engine.requests import K, Request
from w40k.engine.serial import JSON
from w40k.engine.state import GameState, UnitData
from w40k.engine.stratagems.interventions import FRAY
from w40k.io.battle_setup import default_position, real_battle_position
from w40k.rules.primitives import ModelState


# -- the declarations, as valued before this pass (each model's weapons afresh) ----------------
def _shooting_afresh(state: GameState, context: Mapping[str, JSON]) -> dict[str, JSON]:
    u = state.unit(str(context["unit"]))
    table = cast(dict[str, dict[str, list[str]]], context["targets"])
    free = str(context.get("type", "normal")) == "close_quarters"
    models = {m.id: m for m in u.alive}
    reach: dict[str, list[WeaponProfile]] = {}
    for mid, per in table.items():
        m = models.get(mid)
        if m is None:
            continue
        for w in m.weapons:
            for tid in per.get(w.name, []) if not w.is_melee else []:
                reach.setdefault(tid, []).append(w)
    if not reach:
        return {}
    primary = max(sorted(reach), key=lambda t: target_score(state, u, state.unit(t), reach[t]))
    out: dict[str, JSON] = {}
    for mid, per in table.items():
        m = models.get(mid)
        if m is None:
            continue
        usable = [w for w in m.weapons if not w.is_melee and per.get(w.name)]
        if not usable:
            continue
        groups = [usable]
        if not free and not (m.profile.keys & {"MONSTER", "VEHICLE"}):
            cq = [w for w in usable if any(isinstance(a, CloseQuarters) for a in w.abilities)]
            other = [w for w in usable if w not in cq]
            groups = [g for g in (other, cq) if g]
        best: tuple[float, dict[str, JSON]] | None = None
        for g in groups:
            answer: dict[str, list[JSON]] = {}
            score = 0.0
            for w in g:
                legal = per[w.name]
                tid = primary if primary in legal else max(
                    legal, key=lambda t: (_weapon_value(state, u, w, 1, state.unit(t)), t))
                score += _weapon_value(state, u, w, 1, state.unit(tid))
                answer.setdefault(w.name, []).append(tid)
            packed = {k: (v[0] if len(v) == 1 else list(v)) for k, v in answer.items()}
            if best is None or score > best[0] + 1e-12:
                best = (score, packed)
        if best is not None:
            out[mid] = cast(JSON, best[1])
    return out


def _fight_afresh(state: GameState, context: Mapping[str, JSON]) -> dict[str, JSON]:
    u = state.unit(str(context["unit"]))
    table = cast(dict[str, list[str]], context["targets"])
    charged = u.flag("charged")
    everyone = sorted({t for ts in table.values() for t in ts})
    if not everyone:
        return {}

    def unit_score(tid: str) -> float:
        t = state.unit(tid)
        total = 0.0
        for mid, ts in table.items():
            m = next((x for x in u.alive if x.id == mid), None)
            if m is not None and tid in ts:
                total += sum(_melee_value(state, u, w, t, charged) for w in best_melee(m))
        return total * (1.3 if _on_any_objective(state, t) else 1.0)

    primary = max(everyone, key=unit_score)
    out: dict[str, JSON] = {}
    for m in u.alive:
        ts = table.get(m.id, [])
        if not ts:
            continue
        tid = primary if primary in ts else _best_melee_target(state, u, m, ts, charged)
        target = state.unit(tid)
        melee = [w for w in m.weapons if w.is_melee]
        extra = [w for w in melee if any(isinstance(a, ExtraAttacks) for a in w.abilities)]
        others = [w for w in melee if w not in extra]
        picked = extra[:]
        if others:
            picked.insert(0, max(others, key=lambda w: (
                _melee_value(state, u, w, target, charged), w.name)))
        out[m.id] = {w.name: tid for w in picked}
    return out


def test_the_declarations_with_kept_weapon_values_are_the_ones_valued_afresh() -> None:
    # A whole battle of the default position (terrain, five objectives): every shooting and
    # fight declaration the heuristic makes equals the one valuing each model's weapons anew.
    game = Game.new(default_position(), 3)
    agents = {"red": HeuristicAgent(7, strict=True), "blue": HeuristicAgent(8, strict=True)}
    seen = {K.DECLARE_SHOOTING: 0, K.DECLARE_FIGHT: 0}
    while (req := game.pending()) is not None:
        if req.kind == K.DECLARE_SHOOTING:
            assert shooting_declaration(game.state, req.context) == _shooting_afresh(
                game.state, req.context)
            seen[K.DECLARE_SHOOTING] += 1
        elif req.kind == K.DECLARE_FIGHT:
            assert fight_declaration(game.state, req.context) == _fight_afresh(
                game.state, req.context)
            seen[K.DECLARE_FIGHT] += 1
        game.submit(agents[req.player].choose(game, req), player=req.player,
                    request_id=req.id)
    assert seen[K.DECLARE_SHOOTING] > 5 and seen[K.DECLARE_FIGHT] > 0


# -- the plan's hold step --------------------------------------------------------------------
@pytest.mark.parametrize("dx", [0.0, 3.0, 3.5, 3.0 + 20 / 25.4 + 16 / 25.4, 3.0 + 36 / 25.4,
                                3.0 + 36 / 25.4 + 1e-9, 6.0])
def test_the_plans_bases_on_a_marker_are_on_objective_to_the_last_bit(dx: float) -> None:
    # A 32 mm base at dx" from the marker's centre: within 3" of the 40 mm marker's edge or
    # not exactly as on_objective measures it; a destroyed model never counts.
    a = fighter("red.a.1", 10.0 + dx, 10.0)
    b = fighter("red.a.2", 10.0 + dx + 1.5, 10.0)
    game = Game.new(command_phase([unit("red.a", "red", [a, b])]), 1)
    u = game.state.unit("red.a")
    for xy in ((10.0, 10.0), (10.0, 10.0 + dx), (11.5, 10.0)):
        assert _near(_bases(u), xy) == on_objective(u, xy)
    u.models[0].destroyed = True
    assert _near(_bases(u), (10.0, 10.0)) == on_objective(u, (10.0, 10.0))


# -- a mission action's shooting, valued until it decides ------------------------------------
def test_shooting_value_stops_at_the_first_value_that_reaches_enough() -> None:
    game = Game.new(default_position(), 1)
    s = game.state
    est = Estimates(s)
    for u in s.units_of("red"):
        full = ha.shooting_value(game, u, est)
        values = [value_of(est.ranged_outcome(u, e), e) for e in s.units_of("blue")
                  if e.alive and unit_gap(u, e) <= max_range(u)]
        assert full == max(values, default=0.0)
        assert ha.shooting_value(game, u, est, enough=math.inf) == full
        if values:
            # the first value at least ``enough`` answers; below every value: the first one
            first = values[0]
            assert ha.shooting_value(game, u, est, enough=0.0) == first
            assert ha.shooting_value(game, u, est, enough=full) == full
            bar = full + 1.0  # beyond the best: every unit is valued, the best answered
            assert ha.shooting_value(game, u, est, enough=bar) == full


def test_counteroffensive_is_nil_when_no_engaged_enemy_threatens_the_unit() -> None:
    # The enemy unit has fought already: it threatens nothing before the unit fights, so
    # the value is nil without valuing what the unit deals.
    from w40k.agents.heuristic_stratagems import counteroffensive_value
    a = fighter("red.a.1", 10.0, 10.0)
    e = fighter("blue.e.1", 11.5, 10.0)
    game = Game.new(command_phase([unit("red.a", "red", [a]), unit("blue.e", "blue", [e])]), 1)
    s = game.state
    enemy = s.unit("blue.e")
    enemy.flags["fought"] = True
    assert counteroffensive_value(s, s.unit("red.a"), Estimates(s)) == 0.0
    enemy.flags.pop("fought")
    assert counteroffensive_value(s, s.unit("red.a"), Estimates(s)) > 0.0


# -- Fire Overwatch: the snap shooting first -------------------------------------------------
def _choose_afresh(game: Game, request: Request, est: Estimates) -> JSON | None:
    """``choose_stratagem`` as before this pass: every option valued in full."""
    facts = request.context.get("facts", {})
    assert isinstance(facts, dict)
    best: tuple[float, str, JSON] | None = None
    kept: dict[str, Any] = {}
    for option in request.options:
        if not (isinstance(option, list) and len(option) == 2 and isinstance(option[1], dict)):
            continue
        name, answer = str(option[0]), option[1]
        if name not in STRATAGEM_COSTS:
            continue
        value = option_value(game, request.player, name, answer, facts, est, kept=kept)
        cost = STRATAGEM_COSTS[name] + (1 if answer.get("mode") == FRAY else 0)
        charge = name == "Command Re-roll" and facts.get("kind") == RollKind.CHARGE
        margin = value - cp_threshold(game.state, request.player, cost, charge_reroll=charge)
        if margin > 0 and (best is None or (margin, str(option)) > best[:2]):
            best = (margin, str(option), option)
    return None if best is None else best[2]


@pytest.mark.stratagems
def test_fire_overwatch_valued_snap_shooting_first_chooses_as_the_full_valuation() -> None:
    # R15.08 windows of a whole real battle (the 1000-point armies, CP to spend): every
    # reaction's chosen stratagem is the one the full valuation of every option chose.
    game = Game.new(real_battle_position(rounds=2), 2)
    agents = {p.name: HeuristicAgent(11 + i, strict=True)
              for i, p in enumerate(game.state.players)}
    overwatch = 0
    while (req := game.pending()) is not None:
        if req.kind == K.REACTION and any(
                isinstance(o, list) and o and o[0] == "Fire Overwatch" for o in req.options):
            overwatch += 1
            for cp in (0, 1, 2, 6):  # thresholds from nothing to plenty
                game.state.player(req.player).cp, was = cp, game.state.player(req.player).cp
                est = Estimates(game.state)
                assert choose_stratagem(game, req, est) == _choose_afresh(game, req, est)
                game.state.player(req.player).cp = was
        game.submit(agents[req.player].choose(game, req), player=req.player,
                    request_id=req.id)
    assert overwatch > 0


# -- the math layer's models, built once per profile -------------------------------------------
def test_kept_model_states_equal_fresh_ones_after_wounds_and_for_an_equal_profile() -> None:
    import dataclasses

    from w40k.agents.heuristic_eval import _fresh_state, model_states, target_states
    game = Game.new(real_battle_position(), 1)
    units = [u for u in game.state.units if u.alive]

    def fresh(u: UnitData) -> tuple[ModelState, ...]:
        return tuple(_fresh_state(m.profile, m.wounds_lost, m.leader) for m in u.alive)
    for u in units:
        assert target_states(u) == fresh(u)
    big = max(units, key=lambda u: u.alive[0].profile.W)
    big.alive[0].wounds_lost = 1  # a wound: a new state for that model, the others kept
    assert target_states(big) == fresh(big) and target_states(big)[0].wounds_lost == 1
    m = big.alive[0]
    copy = dataclasses.replace(m.profile)  # equal, another object
    assert model_states([dataclasses.replace(m, profile=copy)]) == model_states([m])


def test_kept_model_values_are_the_wounds_with_characters_counting_double() -> None:
    import dataclasses

    from w40k.agents.heuristic_eval import Outcome, model_value, unit_value
    game = Game.new(real_battle_position(), 1)
    models = [m for u in game.state.units for m in u.alive]
    assert any(m.profile.is_character for m in models)
    for m in models:
        fresh = m.profile.W * (2.0 if m.profile.is_character else 1.0)
        assert model_value(m) == fresh and model_value(m) == fresh  # computed, then kept
        other = dataclasses.replace(m, profile=dataclasses.replace(m.profile, W=m.profile.W + 1))
        assert model_value(other) == fresh + (2.0 if m.profile.is_character else 1.0)
    for u in game.state.units:
        if u.alive:  # value_of's average model value is unit_value's
            o = Outcome(1.0, 0.0, 0.0)
            assert value_of(o, u) == unit_value(u) / len(u.alive)


def test_the_estimates_kept_contexts_equal_the_ones_built_for_each_estimate() -> None:
    from w40k.agents.heuristic_eval import _melee_context, _ranged_context
    from w40k.rules.attack_profile import AttackContext
    game = Game.new(real_battle_position(), 1)
    for u in game.state.units:
        n = len(u.alive)
        for flag in (False, True):
            assert _melee_context(u, flag) == AttackContext(
                charged=flag, attacker_engaged_with_target=True, target_models_at_select=n)
            for snap in (False, True):
                assert _ranged_context(u, flag, snap) == AttackContext(
                    target_models_at_select=n, cover=flag, snap_shooting=snap)
