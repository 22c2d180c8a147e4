"""The validation layer's shared parts: a strict pydantic base model, shared field types, and
the translation of pydantic's errors into the project's :class:`DataError`.

Every file format has one model (``scenario_model``, ``scene_model``, ``army_schema``,
``mission_model``, ``position_model``, ``record_model``); loaders call :func:`validate`, whose
error names the file, the path to the field (``units[3].models[0].x``), what was expected and
what was found, and for an unknown key the closest known one ("did you mean").
"""

from __future__ import annotations

import difflib
import re
import typing
from types import UnionType
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic.json_schema import WithJsonSchema

from w40k.core.errors import DataError
from w40k.io import limits

M = TypeVar("M", bound=BaseModel)


class Strict(BaseModel):
    """Base of every format model: unknown keys refused, no type coercion, finite numbers."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False,
                              str_max_length=limits.MAX_LONG_TEXT)


# -- shared field types ---------------------------------------------------------------------------

_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")


def _no_control(value: str) -> str:
    if m := _CONTROL_CHARS.search(value):
        raise ValueError(f"expected text without control characters, found U+{ord(m.group()):04X}"
                         f" at position {m.start()}")
    return value


Text = Annotated[str, Field(min_length=1, max_length=limits.MAX_TEXT, pattern=r"\S"),
                 AfterValidator(_no_control)]
"""A name, keyword or ability: non-empty text of at most MAX_TEXT characters, without control
characters (an ESC in a name would drive the user's terminal)."""
LongText = Annotated[str, Field(min_length=1, max_length=limits.MAX_LONG_TEXT)]
"""Free text (rules text of an ability)."""
Texts = Annotated[list[Text], Field(max_length=limits.MAX_LIST)]
"""A list of names."""
Coord = Annotated[float, Field(ge=-limits.MAX_TABLE_INCHES, le=2 * limits.MAX_TABLE_INCHES)]
"""A coordinate in inches."""
Inches = Annotated[float, Field(ge=0, le=limits.MAX_TABLE_INCHES)]
"""A non-negative length in inches."""
Point = Annotated[list[Coord], Field(min_length=2, max_length=2)]
"""``[x, y]``."""
Polygon = Annotated[list[Point], Field(min_length=3, max_length=limits.MAX_POLYGON_POINTS)]
"""A footprint: at least three corners."""
Characteristic = Annotated[int, Field(ge=1, le=limits.MAX_CHARACTERISTIC)]
"""T, W or S."""


def _dice(value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"expected a number or a dice expression such as D6+1, found "
                         f"{found(value)}")
    if isinstance(value, int):
        if not 0 <= value <= limits.MAX_CHARACTERISTIC:
            raise ValueError(f"expected 0 to {limits.MAX_CHARACTERISTIC}, found {value}")
        return str(value)
    m = re.fullmatch(r"\s*(\d{0,2})\s*[dD]\s*([36])\s*(?:([+-])\s*(\d{1,3}))?\s*|\s*(\d{1,3})\s*",
                     value)
    if not m:
        raise ValueError(f"expected a number or a dice expression such as D6+1, found "
                         f"{found(value)}")
    if m.group(5) is not None and int(m.group(5)) > limits.MAX_CHARACTERISTIC:
        raise ValueError(f"expected 0 to {limits.MAX_CHARACTERISTIC}, found {value}")
    if m.group(1) and int(m.group(1)) > 20:
        raise ValueError(f"expected at most 20 dice, found {value}")
    return value


Dice = Annotated[str, BeforeValidator(_dice), WithJsonSchema({
    "oneOf": [{"type": "integer", "minimum": 0, "maximum": limits.MAX_CHARACTERISTIC},
              {"type": "string", "pattern": r"^\s*([0-9]*\s*[dD]\s*[36]\s*([+-]\s*[0-9]+)?|"
                                            r"[0-9]+)\s*$"}]})]
"""A or D: ``2``, ``"D6"``, ``"D3+1"``, ``"2D6"``."""


def dice_target(lo: int, hi: int) -> BeforeValidator:
    """Checks a dice result such as ``3+`` (or the number 3) between ``lo`` and ``hi``."""

    def check(given: object) -> object:
        value = given
        if isinstance(value, str) and (m := re.fullmatch(r"\s*(\d{1,2})\+?\s*", value)):
            value = int(m.group(1))
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"expected a dice result from {lo}+ to {hi}+, found {found(given)}")
        return value

    return BeforeValidator(check)


def dice_target_schema(lo: int, hi: int) -> WithJsonSchema:
    """The JSON Schema of :func:`dice_target`."""
    return WithJsonSchema({"oneOf": [{"type": "integer", "minimum": lo, "maximum": hi},
                                     {"type": "string", "pattern": r"^\s*[0-9]+\+?\s*$"}]})


def int_or_text(lo: int, hi: int, *, dash: bool = False) -> BeforeValidator:
    """Checks a whole number between ``lo`` and ``hi`` given as a number or as text
    (``"4"``, ``'6"'``), or ``"-"`` (read as None) when ``dash``."""

    def check(given: object) -> object:
        value = given
        if dash and value == "-":
            return None
        if isinstance(value, str) and (m := re.fullmatch(r'\s*([+-]?\d{1,4})"?\s*', value)):
            value = int(m.group(1))
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            extra = ' or "-"' if dash else ""
            raise ValueError(f"expected a whole number from {lo} to {hi}{extra}, found "
                             f"{found(given)}")
        return value

    return BeforeValidator(check)


