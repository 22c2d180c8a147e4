"""Reaction windows: the moments the rulebook lets a player act outside their own sequence
(docs/battle.md "Windows").

A rule that can be used at such a moment (a stratagem, an aura, a datasheet ability) is a
:class:`Reaction` listed in :data:`REACTIONS` for its :class:`Window`. The engine calls
:func:`open_window` at each named moment with the facts of that moment (the unit selected,
the roll just made ...). Only when a listed reaction is usable then does it push a ``window``
frame, which asks each player in turn (the active player first) a ``reaction`` request:
one of the usable reactions, or ``"decline"``. With nothing usable, nothing is asked and
nothing is pushed: a window costs one lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, cast

from w40k.core import kept
from w40k.core.jsonval import JSON
from w40k.engine.context import Context
from w40k.engine.frames import FrameData
from w40k.engine.registry import Handler
from w40k.engine.requests import K, Request, request
from w40k.rules.decisions import DECLINE


class Window(StrEnum):
    """The named moments (stable strings: frames and requests hold them)."""

    AFTER_ROLL = "after_roll"
    """After any roll, before its result is used (facts: ``kind``, ``unit``, ``faces``)."""
    UNIT_SELECTED = "unit_selected"
    """A unit has been selected to move, shoot, charge or fight (facts: ``unit``,
    ``action``)."""
    TARGETS_SELECTED = "targets_selected"
    """A unit has selected its targets (facts: ``unit``, ``action``, ``targets``)."""
    START_OF_PHASE = "start_of_phase"
    """The start of a phase (facts: ``phase``)."""
    END_OF_PHASE = "end_of_phase"
    """The end of a phase (facts: ``phase``)."""
    START_OF_TURN = "start_of_turn"
    """The start of a player's turn."""
    END_OF_TURN = "end_of_turn"
    """The end of a player's turn."""
    AFTER_FIGHT = "after_fight"
    """In the fight sequence, after a unit has fought (facts: ``unit``)."""
    BEFORE_BATTLE_SHOCK = "before_battle_shock"
    """In the Battle-shock step, just before a unit's battle-shock roll (facts: ``unit``)."""
    CHARGE_MOVE_ENDED = "charge_move_ended"
    """Just after a unit has ended a charge move (facts: ``unit``)."""
    COMMAND_ABILITIES = "command_abilities"
    """08.04: the Command Abilities step, after the battle-shock rolls (facts: ``phase``)."""


Facts = dict[str, JSON]
"""What happened at the moment of a window (JSON, kept in the window frame)."""


@dataclass(frozen=True)
class Reaction:
    """A rule usable in a window: its name, its window, which answers a player may give now,
    and what using it does."""

    name: str
    """The rule's name (``Command Re-roll``)."""
    window: Window
    """When it can be used."""
    rule: str
    """The rule that gives it (section or checklist ID)."""
    options: Callable[[Context, Facts, str], list[JSON]]
    """The answers ``player`` may give now (empty: not usable by that player now); it reads,
    never changes, the context."""
    use: Callable[[Context, Facts, str, JSON], None]
    """Use it with one of those answers (through the context: ``ctx.state``, ``ctx.roll``,
    ``ctx.log``, ``ctx.replace`` to change a frame below, ``ctx.push``)."""


@dataclass(frozen=True)
class WindowFrame(FrameData):
    """An open window: each player in ``players`` in turn is asked until they decline."""

    KIND = "window"
    window: Window
    """Which moment."""
    facts: JSON
    """What happened (a JSON object, :data:`Facts`)."""
    players: tuple[str, ...]
    """Who is asked, in order (the active player first)."""
    idx: int = 0
    """The index in ``players`` of the player asked now."""


_WINDOW_FIELDS = ("window", "facts", "players", "idx")
assert tuple(f.name for f in fields(WindowFrame)) == _WINDOW_FIELDS
assert all(f.init for f in fields(WindowFrame))


def _asking(frame: WindowFrame, idx: int) -> WindowFrame:
    """``replace(frame, idx=idx)``: the constructor called with the frame's fields
    (:data:`_WINDOW_FIELDS`, checked at import), without ``replace``'s per-field lookups and
    keyword dict (a window moves on at every answer and every player without options). A
    subclass goes through ``replace``."""
    if type(frame) is not WindowFrame:
        return replace(frame, idx=idx)
    return WindowFrame(frame.window, frame.facts, frame.players, idx)


REACTIONS: tuple[Reaction, ...] | None = None
"""The explicit table of reactions: None reads ``engine/reactions_table.py`` (the core
stratagems); tests set a tuple of their own."""


def reactions(ctx: Context) -> tuple[Reaction, ...]:
    """The reactions in force: the table, then the start reactions of the actions the game's
    mission defines (engine/mission_actions.py; read lazily: the table's modules import this
    one)."""
    from w40k.engine import mission_actions

    mission = mission_actions.reactions(ctx)
    if REACTIONS is not None:
        return (*REACTIONS, *mission) if mission else REACTIONS
    from w40k.engine.reactions_table import TABLE
    return (*TABLE, *mission) if mission else TABLE


_INDEX: list[tuple[tuple[Reaction, ...], object, dict[Window, tuple[Reaction, ...]]]] = []
"""The last reaction table and mission (kept by identity) with the reactions of each window,
in table order: a window opens at every roll, so finding its reactions costs two identity
checks and one lookup. The mission's reactions are a function of the mission object
(``mission_actions`` keeps them by its identity too)."""

_CORE: list[tuple[Reaction, ...]] = []
"""``reactions_table.TABLE``, once imported (read lazily: its modules import this one)."""


