"""A PNG of a battle's replay page at a chosen step (the README's picture: docs/replay.png).

Run: ``python scripts/replay_screenshot.py RECORD_OR_PAGE OUT.png [--step N | --where TEXT]
[--width W] [--height H]``

``RECORD_OR_PAGE`` is a game record written by ``w40k battle`` (``out/record.json``: it is
replayed, as ``w40k replay --html`` does, to build its page) or a replay page itself
(``out/replay.html``: used as it is, no replay). The page is opened in headless Chromium
(Debian's ``chromium`` driven by playwright, as tests/inputs/test_replay_page_browser.py does;
never playwright's own browser download), stepped to ``--step N`` (0 is the deployment, -1 the
last step, "battle over") or to the first step whose heading contains ``--where TEXT`` (for
example ``"Round 3 · red's turn · charge"``), and the window is saved as a PNG.

Remake the README's picture of the default battle::

    w40k battle
    python scripts/replay_screenshot.py out/replay.html docs/replay.png \\
        --where "Round 2 · blue's turn · fight" --height 800
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from w40k.io.record_model import load_record
from w40k.viz.replay import replay_with_page

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def page_of_record(record_file: Path) -> str:
    """The replay page of a game record (the record replayed from its seed and choices)."""
    _, _, page = replay_with_page(load_record(record_file), str(record_file),
                                  f"w40k replay: {record_file.name}")
    assert page is not None
    return page


def screenshot(page_file: Path, out: Path, *, step: int | None = None,
               where: str | None = None, width: int = 1500, height: int = 1000) -> str:
    """Save ``page_file`` at a step as ``out`` (PNG); returns the step's heading."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_file.resolve().as_uri())
            last = int(page.evaluate("document.getElementById('slider').max"))

            def go(i: int) -> str:
                page.evaluate("i => { const s = document.getElementById('slider'); "
                              "s.value = i; s.dispatchEvent(new Event('input')); }", i)
                return str(page.inner_text("#where"))

            if where is not None:
                index = next((i for i in range(last + 1) if where in go(i)), None)
                if index is None:
                    raise SystemExit(f"no step of the page has {where!r} in its heading")
            else:
                index = last if step is None else (step if step >= 0 else last + 1 + step)
                if not 0 <= index <= last:
                    raise SystemExit(f"--step: the page has steps 0..{last}")
            heading = go(index)
            if errors:
                raise SystemExit(f"the page reported errors: {errors}")
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
            return heading
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path, help="a record.json or a replay.html")
    ap.add_argument("out", type=Path, help="the PNG to write")
    pick = ap.add_mutually_exclusive_group()
    pick.add_argument("--step", type=int, default=None,
                      help="step index (0 deployment, -1 the end; default the end)")
    pick.add_argument("--where", default=None,
                      help="the first step whose heading contains this text")
    ap.add_argument("--width", type=int, default=1500, help="window width in pixels")
    ap.add_argument("--height", type=int, default=1000, help="window height in pixels")
    args = ap.parse_args(argv)
    if not Path(CHROMIUM).exists():
        sys.exit(f"chromium not found ({CHROMIUM}): apt-get install chromium")
    if args.source.suffix == ".html":
        heading = screenshot(args.source, args.out, step=args.step, where=args.where,
                             width=args.width, height=args.height)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            page_file = Path(tmp) / "replay.html"
            page_file.write_text(page_of_record(args.source), encoding="utf-8")
            heading = screenshot(page_file, args.out, step=args.step, where=args.where,
                                 width=args.width, height=args.height)
    print(f"{args.out}: {heading}")


if __name__ == "__main__":
    main()
