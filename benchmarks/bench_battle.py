"""Benchmark of whole battles: random-legal games on the default position.

Run: ``.venv/bin/python benchmarks/bench_battle.py [--games N] [--seed S]
[--agent random|greedy|heuristic] [--no-stratagems] [--battle default|real] [--rounds R]
[--games-detail] [--gc python|cli]`` (greedy: the baseline player on both
sides, whose games charge and fight; heuristic: the objective player, agents/heuristic.py;
``--no-stratagems``: the position's option ``stratagems`` false, so no window offers any).
Prints the stratagems used, reaction requests and CP left per game. ``--battle real`` plays
the 1000-point battle (``w40k.io.battle_setup.real_battle_position``: ``strike_force`` against
``waaagh_band`` on flank-assault, set up once before the timing, ``--rounds`` battle rounds or
the mission's length); ``--battle cli`` plays ``w40k battle``'s own game move for move (the
same battle from the pre-battle sequence: the players declare reserves and deploy; the agents
seeded and the garbage collector set as the command does; default seed 1, whose record digest
is that of ``w40k battle``'s ``record.json``); ``--games-detail`` prints each game's CPU time
and record digest.

Growth: ``--scale K`` plays scales k = 1..K (k times the default armies on the same table,
``w40k.io.battle_scale``; ``--only`` plays scale K alone) with the random and the greedy agents
(or ``--agent``), prints per scale the median time per game (of ``--games``, default 5),
decisions per second and engine versus agent time, then the growth exponent: the slope of
log(time) against log(models) fitted by least squares over the scales played (for wall and for
CPU time; then that slope split into the decisions' own growth, the slope of log(decisions),
and the rest, the CPU time per decision; replay, save/load and clone are not timed at scales;
``--games-detail`` prints each game's CPU time and the sha256 of its record, to compare
before/after). ``--gc cli`` runs the games with the garbage collector as ``w40k battle``'s
process has it (the objects the imports made frozen, ``gc.freeze``;
``gc.set_threshold(*GC_THRESHOLD)`` during a game), the way a batch of battles is best run; the
default, ``--gc python``, keeps Python's own settings (what a library caller gets without
setting anything). ``cpu ms`` is the process's CPU time per game (less sensitive than wall time
to other load on the machine). Prints the median time per full game, decisions per second,
where the time goes (engine ``pending``/``submit`` vs the agents' choices, i.e. the position
proposers), the cost of ``save``/``Game.load``, ``clone`` and ``Game.replay`` relative to a
game, and ratios; nothing is asserted (DESIGN.md: speed is measured, never asserted by tests).
"""

from __future__ import annotations

import argparse
import copy
import gc
import hashlib
import json
import math
import statistics
import time
from typing import cast

from w40k.agents.greedy import GreedyAgent
from w40k.agents.heuristic import HeuristicAgent
from w40k.agents.random_agent import RandomAgent
from w40k.cli.battle import GC_THRESHOLD
from w40k.engine.game import Game
from w40k.io.battle_scale import scaled_position
from w40k.io.battle_setup import real_battle_position

AGENTS: dict[str, type[GreedyAgent] | type[HeuristicAgent] | type[RandomAgent]] = {
    "random": RandomAgent, "greedy": GreedyAgent, "heuristic": HeuristicAgent}
"""The players ``--agent`` names (the same player on both sides)."""


