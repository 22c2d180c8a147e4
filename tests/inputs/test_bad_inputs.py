"""The bad-input campaign of issue 14 as the project's own suite: every hostile file, option
and record ends in a clear error (exit 2, 3 for a replay that differs) that names the file and
the field, with no traceback, no partial output file, within a hard time bound."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.inputs.input_cases import RECORD_EDITS, all_cases
from tests.inputs.input_harness import BOUND_S, ROOT, Case, run_case, runner
from w40k.agents import RandomAgent
from w40k.cli.main import app
from w40k.engine.game import Game
from w40k.io.battle_setup import default_position

CASES = all_cases()


def test_the_campaign_has_at_least_150_cases() -> None:
    assert len(CASES) + len(RECORD_EDITS) >= 150
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_bad_input_is_a_clear_error(case: Case, tmp_path: Path) -> None:
    run_case(case, tmp_path)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    game = Game.new(default_position(), 5)
    agents = {p.name: RandomAgent(i) for i, p in enumerate(game.state.players)}
    while (req := game.pending()) is not None:
        game.submit(agents[req.player].choose(game, req))
    return game.record()


@pytest.mark.stratagems  # the record is played with the engine's reactions (the module fixture)
def test_an_untouched_record_replays_identically(record: dict[str, Any], tmp_path: Path
                                                 ) -> None:
    (tmp_path / "r.json").write_text(json.dumps(record), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(tmp_path / "r.json")])
    assert res.exit_code == 0, res.output
    assert "identical" in res.output


@pytest.mark.stratagems
@pytest.mark.parametrize(("cid", "edit", "code", "text"), RECORD_EDITS,
                         ids=[e[0] for e in RECORD_EDITS])
def test_a_tampered_record_names_where_it_is_wrong(record: dict[str, Any], tmp_path: Path,
                                                   cid: str, edit: Any, code: int, text: str
                                                   ) -> None:
    data = json.loads(json.dumps(record))
    edit(data)
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(tmp_path / "r.json")])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == code, res.output
    assert "r.json" in res.output and text in res.output, res.output
    if code == 3:  # a differing replay names both values and the choice before it
        assert "recorded" in res.output and "replayed" in res.output
        assert "choices[" in res.output or "before the first choice" in res.output


def test_two_names_differing_in_punctuation_get_distinct_unit_ids() -> None:
    from w40k.io.army import builtin
    from w40k.io.army_build import make_unit
    from w40k.io.army_model import Army
    from w40k.io.battle_setup import position_from_armies

    orks = builtin("boyz")
    sheet = orks.catalogue["Boyz"]
    blue = Army("W", "ORKS", (make_unit(sheet, name="Second squad", count=10),
                              make_unit(sheet, name="Second-squad", count=10)))
    red = builtin("space_marines").army
    assert red is not None
    pos = position_from_armies(red, blue)
    ids = [u["id"] for u in pos["units"]]  # type: ignore[index,union-attr]
    assert len(set(ids)) == len(ids)
    assert "blue.second-squad" in ids and "blue.second-squad-2" in ids


def test_a_failed_battle_leaves_an_existing_record_untouched(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "record.json").write_text("old", encoding="utf-8")
    (tmp_path / "m.json").write_text('{"rounds": 0}', encoding="utf-8")
    res = runner.invoke(app, ["battle", "--mission", str(tmp_path / "m.json"), "--out", str(out)])
    assert res.exit_code == 2
    assert (out / "record.json").read_text(encoding="utf-8") == "old"


# A few cases through the real console script, with a subprocess timeout as the bound.
SUBPROCESS = [
    (["attack", "--sims", "1000000000000"], "--sims"),
    (["attack", "-w", '1x Gun 24" A1000000000 BS3+ S4 AP0 D1', "-t", "5x Boy T5 Sv5+ W1",
      "--exact"], "--weapon 1"),
    (["attack", "--input", "{markup}", "--seed", "1"], None),
    (["battle", "--agents", "x"], "--agents"),
]


@pytest.mark.parametrize(("args", "text"), SUBPROCESS, ids=[a[1] for a, _ in SUBPROCESS])
def test_the_console_script_never_shows_a_traceback(args: list[str], text: str | None,
                                                   tmp_path: Path) -> None:
    scenario = json.loads((ROOT / "examples" / "attack.json").read_text(encoding="utf-8"))
    scenario["weapons"][0]["name"] = "[link=http://x]Gun[/]"
    (tmp_path / "m.json").write_text(json.dumps(scenario), encoding="utf-8")
    args = [a.replace("{markup}", str(tmp_path / "m.json")) for a in args]
    proc = subprocess.run([sys.executable, "-c", "from w40k.cli.main import main; main()",
                           *args], capture_output=True,
                          text=True, timeout=BOUND_S * 3, cwd=ROOT, check=False)
    assert "Traceback" not in proc.stderr + proc.stdout
    if text is None:  # markup in names is printed as text
        assert proc.returncode == 0, proc.stderr
        assert "[link=http://x]Gun[/]" in proc.stdout
        assert "\x1b]8" not in proc.stdout
    else:
        assert proc.returncode == 2
        assert text in proc.stderr
