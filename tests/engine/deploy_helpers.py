"""Builders for pre-battle positions (engine/phases/deployment.py): a 60" x 44" table, red's
deployment zone the top 12" strip, blue's the bottom 12" strip."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from tests.engine.movement_helpers import model, position, row, unit
from w40k.engine.game import Game
from w40k.engine.requests import Request
from w40k.engine.serial import JSON

RED_ZONE = [[0.0, 0.0], [60.0, 0.0], [60.0, 12.0], [0.0, 12.0]]
BLUE_ZONE = [[0.0, 32.0], [60.0, 32.0], [60.0, 44.0], [0.0, 44.0]]
CAPACITY: dict[str, JSON] = {"models": 12}

__all__ = ["CAPACITY", "NO_RESERVES", "deploy", "line_at", "model", "pre_battle", "row", "squad",
           "transport", "unit", "until"]


def pre_battle(*units: dict[str, JSON], rounds: int = 5, deploys_first: str | None = None,
               first_turn: str | None = None, points_limit: int = 0,
               points: dict[str, int] | None = None) -> dict[str, JSON]:
    """A position that starts with the pre-battle sequence."""
    pos = position(*units, rounds=rounds)
    mission = cast(dict[str, JSON], pos["mission"])
    mission["deployment_zones"] = [{"player": "red", "polygon": cast(JSON, RED_ZONE)},
                                   {"player": "blue", "polygon": cast(JSON, BLUE_ZONE)}]
    if deploys_first is not None:
        mission["deploys_first"] = deploys_first
    if first_turn is not None:
        mission["first_turn"] = first_turn
    pos["pre_battle"] = {"points_limit": points_limit, "points": cast(JSON, points or {})}
    return pos


def transport(uid: str, player: str, *, models: int = 12,
              keywords: tuple[str, ...] = ("VEHICLE", "TRANSPORT")) -> dict[str, JSON]:
    """A one-model TRANSPORT (a 60 mm round hull) with room for ``models`` INFANTRY."""
    m = model(f"{uid}.1", 0.0, 0.0, M=12, base_mm=60.0, keywords=keywords)
    prof = cast(dict[str, JSON], m["profile"])
    prof.update(transport={"models": models}, T=9, W=10)
    return unit(uid, player, [m])


def squad(uid: str, player: str, n: int = 1, **prof: object) -> dict[str, JSON]:
    """An INFANTRY unit of ``n`` models (their coordinates are placeholders)."""
    return unit(uid, player, row(uid, n, x=0.0, y=0.0, **prof))  # type: ignore[arg-type]


def line_at(game: Game, uid: str, x: float, y: float, gap: float = 1.5) -> dict[str, JSON]:
    """A ``models`` placement of the unit's living models in a row along x from (x, y)."""
    u = game.state.any_unit(uid)
    return {m.id: [x + i * gap, y] for i, m in enumerate(u.alive)}


def deploy(uid: str, places: dict[str, JSON]) -> dict[str, JSON]:
    """A ``deploy`` answer."""
    return {"unit": uid, "models": places}


def until(game: Game, kind: str,
          answer: Callable[[Request], JSON] | None = None) -> Request:
    """Answer requests (``answer``, else the default, else the first option, else ``done``)
    until one of ``kind`` is pending."""
    while True:
        req = game.pending()
        assert req is not None, f"the game ended before a {kind} request"
        if req.kind == kind:
            return req
        choice = answer(req) if answer else None
        if choice is None:
            choice = req.default if req.default is not None and (
                not req.options or req.accepts(req.default)) else (
                req.options[0] if req.options else "done")
        game.submit(choice)


NO_RESERVES: dict[str, JSON] = {"reserves": [], "embarked": {}}
