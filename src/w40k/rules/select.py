"""Select Weapons (04.01) and Select Targets (04.02) as pure validation.

Geometry is the caller's: visibility, range, half range and engagement arrive as a fact table
(:class:`Facts`) and this module checks a player's declaration against the rules of 04.01,
04.02, 04.03 (Splitting Melee Attacks), 10.04-10.07, 17.03 and 24 ([BLAST], [CLOSE-QUARTERS],
[EXTRA ATTACKS], [INDIRECT FIRE], [ONE SHOT]). :func:`gather_requests` turns a legal declaration
into per-target :class:`WeaponEntry` tuples for ``resolve_attack`` (04.03).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from w40k.core.abilities import (
    Assault,
    Blast,
    Cleave,
    CloseQuarters,
    ExtraAttacks,
    IndirectFire,
    OneShot,
)
from w40k.core.dice import DiceExpr
from w40k.core.errors import IllegalChoice
from w40k.core.profiles import WeaponProfile
from w40k.rules.attack_profile import WeaponEntry


class AttackKind(StrEnum):
    """The shooting type (10.04-10.07) or fighting."""

    NORMAL = "normal"
    ASSAULT = "assault"
    CLOSE_QUARTERS = "close_quarters"
    INDIRECT = "indirect"
    FIGHT = "fight"


@dataclass(frozen=True, slots=True)
class AttackingModel:
    """One model of the attacking unit and the weapons it has."""

    name: str
    """Unique within the unit."""
    weapons: tuple[WeaponProfile, ...]
    """Its weapons; a name listed twice means two such weapons."""
    monster_or_vehicle: bool = False
    """MONSTER or VEHICLE (10.06, 24.07 exceptions)."""


@dataclass(frozen=True, slots=True)
class TargetUnit:
    """Unit-level facts about an enemy unit."""

    name: str
    engaged: bool = False
    """Engaged with any unit (04.02 'Unengaged')."""
    engaged_with_attacker: bool = False
    """Engaged with the attacking unit (10.06)."""
    monster_or_vehicle: bool = False
    """MONSTER or VEHICLE (17.03)."""


@dataclass(frozen=True, slots=True)
class WeaponFacts:
    """Per (model, weapon, target) geometry, measured by the caller."""

    visible: bool = False
    """The target is visible to this model (06.01)."""
    in_range: bool = False
    """The target is within this weapon's range."""
    half_range: bool = False
    """The target is within half this weapon's range ([RAPID FIRE], [MELTA])."""
    engaged_with_model: bool = False
    """Melee: the target is engaged with this model (04.02)."""
    lone_operative_beyond: bool = False
    """24.24: the target is a Lone Operative unit and this model is not within its X" (it
    cannot be targeted by [INDIRECT FIRE] weapons, which otherwise ignore visibility)."""


@dataclass(frozen=True, slots=True)
class WeaponChoice:
    """One selected weapon and its target(s)."""

    weapon: str
    """The weapon's name on the model."""
    targets: tuple[str, ...] = ()
    """Ranged: one target or none (R04.02-e). Melee: one or more."""
    attacks: tuple[int, ...] = ()
    """Melee split: attacks declared per target, in ``targets`` order (04.03)."""


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """The weapons one model selects."""

    model: str
    weapons: tuple[WeaponChoice, ...] = ()


_NO_FACTS = WeaponFacts()

FactKey = tuple[str, str, str]
"""``(model name, weapon name, target name)``."""


