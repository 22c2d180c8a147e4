"""The game: ``pending()`` asks, ``submit(choice)`` answers; everything else is data.

    game = Game.new(position, seed=7)                      # or dice=ScriptedDice({...})
    while (req := game.pending()) is not None:
        game.submit(agent.choose(game, req), player=req.player, request_id=req.id)

``pending()`` returns the one :class:`~w40k.rules.decisions.DecisionRequest` type the attack
sequence asks through too, numbered by ``id`` (increasing within the game) and naming the
``player`` who must answer. A malformed answer raises :class:`MalformedChoice`, an illegal
one :class:`IllegalChoice` (an answer from the wrong player or to a request that is no longer
pending is illegal, 01.03); either way the game, its dice included, is exactly as it was.
Every die is rolled through the game's dice source (``core.dice``: seeded, scripted or
ordered), whose state is saved with the position, and is logged as a ``roll`` event.
``save()`` gives the position JSON at any decision; ``Game.load`` continues from it;
``record()`` gives seed + setup + choices + events, and ``Game.replay(record)`` reproduces
the event log byte for byte.
"""

from __future__ import annotations

import copy
import json
from typing import cast

from w40k.core import kept
from w40k.core.dice import (
    DieRoll,
    SeededDice,
    SerializableDice,
    clone_dice,
    dice_from_json,
)
from w40k.core.errors import DataError, IllegalChoice, W40kError
from w40k.core.jsonval import JSON
from w40k.engine.context import Context, CountingDice
from w40k.engine.flow import BattleFrame
from w40k.engine.frames import FrameData
from w40k.engine.options import read_options
from w40k.engine.phases.deployment import pre_battle_frame
from w40k.engine.requests import Request
from w40k.engine.state import GameState
from w40k.engine.table import FRAME_CLASSES, HANDLERS, read_frame
from w40k.rules.allocation import AllocationPolicy

RECORD_FORMAT = "w40k-record/2"
"""The version tag of game records."""


def _copy(value: dict[str, JSON]) -> dict[str, JSON]:
    """A deep copy of JSON data (faster than copy.deepcopy for it)."""
    return cast(dict[str, JSON], json.loads(json.dumps(value)))


_ATOMS = frozenset({str, int, float, bool, type(None)})
"""The JSON value types that ``copy.deepcopy`` gives back as they are."""


def copy_choice(value: JSON) -> JSON:
    """``copy.deepcopy(value)`` for an answer (the game keeps its own): plain lists and dicts
    are copied item by item, the JSON atoms kept, anything else handed to ``copy.deepcopy``
    (tuples and other types stay what they are). An answer is a few lists and dicts: this
    costs a fraction of ``deepcopy``'s bookkeeping, made at every submit."""
    t = type(value)
    if t in _ATOMS:
        return value
    if t is list:
        return [copy_choice(v) for v in cast(list[JSON], value)]
    if t is dict:
        return {k: copy_choice(v) for k, v in cast(dict[str, JSON], value).items()}
    return copy.deepcopy(value)


_Counting = CountingDice
"""The older name of :class:`~w40k.engine.context.CountingDice`."""


class GameOver(W40kError):
    """submit() after the battle has ended."""


