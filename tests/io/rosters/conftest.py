"""Shared paths of the roster test files (small files written for these tests)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"