@dataclass(frozen=True, slots=True)
class Selection:
    """Everything Select Weapons/Targets needs: the unit, the enemy, the facts, the choice."""

    kind: AttackKind
    models: tuple[AttackingModel, ...]
    targets: tuple[TargetUnit, ...]
    facts: Mapping[FactKey, WeaponFacts]
    """Missing entries mean: not visible, not in range, not engaged."""
    declaration: tuple[ModelChoice, ...]
    one_shots_used: frozenset[tuple[str, str]] = frozenset()
    """``(model, weapon)`` [ONE SHOT] weapons already fired this battle (24.26)."""
    attacker_engaged: bool = False
    """The attacking unit is engaged (10.04-10.07 eligibility)."""
    advanced: bool = False
    """The attacking unit made an advance move this turn."""
    your_shooting_phase: bool = True
    """17.03 only lets engaged MONSTER/VEHICLE units be shot in your own Shooting phase."""

    def fact(self, model: str, weapon: str, target: str) -> WeaponFacts:
        """The caller's facts, or the all-false default."""
        return self.facts.get((model, weapon, target), _NO_FACTS)


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule in a declaration."""

    rule: str
    """Checklist ID (``R04.02-a``)."""
    model: str
    weapon: str
    message: str

    def error(self) -> IllegalChoice:
        """The violation as the engine's error type."""
        return IllegalChoice(f"{self.model} / {self.weapon}: {self.message}", rule=self.rule)


def _has(weapon: WeaponProfile, family: type[object]) -> bool:
    return any(isinstance(a, family) for a in weapon.abilities)


def _eligibility(sel: Selection) -> list[Violation]:
    """10.04-10.07: whether the unit may use the shooting type at all."""
    out: list[Violation] = []

    def any_weapon(family: type[object]) -> bool:
        # read only by the shooting types that need a weapon ability (not normal shooting)
        return any(_has(w, family) for m in sel.models for w in m.weapons)

    def bad(rule: str, msg: str) -> None:
        out.append(Violation(rule, "", "", msg))

    if sel.kind is AttackKind.NORMAL and (sel.attacker_engaged or sel.advanced):
        # R10.04-a; R17.03-c: engaged with a MONSTER/VEHICLE still means no normal shooting.
        rule = "R17.03-c" if sel.attacker_engaged else "R10.04-a"
        bad(rule, "normal shooting needs an unengaged unit that did not advance")
    elif sel.kind is AttackKind.ASSAULT and (
        sel.attacker_engaged or not sel.advanced or not any_weapon(Assault)
    ):
        bad("R10.05-a", "assault shooting needs an unengaged, advanced unit with [ASSAULT]")
    elif sel.kind is AttackKind.CLOSE_QUARTERS and (
        not sel.attacker_engaged
        or sel.advanced
        or not (
            any_weapon(CloseQuarters)
            or any(m.monster_or_vehicle for m in sel.models)
        )
    ):
        bad(
            "R10.06-a",
            "close-quarters shooting needs an engaged unit that did not advance, "
            "with [CLOSE-QUARTERS] weapons or MONSTER/VEHICLE",
        )
    elif sel.kind is AttackKind.INDIRECT and (
        sel.attacker_engaged or sel.advanced or not any_weapon(IndirectFire)
    ):
        bad(
            "R10.07-a",
            "indirect shooting needs an unengaged unit that did not advance, "
            "with [INDIRECT FIRE] weapons",
        )
    return out


def _resolve_weapons(
    model: AttackingModel, choice: ModelChoice, rule: str, out: list[Violation]
) -> list[tuple[WeaponChoice, WeaponProfile]]:
    """Match declared weapon names to the model's weapons (each carried weapon used once)."""
    left = list(model.weapons)
    found: list[tuple[WeaponChoice, WeaponProfile]] = []
    for wc in choice.weapons:
        match = next((w for w in left if w.name == wc.weapon), None)
        if match is None:
            out.append(
                Violation(
                    rule,
                    model.name,
                    wc.weapon,
                    "the model has no such weapon "
                    "(or it is selected more times than the model has it)",
                )
            )
            continue
        left.remove(match)
        found.append((wc, match))
    return found


