"""Shared test setup: make ``tests/builders.py`` importable as ``builders`` from any test folder
(the repository uses no ``__init__.py`` in tests/)."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)


def pytest_sessionstart(session: object) -> None:
    """With numba installed (``pip install -e '.[dev,fast]'``; the ``dev`` extra alone does
    not install it), compile the line-of-sight kernels once, in the controlling process,
    before pytest-xdist starts its workers: they then load them from numba's disk cache
    instead of each compiling them at the same time (set ``NUMBA_CACHE_DIR`` to a cached
    folder in CI so that even this happens once)."""
    if hasattr(getattr(session, "config", None), "workerinput"):
        return
    from w40k.geometry import kernel_cache

    if kernel_cache.AVAILABLE:
        from w40k.geometry.kernel_warm import main

        main()
