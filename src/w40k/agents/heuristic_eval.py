"""What the heuristic player knows about attacks: exact expected kills and damage from the math
layer (``w40k.math``), unit values, and the exact charge probability.

Targets are described to the math layer without positions, names or wargear (only what the
attack sequence reads: W, T, Sv, InSv, wounds lost, keywords, FNP, leader role, Stealth), so
the math layer's caches (keyed on weapons, target models and context) hit across moves, turns
and games. Everything here is read-only: no die of the game is rolled.

An attack's estimate uses the modifiers the engine applies to that attack (:func:`adjusted`):
the datasheet abilities and effects in force (Oath of Moment, Tactical Command, Tactical
Precision, Waaagh!, the target's Sneaky Gits: ``engine.ability_effects.attack_abilities``, the
very function the engine calls when it pushes the attack) and the game's ruleset. They are
read from the ``state`` given, or from an :class:`Estimates` view's state (the heuristic player
owns one and points it at the state it answers a request of); units of another state (a
clone, an earlier game) see none. The view also keeps whole-unit estimates while the units do
not change; nothing here is module state (STYLE.md: two games in one process, or threads,
each read their own).
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from w40k.core import kept
from w40k.core.abilities import CloseQuarters, ExtraAttacks, Stealth
from w40k.core.dice import DiceExpr
from w40k.core.profiles import ModelProfile, WeaponProfile
from w40k.engine import field
from w40k.engine.ability_effects import attack_abilities
from w40k.engine.options import ruleset
from w40k.engine.state import GameState, ModelData, UnitData
from w40k.math import distribution
from w40k.rules.attack_profile import AttackContext, WeaponEntry
from w40k.rules.primitives import ModelState

MM = 25.4
"""Millimetres per inch."""
ENGAGEMENT = 2.0
"""17.01 (11th edition): engagement range, 2" horizontally (R11.01-a)."""
OBJECTIVE_RANGE = 3.0
"""Appendix: within 3" of an objective marker's closest part."""
MARKER_RADIUS = 40.0 / MM / 2
"""A 40 mm objective marker's radius in inches."""
FALLBACK_TRIALS = 3000
"""Monte Carlo trials when an exact distribution would be too large (rare in practice)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Expected result of one unit's attacks on one target."""

    kills: float
    """E[models destroyed]."""
    wounds: float
    """E[wounds lost]."""
    p_destroy: float
    """P(the whole unit destroyed)."""


NOTHING = Outcome(0.0, 0.0, 0.0)
"""No attacks."""


def mean(d: DiceExpr) -> float:
    """The average of a dice expression."""
    return d.count * (d.sides + 1) / 2 + d.bonus


def radius(m: ModelData) -> float:
    """The base's radius in inches (an oval's larger half-axis; 0 for no base)."""
    return _base_radius(m.profile.base_mm)


@lru_cache(maxsize=256)
def _base_radius(b: float | tuple[float, float] | None) -> float:
    """:func:`radius` of a base size (a handful of sizes per game: computed once each)."""
    if b is None:
        return 0.0
    if isinstance(b, tuple):
        return max(b) / MM / 2
    return float(b) / MM / 2


def gap(a: ModelData, b: ModelData) -> float:
    """Horizontal base-to-base distance of two models."""
    return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - radius(a) - radius(b))


def _closest(a: UnitData, b: UnitData) -> float:
    # :func:`gap` of every pair, each model's centre and radius read once (the same floats).
    bs = [(m.x, m.y, _base_radius(m.profile.base_mm)) for m in b.alive]
    best = math.inf
    hypot = math.hypot
    for m in a.alive:
        ax, ay, ra = m.x, m.y, _base_radius(m.profile.base_mm)
        for bx, by, rb in bs:
            g = hypot(ax - bx, ay - by) - ra - rb
            if g < best:
                best = g
    return max(0.0, best)  # min of max(0, g) = max(0, min g); inf without models


def unit_gap(a: UnitData, b: UnitData) -> float:
    """Closest horizontal distance between two units (01.04: closest models), kept until a
    model is placed (engine/field.py)."""
    return field.unit_distance(a, b, _closest)


def centre(u: UnitData) -> tuple[float, float]:
    """The mean position of the unit's living models."""
    ms = u.alive or u.models
    return (sum(m.x for m in ms) / len(ms), sum(m.y for m in ms) / len(ms))