def one_game(seed: int, agent: str = "random", scale: int = 1,
             stratagems: bool = True, extras: bool = True,
             digests: list[str] | None = None,
             position: dict[str, object] | None = None, cli: bool = False,
             tuned_gc: bool = False) -> dict[str, float]:
    """One game's figures; ``extras``: also time replay, save/load and clone (a replay costs
    about a game, so the growth table leaves them out); ``digests``: append the sha256 of the
    game's record (to check that a speed-up changes no choice or event); ``position``: play
    this starting position (a copy) instead of the scaled default; ``cli``: seed the agents
    and set the garbage collector as ``w40k battle`` does (its game, move for move);
    ``tuned_gc``: set the collector's thresholds as ``w40k battle`` does (``cli`` implies it)."""
    pos = copy.deepcopy(position) if position is not None else scaled_position(scale)
    if not cli:  # w40k battle leaves the position's options as they are
        pos["options"] = {**cast(dict[str, object], pos.get("options") or {}),
                          "stratagems": stratagems}
    kept_gc = gc.get_threshold()
    if cli or tuned_gc:
        gc.set_threshold(*GC_THRESHOLD)
    c0 = time.process_time()
    t0 = time.perf_counter()
    game = Game.new(pos, seed)
    kind = AGENTS[agent]
    agents = {p.name: kind(seed * 2 + i + 1 if cli else seed * 101 + i)
              for i, p in enumerate(game.state.players)}
    engine = choose = 0.0
    n = reactions = 0
    while True:
        a = time.perf_counter()
        req = game.pending()
        b = time.perf_counter()
        engine += b - a
        if req is None:
            break
        reactions += req.kind == "reaction"
        choice = agents[req.player].choose(game, req)
        c = time.perf_counter()
        choose += c - b
        game.submit(choice)
        engine += time.perf_counter() - c
        n += 1
    total = time.perf_counter() - t0
    cpu = time.process_time() - c0
    gc.set_threshold(*kept_gc)
    if digests is not None:
        text = json.dumps(game.record(), sort_keys=True, default=str)
        digests.append(hashlib.sha256(text.encode()).hexdigest()[:16])
    out = {"total": total, "cpu": cpu, "decisions": n, "engine": engine, "choose": choose,
           "events": len(game.state.events), "reactions": reactions,
           "stratagems": len(game.state.stratagems),
           "cp_left": sum(p.cp for p in game.state.players)}
    if not extras:
        return out
    record = game.record()
    t = time.perf_counter()
    Game.replay(json.loads(json.dumps(record)))
    replay = time.perf_counter() - t
    t = time.perf_counter()
    Game.load(json.loads(json.dumps(game.save())))
    save_load = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(100):
        game.clone()
    clone = (time.perf_counter() - t) / 100
    return {**out, "replay": replay, "save_load": save_load, "clone": clone}


def growth(scale: int, only: bool, games: int, seed: int, agents: list[str],
           show_games: bool = False, tuned_gc: bool = False) -> None:
    """Time per game at each scale and the fitted exponent of time against models."""
    scales = [scale] if only else list(range(1, scale + 1))
    print(f"{games} games per scale and agent (seeds {seed}..{seed + games - 1}); median ms; "
          f"collector: {'w40k battle' if tuned_gc else 'python'}'s settings")
    print("agent   k models  ms/game  cpu ms/game  decisions  dec/s  engine  agents")
    fits: dict[str, list[tuple[float, float]]] = {a: [] for a in agents}
    cpu_fits: dict[str, list[tuple[float, float]]] = {a: [] for a in agents}
    dec_fits: dict[str, list[tuple[float, float]]] = {a: [] for a in agents}
    for k in scales:
        models = sum(len(cast(list[object], u["models"]))
                     for u in cast(list[dict[str, object]], scaled_position(k)["units"]))
        for agent in agents:
            digests: list[str] = []
            runs = [one_game(seed + i, agent, k, extras=False, digests=digests,
                             tuned_gc=tuned_gc) for i in range(games)]
            if show_games:
                for i, (r, d) in enumerate(zip(runs, digests, strict=True)):
                    print(f"  {agent} k={k} seed {seed + i}: cpu {r['cpu']:.2f} s, "
                          f"{r['decisions']:.0f} decisions, record sha256 {d}", flush=True)
            total = statistics.median(r["total"] for r in runs)
            print(f"{agent:7} {k} {models:6} {total * 1000:8.1f} "
                  f"{statistics.median(r['cpu'] for r in runs) * 1000:12.1f} "
                  f"{statistics.median(r['decisions'] for r in runs):10.0f} "
                  f"{statistics.median(r['decisions'] / r['total'] for r in runs):6.1f} "
                  f"{statistics.median(r['engine'] / r['total'] for r in runs):6.0%} "
                  f"{statistics.median(r['choose'] / r['total'] for r in runs):6.0%}",
                  flush=True)
            fits[agent].append((math.log(models), math.log(total)))
            cpu = statistics.median(r["cpu"] for r in runs)
            cpu_fits[agent].append((math.log(models), math.log(cpu)))
            dec_fits[agent].append((math.log(models), math.log(
                statistics.median(r["decisions"] for r in runs))))
    for agent in agents:
        if len(fits[agent]) < 2:
            continue
        print(f"growth exponent ({agent}): time ~ models^{_slope(fits[agent]):.2f}, "
              f"cpu time ~ models^{_slope(cpu_fits[agent]):.2f}")
        # the split of that slope: the decisions a battle asks (the game's, not the
        # engine's: more units on the same table meet, charge and react more often) and the
        # CPU time per decision (the engine's and the agents' work for each)
        dec = _slope(dec_fits[agent])
        print(f"  of which ({agent}): decisions ~ models^{dec:.2f}, "
              f"cpu time per decision ~ models^{_slope(cpu_fits[agent]) - dec:.2f}")


