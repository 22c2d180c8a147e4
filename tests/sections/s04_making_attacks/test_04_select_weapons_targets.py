"""04.01 Select Weapons and 04.02 Select Targets as validation, with 10.04-10.07, 17.03 and the
weapon abilities that restrict selection (24.05, 24.07, 24.11, 24.26)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from w40k.core.abilities import Cleave
from w40k.core.errors import IllegalChoice
from w40k.core.profiles import WeaponProfile
from w40k.rules.select import (
    AttackingModel,
    AttackKind,
    ModelChoice,
    Selection,
    TargetUnit,
    WeaponChoice,
    WeaponFacts,
    gather_requests,
    is_single_target,
    validate_selection,
)


def gun(name: str, rng: object = 24, A: object = 2, *abilities: str) -> WeaponProfile:
    return WeaponProfile.build(name, range=rng, A=A, skill=3, S=4, AP=0, D=1, abilities=abilities)


BOLTGUN = gun("boltgun")
PISTOL = gun("bolt pistol", 12, 1, "PISTOL")
RIFLE = gun("bolt rifle", 24, 2, "ASSAULT")
HEAVY = gun("heavy bolter", 36, 3)
FRAG = gun("frag missile", 48, "D6", "BLAST")
MORTAR = gun("mortar", 48, "D6", "INDIRECT FIRE", "BLAST")
KRAK = gun("hunter-killer", 48, 1, "ONE SHOT")
CHAINSWORD = gun("chainsword", "Melee", 4)
FIST = gun("power fist", "Melee", 3)
JAWS = gun("squig jaws", "Melee", 1, "EXTRA ATTACKS")
AXE = gun("cleaver", "Melee", 4, "CLEAVE 1")

SEEN = WeaponFacts(visible=True, in_range=True)
NEAR = WeaponFacts(visible=True, in_range=True, half_range=True)
BASE = WeaponFacts(engaged_with_model=True)

X = TargetUnit("X")
Y = TargetUnit("Y")
ENGAGED_X = TargetUnit("X", engaged=True, engaged_with_attacker=True)
TANK = TargetUnit("tank", engaged=True, monster_or_vehicle=True)


def sel(
    kind: AttackKind,
    models: Iterable[AttackingModel],
    targets: Iterable[TargetUnit],
    declaration: Iterable[ModelChoice],
    facts: dict[tuple[str, str, str], WeaponFacts] | None = None,
    default: WeaponFacts | None = SEEN,
    **kw: object,
) -> Selection:
    """Every (model, weapon, target) gets ``default`` unless ``facts`` says otherwise."""
    ms, ts = tuple(models), tuple(targets)
    table = {}
    if default is not None:
        table = {(m.name, w.name, t.name): default for m in ms for w in m.weapons for t in ts}
    table.update(facts or {})
    return Selection(kind, ms, ts, table, tuple(declaration), **kw)  # type: ignore[arg-type]


def choose(model: str, *weapons: tuple[str, tuple[str, ...]] | WeaponChoice) -> ModelChoice:
    return ModelChoice(
        model, tuple(w if isinstance(w, WeaponChoice) else WeaponChoice(*w) for w in weapons)
    )


def rules(s: Selection) -> set[str]:
    return {v.rule for v in validate_selection(s)}


# --- 04.01 Select Weapons --------------------------------------------------------------------


def test_a_shooting_model_may_select_just_one_of_its_ranged_weapons() -> None:
    # R04.01-a: boltgun and grenade launcher, only the launcher selected -> legal
    m = AttackingModel("M", (BOLTGUN, HEAVY))
    assert rules(sel(AttackKind.NORMAL, [m], [X], [choose("M", ("heavy bolter", ("X",)))])) == set()


def test_a_shooting_model_cannot_select_a_melee_weapon_or_one_it_does_not_have() -> None:
    # R04.01-a / R04-b: a melee-only model makes no ranged attacks
    m = AttackingModel("M", (CHAINSWORD,))
    s = sel(AttackKind.NORMAL, [m], [X], [choose("M", ("chainsword", ("X",)))])
    assert rules(s) == {"R04.01-a"}
    s = sel(AttackKind.NORMAL, [m], [X], [choose("M", ("boltgun", ("X",)))])
    assert rules(s) == {"R04.01-a"}


def test_a_model_with_no_melee_weapon_makes_no_melee_attacks_and_selects_none() -> None:
    # R04-b: no melee weapon -> nothing to select, and selecting a gun to fight is rejected
    m = AttackingModel("M", (BOLTGUN,))
    assert rules(sel(AttackKind.FIGHT, [m], [X], [choose("M")], default=BASE)) == set()
    s = sel(AttackKind.FIGHT, [m], [X], [choose("M", ("boltgun", ("X",)))], default=BASE)
    assert "R04.01-b" in rules(s)


def test_a_fighting_model_must_select_exactly_one_melee_weapon() -> None:
    # R04.01-b: chainsword and power fist both -> rejected; none -> rejected
    m = AttackingModel("M", (CHAINSWORD, FIST))
    both = choose("M", ("chainsword", ("X",)), ("power fist", ("X",)))
    assert rules(sel(AttackKind.FIGHT, [m], [X], [both], default=BASE)) == {"R04.01-b"}
    assert rules(sel(AttackKind.FIGHT, [m], [X], [choose("M")], default=BASE)) == {"R04.01-b"}
    one = choose("M", ("power fist", ("X",)))
    assert rules(sel(AttackKind.FIGHT, [m], [X], [one], default=BASE)) == set()


def test_extra_attacks_weapons_must_all_be_selected_alongside_one_other_melee_weapon() -> None:
    # R24.11-a: choppa + squig jaws -> both, 3 attacks; jaws alone when it is the only weapon
    m = AttackingModel("M", (CHAINSWORD, JAWS))
    s = sel(AttackKind.FIGHT, [m], [X], [choose("M", ("chainsword", ("X",)))], default=BASE)
    assert rules(s) == {"R24.11-a"}
    full = choose("M", ("chainsword", ("X",)), ("squig jaws", ("X",)))
    s = sel(AttackKind.FIGHT, [m], [X], [full], default=BASE)
    assert rules(s) == set()
    entries = gather_requests(s)["X"]
    assert sum(e.weapon.A.max * e.count for e in entries) == 5
    only = AttackingModel("N", (JAWS,))
    s = sel(AttackKind.FIGHT, [only], [X], [choose("N", ("squig jaws", ("X",)))], default=BASE)
    assert rules(s) == set()


# --- 24.07 CLOSE-QUARTERS either-or ----------------------------------------------------------


def test_an_infantry_model_cannot_fire_pistol_and_rifle_together_outside_close_quarters() -> None:
    # R24.07-a
    m = AttackingModel("M", (PISTOL, BOLTGUN))
    s = sel(
        AttackKind.NORMAL, [m], [X], [choose("M", ("bolt pistol", ("X",)), ("boltgun", ("X",)))]
    )
    assert rules(s) == {"R24.07-a"}


def test_a_vehicle_may_fire_its_pistol_type_weapon_and_its_cannon_together() -> None:
    # R24.07-a: MONSTER/VEHICLE models are excluded
    m = AttackingModel("V", (PISTOL, HEAVY), monster_or_vehicle=True)
    s = sel(
        AttackKind.NORMAL,
        [m],
        [X],
        [choose("V", ("bolt pistol", ("X",)), ("heavy bolter", ("X",)))],
    )
    assert rules(s) == set()


# --- 10.04-10.07 shooting types --------------------------------------------------------------


def test_assault_shooting_selects_only_assault_weapons() -> None:
    # R10.05-a: advanced unit with bolt rifle [ASSAULT] and heavy bolter
    m = AttackingModel("M", (RIFLE, HEAVY))
    ok = sel(AttackKind.ASSAULT, [m], [X], [choose("M", ("bolt rifle", ("X",)))], advanced=True)
    assert rules(ok) == set()
    bad = sel(AttackKind.ASSAULT, [m], [X], [choose("M", ("heavy bolter", ("X",)))], advanced=True)
    assert rules(bad) == {"R10.05-a"}


def test_assault_shooting_needs_an_advanced_unit_with_an_assault_weapon() -> None:
    # R10.05-a eligibility
    m = AttackingModel("M", (HEAVY,))
    assert "R10.05-a" in rules(sel(AttackKind.ASSAULT, [m], [X], [choose("M")], advanced=True))
    r = AttackingModel("M", (RIFLE,))
    assert "R10.05-a" in rules(sel(AttackKind.ASSAULT, [r], [X], [choose("M")], advanced=False))


def test_normal_shooting_is_not_available_to_an_engaged_or_advanced_unit() -> None:
    # R17.03-c (engaged, even with a MONSTER/VEHICLE) and R10.04-a (advanced)
    m = AttackingModel("M", (BOLTGUN,))
    s = sel(
        AttackKind.NORMAL, [m], [TANK], [choose("M", ("boltgun", ("tank",)))], attacker_engaged=True
    )
    assert "R17.03-c" in rules(s)
    assert "R10.04-a" in rules(sel(AttackKind.NORMAL, [m], [X], [choose("M")], advanced=True))


def test_close_quarters_shooting_needs_an_engaged_unit_with_a_pistol_or_a_monster() -> None:
    # R10.06-a: engaged infantry with only boltguns -> not eligible
    m = AttackingModel("M", (BOLTGUN,))
    s = sel(AttackKind.CLOSE_QUARTERS, [m], [ENGAGED_X], [choose("M")], attacker_engaged=True)
    assert rules(s) == {"R10.06-a"}
    v = AttackingModel("V", (BOLTGUN,), monster_or_vehicle=True)
    s = sel(AttackKind.CLOSE_QUARTERS, [v], [ENGAGED_X], [choose("V")], attacker_engaged=True)
    assert rules(s) == set()


def test_close_quarters_infantry_fire_only_pistols_and_only_at_units_engaged_with_them() -> None:
    # R10.06-b: pistols cannot target an unengaged unit 10" away; boltguns cannot be selected
    m = AttackingModel("M", (PISTOL, BOLTGUN))
    units = [ENGAGED_X, Y]
    ok = sel(
        AttackKind.CLOSE_QUARTERS,
        [m],
        units,
        [choose("M", ("bolt pistol", ("X",)))],
        attacker_engaged=True,
    )
    assert rules(ok) == set()
    far = sel(
        AttackKind.CLOSE_QUARTERS,
        [m],
        units,
        [choose("M", ("bolt pistol", ("Y",)))],
        attacker_engaged=True,
    )
    assert rules(far) == {"R10.06-b"}
    rifle = sel(
        AttackKind.CLOSE_QUARTERS,
        [m],
        units,
        [choose("M", ("boltgun", ("X",)))],
        attacker_engaged=True,
    )
    assert rules(rifle) == {"R10.06-b"}


def test_a_close_quarters_vehicle_fires_everything_but_not_blast_at_its_engaged_foe() -> None:
    # R10.06-c selection part, R10.06-d / RF-2: battle cannon at X rejected, at Y allowed
    v = AttackingModel("V", (PISTOL, FRAG), monster_or_vehicle=True)
    units = [ENGAGED_X, Y]
    ok = sel(
        AttackKind.CLOSE_QUARTERS,
        [v],
        units,
        [choose("V", ("bolt pistol", ("X",)), ("frag missile", ("Y",)))],
        attacker_engaged=True,
    )
    assert rules(ok) == set()
    bad = sel(
        AttackKind.CLOSE_QUARTERS,
        [v],
        units,
        [choose("V", ("frag missile", ("X",)))],
        attacker_engaged=True,
    )
    assert rules(bad) == {"R10.06-d"}


def test_indirect_fire_weapons_may_target_unseen_units_only_in_indirect_shooting() -> None:
    # R10.07-a / R06.01-f: the mortar needs no line of sight; its boltgun still does (R10.07-e)
    m = AttackingModel("M", (MORTAR, BOLTGUN))
    hidden = WeaponFacts(visible=False, in_range=True)
    s = sel(AttackKind.INDIRECT, [m], [X], [choose("M", ("mortar", ("X",)))], default=hidden)
    assert rules(s) == set()
    s = sel(AttackKind.INDIRECT, [m], [X], [choose("M", ("boltgun", ("X",)))], default=hidden)
    assert rules(s) == {"R06.01-f"}
    s = sel(AttackKind.NORMAL, [m], [X], [choose("M", ("mortar", ("X",)))], default=hidden)
    assert rules(s) == {"R06.01-f"}
    out_of_range = sel(
        AttackKind.INDIRECT, [m], [X], [choose("M", ("mortar", ("X",)))], default=WeaponFacts()
    )
    assert rules(out_of_range) == {"R04.02-a"}


def test_indirect_fire_weapons_may_not_target_a_lone_operative_beyond_its_range() -> None:
    # R24.24-a / R13.09-e: indirect fire ignores visibility, not Lone Operative's X"
    m = AttackingModel("M", (MORTAR,))
    far = WeaponFacts(visible=False, in_range=True, lone_operative_beyond=True)
    s = sel(AttackKind.INDIRECT, [m], [X], [choose("M", ("mortar", ("X",)))], default=far)
    assert rules(s) == {"R24.24-a"}
    near = WeaponFacts(visible=False, in_range=True)
    s = sel(AttackKind.INDIRECT, [m], [X], [choose("M", ("mortar", ("X",)))], default=near)
    assert rules(s) == set()


def test_indirect_shooting_needs_an_indirect_fire_weapon() -> None:
    # R10.07-a
    m = AttackingModel("M", (BOLTGUN,))
    assert rules(sel(AttackKind.INDIRECT, [m], [X], [choose("M")])) == {"R10.07-a"}


# --- 04.02 Select Targets (shooting) ---------------------------------------------------------


def test_only_the_model_in_range_of_its_own_weapon_may_shoot() -> None:
    # R04.02-a: M1 at 23", M2 at 25" with 24" boltguns, both seeing -> only M1
    m1, m2 = AttackingModel("M1", (BOLTGUN,)), AttackingModel("M2", (BOLTGUN,))
    facts = {("M2", "boltgun", "X"): WeaponFacts(visible=True, in_range=False)}
    s = sel(
        AttackKind.NORMAL,
        [m1, m2],
        [X],
        [choose("M1", ("boltgun", ("X",))), choose("M2", ("boltgun", ("X",)))],
        facts,
    )
    vs = validate_selection(s)
    assert [(v.rule, v.model) for v in vs] == [("R04.02-a", "M2")]


def test_only_models_that_see_the_target_may_shoot_it() -> None:
    # R06.01-f / X000-b: 1 model of 2 sees
    m1, m2 = AttackingModel("M1", (BOLTGUN,)), AttackingModel("M2", (BOLTGUN,))
    facts = {("M2", "boltgun", "X"): WeaponFacts(visible=False, in_range=True)}
    s = sel(
        AttackKind.NORMAL,
        [m1, m2],
        [X],
        [choose("M1", ("boltgun", ("X",))), choose("M2", ("boltgun", ("X",)))],
        facts,
    )
    assert [(v.rule, v.model) for v in validate_selection(s)] == [("R06.01-f", "M2")]


def test_an_engaged_infantry_unit_cannot_be_shot_but_an_engaged_tank_can() -> None:
    # R04.02-a unengaged; 17.03: engaged MONSTER/VEHICLE in your Shooting phase only
    m = AttackingModel("M", (BOLTGUN,))
    engaged = TargetUnit("Z", engaged=True)
    assert rules(sel(AttackKind.NORMAL, [m], [engaged], [choose("M", ("boltgun", ("Z",)))])) == {
        "R04.02-a"
    }
    assert (
        rules(sel(AttackKind.NORMAL, [m], [TANK], [choose("M", ("boltgun", ("tank",)))])) == set()
    )
    theirs = sel(
        AttackKind.NORMAL,
        [m],
        [TANK],
        [choose("M", ("boltgun", ("tank",)))],
        your_shooting_phase=False,
    )
    assert rules(theirs) == {"R04.02-a"}


def test_blast_never_targets_an_engaged_unit() -> None:
    # R24.05-b, R17.03-b / RF-3: frag missile at the engaged tank -> rejected
    m = AttackingModel("M", (FRAG,))
    assert rules(
        sel(AttackKind.NORMAL, [m], [TANK], [choose("M", ("frag missile", ("tank",)))])
    ) == {"R17.03-b"}
    engaged = TargetUnit("Z", engaged=True)
    s = sel(AttackKind.NORMAL, [m], [engaged], [choose("M", ("frag missile", ("Z",)))])
    assert "R24.05-b" in rules(s)
    assert rules(sel(AttackKind.NORMAL, [m], [X], [choose("M", ("frag missile", ("X",)))])) == set()


def test_each_weapon_may_choose_a_different_target_but_only_one() -> None:
    # R04.02-b: boltgun at X, heavy bolter at Y -> legal; a gun at X and Y -> rejected
    m = AttackingModel("M", (BOLTGUN, HEAVY))
    s = sel(
        AttackKind.NORMAL, [m], [X, Y], [choose("M", ("boltgun", ("X",)), ("heavy bolter", ("Y",)))]
    )
    assert rules(s) == set()
    assert set(gather_requests(s)) == {"X", "Y"}
    two = sel(AttackKind.NORMAL, [m], [X, Y], [choose("M", ("boltgun", ("X", "Y")))])
    assert rules(two) == {"R04.02-a"}


def test_a_ranged_weapon_given_no_target_makes_no_attacks() -> None:
    # R04.02-e: no target -> legal, 0 dice gathered
    m = AttackingModel("M", (BOLTGUN,))
    s = sel(AttackKind.NORMAL, [m], [X], [choose("M", ("boltgun", ()))])
    assert rules(s) == set()
    assert gather_requests(s) == {}


def test_a_one_shot_weapon_fires_once_per_battle() -> None:
    # R24.26-a: second selection rejected (a revived model keeps the used record)
    m = AttackingModel("M", (KRAK,))
    d = [choose("M", ("hunter-killer", ("X",)))]
    assert rules(sel(AttackKind.NORMAL, [m], [X], d)) == set()
    used = sel(AttackKind.NORMAL, [m], [X], d, one_shots_used=frozenset({("M", "hunter-killer")}))
    assert rules(used) == {"R24.26-a"}


# --- 04.02 Select Targets (fighting) and splitting ------------------------------------------


def test_a_melee_target_must_be_engaged_with_that_model_not_just_its_unit() -> None:
    # R04.02-c
    m1, m2 = AttackingModel("M1", (CHAINSWORD,)), AttackingModel("M2", (CHAINSWORD,))
    facts = {("M1", "chainsword", "X"): BASE}
    s = sel(
        AttackKind.FIGHT,
        [m1, m2],
        [ENGAGED_X],
        [choose("M1", ("chainsword", ("X",))), choose("M2", ("chainsword", ("X",)))],
        facts,
        default=None,
    )
    assert [(v.rule, v.model) for v in validate_selection(s)] == [("R04.02-c", "M2")]


def test_an_engaged_model_must_give_its_melee_weapon_a_target() -> None:
    # R04.02-e: fighting is mandatory when a target can be selected
    m = AttackingModel("M", (CHAINSWORD,))
    s = sel(AttackKind.FIGHT, [m], [X], [choose("M", ("chainsword", ()))], default=BASE)
    assert rules(s) == {"R04.02-e"}
    free = sel(AttackKind.FIGHT, [m], [X], [choose("M", ("chainsword", ()))], default=None)
    assert rules(free) == set()


def test_a_melee_weapon_targets_no_more_units_than_its_attacks() -> None:
    # R04.02-d: A1 engaged with two units may target only one
    knife = gun("knife", "Melee", 1)
    m = AttackingModel("M", (knife,))
    s = sel(
        AttackKind.FIGHT,
        [m],
        [X, Y],
        [choose("M", WeaponChoice("knife", ("X", "Y"), (1, 1)))],
        default=BASE,
    )
    assert "R04.02-d" in rules(s)


def test_a_split_melee_weapon_gathers_only_the_declared_attacks_per_target() -> None:
    # R04.03-e: A4 split 3/1 -> 3 dice vs X, then 1 vs Y; 4/0 or 2/1 -> rejected
    m = AttackingModel("M", (CHAINSWORD,))
    s = sel(
        AttackKind.FIGHT,
        [m],
        [X, Y],
        [choose("M", WeaponChoice("chainsword", ("X", "Y"), (3, 1)))],
        default=BASE,
    )
    assert rules(s) == set()
    got = gather_requests(s)
    assert list(got) == ["X", "Y"]
    assert got["X"][0].weapon.A.max == 3 and not got["X"][0].weapon.A.is_random
    assert got["Y"][0].weapon.A.max == 1
    for split in [(4, 0), (2, 1), (4,)]:
        bad = sel(
            AttackKind.FIGHT,
            [m],
            [X, Y],
            [choose("M", WeaponChoice("chainsword", ("X", "Y"), split))],
            default=BASE,
        )
        assert rules(bad) == {"R04.03-e"}, split


def test_cleave_is_dropped_when_a_weapon_splits_its_attacks() -> None:
    # R04.03-e with 24.06: CLEAVE only for a single target
    m = AttackingModel("M", (AXE,))
    s = sel(
        AttackKind.FIGHT,
        [m],
        [X, Y],
        [choose("M", WeaponChoice("cleaver", ("X", "Y"), (2, 2)))],
        default=BASE,
    )
    assert not is_single_target(s, "M", "cleaver")
    assert all(not e.weapon.abilities_of(Cleave) for es in gather_requests(s).values() for e in es)
    one = sel(AttackKind.FIGHT, [m], [X], [choose("M", ("cleaver", ("X",)))], default=BASE)
    assert is_single_target(one, "M", "cleaver")
    assert gather_requests(one)["X"][0].weapon.abilities_of(Cleave)


# --- 04.03 gathering -------------------------------------------------------------------------


def test_all_weapons_at_one_target_are_grouped_and_identical_ones_counted() -> None:
    # R04.03-a: X's weapons all together before Y's; identical boltguns collapse to one entry
    ms = [AttackingModel(f"M{i}", (BOLTGUN, HEAVY)) for i in range(3)]
    d = [
        choose("M0", ("boltgun", ("X",))),
        choose("M1", ("heavy bolter", ("Y",))),
        choose("M2", ("boltgun", ("X",))),
    ]
    got = gather_requests(sel(AttackKind.NORMAL, ms, [X, Y], d))
    assert list(got) == ["X", "Y"]
    assert [(e.weapon.name, e.count) for e in got["X"]] == [("boltgun", 2)]
    assert [(e.weapon.name, e.count) for e in got["Y"]] == [("heavy bolter", 1)]


def test_half_range_is_carried_per_weapon() -> None:
    # RAPID FIRE / MELTA: half range decided per model's weapon at Select Targets
    rf = gun("rapid", 24, 1, "RAPID FIRE 1")
    ms = [AttackingModel("M1", (rf,)), AttackingModel("M2", (rf,))]
    facts = {("M1", "rapid", "X"): NEAR}
    d = [choose("M1", ("rapid", ("X",))), choose("M2", ("rapid", ("X",)))]
    got = gather_requests(sel(AttackKind.NORMAL, ms, [X], d, facts))["X"]
    assert sorted((e.half_range, e.count) for e in got) == [(False, 1), (True, 1)]


def test_gathering_an_illegal_declaration_raises_the_rule_broken() -> None:
    m = AttackingModel("M", (PISTOL, BOLTGUN))
    s = sel(
        AttackKind.NORMAL, [m], [X], [choose("M", ("bolt pistol", ("X",)), ("boltgun", ("X",)))]
    )
    with pytest.raises(IllegalChoice) as exc:
        gather_requests(s)
    assert exc.value.rule == "R24.07-a"