def model_value(m: ModelData) -> float:
    """What losing a model costs: its wounds, characters counting double (a function of the
    profile, kept per profile object: :data:`_VALUES`)."""
    p = m.profile
    hit = _VALUES.get(id(p))
    if hit is not None and hit[0] is p:
        return hit[1]
    v = p.W * (2.0 if p.is_character else 1.0)
    if len(_VALUES) >= STATES_LIMIT:
        _VALUES.clear()
    _VALUES[id(p)] = (p, v)
    return v


_VALUES: dict[int, tuple[ModelProfile, float]] = kept.table()
""":func:`model_value` by profile object (the entry holds it: an id is not reused while
kept; a memo of an immutable profile's function, like :data:`_STATES`)."""


def unit_value(u: UnitData) -> float:
    """The unit's remaining value (its living models)."""
    return sum(model_value(m) for m in u.alive)


def target_states(u: UnitData) -> tuple[ModelState, ...]:
    """The unit's living models as the math layer needs them (no positions: cache hits)."""
    return model_states(u.alive)


def model_states(ms: Iterable[ModelData]) -> tuple[ModelState, ...]:
    """Models as the math layer needs them (no positions: cache hits)."""
    return tuple(_model_state(m.profile, m.wounds_lost, m.leader) for m in ms)


_States = dict[int, tuple[ModelProfile, dict[tuple[int, bool], ModelState]]]
_STATES: _States = kept.table()
"""The math layer's models built so far, by profile object (the entry holds it: an id is not
reused while kept), then by (wounds lost, leader role). A memo of an immutable profile's
function, like ``lru_cache`` (not game state: any game reads the same answers); emptied
past :data:`STATES_LIMIT` profiles."""
STATES_LIMIT = 1024


def _model_state(p: ModelProfile, wounds_lost: int, leader: bool) -> ModelState:
    """A model as the math layer needs it: it reads the profile (immutable), the wounds lost
    and the leader role, so each is built once (:data:`_STATES`, the same values)."""
    hit = _STATES.get(id(p))
    if hit is None or hit[0] is not p:
        if len(_STATES) >= STATES_LIMIT:
            _STATES.clear()
        hit = _STATES[id(p)] = (p, {})
    built = hit[1]
    st = built.get((wounds_lost, leader))
    if st is None:
        st = built[(wounds_lost, leader)] = _fresh_state(p, wounds_lost, leader)
    return st


def _fresh_state(p: ModelProfile, wounds_lost: int, leader: bool) -> ModelState:
    return ModelState("m", p.W, p.T, p.Sv, p.InSv, wounds_lost, p.keywords, p.fnp, leader,
                      stealth=any(isinstance(a, Stealth) for a in p.abilities))


@lru_cache(maxsize=65536)
def _outcome(weapons: tuple[WeaponEntry, ...], target: tuple[ModelState, ...],
             ctx: AttackContext) -> Outcome:
    if not weapons or not target:
        return NOTHING
    d = distribution(weapons, target, ctx, trials=FALLBACK_TRIALS)
    return Outcome(d.mean_models_destroyed, d.mean_wounds_lost, d.p_unit_destroyed)


def outcome(weapons: Iterable[WeaponEntry], target: UnitData,
            ctx: AttackContext | None = None) -> Outcome:
    """Expected result of ``weapons`` on ``target`` as it stands (exact, cached)."""
    ws = tuple(sorted(weapons, key=lambda e: (e.weapon.name, e.count, repr(e.half_range))))
    return _outcome(ws, target_states(target), ctx or AttackContext())


def models_outcome(weapons: Iterable[WeaponEntry], models: Sequence[ModelData],
                   ctx: AttackContext | None = None) -> Outcome:
    """Expected result of ``weapons`` on these models only (a unit's CHARACTER models, say;
    exact, cached)."""
    ws = tuple(sorted(weapons, key=lambda e: (e.weapon.name, e.count, repr(e.half_range))))
    return _outcome(ws, model_states(m for m in models if not m.destroyed),
                    ctx or AttackContext())


def state_of(attacker: UnitData, state: GameState | None) -> GameState | None:
    """The state whose abilities and effects apply to ``attacker``'s attacks: ``state``, when
    ``attacker`` is one of its units (on the battlefield or off it); else None (no state, or
    a unit of a clone or of another game)."""
    if state is None:
        return None
    if any(u is attacker for u in state.units) or any(u is attacker for u in state.off_table):
        return state
    return None