def _slope(pts: list[tuple[float, float]]) -> float:
    """Least-squares slope of y against x."""
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    return (sum((x - mx) * (y - my) for x, y in pts)
            / sum((x - mx) ** 2 for x, _ in pts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agent", choices=tuple(AGENTS), default=None)
    ap.add_argument("--scale", type=int, default=None, help="play scales 1..K (1..5)")
    ap.add_argument("--only", action="store_true", help="with --scale: play scale K alone")
    ap.add_argument("--games-detail", action="store_true",
                    help="with --scale: print each game's CPU time and record digest")
    ap.add_argument("--no-stratagems", action="store_true",
                    help="play without stratagems (option 'stratagems': false)")
    ap.add_argument("--battle", choices=("default", "real", "cli"), default="default",
                    help="the default position, the 1000-point battle set up, or w40k "
                         "battle's own game (the same battle deployed by the players)")
    ap.add_argument("--rounds", type=int, default=None,
                    help="with --battle real: battle rounds (default: the mission's length)")
    ap.add_argument("--gc", choices=("python", "cli"), default="python",
                    help="the garbage collector: Python's settings, or w40k battle's "
                         "(imports frozen, GC_THRESHOLD during games)")
    args = ap.parse_args()
    tuned = args.gc == "cli"
    if tuned:
        gc.freeze()  # as w40k battle's process after its imports (cli/main.py _import)
    if args.scale is not None:
        growth(args.scale, args.only, args.games or 5, args.seed,
               [args.agent] if args.agent else ["random", "greedy"], args.games_detail, tuned)
        return
    cli = args.battle == "cli"
    real = args.battle == "real" or cli
    args.games = args.games or (5 if real else 20)
    args.agent = args.agent or ("heuristic" if real else "random")
    if cli and args.seed == 0:
        args.seed = 1  # w40k battle's default seed
    position = real_battle_position(rounds=args.rounds, pre_battle=cli) if real else None
    digests: list[str] = []
    runs = []
    for i in range(args.games):
        runs.append(one_game(args.seed + i, args.agent, 1, not args.no_stratagems,
                             extras=not real, digests=digests, position=position, cli=cli,
                             tuned_gc=tuned))
        if args.games_detail:
            r = runs[-1]
            print(f"  {args.agent} seed {args.seed + i}: cpu {r['cpu']:.2f} s, wall "
                  f"{r['total']:.2f} s, {r['decisions']:.0f} decisions, record sha256 "
                  f"{digests[-1]}", flush=True)

    def med(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    total, n = med("total"), med("decisions")
    dps = statistics.median(r["decisions"] / r["total"] for r in runs)
    name = "w40k battle's game" if cli else "1000-point battle" if real else "default position"
    print(f"{name}, {args.games} {args.agent} "
          f"games (seeds {args.seed}..{args.seed + args.games - 1}), stratagems "
          f"{'off' if args.no_stratagems else 'on'}")
    print(f"  stratagems used per game       {statistics.mean(r['stratagems'] for r in runs):9.1f}"
          f"   (total {sum(r['stratagems'] for r in runs):.0f}; reaction requests per game "
          f"{statistics.mean(r['reactions'] for r in runs):.1f}; CP left at the end "
          f"{statistics.mean(r['cp_left'] for r in runs):.1f})")
    print(f"  median time per game           {total * 1000:9.1f} ms "
          f"(min {min(r['total'] for r in runs) * 1000:.1f}, "
          f"max {max(r['total'] for r in runs) * 1000:.1f})")
    print(f"  median CPU time per game       {med('cpu') * 1000:9.1f} ms")
    print(f"  median decisions per game      {n:9.0f}   events {med('events'):.0f}")
    print(f"  median decisions per second    {dps:9.1f}")
    print(f"  engine (pending+submit)        {med('engine') * 1000:9.1f} ms "
          f"({med('engine') / total:.0%} of a game)")
    print(f"  agents' choices                {med('choose') * 1000:9.1f} ms "
          f"({med('choose') / total:.0%} of a game)")
    if real:
        return
    print(f"  replay of the record           {med('replay') * 1000:9.1f} ms "
          f"(ratio to playing: {med('replay') / total:.2f})")
    print(f"  save + JSON + load at the end  {med('save_load') * 1000:9.2f} ms "
          f"(ratio to one decision: {med('save_load') / (total / max(n, 1)):.2f})")
    print(f"  clone                          {med('clone') * 1e6:9.1f} us "
          f"(ratio to one decision: {med('clone') / (total / max(n, 1)):.3f})")


if __name__ == "__main__":
    main()