def _table() -> tuple[Reaction, ...]:
    """The explicit table in force: :data:`REACTIONS`, else ``reactions_table.TABLE``."""
    if REACTIONS is not None:
        return REACTIONS
    if not _CORE:
        from w40k.engine.reactions_table import TABLE
        _CORE.append(TABLE)
    return _CORE[0]


def _of_window(ctx: Context, window: Window) -> tuple[Reaction, ...]:
    """The reactions in force of ``window``, in the order :func:`reactions` lists them."""
    table = _table()
    mission = ctx.state.mission
    if not (_INDEX and _INDEX[0][0] is table and _INDEX[0][1] is mission):
        from w40k.engine import mission_actions

        by: dict[Window, list[Reaction]] = {}
        for r in (*table, *mission_actions.reactions(ctx)):
            by.setdefault(r.window, []).append(r)
        _INDEX[:] = [(table, mission, {w: tuple(rs) for w, rs in by.items()})]
    return _INDEX[0][2].get(window, ())


def _usable(ctx: Context, window: Window, facts: Facts, player: str) -> list[JSON]:
    out: list[JSON] = []
    for r in _of_window(ctx, window):
        options = r.options(ctx, facts, player)
        if options:  # most asks answer none: no list to build and add
            name = r.name
            out += [[name, o] for o in options]
    return out


def _any_usable(ctx: Context, reactions_: tuple[Reaction, ...], facts: Facts,
                player: str) -> bool:
    """Some reaction of ``reactions_`` is usable by ``player`` now (:func:`_usable` not
    empty), up to the first that is (a loop: ``any`` over a generator costs more, core16b)."""
    for r in reactions_:  # noqa: SIM110
        if r.options(ctx, facts, player):
            return True
    return False


def _order(ctx: Context) -> list[str]:
    """The players in the order a window asks them: the active player first."""
    s = ctx.state
    first = s.active or s.players[0].name
    return [first, s.opponent(first)]


def open_window(ctx: Context, window: Window, **facts: JSON) -> bool:
    """Open a window at this moment: push a ``window`` frame if some reaction is usable by
    either player (the active player is asked first), else nothing. True if pushed."""
    listed = _of_window(ctx, window)
    if not listed:
        return False
    order = _order(ctx)
    for p in order:  # the active player first, up to the first with a usable reaction
        if _any_usable(ctx, listed, facts, p):
            break
    else:
        return False
    ctx.push(WindowFrame(window, cast(JSON, dict(facts)), tuple(order)))
    return True


def open_window_run_next(ctx: Context, window: Window, **facts: JSON) -> bool:
    """:func:`open_window` for a caller that returns at once when the frame is pushed, so
    that the engine runs the window next with nothing in between (an attack frame's run:
    engine/attack.py; the turn's own windows: engine/flow.py). The players' options listed
    here to decide whether to push are handed to the frame's first run (:data:`_HANDED`)
    instead of being listed again on the very same state."""
    if not _of_window(ctx, window):
        return False
    s = ctx.state
    order = _order(ctx)
    # Each player's whole list, in order, up to the first that is not empty: the first run
    # lists exactly these (it asks the first player with options).
    lists: list[list[JSON]] = []
    for p in order:
        options = _usable(ctx, window, facts, p)
        lists.append(options)
        if options:
            break
    else:
        return False
    frame = WindowFrame(window, cast(JSON, dict(facts)), tuple(order))
    ctx.push(frame)
    _HANDED[:] = [(frame, len(s.events), lists)]
    return True


_HANDED: list[tuple[WindowFrame, int, list[list[JSON]]]] = kept.slot()
"""The options :func:`open_window_run_next` listed for the frame it just pushed
(the frame itself, the length of the event log then, and each player's options in order):
read by that frame's first run only (the same frame object, asking its first player, the
log as long), and dropped by any window run. Options are functions of the state, which the
caller's promise keeps unchanged between the push and that run."""


def _handed(ctx: Context, frame: WindowFrame) -> list[list[JSON]] | None:
    """The options handed to ``frame``'s first run, if any (and forgets them)."""
    if not _HANDED:
        return None
    pushed, events, lists = _HANDED.pop()
    if pushed is frame and frame.idx == 0 and events == len(ctx.state.events):
        return lists
    return None


def _run(ctx: Context, frame: WindowFrame) -> Request | None:
    players = frame.players
    idx = frame.idx
    window = frame.window
    facts = cast(Facts, frame.facts)
    handed = _handed(ctx, frame)
    while idx < len(players):
        player = players[idx]
        options = (handed[idx] if handed is not None and idx < len(handed)
                   else _usable(ctx, window, facts, player))
        if options:
            labels = tuple(f"{o[0]}: {o[1]}" for o in cast(list[list[JSON]], options))
            return request(player, K.REACTION, "15.01",
                           f"{window.value.replace('_', ' ')}: use a rule, or decline",
                           (DECLINE, *options), context={"window": str(window),
                                                         "facts": cast(JSON, facts)},
                           labels=("decline", *labels), default=DECLINE)
        idx += 1
        new = _asking(frame, idx)
        ctx.replace(frame, new)
        frame = new
    ctx.pop()
    return None


def _apply(ctx: Context, frame: WindowFrame, req: Request, choice: JSON) -> None:
    if choice == DECLINE:
        ctx.replace(frame, _asking(frame, frame.idx + 1))
        return
    name, option = cast(list[JSON], choice)
    reaction = next(r for r in reactions(ctx) if r.name == name)
    ctx.log("reaction", window=str(frame.window), rule=str(name), answer=option,
            by=req.player)
    # The same player is asked again: another usable rule, or decline.
    reaction.use(ctx, cast(Facts, frame.facts), req.player, option)


FRAMES: tuple[Handler[Any], ...] = (Handler(WindowFrame, _run, _apply),)
"""This module's frame kinds and their handlers (engine/table.py collects them)."""
