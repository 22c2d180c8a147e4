"""Datasheets (02) as data: the shipped Boyz example, profiles, weapons, composition, wargear
options, the file format (YAML and JSON, JSON Schema) and the errors bad files get."""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import yaml

from w40k.core.abilities import CloseQuarters, RapidFire
from w40k.core.dice import DiceExpr
from w40k.core.errors import DataError
from w40k.io.army import (
    WargearChoice,
    builtin,
    builtin_names,
    load_army,
    load_datasheets,
    make_unit,
    parse_file,
)


def shipped(name: str) -> dict[str, object]:
    """The decoded content of a shipped file, to edit into a bad one."""
    text = resources.files("w40k").joinpath("data", f"{name}.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def boyz_sheet(data: dict[str, object]) -> dict[str, object]:
    sheets = data["datasheets"]
    assert isinstance(sheets, list)
    sheet = sheets[0]
    assert isinstance(sheet, dict)
    return sheet


def load_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: object, name: str) -> str:
    """The message of the DataError that loading ``data`` as file ``name`` raises."""
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(
        json.dumps(data) if name.endswith(".json") else yaml.safe_dump(data, sort_keys=False),
        encoding="utf-8",
    )
    with pytest.raises(DataError) as info:
        load_datasheets(name)
    return str(info.value)


def schema() -> jsonschema.Draft202012Validator:
    text = resources.files("w40k").joinpath("data", "schema", "army.schema.json").read_text()
    loaded = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(loaded)
    return jsonschema.Draft202012Validator(loaded)


# --- The shipped Boyz datasheet -------------------------------------------------------------


def test_shipped_boyz_supply_the_profiles_the_printed_card_leaves_out() -> None:
    # R02-DATA: the printed Shoota row and the slugga profile are incomplete; ours are whole.
    sheet = builtin("boyz").catalogue["Boyz"]
    slugga, shoota = sheet.weapon("Slugga"), sheet.weapon("Shoota")
    assert (slugga.range, slugga.A, slugga.skill, slugga.S, slugga.AP, slugga.D) == (
        12.0,
        DiceExpr.fixed(1),
        5,
        4,
        0,
        DiceExpr.fixed(1),
    )
    assert slugga.abilities == (CloseQuarters(pistol=True),)
    assert (shoota.range, shoota.A, shoota.skill, shoota.S, shoota.AP, shoota.D) == (
        18.0,
        DiceExpr.fixed(2),
        5,
        4,
        0,
        DiceExpr.fixed(1),
    )
    assert shoota.abilities == (RapidFire(x=1),)


def test_boyz_profiles_match_the_rulebook_card() -> None:
    # R02.02-c: Sv is a dice target and the Boyz have no InSv.
    sheet = builtin("boyz").catalogue["Boyz"]
    boy, nob = sheet.model("Boy"), sheet.model("Boss Nob")
    assert (boy.M, boy.T, boy.Sv, boy.W, boy.Ld, boy.OC, boy.InSv) == (6, 5, 5, 1, 7, 2, None)
    assert (nob.M, nob.T, nob.Sv, nob.W, nob.Ld, nob.OC, nob.InSv) == (6, 5, 5, 2, 7, 2, None)
    assert [n.name for n in sheet.named_abilities] == ["Waaagh!", "Get da Good Bitz"]


def test_invulnerable_save_is_optional_and_read_as_a_dice_target() -> None:
    # R02.02-c
    captain = builtin("space_marines").catalogue["Captain"].model("Captain")
    assert captain.InSv == 4
    assert builtin("space_marines").catalogue["Intercessors"].model("Intercessor").InSv is None


def test_move_and_objective_control_dash_load_as_none(tmp_path: Path) -> None:
    # R02.02-a, R02.02-d: M '-' can never move, OC '-' never controls; both load as None.
    data = shipped("boyz")
    model = boyz_sheet(data)["models"][0]  # type: ignore[index]
    model["M"] = "-"
    model["OC"] = "-"
    sheet = parse_file(data, source="boyz.yaml").catalogue["Boyz"]
    assert (sheet.model("Boy").M, sheet.model("Boy").OC) == (None, None)