def adjusted(attacker: UnitData, target: UnitData, weapons: Iterable[WeaponEntry],
             actx: AttackContext, *, melee: bool, distance: float | None = None,
             state: GameState | None = None
             ) -> tuple[tuple[WeaponEntry, ...], AttackContext, tuple[str, ...]]:
    """``weapons`` and ``actx`` as the engine changes them when ``attacker``'s attacks on
    ``target`` are pushed (engine/attack.py: the game's ruleset and
    ``ability_effects.attack_abilities``), and the abilities that apply; unchanged without a
    state (:func:`state_of`). ``distance``: the units' distance for a move not made yet
    (Sneaky Gits; else measured as the engine does)."""
    ws = tuple(weapons)
    s = state_of(attacker, state)
    if s is None:
        return ws, actx, ()
    rs = ruleset(s.options)
    if rs != actx.ruleset:
        actx = replace(actx, ruleset=rs)
    out, actx, applied = attack_abilities(s, attacker, target, list(ws), actx, melee=melee,
                                          distance=distance)
    return tuple(out), actx, applied


def attack_outcome(attacker: UnitData, target: UnitData, weapons: Iterable[WeaponEntry],
                   actx: AttackContext, *, melee: bool, distance: float | None = None,
                   state: GameState | None = None) -> Outcome:
    """Expected result of ``attacker``'s ``weapons`` on ``target`` with the modifiers the
    engine would apply (:func:`adjusted`; exact, cached)."""
    ws, c, _ = adjusted(attacker, target, weapons, actx, melee=melee, distance=distance,
                        state=state)
    return outcome(ws, target, c)


def entries(pairs: Iterable[WeaponProfile], half_range: bool | None = None
            ) -> tuple[WeaponEntry, ...]:
    """Identical weapons gathered into entries (one per profile, with its count)."""
    counts = Counter(pairs)
    return tuple(WeaponEntry(w, n, half_range) for w, n in counts.items())


def value_of(o: Outcome, target: UnitData) -> float:
    """The value an outcome takes from ``target``: kills at the target's average model value,
    a little for wounds that do not kill, and a bonus for finishing the unit."""
    alive = target.alive
    if not alive:
        return 0.0
    per_model = sum(model_value(m) for m in alive) / len(alive)  # unit_value, one listing
    return o.kills * per_model + 0.2 * o.wounds + 0.5 * o.p_destroy * per_model


BOUND_SLACK = 1e-9
"""The relative and absolute slack :func:`value_bound` adds: the means of a computed law may
exceed their exact bounds by a few units in the last place."""


def value_bound(target: UnitData) -> float:
    """An upper bound of :func:`value_of` of any outcome on ``target`` as it stands: every
    living model destroyed, every wound it has left lost and the unit destroyed for sure
    (an outcome's means cannot exceed them), plus :data:`BOUND_SLACK`. A candidate whose
    bound is below a value already found cannot beat it, so its estimate is not needed."""
    alive = target.alive
    if not alive:
        return 0.0
    per_model = sum(model_value(m) for m in alive) / len(alive)
    wounds = sum(max(0, m.profile.W - m.wounds_lost) for m in alive)
    bound = len(alive) * per_model + 0.2 * wounds + 0.5 * per_model
    return bound * (1.0 + BOUND_SLACK) + BOUND_SLACK


def best_melee(m: ModelData) -> list[WeaponProfile]:
    """A model's melee weapons for an estimate: its strongest ordinary one (average A x S x D,
    AP counting) plus every [EXTRA ATTACKS] weapon (24.11). A function of the model's
    weapons (an immutable tuple): kept per tuple object (:data:`_MELEE_PICKS`), a new list each
    call."""
    ws = m.weapons
    if type(ws) is not tuple:  # a list could change: not kept
        return _best_melee(tuple(ws))
    hit = _MELEE_PICKS.get(id(ws))
    if hit is None or hit[0] is not ws:
        if len(_MELEE_PICKS) >= STATES_LIMIT:
            _MELEE_PICKS.clear()
        hit = _MELEE_PICKS[id(ws)] = (ws, _best_melee(ws))
    return list(hit[1])


