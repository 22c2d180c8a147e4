"""The heuristic player's stratagems and Firing Deck: each option a reaction window offers is
given an expected value with the exact maths of ``heuristic_eval`` (values in the unit of
:func:`~w40k.agents.heuristic_eval.value_of`: about one wound, a CHARACTER's counting
double), and the best option is used when its value beats what its CP is worth now.

**What a CP is worth** (:func:`cp_threshold`): ``CP_VALUE`` per CP spent, times a factor that
rises as the CP left after paying runs low (x0.75 with 5 or more left, x1 with 3 or 4, x1.25
with 2, x1.5 with 1, x2 with none). From battle round 3, spending the last CP on anything but
a charge re-roll costs x1.5 more (a CP is kept for a late charge re-roll); in the last battle
round everything costs half (CP left at the end are wasted).

**The stratagems** (the core stratagems of ``engine/stratagems``):

- Command Re-roll (15.02): a charge roll that reaches no enemy: the exact chance that 2D6
  reaches the best target times the charge's expected gain (``charge_choice``); a failed hit
  die: P(hit) x P(wound) x P(unsaved) x the damage's value; a failed wound die: P(wound) x
  P(unsaved) x the damage's value; a failed save die (for the defender): P(save) x the value
  of the damage it would stop (a multi-damage wound on a multi-wound model is worth a CP, a
  1-damage wound on a 2-wound model is not). Advance, damage, attacks and hazard rolls: never.
- Fire Overwatch (15.08): the expected value of snap shooting (hits on unmodified 6s) at an
  enemy unit likely to charge (within 12" and better in melee than shooting).
- Insane Bravery (15.04): P(the battle-shock roll fails) x ``OBJECTIVE_VALUE`` when the unit
  holds or contests an objective.
- Epic Challenge (15.03): what the CHARACTER model's melee attacks take from the enemy
  CHARACTER models ([PRECISION]) beyond what they take from the other models (where they go
  without it); nil against a unit with no CHARACTER model or only CHARACTER models.
- Heroic Intervention (15.11): the charge's probability times the exchange (dealt less half
  of what is taken back, ``charge_choice``), only when the exchange is won; Into the Fray
  costs its extra CP.
- Smokescreen (15.10): the expected value that cover saves against the enemy units in range,
  halved (they have other targets).
- Explosives (15.05): six D6, each 4+ a mortal wound: the exact expected value on the enemy.
- Crushing Impact (15.06): T D6, 5+ on the enemy, 1s on the unit (at most 6 each): the exact
  expected value on the enemy less the value lost.
- Counteroffensive (15.12, 2CP): what the unit deals in melee times the share of it the
  engaged enemy units that have not fought yet would destroy first.
- Rapid Ingress (15.07) and anything else: declined (the heuristic brings reserves in on its
  own Movement phase).

**Firing Deck** (24.14): for each enemy unit, the embarked models' weapons are added one at
a time (the one that adds the most expected value to the transport's own shooting at that
unit, at most X, one per model) while they add something; the lending for the enemy unit
where the transport then does the most is answered (``[]`` when no weapon adds anything).
Embarked units cannot shoot on their own in that Shooting phase (they are not on the
battlefield), so lending costs them nothing.

Deterministic: ties are broken by the option's text; no die of the game is rolled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

from w40k.agents.heuristic_eval import (
    ENGAGEMENT,
    NOTHING,
    Estimates,
    Outcome,
    adjusted,
    best_melee,
    entries,
    mean,
    model_value,
    models_outcome,
    oc_on,
    on_objective,
    ranged_weapons,
    unit_gap,
    value_of,
    weapons_outcome,
)
from w40k.agents.heuristic_plan import melee_minded
from w40k.core.dice import RollKind
from w40k.core.profiles import WeaponProfile
from w40k.engine.attack import AttackFrame, frame_request, frame_state
from w40k.engine.game import Game
from w40k.engine.offtable import passengers
from w40k.engine.phases.charge import CHARGE_RANGE, ChargeUnitFrame, charge_targets
from w40k.engine.reactions_table import CORE_STRATAGEMS
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import GameState, ModelData, UnitData
from w40k.engine.stratagems.interventions import FRAY, INTO_THE_FRAY_REACH, heroic_roll
from w40k.engine.units import best_leadership
from w40k.math.api import profile as kept_profile
from w40k.rules.attack_profile import AttackContext, PoolProfile
from w40k.rules.primitives import (
    Outcome as Roll,
)
from w40k.rules.primitives import (
    attack_toughness,
    hit_outcome,
    save_inflicts_damage,
    wound_outcome,
    wound_threshold,
)

CP_VALUE = 1.0
"""The expected value one CP must buy while CP is plentiful (about one wound)."""
OBJECTIVE_VALUE = 3.0
"""What keeping a unit's OC on an objective is worth (a battle-shocked unit has OC 0)."""
SMOKE_SHARE = 0.5
"""The share of the enemy's fire expected on the SMOKE unit."""
PLENTY = 5
"""With this many CP left after paying, a CP is worth less (``PLENTY_FACTOR``)."""
PLENTY_FACTOR = 0.75
LAST_ROUND_FACTOR = 0.5
"""In the last battle round a CP is worth half as much (CP left at the end are wasted)."""
LATE_ROUND = 3
"""From this battle round a last CP is kept for a charge re-roll."""
VALUED = frozenset({"Command Re-roll", "Epic Challenge", "Insane Bravery", "Explosives",
                    "Crushing Impact", "Fire Overwatch", "Smokescreen", "Heroic Intervention",
                    "Counteroffensive"})