def test_a_model_reduced_to_zero_wounds_is_destroyed() -> None:
    # R02.02-b: W2 Boss Nob with 1 wound left loses 3 (a D3 roll) -> destroyed, excess lost.
    nob = builtin("boyz").army.units[0].to_model_states()[0]  # type: ignore[union-attr]
    assert nob.name == "Boss Nob"
    hurt = nob.losing(1)
    assert (hurt.destroyed, hurt.remaining) == (False, 1)
    assert hurt.losing(3).destroyed
    assert hurt.losing(3).remaining == 0


def test_bs_and_ws_belong_to_each_weapon() -> None:
    # R02.04-a: the big choppa uses WS 3+ (melee), the kombi-rokkit BS 5+ (ranged).
    sheet = builtin("boyz").catalogue["Boyz"]
    choppa, rokkit = sheet.weapon("Big choppa"), sheet.weapon("Kombi-rokkit")
    assert (choppa.is_melee, choppa.range, choppa.skill) == (True, None, 3)
    assert (rokkit.is_melee, rokkit.range, rokkit.skill) == (False, 24.0, 5)
    assert (rokkit.S, rokkit.AP, str(rokkit.D)) == (10, -2, "3")


def test_random_attacks_and_damage_load_as_dice_expressions() -> None:
    # R02.04-b
    data = shipped("boyz")
    weapon = boyz_sheet(data)["weapons"][3]  # type: ignore[index]
    weapon["A"] = "D6"
    weapon["D"] = "D3+1"
    rokkit = parse_file(data, source="boyz.yaml").catalogue["Boyz"].weapon("Kombi-rokkit")
    assert (rokkit.A.count, rokkit.A.sides, rokkit.A.bonus) == (1, 6, 0)
    assert (rokkit.D.count, rokkit.D.sides, rokkit.D.bonus) == (1, 3, 1)
    assert (rokkit.A.is_random, rokkit.D.min, rokkit.D.max) == (True, 2, 4)


def test_a_ranged_weapon_with_ws_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # R02.04-a: BS is for ranged weapons, WS for melee ones.
    data = shipped("boyz")
    weapon = boyz_sheet(data)["weapons"][0]  # type: ignore[index]
    weapon["WS"] = weapon.pop("BS")
    assert load_error(tmp_path, monkeypatch, data, "boyz.yaml") == (
        "boyz.yaml: datasheet 'Boyz': weapons[0] 'Slugga': WS: a ranged weapon has BS, not WS "
        "(02.04), got WS: '5+'"
    )


def test_faction_and_other_keywords_are_all_keywords_of_every_model() -> None:
    # R02.05-a: faction keywords work like the others; singular and plural match.
    unit = builtin("boyz").army.units[0]  # type: ignore[union-attr]
    assert unit.datasheet.model("Boy").keywords == (
        "ORKS",
        "INFANTRY",
        "BATTLELINE",
        "MOB",
        "EXPLOSIVES",
        "BOYZ",
    )
    assert "EXPLOSIVE" in unit.keys  # the plural keyword matches its singular
    assert "ORK" in unit.keys


# --- Composition and wargear (02.06, 02.07) -------------------------------------------------


def test_boyz_default_to_one_boss_nob_and_nine_boyz_with_default_wargear() -> None:
    # R02.06-a
    unit = builtin("boyz").army.units[0]  # type: ignore[union-attr]
    names = [m.name for m in unit.models]
    assert names == ["Boss Nob"] + [f"Boy {i}" for i in range(1, 10)]
    assert unit.models[0].weapon_names() == ("Slugga", "Kustom shoota", "Big choppa")
    assert {m.weapon_names() for m in unit.models[1:]} == {("Slugga", "Shoota", "Choppa")}
    assert unit.starting_strength == 10


def test_the_kombi_option_replaces_the_kustom_shoota() -> None:
    # R02.07-a: kustom shoota -> kombi-shoota + kombi-rokkit, the rest unchanged.
    sheet = builtin("boyz").catalogue["Boyz"]
    unit = make_unit(sheet, wargear=[WargearChoice("kombi weapons")])
    assert unit.models[0].weapon_names() == (
        "Slugga",
        "Big choppa",
        "Kombi-shoota",
        "Kombi-rokkit",
    )
    assert unit.models[1].weapon_names() == ("Slugga", "Shoota", "Choppa")


def test_a_unit_size_within_the_composition_is_accepted() -> None:
    # R02.06-a: 1 Boss Nob and 9 to 19 Boyz.
    sheet = builtin("boyz").catalogue["Boyz"]
    assert len(make_unit(sheet, count=20).models) == 20
    assert len(make_unit(sheet, models={"Boy": 14}).models) == 15


