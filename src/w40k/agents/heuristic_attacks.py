"""The heuristic player's weapons and targets: shooting and fight declarations chosen by exact
expected damage (``heuristic_eval``), and its answers inside the attack sequence.

Shooting: the unit picks a primary target, the legal target on which all the weapons that
can reach it do the most (kills at the target's model value, finishing bonus, targets on
objectives counting more); every weapon that can shoot it does, and the others take their own
best target. A model that may fire either its [PISTOL] weapons or the others (24.07) fires the
group worth more. Fight: each model picks its best melee weapon (plus [EXTRA ATTACKS] ones,
24.11) against the best engaged target it can reach.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import cast

from w40k.agents.heuristic_eval import (
    attack_outcome,
    best_melee,
    gap,
    model_value,
    on_objective,
    radius,
    unit_gap,
    value_of,
)
from w40k.core.abilities import CloseQuarters, ExtraAttacks
from w40k.core.profiles import WeaponProfile
from w40k.engine.serial import JSON
from w40k.engine.state import GameState, ModelData, UnitData
from w40k.rules.attack_profile import AttackContext, WeaponEntry

OBJECTIVE_BONUS = 1.3
"""Targets within range of an objective are worth this much more (they score or deny)."""


def _on_any_objective(state: GameState, u: UnitData) -> bool:
    return any(on_objective(u, (o.x, o.y)) for o in state.objectives)


def _weapon_value(state: GameState, shooter: UnitData, w: WeaponProfile, count: int,
                  target: UnitData) -> float:
    if w.range is None or not target.alive:
        return 0.0
    half = unit_gap(shooter, target) <= w.range / 2
    o = attack_outcome(shooter, target, (WeaponEntry(w, count, half),),
                       AttackContext(target_models_at_select=len(target.alive)), melee=False,
                       state=state)
    bonus = OBJECTIVE_BONUS if _on_any_objective(state, target) else 1.0
    return value_of(o, target) * bonus


def target_score(state: GameState, shooter: UnitData, target: UnitData,
                 weapons: Sequence[WeaponProfile]) -> float:
    """The value of ``weapons`` (one entry per copy) of ``shooter`` shooting ``target``, with
    the modifiers the engine would apply (``heuristic_eval.adjusted``)."""
    if not weapons or not target.alive:
        return 0.0
    half = [w for w in weapons if w.range is not None
            and unit_gap(shooter, target) <= w.range / 2]
    es = [WeaponEntry(w, n, True) for w, n in _count(half).items()]
    es += [WeaponEntry(w, n, False) for w, n in _count(
        [w for w in weapons if w not in half]).items()]
    o = attack_outcome(shooter, target, es,
                       AttackContext(target_models_at_select=len(target.alive)), melee=False,
                       state=state)
    bonus = OBJECTIVE_BONUS if _on_any_objective(state, target) else 1.0
    return value_of(o, target) * bonus


def _count(ws: Sequence[WeaponProfile]) -> dict[WeaponProfile, int]:
    out: dict[WeaponProfile, int] = {}
    for w in ws:
        out[w] = out.get(w, 0) + 1
    return out


_Values = dict[tuple[WeaponProfile, str], float]
"""One declaration's values of one attack of a weapon at a target (by target id): the
unit's models carry the same few weapons, and each value reads only the state, the unit,
the weapon and the target, unchanged while the declaration is made."""


def _best_target(state: GameState, u: UnitData, w: WeaponProfile, legal: Sequence[str],
                 values: _Values | None = None) -> str:
    def key(t: str) -> tuple[float, str]:
        return (_one_shot(state, u, w, t, {} if values is None else values), t)
    return max(legal, key=key)


def _one_shot(state: GameState, u: UnitData, w: WeaponProfile, tid: str,
              values: _Values) -> float:
    """``_weapon_value`` of one copy of ``w`` at ``tid``, kept in ``values``."""
    v = values.get((w, tid))
    if v is None:
        v = values[(w, tid)] = _weapon_value(state, u, w, 1, state.unit(tid))
    return v


def _one_blow(state: GameState, u: UnitData, w: WeaponProfile, tid: str, charged: bool,
              values: _Values) -> float:
    """:func:`_melee_value` of ``w`` at ``tid``, kept in ``values`` (one declaration, one
    ``charged``)."""
    v = values.get((w, tid))
    if v is None:
        v = values[(w, tid)] = _melee_value(state, u, w, state.unit(tid), charged)
    return v


def _best_melee_target(state: GameState, u: UnitData, m: ModelData, ts: Sequence[str],
                       charged: bool, values: _Values | None = None) -> str:
    kept: _Values = {} if values is None else values

    def key(t: str) -> tuple[float, str]:
        return (sum(_one_blow(state, u, w, t, charged, kept) for w in best_melee(m)), t)
    return max(ts, key=key)


def shooting_declaration(state: GameState, context: Mapping[str, JSON]) -> dict[str, JSON]:
    """A declaration for a ``declare_shooting`` request (docs/battle.md), from its context's
    legal targets per model and weapon."""
    u = state.unit(str(context["unit"]))
    table = cast(dict[str, dict[str, list[str]]], context["targets"])
    free = str(context.get("type", "normal")) == "close_quarters"
    models = {m.id: m for m in u.alive}
    # every copy that can reach each target
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
    values: _Values = {}  # the models' weapons share their values (same floats)
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
                tid = primary if primary in legal else _best_target(state, u, w, legal,
                                                                    values)
                score += _one_shot(state, u, w, tid, values)
                answer.setdefault(w.name, []).append(tid)
            packed = {k: (v[0] if len(v) == 1 else list(v)) for k, v in answer.items()}
            if best is None or score > best[0] + 1e-12:
                best = (score, packed)
        if best is not None:
            out[mid] = cast(JSON, best[1])
    return out


def _melee_value(state: GameState, u: UnitData, w: WeaponProfile, target: UnitData,
                 charged: bool) -> float:
    """One attack of ``w`` by a model of ``u`` on ``target``, with the modifiers the engine
    would apply (``heuristic_eval.adjusted``)."""
    o = attack_outcome(u, target, (WeaponEntry(w, 1),),
                       AttackContext(charged=charged, attacker_engaged_with_target=True,
                                     target_models_at_select=len(target.alive)), melee=True,
                       state=state)
    return value_of(o, target)


def fight_declaration(state: GameState, context: Mapping[str, JSON]) -> dict[str, JSON]:
    """A declaration for a ``declare_fight`` request: per model its best ordinary melee weapon
    and every [EXTRA ATTACKS] weapon, at the engaged target where the unit does the most."""
    u = state.unit(str(context["unit"]))
    table = cast(dict[str, list[str]], context["targets"])
    charged = u.flag("charged")
    everyone = sorted({t for ts in table.values() for t in ts})
    if not everyone:
        return {}

    values: _Values = {}  # the models' weapons share their values (same floats)
    alive = {m.id: m for m in reversed(u.alive)}  # the first model of each id, as next() finds
    best = {mid: best_melee(m) for mid, m in alive.items()}

    def unit_score(tid: str) -> float:
        t = state.unit(tid)
        total = 0.0
        for mid, ts in table.items():
            m = alive.get(mid)
            if m is not None and tid in ts:
                total += sum(_one_blow(state, u, w, tid, charged, values) for w in best[mid])
        return total * (OBJECTIVE_BONUS if _on_any_objective(state, t) else 1.0)

    primary = max(everyone, key=unit_score)
    out: dict[str, JSON] = {}
    for m in u.alive:
        ts = table.get(m.id, [])
        if not ts:
            continue
        tid = primary if primary in ts else _best_melee_target(state, u, m, ts, charged,
                                                               values)
        melee = [w for w in m.weapons if w.is_melee]
        extra = [w for w in melee if any(isinstance(a, ExtraAttacks) for a in w.abilities)]
        others = [w for w in melee if w not in extra]
        picked = extra[:]
        if others:
            picked.insert(0, max(others, key=lambda w: (
                _one_blow(state, u, w, tid, charged, values), w.name)))
        out[m.id] = {w.name: tid for w in picked}
    return out


def allocation_choice(state: GameState, options: Sequence[JSON],
                      groups: Sequence[Sequence[str]], target_id: str | None) -> JSON:
    """``allocation_order`` (05.03): among the legal orders, the one that gives the attacks to
    the cheapest groups first (characters and multi-wound models last)."""
    if not options:
        return None
    names: dict[str, float] = {}
    if target_id is not None:
        try:
            alive = state.unit(target_id).alive
            # the attack machine names models by their ids in a game
            names = {m.name: model_value(m) for m in alive}
            names.update({m.id: model_value(m) for m in alive})
        except KeyError:
            names = {}

    def group_value(g: int) -> float:
        ms = groups[g] if 0 <= g < len(groups) else ()
        vals = [names.get(n, 1.0) for n in ms]
        return sum(vals) / len(vals) if vals else 0.0

    def key(o: JSON) -> tuple[float, ...]:
        if not isinstance(o, list):
            return (0.0,)
        return tuple(group_value(g) if isinstance(g, int) else 0.0 for g in o)

    return min(options, key=key)


COHERENCY = 2.0
"""03.03 (R03.03-a): each model within 2" horizontally of another model of its unit."""


