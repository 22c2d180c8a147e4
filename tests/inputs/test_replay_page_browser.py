"""The replay page in headless Chromium (Debian's ``chromium``, driven by playwright; never
playwright's own browser): names from files cannot run a script or blank the page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from w40k.agents import RandomAgent
from w40k.engine.game import Game
from w40k.io.battle_setup import default_position
from w40k.viz.replay import replay_page, snapshot

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium not installed")

HOSTILE = ["<script>window.PWNED=1</script>", "<!--<script>", "</script><script>window.PWNED=2"
           "</script>", "\u2028x\u2029", "<img src=x onerror=window.PWNED=3>"]


def _page(tmp: Path, name: str) -> Path:
    pos = default_position()
    pos["units"][0]["id"] = name  # type: ignore[index]
    pos["units"][0]["name"] = name  # type: ignore[index]
    game = Game.new(pos, 1)
    agent = RandomAgent(1)
    snaps = [snapshot(game)]
    for _ in range(20):
        req = game.pending()
        if req is None:
            break
        game.submit(agent.choose(game, req))
    snaps.append(snapshot(game))
    log = [f"{name} moves", "<!-- log"]
    path = tmp / "replay.html"
    path.write_text(replay_page(name, game.state.battlefield, game.state.terrain, snaps, log,
                                [1, 2]), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_shows_as_text_and_runs_no_script(tmp_path: Path, name: str) -> None:
    page_file = _page(tmp_path, name)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_file.as_uri())
            assert page.evaluate("typeof window.PWNED") == "undefined"
            assert errors == []
            # the page's own script ran: the slider has every snapshot and the log shows
            assert page.evaluate("document.getElementById('slider').max") == "1"
            page.evaluate("s => { s.value = 1; s.oninput(); }",
                          page.query_selector("#slider"))
            assert f"{name} moves" in page.inner_text("#log") or name.strip() in \
                page.inner_text("#log")
            assert name.strip() in page.title() or "\u2028" in name
        finally:
            browser.close()
