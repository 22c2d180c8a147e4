"""Shared test setup: make ``tests/builders.py`` importable as ``builders`` from any test folder
(the repository uses no ``__init__.py`` in tests/)."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
