"""Decision requests in a battle: the rules layer's one :class:`DecisionRequest` type, built
here with the player's name (``Game.pending()`` numbers them)."""

from __future__ import annotations

from w40k.core.jsonval import JSON
from w40k.rules.decisions import DecisionKind, DecisionRequest

Request = DecisionRequest
"""The engine's name for the one request type (``w40k.DecisionRequest``)."""

K = DecisionKind
"""Shorthand for the request kinds."""


def request(player: str, kind: DecisionKind, rule: str, prompt: str,
            options: tuple[JSON, ...] = (), *, free_form: str = "",
            context: dict[str, JSON] | None = None, labels: tuple[str, ...] = (),
            default: JSON = None) -> DecisionRequest:
    """A request to ``player`` (docs/battle.md lists each kind's answer shape)."""
    return DecisionRequest(kind, player, rule, prompt, options, default, labels, free_form,
                           dict(context or {}))