"""The core stratagems the heuristic values (all of ``CORE_STRATAGEMS`` but Rapid Ingress)."""
STRATAGEM_COSTS = {s.name: s.cp for s in CORE_STRATAGEMS if s.name in VALUED}
"""Their CP cost (15.02-15.12), read from the stratagems themselves."""


def cp_threshold(state: GameState, player: str, cost: int, *, charge_reroll: bool = False
                 ) -> float:
    """The expected value spending ``cost`` CP must buy now (module docstring)."""
    left = state.player(player).cp - cost
    if left < 0:
        return math.inf  # R15.01-c: never without the CP
    factor = (PLENTY_FACTOR if left >= PLENTY else 1.0 if left >= 3 else 1.25 if left == 2
              else 1.5 if left == 1 else 2.0)
    if left == 0 and not charge_reroll and state.round >= LATE_ROUND:
        factor *= 1.5
    if state.round >= int(cast(int, state.mission.get("rounds", 5))):
        factor *= LAST_ROUND_FACTOR
    return cost * CP_VALUE * factor


def choose_stratagem(game: Game, request: Request, est: Estimates | None = None
                     ) -> JSON | None:
    """The stratagem option of a ``reaction`` request worth its CP most, or None (none is
    worth it, or none is offered); ``est``: the player's estimates (default: a fresh view
    of the state)."""
    facts = request.context.get("facts", {})
    if not isinstance(facts, dict):
        return None
    est = Estimates(game.state) if est is None else est
    best: tuple[float, str, JSON] | None = None
    kept: dict[str, _DieFacts | None] = {}  # the roll's facts, shared by its die options
    for option in request.options:
        if not (isinstance(option, list) and len(option) == 2 and isinstance(option[1], dict)):
            continue
        name, answer = str(option[0]), option[1]
        if name not in STRATAGEM_COSTS:
            continue
        cost = STRATAGEM_COSTS[name] + (1 if answer.get("mode") == FRAY else 0)
        charge = name == "Command Re-roll" and facts.get("kind") == RollKind.CHARGE
        bar = cp_threshold(game.state, request.player, cost, charge_reroll=charge)
        if name == "Fire Overwatch" and not _overwatch_may_pay(game, answer, est, bar):
            continue  # its value cannot beat the CP: the margin below is not positive
        value = option_value(game, request.player, name, answer, facts, est, kept=kept)
        margin = value - bar
        if margin > 0 and (best is None or (margin, str(option)) > best[:2]):
            best = (margin, str(option), option)
    return None if best is None else best[2]


