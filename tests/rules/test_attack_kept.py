"""Per-call shortcuts in the attack rules give the same answers as the full computations
(issue 10, pass rules7): the pool profiles an attack's ``advance`` calls keep per request, the
pool profile's skip of the ability families a weapon does not hold, the unit's keyword union
read once per run of equal keyword lists, a profile's CHARACTER test."""

from __future__ import annotations

import random

from tests.rules.test_attack_machine import play_random, random_request
from w40k.core import abilities as ab
from w40k.core.keywords import canonical_keyword
from w40k.core.profiles import ModelProfile
from w40k.rules import attack_machine as am
from w40k.rules.attack_profile import choose_duplicate, pool_profile
from w40k.rules.primitives import ModelState, unit_keys

FAMILIES = [c for c in vars(ab).values() if isinstance(c, type)
            and issubclass(c, ab.WeaponAbility) and c is not ab.WeaponAbility]


def test_every_kept_pool_profile_equals_the_one_computed_afresh() -> None:
    # R24.02-a: a pool's profile applies the duplicate instances chosen, as computed afresh
    seen = 0
    for seed in range(120):
        request = play_random(seed)
        kept = am._KEPT_PROFILES[id(request)]
        assert kept[0] is request
        for (e, duplicates), got in kept[1].items():
            weapon = request.weapons[e].weapon
            choices = {fam: next(a for a in weapon.abilities
                                 if str(a) == text and type(a).__name__ == fam)
                       for entry, fam, text in duplicates if entry == e}
            assert got == pool_profile(request.weapons[e], request.target, request.context,
                                       choices)
            seen += 1
    assert seen > 100


def test_the_kept_profiles_hold_their_requests_and_are_bounded() -> None:
    requests = [random_request(random.Random(1000 + i)) for i in range(am._KEPT_MAX + 5)]
    for r in requests:
        assert am._kept_profiles(r) is am._kept_profiles(r)
    assert len(am._KEPT_PROFILES) == am._KEPT_MAX
    assert all(entry[0] is r for r in requests[-am._KEPT_MAX:]
               for entry in [am._KEPT_PROFILES[id(r)]])
    # an equal request read anew (another object) has its own entry
    again = random_request(random.Random(1000 + am._KEPT_MAX + 4))
    assert again == requests[-1] and am._kept_profiles(again) is not am._kept_profiles(
        requests[-1])


def test_a_family_the_weapon_lacks_never_applies_whatever_the_choices() -> None:
    # R24.02-a: only an ability the weapon has can apply (the pool profile skips the others)
    for seed in range(60):
        request = random_request(random.Random(seed))
        keys = unit_keys(request.target)
        for entry in request.weapons:
            w = entry.weapon
            held = {type(a) for a in w.abilities}
            for fam in FAMILIES:
                if fam in held:
                    continue
                other = {f.__name__: a for a in w.abilities for f in [type(a)]}
                assert choose_duplicate(w, fam, keys, other) is None
                assert choose_duplicate(w, fam, keys) is None


def test_the_unit_keywords_are_the_union_of_its_living_models() -> None:
    # Appendix 'Mixed keywords': a unit has every keyword of its living models
    models = (ModelState("A", 1, keywords=("INFANTRY", "Grenades")),
              ModelState("B", 1, keywords=("INFANTRY", "Grenades")),
              ModelState("C", 2, wounds_lost=2, keywords=("VEHICLE",)),
              ModelState("D", 1, keywords=("INFANTRY", "Grenades")),
              ModelState("E", 4, keywords=("Characters", "INFANTRY")),
              ModelState("F", 1, keywords=("INFANTRY", "GRENADES")))
    expected: set[str] = set()
    for m in models:
        if not m.destroyed:
            expected |= {canonical_keyword(k) for k in m.keywords}
    assert unit_keys(models) == frozenset(expected)
    assert canonical_keyword("VEHICLE") not in unit_keys(models)
    assert unit_keys(models[:3] + models[2:3]) == frozenset({"INFANTRY", "GRENADE"})


def test_a_profile_is_a_character_in_any_number_or_case() -> None:
    # R02.05-a: keywords in the singular and plural are the same keyword
    for words, want in ((("Infantry", "Characters"), True), (("CHARACTER",), True),
                        (("character",), True), (("INFANTRY",), False), ((), False)):
        assert ModelProfile("X", T=4, Sv=3, W=2, keywords=words).is_character is want
