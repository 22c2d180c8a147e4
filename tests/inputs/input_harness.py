"""The bad-input suite's harness: run one command on hostile input in-process (typer's
CliRunner) under a hard time bound, and check what a user would: the exit code, a message
that names the field, no traceback, and no partial output files."""

from __future__ import annotations

import copy
import json
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from w40k.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
BOUND_S = 20
"""The hard bound on one case (a hang is a failure, not a slow test)."""

runner = CliRunner()


class Hang(Exception):
    """A case ran past its bound."""


@contextmanager
def bounded(seconds: int = BOUND_S) -> Iterator[None]:
    """Raise :class:`Hang` if the block runs past ``seconds``."""

    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"the command ran past {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass(frozen=True)
class Case:
    """One hostile input: the files it writes, the command, and what must come out."""

    id: str
    args: list[str]
    files: dict[str, bytes | str | Callable[[], Any]] = field(default_factory=dict)
    code: int = 2
    names: tuple[str, ...] = ()
    """Text the error message must contain (the field, the file)."""
    outputs: tuple[str, ...] = ()
    """Output paths that must not exist (or keep their content) afterwards."""


def load_json(name: str) -> Any:
    """A fresh copy of an example file."""
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def edited(name: str, edit: Callable[[Any], object]) -> Callable[[], Any]:
    """An example file with ``edit`` applied (lazily, per case)."""

    def make() -> Any:
        data = load_json(name)
        edit(data)
        return data

    return make


def edited_data(factory: Callable[[], Any], edit: Callable[[Any], object]) -> Callable[[], Any]:
    """``factory()`` with ``edit`` applied."""

    def make() -> Any:
        data = copy.deepcopy(factory())
        edit(data)
        return data

    return make


def run_case(case: Case, tmp: Path) -> None:
    """Write the case's files under ``tmp``, run it, and check every promise."""
    for name, content in case.files.items():
        target = tmp / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content = json.dumps(content(), allow_nan=True)
        if isinstance(content, str):
            target.write_text(content, encoding="utf-8")
        else:
            target.write_bytes(content)
    before = {o: (tmp / o).read_bytes() if (tmp / o).is_file() else None for o in case.outputs}
    args = [a.replace("{tmp}", str(tmp)) for a in case.args]
    with bounded():
        result = runner.invoke(app, args, catch_exceptions=True)
    out = result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{case.id}: {type(result.exception).__name__}: {result.exception}")
    assert "Traceback" not in out, out
    assert result.exit_code == case.code, f"{case.id}: exit {result.exit_code}: {out}"
    for text in case.names:
        assert text.replace("{tmp}", str(tmp)) in out, f"{case.id}: {text!r} not in {out!r}"
    if case.code != 0:
        # our errors start with "error: "; typer's own option errors show the usage
        assert out.startswith("error: ") or "Usage:" in out or "differs" in out, out
    for o, content in before.items():
        now = (tmp / o).read_bytes() if (tmp / o).is_file() else None
        assert now == content, f"{case.id}: {o} was written or changed"
    leftovers = [p.name for p in tmp.rglob(".*.tmp*")] + [
        p.name for p in tmp.rglob(".*") if p.is_file() and p.name.startswith(".")]
    assert not leftovers, f"{case.id}: temporary files left: {leftovers}"
