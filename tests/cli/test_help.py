"""`--help` of every command: every parameter has help text, flags show as flags (never
``--json <bool>``), arguments by a metavar (never ``{record_file}``), and the commands and
options stay the ones DESIGN.md's "Interfaces" promises."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from w40k.cli.help import reflow
from w40k.cli.main import COMMANDS, app

runner = CliRunner()


def _commands() -> dict[str, typer.core.TyperCommand]:
    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    return {name: group.get_command(ctx, name) for name in COMMANDS}  # type: ignore[attr-defined]


EXPECTED = {
    "attack": {"--input", "--json", "--exact", "--sims", "--seed", "--plot", "--weapon",
               "--target", "--attacker", "--dice", "--half-range", "--charged", "--stationary",
               "--cover", "--plunging-fire", "--target-engaged", "--indirect", "--lethal-hits",
               "--allocation-order"},
    "los": {"--input", "--json", "--svg"},
    "battle": {"--mission", "--red", "--blue", "--agents", "--seed", "--out", "--from",
               "--quiet", "--datasheets"},
    "replay": {"--html", "--log"},
    "army": {"--json", "--datasheets", "--check"},
    "simulate": {"--mission", "--red", "--blue", "--agents", "--games", "--seed", "--workers",
                 "--shard", "--results", "--combine", "--json", "--from", "--auto-deploy",
                 "--datasheets"},
}
"""The documented options (more may be added; none may go)."""


def test_every_parameter_of_every_command_has_help_text() -> None:
    for name, command in _commands().items():
        ctx = typer.Context(command)
        for p in command.get_params(ctx):
            assert getattr(p, "help", None), f"w40k {name}: {p.name} has no help text"


def test_no_documented_command_or_option_is_renamed_or_removed() -> None:
    for name, command in _commands().items():
        longs = {o for p in command.params for o in p.opts if o.startswith("--")}
        assert EXPECTED[name] <= longs, (name, EXPECTED[name] - longs)


@pytest.mark.parametrize("name", [*COMMANDS, None])
def test_help_shows_flags_as_flags_and_arguments_by_metavar(name: str | None) -> None:
    res = runner.invoke(app, [name, "--help"] if name else ["--help"])
    assert res.exit_code == 0, res.output
    assert "<bool>" not in res.output
    usage = next(line for line in res.output.splitlines() if "Usage:" in line)
    assert "{" not in usage and "}" not in usage, usage
    if name == "replay":
        assert usage.rstrip().endswith("[OPTIONS] RECORD_FILE")
    if name == "army":
        assert usage.rstrip().endswith("[OPTIONS] FILE")
        assert "--check" in res.output and "--no-check" in res.output


def test_boolean_options_are_flags_that_take_no_value() -> None:
    seen = 0
    for name, command in _commands().items():
        for p in command.params:
            if isinstance(p, typer.core.TyperOption) \
                    and p.type_descriptor.annotation is bool:
                assert p.is_flag, f"w40k {name} {p.opts}"
                seen += 1
    assert seen >= 10  # --json (3), --exact, the seven context flags, --quiet, --check


def test_a_flag_still_parses_as_before(tmp_path: object) -> None:
    res = runner.invoke(app, ["attack", "--json", "--seed", "1", "--half-range"])
    assert res.exit_code == 0, res.output
    assert '"hits"' in res.stdout


def test_help_paragraphs_are_joined_and_examples_kept() -> None:
    text = "One line\nand the next.\n\nExamples:\n  w40k attack -w x\n  w40k los -i y\n"
    assert reflow(text) == "One line and the next.\n\nExamples:\n  w40k attack -w x\n" \
        "  w40k los -i y"


def test_a_long_dice_list_stays_on_one_line_when_piped() -> None:
    # CliRunner's output is not a terminal: rich would wrap at 80 columns mid-list
    res = runner.invoke(app, ["attack", "-w", '30x Boltgun 24" A2 BS3+ S4 AP0 D1',
                              "-t", "20x Boy T5 Sv5+ W1", "--seed", "1"])
    assert res.exit_code == 0, res.output
    line = next(line for line in res.stdout.splitlines() if "hit rolls [" in line)
    assert line.rstrip().endswith("critical"), line
    assert len(line) > 100
