"""The attack sequence die by die (04.03, 05, 06.02, 06.03, 19.02, 24): the referee.

``resolve_attack(request, dice, decider)`` resolves one unit's attacks on one target unit:
pools of identical attacks in order, hit, wound and save rolls made together, saves resolved
lowest first against the current allocation group, damage, Feel No Pain, mortal wounds after
normal damage, and hazard rolls after all attacks. Every die comes from ``dice`` (seeded or
scripted: referee mode) and every player choice goes through ``decider``. The result carries
counts per step, the target and attacker models after the attack, and a readable account in
which each entry names the rule that decided it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from w40k.core.abilities import WeaponAbility
from w40k.core.dice import DiceSource, DieRoll, Roller, RollKind
from w40k.rules.allocation import choose_model, choose_order
from w40k.rules.attack_profile import (
    AttackContext,
    PoolProfile,
    Reroll,
    WeaponEntry,
    choose_duplicate,
    pool_key,
    pool_profile,
)
from w40k.rules.decisions import (
    Decider,
    DecisionKind,
    DecisionRequest,
    DefaultDecider,
    Player,
    ask,
)
from w40k.rules.primitives import (
    AllocationGroup,
    ModelState,
    Outcome,
    attack_toughness,
    fnp_prevents,
    group_model_candidates,
    hazard_fails,
    hazard_mortal_wounds,
    hit_outcome,
    make_groups,
    mortal_wound_candidates,
    save_inflicts_damage,
    unit_keys,
    wound_outcome,
    wound_threshold,
)


@dataclass(frozen=True, slots=True)
class AttackRequest:
    """One unit's attacks on one target unit."""

    weapons: tuple[WeaponEntry, ...]
    """The weapons, in the order the attacker resolves them (R04.03-d)."""
    target: tuple[ModelState, ...]
    """The target unit's models as they stand."""
    attacker: tuple[ModelState, ...] = ()
    """The attacking unit's models (for hazard rolls, 24.15)."""
    context: AttackContext = field(default_factory=AttackContext)
    """The circumstances."""


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the readable account."""

    step: str
    """The sequence step (``hit``, ``wound``, ``save``, ``damage``, ``mortal``, ...)."""
    rule: str
    """The rule that decided it (``05.01``, ``24.36 [SUSTAINED HITS 1]`` ...)."""
    text: str
    """What happened."""


@dataclass(frozen=True, slots=True)
class PoolResult:
    """Counts for one pool of attack dice."""

    name: str
    """The weapon (the first of the pool)."""
    attacks: int
    """Attack dice gathered."""
    hits: int
    """Hits, critical hits and [SUSTAINED HITS] extra hits included."""
    critical_hits: int
    """Critical hits."""
    wounds: int
    """Wounds, [LETHAL HITS] automatic wounds and critical wounds included."""
    critical_wounds: int
    """Critical wounds."""
    unsaved: int
    """Save rolls that inflicted damage."""
    mortal_wounds: int
    """Mortal wounds inflicted by [DEVASTATING WOUNDS] (before the one-model cap)."""
    wounds_lost: int
    """Wounds the target lost to this pool."""
    models_destroyed: int
    """Target models destroyed by this pool."""


@dataclass(frozen=True, slots=True)
class AttackResult:
    """The outcome of ``resolve_attack``."""

    pools: tuple[PoolResult, ...]
    """Per pool, in resolution order."""
    target: tuple[ModelState, ...]
    """The target's models afterwards (destroyed ones included, with wounds_lost = W)."""
    attacker: tuple[ModelState, ...]
    """The attacker's models afterwards (hazard rolls)."""
    hazard_rolls: tuple[int, ...]
    """The hazard roll results."""
    attacker_mortal_wounds: int
    """Mortal wounds the attacker suffered from failed hazard rolls."""
    attacker_wounds_lost: int
    """Wounds the attacker lost to them (after Feel No Pain)."""
    attacker_models_destroyed: int
    """Attacker models destroyed by them."""
    events: tuple[Event, ...]
    """The readable account."""

    def _sum(self, name: str) -> int:
        return sum(int(getattr(p, name)) for p in self.pools)

    @property
    def hits(self) -> int:
        """Total hits."""
        return self._sum("hits")

    @property
    def critical_hits(self) -> int:
        """Total critical hits."""
        return self._sum("critical_hits")

    @property
    def wounds(self) -> int:
        """Total wounds."""
        return self._sum("wounds")

    @property
    def critical_wounds(self) -> int:
        """Total critical wounds."""
        return self._sum("critical_wounds")

    @property
    def unsaved(self) -> int:
        """Total failed saves."""
        return self._sum("unsaved")

    @property
    def mortal_wounds(self) -> int:
        """Total mortal wounds inflicted on the target."""
        return self._sum("mortal_wounds")

    @property
    def wounds_lost(self) -> int:
        """Wounds the target lost."""
        return self._sum("wounds_lost")

    @property
    def models_destroyed(self) -> int:
        """Target models destroyed."""
        return self._sum("models_destroyed")


