"""Allocation (05.03, 05.04) and mortal-wound model selection (06.02) as decisions: the legal
allocation orders and their check, and the standing Select Model policies. Whether Select
Model is asked at all is :func:`w40k.rules.primitives.interchangeable` (one rule for attacks,
mortal wounds, hazards, Deadly Demise and the Monte Carlo path)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from enum import StrEnum
from typing import cast

from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.core.jsonval import JSON
from w40k.rules.decisions import DecisionKind, DecisionRequest
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


class AllocationPolicy(StrEnum):
    """A standing answer a player may give to Select Model requests (05.04, 06.02), so that
    they are answered without asking (issue 9: one decision per attack for agents that want
    it). Any policy only picks among the legal candidates the request lists."""

    LISTED = "listed"
    """The first candidate, in the unit's order."""
    CLOSEST_FIRST = "closest_first"
    """The candidate closest to a given point (the attacker, say); ties and models with no
    known position go by the unit's order, positioned models first."""


def policy_answer(policy: AllocationPolicy | str, request: DecisionRequest,
                  models: Sequence[ModelState],
                  origin: tuple[float, float] | None = None) -> JSON:
    """The answer ``policy`` gives to a SELECT_MODEL ``request``. Its options are indices
    into ``models`` (the rules layer) or model names (a game's model ids): both are read.
    MalformedChoice for another kind of request, an unknown policy, or a missing origin."""
    if request.kind is not DecisionKind.SELECT_MODEL:
        raise MalformedChoice(f"an allocation policy answers select_model, not {request.kind}")
    try:
        pol = AllocationPolicy(str(policy))
    except ValueError:
        raise MalformedChoice(f"unknown allocation policy {policy!r} (known: "
                              f"{', '.join(p.value for p in AllocationPolicy)})") from None
    if not request.options:
        raise MalformedChoice("select_model request without candidates")
    if pol is AllocationPolicy.LISTED:
        return request.options[0]
    if origin is None:
        raise MalformedChoice("closest_first needs the point to measure from")
    by_name = {m.name: m for m in models}

    def model(option: JSON) -> ModelState:
        if isinstance(option, int) and not isinstance(option, bool):
            return models[option]
        return by_name[str(option)]

    def key(k: int) -> tuple[int, float, int]:
        pos = model(request.options[k]).position
        if pos is None:
            return (1, 0.0, k)
        return (0, math.hypot(pos[0] - origin[0], pos[1] - origin[1]), k)

    return request.options[min(range(len(request.options)), key=key)]
