"""`w40k battle` (a full battle between AI players) and `w40k replay` (check a record)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Annotated, cast

import typer

from w40k.agents.play import AGENTS, GC_THRESHOLD, agent_names
from w40k.cli.help import TidyCommand
from w40k.core.errors import DataError, W40kError
from w40k.engine.game import Game
from w40k.engine.serial import JSON
from w40k.io.army import load_army
from w40k.io.army_model import Army
from w40k.io.battle_setup import DEFAULT_ARMIES, DEFAULT_MISSION, REAL_MISSION
from w40k.io.battle_setup import not_applied as army_not_applied
from w40k.io.display import clean
from w40k.io.missions import mission_names, mission_position, resolve_mission
from w40k.io.model_base import found
from w40k.io.outputs import check_output_file, prepare_output_dir, write_atomic
from w40k.io.position_model import validate_position
from w40k.io.record_model import load_record
from w40k.io.replay_check import REPLAY_MISMATCH, first_difference
from w40k.io.safe_read import read_input
from w40k.viz.log import log_lines
from w40k.viz.replay import ReplayRecorder, replay_with_page

__all__ = ["AGENTS", "GC_THRESHOLD", "battle_position", "register"]


def _read_json(path: Path, what: str) -> dict[str, JSON]:
    data = read_input(path, what=what)
    if not isinstance(data, dict):
        raise DataError(f"expected a {what} object, found {found(data)}", where=str(path))
    return cast(dict[str, JSON], data)


def battle_position(red: str | None, blue: str | None, start: Path | None,
              mission: str | None, datasheets: list[Path] | None = None,
              auto_deploy: bool = False, notes: list[str] | None = None) -> dict[str, JSON]:
    """The starting position: a ``--from`` position file, or the two armies (by default the
    1000-point ``strike_force`` and ``waaagh_band``) on the mission (by default
    flank-assault), the players deploying unless ``auto_deploy``; ``notes`` collects the
    armies' abilities that are not applied (docs/battle.md "Abilities")."""
    if start is not None:
        if red or blue:
            raise DataError("give --from or --red/--blue, not both", where="command line")
        pos = _read_json(start, "position")
        pos.setdefault("mission", dict(DEFAULT_MISSION) if mission is None
                       else resolve_mission(mission))
        return validate_position(pos, str(start))
    from w40k.io.army import builtin

    params = resolve_mission(REAL_MISSION if mission is None else mission)

    def army(spec: str | None, side: str) -> Army:
        if spec is None:
            out = builtin(DEFAULT_ARMIES[side]).army
        elif Path(spec).exists():
            out = load_army(spec, datasheets=list(datasheets or ()))
        else:
            out = builtin(spec).army
        if out is None:
            raise DataError("expected an army, found datasheets only", where=f"--{side}")
        if notes is not None:
            notes.extend(f"{side}: {line}" for line in army_not_applied(out))
        return out

    # the mission sets the table up (docs/missions.md); the players declare reserves and
    # deploy when it has zones (docs/battle.md)
    pos = mission_position(army(red, "red"), army(blue, "blue"), params,
                           pre_battle=not auto_deploy, abilities=True)
    return validate_position(pos, "the mission's position")


