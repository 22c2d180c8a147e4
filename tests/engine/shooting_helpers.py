"""Hand-built positions for Shooting phase tests (the position JSON of docs/positions.md)."""

from __future__ import annotations

from typing import Any

from w40k.engine.game import Game

Json = dict[str, Any]

BOLTGUN: Json = {"name": "boltgun", "range": 24, "A": "2", "skill": 3, "S": 4, "AP": 0,
                 "D": "1", "abilities": []}
PISTOL: Json = {"name": "bolt pistol", "range": 12, "A": "1", "skill": 3, "S": 4, "AP": 0,
                "D": "1", "abilities": ["PISTOL"]}
CHOPPA: Json = {"name": "choppa", "range": "Melee", "A": "3", "skill": 3, "S": 4, "AP": -1,
                "D": "1", "abilities": []}
DEATH_RAY: Json = {"name": "death ray", "range": 24, "A": "20", "skill": 2, "S": 10, "AP": -4,
                   "D": "2", "abilities": ["TORRENT"]}
"""Certain death for T3 W1 models: 20 automatic hits, wounds on 2+, no save."""


def weapon(name: str, range: float | str = 24, abilities: tuple[str, ...] = (),
           **kw: Any) -> Json:
    """A weapon in position form (boltgun numbers unless given)."""
    return {**BOLTGUN, "name": name, "range": range, "abilities": list(abilities), **kw}


def model(mid: str, x: float, y: float, *weapons: Json, keywords: tuple[str, ...] = ("INFANTRY",),
          T: int = 3, Sv: int = 6, W: int = 1, base_mm: float = 32.0,
          one_shots_used: tuple[str, ...] = ()) -> Json:
    """A model in position form."""
    return {"id": mid, "name": mid, "x": x, "y": y,
            "profile": {"name": mid.split(".")[1], "M": 6, "T": T, "Sv": Sv, "W": W, "Ld": 7,
                        "OC": 1, "InSv": None, "base_mm": base_mm, "height": 1.5,
                        "keywords": list(keywords), "abilities": []},
            "weapons": list(weapons), "one_shots_used": list(one_shots_used)}


def unit(uid: str, models: list[Json], *, flags: dict[str, bool] | None = None,
         max_move: float = 0.0) -> Json:
    """A unit; the player is the id's prefix (``red.squad``)."""
    return {"id": uid, "name": uid, "player": uid.split(".")[0], "models": models,
            "flags": dict(flags or {}), "max_move": max_move}


def row(uid: str, n: int, x: float, y: float, *weapons: Json, dx: float = 1.5,
        **kw: Any) -> list[Json]:
    """``n`` models in a row along x."""
    return [model(f"{uid}.{i + 1}", x + i * dx, y, *weapons, **kw) for i in range(n)]


def position(*units: Json, terrain: Json | None = None) -> Json:
    """Red's Shooting phase of battle round 1 (only the phase frame: the game stops after it)."""
    return {"format": "w40k-position/1", "battlefield": {"width": 60, "depth": 44},
            "terrain": terrain or {"areas": [], "terrain": []}, "mission": {"rounds": 5},
            "players": [{"name": "red", "cp": 0, "vp": 0}, {"name": "blue", "cp": 0, "vp": 0}],
            "units": list(units), "objectives": [], "round": 1, "turn_player": "red",
            "active": "red", "phase": "shooting",
            "frames": [{"kind": "shooting", "data": {}}]}


def wall(x0: float, y0: float, x1: float, y1: float, height: float = 10.0) -> Json:
    """Terrain with one dense wall (no area) from (x0, y0) to (x1, y1)."""
    return {"areas": [], "terrain": [{"name": "wall", "category": "dense", "area": None,
                                      "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
                                      "height": height}]}


def start(pos: Json, seed: int = 1) -> Game:
    """A game at the position."""
    return Game.new(pos, seed)


def select(game: Game, uid: str) -> None:
    """Select a unit to shoot (and its shooting type when asked)."""
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_shoot", req
    game.submit(uid)


def finish(game: Game) -> None:
    """Answer every remaining request with its default/first option, ending the phase with
    'done'."""
    while (req := game.pending()) is not None:
        if req.kind == "select_unit_to_shoot":
            game.submit("done")
        elif req.options:
            game.submit(req.options[0])
        else:
            raise AssertionError(f"unexpected free-form request {req.kind}")