class Game:
    """A battle in progress."""

    def __init__(self, state: GameState, dice: SerializableDice) -> None:
        self.ctx = Context(state, CountingDice(dice), FRAME_CLASSES)
        """The narrow context the rules work through (engine/context.py): handlers,
        proposers and reactions get it, never the game."""
        self._pending: Request | None = None
        self._setup: str | None = None
        """The starting position and dice as JSON text (immutable: clones share it)."""
        self._seed: int | None = None

    @property
    def state(self) -> GameState:
        """The game state (plain data)."""
        return self.ctx.state

    @state.setter
    def state(self, value: GameState) -> None:
        self.ctx.state = value

    @property
    def dice(self) -> CountingDice:
        """The game's one dice source (its state is saved with the position)."""
        return self.ctx.dice

    @dice.setter
    def dice(self, value: CountingDice) -> None:
        self.ctx.dice = value

    # -- creation -------------------------------------------------------------------------
    @staticmethod
    def new(position: dict[str, JSON], seed: int = 0, *,
            dice: SerializableDice | None = None) -> Game:
        """A game from a starting position (before battle round 1, or any later point) and a
        seed; ``dice`` replaces the seeded source (``ScriptedDice``, ``OrderedDice``). A
        position without frames starts the battle at its current round."""
        kept.forget()  # a new game: what the tables kept belongs to games over (core/kept.py)
        if dice is None and position.get("dice") is not None:
            dice = dice_from_json(position["dice"])  # a position may carry its dice
        source = SeededDice(seed) if dice is None else dice
        # The setup is kept as its JSON text, with the dice (a record replays on the same
        # dice), and the state read from that text: one copy of the position, sharing nothing
        # with the caller, and the kept setup is a string, not ~1600 lists and dicts that
        # every full garbage collection would traverse for the rest of the game.
        setup = json.dumps({**position, "dice": source.to_json()})
        state = GameState.from_json(json.loads(setup), read_frame, loaded=True)  # no "dice"
        state.options = read_options(position.get("options"))
        for player, policy in state.policies.items():
            if policy not in {p.value for p in AllocationPolicy}:
                raise DataError(f"unknown allocation policy {policy!r} (known: "
                                f"{', '.join(p.value for p in AllocationPolicy)})",
                                where=f"policies.{player}")
        game = Game(state, source)
        game._setup = setup
        game._seed = seed
        if not state.frames and not state.ended:
            state.frames.append(BattleFrame())
            pre = position.get("pre_battle")
            if pre is not None and pre is not False:
                if not isinstance(state.mission.get("deployment_zones"), list):
                    raise DataError("the pre-battle sequence needs the mission's "
                                    "deployment_zones", where="pre_battle")
                state.frames.append(pre_battle_frame(pre))
        return game

    @staticmethod
    def from_position(position: dict[str, JSON], seed: int = 0, *,
                      dice: SerializableDice | None = None) -> Game:
        """DESIGN.md's name for :meth:`new`: start from a (hand-written) position."""
        return Game.new(position, seed, dice=dice)

    @staticmethod
    def load(position: dict[str, JSON]) -> Game:
        """Continue a saved game (its dice state and pending frames included)."""
        kept.forget()  # as in new: nothing kept of the games before
        position = _copy(position)  # shares nothing with the caller
        state = GameState.from_json(position, read_frame, loaded=True)
        state.options = read_options(position.get("options"))
        if "dice" not in position:
            raise ValueError("a saved game needs its dice state ('dice'); use Game.new for a "
                             "starting position")
        game = Game(state, dice_from_json(position["dice"]))
        setup = position.get("setup")
        if isinstance(setup, dict):
            game._setup = json.dumps(setup)
        seed = position.get("seed")
        game._seed = seed if isinstance(seed, int) else None
        return game

    def save(self) -> dict[str, JSON]:
        """The position JSON, dice state and frames included (loadable with Game.load)."""
        out = self.state.to_json()
        out["dice"] = self.dice.to_json()
        out["seed"] = self._seed
        out["setup"] = self._setup_json()
        return _copy(out)  # the caller's to edit: shares nothing with the game

    def clone(self) -> Game:
        """An independent copy (for search)."""
        g = Game(self.state.clone(), clone_dice(self.dice.inner))
        g._pending = self._pending
        g._setup = self._setup
        g._seed = self._seed
        return g

    # -- the one boundary -----------------------------------------------------------------
    def pending(self) -> Request | None:
        """The decision the game waits for, or None when the battle is over."""
        ctx = self.ctx  # the state read through it at every step (a handler may replace it)
        while self._pending is None:
            frames = ctx.state.frames
            if not frames:
                return None
            top = frames[-1]
            handler = HANDLERS.get(top.KIND)  # the class's kind (``FrameData.kind`` reads it)
            if handler is None:
                raise KeyError(f"no handler for frame kind {top.KIND!r}")
            asked = handler.run(ctx, top)
            if asked is not None:
                # 01.03: the numbering continues across save/load: one request per choice.
                self._pending = asked.remade(asked.player, asked.context,
                                              len(ctx.state.choices) + 1)
        return self._pending

    def submit(self, choice: JSON, *, player: str | None = None,
               request_id: int | None = None) -> None:
        """Answer the pending request. Refused answers leave the game untouched. ``player``
        and ``request_id``, when given, must name the pending request's player and id."""
        choice = copy_choice(choice)  # the game keeps its own copy (record, frames)
        request = self.pending()
        if request is None:
            raise GameOver("the battle is over: nothing to decide")
        if player is not None and player != request.player:
            raise IllegalChoice(f"{player} answered, but {request.player} decides "
                                f"{request.kind} (request {request.id})", rule="R01.03-a")
        if request_id is not None and request_id != request.id:
            raise IllegalChoice(f"request {request_id} is no longer pending (the pending "
                                f"request is {request.id}, {request.kind})", rule="R01.03-a")
        request.check(choice)
        top = self.state.frames[-1]
        handler = HANDLERS[top.kind]
        if handler.apply is None:
            raise RuntimeError(f"frame {top.kind!r} asked but takes no answer")
        state = self.state
        snapshot = state.checkpoint()
        dice = self.dice
        dice.arm()  # its state before the first face the answer draws, if any
        drawn = dice.drawn
        try:
            handler.apply(self.ctx, top, request, choice)
        except BaseException:
            self.state = state  # in case the handler replaced it
            state.restore(snapshot)
            dice_state = dice.disarm()
            self.dice = dice if dice_state is None else CountingDice(dice_from_json(dice_state))
            self.dice.drawn = drawn
            raise
        dice.disarm()
        state.release(snapshot)
        self.state.choices.append(choice)
        self._pending = None

    # -- helpers for rules code (the context's, kept here for callers holding the game) --
    def roll(self, kind: str, n: int = 1, *, unit: str | None = None,
             sides: int = 6) -> tuple[DieRoll, ...]:
        """:meth:`Context.roll`."""
        return self.ctx.roll(kind, n, unit=unit, sides=sides)

    def log_roll(self, kind: str, dice: tuple[DieRoll, ...], *, unit: str | None) -> None:
        """:meth:`Context.log_roll`."""
        self.ctx.log_roll(kind, dice, unit=unit)

    def log(self, event: str, **data: JSON) -> None:
        """:meth:`Context.log`."""
        self.ctx.log(event, **data)

    def push(self, frame: FrameData | str, /, **data: JSON) -> None:
        """:meth:`Context.push`: a typed frame, or a kind and its data."""
        self.ctx.push(frame, **data)

    def pop(self) -> None:
        """:meth:`Context.pop`."""
        self.ctx.pop()

    # -- records --------------------------------------------------------------------------
    def record(self) -> dict[str, JSON]:
        """The game record: header (format, seed, setup), choices and event log."""
        return _copy(self._record())

    def record_text(self) -> str:
        """``json.dumps(game.record())`` without the copy (a whole battle's events as Python
        objects once more: megabytes at the end of ``w40k battle``)."""
        return json.dumps(self._record())

    def _setup_json(self) -> JSON:
        """The setup as JSON data (a new copy), or None (a loaded save without one)."""
        return None if self._setup is None else cast(JSON, json.loads(self._setup))

    def _record(self) -> dict[str, JSON]:
        return {"format": RECORD_FORMAT, "seed": self._seed, "setup": self._setup_json(),
                "mission": self.state.mission, "choices": self.state.choices,
                "events": list[JSON](self.state.events)}

    @staticmethod
    def replay(record: dict[str, JSON]) -> Game:
        """Replay a record's choices from its seed and setup."""
        if record.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a {RECORD_FORMAT} record")
        seed = record.get("seed")
        setup = record.get("setup")
        if not isinstance(seed, int) or not isinstance(setup, dict):
            raise ValueError("a record needs its seed and setup")
        game = Game.new(setup, seed)
        for choice in cast(list[JSON], record.get("choices", [])):
            if game.pending() is None:
                raise ValueError("the record has more choices than the game asks for")
            game.submit(choice)
        game.pending()
        return game