def validate_selection(sel: Selection) -> list[Violation]:
    """Every rule the declaration breaks; empty when it is legal."""
    out = _eligibility(sel)
    # a one-model declaration (the shooting listing asks ~750 a game) tables only its model
    # (the last of that name, as the whole table holds)
    one = sel.declaration[0].model if len(sel.declaration) == 1 else None
    models = {m.name: m for m in sel.models if one is None or m.name == one}
    targets = {t.name: t for t in sel.targets}
    fighting = sel.kind is AttackKind.FIGHT
    for choice in sel.declaration:
        model = models.get(choice.model)
        if model is None:
            out.append(Violation("R04.01-a", choice.model, "", "no such model in the unit"))
            continue
        chosen = _resolve_weapons(model, choice, "R04.01-b" if fighting else "R04.01-a", out)
        if fighting:
            _check_fight_weapons(sel, model, chosen, out)
        else:
            _check_shooting_weapons(sel, model, chosen, out)
        for wc, weapon in chosen:
            # R24.26-a: a [ONE SHOT] weapon is used once per battle.
            if _has(weapon, OneShot) and (model.name, weapon.name) in sel.one_shots_used:
                out.append(
                    Violation(
                        "R24.26-a",
                        model.name,
                        weapon.name,
                        "[ONE SHOT] weapon already used this battle",
                    )
                )
            unknown = [t for t in wc.targets if t not in targets]
            if unknown:
                rule = "R04.02-c" if fighting else "R04.02-a"
                out.append(Violation(rule, model.name, weapon.name, f"unknown target(s) {unknown}"))
                continue
            if len(set(wc.targets)) != len(wc.targets):
                out.append(
                    Violation(
                        "R04.02-d" if fighting else "R04.02-a",
                        model.name,
                        weapon.name,
                        "a target is listed twice",
                    )
                )
                continue
            if fighting:
                if weapon.is_melee:
                    _check_melee_targets(sel, model, wc, weapon, targets, out)
            elif not weapon.is_melee:
                _check_ranged_targets(sel, model, wc, weapon, targets, out)
    return out


def _check_fight_weapons(
    sel: Selection,
    model: AttackingModel,
    chosen: list[tuple[WeaponChoice, WeaponProfile]],
    out: list[Violation],
) -> None:
    """R04.01-b: exactly one melee weapon; R24.11-a: plus every [EXTRA ATTACKS] weapon."""
    for _, w in chosen:
        if not w.is_melee:
            out.append(Violation("R04.01-b", model.name, w.name, "a ranged weapon cannot fight"))
    melee = [w for w in model.weapons if w.is_melee]
    extra = [w for w in melee if _has(w, ExtraAttacks)]
    others = [w for w in melee if not _has(w, ExtraAttacks)]
    picked = [w for _, w in chosen if w.is_melee]
    picked_others = [w for w in picked if not _has(w, ExtraAttacks)]
    picked_extra = [w for w in picked if _has(w, ExtraAttacks)]
    if others and len(picked_others) != 1:
        out.append(
            Violation(
                "R04.01-b",
                model.name,
                "",
                f"must select exactly one melee weapon, selected {len(picked_others)}",
            )
        )
    if len(picked_extra) != len(extra):
        out.append(
            Violation("R24.11-a", model.name, "", "every [EXTRA ATTACKS] weapon must be selected")
        )