_MELEE_PICKS: dict[int, tuple[tuple[WeaponProfile, ...], list[WeaponProfile]]] = kept.table()
""":func:`best_melee` by weapons tuple object (the entry holds it: an id is not reused while
kept): a memo of an immutable tuple's function, like :data:`_STATES`, emptied past
:data:`STATES_LIMIT`."""


def _best_melee(weapons: tuple[WeaponProfile, ...]) -> list[WeaponProfile]:
    melee = [w for w in weapons if w.is_melee]
    extra = [w for w in melee if any(isinstance(a, ExtraAttacks) for a in w.abilities)]
    others = [w for w in melee if w not in extra]
    if not others:
        return extra
    best = max(others, key=lambda w: (mean(w.A) * (w.S + 1) * mean(w.D) * (1 + 0.2 * -w.AP),
                                      w.name))
    return [best, *extra]


def _signature(u: UnitData) -> tuple[object, ...]:
    """What an estimate reads of a unit's models: profile, weapons, wounds lost, destroyed,
    leader role (profiles and weapons are immutable; compared by identity first)."""
    return tuple((m.profile, m.weapons, m.wounds_lost, m.destroyed, m.leader) for m in u.models)


_Kept = tuple[UnitData, UnitData, tuple[object, ...], tuple[object, ...], Outcome]
"""A kept estimate: both units, their signatures, the estimate."""

_Table = dict[tuple[int, int, object], _Kept]
"""Kept estimates by (attacker id, target id, what else decides them)."""
KEPT_LIMIT = 8192
"""Kept estimates per table of an :class:`Estimates` (emptied past it)."""


def melee_outcome(attacker: UnitData, target: UnitData, *, charged: bool = False,
                  models: Sequence[ModelData] | None = None,
                  state: GameState | None = None) -> Outcome:
    """Expected result if every (or each listed) model of ``attacker`` fights ``target``,
    with the modifiers the engine would apply in ``state`` (:func:`adjusted`); computed
    afresh (:meth:`Estimates.melee_outcome` keeps it)."""
    return _melee_outcome(attacker, target, charged, models, state)


def _kept_melee(table: _Table, attacker: UnitData, target: UnitData, charged: bool,
                state: GameState | None) -> Outcome:
    """:func:`melee_outcome` of every model, kept in ``table`` while neither unit and the
    modifiers change."""
    _, actx, applied = adjusted(attacker, target, (), _melee_context(target, charged),
                                melee=True, state=state)
    return _kept(table, (actx, applied), attacker, target,
                 lambda: _melee_outcome(attacker, target, charged, None, state))


def _melee_context(target: UnitData, charged: bool) -> AttackContext:
    return _melee_ctx(charged, len(target.alive))


@lru_cache(maxsize=1024)
def _melee_ctx(charged: bool, models: int) -> AttackContext:
    """A melee estimate's context (immutable: one per question, not a 24-field build per
    estimate)."""
    return AttackContext(charged=charged, attacker_engaged_with_target=True,
                         target_models_at_select=models)


def _kept(table: _Table, extra: object, attacker: UnitData, target: UnitData,
          compute: Callable[[], Outcome]) -> Outcome:
    """``compute()``, kept in ``table`` while both units' :func:`_signature` is the same."""
    key = (id(attacker), id(target), extra)
    sa, st = _signature(attacker), _signature(target)
    hit = table.get(key)
    if (hit is not None and hit[0] is attacker and hit[1] is target and hit[2] == sa
            and hit[3] == st):
        return hit[4]
    out = compute()
    if len(table) >= KEPT_LIMIT:
        table.clear()
    table[key] = (attacker, target, sa, st, out)
    return out


def _melee_outcome(attacker: UnitData, target: UnitData, charged: bool,
                   models: Sequence[ModelData] | None, state: GameState | None = None
                   ) -> Outcome:
    ms = attacker.alive if models is None else models
    ws = entries(w for m in ms for w in best_melee(m))
    return attack_outcome(attacker, target, ws, _melee_context(target, charged), melee=True,
                          state=state)


