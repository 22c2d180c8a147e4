"""The attack sequence die by die (04.03, 05, 06.02, 06.03, 19.02, 24): the referee.

``resolve_attack(request, dice, decider)`` resolves one unit's attacks on one target unit:
pools of identical attacks in order, hit, wound and save rolls made together, saves resolved
lowest first against the current allocation group, damage, Feel No Pain, mortal wounds after
normal damage, and hazard rolls after all attacks. Every die comes from ``dice`` (seeded or
scripted: referee mode) and every player choice goes through ``decider``. The result carries
counts per step, the target and attacker models after the attack, and a readable account in
which each entry names the rule that decided it.

It is the loop over the resumable attack machine (:mod:`w40k.rules.attack_machine`), the same
step code the engine runs one pause at a time.
"""

from __future__ import annotations

from w40k.core.dice import DiceSource
from w40k.core.jsonval import JSON
from w40k.rules.attack_machine import NO_ANSWER, Done, Rolled, advance, start
from w40k.rules.attack_types import AttackRequest, AttackResult, Event, PoolResult
from w40k.rules.decisions import Decider, DecisionRequest, DefaultDecider, normalise

__all__ = ["AttackRequest", "AttackResult", "Event", "PoolResult", "resolve_attack"]


def resolve_attack(request: AttackRequest, dice: DiceSource,
                   decider: Decider | None = None) -> AttackResult:
    """Resolve one unit's attacks on one target unit, die by die (04.03 to 06.03): each
    decision is answered by ``decider`` (validated by the machine; a request with one legal
    answer is not asked), each rolled batch is used as rolled."""
    decider = decider or DefaultDecider()
    state = start(request)
    state, pause = advance(state, request, dice)
    while not isinstance(pause, Done):
        if isinstance(pause, DecisionRequest):
            answer: JSON = normalise(decider.decide(pause))
            state, pause = advance(state, request, dice, answer)
        else:
            assert isinstance(pause, Rolled)
            state, pause = advance(state, request, dice, NO_ANSWER)
    return pause.result
