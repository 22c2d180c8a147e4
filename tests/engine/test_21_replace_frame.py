"""``frames.replace_frame`` is ``dataclasses.replace`` for frames (issue 10, pass win21): a
frame moves on by a replaced copy at nearly every step; for a plain frame class the copy is
its attributes with the changes. Compared with ``dataclasses.replace`` on every frame of
greedy games (each field changed to another frame's value of it, and several at once), and on
classes where the copy would not be exact (they must go through ``replace``)."""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import InitVar, dataclass, field
from typing import Any, ClassVar, cast

import pytest

from tests.engine.core_helpers import greedy_record
from w40k.engine import table
from w40k.engine.frames import FrameData, Record, _copyable, replace_frame
from w40k.engine.game import Game


def _same(a: object, b: object) -> None:
    assert type(a) is type(b)
    assert a == b
    try:
        hashed = hash(a)
    except TypeError:  # a frame holding a dict (or a JSON list) is not hashable either way
        with pytest.raises(TypeError):
            hash(b)
    else:
        assert hashed == hash(b)
    names = [f.name for f in dataclasses.fields(cast(Any, a))]
    assert all(getattr(a, n) is getattr(b, n) for n in names)
    assert cast(FrameData, a).frame_json() == cast(FrameData, b).frame_json()


def test_every_handled_frame_class_is_copied() -> None:
    """Every frame class the engine runs is a plain one (no slots, ``__post_init__``,
    ``InitVar`` or ``__init__`` of its own): the fast copy serves them all."""
    for handler in table.HANDLERS.values():
        assert _copyable(handler.frame) == frozenset(
            f.name for f in dataclasses.fields(cast(Any, handler.frame)))


def test_replace_frame_equals_dataclasses_replace_on_the_frames_of_greedy_games() -> None:
    """Each frame on the stack after every submit of two skirmishes: each field set to its own
    value, to the value another frame of its class holds, and random groups of fields: the
    same frame as ``dataclasses.replace`` (type, equality, hash, the very field values, the
    position form); the original is unchanged."""
    rng = random.Random(21)
    seen: dict[type, list[FrameData]] = {}
    checked = 0

    def hook(game: Game) -> None:
        nonlocal checked
        for frame in game.state.frames:
            cls = type(frame)
            others = seen.setdefault(cls, [])
            names = [f.name for f in dataclasses.fields(cast(Any, cls))]
            before = json.dumps(frame.frame_json(), sort_keys=True, default=str)
            for n in names:
                for source in (frame, *rng.sample(others, min(2, len(others)))):
                    value = getattr(source, n)
                    _same(replace_frame(frame, **{n: value}),
                          dataclasses.replace(cast(Any, frame), **{n: value}))
                    checked += 1
            if others:
                other = rng.choice(others)
                picked = rng.sample(names, rng.randint(0, len(names)))
                group = {n: getattr(other, n) for n in picked}
                _same(replace_frame(frame, **group), dataclasses.replace(cast(Any, frame), **group))
            assert json.dumps(frame.frame_json(), sort_keys=True, default=str) == before
            if len(others) < 8:
                others.append(frame)

    for seed in (0, 1):
        greedy_record(1, seed, hook)
    assert checked > 1000 and len(seen) >= 12


@dataclass(frozen=True)
class _Plain(FrameData):
    KIND: ClassVar[str] = "test_plain"
    a: int
    b: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Posted(FrameData):
    KIND: ClassVar[str] = "test_posted"
    a: int
    doubled: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "doubled", 2 * self.a)


@dataclass(frozen=True, slots=True)
class _Slotted(Record):
    a: int
    b: int = 0


@dataclass(frozen=True)
class _Derived(FrameData):
    KIND: ClassVar[str] = "test_derived"
    a: int
    b: int = field(init=False, default=7)


@dataclass(frozen=True)
class _WithInitVar(FrameData):
    KIND: ClassVar[str] = "test_initvar"
    a: int
    scale: InitVar[int] = 1


class _OwnInit(_Plain):
    def __init__(self, a: int, b: tuple[int, ...] = ()) -> None:
        super().__init__(a + 1, b)


@dataclass(frozen=True)
class _NotRecord:
    a: int


def test_classes_a_copy_would_get_wrong_go_through_replace() -> None:
    """``__post_init__``, slots, a field out of ``__init__``, an ``InitVar``, an ``__init__``
    of its own, a dataclass outside the frames' base: not copied (``_copyable`` None), and the
    answer is ``dataclasses.replace``'s; a change naming no field raises its TypeError."""
    assert _copyable(_Plain) == frozenset({"a", "b"})
    for cls in (_Posted, _Slotted, _Derived, _WithInitVar, _OwnInit, _NotRecord):
        assert _copyable(cls) is None
    assert replace_frame(_Posted(3), a=5).doubled == 10
    assert replace_frame(_OwnInit(3), b=(1,)) == dataclasses.replace(_OwnInit(3), b=(1,))
    assert replace_frame(_Slotted(1, 2), b=3) == _Slotted(1, 3)
    assert replace_frame(_Plain(1, (2,)), b=(3,)) == _Plain(1, (3,))
    assert replace_frame(_Plain(1)) == _Plain(1)
    with pytest.raises(TypeError):
        replace_frame(_Plain(1), c=2)
    with pytest.raises(ValueError):
        replace_frame(_Derived(1), b=2)  # replace's own refusal of a field out of __init__
