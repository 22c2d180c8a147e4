"""The `w40k` command line: one Typer app, one module per subcommand.

Subcommand modules are imported only when their command runs (or for ``--help``), so
``w40k attack`` never loads the geometry, the engine or the compiled kernels that ``w40k
battle`` and ``w40k los`` need (docs/math.md, "Start-up"). Each module keeps its
``register(app)`` function; the lazy group calls it on a one-command app of its own.
"""

from __future__ import annotations

import gc
import importlib
from types import ModuleType

import typer
from typer._click import Context, Parameter  # typer 0.29 ships its own click
from typer.core import TyperGroup

from w40k.cli.help import tidy_params

# Subcommand name -> the module whose register(app) adds it, in the order --help lists them.
COMMANDS: dict[str, str] = {
    "attack": "w40k.cli.attack",
    "los": "w40k.cli.los",
    "battle": "w40k.cli.battle",
    "replay": "w40k.cli.battle",
    "army": "w40k.cli.army",
    "simulate": "w40k.cli.simulate",
}


class LazyGroup(TyperGroup):
    """A Typer group that imports a subcommand's module the first time it is asked for."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        params = super().get_params(ctx)
        tidy_params(params)  # --help is a flag, shown without "<bool>"
        return params

    def list_commands(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        return [*COMMANDS, *(n for n in self.commands if n not in COMMANDS)]

    def get_command(  # type: ignore[override]
        self, ctx: typer.Context, cmd_name: str
    ) -> typer.core.TyperCommand | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.add_command(_load(cmd_name), cmd_name)
        return self.commands.get(cmd_name)  # type: ignore[return-value]

    def resolve_command(  # type: ignore[override]
        self, ctx: typer.Context, args: list[str]
    ) -> tuple[str | None, typer.core.TyperCommand | None, list[str]]:
        # A typo's "did you mean" reads self.commands: list the lazy names there too.
        if args and args[0] not in COMMANDS:
            for name in COMMANDS:
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)  # type: ignore[return-value]


_OWN_PROCESS = False
"""Set by :func:`main`: this process runs one command and ends (the console script), so the
objects its imports make may be frozen out of the garbage collector (:func:`_import`)."""


def _import(module: str) -> ModuleType:
    """``module`` imported. In the console script's own process, with the garbage collector
    off during the import and the objects then alive frozen (``gc.freeze``: modules,
    functions, classes, which live as long as the process): the ~150 collections that
    ``w40k battle``'s imports triggered walked the same young objects again and again
    (~50 ms of CPU, docs/performance.md "Pass: proc11"), and no later collection walks them.
    A library or test process (``app`` called directly) keeps its collector as it is."""
    if not _OWN_PROCESS:
        return importlib.import_module(module)
    enabled = gc.isenabled()
    gc.disable()
    try:
        return importlib.import_module(module)
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def _load(name: str) -> typer.core.TyperCommand:
    sub = typer.Typer(add_completion=False)
    _import(COMMANDS[name]).register(sub)
    command = typer.main.get_command(sub)
    # A module that registers several commands (battle and replay) gives a group: take the
    # one asked for.
    commands = getattr(command, "commands", None)
    if isinstance(commands, dict) and name in commands:
        command = commands[name]
    command.name = name
    return command  # type: ignore[return-value]


app = typer.Typer(
    name="w40k",
    help="A rules engine for the Warhammer 40,000 11th-edition core rules.",
    no_args_is_help=True,
    add_completion=False,
    cls=LazyGroup,
)


@app.callback()
def _root() -> None:
    """A rules engine for the Warhammer 40,000 11th-edition core rules."""


def main() -> None:
    """Entry point of the `w40k` console script (the process is the command's own)."""
    global _OWN_PROCESS
    _OWN_PROCESS = True
    app()