def ranged_weapons(m: ModelData) -> list[WeaponProfile]:
    """A model's ranged weapons for an estimate: its [PISTOL] ones or the others, whichever
    has more average attacks (24.07), each copy listed. A function of the model's weapons
    and profile (immutable): kept per pair of objects (:data:`_RANGED_PICKS`), a new list each
    call."""
    ws, p = m.weapons, m.profile
    if type(ws) is not tuple:  # a list could change: not kept
        return _ranged_weapons(tuple(ws), p)
    key = (id(ws), id(p))
    hit = _RANGED_PICKS.get(key)
    if hit is None or hit[0] is not ws or hit[1] is not p:
        if len(_RANGED_PICKS) >= STATES_LIMIT:
            _RANGED_PICKS.clear()
        hit = _RANGED_PICKS[key] = (ws, p, _ranged_weapons(ws, p))
    return list(hit[2])


_RANGED_PICKS: dict[tuple[int, int], tuple[tuple[WeaponProfile, ...], ModelProfile,
                                          list[WeaponProfile]]] = kept.table()
""":func:`ranged_weapons` by (weapons tuple, profile) objects (as :data:`_MELEE_PICKS`)."""


def _ranged_weapons(weapons: tuple[WeaponProfile, ...], p: ModelProfile
                    ) -> list[WeaponProfile]:
    ranged = [w for w in weapons if not w.is_melee]
    cq = [w for w in ranged if any(isinstance(a, CloseQuarters) for a in w.abilities)]
    other = [w for w in ranged if w not in cq]
    if p.keys & {"MONSTER", "VEHICLE"}:
        return ranged
    return max((other, cq), key=lambda g: sum(mean(w.A) * mean(w.D) for w in g))


def ranged_outcome(attacker: UnitData, target: UnitData, distance: float | None = None, *,
                   cover: bool = False, snap: bool = False,
                   state: GameState | None = None) -> Outcome:
    """Expected result if ``attacker`` shot ``target`` with every weapon that reaches
    ``distance`` (the units' gap by default; half range from the same gap), with the
    modifiers the engine would apply in ``state`` (:func:`adjusted`); ``cover``: the target
    has the benefit of cover (13.08); ``snap``: snap shooting, hits only on unmodified 6s
    (15.09). Computed afresh (:meth:`Estimates.ranged_outcome` keeps it)."""
    d = unit_gap(attacker, target) if distance is None else distance
    return _ranged_outcome(attacker, target, d, cover, snap, distance, state)


def _kept_ranged(table: _Table, attacker: UnitData, target: UnitData, distance: float | None,
                 cover: bool, snap: bool, state: GameState | None) -> Outcome:
    """:func:`ranged_outcome`, kept in ``table`` while neither unit changes, per distance and
    modifiers."""
    d = unit_gap(attacker, target) if distance is None else distance
    _, actx, applied = adjusted(attacker, target, (), _ranged_context(target, cover, snap),
                                melee=False, distance=distance, state=state)
    return _kept(table, (d, actx, applied), attacker, target,
                 lambda: _ranged_outcome(attacker, target, d, cover, snap, distance, state))


def _ranged_context(target: UnitData, cover: bool, snap: bool) -> AttackContext:
    return _ranged_ctx(len(target.alive), cover, snap)


@lru_cache(maxsize=1024)
def _ranged_ctx(models: int, cover: bool, snap: bool) -> AttackContext:
    """A ranged estimate's context (immutable, as :func:`_melee_ctx`)."""
    return AttackContext(target_models_at_select=models, cover=cover, snap_shooting=snap)


def _ranged_outcome(attacker: UnitData, target: UnitData, d: float, cover: bool = False,
                    snap: bool = False, measured: float | None = None,
                    state: GameState | None = None) -> Outcome:
    """``measured``: the distance Sneaky Gits reads (None: the engine measures the units')."""
    ws = [w for m in attacker.alive for w in ranged_weapons(m)]
    return _weapons_outcome(ws, target, d, cover, snap, attacker, measured, state)


def weapons_outcome(weapons: Iterable[WeaponProfile], target: UnitData, d: float, *,
                    cover: bool = False, snap: bool = False, attacker: UnitData | None = None,
                    state: GameState | None = None) -> Outcome:
    """Expected result of these ranged weapons (each copy listed) on ``target`` ``d``" away:
    those that reach it, half range from the same distance (exact, cached); with the
    ``attacker``, the modifiers the engine would apply (:func:`adjusted`)."""
    return _weapons_outcome(weapons, target, d, cover, snap, attacker, d, state)


