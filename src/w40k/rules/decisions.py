"""Decisions the rules give a player during an attack, asked through one interface.

The rules code builds a :class:`DecisionRequest` (who decides, what kind, the rule, the legal
options and the documented default) and asks a :class:`Decider`. A malformed answer raises
:class:`MalformedChoice`, an illegal one :class:`IllegalChoice` naming the rule (STYLE.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from w40k.core.errors import IllegalChoice, MalformedChoice


class DecisionKind(StrEnum):
    """What is being decided."""

    DUPLICATE_ABILITY = "duplicate_ability"
    """24.02: which instance of a duplicated weapon ability applies (attacker)."""
    ALLOCATION_ORDER = "allocation_order"
    """05.03: the order of the allocation groups, a tuple of group indices (defender)."""
    PRECISION = "precision"
    """24.28: which visible CHARACTER group to make current, or None (attacker)."""
    LETHAL_HITS = "lethal_hits"
    """24.23: whether a critical hit wounds automatically, True or False (attacker)."""
    SELECT_MODEL = "select_model"
    """05.04 / 06.02: which of the legal models takes the next attack or mortal wound
    (its index in the unit; controlling player)."""


class Player(StrEnum):
    """Who decides, relative to the attack."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """A question to a player, with everything needed to answer it legally."""

    kind: DecisionKind
    """What is decided."""
    player: Player
    """Who decides."""
    rule: str
    """The checklist ID of the rule that gives the choice."""
    prompt: str
    """A readable question."""
    options: tuple[object, ...]
    """The legal answers (for ALLOCATION_ORDER, every legal order)."""
    default: object
    """The documented default answer (what an unattended run takes)."""
    labels: tuple[str, ...] = ()
    """Readable labels of the options, in the same order."""
    groups: tuple[tuple[str, ...], ...] = ()
    """For ALLOCATION_ORDER: the model names of each allocation group, by group index."""


class Decider(Protocol):
    """Anything that answers decision requests (a person, a script, an AI)."""

    def decide(self, request: DecisionRequest) -> object:
        """The choice for ``request``."""
        ...


class DefaultDecider:
    """Takes every documented default: the command line's unattended mode."""

    def decide(self, request: DecisionRequest) -> object:
        """The request's default."""
        return request.default


@dataclass
class ScriptedDecider:
    """Answers from a function per kind, else the default (used by tests and scenarios)."""

    answers: dict[DecisionKind, Callable[[DecisionRequest], object]]

    def decide(self, request: DecisionRequest) -> object:
        """The scripted answer for the kind, or the default."""
        fn = self.answers.get(request.kind)
        return request.default if fn is None else fn(request)


def ask(decider: Decider, request: DecisionRequest) -> object:
    """Ask, skipping the question when only one answer is legal, and validate the answer."""
    if len(request.options) == 1:
        return request.options[0]
    choice = decider.decide(request)
    if isinstance(choice, list):
        choice = tuple(choice)
    if choice in request.options:
        return choice
    expected = type(request.default)
    if request.default is not None and not isinstance(choice, expected | type(None)):
        raise MalformedChoice(
            f"{request.kind}: expected a {expected.__name__}, got {choice!r}"
        )
    raise IllegalChoice(f"{request.kind}: {choice!r} is not a legal answer ({request.prompt})",
                        rule=request.rule)


def first_index(options: Sequence[object], value: object) -> int:
    """The position of ``value`` among ``options`` (for readable labels)."""
    return list(options).index(value)
