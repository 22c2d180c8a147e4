"""`w40k army FILE [--json]`: the army as read from any supported file (docs/rosters.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from w40k.cli.help import TidyCommand
from w40k.core.errors import DataError, W40kError


def register(app: typer.Typer) -> None:
    """Add the `army` command."""

    @app.command("army", cls=TidyCommand)
    def army(
        file: Annotated[Path, typer.Argument(
            help="An army file: .ros, .rosz, New Recruit JSON, app or New Recruit text, or "
                 "the project's YAML/JSON.")],
        as_json: Annotated[bool, typer.Option("--json", help="Print the army as JSON.")] = False,
        datasheets: Annotated[list[Path] | None, typer.Option(
            "--datasheets", "-d", metavar="<path>",
            help="Datasheets for text exports: an army/datasheet file or an earlier roster "
                 "(repeatable; the shipped datasheets are always searched).")] = None,
        check: Annotated[bool, typer.Option(
            "--check/--no-check",
            help="Also build the engine's army and report what it refuses.")] = True,
    ) -> None:
        """Print the army read from FILE: units, models, profiles, weapons, attachments,
        points, and the abilities the engine does not apply ("not applied: ...")."""
        from w40k.io.rosters import read_roster, to_army
        from w40k.io.rosters.render import roster_json, roster_text

        try:
            roster = read_roster(file, datasheets=list(datasheets or ()))
        except (DataError, W40kError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        problem = None
        if check and roster.format != "army":
            try:
                to_army(roster)
            except (DataError, W40kError) as exc:
                problem = str(exc)
        if as_json:
            typer.echo(json.dumps(roster_json(roster), indent=2, ensure_ascii=False))
        else:
            for line in roster_text(roster):
                typer.echo(line)
        if problem is not None:
            typer.echo(f"error: the engine cannot play this army: {problem}", err=True)
            raise typer.Exit(2)
        if roster.format == "army":
            from w40k.io.army import load_army
            from w40k.io.battle_setup import not_applied

            for line in not_applied(load_army(file)):
                typer.echo(f"note: {line}", err=True)
