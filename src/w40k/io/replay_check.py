"""`w40k replay`: replay a validated record choice by choice and say where it first differs.

The comparison is done here, not in the engine: :func:`replay_record` submits the record's
choices one at a time and wraps an engine error with the record's name and the choice index;
:func:`first_difference` names the first event index where the two logs differ, the choice
that event followed, and the two values.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import cast

from w40k.core.errors import DataError, W40kError
from w40k.engine.game import Game
from w40k.engine.serial import JSON

REPLAY_MISMATCH = 3
"""Exit code of `w40k replay` when the replayed event log differs from the record's (2 is a
malformed record)."""


def replay_record(record: dict[str, JSON], source: str,
                  watch: Callable[[Game], object] | None = None) -> tuple[Game, list[int]]:
    """The game after replaying every choice, and the length of the event log before the
    first choice and after each one; DataError names the record and choice index.
    ``watch(game)``, when given, sees the new game, the game before each choice and at the
    end (the replay page follows the game this way)."""
    setup = cast(dict[str, JSON], record["setup"])
    seed = cast(int, record["seed"])
    try:
        game = Game.new(setup, seed)
    except (W40kError, ValueError, KeyError, TypeError) as exc:
        raise DataError(f"the setup cannot start a game: {exc}", where=f"{source}: setup"
                        ) from None
    if watch is not None:
        watch(game)
    marks: list[int] = []
    for i, choice in enumerate(cast(list[JSON], record["choices"])):
        try:
            if game.pending() is None:
                raise DataError(f"the game ended after {i} choices but the record has "
                                f"{len(cast(list[JSON], record['choices']))}")
            marks.append(len(game.state.events))
            if watch is not None:
                watch(game)
            game.submit(choice)
        except DataError as exc:
            raise DataError(exc.detail, where=f"{source}: choices[{i}]") from None
        except (W40kError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise DataError(f"the engine refused this choice ({type(exc).__name__}: "
                            f"{str(exc)[:300]})", where=f"{source}: choices[{i}]") from None
    try:
        game.pending()
    except (W40kError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise DataError(f"the engine failed after the last choice: {str(exc)[:300]}",
                        where=f"{source}: choices") from None
    marks.append(len(game.state.events))
    if watch is not None:
        watch(game)
    return game, marks


def _short(value: object) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 300 else text[:300] + "..."


def first_difference(recorded: list[JSON], replayed: list[dict[str, JSON]],
                     marks: list[int]) -> str | None:
    """Where two event logs first differ (the choice index, the event index, both values), or
    None when they are byte-identical. ``marks[i]`` is the log's length when choice ``i`` was
    submitted."""
    if json.dumps(recorded) == json.dumps(replayed):
        return None
    n = min(len(recorded), len(replayed))
    index = next((i for i in range(n) if json.dumps(recorded[i]) != json.dumps(replayed[i])), n)
    # The event came from the choice submitted last before it was logged.
    after = sum(1 for m in marks[:-1] if m <= index) - 1
    when = f"after choices[{after}]" if after >= 0 else "before the first choice"
    rec = _short(recorded[index]) if index < len(recorded) else "(no more events)"
    rep = _short(replayed[index]) if index < len(replayed) else "(no more events)"
    return f"events[{index}] ({when}): recorded {rec}; replayed {rep}"
