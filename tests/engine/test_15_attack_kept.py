"""The attack sequence's kept and shortened work gives the plain answers (issue 10, pass atk15):
an attack frame run through its pauses in one call plays the same game as one pause per run
of the engine; the machine asked again at a decision gives the same state and request; the
weapons, contexts and profile traits kept per attack frame equal those read afresh; the
machine's state copy; the seeded dice's d6 draws ``randint(1, 6)``'s faces; Select Model's
test of two candidates standing apart agrees with the full interchangeability test."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.rules.test_attack_machine import play_random, random_request
from w40k.agents.greedy import GreedyAgent
from w40k.core import abilities as ab
from w40k.core.dice import DieRoll, Roller, SeededDice
from w40k.core.jsonval import JSON
from w40k.core.profiles import ModelProfile, WeaponProfile, weapon_from_json, weapon_to_json
from w40k.engine import attack, model_states
from w40k.engine.game import Game
from w40k.engine.registry import Handler
from w40k.engine.table import HANDLERS
from w40k.io.battle_scale import scaled_position
from w40k.rules import attack_machine as am
from w40k.rules.attack_machine import advance, start
from w40k.rules.attack_profile import AttackContext, Reroll, Ruleset
from w40k.rules.attack_sequence import AttackRequest
from w40k.rules.attack_state import AttackState
from w40k.rules.decisions import DecisionRequest
from w40k.rules.primitives import ModelState, interchangeable


def _play(seed: int) -> str:
    game = Game.new(scaled_position(1), seed)
    agents = {p.name: GreedyAgent(seed * 101 + i) for i, p in enumerate(game.state.players)}
    while (req := game.pending()) is not None:
        game.submit(agents[req.player].choose(game, req))
    return json.dumps(game.record(), sort_keys=True, default=str)


def _one_pause_per_run(ctx: Any, frame: attack.AttackFrame) -> Any:
    """The plain run: one step of the machine, then back to the engine's loop."""
    asked, _ = attack._run_once(ctx, frame)
    return asked


def test_running_through_the_pauses_plays_the_game_of_one_pause_per_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A greedy game with the attack frame run through its pauses in one call has the same
    record (events, dice, choices) as with the engine's loop running one pause at a time."""
    fast = _play(2)
    monkeypatch.setitem(HANDLERS, "attack",
                        Handler(attack.AttackFrame, _one_pause_per_run, attack._apply))
    plain = _play(2)
    assert fast == plain
    assert '"attack"' in fast


def test_asking_again_at_a_decision_changes_nothing() -> None:
    """At a decision pause, advance without an answer gives an equal state and the same
    request and draws no die: the frame may ask at once instead of on its next run."""
    asked = 0
    for seed in range(150):
        request = random_request(random.Random(seed))

        def ask_again(state: AttackState, pause: DecisionRequest, dice: SeededDice,
                      request: AttackRequest = request) -> None:
            nonlocal asked
            rng_state = dice._rng.getstate()
            again, pause2 = advance(state, request, dice)
            assert again == state and pause2 == pause
            assert dice._rng.getstate() == rng_state
            asked += 1

        play_random(seed, ask_again)
    assert asked > 50


def test_the_private_copy_equals_the_state_and_is_its_own() -> None:
    """The machine's copy of a state is equal to it; setting the copy leaves it unchanged."""
    for seed in range(40):
        state = start(random_request(random.Random(seed)))
        copy = am._private_copy(state)
        assert copy == state and copy is not state
        copy.__dict__["pool"] = 7
        assert state.pool == 0
        assert AttackState.from_json(state.to_json()) == state


def _random_weapon(rng: random.Random) -> WeaponProfile:
    abilities = rng.sample(["LETHAL HITS", "SUSTAINED HITS 1", "TORRENT", "MELTA 2", "BLAST",
                            "ANTI-INFANTRY 4+", "HAZARDOUS", "PRECISION"], rng.randint(0, 3))
    return WeaponProfile.build(
        f"Gun {rng.randint(0, 3)}", range=rng.choice([12, 24, 18.5, "Melee"]),
        A=rng.choice([1, 2, "D3", "D6", "2D6"]), skill=rng.randint(2, 5), S=rng.randint(3, 9),
        AP=-rng.randint(0, 3), D=rng.choice([1, 2, "D3", "D6+1"]), abilities=abilities)


def test_kept_weapons_equal_the_weapons_read_afresh() -> None:
    """The weapon kept for an attack frame's JSON equals ``weapon_from_json`` of that JSON,
    also for JSON differing only in a value's type (``24`` and ``24.0``)."""
    rng = random.Random(5)
    for _ in range(400):
        data = weapon_to_json(_random_weapon(rng))
        assert attack._weapon(data) == weapon_from_json(data)
        assert attack._weapon(dict(data)) is attack._weapon(data)
    for rng_value in (24, 24.0, "24"):
        data = {**weapon_to_json(_random_weapon(rng)), "range": rng_value}
        assert attack._weapon(data) == weapon_from_json(data)
        assert type(attack._weapon(data).range) is float
    assert repr({"S": 4}) != repr({"S": 4.0}) != repr({"S": True})