def int_or_text_schema(lo: int, hi: int, *, dash: bool = False) -> WithJsonSchema:
    """The JSON Schema of :func:`int_or_text`."""
    one: list[dict[str, Any]] = [{"type": "integer", "minimum": lo, "maximum": hi},
                                 {"type": "string", "pattern": r'^\s*[+-]?[0-9]+"?\s*$'}]
    if dash:
        one.append({"const": "-"})
    return WithJsonSchema({"oneOf": one})


# -- errors ---------------------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def found(value: object) -> str:
    """A short, safe description of a found value for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        text = repr(value)
        return text if len(text) <= 30 else f"a number of {len(text)} digits"
    if isinstance(value, str):
        shown = _CONTROL.sub("?", value[:60])
        return f"text {shown!r}" + ("..." if len(value) > 60 else "")
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def field_path(loc: tuple[int | str, ...]) -> str:
    """``("units", 3, "models", 0, "x")`` -> ``units[3].models[0].x``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


_TAG = re.compile(r"^(int|str|float|bool|none|constrained-\w+|function-\w+\[.*\]|list\[.*\]|"
                  r"dict\[.*\]|tuple\[.*\]|literal\[.*\]|[A-Z]\w*)$")


def _known_keys(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The keys the object at ``loc`` may have (for "did you mean")."""
    current: object = model
    for part in loc:
        if isinstance(part, int) or not (isinstance(current, type)
                                         and issubclass(current, BaseModel)):
            current = _inner(current)
            continue
        info = current.model_fields.get(part)
        if info is None:
            alias = next((f for f in current.model_fields.values() if f.alias == part), None)
            if alias is None:
                continue
            info = alias
        current = _inner(info.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return [f.alias or n for n, f in current.model_fields.items()]
    return []


def _inner(tp: object) -> object:
    """The model class inside ``list[X]``, ``X | None``, ``Annotated[X, ...]``."""
    for _ in range(6):
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return tp
        args = typing.get_args(tp)
        if not args:
            return tp
        origin = typing.get_origin(tp)
        if origin is dict:
            tp = args[1]
            continue
        if origin in (typing.Union, UnionType):
            models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
            tp = models[0] if models else args[0]
            continue
        tp = args[0]
    return tp


def to_data_error(exc: ValidationError, model: type[BaseModel], source: str) -> DataError:
    """The first problem of a pydantic error, as a DataError naming the file and field."""
    problems: dict[tuple[int | str, ...], list[str]] = {}
    for err in exc.errors(include_url=False):
        raw = tuple(err["loc"])
        kind = err["type"]
        keep = raw[-1:] if kind == "extra_forbidden" else ()
        loc = tuple(p for p in raw[:len(raw) - len(keep)] if not _is_tag(model, p)) + keep
        if kind == "extra_forbidden":
            key = str(raw[-1])
            known = _known_keys(model, loc[:-1])
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            msg = (f"unknown key {found(key)[5:]}{hint} (expected one of: "
                   f"{', '.join(known)})" if known else f"unknown key {found(key)[5:]}")
        elif kind == "missing":
            msg = "missing (this key is required)"
        else:
            text = str(err["msg"]).removeprefix("Value error, ")
            msg = text if ", found " in text else f"{_expected(text)}, found " \
                f"{found(err.get('input'))}"
        problems.setdefault(loc, [])
        if msg not in problems[loc]:
            problems[loc].append(msg)
    loc, msgs = next(iter(problems.items()))
    more = len(problems) - 1
    detail = " or ".join(msgs) + (f" (and {more} more problem{'s' * (more > 1)})"
                                  if more else "")
    return DataError(detail, where=f"{source}: {field_path(loc)}")


def _is_tag(model: type[BaseModel], part: int | str) -> bool:
    """Whether a location part is pydantic's name of a union member, not a key."""
    if not isinstance(part, str):
        return False
    if any(part == m.__name__ for m in _all_models(model)):
        return True
    return bool(_TAG.match(part)) and not part[:1].isupper()


def _all_models(model: type[BaseModel]) -> list[type[BaseModel]]:
    seen: list[type[BaseModel]] = []
    todo: list[object] = [model]
    while todo:
        tp = todo.pop()
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if tp in seen:
                continue
            seen.append(tp)
            todo.extend(f.annotation for f in tp.model_fields.values())
        else:
            todo.extend(typing.get_args(tp))
    return seen


def _expected(msg: str) -> str:
    """pydantic's "Input should be a valid integer" -> "expected a valid integer"."""
    for word, plain in (("greater than or equal to", "at least"),
                        ("less than or equal to", "at most"), ("greater than", "more than")):
        msg = msg.replace(f"should be {word}", f"should be {plain}")
    msg = msg.replace(" after validation", "").replace("a valid ", "a ")
    for prefix in ("Input should be ", "Input should have ", "String should have ",
                   "String should match ", "List should have ", "Value should have "):
        if msg.startswith(prefix):
            return "expected " + msg[len(prefix):]
    return msg[0].lower() + msg[1:] if msg else "invalid"


def validate(model: type[M], data: object, source: str) -> M:
    """``data`` checked against ``model``; a DataError names ``source`` and the field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise to_data_error(exc, model, source) from None
    except RecursionError:
        raise DataError(f"nested deeper than the limit of {limits.MAX_DEPTH} levels",
                        where=source) from None


class CapacityModel(Strict):
    """A TRANSPORT model's capacity (18.01, docs/positions.md)."""

    models: Annotated[int, Field(ge=1, le=1000)]
    allowed: Texts = ["INFANTRY"]
    excluded: Texts = []
    spaces: Annotated[dict[Text, Annotated[int, Field(ge=1, le=1000)]],
                      Field(max_length=100)] = {}
