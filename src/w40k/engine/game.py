"""The game: ``pending()`` asks, ``submit(choice)`` answers; everything else is data.

    game = Game.new(position, seed=7)
    while (req := game.pending()) is not None:
        game.submit(agent.choose(game, req))

A malformed answer raises :class:`MalformedChoice`, an illegal one :class:`IllegalChoice`;
either way the game is exactly as it was. ``save()`` gives the position JSON at any decision;
``Game.load`` continues from it; ``record()`` gives seed + setup + choices + events, and
``Game.replay(record)`` reproduces the event log byte for byte.
"""

from __future__ import annotations

import copy
import json
import random
from typing import cast

from w40k.core.errors import IllegalChoice, MalformedChoice, W40kError
from w40k.engine import flow  # noqa: F401  (registers the battle/round/turn handlers)
from w40k.engine.registry import HANDLERS
from w40k.engine.requests import Request
from w40k.engine.rng import rng_from_json, rng_to_json
from w40k.engine.serial import JSON
from w40k.engine.state import Frame, GameState

RECORD_FORMAT = "w40k-record/1"
"""The version tag of game records."""


def _copy(value: dict[str, JSON]) -> dict[str, JSON]:
    """A deep copy of JSON data (faster than copy.deepcopy for it)."""
    return cast(dict[str, JSON], json.loads(json.dumps(value)))


def _kind(value: JSON) -> str:
    return "list" if isinstance(value, list) else type(value).__name__


class GameOver(W40kError):
    """submit() after the battle has ended."""


class Game:
    """A battle in progress."""

    def __init__(self, state: GameState, rng: random.Random) -> None:
        self.state = state
        """The game state (plain data)."""
        self.rng = rng
        """The one seeded RNG (its state is saved with the position)."""
        self._pending: Request | None = None
        self._setup: dict[str, JSON] | None = None
        self._seed: int | None = None

    # -- creation -------------------------------------------------------------------------
    @staticmethod
    def new(position: dict[str, JSON], seed: int) -> Game:
        """A game from a starting position (before battle round 1, or any later point) and a
        seed. A position without frames starts the battle at its current round."""
        state = GameState.from_json(_copy(position))  # shares nothing with the caller
        game = Game(state, random.Random(seed))
        game._setup = _copy(position)
        game._seed = seed
        if not state.frames and not state.ended:
            state.frames.append(Frame("battle", {}))
        return game

    @staticmethod
    def from_position(position: dict[str, JSON], seed: int = 0) -> Game:
        """DESIGN.md's name for :meth:`new`: start from a (hand-written) position."""
        return Game.new(position, seed)

    @staticmethod
    def load(position: dict[str, JSON]) -> Game:
        """Continue a saved game (its RNG state and pending frames included)."""
        position = _copy(position)  # shares nothing with the caller
        state = GameState.from_json(position)
        if not state.rng:
            raise ValueError("a saved game needs its RNG state ('rng'); use Game.new for a "
                             "starting position")
        game = Game(state, rng_from_json(state.rng))
        setup = position.get("setup")
        if isinstance(setup, dict):
            game._setup = setup
        seed = position.get("seed")
        game._seed = seed if isinstance(seed, int) else None
        return game

    def save(self) -> dict[str, JSON]:
        """The position JSON, RNG state and frames included (loadable with Game.load)."""
        self.state.rng = rng_to_json(self.rng)
        out = self.state.to_json()
        out["seed"] = self._seed
        out["setup"] = self._setup
        return _copy(out)  # the caller's to edit: shares nothing with the game

    def clone(self) -> Game:
        """An independent copy (for search)."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        g = Game(self.state.clone(), rng)
        g._pending = self._pending
        g._setup = self._setup
        g._seed = self._seed
        return g

    # -- the one boundary -----------------------------------------------------------------
    def pending(self) -> Request | None:
        """The decision the game waits for, or None when the battle is over."""
        while self._pending is None:
            if not self.state.frames:
                return None
            top = self.state.frames[-1]
            handler = HANDLERS.get(top.kind)
            if handler is None:
                raise KeyError(f"no handler for frame kind {top.kind!r}")
            self._pending = handler.run(self, top)
        return self._pending

    def submit(self, choice: JSON) -> None:
        """Answer the pending request. Refused answers leave the game untouched."""
        choice = copy.deepcopy(choice)  # the game keeps its own copy (record, frames)
        request = self.pending()
        if request is None:
            raise GameOver("the battle is over: nothing to decide")
        if request.options and not any(
                choice == o and _kind(choice) == _kind(o) for o in request.options):
            kinds = {_kind(o) for o in request.options}
            if _kind(choice) not in kinds:
                raise MalformedChoice(f"{request.kind}: expected a {' or '.join(kinds)}, "
                                      f"got {choice!r}")
            raise IllegalChoice(f"{request.kind}: {choice!r} is not one of the legal answers",
                                rule=request.rule)
        top = self.state.frames[-1]
        handler = HANDLERS[top.kind]
        if handler.apply is None:
            raise RuntimeError(f"frame {top.kind!r} asked but takes no answer")
        snapshot = self.state.clone()
        rng_state = self.rng.getstate()
        try:
            handler.apply(self, top, request, choice)
        except BaseException:
            self.state = snapshot
            self.rng.setstate(rng_state)
            raise
        self.state.choices.append(choice)
        self._pending = None

    # -- helpers for rules code -----------------------------------------------------------
    def d6(self) -> int:
        """One D6 from the game's RNG."""
        return self.rng.randint(1, 6)

    def log(self, event: str, **data: JSON) -> None:
        """Append an event to the log (the record compares these byte for byte)."""
        entry: dict[str, JSON] = {"event": event, "round": self.state.round,
                                  "player": self.state.turn_player, "phase": self.state.phase}
        entry.update(data)
        self.state.events.append(entry)

    def push(self, kind: str, **data: JSON) -> None:
        """Push a frame."""
        self.state.frames.append(Frame(kind, dict(data)))

    def pop(self) -> None:
        """Pop the top frame."""
        self.state.frames.pop()

    # -- records --------------------------------------------------------------------------
    def record(self) -> dict[str, JSON]:
        """The game record: header (format, seed, setup), choices and event log."""
        return _copy({"format": RECORD_FORMAT, "seed": self._seed, "setup": self._setup,
                      "mission": self.state.mission, "choices": self.state.choices,
                      "events": list[JSON](self.state.events)})

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
