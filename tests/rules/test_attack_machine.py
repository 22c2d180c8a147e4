"""The resumable attack machine (issue 9 item 2): stopping at any pause, saving the state as
key-sorted JSON, loading it and going on gives exactly the result and account of a run that
never stopped; each die is drawn once however many pauses there are; a die may be re-rolled
at a Rolled pause once (002)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from tests.builders import models, weapon
from w40k.core.dice import DiceSource, DieRoll, RollKind, ScriptedDice, SeededDice
from w40k.core.errors import DiceError, IllegalChoice, MalformedChoice
from w40k.core.jsonval import JSON
from w40k.core.profiles import WeaponProfile, weapon_from_json, weapon_to_json
from w40k.rules.attack_machine import NO_ANSWER, AttackState, Done, Rolled, advance, reroll, start
from w40k.rules.attack_profile import AttackContext, Reroll, WeaponEntry
from w40k.rules.attack_sequence import AttackRequest, AttackResult, resolve_attack
from w40k.rules.decisions import DecisionKind, DecisionRequest
from w40k.rules.primitives import ModelState

ABILITIES = ["SUSTAINED HITS 1", "SUSTAINED HITS 2", "LETHAL HITS", "DEVASTATING WOUNDS",
             "TWIN-LINKED", "TORRENT", "ANTI-INFANTRY 4+", "PRECISION", "HAZARDOUS",
             "MELTA 2", "RAPID FIRE 1", "BLAST", "LANCE", "HEAVY", "IGNORES COVER"]


def _sorted_json(value: JSON) -> JSON:
    return json.loads(json.dumps(value, sort_keys=True))  # type: ignore[no-any-return]


def random_request(rng: random.Random) -> AttackRequest:
    """A random volley covering every ability and decision kind over many seeds."""
    weapons = []
    for i in range(rng.randint(1, 3)):
        abilities = rng.sample(ABILITIES, rng.randint(0, 3))
        if rng.random() < 0.15:
            abilities += ["SUSTAINED HITS 1", "SUSTAINED HITS 2"]  # 24.02 duplicates
        w = WeaponProfile.build(
            f"Gun {i}", range=rng.choice([24, "Melee"]), A=rng.choice([1, 2, 3, "D3", "D6"]),
            skill=rng.randint(2, 4), S=rng.randint(3, 9), AP=-rng.randint(0, 3),
            D=rng.choice([1, 2, "D3", "D6+1"]), abilities=abilities)
        weapons.append(WeaponEntry(w, rng.randint(1, 4), rng.choice([None, True, False])))
    target: list[ModelState] = []
    for k in range(rng.randint(1, 5)):
        W = rng.choice([1, 2, 3])
        target.append(ModelState(
            f"Trooper {k}", W=W, T=rng.choice([3, 4, 5]), Sv=rng.choice([3, 4, 7]),
            InSv=rng.choice([None, 5]), wounds_lost=rng.choice([0, 0, W - 1]),
            keywords=("INFANTRY",), fnp=rng.choice([None, None, 5]),
            wargear=rng.choice([(), ("bolter",), ("power fist",)]),
            position=rng.choice([None, (float(k), 2.5)])))
    if rng.random() < 0.5:
        target.append(ModelState("Captain", W=5, T=4, Sv=3, InSv=4,
                                 keywords=("INFANTRY", "CHARACTER"), leader=True,
                                 visible=rng.random() < 0.8))
    attacker = tuple(ModelState(f"Shooter {k}", W=rng.choice([1, 2]), fnp=rng.choice([None, 6]),
                                keywords=rng.choice([("INFANTRY",), ("VEHICLE",)]),
                                position=rng.choice([None, (float(k), 0.0)]))
                     for k in range(rng.randint(0, 3)))
    ctx = AttackContext(half_range=rng.random() < 0.5, charged=rng.random() < 0.5,
                        cover=rng.random() < 0.3, reroll_hits=rng.choice(list(Reroll)),
                        reroll_wounds=rng.choice(list(Reroll)),
                        lethal_hits_auto=rng.random() < 0.5)
    return AttackRequest(tuple(weapons), tuple(target), attacker, ctx)


@dataclass
class RandomAnswers:
    """Picks a random legal option (seeded), recording the kinds asked."""

    rng: random.Random
    kinds: set[str] = field(default_factory=set)

    def answer(self, request: DecisionRequest) -> JSON:
        self.kinds.add(str(request.kind))
        return self.rng.choice(request.options)


AtDecision = Callable[[AttackState, DecisionRequest, SeededDice], None]
"""What :func:`play_random`'s caller checks at each decision pause, before it is answered."""


