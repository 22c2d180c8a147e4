"""Hand-built positions and instruments for the engine-core tests (07, 08, 14, 03.03, the
interface, the fuzzer and the save/load/replay round trips).

    pos = position([unit("red.a", "red", line("red.a", 5, x=10, y=10))], round=1)
    game = Game.new(pos, seed=1)

``bare_phases(monkeypatch, hook)`` replaces the four action phases by phases in which nobody
acts (``hook(game, phase)`` runs once in each), so the flow of the core (rounds, turns, the
Command phase, End of Turn, objectives) is tested apart from the phases being written.
``scripted(game, faces)`` makes the game's D6 rolls the given faces.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from w40k.core.dice import OrderedDice
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.registry import Handler
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import FORMAT, Frame, ModelData, UnitData
from w40k.engine.table import HANDLERS
from w40k.geometry import Model, engaged

PLAYERS = ("red", "blue")
ACTION_PHASES = ("movement", "shooting", "charge", "fight")


# -- positions --------------------------------------------------------------------------
def profile(name: str = "Trooper", *, W: int = 1, Ld: int = 7, OC: int | None = 1,
            base_mm: float = 32.0, keywords: Sequence[str] = ("INFANTRY",),
            abilities: Sequence[str] = ()) -> dict[str, JSON]:
    """A model profile in the position form."""
    return {"name": name, "M": 6, "T": 4, "Sv": 3, "W": W, "Ld": Ld,
            "OC": "-" if OC is None else OC, "InSv": None, "base_mm": base_mm, "height": 1.5,
            "keywords": list[JSON](keywords), "abilities": list[JSON](abilities)}


def model(mid: str, x: float, y: float, *, name: str | None = None, wounds_lost: int = 0,
          destroyed: bool = False, **prof: Any) -> dict[str, JSON]:
    """One model in the position form (``prof`` goes to :func:`profile`)."""
    p = profile(name or mid, **prof)
    return {"id": mid, "name": name or mid, "profile": p, "weapons": [], "x": x, "y": y,
            "z": 0.0, "facing": 0.0, "wounds_lost": wounds_lost, "destroyed": destroyed}


def line(uid: str, n: int, *, x: float, y: float, gap: float = 1.5, dead: Iterable[int] = (),
         **prof: Any) -> list[dict[str, JSON]]:
    """``n`` models in a row along x, centres ``gap``" apart (32 mm bases touch at 1.26");
    the indices in ``dead`` are destroyed."""
    dead = set(dead)
    return [model(f"{uid}.{i + 1}", x + i * gap, y, destroyed=i in dead,
                  wounds_lost=int(prof.get("W", 1)) if i in dead else 0, **prof)
            for i in range(n)]


def unit(uid: str, player: str, models: list[dict[str, JSON]], *, starting_strength: int = 0,
         flags: dict[str, bool] | None = None) -> dict[str, JSON]:
    """One unit in the position form."""
    return {"id": uid, "name": uid, "player": player, "starting_strength": starting_strength,
            "flags": cast(JSON, dict(flags or {})), "max_move": 0.0, "attached": False,
            "models": list[JSON](models)}


def position(units: Sequence[dict[str, JSON]], *, objectives: Sequence[dict[str, JSON]] = (),
             round: int = 0, rounds: int = 5, cp: tuple[int, int] = (0, 0),
             first: str = "red", frames: Sequence[dict[str, JSON]] = (),
             turn_player: str = "", phase: str = "", terrain: dict[str, JSON] | None = None,
             mission: dict[str, JSON] | None = None) -> dict[str, JSON]:
    """A position on an empty 60"x44" table (players listed first-player first)."""
    names = [first] + [p for p in PLAYERS if p != first]
    m: dict[str, JSON] = {"name": "test", "rounds": rounds, "scoring_from_round": 2,
                          "vp_per_objective": 5, "vp_cap": 15}
    m.update(mission or {})
    return {"format": FORMAT, "battlefield": {"width": 60.0, "depth": 44.0},
            "terrain": terrain or {"areas": [], "terrain": []}, "mission": m,
            "players": [{"name": n, "cp": cp[i], "vp": 0} for i, n in enumerate(names)],
            "units": list[JSON](units), "objectives": list[JSON](objectives),
            "round": round, "turn_player": turn_player,
            "active": turn_player, "phase": phase, "frames": list[JSON](frames)}


def marker(name: str, x: float, y: float, *, controller: str | None = None,
           secured_by: str | None = None) -> dict[str, JSON]:
    """A 40 mm objective marker."""
    return {"name": name, "x": x, "y": y, "area": None, "controller": controller,
            "secured_by": secured_by}


def frame(kind: str, **data: JSON) -> dict[str, JSON]:
    """A frame in the position form."""
    return {"kind": kind, "data": dict(data)}


def command_phase(units: Sequence[dict[str, JSON]], *, player: str = "red", round: int = 1,
                  **kw: Any) -> dict[str, JSON]:
    """A position at the start of ``player``'s Command phase (only that phase is pending)."""
    return position(units, round=round, frames=[frame("command", step=0)],
                    turn_player=player, phase="command", **kw)


