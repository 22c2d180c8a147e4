"""Hand-built positions for the Movement phase tests (09): small units on an empty 60"x44"
table, a game started at red's Movement phase of battle round 1, and scripted D6 faces."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from tests.engine.core_helpers import scripted
from w40k.engine import geo
from w40k.engine.game import Game
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import FORMAT
from w40k.geometry import Scene
from w40k.geometry.outlines import Outline, outlines
from w40k.io.battle_setup import real_battle_position


def model(mid: str, x: float, y: float, *, M: int | None = 6, W: int = 1, Ld: int = 7,
          base_mm: float = 32.0, keywords: Sequence[str] = ("INFANTRY",),
          abilities: Sequence[str] = (), wounds_lost: int = 0) -> dict[str, JSON]:
    """One model in the position form."""
    profile: dict[str, JSON] = {
        "name": mid, "M": "-" if M is None else M, "T": 4, "Sv": 3, "W": W, "Ld": Ld,
        "OC": 1, "InSv": None, "base_mm": base_mm, "height": 1.5,
        "keywords": list[JSON](keywords), "abilities": list[JSON](abilities)}
    return {"id": mid, "name": mid, "profile": profile, "weapons": [], "x": x, "y": y,
            "z": 0.0, "facing": 0.0, "wounds_lost": wounds_lost, "destroyed": False}


def row(uid: str, n: int, *, x: float, y: float, gap: float = 1.5, **prof: Any
        ) -> list[dict[str, JSON]]:
    """``n`` models in a row along x, centres ``gap``" apart (ids ``uid.1`` ...)."""
    return [model(f"{uid}.{i + 1}", x + i * gap, y, **prof) for i in range(n)]


def unit(uid: str, player: str, models: list[dict[str, JSON]], *,
         flags: dict[str, bool] | None = None) -> dict[str, JSON]:
    """One unit in the position form."""
    return {"id": uid, "name": uid, "player": player, "flags": cast(JSON, dict(flags or {})),
            "models": list[JSON](models)}


def position(*units: dict[str, JSON], rounds: int = 5) -> dict[str, JSON]:
    """A position before battle round 1 on an empty table; red takes the first turn."""
    return {"format": FORMAT, "battlefield": {"width": 60.0, "depth": 44.0},
            "terrain": {"areas": [], "terrain": []},
            "mission": {"name": "test", "rounds": rounds},
            "players": [{"name": "red", "cp": 0, "vp": 0}, {"name": "blue", "cp": 0, "vp": 0}],
            "units": list[JSON](units), "objectives": []}


def far_enemy() -> dict[str, JSON]:
    """A one-model blue unit far from everything."""
    return unit("blue.far", "blue", [model("blue.far.1", 55.0, 40.0)])





KEEP = "red.keep"
"""A red unit far away that the tests leave for last, so the Movement phase (and its turn's
flags) is still there to inspect after the unit under test has moved."""


def start(*units: dict[str, JSON], dice: Iterable[int] = (), keep: bool = True
          ) -> tuple[Game, Request]:
    """A game at red's first ``select_unit_to_move`` with scripted D6 faces (the Command
    phase before it rolls nothing unless a unit is battle-shocked or below half strength);
    with ``keep``, red also has the unit :data:`KEEP` in a corner."""
    if keep:
        units = (*units, unit(KEEP, "red", [model(KEEP + ".1", 2.0, 42.0)]))
    game = Game.new(position(*units), seed=1)
    scripted(game, dice)
    req = game.pending()
    assert req is not None and req.kind == "select_unit_to_move", req
    return game, req


def answer(game: Game, *choices: JSON) -> Request:
    """Submit ``choices`` in order; the request pending afterwards."""
    for c in choices:
        game.submit(c)
    req = game.pending()
    assert req is not None
    return req


def real_battle_walls(seed: int) -> tuple[Scene, str, list[Outline]]:
    """The 1000-point battle's scene (``real_battle_position``), the id of a unit in it (whose
    moves are tested) and the outlines of its terrain features above 2" (the walls)."""
    game = Game.new(real_battle_position(), seed)
    scene = geo.scene(game.ctx)
    u = next(u for u in game.state.units if not u.destroyed)
    return scene, u.id, [ol for ol in outlines(scene.terrain) if ol.feature.height > 2.0]
