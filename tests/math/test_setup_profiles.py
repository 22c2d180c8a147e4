"""``build_setup``'s kept pool profiles (``setup._profile``) change no setup.

A profile is kept by what ``pool_profile`` reads: the weapon, its half range, the context (the
number of target models at Select Targets only for [BLAST]/[CLEAVE]), the living models'
keywords when the weapon has abilities and their Stealth for ranged weapons; the entry's count
is copied on. Every setup must equal the one built with nothing kept, in any order."""

from __future__ import annotations

import random

from tests.math.math_helpers import models, weapon
from w40k.math import build_setup, clear_caches
from w40k.math.setup import AttackSetup
from w40k.rules.attack_profile import AttackContext, WeaponEntry
from w40k.rules.primitives import ModelState


def _cases() -> list[tuple[list[WeaponEntry], tuple[ModelState, ...], AttackContext]]:
    rng = random.Random(5)
    guns = [
        weapon("bolt", A=2, S=4, AP=0, D=1),
        weapon("frag", A="D6", S=4, AP=0, D=1, abilities=["BLAST"]),
        weapon("anti", A=2, S=4, AP=-1, D=1, abilities=["ANTI-INFANTRY 4+"]),
        weapon("melta", A=1, S=9, AP=-4, D="D6", abilities=["MELTA 2"]),
        weapon("rapid", A=1, S=4, AP=0, D=1, abilities=["RAPID FIRE 1", "IGNORES COVER"]),
        weapon("axe", A=3, S=5, AP=-1, D=1, melee=True),
        weapon("cleaver", A=2, S=6, AP=-1, D=2, melee=True, abilities=["CLEAVE 1"]),
    ]
    sneaky = models(4, "git", W=1, T=3, Sv=6, keywords=("INFANTRY",), stealth=True)
    units = [
        models(10, "boy", W=1, T=5, Sv=6, keywords=("INFANTRY",)),
        models(6, "gretchin", W=1, T=3, Sv=7, keywords=("INFANTRY", "GRETCHIN")),
        sneaky,
        (*sneaky[:3], ModelState("boss", W=3, T=5, Sv=4, keywords=("INFANTRY",))),
        models(2, "bike", W=3, T=6, Sv=4, keywords=("MOUNTED",)),
    ]
    out = []
    for _ in range(120):
        target = rng.choice(units)
        # some models wounded or destroyed (the profile reads only the living ones)
        target = tuple(ModelState(m.name, m.W, m.T, m.Sv, m.InSv,
                                  rng.choice((0, 0, 0, m.W - 1, m.W)) if i else 0,
                                  m.keywords, m.fnp, m.leader, stealth=m.stealth)
                       for i, m in enumerate(target))
        picked = rng.sample(guns, rng.randint(1, 3))
        entries = [WeaponEntry(w, rng.randint(1, 5), rng.choice((None, True, False)))
                   for w in picked]
        ctx = AttackContext(cover=rng.random() < 0.3, charged=rng.random() < 0.5,
                            single_target=rng.random() < 0.5,
                            target_models_at_select=rng.choice((None, 3, 7)))
        out.append((entries, target, ctx))
    return out


def test_kept_profiles_give_the_cold_setups_in_any_order() -> None:
    # R24.05-a, R24.06-a, R24.33-a: the same pools, dice and notes as a cold build.
    cases = _cases()
    cold: list[AttackSetup] = []
    for entries, target, ctx in cases:
        clear_caches()
        cold.append(build_setup(entries, target, ctx))
    clear_caches()
    order = list(range(len(cases)))
    random.Random(2).shuffle(order)
    warm = {i: build_setup(*cases[i]) for i in order}
    assert [warm[i] for i in range(len(cases))] == cold
    assert [build_setup(*c) for c in cases] == cold
