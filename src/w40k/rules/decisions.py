"""The one decision boundary: every choice a player makes, in an attack or in a battle, is a
:class:`DecisionRequest` (who decides, what kind, the rule, the legal answers or the shape of
a free-form answer, the documented default) answered with a JSON value.

The rules layer asks a :class:`Decider` (``resolve_attack``) with ``player`` set to the role
(``attacker``/``defender``); the engine asks through ``Game.pending()`` with the same type,
``player`` set to the player's name and ``id`` numbering the game's requests. A malformed
answer raises :class:`MalformedChoice`, an illegal one :class:`IllegalChoice` naming the rule
(STYLE.md "One boundary").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.core.jsonval import JSON, json_kind


class DecisionKind(StrEnum):
    """What is decided. The string values are stable: game records and positions hold them
    (docs/battle.md lists each kind's answer shape)."""

    # -- the attack sequence (rules layer) ----------------------------------------------
    DUPLICATE_ABILITY = "duplicate_ability"
    """24.02: which instance of a duplicated weapon ability applies (attacker); a string."""
    ALLOCATION_ORDER = "allocation_order"
    """05.03: the order of the allocation groups, a list of group indices (defender)."""
    PRECISION = "precision"
    """24.28: which visible CHARACTER group to make current, an index or null (attacker)."""
    LETHAL_HITS = "lethal_hits"
    """24.23: whether a critical hit wounds automatically, true or false (attacker)."""
    SELECT_MODEL = "select_model"
    """05.04 / 06.02: which of the legal models takes the next attack or mortal wound
    (its index in the unit, or its model id in a battle; the controlling player)."""
    # -- the battle (engine) ------------------------------------------------------------
    SELECT_UNIT_TO_MOVE = "select_unit_to_move"
    """09.02: a unit id."""
    MOVE_TYPE = "move_type"
    """09.02: remain_stationary | normal | advance | fall_back_ordered | fall_back_desperate."""
    TAKE_TO_SKIES = "take_to_skies"
    """21.03: true or false."""
    POSITIONS = "positions"
    """03.01: free-form waypoints per model (docs/battle.md), or cancel/fail."""
    SELECT_UNIT_TO_SHOOT = "select_unit_to_shoot"
    """10.02: a unit id or done."""
    SHOOTING_TYPE = "shooting_type"
    """10.02: normal or the [PISTOL]/BIG GUNS alternatives."""
    DECLARE_SHOOTING = "declare_shooting"
    """04.02: weapons and targets."""
    SELECT_UNIT_TO_CHARGE = "select_unit_to_charge"
    """11.02: a unit id or done."""
    CHARGE_TARGETS = "charge_targets"
    """11.04: a list of enemy unit ids, or fail."""
    SELECT_UNIT_TO_FIGHT = "select_unit_to_fight"
    """12.02: a unit id (or pass)."""
    FIGHT_TYPE = "fight_type"
    """12.06: normal or overrun."""
    DECLARE_FIGHT = "declare_fight"
    """04.02: melee weapons and targets."""
    SELECT_UNIT_TO_PILE_IN = "select_unit_to_pile_in"
    """12.03: a unit id or done."""
    PILE_IN_TARGETS = "pile_in_targets"
    """12.03: the enemy units to pile in towards."""
    SELECT_UNIT_TO_CONSOLIDATE = "select_unit_to_consolidate"
    """12.08: a unit id or done."""
    CONSOLIDATE_TARGETS = "consolidate_targets"
    """12.08: the enemy units to consolidate towards."""
    CONSOLIDATE_OBJECTIVE = "consolidate_objective"
    """12.08: the objective to consolidate towards."""
    REMOVE_FOR_COHERENCY = "remove_for_coherency"
    """03.03: which model is removed (a model id)."""
    REACTION = "reaction"
    """A reaction window (docs/battle.md "Windows"): which usable rule to use, or decline."""
    SET_UP = "set_up"
    """03.02 (ingress 20.04, disembark 18.04): free-form ``{model id: [x, y] | [x, y, z]}``
    for every living model of the unit, or cancel."""
    EMBARK = "embark"
    """18.02: the TRANSPORT unit to embark within after this move, or ``no``."""
    FIRING_DECK = "firing_deck"
    """24.14: free-form ``[[embarked model id, ranged weapon name], ...]``, at most X pairs,
    one per model: the weapons the TRANSPORT shoots with too."""
    DECLARE_FORMATIONS = "declare_formations"
    """Declare Battle Formations (18.01, 20.01, 23.01): free-form ``{"reserves": [unit
    ids], "embarked": {unit id: transport unit id}}``."""
    DEPLOY = "deploy"
    """Deployment (03.02, 24.20): free-form ``{"unit": id, "models": {model id: [x, y]}}``."""
    FIRST_TURN = "first_turn"
    """07.02 (a mission's ``roll-off-choice``): the roll-off's winner names the player who
    takes the first turn."""
    SCOUT = "scout"
    """Resolve Pre-battle Abilities (24.31): free-form ``{"unit": id, "models": {...}}`` (a
    reserve unit set up in its zone), ``{"unit": id, "positions": {...}}`` (a scout move), or
    ``done``."""


class Player(StrEnum):
    """Who decides, relative to an attack (the engine replaces it with the player's name)."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


DECLINE = "decline"
"""The answer that declines a reaction window."""


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """A question to a player, with everything needed to answer it legally."""

    kind: DecisionKind
    """What is decided."""
    player: str
    """Who decides: a :class:`Player` role in the rules layer, the player's name in a game."""
    rule: str
    """The checklist ID (or section) of the rule that gives the choice."""
    prompt: str
    """A readable question."""
    options: tuple[JSON, ...] = ()
    """The legal answers when they can be listed (for ALLOCATION_ORDER, every legal order);
    empty for a free-form answer."""
    default: JSON = None
    """The documented default answer (what an unattended run takes); None when there is none
    beyond the first option."""
    labels: tuple[str, ...] = ()
    """Readable labels of the options, in the same order."""
    free_form: str = ""
    """For a free-form answer, the name of its shape (``positions``); validated on submit."""
    context: dict[str, JSON] = field(default_factory=dict)
    """Details a player needs (unit id, maximum distance, the attack's units, ...)."""
    groups: tuple[tuple[str, ...], ...] = ()
    """For ALLOCATION_ORDER: the model names of each allocation group, by group index."""
    id: int = 0
    """In a game: the request's number (increasing within the game); 0 outside a game."""

    def remade(self, player: str, context: dict[str, JSON], id: int) -> DecisionRequest:
        """``dataclasses.replace(self, player=player, context=context, id=id)``: the
        constructor called with the fields in order (:data:`_FIELDS`, checked at import),
        without ``replace``'s per-field lookups and keyword dict (made at every decision). A
        subclass goes through ``replace``."""
        if type(self) is not DecisionRequest:
            return dataclasses.replace(self, player=player, context=context, id=id)
        return DecisionRequest(self.kind, player, self.rule, self.prompt, self.options,
                               self.default, self.labels, self.free_form, context,
                               self.groups, id)

    def to_json(self) -> dict[str, JSON]:
        """The request as JSON (the kind as its stable string)."""
        return {"id": self.id, "player": self.player, "kind": str(self.kind),
                "rule": self.rule, "prompt": self.prompt, "options": list(self.options),
                "default": self.default, "free_form": self.free_form,
                "context": dict(self.context), "labels": list[JSON](self.labels),
                "groups": [list[JSON](g) for g in self.groups]}

    def accepts(self, choice: JSON) -> bool:
        """Whether ``choice`` is one of the listed options (same JSON kind and value: ``1``
        is not ``true``)."""
        return any(choice == o and json_kind(choice) == json_kind(o) for o in self.options)

    def check(self, choice: JSON) -> None:
        """Refuse an answer that is not one of the listed options: MalformedChoice when its
        shape is wrong, IllegalChoice naming the rule when it is a well-formed but illegal
        answer. Free-form requests are checked by their own rule code."""
        if not self.options or self.accepts(choice):
            return
        kinds = {json_kind(o) for o in self.options}
        if json_kind(choice) not in kinds:
            raise MalformedChoice(f"{self.kind}: expected a {' or '.join(sorted(kinds))}, "
                                  f"got {choice!r}")
        raise IllegalChoice(f"{self.kind}: {choice!r} is not a legal answer ({self.prompt})",
                            rule=self.rule)


_FIELDS = ("kind", "player", "rule", "prompt", "options", "default", "labels", "free_form",
           "context", "groups", "id")
"""DecisionRequest's fields in order (:meth:`DecisionRequest.remade` passes them so)."""
assert tuple(f.name for f in dataclasses.fields(DecisionRequest)) == _FIELDS
assert all(f.init for f in dataclasses.fields(DecisionRequest))


class Decider(Protocol):
    """Anything that answers decision requests (a person, a script, an AI)."""

    def decide(self, request: DecisionRequest) -> JSON:
        """The choice for ``request``."""
        ...


class DefaultDecider:
    """Takes every documented default: the command line's unattended mode."""

    def decide(self, request: DecisionRequest) -> JSON:
        """The request's default (the first option when it has none)."""
        if request.default is None and request.options and None not in request.options:
            return request.options[0]
        return request.default


@dataclass
class ScriptedDecider:
    """Answers from a function per kind, else the default (used by tests and scenarios)."""

    answers: dict[DecisionKind, Callable[[DecisionRequest], JSON]]

    def decide(self, request: DecisionRequest) -> JSON:
        """The scripted answer for the kind, or the default."""
        fn = self.answers.get(request.kind)
        return DefaultDecider().decide(request) if fn is None else fn(request)


def normalise(choice: object) -> JSON:
    """A Python answer as JSON (tuples become lists), so deciders may answer ``(0, 1)``."""
    if isinstance(choice, tuple | list):
        return [normalise(c) for c in choice]
    if choice is None or isinstance(choice, bool | int | float | str):
        return choice
    if isinstance(choice, dict):
        return {str(k): normalise(v) for k, v in choice.items()}
    raise MalformedChoice(f"not a JSON value: {choice!r}")


def ask(decider: Decider, request: DecisionRequest) -> JSON:
    """Ask, skipping the question when only one answer is legal, and validate the answer."""
    if len(request.options) == 1:
        return request.options[0]
    choice = normalise(decider.decide(request))
    request.check(choice)
    return choice
