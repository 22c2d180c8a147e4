"""Playing whole games between AI players, one or many (``w40k simulate``, docs/simulate.md).

A game is a position, a seed and two agent names. Game ``i`` of a batch is the game ``w40k
battle --seed S`` plays with ``S = seed + i`` and the same options: the game seed is ``S`` and
the players' seeds are ``2 S + 1`` and ``2 S + 2`` in the position's order of players, so any
game of a batch can be watched again, move for move, with ``w40k battle`` (its
``record_sha256`` is the sha256 of that command's ``record.json``).

Games run in worker processes when ``workers`` is more than one; the outcomes come back in
the order of their indices whatever the number of workers, and each is the same as a game
played alone (nothing is shared between games: each is its own :class:`Game`).
"""

from __future__ import annotations

import gc
import hashlib
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, cast

from w40k.agents.greedy import GreedyAgent
from w40k.agents.heuristic import HeuristicAgent
from w40k.agents.random_agent import RandomAgent
from w40k.core.errors import DataError, W40kError
from w40k.engine.game import Game
from w40k.engine.serial import JSON

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

AGENTS: dict[str, type[RandomAgent] | type[GreedyAgent] | type[HeuristicAgent]] = {
    "random": RandomAgent, "greedy": GreedyAgent, "heuristic": HeuristicAgent}
"""The AI players by name (``--agents``)."""

GC_THRESHOLD = (20_000, 50, 100)
"""``gc.set_threshold`` for a process that only plays battles (``w40k battle``, a batch's
workers): 8 collections a 1000-point battle instead of ~300, the same peak memory
(docs/performance.md "The CLI's garbage collector")."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """How one game of a batch ended."""

    index: int
    """The game's place in the batch (0, 1, ...)."""
    seed: int
    """The game seed (``w40k battle --seed``)."""
    players: tuple[str, ...]
    """The players in the position's order (red, blue)."""
    first: str
    """The player who took the first turn ("" when the game stopped before it was decided)."""
    vp: tuple[int, ...]
    """Victory points, in the order of ``players``."""
    winner: str | None
    """The player with the most VP at the end; None for a draw or a game that stopped."""
    rounds: int
    """Battle rounds begun."""
    decisions: int
    """Decisions the players answered."""
    record_sha256: str
    """sha256 of the game record (``w40k battle``'s ``record.json`` for the same game)."""
    stopped: str | None = None
    """Why the game stopped before its end (a player that could not answer, or an error of the
    engine: ``w40k battle --seed`` shows it whole); None if it ended."""
    cpu_s: float = 0.0
    """CPU seconds the game took (the one field that differs between runs)."""

    def to_json(self) -> dict[str, JSON]:
        """The outcome as one JSON object (a line of ``--results``)."""
        return {"index": self.index, "seed": self.seed, "players": list(self.players),
                "first": self.first, "vp": list(self.vp), "winner": self.winner,
                "rounds": self.rounds, "decisions": self.decisions,
                "record_sha256": self.record_sha256, "stopped": self.stopped,
                "cpu_s": round(self.cpu_s, 4)}

    @staticmethod
    def from_json(data: JSON, where: str) -> GameOutcome:
        """An outcome read back from :meth:`to_json`'s object; DataError naming ``where``
        and the field otherwise."""
        if not isinstance(data, dict):
            raise DataError("expected a game outcome object", where=where)
        fields = ("index", "seed", "players", "first", "vp", "winner", "rounds", "decisions",
                  "record_sha256", "stopped", "cpu_s")
        missing = [f for f in fields if f not in data]
        if missing:
            raise DataError(f"missing {', '.join(missing)}", where=where)

        def num(name: str, kind: type) -> int | float:
            v = data[name]
            if isinstance(v, bool) or not isinstance(v, (int, float) if kind is float else int) \
                    or v < 0:
                raise DataError(f"expected a non-negative {kind.__name__}, got {v!r}",
                                where=f"{where}: {name}")
            return v

        def text(name: str, optional: bool = False) -> str | None:
            v = data[name]
            if (v is None and optional) or isinstance(v, str):
                return v
            raise DataError(f"expected a text{' or null' if optional else ''}, got {v!r}",
                            where=f"{where}: {name}")

        players, vp = data["players"], data["vp"]
        if not isinstance(players, list) or len(players) != 2 or \
                not all(isinstance(p, str) and p for p in players) or players[0] == players[1]:
            raise DataError(f"expected two player names, got {players!r}",
                            where=f"{where}: players")
        if not isinstance(vp, list) or len(vp) != 2 or \
                not all(isinstance(v, int) and not isinstance(v, bool) for v in vp):
            raise DataError(f"expected two integers, got {vp!r}", where=f"{where}: vp")
        winner, first = text("winner", True), text("first")
        if winner is not None and winner not in players:
            raise DataError(f"expected one of the players or null, got {winner!r}",
                            where=f"{where}: winner")
        if first and first not in players:
            raise DataError(f"expected one of the players, got {first!r}",
                            where=f"{where}: first")
        return GameOutcome(index=int(num("index", int)), seed=int(num("seed", int)),
                           players=(str(players[0]), str(players[1])), first=first or "",
                           vp=(int(cast(int, vp[0])), int(cast(int, vp[1]))), winner=winner,
                           rounds=int(num("rounds", int)),
                           decisions=int(num("decisions", int)),
                           record_sha256=text("record_sha256") or "",
                           stopped=text("stopped", True), cpu_s=float(num("cpu_s", float)))