def _weapons_outcome(weapons: Iterable[WeaponProfile], target: UnitData, d: float,
                     cover: bool, snap: bool, attacker: UnitData | None,
                     measured: float | None, state: GameState | None) -> Outcome:
    ws = [w for w in weapons if w.range is not None and w.range >= d]
    if not ws:
        return NOTHING
    half = [w for w in ws if w.range is not None and d <= w.range / 2]
    far = [w for w in ws if not (w.range is not None and d <= w.range / 2)]
    es = entries(half, True) + entries(far, False)
    actx = _ranged_context(target, cover, snap)
    if attacker is None:
        return outcome(es, target, actx)
    return attack_outcome(attacker, target, es, actx, melee=False, distance=measured,
                          state=state)


def max_range(u: UnitData) -> float:
    """The longest range of the unit's ranged weapons (0 without any)."""
    return max((w.range or 0.0 for m in u.alive for w in m.weapons if not w.is_melee),
               default=0.0)


def move_of(u: UnitData) -> float:
    """The unit's Move (its slowest living model; 0 for M '-')."""
    ms = [m.profile.M for m in u.alive]
    return float(min((m for m in ms if m is not None), default=0))


def p_charge(distance: float) -> float:
    """Exact P(2D6 >= distance): the charge roll reaches a target ``distance`` away
    (R11.04-a: targets within the roll, no engagement range subtracted; R11.01-a: a roll of
    2 never succeeds)."""
    need = max(3, math.ceil(distance - 1e-9))
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need) / 36


def on_objective(u: UnitData, obj_xy: tuple[float, float]) -> bool:
    """Some model of ``u`` within range of the marker at ``obj_xy`` (approximate: 3" from the
    marker's edge, horizontally)."""
    ox, oy = obj_xy
    hypot = math.hypot
    for m in u.models:  # the living ones (``u.alive``), without the list
        if (not m.destroyed and hypot(m.x - ox, m.y - oy) - _base_radius(m.profile.base_mm)
                - MARKER_RADIUS <= OBJECTIVE_RANGE):
            return True
    return False


def oc_on(u: UnitData, obj_xy: tuple[float, float]) -> int:
    """The unit's total OC within range of the marker (0 while battle-shocked, 01.07)."""
    if u.flag("battle_shocked"):
        return 0
    return sum(m.profile.OC or 0 for m in u.alive
               if math.hypot(m.x - obj_xy[0], m.y - obj_xy[1]) - radius(m) - MARKER_RADIUS
               <= OBJECTIVE_RANGE)


@dataclass(eq=False)
class Estimates:
    """One player's view for its estimates: the state whose abilities and effects apply to
    attacks (the one whose request it answers: :func:`adjusted` reads it), and the
    whole-unit estimates it keeps while both units' :func:`_signature` is the same (entries
    hold their units, so an id is never reused while kept; emptied past
    :data:`KEPT_LIMIT`). The heuristic player owns one and passes it down; a function given
    none makes a fresh one of the state it has (the same answers, nothing kept across
    calls)."""

    state: GameState | None = None
    """The state read (None: no abilities or effects apply)."""
    melee: _Table = dataclasses.field(default_factory=dict)
    """Kept whole-unit melee estimates."""
    ranged: _Table = dataclasses.field(default_factory=dict)
    """Kept ranged estimates, per distance and modifiers."""

    def adjusted(self, attacker: UnitData, target: UnitData, weapons: Iterable[WeaponEntry],
                 actx: AttackContext, *, melee: bool, distance: float | None = None
                 ) -> tuple[tuple[WeaponEntry, ...], AttackContext, tuple[str, ...]]:
        """:func:`adjusted` in this view's state."""
        return adjusted(attacker, target, weapons, actx, melee=melee, distance=distance,
                        state=self.state)

    def melee_outcome(self, attacker: UnitData, target: UnitData, *, charged: bool = False,
                      models: Sequence[ModelData] | None = None) -> Outcome:
        """:func:`melee_outcome` in this view's state (every model: kept)."""
        if models is not None:
            return _melee_outcome(attacker, target, charged, models, self.state)
        return _kept_melee(self.melee, attacker, target, charged, self.state)

    def ranged_outcome(self, attacker: UnitData, target: UnitData,
                       distance: float | None = None, *, cover: bool = False,
                       snap: bool = False) -> Outcome:
        """:func:`ranged_outcome` in this view's state (kept)."""
        return _kept_ranged(self.ranged, attacker, target, distance, cover, snap, self.state)