def play_random(seed: int, at_decision: AtDecision | None = None) -> AttackRequest:
    """Run :func:`random_request`'s request of ``seed`` to the end with seeded dice and
    :class:`RandomAnswers`, calling ``at_decision`` at each decision pause; the request."""
    request = random_request(random.Random(seed))
    answers = RandomAnswers(random.Random(seed))
    dice = SeededDice(seed)
    state, answer = start(request), NO_ANSWER
    while True:
        state, pause = advance(state, request, dice, answer)  # type: ignore[arg-type]
        answer = NO_ANSWER
        if isinstance(pause, Done):
            return request
        if isinstance(pause, DecisionRequest):
            if at_decision is not None:
                at_decision(state, pause, dice)
            answer = answers.answer(pause)


@dataclass
class Run:
    result: AttackResult
    pauses: list[str]
    draws: int
    rolled_faces: int


class CountingDice:
    """A DiceSource that counts the faces drawn."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.drawn = 0

    def d6(self, kind: str) -> int:
        self.drawn += 1
        return self.inner.d6(kind)


def drive(request: AttackRequest, seed: int, *, round_trip: bool,
          kinds: set[str] | None = None) -> Run:
    """Run the machine to the end; with ``round_trip``, at every pause the state (and the
    request) go through key-sorted JSON and the run resumes from the loaded copies."""
    answers = RandomAnswers(random.Random(seed))
    dice = CountingDice(SeededDice(seed))
    state, answer = start(request), NO_ANSWER
    pauses: list[str] = []
    faces = 0
    while True:
        state, pause = advance(state, request, dice, answer)  # type: ignore[arg-type]
        answer = NO_ANSWER
        if round_trip:
            state = AttackState.from_json(_sorted_json(state.to_json()))  # type: ignore[arg-type]
            request = AttackRequest.from_json(_sorted_json(request.to_json()))  # type: ignore[arg-type]
        if isinstance(pause, Done):
            if kinds is not None:
                kinds |= answers.kinds
            return Run(pause.result, pauses, dice.drawn, faces)
        if isinstance(pause, DecisionRequest):
            pauses.append(str(pause.kind))
            answer = answers.answer(pause)
        else:
            assert isinstance(pause, Rolled)
            pauses.append(f"rolled {pause.kind}")
            faces += sum(len(d.faces) for d in pause.dice)


def test_every_pause_can_be_saved_as_sorted_json_and_resumed_with_the_same_result() -> None:
    # Issue 9 item 2: frames resume where they stopped (R05.04-a..i, R06.02-a..e, R24.*).
    seen: set[str] = set()
    rolled: set[str] = set()
    for seed in range(400):
        request = random_request(random.Random(seed))
        plain = drive(request, seed, round_trip=False, kinds=seen)
        resumed = drive(request, seed, round_trip=True)
        assert resumed.result == plain.result, f"seed {seed}"
        assert resumed.result.events == plain.result.events
        assert resumed.pauses == plain.pauses
        rolled |= {p for p in plain.pauses if p.startswith("rolled")}
    # the volleys cover every decision kind of the attack sequence and every roll pause
    assert seen >= {str(k) for k in (DecisionKind.DUPLICATE_ABILITY, DecisionKind.LETHAL_HITS,
                                     DecisionKind.ALLOCATION_ORDER, DecisionKind.PRECISION,
                                     DecisionKind.SELECT_MODEL)}, seen
    assert rolled == {f"rolled {k}" for k in (RollKind.ATTACKS, RollKind.HIT, RollKind.WOUND,
                                              RollKind.SAVE, RollKind.DAMAGE, RollKind.FNP,
                                              RollKind.HAZARD)}, rolled


def test_the_machine_gives_what_resolve_attack_gives() -> None:
    # resolve_attack is the loop over advance: with the default answers both agree.
    for seed in range(100):
        request = random_request(random.Random(seed))
        expected = resolve_attack(request, SeededDice(seed))
        state, dice = start(request), SeededDice(seed)
        state, pause = advance(state, request, dice)
        while not isinstance(pause, Done):
            if isinstance(pause, DecisionRequest):
                answer = pause.default
                if answer is None and None not in pause.options:
                    answer = pause.options[0]
                state, pause = advance(state, request, dice, answer)
            else:
                state, pause = advance(state, request, dice)
        assert pause.result == expected


def test_each_die_is_drawn_once_however_many_pauses_there_are() -> None:
    # Work is proportional to the steps: no step is re-run, so the dice drawn from the
    # source are exactly the faces of the batches rolled, paused and saved or not.
    for seed in range(150):
        request = random_request(random.Random(seed))
        plain = drive(request, seed, round_trip=False)
        resumed = drive(request, seed, round_trip=True)
        assert plain.draws == plain.rolled_faces
        assert resumed.draws == resumed.rolled_faces == plain.draws


def _to_rolled(state: AttackState, request: AttackRequest, dice: DiceSource,
               kind: RollKind) -> tuple[AttackState, Rolled]:
    answer: object = NO_ANSWER
    while True:
        state, pause = advance(state, request, dice, answer)  # type: ignore[arg-type]
        answer = NO_ANSWER
        if isinstance(pause, Rolled) and pause.kind is kind:
            return state, pause
        assert not isinstance(pause, Done), "the roll never came"
        if isinstance(pause, DecisionRequest):
            answer = pause.default


def test_a_die_rerolled_at_a_rolled_pause_is_rerolled_once_and_its_new_result_is_used() -> None:
    # X002-h / 002: a die is re-rolled at most once, before it is used (Command Re-roll).
    request = AttackRequest((weapon("2x Bolter A1 BS3+ S4 AP0 D1"),),
                            models("2x Boy T4 Sv7 W1"))
    dice = CountingDice(ScriptedDice({"hit": [1, 4, 6], "wound": [6, 6], "save": [1, 1]}))
    state, pause = _to_rolled(start(request), request, dice, RollKind.HIT)
    assert [d.face for d in pause.dice] == [1, 4] and pause.indices == (0, 1)
    assert dice.drawn == 2
    state = reroll(state, 0, dice)
    assert dice.drawn == 3 and state.rolled[0].faces == (1, 6)
    assert state.events[-1].rule == "X002-h"
    with pytest.raises(DiceError):
        reroll(state, 0, dice)  # never twice
    assert dice.drawn == 3
    state, pause = advance(state, request, dice)  # the wound batch: the re-rolled 6 hit
    assert isinstance(pause, Rolled) and pause.kind is RollKind.WOUND and len(pause.dice) == 2
    with pytest.raises(MalformedChoice):
        reroll(replace_step_done(state), 0, dice)


def replace_step_done(state: AttackState) -> AttackState:
    """A state with no batch waiting (the save rolls are not rolled yet)."""
    from dataclasses import replace
    return replace(state, rolled=())


def test_declining_precision_with_null_is_an_answer_not_a_missing_one() -> None:
    # R24.28-a: null declines [PRECISION]; the machine goes on instead of asking again.
    request = AttackRequest((weapon("Sniper A1 BS3+ S8 AP0 D2 [PRECISION]"),),
                            models("2x Intercessor T4 Sv3+ W2; Captain T4 Sv3+ W5 CHARACTER "
                                   "leader"))
    dice = ScriptedDice({"hit": [3], "wound": [3], "save": [1]})
    state, pause = _to_rolled(start(request), request, dice, RollKind.WOUND)
    state, pause = advance(state, request, dice)
    assert isinstance(pause, DecisionRequest) and pause.kind is DecisionKind.ALLOCATION_ORDER
    state, pause = advance(state, request, dice, pause.default)
    assert isinstance(pause, DecisionRequest) and pause.kind is DecisionKind.PRECISION
    state, pause = advance(state, request, dice, None)
    assert isinstance(pause, Rolled) and pause.kind is RollKind.SAVE


def test_an_answer_when_no_decision_is_pending_is_refused() -> None:
    request = AttackRequest((weapon("Bolter A1 BS3+ S4 AP0 D1"),), models("Boy T4 Sv7 W1"))
    with pytest.raises(MalformedChoice):
        advance(start(request), request, ScriptedDice({"hit": [3]}), answer=1)


def test_an_illegal_answer_is_refused_and_the_state_is_unchanged() -> None:
    request = AttackRequest((weapon("Bolter A1 BS3+ S4 AP0 D1 [LETHAL HITS]"),),
                            models("Boy T4 Sv7 W1"))
    dice = ScriptedDice({"hit": [6], "save": [1]})
    state, pause = advance(start(request), request, dice)
    assert isinstance(pause, Rolled)
    state, pause = advance(state, request, dice)
    assert isinstance(pause, DecisionRequest) and pause.kind is DecisionKind.LETHAL_HITS
    with pytest.raises((IllegalChoice, MalformedChoice)):
        advance(state, request, dice, answer="yes")
    state, pause = advance(state, request, dice, answer=True)
    assert isinstance(pause, Rolled) and pause.kind is RollKind.SAVE  # no wound roll made
    state, pause = advance(state, request, dice)
    assert isinstance(pause, Done) and pause.result.wounds == 1


def test_requests_and_weapons_round_trip_exactly_through_json() -> None:
    for seed in range(100):
        request = random_request(random.Random(seed))
        assert AttackRequest.from_json(_sorted_json(request.to_json())) == request  # type: ignore[arg-type]
        for entry in request.weapons:
            assert weapon_from_json(_sorted_json(weapon_to_json(entry.weapon))) == entry.weapon  # type: ignore[arg-type]


def test_a_die_record_round_trips_through_the_state() -> None:
    state = AttackState(start(AttackRequest((), models("Boy T4 Sv7 W1"))).step,
                        models("Boy T4 Sv7 W1"), (),
                        rolled=(DieRoll("hit", (1, 5)), DieRoll("damage", (4,), 3)))
    assert AttackState.from_json(_sorted_json(state.to_json())) == state  # type: ignore[arg-type]