def _faces(dice: Sequence[DieRoll]) -> str:
    return "[" + ", ".join(
        (f"{d.faces[0]}->{d.face}" if d.rerolled else str(d.face)) for d in dice) + "]"


class _Resolution:
    """The working state of one resolve_attack call."""

    def __init__(self, request: AttackRequest, dice: DiceSource, decider: Decider) -> None:
        self.req = request
        self.ctx = request.context
        self.roll = Roller(dice)
        self.decider = decider
        self.models = list(request.target)
        self.attacker = list(request.attacker)
        self.events: list[Event] = []

    def log(self, step: str, rule: str, text: str) -> None:
        self.events.append(Event(step, rule, text))

    # -- 04.01 / 04.03: select weapons (duplicate abilities) and gather pools ------------
    def duplicate_choices(self, entry: WeaponEntry) -> dict[str, WeaponAbility]:
        """24.02: for each ability family with several instances, the attacker picks one."""
        keys = unit_keys(self.models)
        chosen: dict[str, WeaponAbility] = {}
        families = {type(a) for a in entry.weapon.abilities}
        for fam in sorted(families, key=lambda f: f.__name__):
            instances = entry.weapon.abilities_of(fam)
            if len(instances) < 2:
                continue
            default = choose_duplicate(entry.weapon, fam, keys) or instances[0]
            names = tuple(str(a) for a in instances)
            answer = ask(self.decider, DecisionRequest(
                DecisionKind.DUPLICATE_ABILITY, Player.ATTACKER, "R24.02-a",
                f"{entry.weapon.name}: which {fam.__name__} applies?", names, str(default),
                names,
            ))
            pick = instances[names.index(str(answer))]
            chosen[fam.__name__] = pick
            self.log("select", "24.02", f"{entry.weapon.name}: [{pick}] applies (duplicates)")
        return chosen

    def pools(self) -> list[tuple[PoolProfile, list[tuple[WeaponEntry, PoolProfile]]]]:
        """04.03 Gather Attack Dice: identical attacks are gathered together, in order."""
        pools: dict[tuple[object, ...], list[tuple[WeaponEntry, PoolProfile]]] = {}
        for entry in self.req.weapons:
            if entry.count <= 0:
                continue
            prof = pool_profile(entry, self.models, self.ctx, self.duplicate_choices(entry))
            pools.setdefault(pool_key(prof), []).append((entry, prof))
        return [(members[0][1], members) for members in pools.values()]

    # -- the sequence --------------------------------------------------------------------
    def run(self) -> AttackResult:
        results = []
        pools = self.pools()
        for prof, members in pools:
            if all(m.destroyed for m in self.models):
                self.log("gather", "05.04", f"{prof.name}: the target is destroyed; "
                         "the remaining attacks are lost")
                break
            results.append(self.resolve_pool(prof, members))
        hazard = self.hazards(pools)
        return AttackResult(tuple(results), tuple(self.models), tuple(self.attacker),
                            *hazard, tuple(self.events))

    def gather(self, members: list[tuple[WeaponEntry, PoolProfile]]) -> int:
        """Attack dice for the pool; a random A is rolled per weapon (02.04)."""
        n = 0
        for entry, prof in members:
            if not prof.attacks.is_random:
                n += prof.attacks.bonus * entry.count
                continue
            for _ in range(entry.count):
                total, dice = self.roll.expr(RollKind.ATTACKS, prof.attacks)
                n += total
                self.log("gather", "02.04", f"{prof.name}: A {prof.attacks} rolled "
                         f"{_faces(dice)} = {total}")
        label = " + ".join(f"{e.count}x {e.weapon.name}" for e, _ in members)
        self.log("gather", "04.03", f"{label}: {n} attack dice")
        for note in dict.fromkeys(note for _, p in members for note in p.notes):
            rule, _, text = note.partition(" ")
            self.log("gather", rule, text)
        return n

    def rerolled(self, dice: tuple[DieRoll, ...], policy: Reroll,
                 failed: list[bool], step: str) -> tuple[DieRoll, ...]:
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

    def resolve_pool(self, prof: PoolProfile,
                     members: list[tuple[WeaponEntry, PoolProfile]]) -> PoolResult:
        before = [m.wounds_lost for m in self.models]
        dead_before = sum(m.destroyed for m in self.models)
        n = self.gather(members)
        # -- 05.01 hit rolls
        auto_wounds = 0
        crit_hits = 0
        if prof.torrent:
            hits = n  # 24.37: automatically hits, so no critical hits
            self.log("hit", "24.37", f"[TORRENT]: {n} automatic hits")
        else:
            def hit(d: DieRoll) -> Outcome:
                return hit_outcome(d.unmodified, prof.hit_modifier, prof.skill,
                                   fail_up_to=prof.hit_fail_up_to)

            dice = self.roll.dice(RollKind.HIT, n)
            dice = self.rerolled(dice, prof.reroll_hits, [hit(d) is Outcome.FAIL for d in dice],
                                 "hit")
            outcomes = [hit(d) for d in dice]
            crit_hits = outcomes.count(Outcome.CRITICAL)
            hits = crit_hits + outcomes.count(Outcome.SUCCESS)
            self.log("hit", "05.01", f"hit rolls {_faces(dice)} needing {prof.skill}+"
                     f"{f' ({prof.hit_modifier:+d})' if prof.hit_modifier else ''}: "
                     f"{hits} hits, {crit_hits} critical")
            if prof.sustained and crit_hits:
                hits += prof.sustained * crit_hits
                self.log("hit", "24.36", f"[SUSTAINED HITS {prof.sustained}]: "
                         f"+{prof.sustained * crit_hits} hits")
            if prof.lethal:
                for _ in range(crit_hits):
                    auto = ask(self.decider, DecisionRequest(
                        DecisionKind.LETHAL_HITS, Player.ATTACKER, "R24.23-a",
                        "Does this critical hit wound automatically?", (True, False),
                        self.ctx.lethal_hits_auto, ("wound automatically", "roll to wound")))
                    auto_wounds += bool(auto)
                if auto_wounds:
                    self.log("hit", "24.23", f"[LETHAL HITS]: {auto_wounds} critical hits "
                             "wound automatically (not critical wounds)")
        # -- 05.02 wound rolls (19.02: the toughness of the unit now)
        toughness = attack_toughness(self.models)
        need = wound_threshold(prof.strength, toughness)

        def wound(d: DieRoll) -> Outcome:
            return wound_outcome(d.unmodified, prof.wound_modifier, need,
                                 crit_from=prof.wound_crit_from)

        wdice = self.roll.dice(RollKind.WOUND, hits - auto_wounds)
        wdice = self.rerolled(wdice, prof.reroll_wounds,
                              [wound(d) is Outcome.FAIL for d in wdice], "wound")
        woutcomes = [wound(d) for d in wdice]
        crit_wounds = woutcomes.count(Outcome.CRITICAL)
        wounds = crit_wounds + woutcomes.count(Outcome.SUCCESS) + auto_wounds
        self.log("wound", "05.02", f"wound rolls {_faces(wdice)}: S{prof.strength} vs "
                 f"T{toughness} needs {need}+"
                 f"{f' ({prof.wound_modifier:+d})' if prof.wound_modifier else ''}: "
                 f"{wounds - auto_wounds} wounds, {crit_wounds} critical")
        devastating = crit_wounds if prof.devastating else 0
        to_save = wounds - devastating
        if devastating:
            self.log("wound", "24.10", f"[DEVASTATING WOUNDS]: {devastating} critical wounds "
                     "end their sequence and inflict mortal wounds after the normal damage")
        # -- 05.03 save rolls and 05.04 inflict damage
        unsaved = self.saves(prof, to_save)
        # -- 06.02 mortal wounds after all normal damage (R06.02-e)
        mortal = self.devastating(prof, devastating)
        lost = sum(m.wounds_lost - b for m, b in zip(self.models, before, strict=True))
        dead = sum(m.destroyed for m in self.models) - dead_before
        return PoolResult(prof.name, n, hits, crit_hits, wounds, crit_wounds, unsaved, mortal,
                          lost, dead)

    def saves(self, prof: PoolProfile, n: int) -> int:
        if n == 0:
            return 0
        groups = make_groups(self.models)
        order = choose_order(groups, self.models, self.decider)
        self.log("save", "05.03", "allocation order: " +
                 " > ".join(groups[i].label(self.models) for i in order))
        precision = self.precision_group(prof, groups)
        dice = self.roll.dice(RollKind.SAVE, n)
        ordered = sorted(dice, key=lambda d: d.unmodified)  # 05.04: lowest result first
        self.log("save", "05.03", f"save rolls {_faces(dice)}, resolved lowest first (05.04)")
        unsaved = 0
        for d in ordered:
            group = self.current_group(groups, order, precision)
            if group is None:
                self.log("save", "05.04", f"save {d.unmodified}: the unit is destroyed; "
                         "the attack is lost")
                continue
            idx = choose_model(group_model_candidates(group, self.models), self.models,
                               self.decider, rule="R05.04-b")
            model = self.models[idx]
            if not save_inflicts_damage(d.unmodified, prof.ap, group.Sv, group.InSv):
                why = ("invulnerable save" if group.InSv is not None and d.unmodified >= group.InSv
                       else f"Sv {group.Sv}+ with AP {prof.ap}")
                self.log("save", "05.04", f"save {d.unmodified} vs {model.name}: saved ({why})")
                continue
            unsaved += 1
            self.log("save", "05.04", f"save {d.unmodified} vs {model.name}: fails "
                     f"(Sv {group.Sv}+, AP {prof.ap}"
                     f"{f', InSv {group.InSv}+' if group.InSv else ''})")
            self.damage(idx, prof)
        return unsaved

    def precision_group(self, prof: PoolProfile,
                        groups: tuple[AllocationGroup, ...]) -> AllocationGroup | None:
        """24.28: at the start of Allocation Order, the attacker may pick a visible
        CHARACTER's group as current."""
        if not prof.precision:
            return None
        options = tuple(i for i, g in enumerate(groups)
                        if g.character and any(self.models[j].visible for j in g.members))
        if not options:
            return None
        choice = ask(self.decider, DecisionRequest(
            DecisionKind.PRECISION, Player.ATTACKER, "R24.28-a",
            "[PRECISION]: make which CHARACTER group current?", (*options, None), options[0],
            (*(groups[i].label(self.models) for i in options), "none")))
        if choice is None:
            return None
        assert isinstance(choice, int)
        self.log("save", "24.28", f"[PRECISION]: {groups[choice].label(self.models)} is the "
                 "current group")
        return groups[choice]

    def current_group(self, groups: tuple[AllocationGroup, ...], order: tuple[int, ...],
                      precision: AllocationGroup | None) -> AllocationGroup | None:
        """05.03 sidebar: the first group with living models (a [PRECISION] group first)."""
        if precision is not None and precision.alive(self.models):
            return precision
        for i in order:
            if groups[i].alive(self.models):
                return groups[i]
        return None

    def lose_wounds(self, idx: int, amount: int, models: list[ModelState], rule: str) -> int:
        """The model loses ``amount`` wounds, each subject to Feel No Pain (24.12); excess
        beyond its remaining wounds is lost (R05.04-f). Returns wounds actually lost."""
        model = models[idx]
        if model.fnp is not None and amount:
            rolls = self.roll.dice(RollKind.FNP, amount)
            kept = sum(fnp_prevents(r.unmodified, model.fnp) for r in rolls)
            self.log("fnp", "24.12", f"Feel No Pain {model.fnp}+ for {model.name}: "
                     f"{_faces(rolls)}, {kept} of {amount} wounds not lost")
            amount -= kept
        lost = min(amount, model.remaining)
        models[idx] = model.losing(lost)
        if lost:
            after = models[idx]
            state = ("destroyed" if after.destroyed else
                     f"{after.remaining} wound{'s' * (after.remaining != 1)} left")
            wasted = amount - lost
            self.log("damage", rule, f"{model.name} loses {lost} wound{'s' * (lost != 1)}: "
                     f"{state}" + (f" ({wasted} damage lost, R05.04-f)" if wasted else ""))
        return lost

    def damage(self, idx: int, prof: PoolProfile) -> None:
        """05.04 Resolve Damage: D wounds (a random D rolled per attack)."""
        amount = prof.damage.bonus
        if prof.damage.is_random:
            amount, dice = self.roll.expr(RollKind.DAMAGE, prof.damage)
            self.log("damage", "02.04", f"damage {prof.damage} rolled {_faces(dice)} = {amount}")
        self.lose_wounds(idx, amount, self.models, "05.04")

    def devastating(self, prof: PoolProfile, crits: int) -> int:
        """24.10: D mortal wounds per critical wound, damaging at most one model each."""
        total = 0
        for _ in range(crits):
            amount = prof.damage.bonus
            if prof.damage.is_random:
                amount, dice = self.roll.expr(RollKind.DAMAGE, prof.damage)
                self.log("mortal", "24.10", f"mortal wounds {prof.damage} rolled "
                         f"{_faces(dice)} = {amount}")
            total += amount
            self.mortal_wounds(amount, self.models, capped=True)
        return total

    def mortal_wounds(self, amount: int, models: list[ModelState], *, capped: bool,
                      player: Player = Player.DEFENDER) -> None:
        """06.02: one at a time to the model the selection rules give; with the 24.10 cap,
        once the one damaged model is destroyed the rest are lost."""
        damaged: int | None = None
        for k in range(amount):
            # 24.10 caps only [DEVASTATING WOUNDS]; other mortal wounds carry on (R06.02-b)
            if capped and damaged is not None and models[damaged].destroyed:
                self.log("mortal", "24.10", f"{amount - k} mortal wounds lost "
                         "(one model per critical wound)")
                return
            candidates = mortal_wound_candidates(models)
            if not candidates:
                self.log("mortal", "06.02", f"{amount - k} mortal wounds lost: the unit is "
                         "destroyed")
                return
            if capped and damaged is not None:
                idx = damaged
            else:
                idx = choose_model(candidates, models, self.decider, rule="R06.02-a",
                                   player=player)
            if self.lose_wounds(idx, 1, models, "06.02"):
                damaged = idx

    def hazards(self, pools: list[tuple[PoolProfile, list[tuple[WeaponEntry, PoolProfile]]]]
                ) -> tuple[tuple[int, ...], int, int, int]:
        """24.15 / 06.03: after all attacks, one hazard roll per [HAZARDOUS] weapon selected,
        rolled together; each failure is 1 mortal wound (3 if all MONSTER/VEHICLE)."""
        n = sum(e.count for _, ms in pools for e, p in ms if p.hazardous)
        if n == 0:
            return (), 0, 0, 0
        rolls = self.roll.dice(RollKind.HAZARD, n)
        fails = sum(hazard_fails(r.unmodified) for r in rolls)
        if not self.attacker:
            self.log("hazard", "06.03", f"hazard rolls {_faces(rolls)}: {fails} failed "
                     "(no attacking models given)")
            return tuple(r.unmodified for r in rolls), 0, 0, 0
        per = hazard_mortal_wounds(self.attacker)
        mw = fails * per
        self.log("hazard", "06.03", f"hazard rolls {_faces(rolls)}: {fails} failed, "
                 f"{mw} mortal wounds to the attacker")
        before = sum(m.wounds_lost for m in self.attacker)
        dead = sum(m.destroyed for m in self.attacker)
        self.mortal_wounds(mw, self.attacker, capped=False, player=Player.ATTACKER)
        return (tuple(r.unmodified for r in rolls), mw,
                sum(m.wounds_lost for m in self.attacker) - before,
                sum(m.destroyed for m in self.attacker) - dead)


def resolve_attack(request: AttackRequest, dice: DiceSource,
                   decider: Decider | None = None) -> AttackResult:
    """Resolve one unit's attacks on one target unit, die by die (04.03 to 06.03)."""
    if not request.target or all(m.destroyed for m in request.target):
        raise ValueError("the target unit has no models left to attack")
    return _Resolution(request, dice, decider or DefaultDecider()).run()

