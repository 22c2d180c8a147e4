"""Allocation (05.03, 05.04) and mortal-wound model selection (06.02) as decisions."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import cast

from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.core.jsonval import JSON
from w40k.rules.decisions import (
    Decider,
    DecisionKind,
    DecisionRequest,
    Player,
    ask,
    normalise,
)
from w40k.rules.primitives import AllocationGroup, ModelState, default_order, order_violation


def legal_orders(groups: Sequence[AllocationGroup],
                 models: Sequence[ModelState]) -> Iterator[tuple[int, ...]]:
    """Every allocation order 05.03 allows (R05.03-b/c/d/e), the default first."""
    plain = [i for i, g in enumerate(groups) if not g.character]
    wounded_plain = [i for i in plain if groups[i].is_wounded(models)]
    # R05.03-b: a wounded non-CHARACTER group must be first (at most one exists when a
    # unit's models were allocated by the rules; if several, any of them may lead).
    chars_w = [i for i, g in enumerate(groups) if g.character and g.is_wounded(models)]
    chars_u = [i for i, g in enumerate(groups) if g.character and not g.is_wounded(models)]
    default = default_order(groups, models)
    yield default

    def plain_orders() -> Iterator[tuple[int, ...]]:
        for perm in itertools.permutations(plain):
            if wounded_plain and perm and perm[0] not in wounded_plain:
                continue
            yield perm

    for p in plain_orders():
        for cw in itertools.permutations(chars_w):
            for cu in itertools.permutations(chars_u):
                order = (*p, *cw, *cu)
                if order != default:
                    yield order


def choose_order(groups: Sequence[AllocationGroup], models: Sequence[ModelState],
                 decider: Decider) -> tuple[int, ...]:
    """05.03 Allocation Order: the defender declares it (the default keeps the listed order)."""
    options = tuple(legal_orders(groups, models))
    if len(groups) == 1:
        return options[0]
    # Asked even when 05.03 leaves one legal order: the defender still declares it, and a
    # standing order (a scenario's "allocation_order") that breaks 05.03 must be refused.
    labels = tuple(" > ".join(groups[i].label(models) for i in o) for o in options)
    members = tuple(tuple(models[i].name for i in g.alive(models)) for g in groups)
    request = DecisionRequest(
        DecisionKind.ALLOCATION_ORDER, Player.DEFENDER, "R05.03-e",
        "In which order will the allocation groups take attacks?",
        tuple[JSON, ...](list[JSON](o) for o in options), list[JSON](options[0]), labels,
        groups=members)
    return check_order(groups, models, options, normalise(decider.decide(request)))


def check_order(groups: Sequence[AllocationGroup], models: Sequence[ModelState],
                options: Sequence[tuple[int, ...]], choice: JSON) -> tuple[int, ...]:
    """An allocation-order answer as group indices: MalformedChoice for a wrong shape,
    IllegalChoice naming the 05.03 rule it breaks."""
    if not isinstance(choice, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in choice):
        raise MalformedChoice(f"allocation order: expected group indices, got {choice!r}")
    order = tuple(int(cast(int, i)) for i in choice)
    if order not in options:
        why = order_violation(groups, order, models) or ("R05.03-e", "not a legal order")
        named = " > ".join(groups[i].label(models) if 0 <= i < len(groups) else str(i)
                           for i in order)
        raise IllegalChoice(f"allocation order {named}: {why[1]}", rule=why[0])
    return order


def _signature(m: ModelState) -> tuple[object, ...]:
    return (m.W, m.remaining, m.T, m.Sv, m.InSv, m.fnp, m.keys, m.leader)


def choose_model(candidates: Sequence[int], models: Sequence[ModelState], decider: Decider,
                 *, rule: str, player: Player = Player.DEFENDER) -> int:
    """Pick one of the legal models; asked only when the candidates differ in a way that can
    matter (otherwise the first is taken: they are interchangeable)."""
    if len({_signature(models[i]) for i in candidates}) <= 1:
        return candidates[0]
    options = tuple[JSON, ...](candidates)
    choice = ask(decider, DecisionRequest(
        DecisionKind.SELECT_MODEL, player, rule, "Which model takes it?", options, options[0],
        tuple(models[i].name for i in candidates),
    ))
    return int(cast(int, choice))
