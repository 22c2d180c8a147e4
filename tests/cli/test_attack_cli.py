"""The `w40k attack` contract (DESIGN.md "Interfaces"): scenario files, referee-mode dice,
inline flags, the embedded example, `--json` keys and located errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from w40k.cli.main import app

runner = CliRunner()

EXAMPLE_1: dict[str, Any] = {
    "weapons": [
        {"name": "Boltgun", "count": 2, "range": 24, "A": "2", "skill": 3, "S": 4, "AP": 0,
         "D": "1"},
        {"name": "Bolt pistol", "count": 1, "range": 12, "A": "1", "skill": 3, "S": 4, "AP": 0,
         "D": "1", "abilities": ["PISTOL"]},
        {"name": "Heavy bolter", "count": 1, "range": 36, "A": "3", "skill": 4, "S": 5,
         "AP": -1, "D": "2"},
    ],
    "target": {"name": "Blue", "models": [{"name": "Blue", "count": 5, "T": 3, "Sv": 3,
                                          "InSv": 5, "W": 1}]},
    "dice": {"hit": [3, 4, 5, 6, 2, 4, 5, 1], "wound": [3, 4, 2, 6, 3, 6],
             "save": [2, 4, 5, 3, 5]},
}

TOP_KEYS = {"hits", "critical_hits", "wounds", "critical_wounds", "unsaved", "mortal_wounds",
            "wounds_lost", "models_destroyed", "models", "attacker"}
MODEL_KEYS = {"name", "wounds_remaining", "destroyed"}
ATTACKER_KEYS = {"mortal_wounds", "wounds_lost", "models_destroyed", "models"}


def run(*args: str) -> Any:
    return runner.invoke(app, ["attack", *args])


def scenario_file(tmp_path: Path, data: dict[str, Any], name: str = "scenario.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def run_json(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def test_json_output_has_the_documented_keys() -> None:
    doc = run_json("--seed", "1")
    assert doc.keys() >= TOP_KEYS
    assert doc["models"] and all(m.keys() >= MODEL_KEYS for m in doc["models"])
    assert doc["attacker"].keys() >= ATTACKER_KEYS
    assert all(m.keys() >= MODEL_KEYS for m in doc["attacker"]["models"])
    assert all(isinstance(doc[k], int) for k in TOP_KEYS - {"models", "attacker"})


def test_referee_mode_reproduces_example_1_from_a_scenario_file(tmp_path: Path) -> None:
    # R05.05-a: 4 + 2 hits, 3 + 2 wounds, 1 + 1 unsaved, 2 models destroyed
    doc = run_json("--input", scenario_file(tmp_path, EXAMPLE_1))
    got = {k: doc[k] for k in TOP_KEYS - {"models", "attacker"}}
    assert got == {"hits": 6, "critical_hits": 1, "wounds": 5, "critical_wounds": 2,
                   "unsaved": 2, "mortal_wounds": 0, "wounds_lost": 2, "models_destroyed": 2}
    assert [m["destroyed"] for m in doc["models"]] == [True, True, False, False, False]
    assert [m["name"] for m in doc["models"]] == [f"Blue {i}" for i in range(1, 6)]
    assert doc["models"][2]["wounds_remaining"] == 1


def test_a_yaml_scenario_works_like_json(tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    import yaml

    path.write_text(yaml.safe_dump(EXAMPLE_1), encoding="utf-8")
    assert run_json("--input", str(path))["models_destroyed"] == 2


def test_not_enough_dice_is_exit_2_naming_the_kind(tmp_path: Path) -> None:
    data = {**EXAMPLE_1, "dice": {**EXAMPLE_1["dice"], "save": [2, 4]}}
    result = run("--input", scenario_file(tmp_path, data))
    assert result.exit_code == 2
    assert "'save'" in result.stderr and "Traceback" not in result.output


def test_a_positive_ap_is_exit_2_naming_the_file_and_field(tmp_path: Path) -> None:
    data = json.loads(json.dumps(EXAMPLE_1))
    data["weapons"][2]["AP"] = "+1"
    result = run("--input", scenario_file(tmp_path, data))
    assert result.exit_code == 2
    err = " ".join(result.stderr.split())
    assert "scenario.json" in err and "weapons[2]" in err and "AP" in err


def test_an_unknown_ability_is_exit_2_naming_the_field(tmp_path: Path) -> None:
    data = json.loads(json.dumps(EXAMPLE_1))
    data["weapons"][0]["abilities"] = ["SUSTAINED HITS 1", "EXPLODING SIXES"]
    result = run("--input", scenario_file(tmp_path, data))
    assert result.exit_code == 2
    err = " ".join(result.stderr.split())
    assert "weapons[0]" in err and "abilities[1]" in err


def test_a_missing_field_and_an_unknown_flag_are_located(tmp_path: Path) -> None:
    data = json.loads(json.dumps(EXAMPLE_1))
    del data["target"]["models"][0]["T"]
    result = run("--input", scenario_file(tmp_path, data))
    assert result.exit_code == 2 and "target.models[0].T" in " ".join(result.stderr.split())
    data = {**EXAMPLE_1, "context": {"half_rnage": True}}
    result = run("--input", scenario_file(tmp_path, data))
    assert result.exit_code == 2 and "context.half_rnage" in " ".join(result.stderr.split())


def test_invalid_json_is_exit_2_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    result = run("--input", str(path))
    assert result.exit_code == 2 and "broken.json" in result.stderr


def test_running_with_no_arguments_uses_the_embedded_example() -> None:
    result = run()
    assert result.exit_code == 0, result.output
    assert "Boyz" in result.stdout


def test_the_same_seed_gives_the_same_result() -> None:
    a = run_json("--seed", "7")
    b = run_json("--seed", "7")
    assert a == b and a["seed"] == 7


def test_inline_profiles_and_dice_work() -> None:
    # Example 1's first pool typed on the command line
    doc = run_json("-w", '2x Boltgun 24" A2 BS3+ S4 AP0 D1', "-w", 'Bolt pistol 12" A1 BS3+ S4 '
                   "AP0 D1", "-t", "5x Blue T3 Sv3+ InSv5+ W1", "--dice", "hit=3,4,5,6,2",
                   "--dice", "wound=3,4,2,6", "--dice", "save=2,4,5")
    assert (doc["hits"], doc["wounds"], doc["models_destroyed"]) == (4, 3, 1)


def test_inline_context_flags_change_the_result() -> None:
    # R13.08-b: --cover worsens BS 3+ to 4+: the hit roll of 3 misses
    args = ("-w", "Gun 24\" A1 BS3+ S4 AP0 D1", "-t", "Marine T4 Sv3+ W2", "--dice", "hit=3",
            "--dice", "wound=4", "--dice", "save=1")
    assert run_json(*args)["hits"] == 1
    assert run_json(*args, "--cover")["hits"] == 0


def test_hazard_results_are_reported_for_the_attacker(tmp_path: Path) -> None:
    # R24.15-a / 06.03: one plasma gun, hazard roll 1 -> 1 mortal wound on the attacker
    data = {
        "weapons": [{"name": "Plasma gun", "range": 24, "A": "1", "skill": 3, "S": 8,
                     "AP": -3, "D": "2", "abilities": ["HAZARDOUS"]}],
        "target": {"models": [{"name": "Ork", "count": 3, "T": 5, "Sv": 5, "W": 1}]},
        "attacker": {"models": [{"name": "Marine", "count": 2, "W": 2,
                                 "keywords": ["INFANTRY"]}]},
        "dice": {"hit": [1], "hazard": [1]},
    }
    doc = run_json("--input", scenario_file(tmp_path, data))
    assert doc["attacker"]["mortal_wounds"] == 1 and doc["attacker"]["wounds_lost"] == 1
    assert doc["attacker"]["models"][0] == {"name": "Marine 1", "wounds_remaining": 1,
                                            "destroyed": False}


def test_an_allocation_order_putting_a_character_first_is_exit_2_naming_r05_03_c(
        tmp_path: Path) -> None:
    data = {
        "weapons": [{"name": "Gun", "range": 24, "A": "1", "skill": 3, "S": 8, "D": "1"}],
        "target": {"models": [
            {"name": "Celestine", "T": 3, "Sv": 2, "InSv": 4, "W": 6,
             "keywords": ["INFANTRY", "CHARACTER"], "leader": True},
            {"name": "Gemina", "count": 2, "T": 3, "Sv": 2, "InSv": 4, "W": 1, "leader": True},
            {"name": "Seraphim", "count": 5, "T": 3, "Sv": 3, "InSv": 5, "W": 1}]},
        "dice": {"hit": [3], "wound": [3], "save": [1]},
        "allocation_order": ["Celestine", "Gemina", "Seraphim"],
    }
    result = run("--input", scenario_file(tmp_path, data))
    assert result.exit_code == 2 and "R05.03-c" in result.stderr
    # a legal order is taken as declared: Seraphim before Geminae
    data["allocation_order"] = ["Seraphim", "Gemina"]
    doc = run_json("--input", scenario_file(tmp_path, data))
    assert [m["name"] for m in doc["models"] if m["destroyed"]] == ["Seraphim 1"]


def test_an_illegal_order_is_refused_even_when_only_one_order_is_legal(tmp_path: Path) -> None:
    # R05.03-c: Celestine + Seraphim leave one legal order; declaring her first is still refused
    data = {
        "weapons": [{"name": "Gun", "range": 24, "A": "1", "skill": 3, "S": 8, "D": "1"}],
        "target": {"models": [
            {"name": "Celestine", "T": 3, "Sv": 2, "InSv": 4, "W": 6,
             "keywords": ["CHARACTER"], "leader": True},
            {"name": "Seraphim", "count": 5, "T": 3, "Sv": 3, "InSv": 5, "W": 1}]},
        "dice": {"hit": [3], "wound": [3], "save": [1]},
        "allocation_order": ["Celestine", "Seraphim"],
    }
    result = run("--input", scenario_file(tmp_path, data))
    assert result.exit_code == 2 and "R05.03-c" in result.stderr


def test_an_allocation_order_naming_no_model_is_located(tmp_path: Path) -> None:
    data = {**EXAMPLE_1, "allocation_order": ["Nobody"]}
    result = run("--input", scenario_file(tmp_path, data))
    assert result.exit_code == 2 and "allocation_order[0]" in result.stderr


def test_lethal_hits_roll_is_honoured(tmp_path: Path) -> None:
    # R24.23-a: "lethal_hits": "roll" makes the critical hit roll to wound (a 6: devastating)
    data = {
        "weapons": [{"name": "Gun", "range": 24, "A": "1", "skill": 3, "S": 4, "D": "2",
                     "abilities": ["LETHAL HITS", "DEVASTATING WOUNDS"]}],
        "target": {"models": [{"name": "Marine", "T": 4, "Sv": 3, "W": 5}]},
        "dice": {"hit": [6], "wound": [6]}, "lethal_hits": "roll",
    }
    doc = run_json("--input", scenario_file(tmp_path, data))
    assert (doc["critical_wounds"], doc["mortal_wounds"], doc["wounds_lost"]) == (1, 2, 2)


def test_a_plot_file_that_is_not_png_or_svg_is_exit_2_naming_the_option(tmp_path: Path) -> None:
    out = tmp_path / "kills.txt"
    result = runner.invoke(app, ["attack", "--exact", "--plot", str(out)])
    assert result.exit_code == 2
    assert "--plot" in result.stderr and ".png or .svg" in result.stderr
    assert not out.exists()


def _stealth_scenario(abilities: list[list[str]], *, melee: bool = False) -> dict[str, Any]:
    return {
        "weapons": [{"name": "Gun", "range": "Melee" if melee else 24, "A": "1", "skill": 3,
                     "S": 4, "AP": 0, "D": "1"}],
        "target": {"models": [{"name": f"Scout {i + 1}", "T": 4, "Sv": 7, "W": 1,
                               "abilities": a} for i, a in enumerate(abilities)]},
        "dice": {"hit": [3], "wound": [4], "save": [1]},
    }


def test_a_stealth_unit_in_the_open_has_the_benefit_of_cover(tmp_path: Path) -> None:
    # R24.33-a / R13.08-b: every model has Stealth -> BS 3+ becomes 4+: the 3 misses.
    data = _stealth_scenario([["Stealth"], ["Stealth"]])
    data["dice"] = {"hit": [3]}
    doc = run_json("--input", scenario_file(tmp_path, data))
    assert doc["hits"] == 0


def test_a_unit_where_not_every_model_has_stealth_has_no_cover(tmp_path: Path) -> None:
    # R24.33-a: a mixed unit -> no benefit of cover: the 3 hits.
    doc = run_json("--input", scenario_file(tmp_path, _stealth_scenario([["Stealth"], []])))
    assert doc["hits"] == 1


def test_stealth_does_not_help_against_melee_attacks(tmp_path: Path) -> None:
    # R24.33-a / R13.08-c: cover applies only to ranged attacks.
    data = _stealth_scenario([["Stealth"]], melee=True)
    doc = run_json("--input", scenario_file(tmp_path, data))
    assert doc["hits"] == 1


def test_stealth_and_cover_do_not_stack(tmp_path: Path) -> None:
    # R13.08-d: Stealth plus terrain cover is still -1 BS: a 4 hits.
    data = _stealth_scenario([["Stealth"]])
    data["dice"] = {"hit": [4], "wound": [4], "save": [1]}
    data["context"] = {"cover": True}
    doc = run_json("--input", scenario_file(tmp_path, data))
    assert doc["hits"] == 1
