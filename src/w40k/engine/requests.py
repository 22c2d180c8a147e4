"""Decision requests of the game engine: who decides what, under which rule, from which
legal answers (or against which constraints, for free-form answers such as positions)."""

from __future__ import annotations

from dataclasses import dataclass, field

from w40k.engine.serial import JSON


@dataclass(frozen=True)
class Request:
    """A question to one player. Answers are JSON values, so a game record can hold them."""

    player: str
    """The player who decides."""
    kind: str
    """What is decided (``select_unit_to_move``, ``move_type``, ``positions`` ...);
    docs/battle.md lists every kind and its answer shape."""
    rule: str
    """The rule that gives the choice (section or checklist ID)."""
    prompt: str
    """A readable question."""
    options: tuple[JSON, ...] = ()
    """The legal answers when they can be listed; empty for a free-form answer."""
    free_form: str = ""
    """For a free-form answer, the name of its shape (``positions``); validated on submit."""
    context: dict[str, JSON] = field(default_factory=dict)
    """Details a player needs (unit id, maximum distance, ...)."""
    labels: tuple[str, ...] = ()
    """Readable labels of the options."""

    def to_json(self) -> dict[str, JSON]:
        """The request as JSON."""
        return {"player": self.player, "kind": self.kind, "rule": self.rule,
                "prompt": self.prompt, "options": list(self.options),
                "free_form": self.free_form, "context": dict(self.context),
                "labels": list[JSON](self.labels)}