def groups(models: Sequence[ModelData]) -> int:
    """How many coherent groups ``models`` form (models linked when within 2" of each other;
    the 9" rule of R03.03-b is left out of this estimate)."""
    left = list(models)
    count = 0
    while left:
        count += 1
        todo = [left.pop()]
        while todo:
            m = todo.pop()
            near = [o for o in left if gap(m, o) <= COHERENCY]
            for o in near:
                left.remove(o)
            todo += near
    return count


def cheapest_loss(candidates: Sequence[ModelData], unit: Sequence[ModelData]) -> ModelData:
    """The candidate whose loss costs least: one whose removal leaves the unit in the fewest
    coherent groups (03.03: a split unit loses more models at the End of Turn), then an
    already wounded one (nearest to death), then not a character, then the one farthest from
    the unit's centre (the formation's edge), then fewest wounds left."""
    if len(candidates) == 1:
        return candidates[0]  # what min() gives, whatever its key
    cx = sum(m.x for m in unit) / len(unit) if unit else 0.0
    cy = sum(m.y for m in unit) / len(unit) if unit else 0.0
    links = _links(unit)

    def key(m: ModelData) -> tuple[int, bool, bool, float, int, str]:
        if links is None:
            rest_groups = groups([o for o in unit if o.id != m.id])
        else:
            rest_groups = _components(links, [o.id != m.id for o in unit])
        return (rest_groups, m.wounds_lost == 0, m.profile.is_character,
                -math.hypot(m.x - cx, m.y - cy), m.remaining, m.id)
    return min(candidates, key=key)


