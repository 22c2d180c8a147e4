"""What happens when a model is destroyed: its on-death rules, then its removal (Appendix
'Destroyed'); the one on-death rule so far is Deadly Demise (24.08).

A ``deaths`` frame holds the models destroyed whose on-death rules are pending, in order
(``pending``: ``{"unit", "model", "x", "y", "z"}``). For a unit's attacks it is pushed by
:func:`w40k.engine.attack.push_attack` *below* every attack frame of that activation, so the
rules and the removal wait until the attacking unit's attacks are resolved (RA-Destroyed-b);
a model destroyed otherwise (mortal wounds of a Desperate Escape) gets a ``deaths`` frame of
its own, on top, resolved right away. Models removed for coherency never get here (03.03,
``destroy(..., triggers=False)``).

Running the frame, for each pending model in turn: one D6 (logged ``deadly_demise_roll``);
on a 6 each unit with a living model within 6" of the model (horizontally, from its base
where it died; friend or foe, its own unit included: R24.08-b, literal reading) suffers X
mortal wounds, a random X rolled separately per unit (``deadly_demise``), each batch resolved
by the 06.02 ``mortal_wounds`` frame (allocation, Feel No Pain) pushed directly above this
frame; models with Deadly Demise destroyed by them join the end of ``pending`` (a chain).
Then the model is removed (``removed``). Every roll is stored in the frame before anything is
asked (the contract of ``registry``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from w40k.core.abilities import DeadlyDemise
from w40k.core.dice import Roller, RollKind
from w40k.engine.geo import model_shape
from w40k.engine.registry import Handler
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import Frame, ModelData, UnitData
from w40k.geometry import within

if TYPE_CHECKING:
    from w40k.engine.game import Game

DEADLY_DEMISE_RANGE = 6.0
"""24.08: each unit within 6"."""


def deadly_demise(m: ModelData) -> DeadlyDemise | None:
    """The model's Deadly Demise ability, if it has one."""
    return next((a for a in m.profile.abilities if isinstance(a, DeadlyDemise)), None)


def push_deaths(game: Game, attacker: str | None) -> None:
    """Push an empty ``deaths`` frame (for ``attacker``'s attacks, or None)."""
    game.push("deaths", attacker=attacker, pending=[])


def model_destroyed(game: Game, u: UnitData, m: ModelData) -> None:
    """Record the on-death rules of a model just destroyed (by the frame on top of the stack)
    in the right ``deaths`` frame; nothing for a model without any."""
    if deadly_demise(m) is None:
        return
    entry: dict[str, JSON] = {"unit": u.id, "model": m.id, "x": m.x, "y": m.y, "z": m.z}
    frames = game.state.frames
    top = frames[-1] if frames else None
    if top is not None and top.kind == "attack":
        # Appendix 'Destroyed': wait until the attacking unit's attacks are resolved; the
        # attacker's own hazard deaths (24.21: after its attacks) wait with them.
        attacker = top.data["attacker"]
        for f in reversed(frames[:-1]):
            if f.kind == "deaths" and f.data.get("attacker") == attacker:
                cast(list[JSON], f.data["pending"]).append(entry)
                return
            if f.kind != "attack" or f.data.get("attacker") != attacker:
                break
        # an attack frame pushed without push_attack: a deaths frame just below it
        frames.insert(len(frames) - 1, Frame("deaths", {"attacker": attacker,
                                                         "pending": [entry]}))
        return
    if (top is not None and top.kind == "mortal_wounds" and len(frames) >= 2
            and frames[-2].kind == "deaths"):
        cast(list[JSON], frames[-2].data["pending"]).append(entry)  # a chain
        return
    game.push("deaths", attacker=None, pending=[entry])  # not by an attack: right away


def _run(game: Game, frame: Frame) -> Request | None:
    d = frame.data
    pending = cast(list[JSON], d["pending"])
    current = cast(dict[str, JSON] | None, d.get("current"))
    if current is None:
        if not pending:
            game.pop()
            return None
        entry = cast(dict[str, JSON], pending.pop(0))
        u = game.state.unit(str(entry["unit"]))
        m = next(x for x in u.models if x.id == entry["model"])
        ability = deadly_demise(m)
        assert ability is not None
        roll = game.roll(RollKind.DEADLY_DEMISE, unit=u.id)[0].unmodified
        current = dict(entry)
        current["roll"] = roll
        current["queue"] = []
        game.log("deadly_demise_roll", unit=u.id, model=m.id, roll=roll, x=str(ability.x),
                 rule="R24.08-a")
        if roll == 6:
            here = model_shape(m, float(cast(float, entry["x"])), float(cast(float, entry["y"])),
                               float(cast(float, entry["z"])))
            roller = Roller(game.dice)
            hits: list[JSON] = []
            for v in game.state.units:  # R24.08-b: any unit, the model's own included
                if any(within(model_shape(o), here, DEADLY_DEMISE_RANGE) for o in v.alive):
                    # R24.08-a: a random X is rolled per unit
                    amount, dice = roller.expr(RollKind.DEADLY_DEMISE, ability.x)
                    game.log_roll(RollKind.DEADLY_DEMISE, dice, unit=v.id)
                    hits.append([v.id, amount])
            current["queue"] = hits
            game.log("deadly_demise", unit=u.id, model=m.id, mortal_wounds=list[JSON](hits))
        d["current"] = current
        return None
    queue = cast(list[JSON], current["queue"])
    if queue:
        uid, n = cast(list[JSON], queue.pop(0))
        game.push("mortal_wounds", unit=uid, amount=n,
                  cause=f"deadly demise of {current['model']}")
        return None
    game.log("removed", unit=current["unit"], model=current["model"])
    del d["current"]
    return None


FRAMES: dict[str, Handler] = {"deaths": Handler(_run)}
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