def option_value(game: Game, player: str, name: str, answer: dict[str, JSON],
                 facts: dict[str, JSON], est: Estimates | None = None, *,
                 kept: dict[str, _DieFacts | None] | None = None) -> float:
    """The expected value of using stratagem ``name`` with ``answer`` now (0: nothing;
    ``est``: as :func:`choose_stratagem`; ``kept``: :func:`reroll_value`'s)."""
    s = game.state
    est = Estimates(s) if est is None else est
    u = s.any_unit(str(answer["unit"]))
    if name == "Command Re-roll":
        return reroll_value(game, u, answer, facts, est, kept=kept)
    if name == "Fire Overwatch":
        e = s.unit(str(answer["enemy"]))
        if not likely_charger(e, u, est):
            return 0.0
        return value_of(est.ranged_outcome(u, e, snap=True), e)
    if name == "Insane Bravery":
        held = any(on_objective(u, (o.x, o.y)) and oc_on(u, (o.x, o.y)) > 0
                   for o in s.objectives)
        return p_fail_battle_shock(u) * OBJECTIVE_VALUE if held else 0.0
    if name == "Epic Challenge":
        return epic_value(s, u, str(answer["model"]))
    if name == "Heroic Intervention":
        return heroic_value(s, u, str(answer.get("mode")), est)
    if name == "Smokescreen":
        return smoke_value(s, u, est)
    if name == "Explosives":
        e = s.unit(str(answer["enemy"]))
        return value_of(mortal_outcome(e, 6, 0.5), e)
    if name == "Crushing Impact":
        e = s.unit(str(answer["enemy"]))
        m = next(m for m in u.alive if m.id == answer["model"])
        n = m.profile.T
        return (value_of(mortal_outcome(e, n, 1 / 3), e)
                - value_of(mortal_outcome(u, n, 1 / 6), u))
    if name == "Counteroffensive":
        return counteroffensive_value(s, u, est)
    return 0.0


# -- Command Re-roll ----------------------------------------------------------------------------
@dataclass(frozen=True)
class _DieFacts:
    """What the value of re-rolling any die of an attack roll reads besides the die's face:
    the same for every die option of one request (the attack frame's pool and target)."""

    prof: PoolProfile
    """The pool's attack profile."""
    toughness: int
    """The target's toughness for the wound roll."""
    victim: ModelData | None
    """The model likely to take the next damage (None: the target has no model left)."""
    p_wound: float = 0.0
    p_unsaved: float = 0.0
    damage: float = 0.0


def _die_facts(game: Game, facts: dict[str, JSON]) -> _DieFacts | None:
    """The face-independent facts of the attack roll ``facts`` describes (None: no pool of
    an attack frame waits for it, and no die of it is worth re-rolling)."""
    i = facts.get("frame")
    frames = game.state.frames
    if not isinstance(i, int) or not 0 <= i < len(frames) or not isinstance(frames[i],
                                                                          AttackFrame):
        return None
    f = cast(AttackFrame, frames[i])
    if f.state is None:
        return None
    st, req = frame_state(f), frame_request(f)
    if not st.pools or st.pool >= len(st.pools):
        return None
    # the pool's profile, as the exact maths keep it (math.api.profile: pool_profile's)
    prof = kept_profile(req.weapons[st.pools[st.pool][0]], req.target, req.context)
    target = game.state.unit(f.target)
    if not target.alive:
        return _DieFacts(prof, 0, None)
    toughness = attack_toughness(st.target)
    victim = _next_victim(target)
    return _DieFacts(prof, toughness, victim, _p_wound(prof, toughness),
                     1.0 - _p_save(prof.ap, victim), _damage_value(prof, victim))


