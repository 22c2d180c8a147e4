"""The `w40k` command line: one Typer app, one module per subcommand."""

from __future__ import annotations

import typer

from w40k.cli import attack, battle, los

app = typer.Typer(
    name="w40k",
    help="A rules engine for the Warhammer 40,000 11th-edition core rules.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root() -> None:
    """A rules engine for the Warhammer 40,000 11th-edition core rules."""


attack.register(app)
los.register(app)
battle.register(app)
__import__("w40k.cli.army", fromlist=["register"]).register(app)  # w40k army


def main() -> None:
    """Entry point of the `w40k` console script."""
    app()
