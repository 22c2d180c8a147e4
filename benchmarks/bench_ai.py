"""Benchmark of the AI players: the heuristic player against the random and greedy players.

Run: ``.venv/bin/python benchmarks/bench_ai.py [--games N] [--seed S] [--jobs J]
[--opponents random,greedy] [--battle default|real] [--rounds R]``

Plays ``N`` games per matchup (default 200, so 400 games in all) on the skirmish position
(``battle_setup.default_position()``: 7 Space Marines against 20 Boyz on the take-and-hold
table, ``w40k battle``'s default before the 1000-point battle took its place), the heuristic
player taking red in even games and blue in odd ones (sides swapped half the time), game seed
``S + i``. Prints, per matchup, the heuristic player's wins, draws and losses with 95 % Wilson
score intervals, the median time per game, and typical game statistics: rounds played, the
battle round of the first shot and of the first charge move (median, and the share of games
with none), units destroyed per side and the VP totals. Nothing is asserted (DESIGN.md:
measured, never asserted by tests). ``--jobs`` plays games in worker processes (the results do
not depend on it).

``--battle real`` plays the 1000-point battle instead: ``strike_force`` against
``waaagh_band`` on the shipped flank-assault mission, set up as
``w40k.io.battle_setup.real_battle_position`` gives it (each army wholly within its zone, the
units the army files start embarked or in reserves off the battlefield, the datasheets'
catalog abilities on), for ``--rounds R`` battle rounds (default: the mission's length, 5).
Such a game costs tens of seconds of CPU today, so a few games give a first look:
``--battle real --games 2 --rounds 2 --opponents random`` takes minutes. ``--rounds`` applies
only to ``--battle real``; the default battle and its matchups are unchanged.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from dataclasses import dataclass

from w40k.agents import GreedyAgent, HeuristicAgent, RandomAgent
from w40k.agents.win_rates import wilson
from w40k.engine.game import Game
from w40k.engine.serial import JSON
from w40k.io.battle_setup import default_position, real_battle_position
from w40k.io.position_model import validate_position

OPPONENTS = {"random": RandomAgent, "greedy": GreedyAgent}


@dataclass(frozen=True)
class Result:
    """One game, seen from the heuristic player's side."""

    outcome: str
    """``win``, ``draw`` or ``loss``."""
    seconds: float
    rounds: int
    first_shot: int | None
    first_charge: int | None
    lost: int
    """Heuristic units destroyed."""
    killed: int
    """Opponent units destroyed."""
    vp: int
    opponent_vp: int


def position(battle: str, rounds: int | None) -> dict[str, JSON]:
    """The starting position of ``battle`` (``default`` or ``real``, ``rounds`` battle rounds
    for the real one: None for the mission's length)."""
    if battle == "real":
        return validate_position(real_battle_position(rounds=rounds), "real battle")
    return default_position()


def play(task: tuple[str, int, int, str, int | None]) -> Result:
    """One game: ``(opponent, game seed, index, battle, rounds)``; the heuristic player is red
    when the index is even."""
    opponent, seed, index, battle, rounds = task
    t0 = time.perf_counter()
    game = Game.new(position(battle, rounds), seed)
    names = [p.name for p in game.state.players]
    me = names[index % 2]
    agents = {me: HeuristicAgent(seed * 2 + 1),
              names[1 - index % 2]: OPPONENTS[opponent](seed * 2 + 2)}
    while (request := game.pending()) is not None:
        game.submit(agents[request.player].choose(game, request))
    seconds = time.perf_counter() - t0
    s = game.state
    first_shot = next((int(str(e["round"])) for e in s.events
                       if e["event"] == "attack" and not e.get("melee")), None)
    first_charge = next((int(str(e["round"])) for e in s.events
                         if e["event"] == "charge_move"), None)
    lost = sum(1 for u in s.units if u.player == me and u.destroyed)
    killed = sum(1 for u in s.units if u.player != me and u.destroyed)
    vp = s.player(me).vp
    other = s.player(s.opponent(me)).vp
    outcome = "win" if vp > other else "draw" if vp == other else "loss"
    return Result(outcome, seconds, s.round, first_shot, first_charge, lost, killed, vp, other)