def register(app: typer.Typer) -> None:
    """Add the `battle` and `replay` commands."""

    @app.command("battle", cls=TidyCommand)
    def battle(
        mission: Annotated[str | None, typer.Option(
            "--mission", help="A shipped mission's name (" + ", ".join(mission_names()) + ") or "
                              "a mission file (JSON or YAML, docs/missions.md). Default: "
                              f"{REAL_MISSION}.")] = None,
        red: Annotated[str | None, typer.Option(
            "--red", help="Red army: any army file (.ros, .rosz, New Recruit JSON, app or New "
                          "Recruit text, YAML), or a shipped name (strike_force, the default; "
                          "space_marines).")] = None,
        blue: Annotated[str | None, typer.Option(
            "--blue", help="Blue army: an army file, or a shipped name (waaagh_band, the "
                           "default; boyz).")] = None,
        agents: Annotated[str, typer.Option(
            "--agents", help="Red and blue agents, comma-separated: heuristic (the "
                             "default), greedy or random.")
        ] = "heuristic,heuristic",
        seed: Annotated[int, typer.Option("--seed", help="Game seed.")] = 1,
        out: Annotated[Path, typer.Option(
            "--out", help="Folder for record.json and replay.html.")] = Path("out"),
        start: Annotated[Path | None, typer.Option(
            "--from", help="Start from a position file (docs/positions.md).")] = None,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the result.")] = False,
        auto_deploy: Annotated[bool, typer.Option(
            "--auto-deploy", help="Set the armies up in their zones automatically instead "
                                  "of the pre-battle sequence (the players declaring "
                                  "reserves and deploying).")] = False,
        datasheets: Annotated[list[Path] | None, typer.Option(
            "--datasheets", "-d", metavar="<path>",
            help="Datasheets for text exports (repeatable).")] = None,
    ) -> None:
        """Run a full battle between AI players (default: two heuristic players, the two
        1000-point armies on the flank-assault mission and its terrain, deploying first),
        print a readable log, and write the game record and a replay page."""
        try:
            try:
                names = agent_names(agents)
            except ValueError as exc:
                raise DataError(str(exc), where="--agents") from None
            prepare_output_dir(out, "--out")  # before any work: not after the battle
            notes: list[str] = []
            position = battle_position(red, blue, start, mission, datasheets, auto_deploy, notes)
            for line in notes:
                typer.echo(f"note: {clean(line)}", err=True)
            game = Game.load(position) if "frames" in position and position.get("dice") \
                else Game.new(position, seed)
        except (DataError, W40kError, ValueError, KeyError) as exc:
            typer.echo(f"error: {clean(exc)}", err=True)
            raise typer.Exit(2) from None
        # A battle makes millions of short-lived containers, and Python's default collector
        # (a young collection every 700 net allocations) runs ~300 collections a 1000-point
        # battle, ~0.25 s of CPU; this process plays one battle, so it collects rarely
        # (docs/performance.md "The CLI's garbage collector"). A library caller keeps its own.
        gc.set_threshold(GC_THRESHOLD[0], GC_THRESHOLD[1], GC_THRESHOLD[2])
        players = {p.name: AGENTS[n](seed * 2 + i + 1)
                   for i, (p, n) in enumerate(zip(game.state.players, names, strict=True))}
        recorder = ReplayRecorder(game, position)

        def flush() -> None:
            # One echo per line, never re-wrapped: a piped log keeps each dice list whole.
            for line in recorder.feed(game):
                if not quiet:
                    typer.echo(line)

        decisions = 0
        stopped: str | None = None
        while (request := game.pending()) is not None:
            flush()
            try:
                game.submit(players[request.player].choose(game, request))
            except (W40kError, RuntimeError) as exc:
                # a player that cannot answer (the pre-battle deploy proposer when no unit
                # fits its zone): an error line and the record so far, never a traceback
                stopped = (f"the battle stopped at decision {decisions + 1} ({request.kind} "
                           f"for {request.player}): {exc}")
                break
            decisions += 1
        flush()
        recorder.finish(game)
        title = f"w40k battle, seed {seed}"
        try:
            write_atomic(out / "record.json", game.record_text(), "--out")
            write_atomic(out / "replay.html", recorder.page(title), "--out")
        except DataError as exc:
            typer.echo(f"error: {clean(exc)}", err=True)
            raise typer.Exit(2) from None
        if stopped is not None:
            typer.echo(clean(f"error: {stopped}; the record so far: {out / 'record.json'}"),
                       err=True)
            raise typer.Exit(1)
        # in the position's order of players, as the log gives VP (the first turn's roll-off
        # may reorder the game's players)
        order = [n for n in recorder.log.players if n in {p.name for p in game.state.players}]
        vp = ", ".join(f"{n} {game.state.player(n).vp}" for n in order or
                       [p.name for p in game.state.players])
        typer.echo(clean(f"{decisions} decisions; VP {vp}; record: {out / 'record.json'}; "
                         f"replay: {out / 'replay.html'}"))

    @app.command("replay", cls=TidyCommand)
    def replay(
        record_file: Annotated[Path, typer.Argument(help="A record written by w40k battle.")],
        html: Annotated[Path | None, typer.Option(
            "--html", metavar="<path>",
            help="Also write the replay page of the record to this file.")] = None,
        show_log: Annotated[bool, typer.Option(
            "--log", help="Also print the record's readable battle log.")] = False,
    ) -> None:
        """Replay a game record from its seed and choices and check that the event log is
        byte-identical."""
        try:
            if html is not None:
                check_output_file(html, "--html")
            record = load_record(record_file)
            setup = cast(dict[str, JSON], record["setup"])
            game, marks, page = replay_with_page(
                record, str(record_file),
                None if html is None else f"w40k replay: {record_file.name}")
            if html is not None and page is not None:
                write_atomic(html, page, "--html")
        except (DataError, W40kError, ValueError, KeyError) as exc:
            typer.echo(f"error: {clean(exc)}", err=True)
            raise typer.Exit(2) from None
        if show_log:
            for line in log_lines(cast(list[dict[str, JSON]], record["events"]), setup):
                typer.echo(clean(line))
        choices = cast(list[JSON], record["choices"])
        diff = first_difference(cast(list[JSON], record["events"]), game.state.events, marks)
        if diff is None:
            typer.echo(f"{len(choices)} choices replayed; event log identical")
            return
        typer.echo(clean(f"{record_file}: the replay differs from the record at {diff}"),
                   err=True)
        raise typer.Exit(REPLAY_MISMATCH)
