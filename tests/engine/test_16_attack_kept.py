"""The attack sequence's kept work gives the plain answers (issue 10, pass atk16): pool profiles
kept across attacks equal ``pool_profile``'s; the dice a ``Roller`` shares are the dice it
would build, drawn in the same order; a unit's model states kept per model equal the ones
built afresh, and follow every change of the model; a single allocation group's one legal
order; a lone Select Model candidate."""

from __future__ import annotations

import random

from tests.rules.test_attack_machine import random_request
from w40k.core import abilities as ab
from w40k.core.dice import DieRoll, Roller, RollKind, SeededDice
from w40k.core.profiles import ModelProfile, WeaponProfile
from w40k.engine import model_states as ms
from w40k.engine.state import ModelData, UnitData
from w40k.rules import attack_profile as ap
from w40k.rules.allocation import legal_orders
from w40k.rules.attack_profile import AttackContext, WeaponEntry, kept_pool_profile, pool_profile
from w40k.rules.primitives import ModelState, make_groups


def _weapons(rng: random.Random) -> list[WeaponProfile]:
    """A few weapons, among them [BLAST], [CLEAVE] and duplicated families."""
    names = ["BLAST", "CLEAVE 1", "RAPID FIRE 1", "MELTA 2", "HEAVY", "ANTI-INFANTRY 4+",
             "SUSTAINED HITS 1", "IGNORES COVER", "LETHAL HITS", "TORRENT", "PRECISION"]
    out = []
    for i in range(6):
        abilities = rng.sample(names, rng.randint(0, 3))
        if i == 0:
            abilities += ["SUSTAINED HITS 1", "SUSTAINED HITS 2"]
        out.append(WeaponProfile.build(
            f"Gun {i}", range=rng.choice([24, "Melee"]), A=rng.choice([1, 2, "D6"]),
            skill=rng.randint(2, 4), S=rng.randint(3, 9), AP=-rng.randint(0, 3),
            D=rng.choice([1, 2, "D3"]), abilities=abilities))
    return out


def _target(rng: random.Random) -> tuple[ModelState, ...]:
    kws = rng.choice([("INFANTRY",), ("VEHICLE",), ("INFANTRY", "CHARACTER")])
    return tuple(ModelState(f"m{k}", W=2, keywords=kws, wounds_lost=rng.choice([0, 0, 2]),
                            stealth=rng.random() < 0.5)
                 for k in range(rng.randint(1, 8)))


def test_kept_pool_profiles_equal_the_plain_ones() -> None:
    """Over many random attacks with shared weapons and contexts (so that most are kept
    answers), the kept pool profile equals ``pool_profile``: target keywords, Stealth, the
    models at Select Targets for [BLAST]/[CLEAVE], half range, counts and duplicate choices."""
    rng = random.Random(16)
    weapons = _weapons(rng)
    contexts = [AttackContext(half_range=rng.random() < 0.5, cover=rng.random() < 0.5,
                              charged=rng.random() < 0.5, indirect=rng.random() < 0.2,
                              target_models_at_select=rng.choice([None, 3, 7]))
                for _ in range(8)]
    kept = 0
    for _ in range(3000):
        weapon = rng.choice(weapons)
        entry = WeaponEntry(weapon, rng.randint(1, 3), rng.choice([None, True, False]))
        choices = None
        sustained = weapon.abilities_of(ab.SustainedHits)
        if len(sustained) > 1 and rng.random() < 0.5:
            choices = {"SustainedHits": rng.choice(sustained)}
        target, ctx = _target(rng), rng.choice(contexts)
        before = len(ap._KEPT_POOLS)
        got = kept_pool_profile(entry, target, ctx, choices)
        kept += len(ap._KEPT_POOLS) == before
        assert got == pool_profile(entry, target, ctx, choices)
    assert kept > 500


def test_shared_dice_are_the_dice_built_and_drawn_alike() -> None:
    """``Roller.dice`` (shared dice) gives dice equal to those built one by one from the same
    faces, of the same kind object and sides, and leaves the source where drawing them one by
    one does."""
    for seed in range(20):
        shared, plain = SeededDice(seed), SeededDice(seed)
        for kind in (RollKind.HIT, RollKind.DAMAGE, "hit", "charge"):
            for sides in (6, 3):
                n = seed % 7 + 1
                got = Roller(shared).dice(kind, n, sides)
                want = tuple(DieRoll(kind, (plain.d6(kind),), sides) for _ in range(n))
                assert got == want
                assert all(type(g.kind) is type(kind) and g.modifiers == () for g in got)
        assert shared.to_json() == plain.to_json()


def _unit(rng: random.Random) -> UnitData:
    weapons = _weapons(rng)[:2]
    profile = ModelProfile.build("Trooper", T=4, Sv=3, W=2, keywords=["INFANTRY"],
                                 abilities=["Feel No Pain 5+"])
    models = [ModelData(f"u.{k}", f"Trooper {k}", profile, tuple(weapons[:1 + k % 2]),
                        x=float(k), y=2.0) for k in range(5)]
    return UnitData("u", "Troopers", "red", models)


def test_kept_model_states_follow_every_change() -> None:
    """Across random changes of wounds, places, leader roles, weapons and deaths, the kept
    model states equal those built afresh from the models (and a model moved to -0.0 from
    0.0 shows its new place)."""
    rng = random.Random(7)
    unit = _unit(rng)
    for _ in range(400):
        m = rng.choice(unit.models)
        change = rng.randrange(6)
        if change == 0:
            m.wounds_lost = rng.choice([0, 1])
        elif change == 1:
            m.x = rng.choice([m.x, 0.0, -0.0, float(rng.randint(0, 9))])
        elif change == 2:
            m.leader = not m.leader
        elif change == 3:
            m.weapons = m.weapons[:1] if len(m.weapons) > 1 else (*m.weapons, *m.weapons)
        elif change == 4:
            m.destroyed = rng.random() < 0.2
        got = ms.model_states(unit)
        want = tuple(ms._build(x) for x in unit.alive)
        assert got == want
        assert [repr(s.position) for s in got] == [repr(s.position) for s in want]


def test_one_allocation_group_has_the_one_order() -> None:
    """The machine's one-group shortcut: wherever the living models make one allocation group
    (alike models, some wounded or destroyed, or a lone CHARACTER), 05.03's legal orders are
    exactly ``(0,)``."""
    rng = random.Random(3)
    seen = 0
    for _ in range(500):
        target = random_request(rng).target
        if rng.random() < 0.5:
            kws = rng.choice([("INFANTRY",), ("INFANTRY", "CHARACTER")])
            target = tuple(ModelState(f"m{k}", W=3, keywords=kws, wounds_lost=rng.choice(
                [0, 1, 3])) for k in range(rng.randint(1, 6)))
        groups = make_groups(target)
        if len(groups) == 1:
            seen += 1
            assert list(legal_orders(groups, target)) == [(0,)]
    assert seen > 100