def reroll_value(game: Game, u: UnitData, answer: dict[str, JSON],
                 facts: dict[str, JSON], est: Estimates, *,
                 kept: dict[str, _DieFacts | None] | None = None) -> float:
    """What re-rolling the die (or the charge roll) is expected to gain (module docstring).
    ``kept``: a dict shared by the options of one request (the same ``facts``), which keeps
    the roll's face-independent facts (:func:`_die_facts`) for its other die options."""
    kind = str(facts.get("kind", ""))
    if kind == RollKind.CHARGE:
        return charge_reroll_value(game, u, facts, est)
    if kind not in (RollKind.HIT, RollKind.WOUND, RollKind.SAVE):
        return 0.0
    if kept is not None and "die" in kept:
        df = kept["die"]
    else:
        df = _die_facts(game, facts)
        if kept is not None:
            kept["die"] = df
    if df is None:
        return 0.0
    prof = df.prof
    face = int(cast(int, answer["face"]))
    victim = df.victim
    if victim is None:
        return 0.0
    p_wound, p_unsaved, damage = df.p_wound, df.p_unsaved, df.damage
    if kind == RollKind.HIT:
        if prof.torrent or hit_outcome(face, prof.hit_modifier, prof.skill,
                                       fail_up_to=prof.hit_fail_up_to) is not Roll.FAIL:
            return 0.0
        p_hit = sum(1 for d in range(1, 7) if hit_outcome(
            d, prof.hit_modifier, prof.skill, fail_up_to=prof.hit_fail_up_to) is not Roll.FAIL) / 6
        return p_hit * p_wound * p_unsaved * damage
    if kind == RollKind.WOUND:
        need = wound_threshold(prof.strength, df.toughness)
        if wound_outcome(face, prof.wound_modifier, need,
                         crit_from=prof.wound_crit_from) is not Roll.FAIL:
            return 0.0
        return p_wound * p_unsaved * damage
    # a save die: the defender's (the window's unit is the target)
    if not save_inflicts_damage(face, prof.ap, victim.profile.Sv, victim.profile.InSv):
        return 0.0
    return _p_save(prof.ap, victim) * damage


def _next_victim(target: UnitData) -> ModelData:
    """The model likely to take the next damage: a wounded one (the most wounds lost, the
    first such in unit order), else the first."""
    alive = target.alive
    best = alive[0]
    for m in alive:
        if m.wounds_lost > best.wounds_lost:
            best = m
    return best


def _p_wound(prof: PoolProfile, toughness: int) -> float:
    need = wound_threshold(prof.strength, toughness)
    return sum(1 for d in range(1, 7) if wound_outcome(
        d, prof.wound_modifier, need, crit_from=prof.wound_crit_from) is not Roll.FAIL) / 6


def _p_save(ap: int, m: ModelData) -> float:
    return sum(1 for d in range(1, 7)
               if not save_inflicts_damage(d, ap, m.profile.Sv, m.profile.InSv)) / 6


def _damage_value(prof: PoolProfile, m: ModelData) -> float:
    """The value of one unsaved attack on ``m``: the share of the model its average damage
    takes (all that is left of it at most)."""
    left = max(1, m.profile.W - m.wounds_lost)
    return model_value(m) * min(mean(prof.damage), left) / m.profile.W


def charge_reroll_value(game: Game, u: UnitData, facts: dict[str, JSON], est: Estimates
                        ) -> float:
    """A charge roll that reaches no enemy: the best target's exact chance times its
    expected gain (``charge_choice``); 0 when the roll already reaches one."""
    from w40k.agents.heuristic import charge_choice

    faces = cast(list[int], facts.get("faces", []))
    frame = next((f for f in reversed(game.state.frames)
                  if isinstance(f, ChargeUnitFrame) and f.unit == u.id), None)
    mode = None if frame is None else frame.heroic
    roll = heroic_roll(mode, sum(faces))
    if charge_targets(game.ctx, u, roll):
        return 0.0
    s = game.state
    best = 0.0
    for e in s.units_of(s.opponent(u.player)):
        gap = unit_gap(u, e)
        if gap > (INTO_THE_FRAY_REACH if mode == FRAY else CHARGE_RANGE):
            continue
        if mode is not None and mode != FRAY and not e.flag("charged"):
            continue  # Leap to Defend: only units that charged
        best = max(best, charge_choice(s, u, e, est)[1])
    return best


