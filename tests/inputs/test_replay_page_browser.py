"""The replay page in headless Chromium (Debian's ``chromium``, driven by playwright; never
playwright's own browser), checked as a user would: the slider steps through every phase,
the arrow keys step too, the last step shows the final VP, units show their names and wounds,
and names from files cannot run a script or blank the page."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from w40k.agents import RandomAgent
from w40k.cli.main import app
from w40k.engine.game import Game
from w40k.io.battle_setup import default_position
from w40k.viz.replay import ReplayRecorder

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium not installed")

HOSTILE = ["<script>window.PWNED=1</script>", "<!--<script>", "</script><script>window.PWNED=2"
           "</script>", "\u2028x\u2029", "<img src=x onerror=window.PWNED=3>"]
ALERT = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


def _open(browser: Any, path: Path) -> tuple[Any, list[str], list[str]]:
    page = browser.new_page()
    errors: list[str] = []
    dialogs: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    page.goto(path.as_uri())
    return page, errors, dialogs


def _step(page: Any, i: int) -> str:
    page.evaluate("i => { const s = document.getElementById('slider'); s.value = i; "
                  "s.dispatchEvent(new Event('input')); }", i)
    return str(page.inner_text("#where"))


def _page(tmp: Path, name: str) -> Path:
    pos = default_position()
    pos["units"][0]["id"] = name  # type: ignore[index]
    pos["units"][0]["name"] = name  # type: ignore[index]
    game = Game.new(pos, 1)
    agent = RandomAgent(1)
    recorder = ReplayRecorder(game, pos)
    for _ in range(40):
        req = game.pending()
        recorder.feed(game)
        if req is None:
            break
        game.submit(agent.choose(game, req))
    recorder.finish(game)
    path = tmp / "replay.html"
    path.write_text(recorder.page(name), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_shows_as_text_and_runs_no_script(browser: Any, tmp_path: Path,
                                                         name: str) -> None:
    page, errors, dialogs = _open(browser, _page(tmp_path, name))
    try:
        assert page.evaluate("typeof window.PWNED") == "undefined"
        assert errors == [] and dialogs == []
        assert page.evaluate("document.scripts.length") == 2  # the data and the page's own
        # the page's own script ran: every step is on the slider and the names are text
        assert int(page.evaluate("document.getElementById('slider').max")) >= 2
        shown = name.replace("\u2028", "").replace("\u2029", "").strip()
        assert shown in page.text_content("#table")
        assert shown in page.inner_text("#title")
    finally:
        page.close()


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A whole battle (greedy players fight) with a unit named <script>alert(1)</script>."""
    tmp = tmp_path_factory.mktemp("battle")
    pos = default_position()
    pos["units"][0]["name"] = ALERT  # type: ignore[index]
    (tmp / "pos.json").write_text(json.dumps(pos))
    res = CliRunner().invoke(app, ["battle", "--from", str(tmp / "pos.json"), "--agents",
                                   "greedy,greedy", "--seed", "1", "--out", str(tmp / "out"),
                                   "--quiet"])
    assert res.exit_code == 0, res.output
    record = json.loads((tmp / "out" / "record.json").read_text())
    return tmp / "out" / "replay.html", record


def _label(e: dict[str, Any]) -> str:
    phase = str(e["phase"]).replace("_", " ")
    turn = f"{e['player']}'s turn \u00b7 " if e["player"] else ""
    return f"Round {e['round']} \u00b7 {turn}{phase} phase"


def test_the_slider_steps_through_every_phase_and_the_last_step_shows_the_final_vp(
        browser: Any, battle: tuple[Path, dict[str, Any]]) -> None:
    path, record = battle
    page, errors, dialogs = _open(browser, path)
    try:
        last = int(page.evaluate("document.getElementById('slider').max"))
        seen = [_step(page, i) for i in range(last + 1)]
        phases = list(dict.fromkeys(_label(e) for e in record["events"] if e["phase"]))
        assert len(phases) >= 5 * 2 * 5  # five rounds of two turns of at least five phases
        # every phase of the battle is a step, in the order played, between the deployment
        # and the end
        assert seen == ["Deployment: the armies before the first turn", *phases,
                        f"Battle over (round {record['events'][-1]['round']})"]
        end = record["events"][-1]
        assert end["event"] == "battle_end"
        vp = ", ".join(f"{p} {v}" for p, v in end["vp"].items())
        assert f"VP: {vp}" in page.inner_text("#score")
        rows = page.inner_text("#history")
        assert "end" in rows and all(str(v) in rows for v in end["vp"].values())
        assert errors == [] and dialogs == []
    finally:
        page.close()