def test_a_unit_size_outside_the_composition_is_rejected() -> None:
    # R02.06-a
    sheet = builtin("boyz").catalogue["Boyz"]
    with pytest.raises(DataError) as info:
        make_unit(sheet, models={"Boy": 25})
    assert str(info.value) == (
        "models: Boy: the unit composition allows 9 to 19 Boy models, got 25 (02.06)"
    )
    with pytest.raises(DataError) as info:
        make_unit(sheet, count=8)
    assert str(info.value) == "count: the unit can have 10 to 20 models, got 8"


def test_an_option_cannot_be_taken_twice_by_the_only_model_that_can_take_it() -> None:
    # R02.07-a: the Boss Nob no longer has a kustom shoota to replace.
    sheet = builtin("boyz").catalogue["Boyz"]
    with pytest.raises(DataError) as info:
        make_unit(sheet, wargear=[WargearChoice("Kombi weapons", 2)])
    assert str(info.value) == (
        "wargear[0]: option 'Kombi weapons' chosen for 2 Boss Nob model(s), but only 1 can take it"
    )


def test_two_options_replacing_the_same_weapon_exclude_each_other() -> None:
    # R02.07-a: the sergeant's close combat weapon can be swapped once.
    sheet = builtin("space_marines").catalogue["Intercessors"]
    unit = make_unit(sheet, wargear=[WargearChoice("Power fist")])
    assert unit.models[0].weapon_names() == ("Bolt rifle", "Bolt pistol", "Power fist")
    with pytest.raises(DataError, match="option 'Power weapon' chosen for 1"):
        make_unit(sheet, wargear=[WargearChoice("Power fist"), WargearChoice("Power weapon")])


# --- Errors: file, datasheet/unit, field, value ---------------------------------------------


def test_an_unknown_weapon_ability_names_file_datasheet_weapon_and_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = shipped("boyz")
    boyz_sheet(data)["weapons"][1]["abilities"] = ["RAPID FIRING 1"]  # type: ignore[index]
    message = load_error(tmp_path, monkeypatch, data, "boyz.yaml")
    assert message.startswith(
        "boyz.yaml: datasheet 'Boyz': weapons[1] 'Shoota': abilities[0]: "
        "unknown weapon ability 'RAPID FIRING 1' (known: ANTI-X Y+, ASSAULT, "
    )


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("T", 0, "datasheets[0].models[0].T: expected at least 1, found 0"),
        ("Sv", "9+",
         "datasheets[0].models[0].Sv: expected a dice result from 2+ to 7+, found text '9+'"),
        ("W", -1, "datasheets[0].models[0].W: expected at least 1, found -1"),
        ("Ld", "x",
         "datasheets[0].models[0].Ld: expected a dice result from 2+ to 12+, found text 'x'"),
    ],
)
def test_an_impossible_model_characteristic_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, field: str, value: object, expected: str
) -> None:
    data = shipped("boyz")
    boyz_sheet(data)["models"][0][field] = value  # type: ignore[index]
    assert load_error(tmp_path, monkeypatch, data, "boyz.yaml") == (
        f"boyz.yaml: {expected}"
    )


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("AP", 1, "AP: expected a whole number from -6 to 0, found 1"),
        ("A", "D7", "A: expected a number or a dice expression such as D6+1, found text 'D7'"),
        ("D", "2X6", "D: expected a number or a dice expression such as D6+1, found text '2X6'"),
        ("S", 0, "S: expected a whole number from 1 to 100, found 0"),
        ("BS", "7+", "BS: expected a dice result from 2+ to 6+, found text '7+'"),
        ("range", "far",
         "range: expected a range in inches (0 to 240) or \"Melee\", found text 'far'"),
    ],
)
def test_an_impossible_weapon_characteristic_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, field: str, value: object, expected: str
) -> None:
    data = shipped("boyz")
    boyz_sheet(data)["weapons"][1][field] = value  # type: ignore[index]
    assert load_error(tmp_path, monkeypatch, data, "boyz.yaml") == (
        f"boyz.yaml: datasheets[0].weapons[1].{expected}"
    )