def _check_shooting_weapons(
    sel: Selection,
    model: AttackingModel,
    chosen: list[tuple[WeaponChoice, WeaponProfile]],
    out: list[Violation],
) -> None:
    """R04.01-a, R10.05-a, R10.06-b, R24.07-a."""
    for _, w in chosen:
        if w.is_melee:
            out.append(
                Violation(
                    "R04.01-a",
                    model.name,
                    w.name,
                    "only ranged weapons can be selected while shooting (R04-b)",
                )
            )
        elif sel.kind is AttackKind.ASSAULT and not _has(w, Assault):
            # 10.05: only [ASSAULT] weapons.
            out.append(
                Violation(
                    "R10.05-a",
                    model.name,
                    w.name,
                    "assault shooting selects only [ASSAULT] weapons",
                )
            )
        elif (
            sel.kind is AttackKind.CLOSE_QUARTERS
            and not model.monster_or_vehicle
            and not _has(w, CloseQuarters)
        ):
            # 10.06: non-MONSTER/VEHICLE models select only [CLOSE-QUARTERS] weapons.
            out.append(
                Violation(
                    "R10.06-b",
                    model.name,
                    w.name,
                    "close-quarters shooting selects only [CLOSE-QUARTERS] weapons",
                )
            )
    ranged = [w for _, w in chosen if not w.is_melee]
    if sel.kind is not AttackKind.CLOSE_QUARTERS and not model.monster_or_vehicle:
        # 24.07: either the [CLOSE-QUARTERS]/[PISTOL] weapons or the other ranged weapons.
        cq = [w for w in ranged if _has(w, CloseQuarters)]
        if cq and len(cq) != len(ranged):
            out.append(
                Violation(
                    "R24.07-a",
                    model.name,
                    "",
                    "select either [CLOSE-QUARTERS] weapons or other ranged weapons",
                )
            )


def _check_ranged_targets(
    sel: Selection,
    model: AttackingModel,
    wc: WeaponChoice,
    weapon: WeaponProfile,
    targets: Mapping[str, TargetUnit],
    out: list[Violation],
) -> None:
    """04.02 while shooting: one target, visible, in range, unengaged unless a rule allows."""

    def bad(rule: str, msg: str) -> None:
        out.append(Violation(rule, model.name, weapon.name, msg))

    if wc.attacks:
        bad("R04.02-a", "only melee weapons declare attacks per target")
    if len(wc.targets) > 1:
        bad("R04.02-a", "a ranged weapon selects one target")
        return
    for name in wc.targets:  # none: the weapon makes no attacks (R04.02-e)
        target = targets[name]
        f = sel.fact(model.name, weapon.name, name)
        indirect = sel.kind is AttackKind.INDIRECT and _has(weapon, IndirectFire)
        if not f.visible and not indirect:
            # R04.02-a / R06.01-f: visible to this model; 10.07 excepts [INDIRECT FIRE].
            bad("R06.01-f", f"{name} is not visible to this model")
        if indirect and f.lone_operative_beyond:
            # R24.24-a / R13.09-e: indirect fire ignores visibility (so hidden), not this.
            bad("R24.24-a", f"{name} is a Lone Operative beyond this model's reach")
        if not f.in_range:
            bad("R04.02-a", f"{name} is not within this weapon's range")
        cq = sel.kind is AttackKind.CLOSE_QUARTERS
        if cq and not model.monster_or_vehicle and not target.engaged_with_attacker:
            # 10.06: non-MONSTER/VEHICLE models target only units engaged with their unit.
            bad("R10.06-b", f"{name} is not engaged with the attacking unit")
        if target.engaged:
            allowed = (cq and target.engaged_with_attacker) or (
                target.monster_or_vehicle and sel.your_shooting_phase  # 17.03
            )
            if not allowed:
                bad("R04.02-a", f"{name} is engaged")
            if _has(weapon, Blast):
                # 24.05 FAQ: [BLAST] never targets an engaged unit (RF-2, RF-3).
                if target.monster_or_vehicle:
                    rule = "R17.03-b"
                elif cq and target.engaged_with_attacker:
                    rule = "R10.06-d"
                else:
                    rule = "R24.05-b"
                bad(rule, f"[BLAST] cannot target the engaged unit {name}")


