"""Output files: checked before any work, written whole or not at all.

:func:`check_output_file` refuses a path whose folder is missing or that is a folder, before
the command does its work; :func:`write_atomic` writes a temporary file next to the target and
renames it over the target, so an existing file is never left half-overwritten.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from w40k.core.errors import DataError


def check_output_file(path: Path, where: str) -> None:
    """Refuse an output file that cannot be written (DataError naming the option)."""
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise DataError(f"expected a file to write, found a folder: {path}", where=where)
    if not parent.exists():
        raise DataError(f"the folder {parent} does not exist", where=where)
    if not parent.is_dir():
        raise DataError(f"{parent} is a file, not a folder", where=where)
    if not os.access(parent, os.W_OK):
        raise DataError(f"the folder {parent} is not writable", where=where)


def prepare_output_dir(path: Path, where: str) -> None:
    """Create an output folder (and its parents) now, or refuse (a file is in the way)."""
    if path.exists() and not path.is_dir():
        raise DataError(f"expected a folder, found a file: {path}", where=where)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"cannot create the folder {path}: {exc.strerror or exc}",
                        where=where) from None
    if not os.access(path, os.W_OK):
        raise DataError(f"the folder {path} is not writable", where=where)


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path next to ``path`` (same suffix); renamed over ``path`` on success,
    removed on failure."""
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix,
                                dir=path.parent if str(path.parent) else ".")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_atomic(path: Path, text: str, where: str = "output") -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all."""
    write_with(path, lambda tmp: tmp.write_text(text, encoding="utf-8"), where)


def write_with(path: Path, writer: Callable[[Path], object], where: str) -> None:
    """Run ``writer`` on a temporary path and rename it over ``path``."""
    try:
        with atomic_path(path) as tmp:
            writer(tmp)
    except OSError as exc:
        raise DataError(f"cannot write {path}: {exc.strerror or exc}", where=where) from None