def _links(models: Sequence[ModelData]) -> list[list[int]] | None:
    """For each model, the others within 2" of it (the links :func:`groups` follows), or
    None when some pair is linked one way only (:func:`gap` from either model, a last-bit
    difference at exactly 2"): then :func:`groups` decides by the order it visits them."""
    n = len(models)
    out: list[list[int]] = [[] for _ in range(n)]
    # each model's centre and radius read once; gap(a, b) and gap(b, a) in the same float
    # operations as gap() (the centres' distance is the same both ways: a - b is -(b - a)
    # exactly and hypot reads magnitudes; the radii subtracted in each order)
    bases = [(m.x, m.y, radius(m)) for m in models]
    hypot = math.hypot
    for i in range(n):
        ax, ay, ra = bases[i]
        for j in range(i + 1, n):
            bx, by, rb = bases[j]
            h = hypot(ax - bx, ay - by)
            ab = max(0.0, h - ra - rb) <= COHERENCY
            if ab != (max(0.0, h - rb - ra) <= COHERENCY):
                return None
            if ab:
                out[i].append(j)
                out[j].append(i)
    return out


def _components(links: list[list[int]], kept: list[bool]) -> int:
    """:func:`groups` of the kept models, from their links (:func:`_links`): the number of
    connected groups, whatever the order they are visited in."""
    seen = [not k for k in kept]
    count = 0
    for i in range(len(kept)):
        if seen[i]:
            continue
        count += 1
        seen[i] = True
        todo = [i]
        while todo:
            for j in links[todo.pop()]:
                if not seen[j]:
                    seen[j] = True
                    todo.append(j)
    return count


def select_model_choice(state: GameState, options: Sequence[JSON], labels: Sequence[str],
                        unit_ids: Sequence[str]) -> JSON | None:
    """``select_model`` (05.04/06.02): the candidate that costs least to lose
    (:func:`cheapest_loss`). Options are model ids, or (inside an attack) indices whose labels
    are the model ids; None when they name no model of these units."""
    models: dict[str, ModelData] = {}
    unit: list[ModelData] = []
    for uid in unit_ids:
        try:
            alive = state.unit(uid).alive
        except KeyError:
            continue
        models.update({m.id: m for m in alive})
        unit = unit or alive
    named: dict[str, JSON] = {}
    for k, o in enumerate(options):
        mid = o if isinstance(o, str) else labels[k] if k < len(labels) else None
        if isinstance(mid, str) and mid in models:
            named[mid] = o
    if not named:
        return None
    # Inside an attack the game's state does not yet show this attack's casualties: the
    # unit is its models that are candidates or not candidates of this choice alike.
    owner = [m for m in unit if m.id in models]
    return named[cheapest_loss([models[i] for i in named], owner).id]
