"""The attack sequence as a resumable machine (04.03, 05, 06.02, 06.03, 19.02, 24).

One unit's attacks on one target unit are resolved step by step::

    state = start(request)                                  # AttackState (frozen, JSON)
    state, pause = advance(state, request, dice)            # runs up to the next pause
    # pause is one of:
    #   DecisionRequest -> advance(state, request, dice, answer)  (answer: a JSON value,
    #                      null included; validated: MalformedChoice / IllegalChoice)
    #   Rolled(kind, dice, indices, pool) -> a batch was rolled (automatic re-rolls applied)
    #                      and is not yet used: ``state = reroll(state, i, dice)`` re-rolls
    #                      die i once (002), then advance(state, request, dice) goes on
    #   Done(result)    -> the AttackResult
    state = AttackState.from_json(state.to_json())          # exact, at any pause

Each ``advance`` does only the work from the step it stands at to the next pause; nothing
is re-run. The state holds the models as they are now, the dice rolled and not yet used, the
counts of the pool and the account; the request (weapons, models at the start, context) is
passed again on every call and never changes. Requests with one legal answer are not asked
(except the allocation order, which the defender always declares when there are several
groups: a standing order that breaks 05.03 must be refused). ``resolve_attack`` is the loop
over ``advance`` that answers through a :class:`~w40k.rules.decisions.Decider`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import Enum
from typing import Final, Literal, cast

from w40k.core import kept
from w40k.core.abilities import WeaponAbility
from w40k.core.dice import DiceExpr, DiceSource, DieRoll, Roller, RollKind
from w40k.core.errors import MalformedChoice
from w40k.core.jsonval import JSON
from w40k.rules.allocation import check_order, legal_orders
from w40k.rules.attack_profile import (
    PoolProfile,
    Reroll,
    choose_duplicate,
    kept_pool_profile,
    pool_key,
)
from w40k.rules.attack_state import USE_STEPS, AttackState, Done, Rolled, Step
from w40k.rules.attack_types import AttackRequest, AttackResult, Event, PoolResult
from w40k.rules.decisions import DecisionKind, DecisionRequest, Player
from w40k.rules.primitives import (
    ModelState,
    Outcome,
    attack_toughness,
    fnp_prevents,
    group_model_candidates,
    hazard_fails,
    hazard_mortal_wounds,
    hit_outcome,
    interchangeable,
    make_groups,
    mortal_wound_candidates,
    save_inflicts_damage,
    unit_keys,
    wound_outcome,
    wound_threshold,
)

Pause = DecisionRequest | Rolled | Done
"""What ``advance`` stops at."""



class _NoAnswer(Enum):
    NO_ANSWER = "no answer"


NO_ANSWER: Final = _NoAnswer.NO_ANSWER
"""``advance``'s answer when no decision is being answered (``None`` is a JSON answer:
declining [PRECISION])."""

__all__ = ["NO_ANSWER", "AttackState", "Done", "Pause", "Rolled", "Step", "advance", "reroll",
           "start"]

_STEP_LOG = {RollKind.ATTACKS: "gather", RollKind.HIT: "hit", RollKind.WOUND: "wound",
             RollKind.SAVE: "save", RollKind.DAMAGE: "damage", RollKind.FNP: "fnp",
             RollKind.HAZARD: "hazard"}


def start(request: AttackRequest) -> AttackState:
    """The state before the first step (ValueError if the target has no models left)."""
    if not request.target or all(m.destroyed for m in request.target):
        raise ValueError("the target unit has no models left to attack")
    return AttackState(Step.DUPLICATES, request.target, request.attacker)


def advance(state: AttackState, request: AttackRequest, dice: DiceSource,
            answer: JSON | Literal[_NoAnswer.NO_ANSWER] = NO_ANSWER
            ) -> tuple[AttackState, Pause]:
    """Run from ``state`` to the next pause. ``answer`` answers the DecisionRequest the last
    call paused at (validated); passing one when no decision is pending is refused."""
    return _Machine(state, request, dice, answer).run()


def reroll(state: AttackState, die_index: int, dice: DiceSource) -> AttackState:
    """Re-roll one die of the batch the state paused at (a ``Rolled`` pause), before it is
    used: at most once per die, before modifiers (002; DiceError otherwise)."""
    if state.step not in USE_STEPS or not state.rolled:
        raise MalformedChoice(f"no rolled dice wait to be used at step {state.step}")
    if not 0 <= die_index < len(state.rolled):
        raise MalformedChoice(f"die {die_index} is not in the batch of {len(state.rolled)}")
    old = state.rolled[die_index]
    new = Roller(dice).reroll(old)
    kind = RollKind(old.kind)
    event = Event(_STEP_LOG.get(kind, str(kind)), "X002-h",
                  f"{kind} die {die_index + 1} re-rolled: {old.face}->{new.face}")
    rolled = (*state.rolled[:die_index], new, *state.rolled[die_index + 1:])
    return replace(state, rolled=rolled, events=(*state.events, event))


def _private_copy(state: AttackState) -> AttackState:
    """A new :class:`AttackState` equal to ``state``, for one ``advance`` to set in place
    (the caller's state is never changed: it stays valid after a refused answer)."""
    out: AttackState = object.__new__(AttackState)
    # every field copied in one C call (the state keeps its fields in its ``__dict__``)
    out.__dict__.update(state.__dict__)
    return out


_ProfileKey = tuple[int, tuple[tuple[int, str, str], ...]]
_KEPT_PROFILES: dict[int, tuple[AttackRequest, dict[_ProfileKey, PoolProfile]]] = kept.table()
"""The pool profiles of the last few requests, by the request object's id (the entry holds the
request: no id reuse while it is kept), each by (weapon entry, the duplicate choices made). A
pool profile is a function of the request (frozen) and those choices only, so an attack's
later ``advance`` calls (one per pause: ~580 a game, most reading the pool's profile again)
reuse the first one's instead of re-applying every weapon rule."""
_KEPT_MAX: Final = 16


def _kept_profiles(request: AttackRequest) -> dict[_ProfileKey, PoolProfile]:
    entry = _KEPT_PROFILES.get(id(request))
    if entry is None or entry[0] is not request:
        if len(_KEPT_PROFILES) >= _KEPT_MAX:
            del _KEPT_PROFILES[next(iter(_KEPT_PROFILES))]
        entry = _KEPT_PROFILES[id(request)] = (request, {})
    return entry[1]


def _faces(dice: Sequence[DieRoll]) -> str:
    return "[" + ", ".join(
        (f"{d.faces[0]}->{d.face}" if d.rerolled else str(d.face)) for d in dice) + "]"


def _apart(candidates: Sequence[int], models: Sequence[ModelState]) -> bool:
    """The first two candidates stand in different known places: then they are not
    interchangeable (the position is part of a model's selection signature, 05.04/06.02),
    known without comparing the rest of their signatures."""
    if len(candidates) < 2:
        return False
    a, b = models[candidates[0]].position, models[candidates[1]].position
    return a is not None and b is not None and a != b


class _Machine:
    """One ``advance`` call: the state as a value, the models and account as lists."""

    def __init__(self, state: AttackState, request: AttackRequest, dice: DiceSource,
                 answer: JSON | Literal[_NoAnswer.NO_ANSWER]) -> None:
        self.s = _private_copy(state)
        self.fields = self.s.__dict__
        """The fields of ``s``, set in place (:meth:`set`)."""
        self.req = request
        self.roll = Roller(dice)
        self.answer: JSON = None if answer is NO_ANSWER else answer
        self.answered = answer is NO_ANSWER
        self.target = list(state.target)
        self.attacker = list(state.attacker)
        self.events = list(state.events)
        self._profiles = _kept_profiles(request)

    # -- plumbing -----------------------------------------------------------------------
    def set(self, **changes: object) -> None:
        """Set fields of the machine's own copy of the state (:func:`_private_copy`: no one
        else holds it until :meth:`frozen` hands it out, so it is set in place instead of
        a ``dataclasses.replace`` of its 45 fields per change)."""
        self.fields.update(changes)

    def log(self, step: str, rule: str, text: str) -> None:
        self.events.append(Event(step, rule, text))

    def frozen(self) -> AttackState:
        """The state to hand out (once: the machine ends with it)."""
        self.set(target=tuple(self.target), attacker=tuple(self.attacker),
                 events=tuple(self.events))
        return self.s

    def run(self) -> tuple[AttackState, Pause]:
        handlers = _HANDLERS
        while True:
            pause = getattr(self, handlers[self.s.step])()
            if not self.answered:
                raise MalformedChoice(f"no decision is pending at step {self.s.step}")
            if pause is not None:
                return self.frozen(), pause

    def decide(self, request: DecisionRequest, *, skip_single: bool = True,
               check: Callable[[JSON], None] | None = None) -> JSON | DecisionRequest:
        """The answer to ``request`` (the only option, or the caller's validated answer), or
        the request itself when it must be asked."""
        if skip_single and len(request.options) == 1:
            return request.options[0]
        if self.answered:
            return request
        self.answered = True
        (check or request.check)(self.answer)
        return self.answer

    def rolled(self, kind: RollKind, dice: tuple[DieRoll, ...], use: Step) -> Pause | None:
        self.set(rolled=dice, step=use)
        if not dice:
            return None
        # the dice not re-rolled yet: one face (``DieRoll.rerolled``, inline)
        return Rolled(kind, dice, tuple([i for i, d in enumerate(dice) if len(d.faces) == 1]),
                      self.s.pool)

    def auto_reroll(self, dice: tuple[DieRoll, ...], policy: Reroll, failed: list[bool],
                    step: str) -> tuple[DieRoll, ...]:
        """Re-rolls after the whole batch (DESIGN), before modifiers, at most once (002)."""
        if policy is Reroll.NONE:
            return dice
        out = list(dice)
        for i, d in enumerate(dice):
            if (policy is Reroll.ONES and d.unmodified == 1) or (
                    policy is Reroll.FAILED and failed[i]):
                out[i] = self.roll.reroll(d)
        changed = [f"{d.faces[0]}->{d.face}" for d in out if d.rerolled]
        if changed:
            self.log(step, "X002-h", f"re-rolled ({policy}): {', '.join(changed)}")
        return tuple(out)

    def choices(self, e: int) -> dict[str, WeaponAbility]:
        weapon = self.req.weapons[e].weapon
        out: dict[str, WeaponAbility] = {}
        for entry, fam, text in self.s.duplicates:
            if entry == e:
                out[fam] = next(a for a in weapon.abilities if str(a) == text
                                and type(a).__name__ == fam)
        return out

    def profile(self, e: int) -> PoolProfile:
        """04.03: a weapon's pool profile against the target as it stood at the start."""
        key = (e, self.s.duplicates)
        got = self._profiles.get(key)
        if got is None:
            got = self._profiles[key] = kept_pool_profile(
                self.req.weapons[e], self.req.target, self.req.context, self.choices(e))
        return got

    @property
    def prof(self) -> PoolProfile:
        return self.profile(self.s.pools[self.s.pool][0])

    def side_models(self) -> list[ModelState]:
        return self.target if self.s.side == "target" else self.attacker

    def choose_model(self, candidates: Sequence[int], models: Sequence[ModelState], rule: str,
                     player: str) -> int | DecisionRequest:
        """05.04 / 06.02 Select Model: asked unless the candidates are interchangeable."""
        if len(candidates) < 2 or (not _apart(candidates, models) and interchangeable(
                [models[i] for i in candidates])):
            return candidates[0]  # one candidate, or interchangeable ones: nothing to ask
        options: tuple[JSON, ...] = tuple(candidates)  # (not the generic alias: 10x slower)
        got = self.decide(DecisionRequest(
            DecisionKind.SELECT_MODEL, player, rule, "Which model takes it?", options,
            options[0], tuple(models[i].name for i in candidates)))
        return got if isinstance(got, DecisionRequest) else int(cast(int, got))

    # -- 24.02 duplicates and 04.03 pools -----------------------------------------------
    def duplicates(self) -> Pause | None:
        e = self.s.entry
        if e >= len(self.req.weapons):
            pools: dict[tuple[object, ...], list[int]] = {}
            for i, entry in enumerate(self.req.weapons):
                if entry.count > 0:
                    pools.setdefault(pool_key(self.profile(i)), []).append(i)
            self.set(pools=tuple(tuple(p) for p in pools.values()), step=Step.GATHER)
            return None
        weapon = self.req.weapons[e].weapon
        # a duplicated family needs two abilities at least (most weapons have none or one)
        fams = [] if self.req.weapons[e].count <= 0 or len(weapon.abilities) < 2 else [
            f for f in sorted({type(a) for a in weapon.abilities}, key=lambda f: f.__name__)
            if len(weapon.abilities_of(f)) >= 2]
        if self.s.family >= len(fams):
            self.set(entry=e + 1, family=0)
            return None
        fam = fams[self.s.family]
        instances = weapon.abilities_of(fam)
        default = choose_duplicate(weapon, fam, unit_keys(self.req.target)) or instances[0]
        names = tuple(str(a) for a in instances)
        got = self.decide(DecisionRequest(
            DecisionKind.DUPLICATE_ABILITY, Player.ATTACKER, "R24.02-a",
            f"{weapon.name}: which {fam.__name__} applies?", names, str(default), names))
        if isinstance(got, DecisionRequest):
            return got
        pick = instances[names.index(str(got))]
        self.log("select", "24.02", f"{weapon.name}: [{pick}] applies (duplicates)")
        self.set(duplicates=(*self.s.duplicates, (e, fam.__name__, str(pick))),
                 family=self.s.family + 1)
        return None

    def gather(self) -> Pause | None:
        """Attack dice for the pool; a random A is rolled per weapon (02.04)."""
        if self.s.pool >= len(self.s.pools):
            self.set(step=Step.HAZARD_ROLL)
            return None
        if all(m.destroyed for m in self.target):
            self.log("gather", "05.04", f"{self.prof.name}: the target is destroyed; "
                     "the remaining attacks are lost")
            self.set(step=Step.HAZARD_ROLL)
            return None
        self.set(attacks=0, hits=0, critical_hits=0, auto_wounds=0, lethal_asked=0, wounds=0,
                 critical_wounds=0, devastating=0, to_save=0, unsaved=0, mortal_total=0,
                 crit_index=0, precision=None,
                 start_lost=tuple(m.wounds_lost for m in self.target),
                 start_dead=sum(m.destroyed for m in self.target))
        dice: list[DieRoll] = []
        for e in self.s.pools[self.s.pool]:
            a = self.profile(e).attacks
            if a.is_random:
                for _ in range(self.req.weapons[e].count):
                    dice.extend(self.roll.dice(RollKind.ATTACKS, a.count, a.sides))
        return self.rolled(RollKind.ATTACKS, tuple(dice), Step.ATTACKS_USE)

    def attacks_use(self) -> Pause | None:
        n, k = 0, 0
        members = self.s.pools[self.s.pool]
        for e in members:
            prof, count = self.profile(e), self.req.weapons[e].count
            if not prof.attacks.is_random:
                n += prof.attacks.bonus * count
                continue
            for _ in range(count):
                chunk = self.s.rolled[k:k + prof.attacks.count]
                k += prof.attacks.count
                total = sum(d.unmodified for d in chunk) + prof.attacks.bonus
                n += total
                self.log("gather", "02.04", f"{prof.name}: A {prof.attacks} rolled "
                         f"{_faces(chunk)} = {total}")
        label = " + ".join(f"{self.req.weapons[e].count}x {self.req.weapons[e].weapon.name}"
                           for e in members)
        self.log("gather", "04.03", f"{label}: {n} attack dice")
        for note in dict.fromkeys(note for e in members for note in self.profile(e).notes):
            rule, _, text = note.partition(" ")
            self.log("gather", rule, text)
        self.set(attacks=n, rolled=(), step=Step.HIT_ROLL)
        return None

    # -- 05.01 hit rolls ----------------------------------------------------------------
    @staticmethod
    def hit(d: DieRoll, p: PoolProfile) -> Outcome:
        return hit_outcome(d.unmodified, p.hit_modifier, p.skill, fail_up_to=p.hit_fail_up_to)

    def hit_roll(self) -> Pause | None:
        prof, n = self.prof, self.s.attacks
        if prof.torrent:
            self.log("hit", "24.37", f"[TORRENT]: {n} automatic hits")
            self.set(hits=n, step=Step.WOUND_ROLL)  # 24.37: so no critical hits
            return None
        dice = self.roll.dice(RollKind.HIT, n)
        dice = self.auto_reroll(dice, prof.reroll_hits,
                                [self.hit(d, prof) is Outcome.FAIL for d in dice], "hit")
        return self.rolled(RollKind.HIT, dice, Step.HIT_USE)

    def hit_use(self) -> Pause | None:
        prof, dice = self.prof, self.s.rolled
        outcomes = [self.hit(d, prof) for d in dice]
        crits = outcomes.count(Outcome.CRITICAL)
        hits = crits + outcomes.count(Outcome.SUCCESS)
        self.log("hit", "05.01", f"hit rolls {_faces(dice)} needing {prof.skill}+"
                 f"{f' ({prof.hit_modifier:+d})' if prof.hit_modifier else ''}: "
                 f"{hits} hits, {crits} critical")
        if prof.sustained and crits:
            hits += prof.sustained * crits
            self.log("hit", "24.36", f"[SUSTAINED HITS {prof.sustained}]: "
                     f"+{prof.sustained * crits} hits")
        self.set(hits=hits, critical_hits=crits, rolled=(),
                 step=Step.LETHAL if prof.lethal and crits else Step.WOUND_ROLL)
        return None

    def lethal(self) -> Pause | None:
        """24.23: each critical hit may wound automatically (one decision each)."""
        if self.s.lethal_asked < self.s.critical_hits:
            got = self.decide(DecisionRequest(
                DecisionKind.LETHAL_HITS, Player.ATTACKER, "R24.23-a",
                "Does this critical hit wound automatically?", (True, False),
                self.req.context.lethal_hits_auto, ("wound automatically", "roll to wound")))
            if isinstance(got, DecisionRequest):
                return got
            self.set(auto_wounds=self.s.auto_wounds + bool(got),
                     lethal_asked=self.s.lethal_asked + 1)
            return None
        if self.s.auto_wounds:
            self.log("hit", "24.23", f"[LETHAL HITS]: {self.s.auto_wounds} critical hits "
                     "wound automatically (not critical wounds)")
        self.set(step=Step.WOUND_ROLL)
        return None

    # -- 05.02 wound rolls (19.02: the toughness of the unit now) -----------------------
    @staticmethod
    def wound(d: DieRoll, need: int, p: PoolProfile) -> Outcome:
        return wound_outcome(d.unmodified, p.wound_modifier, need, crit_from=p.wound_crit_from)

    def wound_roll(self) -> Pause | None:
        prof = self.prof
        need = wound_threshold(prof.strength, attack_toughness(self.target))
        dice = self.roll.dice(RollKind.WOUND, self.s.hits - self.s.auto_wounds)
        dice = self.auto_reroll(dice, prof.reroll_wounds,
                                [self.wound(d, need, prof) is Outcome.FAIL for d in dice],
                                "wound")
        return self.rolled(RollKind.WOUND, dice, Step.WOUND_USE)

    def wound_use(self) -> Pause | None:
        prof, dice = self.prof, self.s.rolled
        toughness = attack_toughness(self.target)
        need = wound_threshold(prof.strength, toughness)
        outcomes = [self.wound(d, need, prof) for d in dice]
        crits = outcomes.count(Outcome.CRITICAL)
        auto = self.s.auto_wounds
        wounds = crits + outcomes.count(Outcome.SUCCESS) + auto
        self.log("wound", "05.02", f"wound rolls {_faces(dice)}: S{prof.strength} vs "
                 f"T{toughness} needs {need}+"
                 f"{f' ({prof.wound_modifier:+d})' if prof.wound_modifier else ''}: "
                 f"{wounds - auto} wounds, {crits} critical")
        devastating = crits if prof.devastating else 0
        if devastating:
            self.log("wound", "24.10", f"[DEVASTATING WOUNDS]: {devastating} critical wounds "
                     "end their sequence and inflict mortal wounds after the normal damage")
        to_save = wounds - devastating
        # 06.02: mortal wounds after all normal damage (R06.02-e)
        self.set(wounds=wounds, critical_wounds=crits, devastating=devastating, rolled=(),
                 to_save=to_save,
                 step=Step.ALLOCATION_ORDER if to_save else Step.DEVASTATING)
        return None

    # -- 05.03 allocation order, 24.28 [PRECISION] ---------------------------------------
    def allocation_order(self) -> Pause | None:
        """05.03 Allocation Order: the defender declares it (the default keeps the listed
        order); asked even when 05.03 leaves one legal order (see the module docstring)."""
        groups = make_groups(self.target)
        if len(groups) == 1:
            order: tuple[int, ...] = (0,)  # the one legal order (legal_orders' default)
        else:
            options = tuple(legal_orders(groups, self.target))
            labels = tuple(" > ".join(groups[i].label(self.target) for i in o) for o in options)
            members = tuple(tuple(self.target[i].name for i in g.alive(self.target))
                            for g in groups)
            got = self.decide(DecisionRequest(
                DecisionKind.ALLOCATION_ORDER, Player.DEFENDER, "R05.03-e",
                "In which order will the allocation groups take attacks?",
                tuple[JSON, ...](list[JSON](o) for o in options), list[JSON](options[0]),
                labels, groups=members), skip_single=False,
                check=lambda a: None)
            if isinstance(got, DecisionRequest):
                return got
            order = check_order(groups, self.target, options, got)
        self.log("save", "05.03", "allocation order: " +
                 " > ".join(groups[i].label(self.target) for i in order))
        self.set(groups=groups, order=order, step=Step.PRECISION)
        return None

    def precision(self) -> Pause | None:
        """24.28: at the start of Allocation Order, the attacker may pick a visible
        CHARACTER's group as current."""
        groups = self.s.groups
        options = tuple(i for i, g in enumerate(groups)
                        if g.character and any(self.target[j].visible for j in g.members))
        if self.prof.precision and options:
            got = self.decide(DecisionRequest(
                DecisionKind.PRECISION, Player.ATTACKER, "R24.28-a",
                "[PRECISION]: make which CHARACTER group current?", (*options, None),
                options[0], (*(groups[i].label(self.target) for i in options), "none")))
            if isinstance(got, DecisionRequest):
                return got
            if got is not None:
                choice = int(cast(int, got))
                self.log("save", "24.28", f"[PRECISION]: {groups[choice].label(self.target)} "
                         "is the current group")
                self.set(precision=choice)
        self.set(step=Step.SAVE_ROLL)
        return None

    # -- 05.03 save rolls and 05.04 inflict damage --------------------------------------
    def save_roll(self) -> Pause | None:
        return self.rolled(RollKind.SAVE, self.roll.dice(RollKind.SAVE, self.s.to_save),
                           Step.SAVE_USE)

    def save_use(self) -> Pause | None:
        dice = self.s.rolled
        self.log("save", "05.03", f"save rolls {_faces(dice)}, resolved lowest first (05.04)")
        self.set(saves=tuple(sorted(dice, key=lambda d: d.unmodified)), save_index=0,
                 rolled=(), step=Step.SAVE_RESOLVE)
        return None

    def current_group(self) -> int | None:
        """05.03 sidebar: the first group with living models (a [PRECISION] group first)."""
        groups, p = self.s.groups, self.s.precision
        if p is not None and groups[p].alive(self.target):
            return p
        return next((i for i in self.s.order if groups[i].alive(self.target)), None)

    def save_resolve(self) -> Pause | None:
        if self.s.save_index >= len(self.s.saves):
            self.set(step=Step.DEVASTATING)
            return None
        d = self.s.saves[self.s.save_index]
        gi = self.current_group()
        if gi is None:
            self.log("save", "05.04", f"save {d.unmodified}: the unit is destroyed; "
                     "the attack is lost")
            self.set(save_index=self.s.save_index + 1)
            return None
        group, ap = self.s.groups[gi], self.prof.ap
        got = self.choose_model(group_model_candidates(group, self.target), self.target,
                                "R05.04-b", Player.DEFENDER)
        if isinstance(got, DecisionRequest):
            return got
        model = self.target[got]
        self.set(save_index=self.s.save_index + 1)
        if not save_inflicts_damage(d.unmodified, ap, group.Sv, group.InSv):
            why = ("invulnerable save" if group.InSv is not None and d.unmodified >= group.InSv
                   else f"Sv {group.Sv}+ with AP {ap}")
            self.log("save", "05.04", f"save {d.unmodified} vs {model.name}: saved ({why})")
            return None
        self.log("save", "05.04", f"save {d.unmodified} vs {model.name}: fails "
                 f"(Sv {group.Sv}+, AP {ap}"
                 f"{f', InSv {group.InSv}+' if group.InSv else ''})")
        self.set(unsaved=self.s.unsaved + 1, side="target", model=got, step=Step.DAMAGE_ROLL)
        return None

    def damage_roll(self) -> Pause | None:
        """05.04 Resolve Damage: D wounds (a random D rolled per attack)."""
        d = self.prof.damage
        if not d.is_random:
            return self.lose(self.s.model, d.bonus, "05.04", Step.SAVE_RESOLVE)
        return self.rolled(RollKind.DAMAGE, self.roll.dice(RollKind.DAMAGE, d.count, d.sides),
                           Step.DAMAGE_USE)

    def damage_use(self) -> Pause | None:
        d = self.prof.damage
        amount = self.expr_total(d)
        self.log("damage", "02.04", f"damage {d} rolled {_faces(self.s.rolled)} = {amount}")
        self.set(rolled=())
        return self.lose(self.s.model, amount, "05.04", Step.SAVE_RESOLVE)

    def expr_total(self, d: DiceExpr) -> int:
        return sum(x.unmodified for x in self.s.rolled) + d.bonus

    # -- losing wounds, 24.12 Feel No Pain ----------------------------------------------
    def lose(self, idx: int, amount: int, rule: str, ret: Step) -> Pause | None:
        """The model loses ``amount`` wounds, each subject to Feel No Pain (24.12); then the
        machine goes on at ``ret``."""
        self.set(model=idx, amount=amount, loss_rule=rule, ret=ret, step=Step.FNP_ROLL)
        return None

    def fnp_roll(self) -> Pause | None:
        model = self.side_models()[self.s.model]
        if model.fnp is None or not self.s.amount:
            return self.apply_loss(self.s.amount)
        return self.rolled(RollKind.FNP, self.roll.dice(RollKind.FNP, self.s.amount),
                           Step.FNP_USE)

    def fnp_use(self) -> Pause | None:
        model, amount, rolls = self.side_models()[self.s.model], self.s.amount, self.s.rolled
        kept = sum(fnp_prevents(r.unmodified, model.fnp) for r in rolls)
        self.log("fnp", "24.12", f"Feel No Pain {model.fnp}+ for {model.name}: "
                 f"{_faces(rolls)}, {kept} of {amount} wounds not lost")
        self.set(rolled=())
        return self.apply_loss(amount - kept)

    def apply_loss(self, amount: int) -> Pause | None:
        """Excess beyond the model's remaining wounds is lost (R05.04-f)."""
        models, idx = self.side_models(), self.s.model
        model = models[idx]
        lost = min(amount, model.remaining)
        models[idx] = model.losing(lost)
        if lost:
            after = models[idx]
            state = ("destroyed" if after.destroyed else
                     f"{after.remaining} wound{'s' * (after.remaining != 1)} left")
            wasted = amount - lost
            self.log("damage", self.s.loss_rule,
                     f"{model.name} loses {lost} wound{'s' * (lost != 1)}: {state}"
                     + (f" ({wasted} damage lost, R05.04-f)" if wasted else ""))
            if self.s.ret is Step.MORTAL:
                self.set(damaged=idx)
        self.set(step=self.s.ret)
        return None

    # -- 24.10 [DEVASTATING WOUNDS] and 06.02 mortal wounds -----------------------------
    def devastating(self) -> Pause | None:
        """24.10: D mortal wounds per critical wound, damaging at most one model each."""
        if self.s.crit_index >= self.s.devastating:
            self.set(step=Step.POOL_END)
            return None
        d = self.prof.damage
        dice = self.roll.dice(RollKind.DAMAGE, d.count, d.sides) if d.is_random else ()
        return self.rolled(RollKind.DAMAGE, dice, Step.DEVASTATING_USE)

    def devastating_use(self) -> Pause | None:
        d = self.prof.damage
        amount = self.expr_total(d)
        if d.is_random:
            self.log("mortal", "24.10", f"mortal wounds {d} rolled {_faces(self.s.rolled)} "
                     f"= {amount}")
        self.set(rolled=(), mortal_total=self.s.mortal_total + amount,
                 crit_index=self.s.crit_index + 1)
        self.mortal_wounds(amount, "target", capped=True, player=Player.DEFENDER,
                           ret=Step.DEVASTATING)
        return None

    def mortal_wounds(self, amount: int, side: str, *, capped: bool, player: str,
                      ret: Step) -> None:
        self.set(mw_amount=amount, mw_done=0, damaged=None, capped=capped, mw_player=player,
                 mw_ret=ret, side=side, step=Step.MORTAL)

    def mortal(self) -> Pause | None:
        """06.02: one at a time to the model the selection rules give; with the 24.10 cap,
        once the one damaged model is destroyed the rest are lost."""
        s, models = self.s, self.side_models()
        left = s.mw_amount - s.mw_done
        if left <= 0:
            self.set(step=s.mw_ret)
            return None
        # 24.10 caps only [DEVASTATING WOUNDS]; other mortal wounds carry on (R06.02-b)
        if s.capped and s.damaged is not None and models[s.damaged].destroyed:
            self.log("mortal", "24.10", f"{left} mortal wounds lost "
                     "(one model per critical wound)")
            self.set(step=s.mw_ret)
            return None
        candidates = mortal_wound_candidates(models)
        if not candidates:
            self.log("mortal", "06.02", f"{left} mortal wounds lost: the unit is destroyed")
            self.set(step=s.mw_ret)
            return None
        if s.capped and s.damaged is not None:
            idx: int = s.damaged
        else:
            got = self.choose_model(candidates, models, "R06.02-a", s.mw_player)
            if isinstance(got, DecisionRequest):
                return got
            idx = got
        self.set(mw_done=s.mw_done + 1)
        return self.lose(idx, 1, "06.02", Step.MORTAL)

    def pool_end(self) -> Pause | None:
        s = self.s
        lost = sum(m.wounds_lost - b for m, b in zip(self.target, s.start_lost, strict=True))
        dead = sum(m.destroyed for m in self.target) - s.start_dead
        result = PoolResult(self.prof.name, s.attacks, s.hits, s.critical_hits, s.wounds,
                            s.critical_wounds, s.unsaved, s.mortal_total, lost, dead)
        self.set(results=(*s.results, result), pool=s.pool + 1, step=Step.GATHER)
        return None

    # -- 24.15 / 06.03 hazard rolls -----------------------------------------------------
    def hazard_roll(self) -> Pause | None:
        """After all attacks, one hazard roll per [HAZARDOUS] weapon selected, rolled
        together; each failure is 1 mortal wound (3 if all MONSTER/VEHICLE)."""
        n = sum(self.req.weapons[e].count for p in self.s.pools for e in p
                if self.profile(e).hazardous)
        if n == 0:
            self.set(step=Step.DONE)
            return None
        self.set(pool=len(self.s.pools))
        return self.rolled(RollKind.HAZARD, self.roll.dice(RollKind.HAZARD, n), Step.HAZARD_USE)

    def hazard_use(self) -> Pause | None:
        rolls = self.s.rolled
        fails = sum(hazard_fails(r.unmodified) for r in rolls)
        self.set(hazard_rolls=tuple(r.unmodified for r in rolls), rolled=())
        if not self.attacker:
            self.log("hazard", "06.03", f"hazard rolls {_faces(rolls)}: {fails} failed "
                     "(no attacking models given)")
            self.set(step=Step.DONE)
            return None
        mw = fails * hazard_mortal_wounds(self.attacker)
        self.log("hazard", "06.03", f"hazard rolls {_faces(rolls)}: {fails} failed, "
                 f"{mw} mortal wounds to the attacker")
        self.set(hazard_mw=mw, start_lost=tuple(m.wounds_lost for m in self.attacker),
                 start_dead=sum(m.destroyed for m in self.attacker))
        self.mortal_wounds(mw, "attacker", capped=False, player=Player.ATTACKER,
                           ret=Step.HAZARD_END)
        return None

    def hazard_end(self) -> Pause | None:
        s = self.s
        self.set(hazard_lost=sum(m.wounds_lost for m in self.attacker) - sum(s.start_lost),
                 hazard_dead=sum(m.destroyed for m in self.attacker) - s.start_dead,
                 step=Step.DONE)
        return None

    def done(self) -> Pause | None:
        s = self.s
        return Done(AttackResult(s.results, tuple(self.target), tuple(self.attacker),
                                 s.hazard_rolls, s.hazard_mw, s.hazard_lost, s.hazard_dead,
                                 tuple(self.events)))


_HANDLERS: Final[dict[Step, str]] = {step: str(step) for step in Step}
"""The handler of each step: the machine's method of the step's name (one table for every
machine, not 25 bound methods and a dict per ``advance``; looked up by name, so a method
replaced on the class is the one run)."""
