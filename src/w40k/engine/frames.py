"""Typed frames: the shared base of the pending-resolution stack's entries (DESIGN.md "Frames
are typed").

Each frame kind is one frozen dataclass, defined in the module that owns its rule, subclassing
:class:`FrameData` and naming its kind in the ``KIND`` class constant. A frame with steps
holds them as a :class:`~enum.StrEnum` (stable strings), so progress is a value, never "which
keys exist". Handlers never mutate a frame: they make progress by replacing it
(``ctx.replace(frame, dataclasses.replace(frame, ...))``, engine/context.py), which is also why
``GameState.clone`` can share frames between copies.

The position form is unchanged (docs/positions.md): ``{"kind": ..., "data": {...}}`` with one
data key per field. The codec here reads and writes the field types frames use: ``str``,
``int``, ``float``, ``bool``, a ``StrEnum``, ``X | None``, ``tuple[X, ...]`` (a JSON list),
``tuple[X, Y]`` (a JSON list of that length), ``dict[str, X]`` (a JSON object, never
mutated), a nested frozen :class:`Record`, and ``JSON`` (kept as JSON). A missing key takes
the field's default (older saves wrote no key for "not yet"); a key that is not a field, or a
value of the wrong type, is a :class:`DataError` naming the key.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import types
import typing
from collections.abc import Callable
from enum import StrEnum
from typing import Any, ClassVar, Self, cast

from w40k.core.errors import DataError
from w40k.core.jsonval import JSON, json_kind

_Codec = tuple[Callable[[Any], JSON], Callable[[JSON, str], Any]]
"""(encode, decode(value, where)) of one field type."""


class Record:
    """A frozen dataclass with the JSON codec of this module (frames and their parts)."""

    __slots__ = ()

    def to_json(self) -> dict[str, JSON]:
        """The JSON object: one key per field."""
        return {name: enc(getattr(self, name)) for name, (enc, _) in _codecs(type(self))}

    @classmethod
    def from_json(cls, data: JSON, where: str = "data") -> Self:
        """Read the JSON object (DataError naming ``where`` and the key when malformed)."""
        if not isinstance(data, dict):
            raise DataError(f"expected an object, got {json_kind(data)}", where=where)
        data = cls.legacy(data)
        table = dict(_codecs(cls))
        for key in data:
            if key not in table:
                raise DataError(f"unknown key {key!r} (known: {', '.join(table)})",
                                where=f"{where}.{key}")
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cast(Any, cls)):
            if f.name in data:
                values[f.name] = table[f.name][1](data[f.name], f"{where}.{f.name}")
            elif (f.default is dataclasses.MISSING
                  and f.default_factory is dataclasses.MISSING):
                raise DataError("missing key", where=f"{where}.{f.name}")
        try:
            return cls(**values)
        except (TypeError, ValueError) as e:
            raise DataError(str(e), where=where) from e

    @classmethod
    def legacy(cls, data: dict[str, JSON]) -> dict[str, JSON]:
        """Override to read an older form of the data (keys renamed or derived)."""
        return data


class FrameData(Record):
    """The base of every frame kind: ``KIND`` names the handler (engine/table.py)."""

    __slots__ = ()
    KIND: ClassVar[str] = ""
    """The frame kind (the position's ``kind``)."""

    @property
    def kind(self) -> str:
        """The frame kind (``KIND``)."""
        return self.KIND

    @property
    def data(self) -> dict[str, JSON]:
        """The position form of the data (a fresh copy: reading it changes nothing)."""
        return self.to_json()

    def frame_json(self) -> dict[str, JSON]:
        """The position form: ``{"kind": ..., "data": {...}}``."""
        return {"kind": self.KIND, "data": self.to_json()}


_R = typing.TypeVar("_R", bound=Record)

_COPYABLE: dict[type, frozenset[str] | None] = {}
"""Per record class (classes only, never game objects): its field names when
:func:`replace_frame` may copy an instance's attributes, else None."""


def _copyable(cls: type) -> frozenset[str] | None:
    """The field names of ``cls`` when ``dataclasses.replace`` of an instance is exactly a copy
    of its attributes with the changes: a dataclass :class:`Record` whose instances keep their
    attributes in a ``__dict__`` (no slots), made by ``object.__new__`` and the dataclass's own
    ``__init__`` (compiled by ``dataclasses``: its file is ``<string>``) whose arguments are
    exactly the fields (no ``InitVar``), and no ``__post_init__``."""
    if cls not in _COPYABLE:
        names: frozenset[str] | None = None
        init = cast(Any, cls).__init__
        code = getattr(init, "__code__", None)
        if (dataclasses.is_dataclass(cls) and issubclass(cls, Record)
                and cls.__dictoffset__ != 0 and cls.__new__ is object.__new__
                and not hasattr(cls, "__post_init__")
                and code is not None and code.co_filename == "<string>"):
            fields = [f.name for f in dataclasses.fields(cast(Any, cls))]
            params = list(inspect.signature(init).parameters)[1:]
            if params == fields:
                names = frozenset(fields)
        _COPYABLE[cls] = names
    return _COPYABLE[cls]


def replace_frame(frame: _R, /, **changes: Any) -> _R:
    """``dataclasses.replace(frame, **changes)``: a frame moves on by a replaced copy at
    nearly every step, and ``replace`` reads the class's fields, builds a keyword dict and
    calls the frozen ``__init__`` (one ``object.__setattr__`` per field) each time. For a
    plain frame class (:func:`_copyable`) this copies the instance's attributes (its fields:
    a frozen instance holds nothing else) and sets the changes; any other class, or a change
    that names no field (``replace``'s TypeError), goes through ``replace``."""
    cls = type(frame)
    names = _COPYABLE[cls] if cls in _COPYABLE else _copyable(cls)
    if names is None or not changes.keys() <= names:
        return dataclasses.replace(cast(Any, frame), **changes)  # type: ignore[no-any-return]
    out: _R = object.__new__(cls)
    fields = out.__dict__
    fields.update(frame.__dict__)
    fields.update(changes)
    return out


# -- the codec -------------------------------------------------------------------------------
_CACHE: dict[type, list[tuple[str, _Codec]]] = {}


def _codecs(cls: type) -> list[tuple[str, _Codec]]:
    hit = _CACHE.get(cls)
    if hit is None:
        hints = typing.get_type_hints(cls)
        hit = [(f.name, _codec(hints[f.name], f"{cls.__name__}.{f.name}"))
               for f in dataclasses.fields(cast(Any, cls))]
        _CACHE[cls] = hit
    return hit


def _fail(expected: str, value: JSON, where: str) -> DataError:
    return DataError(f"expected {expected}, got {json_kind(value)} {value!r}"[:200], where=where)


def _same(v: Any) -> JSON:
    return cast(JSON, v)


def _is_json(hint: Any) -> bool:
    """The ``JSON`` alias (get_type_hints rebuilds it, so compare its parts)."""
    return (typing.get_origin(hint) in (types.UnionType, typing.Union)
            and {bool, int, float, str, type(None)} <= set(typing.get_args(hint)))


def _codec(hint: Any, name: str) -> _Codec:
    if hint is JSON or _is_json(hint):
        def dec_json(v: JSON, where: str) -> Any:
            return copy.deepcopy(v)
        return (lambda v: copy.deepcopy(cast(JSON, v))), dec_json
    if hint is str:
        def dec_str(v: JSON, where: str) -> Any:
            if not isinstance(v, str):
                raise _fail("a string", v, where)
            return v
        return _same, dec_str
    if hint is bool:
        def dec_bool(v: JSON, where: str) -> Any:
            if not isinstance(v, bool):
                raise _fail("true or false", v, where)
            return v
        return _same, dec_bool
    if hint is int:
        def dec_int(v: JSON, where: str) -> Any:
            if isinstance(v, bool) or not isinstance(v, int):
                raise _fail("a whole number", v, where)
            return v
        return _same, dec_int
    if hint is float:
        def dec_float(v: JSON, where: str) -> Any:
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise _fail("a number", v, where)
            return float(v)
        return _same, dec_float
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        enum = hint

        def dec_enum(v: JSON, where: str) -> Any:
            try:
                return enum(cast(str, v))
            except ValueError:
                raise _fail(f"one of {', '.join(repr(e.value) for e in enum)}", v,
                            where) from None
        return (lambda v: str(v)), dec_enum
    if isinstance(hint, type) and issubclass(hint, Record):
        rec = hint
        return (lambda v: cast(Record, v).to_json()), (lambda v, where: rec.from_json(v, where))
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            enc, dec = _codec(rest[0], name)

            def dec_opt(v: JSON, where: str) -> Any:
                return None if v is None else dec(v, where)
            return (lambda v: None if v is None else enc(v)), dec_opt
    if origin is tuple and args and args[-1] is not Ellipsis:
        parts = [_codec(a, name) for a in args]

        def dec_fixed(v: JSON, where: str) -> Any:
            if not isinstance(v, list) or len(v) != len(parts):
                raise _fail(f"a list of {len(parts)}", v, where)
            return tuple(p[1](x, f"{where}[{i}]") for i, (p, x) in enumerate(zip(parts, v,
                                                                                 strict=True)))
        return (lambda v: [p[0](x) for p, x in zip(parts, v, strict=True)]), dec_fixed
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        enc_i, dec_i = _codec(args[0], name)

        def dec_tuple(v: JSON, where: str) -> Any:
            if not isinstance(v, list):
                raise _fail("a list", v, where)
            return tuple(dec_i(x, f"{where}[{i}]") for i, x in enumerate(v))
        return (lambda v: [enc_i(x) for x in v]), dec_tuple
    if origin is dict and args and args[0] is str:
        enc_v, dec_v = _codec(args[1], name)

        def dec_dict(v: JSON, where: str) -> Any:
            if not isinstance(v, dict):
                raise _fail("an object", v, where)
            return {str(k): dec_v(x, f"{where}.{k}") for k, x in v.items()}
        return (lambda v: {k: enc_v(x) for k, x in v.items()}), dec_dict
    raise TypeError(f"{name}: no frame codec for {hint!r}")
