"""``Game.submit``'s own copy of an answer and ``Game.pending``'s numbered request, written out
for speed: each must be what ``copy.deepcopy`` and ``dataclasses.replace`` give (01.03: one
request per choice, numbered across save and load)."""

from __future__ import annotations

import copy
import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from w40k.core.jsonval import JSON
from w40k.engine.game import _copy_answer, _numbered
from w40k.rules.decisions import DecisionKind, DecisionRequest

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=3), kids,
                                                                 max_size=4),
    max_leaves=20)


def _same_shape(a: object, b: object) -> bool:
    """Equal, of the same types all the way down (True == 1 and 1.0 == 1 are not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same_shape(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same_shape(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _containers(v: object) -> list[int]:
    if isinstance(v, dict):
        return [id(v), *(i for x in v.values() for i in _containers(x))]
    if isinstance(v, list):
        return [id(v), *(i for x in v for i in _containers(x))]
    return []


@given(_JSON)
def test_an_answers_copy_is_deepcopys_and_shares_no_container(value: JSON) -> None:
    got = _copy_answer(value)
    assert _same_shape(got, copy.deepcopy(value))
    assert not set(_containers(got)) & set(_containers(value))


def test_an_answer_that_is_not_plain_json_is_copied_by_deepcopy_itself() -> None:
    shared: list[JSON] = [1, 2]
    for value in ({"a": shared, "b": shared}, [shared, shared], {"t": (1, [2])}, {1: "int key"},
                  [1.5, (2, "x")]):
        assert _same_shape(_copy_answer(value), copy.deepcopy(value))  # type: ignore[arg-type]
    kept = _copy_answer({"a": shared, "b": shared})
    assert isinstance(kept, dict) and kept["a"] is kept["b"]  # deepcopy keeps the sharing
    assert kept["a"] is not shared
    cyclic: list[object] = [1]
    cyclic.append(cyclic)
    got = _copy_answer([cyclic])  # type: ignore[list-item]
    assert isinstance(got, list) and isinstance(got[0], list)
    assert got[0] is not cyclic and got[0][1] is got[0]


def test_a_numbered_request_is_dataclasses_replace_with_the_number() -> None:
    # every field set to something other than its default
    asked = DecisionRequest(DecisionKind.ALLOCATION_ORDER, "red", "R05.04-a", "order?",
                            ("a", "b"), "a", ("A", "B"), "free", {"k": [1]}, (("m1",),), 3)
    got = _numbered(asked, 17)
    assert got == dataclasses.replace(asked, id=17) and type(got) is DecisionRequest
    assert all(getattr(got, f.name) is getattr(asked, f.name)
               for f in dataclasses.fields(DecisionRequest) if f.name != "id")
    assert got.id == 17 and asked.id == 3

    @dataclasses.dataclass(frozen=True, slots=True)
    class Sub(DecisionRequest):
        extra: int = 5

    sub = Sub(DecisionKind.ALLOCATION_ORDER, "red", "R", "p", extra=9)
    assert _numbered(sub, 4) == Sub(DecisionKind.ALLOCATION_ORDER, "red", "R", "p", id=4,
                                    extra=9)
