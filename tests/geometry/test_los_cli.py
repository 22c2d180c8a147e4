"""`w40k los`: the scene contract, JSON output, SVG and error messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from w40k.cli.main import app

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "scene.json"
runner = CliRunner()


def test_the_example_scene_reports_every_ordered_pair_of_opposing_units(tmp_path: Path) -> None:
    svg = tmp_path / "table.svg"
    res = runner.invoke(app, ["los", "--input", str(EXAMPLE), "--json", "--svg", str(svg)])
    assert res.exit_code == 0, res.output
    pairs = json.loads(res.stdout)["pairs"]
    scene = json.loads(EXAMPLE.read_text())
    players = {u["name"]: u["player"] for u in scene["units"]}
    expected = {(a, b) for a in players for b in players if players[a] != players[b]}
    assert {(p["observer"], p["target"]) for p in pairs} == expected
    keys = {
        "observer",
        "target",
        "visible",
        "fully_visible",
        "cover",
        "engaged",
        "plunging_fire",
        "distance",
        "reason",
        "in_range",
    }
    assert all(keys <= p.keys() for p in pairs)
    assert any(p["visible"] for p in pairs) and any(not p["visible"] for p in pairs)
    text = svg.read_text()
    assert text.startswith("<svg") and "<ellipse" in text and "Ruin North wall" in text


def test_the_table_output_names_the_units() -> None:
    res = runner.invoke(app, ["los", "--input", str(EXAMPLE)])
    assert res.exit_code == 0
    assert "Intercessors" in res.stdout


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda s: s["units"][2]["models"][0].update(base_mm="abc"),
            "scene.json: units[2].models[0].base_mm: expected a number, found text 'abc'",
        ),
        (lambda s: s["terrain"][0].update(category="rubble"), "scene.json: terrain[0].category"),
        (
            lambda s: s["terrain"][1].update(area="Nowhere"),
            "scene.json: terrain[1].area: unknown terrain area",
        ),
        (
            lambda s: s["units"][0]["models"][1].pop("x"),
            "scene.json: units[0].models[1].x: missing",
        ),
        (lambda s: s.pop("battlefield"), "scene.json: battlefield: missing"),
        (
            lambda s: s["units"][1].update(keywords="INFANTRY"),
            "scene.json: units[1].keywords: expected a list",
        ),
    ],
)
def test_bad_scenes_exit_2_with_the_file_and_field_path(
    tmp_path: Path, mutate: object, message: str
) -> None:
    scene = json.loads(EXAMPLE.read_text())
    mutate(scene)  # type: ignore[operator]
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(scene))
    res = runner.invoke(app, ["los", "--input", str(path), "--json"])
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output


def test_a_pair_that_is_not_visible_never_reports_cover_in_json_or_table(tmp_path: Path) -> None:
    # R13.08-a: the target is INFANTRY within a terrain area (13.08 (i)) but wholly behind a
    # wall: not visible, so no cover, in the JSON and in the table.
    models = [{"x": 25.0, "y": 10.0, "base_mm": 32, "height": 1.6}]
    scene = {
        "battlefield": {"width": 60, "depth": 44},
        "areas": [{"name": "Ruins", "footprint": [[20, 0], [30, 0], [30, 20], [20, 20]]}],
        "terrain": [
            {"name": "Crater", "category": "exposed", "area": "Ruins",
             "footprint": [[21, 16], [22, 16], [22, 17], [21, 17]], "height": 0.2},
            {"name": "Wall", "category": "dense",
             "footprint": [[15, 0], [15.5, 0], [15.5, 20], [15, 20]], "height": 5.0},
        ],
        "units": [
            {"name": "Shooters", "player": "a", "keywords": ["INFANTRY"],
             "models": [{**models[0], "x": 5.0}]},
            {"name": "Hiders", "player": "b", "keywords": ["INFANTRY"], "models": models},
        ],
    }
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(scene))
    res = runner.invoke(app, ["los", "--input", str(path), "--json"])
    assert res.exit_code == 0, res.output
    pair = next(p for p in json.loads(res.stdout)["pairs"] if p["target"] == "Hiders")
    assert pair["visible"] is False and pair["cover"] is False
    res = runner.invoke(app, ["los", "--input", str(path)])
    row = next(line for line in res.stdout.splitlines() if "Shooters" in line and "Hiders" in line)
    cells = [c.strip() for c in row.split("│")[1:-1]]
    assert cells[:5] == ["Shooters", "Hiders", "no", "no", "no"], cells