def test_a_missing_field_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = shipped("boyz")
    del boyz_sheet(data)["models"][1]["T"]  # type: ignore[attr-defined]
    assert load_error(tmp_path, monkeypatch, data, "boyz.yaml") == (
        "boyz.yaml: datasheets[0].models[1].T: missing (this key is required)"
    )


def test_a_misspelt_field_is_rejected_not_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = shipped("boyz")
    boyz_sheet(data)["weapons"][0]["Strength"] = 4  # type: ignore[index]
    assert load_error(tmp_path, monkeypatch, data, "boyz.yaml") == (
        "boyz.yaml: datasheets[0].weapons[0].Strength: unknown key 'Strength' "
        "(expected one of: name, range, A, BS, WS, S, AP, D, abilities)"
    )


def test_an_unknown_core_ability_suggests_a_named_ability(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = shipped("boyz")
    boyz_sheet(data)["abilities"].append("Get da Good Bitz")  # type: ignore[attr-defined]
    message = load_error(tmp_path, monkeypatch, data, "boyz.yaml")
    assert message.startswith(
        "boyz.yaml: datasheet 'Boyz': abilities[2]: unknown core ability 'Get da Good Bitz' "
        "(known: Feel No Pain X+, "
    )
    assert message.endswith("write any other ability as {name: ..., text: ...})")


def test_composition_must_name_real_models_and_weapons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = shipped("boyz")
    boyz_sheet(data)["composition"][1]["wargear"] = ["slugga", "big shoota"]  # type: ignore[index]
    assert load_error(tmp_path, monkeypatch, data, "boyz.yaml") == (
        "boyz.yaml: datasheet 'Boyz': composition[1]: wargear[1]: unknown weapon 'big shoota' "
        "(weapons: Slugga, Shoota, Kustom shoota, Kombi-rokkit, Kombi-shoota, Big choppa, "
        "Choppa)"
    )


def test_a_duplicate_yaml_key_is_rejected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("dup.yaml").write_text("datasheets: []\ndatasheets: []\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_datasheets("dup.yaml")
    assert str(info.value) == "dup.yaml: line 2: key 'datasheets' appears twice"


def test_malformed_yaml_and_json_name_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.yaml").write_text("datasheets:\n  - name: [Boyz\n", encoding="utf-8")
    Path("bad.json").write_text('{"datasheets": [}', encoding="utf-8")
    with pytest.raises(DataError, match=r"^bad\.yaml: not valid YAML: .*\(line 3, column 1\)$"):
        load_datasheets("bad.yaml")
    with pytest.raises(DataError) as info:
        load_datasheets("bad.json")
    assert str(info.value) == "bad.json: not valid JSON: Expecting value (line 1, column 17)"


def test_unknown_datasheet_in_an_army_names_the_unit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = shipped("boyz")
    data["army"]["units"] = [{"datasheet": "Boys"}]  # type: ignore[index]
    assert load_error(tmp_path, monkeypatch, data, "boyz.yaml") == (
        "boyz.yaml: army: unit 'Boys': datasheet: unknown datasheet 'Boys' (known: Boyz)"
    )


def test_a_unit_count_outside_the_composition_names_the_unit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = shipped("boyz")
    data["army"]["units"] = [{"datasheet": "Boyz", "name": "Big mob", "count": 30}]  # type: ignore[index]
    assert load_error(tmp_path, monkeypatch, data, "boyz.yaml") == (
        "boyz.yaml: army: unit 'Big mob': count: the unit can have 10 to 20 models, got 30"
    )


def test_a_wargear_option_that_does_not_exist_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = shipped("boyz")
    data["army"]["units"] = [{"datasheet": "Boyz", "wargear": ["Rokkit launcha"]}]  # type: ignore[index]
    assert load_error(tmp_path, monkeypatch, data, "boyz.yaml") == (
        "boyz.yaml: army: unit 'Boyz': wargear[0]: the datasheet has no wargear option "
        "'Rokkit launcha' (options: Kombi weapons)"
    )


def test_a_unit_from_another_faction_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 02.05: faction keywords decide which units an army can include.
    data = shipped("boyz")
    data["army"]["faction"] = "Adeptus Astartes"  # type: ignore[index]
    assert load_error(tmp_path, monkeypatch, data, "boyz.yaml") == (
        "boyz.yaml: army: unit 'Boyz': datasheet: datasheet 'Boyz' has faction keywords ORKS, "
        "not the army's ADEPTUS ASTARTES"
    )


def test_load_army_requires_an_army_section(tmp_path: Path) -> None:
    data = shipped("boyz")
    del data["army"]
    path = tmp_path / "sheets.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert load_datasheets(path).names == ("Boyz",)
    with pytest.raises(DataError) as info:
        load_army(path)
    assert str(info.value) == f"{path}: the file has no 'army' section"


# --- Formats, includes, purity --------------------------------------------------------------


def test_json_and_yaml_files_with_the_same_structure_load_the_same(tmp_path: Path) -> None:
    (tmp_path / "boyz.json").write_text(json.dumps(shipped("boyz")), encoding="utf-8")
    assert load_army(tmp_path / "boyz.json") == builtin("boyz").army


def test_an_army_file_can_include_shipped_datasheets(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        "include: [space_marines]\n"
        "army:\n  name: Mine\n  faction: ADEPTUS ASTARTES\n"
        "  units:\n    - {datasheet: Intercessors, name: Squad A, models: {Intercessor: 9}}\n",
        encoding="utf-8",
    )
    army = load_army(path)
    assert [(u.name, u.starting_strength) for u in army.units] == [("Squad A", 10)]


def test_a_datasheet_defined_twice_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "again.yaml"
    path.write_text(
        yaml.safe_dump({"include": ["boyz"], "datasheets": shipped("boyz")["datasheets"]}),
        encoding="utf-8",
    )
    with pytest.raises(DataError) as info:
        load_datasheets(path)
    assert str(info.value) == (
        f"{path}: datasheets: datasheet 'Boyz' is defined twice (boyz.yaml and this file)"
    )


def test_loading_does_not_change_the_data_it_reads() -> None:
    data = shipped("space_marines")
    before = copy.deepcopy(data)
    first = parse_file(data, source="x.yaml")
    assert data == before
    assert parse_file(data, source="x.yaml") == first


def test_every_shipped_file_loads_with_an_army() -> None:
    assert builtin_names() == ("boyz", "space_marines", "strike_force", "waaagh_band")
    for name in builtin_names():
        assert builtin(name).army is not None


# --- JSON Schema ------------------------------------------------------------------------------


def test_the_json_schema_accepts_the_shipped_files() -> None:
    validator = schema()
    for name in builtin_names():
        assert list(validator.iter_errors(shipped(name))) == []


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        (lambda s: s["models"][0].__setitem__("T", 0), ["datasheets", 0, "models", 0, "T"]),
        (lambda s: s["models"][0].pop("W"), ["datasheets", 0, "models", 0]),
        (lambda s: s["weapons"][1].__setitem__("D", "D7"), ["datasheets", 0, "weapons", 1, "D"]),
        (lambda s: s["weapons"][1].__setitem__("AP", 1), ["datasheets", 0, "weapons", 1, "AP"]),
        (lambda s: s["weapons"][1].__setitem__("WS", "3+"), ["datasheets", 0, "weapons", 1]),
        (lambda s: s.__setitem__("colour", "red"), ["datasheets", 0]),
    ],
)
def test_the_json_schema_rejects_bad_files(edit: object, path: list[object]) -> None:
    data = shipped("boyz")
    edit(boyz_sheet(data))  # type: ignore[operator]
    errors = list(schema().iter_errors(data))
    assert errors
    assert [list(e.absolute_path) for e in errors] == [path]


def test_an_include_cycle_and_a_missing_include_are_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.yaml").write_text("include: [b.yaml]\n", encoding="utf-8")
    Path("b.yaml").write_text("include: [a.yaml]\n", encoding="utf-8")
    Path("c.yaml").write_text("include: [orks]\n", encoding="utf-8")
    Path("empty.yaml").write_text("", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_datasheets("a.yaml")
    assert str(info.value) == (
        "a.yaml: b.yaml: include[0]: including 'a.yaml' here makes a cycle of includes "
        "(a.yaml -> b.yaml -> a.yaml)"
    )
    with pytest.raises(DataError) as info:
        load_datasheets("c.yaml")
    assert str(info.value) == (
        "c.yaml: include[0]: no such file next to this one, and no shipped army file 'orks' "
        "(shipped: boyz, space_marines, strike_force, waaagh_band)"
    )
    with pytest.raises(DataError) as info:
        load_datasheets("empty.yaml")
    assert str(info.value) == (
        "empty.yaml: the file is empty: expected include, datasheets and/or army"
    )
