"""Keywords (02.05, Appendix 'Mixed keywords') and the typed ability parsers (24): every weapon
ability of section 24 and every core ability round-trips through its text; keyword-restricted
forms (24.01); duplicated abilities stay separate instances (24.02)."""

from __future__ import annotations

import pytest

from w40k.core.abilities import (
    Anti,
    Blast,
    CloseQuarters,
    DeadlyDemise,
    DeepStrike,
    FeelNoPain,
    FightsFirst,
    FiringDeck,
    Hover,
    Infiltrators,
    Leader,
    LethalHits,
    LoneOperative,
    Scouts,
    Stealth,
    SuperHeavyWalker,
    Support,
    SustainedHits,
    parse_unit_ability,
    parse_weapon_ability,
)
from w40k.core.dice import DiceExpr
from w40k.core.errors import DataError
from w40k.core.keywords import canonical_keyword, keyword_set
from w40k.core.profiles import WeaponProfile
from w40k.io.army import parse_file
from w40k.rules.primitives import all_monster_or_vehicle, unit_keys

# Every weapon ability of section 24, as a datasheet writes it.
WEAPON_ABILITIES = [
    "ANTI-VEHICLE 4+",  # 24.03
    "ASSAULT",  # 24.04
    "BLAST",  # 24.05
    "BLAST 2",  # 24.05 [BLAST X]
    "CLEAVE 1",  # 24.06
    "CLOSE-QUARTERS",  # 24.07
    "DEVASTATING WOUNDS",  # 24.10
    "EXTRA ATTACKS",  # 24.11
    "HAZARDOUS",  # 24.15
    "HEAVY",  # 24.16
    "IGNORES COVER",  # 24.18
    "INDIRECT FIRE",  # 24.19
    "LANCE",  # 24.21
    "LETHAL HITS",  # 24.23
    "MELTA 2",  # 24.25
    "ONE SHOT",  # 24.26
    "PISTOL",  # 24.27
    "PRECISION",  # 24.28
    "PSYCHIC",  # 24.29
    "RAPID FIRE 1",  # 24.30
    "SUSTAINED HITS 1",  # 24.36
    "TORRENT",  # 24.37
    "TWIN-LINKED",  # 24.38
]

# Every core (unit) ability src/w40k/core/abilities.py accepts.
UNIT_ABILITIES = [
    "Feel No Pain 5+",  # 24.12
    "Stealth",  # 24.33
    "Lone Operative",  # 24.24
    'Lone Operative 6"',
    "Deadly Demise D3",  # 24.08
    "Fights First",  # 24.13
    "Leader",  # 24.22
    "Support",  # 24.34
    'Scouts 6"',  # 24.31
    "Infiltrators",  # 24.20
    "Deep Strike",  # 24.09
    "Firing Deck 2",  # 24.14
    "Hover",  # 24.17
    "Super-heavy Walker",  # 24.35
]


@pytest.mark.parametrize("text", WEAPON_ABILITIES)
def test_every_weapon_ability_round_trips_through_its_text(text: str) -> None:
    # R24.01: parsed once into typed data; the text it prints parses back to the same value.
    ability = parse_weapon_ability(text)
    assert str(ability) == text
    assert parse_weapon_ability(f"[{text}]") == ability
    assert ability.only_vs == ()


@pytest.mark.parametrize("text", WEAPON_ABILITIES)
def test_every_weapon_ability_can_be_restricted_to_keywords(text: str) -> None:
    # R24.01: '[X: VEHICLE]' applies only against a unit with one of those keywords.
    restricted = parse_weapon_ability(f"{text}: VEHICLE/MONSTERS")
    assert restricted.only_vs == ("VEHICLE", "MONSTERS")
    assert str(restricted) == f"{text}: VEHICLE/MONSTERS"
    assert restricted.applies_to(keyword_set(["MONSTER"]))  # plural matches singular, 02.05
    assert not restricted.applies_to(keyword_set(["INFANTRY"]))


def test_the_rulebook_examples_of_restricted_abilities_parse() -> None:
    # R24.01: [LETHAL HITS: VEHICLE] and [SUSTAINED HITS 1: INFANTRY/BEASTS].
    assert parse_weapon_ability("[LETHAL HITS: VEHICLE]") == LethalHits(only_vs=("VEHICLE",))
    sustained = parse_weapon_ability("[SUSTAINED HITS 1: INFANTRY/BEASTS]")
    assert sustained == SustainedHits(only_vs=("INFANTRY", "BEASTS"), x=1)
    assert sustained.applies_to(keyword_set(["BEAST"]))
    assert not sustained.applies_to(keyword_set(["VEHICLE"]))


def test_weapon_abilities_parse_to_their_values() -> None:
    assert parse_weapon_ability("anti-psyker 2+") == Anti(keyword="PSYKER", threshold=2)
    assert parse_weapon_ability("BLAST") == Blast(x=1)
    assert parse_weapon_ability("PISTOL") == CloseQuarters(pistol=True)
    assert parse_weapon_ability("PISTOL") != parse_weapon_ability("CLOSE-QUARTERS")
    assert parse_weapon_ability("PISTOL").family == "CloseQuarters"  # 24.27: same rules


@pytest.mark.parametrize(
    "text", ["RAPID FIRING 1", "SUSTAINED HITS", "ANTI-VEHICLE 7+", "MELTA 0", "LETHAL HITS: /"]
)
def test_malformed_weapon_abilities_are_rejected(text: str) -> None:
    with pytest.raises(DataError, match="weapon ability"):
        parse_weapon_ability(text)


def test_a_colon_without_keywords_is_rejected() -> None:
    # R24.01: a colon introduces keywords; '[LETHAL HITS:]' is a typo, not [LETHAL HITS].
    with pytest.raises(DataError, match="no keyword after ':'"):
        parse_weapon_ability("LETHAL HITS:")


