"""The undo log behind :meth:`w40k.engine.state.GameState.checkpoint` (a refused answer leaves
the game untouched, DESIGN.md): while a checkpoint is open, every change to a model's or a
unit's field and every in-place change to a unit's flags, a unit's model list or a model's
``one_shots_used`` list is logged with what it replaced, so that a checkpoint copies none of
them and a restore writes back only what changed.

* A field set on a :class:`~w40k.engine.state.ModelData` or
  :class:`~w40k.engine.state.UnitData` is logged by their ``__setattr__`` (:func:`log_old`):
  ``(object, name, old value)``.
* The three containers changed in place are :class:`LoggedList` and :class:`LoggedDict`
  (the state's classes make every list or dict put there one): the first change of one after
  a checkpoint is opened logs a copy of its contents, ``(container, CONTENTS, copy)``.

A restore replays its entries latest first, so each object ends with what it held when the
checkpoint was taken (its earliest entry). Never saved. One log per thread: games played in
other threads neither write to it nor close it.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")

MISSING = object()
"""An undo-log entry's old value for an attribute the object did not have."""

CONTENTS = "<contents>"
"""An undo-log entry's name for a :class:`LoggedList`'s or :class:`LoggedDict`'s contents
(never an attribute's name: it is not an identifier)."""

_SERIALS = itertools.count(1)
"""Serials for :attr:`_UndoLog.serial`, unique in the process (across threads too)."""

Entry = tuple[object, str, object]
"""One undo-log entry: the object, the attribute's name (or :data:`CONTENTS`) and the old
value (or contents)."""


class _UndoLog(threading.local):
    """This thread's undo log (module docstring)."""

    log: list[Entry] | None = None
    """The entries since the outermost open checkpoint, or None when none is open."""
    depth = 0
    """Open checkpoints."""
    serial = 0
    """Renewed whenever a checkpoint is opened, released or restored: a container logs its
    contents at its first change under each serial (``_logged``). Once per
    checkpoint is enough (its earliest copy is what the restore writes back); a new serial
    after a release or an inner restore makes the next change log again for the enclosing
    checkpoint, whose entry may have been consumed by the inner restore."""


UNDO = _UndoLog()
"""This thread's undo log."""


class _Changes:
    """A counter bumped by every field set on a unit (``UnitData.__setattr__``) and every
    in-place change of a :class:`LoggedList` or :class:`LoggedDict` (a unit's flags or model
    list, a model's one-shot list), in any game: an answer made from the units' fields and
    containers is the same while it is unchanged, and while the units' model fields are
    (``state.PLACEMENT``; a restore bumps that one). Never saved."""

    count = 0


CHANGES: type[_Changes] = _Changes
"""The counter itself (its ``count`` read and bumped in place)."""


def open_undo() -> int:
    """One more open checkpoint: where its entries start in the undo log."""
    if UNDO.log is None:
        UNDO.log = []
    UNDO.depth += 1
    UNDO.serial = next(_SERIALS)
    return len(UNDO.log)


def close_undo() -> None:
    """One open checkpoint fewer; the log goes when none is left."""
    UNDO.depth -= 1
    UNDO.serial = next(_SERIALS)
    if UNDO.depth <= 0:
        UNDO.depth = 0
        UNDO.log = None


def log_old(log: list[Entry], obj: object, name: str, fields: frozenset[str]) -> None:
    """Log ``obj``'s value of ``name`` before it is set: its old value, or :data:`MISSING`
    for a new attribute. A field (one of ``fields``) is read with ``getattr``, not through
    ``obj.__dict__``: reading ``__dict__`` makes CPython give the object a real dict instead
    of its inline attribute values, and every later attribute read of a moved model took the
    slower path. A field the constructor is still setting reads the class default (or
    :data:`MISSING`): logged too, but the object is new to every open checkpoint, so a
    restore never writes it back."""
    if name in fields:
        log.append((obj, name, getattr(obj, name, MISSING)))
        return
    d = obj.__dict__
    log.append((obj, name, d.get(name, MISSING)))


def _logged(method: Callable[..., _T]) -> Callable[..., _T]:
    """``method`` (a ``list`` or ``dict`` mutator) after logging the container's contents
    (a plain ``list`` or ``dict`` copy: ``copy`` of a subclass gives its base type) at its
    first change under this serial."""
    def mutator(self: LoggedList[Any] | LoggedDict[Any, Any], *args: Any,
                **kwargs: Any) -> _T:
        CHANGES.count += 1
        log = UNDO.log
        if log is not None and self._mark != UNDO.serial:
            self._mark = UNDO.serial
            log.append((self, CONTENTS, self.copy()))
        return method(self, *args, **kwargs)

    mutator.__name__ = method.__name__
    mutator.__doc__ = method.__doc__
    return mutator


class LoggedList(list[_T]):
    """A list whose in-place changes are logged while a checkpoint is open (module
    docstring). Reads are the list's own (C) methods; each mutator logs first."""

    _mark = 0
    """The serial (:attr:`_UndoLog.serial`) this list last logged its contents at."""

    append = _logged(list.append)
    extend = _logged(list.extend)
    insert = _logged(list.insert)
    remove = _logged(list.remove)
    pop = _logged(list.pop)
    clear = _logged(list.clear)
    sort = _logged(list.sort)
    reverse = _logged(list.reverse)
    __setitem__ = _logged(list.__setitem__)
    __delitem__ = _logged(list.__delitem__)
    __iadd__ = _logged(list.__iadd__)
    __imul__ = _logged(list.__imul__)


class LoggedDict(dict[_K, _V]):
    """A dict whose in-place changes are logged while a checkpoint is open (module
    docstring). Reads are the dict's own (C) methods; each mutator logs first."""

    _mark = 0
    """The serial (:attr:`_UndoLog.serial`) this dict last logged its contents at."""

    __setitem__ = _logged(dict.__setitem__)
    __delitem__ = _logged(dict.__delitem__)
    pop = _logged(dict.pop)
    popitem = _logged(dict.popitem)
    clear = _logged(dict.clear)
    update = _logged(dict.update)
    setdefault = _logged(dict.setdefault)  # type: ignore[assignment]
    __ior__ = _logged(dict.__ior__)


def put_back(owner: object, name: str, old: object) -> None:
    """Write one undo-log entry back: a container's contents, or an attribute (through the
    object's ``__dict__``: no ``__setattr__``, so nothing is logged again)."""
    if name == CONTENTS:
        if isinstance(owner, LoggedList):
            list.__setitem__(owner, slice(None), old)  # type: ignore[call-overload]
        else:
            assert isinstance(owner, LoggedDict)
            dict.clear(owner)
            dict.update(owner, old)  # type: ignore[call-overload]
    elif old is MISSING:
        owner.__dict__.pop(name, None)
    else:
        owner.__dict__[name] = old