def test_the_arrow_keys_step_through_the_phases(browser: Any,
                                                battle: tuple[Path, dict[str, Any]]) -> None:
    page, errors, _ = _open(browser, battle[0])
    try:
        value = "document.getElementById('slider').value"
        page.click("h1")  # focus on the page, not on the slider
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert page.evaluate(value) == "2"
        assert page.inner_text("#where").startswith("Round 1 ")
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(value) == "1"
        page.keyboard.press("End")
        assert page.inner_text("#where").startswith("Battle over")
        page.keyboard.press("Home")
        assert page.evaluate(value) == "0"
        assert errors == []
    finally:
        page.close()


def test_units_show_names_and_wounds_and_the_table_shows_what_happened(
        browser: Any, battle: tuple[Path, dict[str, Any]]) -> None:
    page, errors, dialogs = _open(browser, battle[0])
    try:
        # the unit named <script>alert(1)</script> is a label, as text, and no dialog fired
        labels = page.eval_on_selector_all("text.label", "ts => ts.map(t => t.textContent)")
        assert any(t.startswith(ALERT + " (") and " W)" in t for t in labels), labels
        assert dialogs == [] and page.evaluate("document.scripts.length") == 2
        titles = page.eval_on_selector_all("ellipse.model", "es => es.map(e => e.textContent)")
        assert any(t.startswith("Boy 1 of Boyz: 1 of 1 wound left") for t in titles), titles
        last = int(page.evaluate("document.getElementById('slider').max"))
        found: dict[str, bool] = {}
        for i in range(last + 1):
            _step(page, i)
            for what in ("line.trail", "line.act.shoot", "line.act.fight", "line.act.charge"):
                found[what] = found.get(what, False) or page.locator(what).count() > 0
            colours = page.eval_on_selector_all("circle.objective",
                                                "cs => cs.map(c => c.getAttribute('fill'))")
            found["red objective"] = found.get("red objective", False) or "#c62828" in colours
            found["blue objective"] = found.get("blue objective", False) or "#1e5bb8" in colours
            if page.locator("line.act.shoot").count():
                # the attack's dice: on the line (hover) and in the phase's panel
                tip = page.locator("line.act.shoot title").first.text_content()
                assert "dice: hit" in tip and "dice: hit" in page.inner_text("#step")
        assert all(found.values()), found
        assert errors == []
    finally:
        page.close()


def test_a_unit_label_at_the_table_edge_stays_on_the_table(browser: Any,
                                                           tmp_path: Path) -> None:
    # a long name over a unit at the left edge is shifted in, not cut off by the table's edge
    long = "A unit with a very long name indeed"
    pos = default_position()
    unit = pos["units"][0]  # type: ignore[index]
    unit["name"] = long
    for i, m in enumerate(unit["models"]):
        m["x"], m["y"] = 0.8 + 0.1 * i, 5.0 + 1.4 * i
    game = Game.new(pos, 1)
    recorder = ReplayRecorder(game, pos)
    recorder.feed(game)
    recorder.finish(game)
    path = tmp_path / "replay.html"
    path.write_text(recorder.page("edge"), encoding="utf-8")
    page, errors, _ = _open(browser, path)
    _step(page, 0)
    box = page.evaluate(
        "n => { const vb = document.getElementById('table').viewBox.baseVal; "
        "const t = [...document.querySelectorAll('text.label')]"
        ".find(e => e.textContent.startsWith(n)); const b = t.getBBox(); "
        "return [b.x, b.x + b.width, vb.x, vb.x + vb.width]; }", long)
    assert not errors
    assert box[0] >= box[2] - 1e-6 and box[1] <= box[3] + 1e-6, box