def _check_melee_targets(
    sel: Selection,
    model: AttackingModel,
    wc: WeaponChoice,
    weapon: WeaponProfile,
    targets: Mapping[str, TargetUnit],
    out: list[Violation],
) -> None:
    """04.02 while fighting, and Splitting Melee Attacks (04.03)."""

    def bad(rule: str, msg: str) -> None:
        out.append(Violation(rule, model.name, weapon.name, msg))

    for name in wc.targets:
        if not sel.fact(model.name, weapon.name, name).engaged_with_model:
            bad("R04.02-c", f"{name} is not engaged with this model")
    if not wc.targets:
        # R04.02-e: no attacks only when no target can be selected.
        if any(sel.fact(model.name, weapon.name, t).engaged_with_model for t in targets):
            bad("R04.02-e", "a melee weapon must target a unit engaged with its model")
        return
    if len(wc.targets) > weapon.A.max:
        bad("R04.02-d", f"{len(wc.targets)} targets but A is {weapon.A}")
    if len(wc.targets) == 1:
        if wc.attacks and (weapon.A.is_random or wc.attacks != (weapon.A.max,)):
            bad("R04.03-e", "a single target takes all of the weapon's attacks")
        return
    if weapon.A.is_random:
        # Ruling: a split is declared at Select Targets, before a random A is rolled; roll A
        # first and pass the weapon with a fixed A.
        bad("R04.03-e", "a random A cannot be split before it is rolled")
        return
    if len(wc.attacks) != len(wc.targets):
        bad("R04.03-e", "a split weapon declares attacks for each target")
    elif any(n < 1 for n in wc.attacks):
        bad("R04.03-e", "at least one attack per target")
    elif sum(wc.attacks) != weapon.A.max:
        bad("R04.03-e", f"declared {sum(wc.attacks)} attacks, A is {weapon.A.max}")


def is_single_target(sel: Selection, model: str, weapon: str) -> bool:
    """[CLEAVE] (24.06): all of that weapon's attacks go to one target."""
    for choice in sel.declaration:
        if choice.model == model:
            for wc in choice.weapons:
                if wc.weapon == weapon and len(wc.targets) > 1:
                    return False
    return True


def gather_requests(sel: Selection, *, checked: bool = False
                    ) -> dict[str, tuple[WeaponEntry, ...]]:
    """Per target, in order of first declaration, the weapon entries ``resolve_attack`` takes.

    04.03-a: each target gets all of its weapons before the next. Identical profiles at the
    same half-range state collapse into one entry with a count (04.03-b). A split melee weapon
    becomes a copy with ``A`` fixed to the declared attacks and without [CLEAVE] (24.06 needs a
    single target), so every entry is correct under ``AttackContext(single_target=True)``.
    Raises :class:`IllegalChoice` for the first violation of an illegal declaration.
    ``checked``: the caller knows the declaration legal, so it is not checked again: a
    shooting resolution groups a declaration that passed :func:`validate_selection` into
    parts with its own unit, facts and targets, and every shooting check holds for a part
    of a legal one (10.04-10.07 read the unit; 04.01, 04.02, 24.26 each weapon copy; 24.07
    that a model's ranged weapons are all [CLOSE-QUARTERS] or none are). Not so while
    fighting (04.01-b, 24.11 need every [EXTRA ATTACKS] weapon of the model).
    """
    if not checked:
        violations = validate_selection(sel)
        if violations:
            raise violations[0].error()
    models = {m.name: m for m in sel.models}
    gathered: dict[str, dict[tuple[WeaponProfile, bool | None], int]] = {}
    for choice in sel.declaration:
        model = models[choice.model]
        for wc in choice.weapons:
            weapon = next(w for w in model.weapons if w.name == wc.weapon)
            split = len(wc.targets) > 1
            for i, target in enumerate(wc.targets):
                profile = weapon
                if split:
                    profile = replace(
                        weapon,
                        A=DiceExpr.fixed(wc.attacks[i]),
                        abilities=tuple(a for a in weapon.abilities if not isinstance(a, Cleave)),
                    )
                half: bool | None = None
                if not weapon.is_melee:
                    half = sel.fact(model.name, weapon.name, target).half_range
                pools = gathered.setdefault(target, {})
                pools[(profile, half)] = pools.get((profile, half), 0) + 1
    return {
        target: tuple(WeaponEntry(p, count=n, half_range=h) for (p, h), n in pools.items())
        for target, pools in gathered.items()
    }