def test_kept_contexts_equal_the_contexts_read_afresh() -> None:
    """The context kept for an attack frame's JSON and ruleset equals the one read afresh."""
    rng = random.Random(7)
    for _ in range(300):
        ctx = AttackContext(half_range=rng.random() < 0.5, charged=rng.random() < 0.5,
                            cover=rng.random() < 0.5, indirect=rng.random() < 0.2,
                            target_models_at_select=rng.choice([None, 3, 10]),
                            reroll_hits=rng.choice(list(Reroll)))
        data = attack.context_to_json(ctx)
        rules = Ruleset(rng.choice([None, 1]))
        want = attack.context_from_json(data)
        got = attack._context(data, rules)
        assert got.ruleset == rules
        assert got == AttackContext(**{**{f: getattr(want, f) for f in want.__slots__},
                                       "ruleset": rules})


def test_kept_profile_traits_equal_the_profiles_read_afresh() -> None:
    """The traits kept per profile (W, T, Sv, InSv, keywords, Feel No Pain, Stealth) equal
    those read from the profile; the models' states equal the plain construction."""
    rng = random.Random(11)
    profiles = []
    for i in range(200):
        abilities = rng.sample([ab.Stealth(), ab.FeelNoPain(5), ab.FeelNoPain(6)],
                               rng.randint(0, 3))
        p = ModelProfile(f"M{i}", T=rng.randint(3, 8), Sv=rng.randint(2, 6), W=rng.randint(1, 9),
                         InSv=rng.choice([None, 4, 5]), keywords=rng.choice([(), ("INFANTRY",)]),
                         abilities=tuple(abilities))
        profiles.append(p)
        assert model_states._traits(p) == model_states.profile_traits(p)
        assert model_states._traits(p) == (
            p.W, p.T, p.Sv, p.InSv, p.keywords, p.fnp,
            any(isinstance(a, ab.Stealth) for a in p.abilities))
    for p in profiles:  # read back from the kept table
        assert model_states._traits(p) == model_states.profile_traits(p)


def test_model_states_equal_the_plain_construction() -> None:
    """Every unit's model states in a game equal those built field by field."""
    game = Game.new(scaled_position(1), 0)
    seen = 0
    for u in game.state.units:
        got = model_states.model_states(u)
        want = tuple(ModelState(m.id, m.profile.W, m.profile.T, m.profile.Sv, m.profile.InSv,
                                m.wounds_lost, m.profile.keywords, m.profile.fnp, m.leader,
                                stealth=any(isinstance(a, ab.Stealth)
                                            for a in m.profile.abilities),
                                wargear=tuple(w.name for w in m.weapons), position=(m.x, m.y))
                     for m in u.alive)
        assert got == want
        seen += len(got)
    assert seen > 10


def test_seeded_d6_draws_the_faces_of_randint() -> None:
    """The seeded dice's d6 gives ``random.Random(seed).randint(1, 6)``'s faces, in order,
    and leaves the generator in the same state."""
    for seed in [0, 1, 2, 17, 2**40, None]:
        dice = SeededDice(seed)
        plain = random.Random()
        plain.setstate(dice._rng.getstate())
        assert [dice.d6("hit") for _ in range(3000)] == [plain.randint(1, 6)
                                                          for _ in range(3000)]
        assert dice._rng.getstate() == plain.getstate()


def test_roller_dice_equal_one_die_at_a_time() -> None:
    """``Roller.dice`` gives the dice ``Roller.die`` gives one by one (same faces, order)."""
    for sides in (6, 3):
        a, b = Roller(SeededDice(3)), Roller(SeededDice(3))
        for n in range(12):
            assert a.dice("wound", n, sides) == tuple(b.die("wound", sides) for _ in range(n))
    d3 = DieRoll("damage", (5,), 3)
    assert d3.unmodified == 3 and DieRoll("hit", (2, 6)).unmodified == 6


def test_candidates_apart_are_never_interchangeable() -> None:
    """Two candidates standing apart are not interchangeable (the full test agrees), over
    random models with and without positions."""
    rng = random.Random(13)
    apart = 0
    for _ in range(3000):
        models = [ModelState(f"m{k}", W=rng.choice([1, 2]), wounds_lost=rng.choice([0, 0, 1]),
                             wargear=rng.choice([(), ("x",)]),
                             position=rng.choice([None, (1.0, 2.0), (float(k), 0.0)]))
                  for k in range(rng.randint(1, 4))]
        candidates = tuple(rng.sample(range(len(models)), rng.randint(1, len(models))))
        if am._apart(candidates, models):
            apart += 1
            assert not interchangeable([models[i] for i in candidates])
    assert apart > 300


def test_weapon_json_round_trip_is_exact() -> None:
    """The JSON an attack frame holds reads back as the weapon written."""
    rng = random.Random(17)
    for _ in range(200):
        w = _random_weapon(rng)
        data: dict[str, JSON] = weapon_to_json(w)
        assert attack._weapon(data) == w
