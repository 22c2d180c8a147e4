"""Starting strength and half-strength (Rules Appendix): the pure helpers and loaded units."""

from __future__ import annotations

import pytest

from w40k.io.army import Strength, builtin, strength, strength_of
from w40k.rules.primitives import ModelState
from w40k.rules.strength import (
    is_at_half_strength,
    is_below_half_strength,
    is_below_starting_strength,
)

NEITHER = Strength(below_starting=True, at_half=False, below_half=False)
AT_HALF = Strength(below_starting=True, at_half=True, below_half=False)
BELOW_HALF = Strength(below_starting=True, at_half=False, below_half=True)
FULL = Strength(below_starting=False, at_half=False, below_half=False)


def models(n: int, destroyed: int = 0, W: int = 1) -> list[ModelState]:
    alive = [ModelState(f"M{i}", W=W) for i in range(n - destroyed)]
    return alive + [ModelState(f"X{i}", W=W, wounds_lost=W) for i in range(destroyed)]


def test_starting_strength_is_the_number_of_models_mustered() -> None:
    # RA-Strength-a: the starting strength of a unit as mustered is all of its models; an
    # attached unit counts every component (R19.02-d).
    army = builtin("space_marines").army
    assert army is not None
    assert [u.starting_strength for u in army.units] == [6, 1]
    boyz = builtin("boyz").army
    assert boyz is not None and boyz.units[0].starting_strength == 10


def test_starting_strength_is_what_the_caller_records_not_what_the_unit_had_before() -> None:
    # RA-Strength-a: a unit that lost a model before round 1 starts at 9, so 9 models left is
    # not below starting strength.
    assert strength_of(9, models(9)) == FULL
    assert strength_of(10, models(9)) == NEITHER


@pytest.mark.parametrize(
    ("start", "left", "expected"),
    [
        (10, 10, FULL),
        (10, 5, AT_HALF),
        (10, 4, BELOW_HALF),
        (10, 6, NEITHER),
        (5, 3, NEITHER),
        (5, 2, BELOW_HALF),
        (2, 1, AT_HALF),
        (2, 0, BELOW_HALF),
    ],
)
def test_units_of_two_or_more_models_are_judged_by_models_left(
    start: int, left: int, expected: Strength
) -> None:
    # RA-Strength-b: exactly half is 'at half'; an odd starting strength is never at half.
    assert strength(start, left) == expected
    assert strength_of(start, models(start, destroyed=start - left)) == expected


@pytest.mark.parametrize(
    ("W", "remaining", "expected"),
    [
        (10, 10, FULL),
        (10, 5, AT_HALF),
        (11, 5, BELOW_HALF),
        (11, 6, NEITHER),
        (10, 4, BELOW_HALF),
        (1, 1, FULL),
    ],
)
def test_a_single_model_unit_is_judged_by_its_wounds(
    W: int, remaining: int, expected: Strength
) -> None:
    # RA-Strength-c: W10 with 5 left -> at half; W11 with 5 -> below (5 < 5.5); 6 -> neither.
    assert strength(1, 1, W=W, wounds_remaining=remaining) == expected
    assert strength_of(1, [ModelState("Big", W=W, wounds_lost=W - remaining)]) == expected


def test_below_starting_strength_means_fewer_models_or_a_wounded_lone_model() -> None:
    # RA-Strength-d
    assert is_below_starting_strength(10, models(10, destroyed=1))
    assert not is_below_starting_strength(10, models(10))
    assert is_below_starting_strength(1, [ModelState("Captain", W=5, wounds_lost=1)])
    assert not is_below_starting_strength(1, [ModelState("Captain", W=5)])


def test_a_destroyed_single_model_is_below_half_strength() -> None:
    # RA-Strength-c
    assert strength_of(1, [ModelState("Captain", W=5, wounds_lost=5)]) == BELOW_HALF


def test_the_rulebook_example_captain_and_five_intercessors() -> None:
    # RA-Strength-e: starting strength 6; 3 Intercessors dead -> at half; 4 -> below half;
    # all 5 dead -> the unhurt Captain alone is below half.
    army = builtin("space_marines").army
    assert army is not None
    unit = army.units[0]
    start = unit.starting_strength
    states = list(unit.to_model_states())
    bodyguard = [i for i, s in enumerate(states) if not s.leader]

    def after(dead: int) -> list[ModelState]:
        return [s.losing(s.W) if i in bodyguard[:dead] else s for i, s in enumerate(states)]

    assert start == 6
    assert is_at_half_strength(start, after(3))
    assert not is_below_half_strength(start, after(3))
    assert is_below_half_strength(start, after(4))
    captain_alone = after(5)
    assert [s.name for s in captain_alone if not s.destroyed] == ["Captain"]
    assert captain_alone[-1].remaining == 5
    assert is_below_half_strength(start, captain_alone)
    assert strength_of(start, captain_alone).at_or_below_half


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((0, 0), {}, "a starting strength is at least 1, got 0"),
        ((5, 6), {}, "models remaining must be 0..5, got 6"),
        ((1, 1), {}, "a unit with starting strength 1 is judged by W and wounds remaining"),
        ((1, 1), {"W": 3, "wounds_remaining": 4}, "wounds remaining must be 0..3, got 4"),
    ],
)
def test_impossible_strength_questions_are_refused(
    args: tuple[int, int], kwargs: dict[str, int], message: str
) -> None:
    with pytest.raises(ValueError) as info:
        strength(*args, **kwargs)
    assert str(info.value) == message
