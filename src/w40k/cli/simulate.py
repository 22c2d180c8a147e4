"""`w40k simulate`: many battles between AI players, win rates with 95 % intervals
(docs/simulate.md)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from w40k.agents.play import GameOutcome, agent_names, play_games
from w40k.agents.win_rates import Summary, summarise
from w40k.cli.help import TidyCommand
from w40k.core.errors import DataError, W40kError
from w40k.engine.serial import JSON
from w40k.io import limits
from w40k.io.display import clean
from w40k.io.outputs import check_output_file

DEFAULT_GAMES = 100
"""Games a batch plays when ``--games`` is not given."""


def cores() -> int:
    """The cores this process may run on (``--workers 0``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/K"`` -> (I, K) with 0 <= I < K; DataError naming ``--shard`` otherwise."""
    part, _, whole = text.partition("/")
    try:
        i, k = int(part), int(whole)
    except ValueError:
        raise DataError(f"expected I/K (this machine's share I of K, from 0), got {text!r}",
                        where="--shard") from None
    if not 0 <= i < k <= limits.MAX_GAMES:
        raise DataError(f"expected 0 <= I < K, got {text!r}", where="--shard")
    return i, k


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def summary_lines(s: Summary, agents: list[str]) -> list[str]:
    """The readable summary of a batch."""
    out = [f"{s.games} games; {s.ended} ended" + (f", {s.stopped} stopped early (not counted)"
                                                 if s.stopped else "")]
    for p, a, w in zip(s.players, agents, s.wins, strict=True):
        out.append(f"{p} ({a}) wins: {w.count} of {s.ended}, {_pct(w.rate)} "
                   f"(95 % CI {_pct(w.low)} - {_pct(w.high)})")
    out.append(f"draws: {s.draws.count}, {_pct(s.draws.rate)} "
               f"(95 % CI {_pct(s.draws.low)} - {_pct(s.draws.high)})")
    out.append("VP: " + "; ".join(f"{p} {v.mean:.1f} (95 % CI {v.low:.1f} - {v.high:.1f})"
                                  for p, v in zip(s.players, s.vp, strict=True)))
    m = s.vp_margin
    out.append(f"VP margin {s.players[0]} - {s.players[1]}: {m.mean:+.1f} "
               f"(95 % CI {m.low:+.1f} - {m.high:+.1f})")
    f = s.first_turn_wins
    out.append(f"the player with the first turn won {f.count} of the "
               f"{s.ended - s.draws.count} decided games, {_pct(f.rate)} "
               f"(95 % CI {_pct(f.low)} - {_pct(f.high)})")
    out.append(f"{s.decisions:.0f} decisions and {s.cpu_s:.2f} CPU s a game")
    return out


def register(app: typer.Typer) -> None:
    """Add the `simulate` command."""

    @app.command("simulate", cls=TidyCommand)
    def simulate(
        mission: Annotated[str | None, typer.Option(
            "--mission", help="A shipped mission's name or a mission file, as for w40k battle "
                              "(default: flank-assault).")] = None,
        red: Annotated[str | None, typer.Option(
            "--red", help="Red army: an army file or a shipped name (default: "
                          "strike_force).")] = None,
        blue: Annotated[str | None, typer.Option(
            "--blue", help="Blue army: an army file or a shipped name (default: "
                           "waaagh_band).")] = None,
        agents: Annotated[str | None, typer.Option(
            "--agents", help="Red and blue agents, comma-separated: heuristic (the default), "
                             "greedy or random.")] = None,
        games: Annotated[int | None, typer.Option(
            "--games", "-n", help=f"Games to play (default {DEFAULT_GAMES}); game i has "
                                  "seed --seed + i.")] = None,
        seed: Annotated[int | None, typer.Option(
            "--seed", help="The first game's seed (default 1): game i is `w40k battle "
                           "--seed <seed + i>` with the same options.")] = None,
        workers: Annotated[int, typer.Option(
            "--workers", "-j", help="Worker processes; 0 (the default): every core.")] = 0,
        shard: Annotated[str | None, typer.Option(
            "--shard", metavar="I/K", help="Play only games i with i mod K = I (this "
                                           "machine's share of a batch split across K "
                                           "machines; combine the results files after).")
        ] = None,
        results: Annotated[Path | None, typer.Option(
            "--results", metavar="<path>",
            help="Write each game's outcome to this file (JSON Lines).")] = None,
        combine: Annotated[list[Path] | None, typer.Option(
            "--combine", metavar="<path>",
            help="Summarise these results files (repeatable) instead of playing.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")
                           ] = False,
        start: Annotated[Path | None, typer.Option(
            "--from", help="Start every game from this position file (docs/positions.md).")
        ] = None,
        auto_deploy: Annotated[bool, typer.Option(
            "--auto-deploy", help="Set the armies up automatically instead of the pre-battle "
                                  "sequence.")] = False,
        datasheets: Annotated[list[Path] | None, typer.Option(
            "--datasheets", "-d", metavar="<path>",
            help="Datasheets for text exports (repeatable).")] = None,
    ) -> None:
        """Play many battles between AI players (by default 100 games of w40k battle's
        default, on every core) and print the win rates, draws and VP with 95 % confidence
        intervals."""
        try:
            if combine:
                given = [name for name, v in (
                    ("--mission", mission), ("--red", red), ("--blue", blue),
                    ("--agents", agents), ("--games", games), ("--seed", seed),
                    ("--shard", shard), ("--results", results), ("--from", start),
                    ("--datasheets", datasheets)) if v] + (["--auto-deploy"] if auto_deploy
                                                          else [])
                if given:
                    raise DataError(f"--combine summarises results files; it does not take "
                                    f"{', '.join(given)}", where="--combine")
                from w40k.cli.simulate_results import read_results

                head, combined = read_results(combine)
                _report(summarise(combined), [str(a) for a in
                                              _list(head.get("agents"))], as_json, combined)
                return
            try:
                names = agent_names(agents or "heuristic,heuristic")
            except ValueError as exc:
                raise DataError(str(exc), where="--agents") from None
            n = DEFAULT_GAMES if games is None else games
            if not 1 <= n <= limits.MAX_GAMES:
                raise DataError(f"expected 1 to {limits.MAX_GAMES} games, got {n}",
                                where="--games")
            if not 0 <= workers <= limits.MAX_WORKERS:
                raise DataError(f"expected 0 to {limits.MAX_WORKERS} (0: every core), got "
                                f"{workers}", where="--workers")
            i, k = (0, 1) if shard is None else parse_shard(shard)
            if results is not None:
                check_output_file(results, "--results")
            from w40k.cli.battle import battle_position

            notes: list[str] = []
            position = battle_position(red, blue, start, mission, datasheets, auto_deploy,
                                       notes)
            if "frames" in position and position.get("dice"):
                raise DataError("a saved game plays the same way under every seed; give a "
                                "position to start from", where="--from")
        except (DataError, W40kError) as exc:
            typer.echo(f"error: {clean(exc)}", err=True)
            raise typer.Exit(2) from None
        for line in notes:
            typer.echo(f"note: {clean(line)}", err=True)
        first = 1 if seed is None else seed
        todo = range(i, n, k)
        procs = min(cores() if workers == 0 else workers, len(todo))
        typer.echo(f"playing {len(todo)} games (seeds {first + i}..{first + n - 1}"
                   f"{'' if k == 1 else f', every {k}th'}) on {procs} "
                   f"process{'es' if procs != 1 else ''}", err=True)
        outcomes: list[GameOutcome] = []  # the games finished, in index order
        step = max(1, len(todo) // 10)
        wall = time.perf_counter()

        def progress(o: GameOutcome) -> None:
            outcomes.append(o)
            if len(outcomes) % step == 0 or len(outcomes) == len(todo):
                typer.echo(f"  {len(outcomes)} of {len(todo)} games "
                           f"({time.perf_counter() - wall:.0f} s)", err=True)

        from concurrent.futures.process import BrokenProcessPool  # only a batch pays it

        stopped: tuple[str, int] | None = None  # why the batch stopped, its exit status
        try:
            play_games(position, todo, seed=first, agents=names, workers=procs,
                       on_outcome=progress)
        except KeyboardInterrupt:  # Ctrl-C: keep and report the games finished so far
            stopped = "interrupted", 130
        except BrokenProcessPool:  # a worker killed from outside (out of memory, say)
            stopped = "error: a worker process ended unexpectedly (killed, or out of memory?)", 1
        wall = time.perf_counter() - wall
        if stopped is not None:
            typer.echo(f"{stopped[0]}: {len(outcomes)} of {len(todo)} games finished"
                       + ("; they are kept and summarised" if outcomes else ""), err=True)
            if not outcomes:
                raise typer.Exit(stopped[1])
        if results is not None:
            from w40k.cli.simulate_results import header, write_results

            try:
                write_results(results, header(position, names, outcomes[0].players),
                              outcomes, "--results")
            except DataError as exc:
                typer.echo(f"error: {clean(exc)}", err=True)
                raise typer.Exit(2) from None
        _report(summarise(outcomes), list(names), as_json, outcomes)
        typer.echo(f"{len(outcomes)} games in {wall:.1f} s wall "
                   f"({len(outcomes) / wall:.2f} games/s)", err=True)
        if any(o.stopped for o in outcomes):
            first_stop = next(o for o in outcomes if o.stopped)
            typer.echo(clean(f"note: {sum(bool(o.stopped) for o in outcomes)} games stopped "
                             f"early, e.g. seed {first_stop.seed}: {first_stop.stopped}"),
                       err=True)
        if stopped is not None:
            raise typer.Exit(stopped[1])


def _list(v: JSON) -> list[JSON]:
    return v if isinstance(v, list) else []


def _report(s: Summary, agents: list[str], as_json: bool,
            outcomes: list[GameOutcome]) -> None:
    if len(agents) != len(s.players):
        agents = ["?"] * len(s.players)
    if as_json:
        data = s.to_json()
        data["agents"] = dict(zip(s.players, agents, strict=True))
        seeds = [o.seed for o in outcomes]
        data["seeds"] = {"first": min(seeds), "last": max(seeds), "count": len(seeds)}
        typer.echo(json.dumps(data, indent=2))
        return
    for line in summary_lines(s, agents):
        typer.echo(clean(line))
    sys.stdout.flush()