def agent_names(spec: str) -> tuple[str, str]:
    """``"heuristic,greedy"`` -> the two agent names; ValueError naming the choices."""
    names = tuple(a.strip() for a in spec.split(","))
    if len(names) != 2 or any(n not in AGENTS for n in names):
        raise ValueError(f"expected two of {', '.join(AGENTS)}, got {spec!r}")
    return names[0], names[1]


def play_game(position: dict[str, JSON], seed: int, agents: Sequence[str] = (
        "heuristic", "heuristic"), index: int = 0) -> GameOutcome:
    """Play one game from ``position`` (a position or a mission's pre-battle position, as
    ``w40k battle`` builds it) with game seed ``seed`` to its end, and say how it ended."""
    start = time.process_time()
    game = Game.new(position, seed)
    names = [p.name for p in game.state.players]  # the position's order, before the roll-off
    players = {n: AGENTS[a](seed * 2 + i + 1)
               for i, (n, a) in enumerate(zip(names, agents, strict=True))}
    decisions = 0
    stopped: str | None = None
    while (request := game.pending()) is not None:
        try:
            game.submit(players[request.player].choose(game, request))
        except (W40kError, RuntimeError) as exc:  # as `w40k battle`: the game stops, told why
            stopped = f"stopped at decision {decisions + 1} ({request.kind} for " \
                      f"{request.player}): {exc}"
            break
        except Exception as exc:  # an engine error ends this game, not the batch
            stopped = f"{type(exc).__name__} at decision {decisions + 1} ({request.kind} for " \
                      f"{request.player}): {exc}"
            break
        decisions += 1
    s = game.state
    vp = tuple(s.player(n).vp for n in names)
    winner: str | None = None
    if stopped is None and s.ended:
        best = max(vp)
        if vp.count(best) == 1:
            winner = names[vp.index(best)]
    first = s.players[0].name if s.round else ""
    digest = hashlib.sha256(game.record_text().encode("utf-8")).hexdigest()
    return GameOutcome(index=index, seed=seed, players=tuple(names), first=first, vp=vp,
                       winner=winner, rounds=s.round, decisions=decisions,
                       record_sha256=digest, stopped=stopped,
                       cpu_s=time.process_time() - start)


def _play_indexed(position: dict[str, JSON], agents: tuple[str, str], base_seed: int,
                  index: int) -> GameOutcome:
    return play_game(position, base_seed + index, agents, index)


def _worker_setup() -> None:
    # a worker only plays battles: collect rarely, as `w40k battle` does
    gc.set_threshold(*GC_THRESHOLD)
    # Ctrl-C reaches the whole process group: the parent alone answers it (it stops the
    # workers), so a worker does not print a traceback of its own
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """End a pool's worker processes now (their games in progress are lost)."""
    stop = getattr(pool, "terminate_workers", None)  # Python 3.14
    if callable(stop):
        stop()
        return
    # before 3.14 the executor keeps its processes here; should that change, the shutdown
    # that follows waits for the games in progress instead
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.terminate()


def play_games(position: dict[str, JSON], indices: Iterable[int], *, seed: int = 1,
               agents: tuple[str, str] = ("heuristic", "heuristic"), workers: int = 1,
               on_outcome: Callable[[GameOutcome], None] | None = None
               ) -> list[GameOutcome]:
    """Play game ``i`` (game seed ``seed + i``) for each ``i`` of ``indices``, on ``workers``
    processes (1: in this process). ``on_outcome`` is called with each outcome as it is
    known, in index order. Returns the outcomes in index order.

    A ``KeyboardInterrupt`` (Ctrl-C) stops the batch at once: the worker processes are
    ended, the games in progress are lost and the interrupt is raised again; the games
    finished before it have already gone to ``on_outcome``."""
    todo = sorted(set(indices))
    one = partial(_play_indexed, position, agents, seed)
    out: list[GameOutcome] = []
    if workers <= 1 or len(todo) <= 1:
        for i in todo:
            out.append(one(i))
            if on_outcome is not None:
                on_outcome(out[-1])
        return out
    from concurrent.futures import ProcessPoolExecutor  # only a batch pays its import

    pool = ProcessPoolExecutor(max_workers=min(workers, len(todo)), initializer=_worker_setup)
    try:
        for outcome in pool.map(one, todo):  # in order; each game is independent
            out.append(outcome)
            if on_outcome is not None:
                on_outcome(outcome)
    except BaseException:  # Ctrl-C, or an error in on_outcome: no game is worth waiting for
        _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return out