# -- dice -------------------------------------------------------------------------------
def scripted(game: Game, faces: Iterable[int]) -> Game:
    """Make the game's D6 rolls ``faces``, in rolling order whatever their kind (running out
    raises DiceExhausted)."""
    game.dice.inner = OrderedDice(list(faces))
    return game


def dice_left(game: Game) -> list[int]:
    """The scripted faces the rules have not rolled yet."""
    inner = game.dice.inner
    assert isinstance(inner, OrderedDice)
    return inner.faces[inner.used:]


# -- phases in which nobody acts ---------------------------------------------------------
Hook = Callable[[Context, str], None]
"""Runs inside a bare phase with the game's context (handlers never see the game)."""


def bare_phases(monkeypatch: Any, hook: Hook | None = None) -> list[tuple[int, str, str]]:
    """Replace Movement, Shooting, Charge and Fight by phases in which nobody acts; ``hook``
    runs once inside each. Returns a list that collects (round, player, phase) as they run."""
    seen: list[tuple[int, str, str]] = []

    def make(phase: str) -> Handler[Any]:
        def run(ctx: Context, fr: Frame) -> Request | None:
            seen.append((ctx.state.round, ctx.state.turn_player, phase))
            if hook is not None:
                hook(ctx, phase)
            ctx.pop()
            return None
        return Handler(HANDLERS[phase].frame, run)

    for p in ACTION_PHASES:
        monkeypatch.setitem(HANDLERS, p, make(p))
    return seen


# -- reading the log ----------------------------------------------------------------------
def events(game: Game, name: str | None = None) -> list[dict[str, JSON]]:
    """The logged events (of one kind); without a kind, every event but the dice (``roll``)."""
    if name is None:
        return [e for e in game.state.events if e["event"] != "roll"]
    return [e for e in game.state.events if e["event"] == name]


def run_out(game: Game, answer: Callable[[Game, Request], JSON] | None = None,
            limit: int = 10_000) -> int:
    """Answer every request (with ``answer``, or the first option) until nothing is pending;
    returns the number of decisions."""
    n = 0
    while (req := game.pending()) is not None:
        assert n < limit, "the game does not end"
        game.submit(answer(game, req) if answer else req.options[0])
        n += 1
    return n


def play_checking(scale: int, seed: int, agent: str, check: Callable[[Game], None], *,
                  agent_seed: int, limit: int) -> None:
    """Play ``scaled_position(scale)`` with greedy or random players (seeded ``agent_seed * seed
    + i``), calling ``check(game)`` before each of the first ``limit`` decisions and after."""
    from w40k.agents.greedy import GreedyAgent
    from w40k.agents.random_agent import RandomAgent
    from w40k.io.battle_scale import scaled_position

    game = Game.new(scaled_position(scale), seed)
    kind = GreedyAgent if agent == "greedy" else RandomAgent
    agents = {p.name: kind(seed * agent_seed + i) for i, p in enumerate(game.state.players)}
    n = 0
    while (req := game.pending()) is not None and n < limit:
        check(game)
        game.submit(agents[req.player].choose(game, req))
        n += 1
    check(game)


def greedy_record(scale: int, seed: int, hook: Callable[[Game], None] | None = None) -> str:
    """The record (JSON text) of ``scaled_position(scale)`` played to its end by greedy
    players (seeded ``seed * 101 + i``) with the core stratagems, calling ``hook(game)``
    after each submit."""
    from w40k.agents.greedy import GreedyAgent
    from w40k.io.battle_scale import scaled_position

    pos = scaled_position(scale)
    pos["options"] = {**cast(dict[str, JSON], pos.get("options") or {}), "stratagems": True}
    game = Game.new(pos, seed)
    agents = {p.name: GreedyAgent(seed * 101 + i) for i, p in enumerate(game.state.players)}
    while (req := game.pending()) is not None:
        game.submit(agents[req.player].choose(game, req))
        if hook is not None:
            hook(game)
    return json.dumps(game.record(), sort_keys=True, default=str)


def plain_shape(m: ModelData) -> Model:
    """The model as geometry sees it, built afresh (the reference for the kept shapes)."""
    p = m.profile
    return Model(m.id, m.x, m.y, m.z, p.base_mm, p.height, m.facing,
                 frozenset(k.upper() for k in p.keywords))


def plain_enemies(game: Game, u: UnitData) -> list[str]:
    """R03.04-a: the enemy units with a model within 2"/5" of one of ``u``'s, model by model."""
    return [e.id for e in game.state.units if e.player != u.player and not e.destroyed
            and any(engaged(plain_shape(x), plain_shape(y))
                    for x in u.alive for y in e.alive)]
