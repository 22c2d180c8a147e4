"""Start-up benchmark: whole-process wall-clock medians of the commands a user types first.

Run: ``.venv/bin/python benchmarks/bench_startup.py [--runs N]``. Prints, for each command, the
median (and min) of N process runs, hyperfine-style (one warm-up run first, output to
/dev/null), plus the floors they cannot go under: a bare interpreter, ``import typer``, a
one-command typer app with two options, and the same app printing a rich table. Nothing is
asserted (DESIGN.md: speed is measured, never asserted by tests).

Issue 10 targets: ``import w40k`` at most 150 ms; ``w40k attack`` at most 0.3 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FLOOR_APP = '''
from typing import Annotated
import typer
app = typer.Typer(add_completion=False)
@app.callback()
def root() -> None:
    """Root."""
@app.command()
def attack(n: Annotated[int, typer.Option("--n")] = 1,
           exact: Annotated[bool, typer.Option("--exact")] = False) -> None:
    """One command."""
    RICH
app()
'''


def median_run(cmd: list[str], runs: int) -> tuple[float, float]:
    """Median and minimum wall-clock seconds of ``runs`` runs after one warm-up run."""
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="process runs per command")
    parser.add_argument(
        "--src",
        type=Path,
        help="time the package under this source folder instead (e.g. an older commit's src/ "
        "from `git archive`), by PYTHONPATH",
    )
    args = parser.parse_args()
    py = sys.executable
    script = shutil.which("w40k", path=str(Path(py).parent))
    if args.src is not None:
        os.environ["PYTHONPATH"] = str(args.src.resolve())
        script = None
    w40k = [script] if script else [py, "-c", "from w40k.cli.main import main; main()"]
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp, "floor_plain.py")
        plain.write_text(FLOOR_APP.replace("RICH", "print(n)"))
        rich = Path(tmp, "floor_rich.py")
        rich.write_text(FLOOR_APP.replace(
            "RICH", "from rich.console import Console\n    from rich.table import Table\n"
            "    Console().print(Table('a', 'b'))"))
        rows: list[tuple[str, list[str], str]] = [
            ("python -c pass", [py, "-c", "pass"], "floor"),
            ("python -c 'import typer'", [py, "-c", "import typer"], "floor"),
            ("typer app, 2 options", [py, str(plain), "attack"], "floor"),
            ("typer app + rich table", [py, str(rich), "attack"], "floor"),
            ("python -c 'import w40k'", [py, "-c", "import w40k"], "<= 0.150 s"),
            ("w40k attack", [*w40k, "attack"], "<= 0.300 s"),
            ("w40k attack --exact", [*w40k, "attack", "--exact"], ""),
            ("w40k attack --json", [*w40k, "attack", "--json"], ""),
        ]
        if args.src is not None:
            print(f"package from {args.src} (PYTHONPATH)")
        print(f"load average {os.getloadavg()[0]:.2f}; {args.runs} runs each")
        print(f"{'command':<28}{'median':>10}{'min':>10}   target")
        for label, cmd, target in rows:
            med, low = median_run(cmd, args.runs)
            print(f"{label:<28}{med:>8.3f} s{low:>8.3f} s   {target}")


if __name__ == "__main__":
    main()
