"""`w40k battle` (a full battle between AI players) and `w40k replay` (check a record)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, cast

import typer

from w40k.agents import GreedyAgent, RandomAgent
from w40k.core.errors import DataError, W40kError
from w40k.engine.game import Game
from w40k.engine.serial import JSON
from w40k.io.army import load_army
from w40k.io.army_model import Army
from w40k.io.battle_setup import (
    DEFAULT_MISSION,
    default_armies,
    default_position,
    position_from_armies,
)
from w40k.io.display import clean
from w40k.io.missions import mission_names, mission_position, not_applied, resolve_mission
from w40k.io.model_base import found
from w40k.io.outputs import prepare_output_dir, write_atomic
from w40k.io.position_model import validate_position
from w40k.io.record_model import load_record
from w40k.io.replay_check import REPLAY_MISMATCH, first_difference, replay_record
from w40k.io.safe_read import read_input
from w40k.viz.log import describe
from w40k.viz.replay import replay_page, snapshot

AGENTS: dict[str, type[RandomAgent] | type[GreedyAgent]] = {
    "random": RandomAgent, "greedy": GreedyAgent}
"""Agent names for ``--agents``."""


def _read_json(path: Path, what: str) -> dict[str, JSON]:
    data = read_input(path, what=what)
    if not isinstance(data, dict):
        raise DataError(f"expected a {what} object, found {found(data)}", where=str(path))
    return cast(dict[str, JSON], data)


def _position(red: str | None, blue: str | None, start: Path | None,
              mission: str | None, datasheets: list[Path] | None = None) -> dict[str, JSON]:
    params = dict(DEFAULT_MISSION) if mission is None else resolve_mission(mission)
    if start is not None:
        if red or blue:
            raise DataError("give --from or --red/--blue, not both", where="command line")
        pos = _read_json(start, "position")
        pos.setdefault("mission", params)
        return validate_position(pos, str(start))
    from w40k.io.army import builtin

    def army(spec: str | None, side: str) -> Army:
        if spec is None:
            out = builtin("space_marines" if side == "red" else "boyz").army
        elif Path(spec).exists():
            out = load_army(spec, datasheets=list(datasheets or ()))
        else:
            out = builtin(spec).army
        if out is None:
            raise DataError("expected an army, found datasheets only", where=f"--{side}")
        return out

    if mission is not None:  # the mission sets the table up (docs/missions.md)
        reds, blues = (army(red, "red"), army(blue, "blue")) if red or blue else default_armies()
        return validate_position(mission_position(reds, blues, params), "the mission's position")
    pos = default_position()
    if red or blue:
        pos = position_from_armies(army(red, "red"), army(blue, "blue"))
    pos["mission"] = params
    return validate_position(pos, "the armies' position")


def register(app: typer.Typer) -> None:
    """Add the `battle` and `replay` commands."""

    @app.command("battle")
    def battle(
        mission: Annotated[str | None, typer.Option(
            "--mission", help="A shipped mission's name (" + ", ".join(mission_names()) + ") or "
                              "a mission file (JSON or YAML, docs/missions.md). Default: the "
                              "embedded take-and-hold battle.")] = None,
        red: Annotated[str | None, typer.Option(
            "--red", help="Red army: any army file (.ros, .rosz, New Recruit JSON, app or New "
                          "Recruit text, YAML), or a shipped name (space_marines).")] = None,
        blue: Annotated[str | None, typer.Option(
            "--blue", help="Blue army: an army file, or a shipped name (boyz).")] = None,
        agents: Annotated[str, typer.Option(
            "--agents", help="Red and blue agents, comma-separated: random or greedy.")
        ] = "random,random",
        seed: Annotated[int, typer.Option("--seed", help="Game seed.")] = 1,
        out: Annotated[Path, typer.Option(
            "--out", help="Folder for record.json and replay.html.")] = Path("out"),
        start: Annotated[Path | None, typer.Option(
            "--from", help="Start from a position file (docs/positions.md).")] = None,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the result.")] = False,
        datasheets: Annotated[list[Path] | None, typer.Option(
            "--datasheets", "-d", help="Datasheets for text exports (repeatable).")] = None,
    ) -> None:
        """Run a full battle between AI players (default: the embedded mission, terrain and
        armies), print a readable log, and write the game record and a replay page."""
        try:
            names = [a.strip() for a in agents.split(",")]
            if len(names) != 2 or any(n not in AGENTS for n in names):
                raise DataError(f"expected two of {', '.join(AGENTS)}, got {agents!r}",
                                where="--agents")
            prepare_output_dir(out, "--out")  # before any work: not after the battle
            position = _position(red, blue, start, mission, datasheets)
            for line in not_applied(cast(dict[str, JSON], position["mission"])):
                typer.echo(f"note: {clean(line)}", err=True)
            game = Game.load(position) if "frames" in position and position.get("dice") \
                else Game.new(position, seed)
        except (DataError, W40kError, ValueError, KeyError) as exc:
            typer.echo(f"error: {clean(exc)}", err=True)
            raise typer.Exit(2) from None
        players = {p.name: AGENTS[n](seed * 2 + i + 1)
                   for i, (p, n) in enumerate(zip(game.state.players, names, strict=True))}
        snaps = [snapshot(game)]
        log: list[str] = []
        lines_at = [0]
        printed = 0

        def flush() -> None:
            nonlocal printed
            for e in game.state.events[printed:]:
                line = describe(e)
                if line is not None:
                    line = clean(line)
                    log.append(line)
                    if not quiet:
                        typer.echo(line)
            printed = len(game.state.events)

        phase = (game.state.round, game.state.turn_player, game.state.phase)
        decisions = 0
        while (request := game.pending()) is not None:
            now = (game.state.round, game.state.turn_player, game.state.phase)
            if now != phase:
                flush()
                snaps.append(snapshot(game))
                lines_at.append(len(log))
                phase = now
            game.submit(players[request.player].choose(game, request))
            decisions += 1
        flush()
        snaps.append(snapshot(game))
        lines_at.append(len(log))
        record = game.record()
        title = f"w40k battle, seed {seed}"
        try:
            write_atomic(out / "record.json", json.dumps(record), "--out")
            write_atomic(out / "replay.html", replay_page(
                title, game.state.battlefield, game.state.terrain, snaps, log, lines_at), "--out")
        except DataError as exc:
            typer.echo(f"error: {clean(exc)}", err=True)
            raise typer.Exit(2) from None
        vp = {p.name: p.vp for p in game.state.players}
        typer.echo(f"{decisions} decisions; VP {vp}; record: {out / 'record.json'}; "
                   f"replay: {out / 'replay.html'}")

    @app.command("replay")
    def replay(
        record_file: Annotated[Path, typer.Argument(help="A record written by w40k battle.")],
    ) -> None:
        """Replay a game record from its seed and choices and check that the event log is
        byte-identical."""
        try:
            record = load_record(record_file)
            game, marks = replay_record(record, str(record_file))
        except (DataError, W40kError, ValueError, KeyError) as exc:
            typer.echo(f"error: {clean(exc)}", err=True)
            raise typer.Exit(2) from None
        choices = cast(list[JSON], record["choices"])
        diff = first_difference(cast(list[JSON], record["events"]), game.state.events, marks)
        if diff is None:
            typer.echo(f"{len(choices)} choices replayed; event log identical")
            return
        typer.echo(clean(f"{record_file}: the replay differs from the record at {diff}"),
                   err=True)
        raise typer.Exit(REPLAY_MISMATCH)
