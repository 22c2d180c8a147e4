"""`w40k attack` (placeholder until the attack sequence lands)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `attack` command to the app."""
