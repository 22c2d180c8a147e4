"""`w40k los` (placeholder until the geometry layer lands)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `los` command to the app."""
