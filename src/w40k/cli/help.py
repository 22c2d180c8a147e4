"""How `--help` shows parameters: flags as flags, arguments by a metavar.

Typer (0.29) writes every boolean flag with a type, ``--json <bool>``, though it takes no
value, and a required argument as ``{record_file}`` in the usage line. Commands built with
:class:`TidyCommand` show ``--json`` (or ``--check / --no-check``) alone and ``RECORD_FILE``
(``[FILE]`` when optional). Only the display changes: names, options and parsing are the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from typer._click import Context, Parameter  # typer 0.29 ships its own click
from typer.core import TyperCommand


def tidy_params(params: Iterable[Parameter]) -> None:
    """Flags show no value type; arguments show an upper-case metavar."""
    for p in params:
        if p.param_type_name == "option" and getattr(p, "is_flag", False):
            p.metavar = ""  # typer prints the metavar in place of "<bool>"
        elif p.param_type_name == "argument" and p.metavar is None and p.name:
            p.metavar = p.name.upper()


def reflow(text: str | None) -> str | None:
    """Help text with the line breaks inside a paragraph joined (the help is wrapped to the
    terminal); blank lines and indented lines (examples) are kept as they are."""
    if not text:
        return text
    out: list[str] = []
    for line in text.strip().splitlines():
        if out and out[-1] and line.strip() and not line.startswith(" ") \
                and not out[-1].startswith(" ") and not out[-1].endswith(":"):
            out[-1] += " " + line.strip()
        else:
            out.append(line.rstrip())
    return "\n".join(out)


class TidyCommand(TyperCommand):
    """A Typer command whose help shows flags as flags and arguments by metavar, and whose
    description is wrapped to the terminal instead of at the source's line breaks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = reflow(self.help)

    def get_params(self, ctx: Context) -> list[Parameter]:
        params = super().get_params(ctx)
        tidy_params(params)
        return params

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for p in self.get_params(ctx):
            if p.param_type_name == "argument":
                name = p.metavar or (p.name or "").upper()
                name = name if p.required else f"[{name}]"
                pieces.append(name + ("..." if p.nargs != 1 else ""))
        return pieces