# -- the others ---------------------------------------------------------------------------------
def _overwatch_may_pay(game: Game, answer: dict[str, JSON], est: Estimates, bar: float
                       ) -> bool:
    """Whether Fire Overwatch with ``answer`` may be worth more than ``bar`` (a CP
    threshold, never negative): its value (:func:`option_value`) is the snap shooting's, or
    nil when the enemy unit is not a likely charger, so a snap shooting worth no more than
    ``bar`` settles it without the charger's melee estimates; the same snap estimate, kept,
    then gives the value."""
    s = game.state
    u = s.any_unit(str(answer["unit"]))
    e = s.unit(str(answer["enemy"]))
    if unit_gap(e, u) > CHARGE_RANGE:
        return False  # not a likely charger: nil
    return value_of(est.ranged_outcome(u, e, snap=True), e) - bar > 0


def likely_charger(e: UnitData, u: UnitData, est: Estimates) -> bool:
    """The enemy unit ``e`` can charge ``u`` next (within 12") and does more in melee than by
    shooting."""
    return unit_gap(e, u) <= CHARGE_RANGE and melee_minded(e, [u], est)


def p_fail_battle_shock(u: UnitData) -> float:
    """01.06: P(2D6 < the unit's best Ld)."""
    ld = best_leadership(u)
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b < ld) / 36


def epic_value(s: GameState, u: UnitData, model: str) -> float:
    """What [PRECISION] on the model's melee weapons adds: its attacks on an engaged enemy
    unit's CHARACTER models less the same attacks on the unit as allocated normally."""
    m = next((x for x in u.alive if x.id == model), None)
    if m is None:
        return 0.0
    charged = u.flag("charged")
    best = 0.0
    for e in s.units_of(s.opponent(u.player)):
        if unit_gap(u, e) > ENGAGEMENT:
            continue
        chars = [x for x in e.alive if x.profile.is_character]
        if not chars or len(chars) == len(e.alive):
            continue  # nothing to gain: no CHARACTER, or nothing else to allocate to
        others = [x for x in e.alive if not x.profile.is_character]
        # the modifiers the engine would apply to these attacks (heuristic_eval.adjusted)
        ws, actx, _ = adjusted(u, e, entries(best_melee(m)), AttackContext(
            charged=charged, attacker_engaged_with_target=True,
            target_models_at_select=len(e.alive)), melee=True, state=s)
        best = max(best, _on(models_outcome(ws, chars, actx), chars)
                   - _on(models_outcome(ws, others, actx), others))
    return best


def _on(o: Outcome, models: list[ModelData]) -> float:
    """:func:`value_of` for an outcome on these models only (their own average value)."""
    per = sum(model_value(m) for m in models) / len(models)
    return o.kills * per + 0.2 * o.wounds + 0.5 * o.p_destroy * per


def heroic_value(s: GameState, u: UnitData, mode: str, est: Estimates) -> float:
    """The best charge's probability times its exchange (``charge_choice``) among the enemy
    units the mode may select; 0 when no exchange is won."""
    from w40k.agents.heuristic import charge_choice

    best = 0.0
    for e in s.units_of(s.opponent(u.player)):
        gap = unit_gap(u, e)
        if mode == FRAY and gap > INTO_THE_FRAY_REACH:
            continue
        if mode != FRAY and not (e.flag("charged") and gap <= CHARGE_RANGE):
            continue
        best = max(best, charge_choice(s, u, e, est)[1])
    return best


def smoke_value(s: GameState, u: UnitData, est: Estimates) -> float:
    """The expected value cover saves the unit against the enemy units in range, shared."""
    saved = 0.0
    for e in s.units_of(s.opponent(u.player)):
        plain = value_of(est.ranged_outcome(e, u), u)
        if plain > 0:
            saved += plain - value_of(est.ranged_outcome(e, u, cover=True), u)
    return SMOKE_SHARE * saved


