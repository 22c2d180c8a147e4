"""Transports (18): capacity, who may embark, and how a unit disembarks.

A TRANSPORT datasheet gives its capacity as data (:class:`w40k.core.transport.Capacity`):
how many models, which keywords may embark, which may not, and the models that take more
than one space. The checks return the rules broken (empty = allowed) so that the engine can
refuse an answer with the rule's ID and a proposer can keep only allowed ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from w40k.core.transport import Capacity
from w40k.geometry.measure import within
from w40k.geometry.shapes import Model

EMBARK_DISTANCE = 3.0
"""18.02: every model within 3" of the transport."""


def spaces_needed(capacity: Capacity, unit: Sequence[frozenset[str]]) -> int | None:
    """The spaces a whole unit takes (one keyword set per model), or None if some model
    cannot embark (18.01: the whole unit embarks or none of it)."""
    total = 0
    for keywords in unit:
        n = capacity.spaces_for(keywords)
        if n is None:
            return None
        total += n
    return total


def capacity_violations(capacity: Capacity, embarked: Sequence[Sequence[frozenset[str]]],
                        unit: Sequence[frozenset[str]]) -> list[str]:
    """18.01: ``unit`` may join the units already ``embarked`` only if each of its models may
    embark and the spaces left hold the whole unit."""
    need = spaces_needed(capacity, unit)
    if need is None:
        return ["R18.01-a: a model of this unit cannot embark in this transport"]
    used = 0
    for other in embarked:
        used += spaces_needed(capacity, other) or 0
    if used + need > capacity.models:
        return [f"R18.01-a: the unit needs {need} spaces and {capacity.models - used} of "
                f"{capacity.models} are left"]
    return []


def embark_violations(models: Sequence[Model], transport: Model, *, battle_round: int,
                      set_up_this_turn: bool, move: str) -> list[str]:
    """18.02: after a normal, advance or fall-back move, from the first battle round on
    (never after a scout move, R18.02-c), every model within 3" of the transport, and not set
    up on the battlefield this turn. Capacity is :func:`capacity_violations`."""
    out: list[str] = []
    if battle_round < 1 or move not in ("normal", "advance", "fall_back"):
        out.append(f"R18.02-c: a unit embarks only after a normal, advance or fall-back move "
                   f"once the first battle round has started (not after a {move} move)")
    if set_up_this_turn:
        out.append("R18.02-a: the unit was set up on the battlefield this turn")
    far = [m.name for m in models if not within(m, transport, EMBARK_DISTANCE)]
    if far:
        out.append(f"R18.02-a: {', '.join(far)} not within 3\" of {transport.name}")
    return out


class DisembarkMode(StrEnum):
    """18.04 disembark modes (stable strings)."""

    RAPID = "rapid"
    """3"; the transport made a normal or ingress move this phase."""
    TACTICAL = "tactical"
    """3"; the transport remained stationary or has not yet been selected to move."""
    COMBAT = "combat"
    """6", with a hazard roll for each model."""


class TransportMove(StrEnum):
    """What the transport has done this phase (18.04 reads it)."""

    NOT_SELECTED = "not_selected"
    STATIONARY = "stationary"
    NORMAL = "normal"
    INGRESS = "ingress"
    ADVANCE = "advance"
    FALL_BACK = "fall_back"


def disembark_violations(*, transport_on_battlefield: bool, embarked_this_phase: bool,
                         transport_move: TransportMove, active_player: bool,
                         phase: str) -> list[str]:
    """18.03 / 18.04 Eligible if: in its controller's Movement phase, from a transport on the
    battlefield, not embarked this phase, and the transport has not advanced or fallen
    back this phase."""
    out: list[str] = []
    if phase != "movement" or not active_player:
        out.append("R18.03-a: units disembark only in their controller's Movement phase")
    if not transport_on_battlefield:
        out.append("R18.04-a: the transport is not on the battlefield")
    if embarked_this_phase:
        out.append("R18.04-a: the unit embarked this phase")
    if transport_move in (TransportMove.ADVANCE, TransportMove.FALL_BACK):
        out.append(f"R18.04-a: the transport made a {transport_move.value.replace('_', '-')} "
                   f"move this phase")
    return out


def disembark_mode(transport_move: TransportMove, can_set_up_within_3: bool) -> DisembarkMode:
    """18.04 Before moving: the mode the rules force, in order (R18.04-b)."""
    if transport_move in (TransportMove.NORMAL, TransportMove.INGRESS):
        return DisembarkMode.RAPID
    if transport_move in (TransportMove.STATIONARY, TransportMove.NOT_SELECTED) \
            and can_set_up_within_3:
        return DisembarkMode.TACTICAL
    return DisembarkMode.COMBAT


def set_up_distance(mode: DisembarkMode) -> float:
    """18.04 Set-up distance of a mode."""
    return 6.0 if mode is DisembarkMode.COMBAT else 3.0