def _rounds(values: list[int | None]) -> str:
    seen = [v for v in values if v is not None]
    none = (len(values) - len(seen)) / len(values) if values else 0.0
    if not seen:
        return f"never ({none:.0%} of games)"
    return f"median {statistics.median(seen):g}, mean {statistics.fmean(seen):.2f}, " \
           f"none in {none:.0%} of games"


def report(opponent: str, results: list[Result]) -> None:
    """Print one matchup's figures."""
    n = len(results)
    print(f"heuristic vs {opponent}: {n} games, sides swapped (heuristic red in even games)")
    for label in ("win", "draw", "loss"):
        k = sum(1 for r in results if r.outcome == label)
        lo, hi = wilson(k, n)
        print(f"  {label:<5} {k:4d}  {k / n:6.1%}   95 % Wilson [{lo:6.1%}, {hi:6.1%}]")
    for side, parity in (("as red", 0), ("as blue", 1)):
        sub = [r for i, r in enumerate(results) if i % 2 == parity]
        if sub:
            w = sum(1 for r in sub if r.outcome == "win")
            print(f"  wins {side:<8} {w}/{len(sub)} ({w / len(sub):.1%})")
    times = [r.seconds for r in results]
    print(f"  median time per game     {statistics.median(times) * 1000:8.0f} ms "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f})")
    print(f"  rounds played            median {statistics.median(r.rounds for r in results):g}")
    print(f"  first shot (round)       {_rounds([r.first_shot for r in results])}")
    print(f"  first charge (round)     {_rounds([r.first_charge for r in results])}")
    lost = statistics.fmean(r.lost for r in results)
    killed = statistics.fmean(r.killed for r in results)
    print(f"  units destroyed          heuristic lost {lost:.2f}, {opponent} lost "
          f"{killed:.2f} (mean)")
    print(f"  VP                       heuristic median "
          f"{statistics.median(r.vp for r in results):g} (mean "
          f"{statistics.fmean(r.vp for r in results):.1f}), {opponent} median "
          f"{statistics.median(r.opponent_vp for r in results):g} (mean "
          f"{statistics.fmean(r.opponent_vp for r in results):.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per matchup")
    ap.add_argument("--seed", type=int, default=0, help="first game seed")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--opponents", default="random,greedy",
                    help="comma-separated: random, greedy")
    ap.add_argument("--battle", choices=("default", "real"), default="default",
                    help="default: the skirmish position; real: the 1000-point "
                         "armies on flank-assault (real_battle_position)")
    ap.add_argument("--rounds", type=int, default=None,
                    help="with --battle real: battle rounds to play (default: the "
                         "mission's length)")
    args = ap.parse_args()
    if args.rounds is not None and (args.battle != "real" or args.rounds < 1):
        ap.error("--rounds takes a positive number, with --battle real only")
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    for o in opponents:
        if o not in OPPONENTS:
            ap.error(f"unknown opponent {o!r} (known: {', '.join(OPPONENTS)})")
    where = "skirmish position" if args.battle == "default" else (
        "real battle (strike_force vs waaagh_band, flank-assault, "
        + (f"{args.rounds} rounds)" if args.rounds else "the mission's rounds)"))
    print(f"{where}; {args.games} games per matchup, seeds {args.seed}.."
          f"{args.seed + args.games - 1}; {args.jobs} job(s)")
    t0 = time.perf_counter()
    for opponent in opponents:
        tasks = [(opponent, args.seed + i, i, args.battle, args.rounds)
                 for i in range(args.games)]
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                results = pool.map(play, tasks, chunksize=1)
        else:
            results = [play(t) for t in tasks]
        report(opponent, results)
    print(f"total wall time {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