@pytest.mark.parametrize("text", UNIT_ABILITIES)
def test_every_core_ability_round_trips_through_its_text(text: str) -> None:
    ability = parse_unit_ability(text)
    assert str(ability) == text
    assert parse_unit_ability(text.upper()) == ability


def test_core_abilities_parse_to_their_values() -> None:
    assert parse_unit_ability("Feel No Pain 5+") == FeelNoPain(5)
    assert parse_unit_ability('Scouts 9"') == Scouts(9.0)
    assert parse_unit_ability("Lone Operative") == LoneOperative(12.0)
    assert parse_unit_ability("Deadly Demise D6") == DeadlyDemise(DiceExpr(1, 6, 0))
    assert parse_unit_ability("Firing Deck 11") == FiringDeck(11)
    singletons = ["Stealth", "Fights First", "Leader", "Support", "Infiltrators", "Deep Strike"]
    assert [type(parse_unit_ability(t)) for t in singletons] == [
        Stealth,
        FightsFirst,
        Leader,
        Support,
        Infiltrators,
        DeepStrike,
    ]
    assert isinstance(parse_unit_ability("hover"), Hover)
    assert isinstance(parse_unit_ability("Super-heavy walker"), SuperHeavyWalker)


@pytest.mark.parametrize("text", ["Feel No Pain 7+", "Deadly Demise D7", "Get da Good Bitz"])
def test_malformed_core_abilities_are_rejected(text: str) -> None:
    with pytest.raises(DataError, match="ability"):
        parse_unit_ability(text)


def test_duplicated_weapon_abilities_are_kept_as_separate_instances() -> None:
    # R24.02-a, R24.02-b: duplicates are not merged when parsed; the player picks one at
    # Select Weapons, so both must survive loading.
    weapon = WeaponProfile.build(
        "Test gun",
        range=24,
        A=2,
        skill=3,
        S=5,
        AP=-1,
        D=1,
        abilities=["SUSTAINED HITS 1", "SUSTAINED HITS 2", "ANTI-VEHICLE 4+", "ANTI-INFANTRY 2+"],
    )
    assert weapon.abilities_of(SustainedHits) == (SustainedHits(x=1), SustainedHits(x=2))
    assert weapon.abilities_of(Anti) == (
        Anti(keyword="VEHICLE", threshold=4),
        Anti(keyword="INFANTRY", threshold=2),
    )
    assert {a.family for a in weapon.abilities_of(Anti)} == {"Anti"}


def test_duplicated_core_abilities_from_datasheet_and_model_are_both_kept() -> None:
    # R24.02-a: the datasheet gives Feel No Pain 6+ and the model its own 5+; both instances
    # stay, and the one that applies (the better) is what the attack sequence reads.
    data = {
        "datasheets": [
            {
                "name": "Grots",
                "faction_keywords": ["ORKS"],
                "keywords": ["INFANTRY"],
                "abilities": ["Feel No Pain 6+", 'Scouts 6"'],
                "models": [
                    {
                        "name": "Grot",
                        "M": 5,
                        "T": 2,
                        "Sv": "7+",
                        "W": 1,
                        "Ld": "8+",
                        "OC": 1,
                        "base_mm": 25,
                        "abilities": ["Feel No Pain 5+", 'Scouts 8"'],
                    }
                ],
                "weapons": [],
                "composition": [{"model": "Grot", "count": 1}],
            }
        ]
    }
    grot = parse_file(data, source="grots.yaml").catalogue["Grots"].model("Grot")
    assert grot.abilities == (FeelNoPain(6), Scouts(6.0), FeelNoPain(5), Scouts(8.0))
    assert grot.fnp == 5


def test_singular_and_plural_keywords_are_the_same_keyword() -> None:
    # R02.05-a
    assert canonical_keyword("MONSTERS") == canonical_keyword("Monster")
    assert canonical_keyword("BEASTS") == canonical_keyword("BEAST")
    assert canonical_keyword("INFANTRY") == "INFANTRY"
    assert canonical_keyword("Adeptus  Astartes") == canonical_keyword("ADEPTUS ASTARTES")


def test_a_unit_with_mixed_models_has_every_keyword_but_models_keep_their_own() -> None:
    # RA-Keywords-a: 1 VEHICLE model and 4 INFANTRY models.
    data = {
        "datasheets": [
            {
                "name": "Mixed",
                "faction_keywords": ["ORKS"],
                "models": [
                    {"name": "Wagon", "M": 10, "T": 9, "Sv": "4+", "W": 10, "Ld": "7+",
                     "OC": 2, "base_mm": [100, 60], "keywords": ["VEHICLE"]},
                    {"name": "Lad", "M": 6, "T": 5, "Sv": "5+", "W": 1, "Ld": "7+", "OC": 2,
                     "base_mm": 32, "keywords": ["INFANTRY"]},
                ],
                "weapons": [],
                "composition": [{"model": "Wagon", "count": 1}, {"model": "Lad", "count": 4}],
            }
        ],
        "army": {"name": "A", "faction": "ORKS", "units": [{"datasheet": "Mixed"}]},
    }  # fmt: skip
    army = parse_file(data, source="mixed.yaml").army
    assert army is not None
    unit = army.units[0]
    assert unit.keywords == ("ORKS", "VEHICLE", "INFANTRY")
    assert "VEHICLE" in unit.keys and "INFANTRY" in unit.keys
    states = unit.to_model_states()
    assert [s.keywords for s in states] == [("ORKS", "VEHICLE")] + [("ORKS", "INFANTRY")] * 4
    assert "VEHICLE" in unit_keys(states)
    assert all_monster_or_vehicle(states) is False  # hazard rolls ask about every model