def counteroffensive_value(s: GameState, u: UnitData, est: Estimates) -> float:
    """What the unit deals, times the share of it the engaged enemy units that have not
    fought yet would destroy before it fights."""
    engaged = [e for e in s.units_of(s.opponent(u.player)) if unit_gap(u, e) <= ENGAGEMENT]
    if not engaged or not u.alive:
        return 0.0
    threat = sum(est.melee_outcome(e, u).kills for e in engaged if not e.flag("fought"))
    share = min(1.0, threat / len(u.alive))
    if share == 0.0:
        return 0.0  # share x dealt, whatever the unit deals (a finite value)
    dealt = max(value_of(est.melee_outcome(u, e, charged=u.flag("charged")), e)
                for e in engaged)
    return share * dealt


def mortal_outcome(target: UnitData, dice: int, p: float, cap: int = 6) -> Outcome:
    """Exact expected result of ``dice`` D6 each inflicting a mortal wound with chance ``p``
    (at most ``cap``), allocated one at a time to the wounded model first (06.02)."""
    alive = sorted(target.alive, key=lambda m: (m.wounds_lost == 0, target.alive.index(m)))
    left = [max(1, m.profile.W - m.wounds_lost) for m in alive]
    if not left:
        return NOTHING
    total = sum(left)
    kills = wounds = destroyed = 0.0
    for k in range(dice + 1):
        pk = math.comb(dice, k) * p ** k * (1 - p) ** (dice - k)
        n = min(k, cap)
        wounds += pk * min(n, total)
        dead, run = 0, 0
        for w in left:
            run += w
            if run <= n:
                dead += 1
        kills += pk * dead
        destroyed += pk * (n >= total)
    return Outcome(kills, wounds, destroyed)


# -- Firing Deck (24.14) ------------------------------------------------------------------------
def firing_deck_choice(game: Game, request: Request) -> JSON:
    """The embarked models' weapons that add the most expected value to the transport's
    shooting at its best target (module docstring); ``[]`` when none adds anything."""
    s = game.state
    t = s.unit(str(request.context["unit"]))
    x = int(cast(int, request.context["x"]))
    legal = {(str(p[0]), str(p[1])) for p in cast(list[list[JSON]], request.context["options"])}
    models = {m.id: m for p in passengers(s, t.id) for m in p.alive}
    lendable: dict[str, list[WeaponProfile]] = {}
    for mid, wname in sorted(legal):
        m = models.get(mid)
        w = None if m is None else next((w for w in m.weapons if w.name == wname), None)
        if w is not None:
            lendable.setdefault(mid, []).append(w)
    own = [w for m in t.alive for w in ranged_weapons(m)]
    best: tuple[float, str, list[list[str]]] | None = None
    for e in s.units_of(s.opponent(t.player)):
        d = unit_gap(t, e)
        base = value_of(weapons_outcome(own, e, d, attacker=t, state=s), e)
        lent: list[WeaponProfile] = []
        chosen: list[list[str]] = []
        value = base
        while len(chosen) < x:
            used = {c[0] for c in chosen}
            step: tuple[float, str, str, WeaponProfile] | None = None
            for mid in sorted(lendable):
                if mid in used:
                    continue
                for w in lendable[mid]:
                    v = value_of(weapons_outcome([*own, *lent, w], e, d, attacker=t,
                                                 state=s), e)
                    if step is None or (v, mid, w.name) > (step[0], step[1], step[2]):
                        step = (v, mid, w.name, w)
            if step is None or step[0] <= value + 1e-9:
                break
            value = step[0]
            lent.append(step[3])
            chosen.append([step[1], step[2]])
        if value > 0 and (best is None or (value, e.id) > best[:2]):
            best = (value, e.id, chosen)
    return [] if best is None else cast(JSON, best[2])
