"""The random-legal fuzzer (DESIGN.md "Quality bars"): many seeded games played to the end by
``RandomAgent``, with invariants checked after every decision. Each failure names the seed, the
decision index and what broke.

Most games use a smaller copy of the default position (each unit cut to its first 5 models,
sometimes one unit fewer, 3 battle rounds) so that ~200 games stay within a few minutes; a
few use the full default position, and six put the greedy baseline player on one or both
sides (random players seldom charge, so those games are the ones that fight in melee).

Invariants:

- no model has more wounds lost than its W, no living model has 0 wounds left, no CP < 0;
- exactly one player is active while a decision is pending (R01.03-a);
- no two living models overlap; none stands partway through a terrain feature it may not end
  in (03.01, 13.06) or off the battlefield;
- a unit that moved is in coherency after the move and at the End of Turn step, unless it has
  lost models since (03.03);
- destroyed units never act: no request is on behalf of one or offers one (or a destroyed
  model) as an option, and no action event names one (RA-Destroyed-c);
- every request has a legal answer: options, or a proposer whose answer ``submit`` takes;
- stratagems (R15.01-a/b): no player uses one twice in a phase or targets a unit with two in
  a phase, and CP never goes below 0; the random players do use them;
- the game ends after the mission's last round: ``battle_end`` is the last event, nothing is
  pending, the stack is empty.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pytest

from w40k.agents.greedy import GreedyAgent
from w40k.agents.random_agent import RandomAgent
from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.flow import rounds
from w40k.engine.game import Game
from w40k.engine.registry import Handler
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import Frame, StratagemUse
from w40k.engine.table import HANDLERS, PROPOSERS
from w40k.geometry.measure import overlaps
from w40k.geometry.movement import ending_violations
from w40k.io.battle_setup import default_position

pytestmark = pytest.mark.stratagems  # plays with the core stratagems

EPS = 1e-6
NOT_ACTIONS = {"destroyed", "unit_destroyed", "mortal_wounds_lost", "feel_no_pain",
               "mortal_wound", "hazard_rolls", "battle_shock_roll", "roll"}
"""Events with a ``unit`` field that happen *to* the unit rather than being done by it."""
AFTER_THE_FACT = {"attack", "fought"}
"""Summary events logged after an attack, when the attacker may have just died (hazard)."""


class InvariantBroken(AssertionError):
    """An invariant failed; the message says where (seed, decision) and what."""


@dataclass
class Checker:
    """Checks one game; ``where`` is prefixed to every failure."""

    game: Game
    where: str
    seen: int = 0
    destroyed: set[str] = field(default_factory=set)
    moved_intact: set[str] = field(default_factory=set)
    decisions: int = 0
    turns_checked: set[tuple[int, str]] = field(default_factory=set)
    last_where: tuple[tuple[str, float, float, float], ...] = ()

    def fail(self, what: str) -> None:
        raise InvariantBroken(f"{self.where}, decision {self.decisions}: {what}")

    # -- state --------------------------------------------------------------------------
    def state(self) -> None:
        s = self.game.state
        for p in s.players:
            if p.cp < 0:
                self.fail(f"player {p.name} has {p.cp} CP")
        self.stratagems()
        for u in s.units:
            for m in u.models:
                if not 0 <= m.wounds_lost <= m.profile.W:
                    self.fail(f"{m.id} has lost {m.wounds_lost} of W{m.profile.W}")
                if not m.destroyed and m.remaining <= 0:
                    self.fail(f"{m.id} has 0 wounds left but is not destroyed")
        self.geometry()

    def stratagems(self) -> None:
        """R15.01-a/b: per player and phase, no stratagem twice and no unit targeted by two
        stratagems; every use was paid for."""
        names: set[tuple[str, int, str, str, str]] = set()
        units: set[tuple[str, int, str, str, str]] = set()
        for u in self.game.state.stratagems:
            key = (u.player, u.round, u.turn, u.phase)
            if (*key, u.name) in names:
                self.fail(f"{u.player} used {u.name} twice in {key}")
            names.add((*key, u.name))
            for t in u.units:
                if (*key, t) in units:
                    self.fail(f"{u.player} targeted {t} with two stratagems in {key}")
                units.add((*key, t))
            if u.cp < 1:
                self.fail(f"{u.name} used for {u.cp} CP")

    def geometry(self) -> None:
        s = self.game.state
        alive = [(u, m) for u in s.units for m in u.alive]
        where = tuple((m.id, m.x, m.y, m.z) for _, m in alive)
        if not alive or where == self.last_where:
            return  # nobody moved or died since the last check
        self.last_where = where
        shapes = [geo.model_shape(m) for _, m in alive]
        xy = np.array([[m.x, m.y] for _, m in alive])
        r = np.array([max(sh.footprint().bbox()[2] - sh.x, sh.footprint().bbox()[3] - sh.y)
                      for sh in shapes])
        d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
        close = np.argwhere(np.triu(d < r[:, None] + r[None, :] - EPS, 1))
        for i, j in close:
            if overlaps(shapes[i], shapes[j]):
                self.fail(f"{alive[i][1].id} and {alive[j][1].id} overlap")
        battlefield, terrain = geo.terrain(self.game)
        for (_, m), sh in zip(alive, shapes, strict=True):
            fp = sh.footprint()
            x0, y0, x1, y1 = fp.bbox()
            if x0 < -EPS or y0 < -EPS or x1 > battlefield.width + EPS or \
                    y1 > battlefield.depth + EPS:
                self.fail(f"{m.id} at ({m.x:.2f}, {m.y:.2f}) is off the battlefield")
            # R03.01-i: never partway through a feature it cannot stand on (exposed ones too)
            for v in ending_violations(terrain, sh):
                self.fail(f"{m.id} at ({m.x:.2f}, {m.y:.2f}, {m.z:.2f}): {v.rule} {v.message}")

    # -- events -------------------------------------------------------------------------
    def events(self) -> None:
        s = self.game.state
        moved: set[str] = set()
        for e in s.events[self.seen:]:
            name = str(e["event"])
            actor = e.get("attacker") if "attacker" in e else (
                e.get("unit") if name not in NOT_ACTIONS else None)
            if isinstance(actor, str) and actor in self.destroyed and \
                    name not in AFTER_THE_FACT:
                self.fail(f"destroyed unit {actor} acts: {json.dumps(e)}")
            if name == "unit_destroyed":
                self.destroyed.add(str(e["unit"]))
            if (name == "move" or name.endswith("_move")) and isinstance(e.get("unit"), str):
                self.moved_intact.add(str(e["unit"]))
                moved.add(str(e["unit"]))
            if name == "destroyed":
                self.moved_intact.discard(str(e["unit"]))
            if name == "turn_start":
                self.moved_intact.clear()
        self.seen = len(s.events)
        for uid in sorted(moved & self.moved_intact):
            self.coherent(uid, "after its move")

    def coherent(self, uid: str, when: str) -> None:
        u = self.game.state.unit(uid)
        if len(u.alive) > 1 and not geo.unit_in_coherency(self.game, u):
            where = [(m.id, round(m.x, 2), round(m.y, 2)) for m in u.alive]
            self.fail(f"{uid} is out of coherency {when} (and lost no model since): {where}")

    def end_of_turn(self) -> None:
        """At the start of the End of Turn step: units that moved and lost nothing since are
        coherent (R03.03-d)."""
        s = self.game.state
        if (s.round, s.turn_player) in self.turns_checked:
            return
        self.turns_checked.add((s.round, s.turn_player))
        self.events()
        for uid in sorted(self.moved_intact):
            self.coherent(uid, "at the End of Turn after moving this turn")

    # -- dice and save/load ---------------------------------------------------------------
    def rolls_logged(self, drawn: int, since: int) -> None:
        """Every face drawn from the game's dice appears in a ``roll`` event."""
        logged = 0
        for e in self.game.state.events[since:]:
            if e["event"] == "roll":
                logged += len(cast(list[JSON], e["faces"]))
                logged += sum(len(f) - 1 for f in cast(list[list[JSON]], e["rerolled"]))
        if logged != drawn:
            self.fail(f"{drawn} dice drawn but {logged} faces logged as roll events")

    def save_load_continues(self) -> None:
        """save -> a key-sorted copy -> load -> pending() equals pending() on the game."""
        saved = json.loads(json.dumps(self.game.save(), sort_keys=True))
        twin = Game.load(saved)
        a, b = twin.pending(), self.game.pending()
        if a != b or twin.save() != self.game.save():
            self.fail("a key-sorted save, loaded, does not continue as the game does")

    # -- requests -----------------------------------------------------------------------
    def request(self, req: Request) -> None:
        s = self.game.state
        names = {p.name for p in s.players}
        if req.player not in names:
            self.fail(f"request {req.kind} for unknown player {req.player!r}")
        if s.active not in names:
            self.fail(f"no active player while {req.kind} is pending (R01.03-a)")
        top = s.frames[-1].kind
        if not req.options and (top, req.kind) not in PROPOSERS:
            self.fail(f"request {req.kind} ({req.rule}) has no options and no proposer for "
                      f"{req.free_form!r}")
        units = {u.id: u for u in s.units}
        models = {m.id: m for u in s.units for m in u.models}
        for key in ("unit", "attacker"):
            uid = req.context.get(key)
            if isinstance(uid, str) and uid in units and units[uid].destroyed:
                self.fail(f"request {req.kind} on behalf of destroyed unit {uid}")
        for o in req.options:
            if isinstance(o, str) and o in units and units[o].destroyed:
                self.fail(f"request {req.kind} offers destroyed unit {o}")
            if isinstance(o, str) and o in models and models[o].destroyed:
                self.fail(f"request {req.kind} offers destroyed model {o}")

    def ended(self) -> None:
        g = self.game
        if g.pending() is not None:
            self.fail("the game has not ended")
        s = g.state
        if not s.ended or s.frames or s.round != rounds(g):
            self.fail(f"ended={s.ended} frames={len(s.frames)} round={s.round}")
        if s.events[-1]["event"] != "battle_end":
            self.fail(f"last event is {s.events[-1]['event']}, not battle_end")
        if sum(e["event"] == "battle_end" for e in s.events) != 1:
            self.fail("battle_end logged more than once")
        self.events()


def watch_end_of_turn(monkeypatch: Any, get: Callable[[Context], Checker | None]) -> None:
    """Wrap the End of Turn frame so that ``get(game).end_of_turn()`` runs as it starts."""
    inner = HANDLERS["end_of_turn"]

    def run(ctx: Context, fr: Frame) -> Request | None:
        checker = get(ctx)
        if checker is not None:
            checker.end_of_turn()
        return inner.run(ctx, fr)

    monkeypatch.setitem(HANDLERS, "end_of_turn", Handler(inner.frame, run, inner.apply))


Agent = RandomAgent | GreedyAgent


def play_checked(position: dict[str, JSON], seed: int, *, registry: dict[int, Checker],
                 limit: int = 20_000, greedy: tuple[str, ...] = ()) -> Checker:
    """Play one random-legal game (``greedy`` names players that use ``GreedyAgent``
    instead), checking the invariants after every decision."""
    game = Game.new(position, seed)
    checker = Checker(game, f"seed {seed}" + (f", greedy {','.join(greedy)}" if greedy else ""))
    registry[id(game.ctx)] = checker  # the handlers see the game's context
    agents: dict[str, Agent] = {
        p.name: (GreedyAgent if p.name in greedy else RandomAgent)(seed * 7919 + i)
        for i, p in enumerate(game.state.players)}
    try:
        checker.state()
        while True:
            try:
                req = game.pending()
            except Exception as err:
                checker.fail(f"pending() raised {type(err).__name__}: {err}")
            if req is None:
                break
            checker.events()
            checker.request(req)
            choice = agents[req.player].choose(game, req)
            drawn, seen = game.dice.drawn, len(game.state.events)
            try:
                # R01.03-a: the answer comes from the player the request names
                game.submit(choice, player=req.player, request_id=req.id)
            except Exception as err:
                checker.fail(f"submit refused the agent's answer to {req.kind} ({req.rule}) "
                             f"{json.dumps(choice)[:300]}: {type(err).__name__}: {err}")
            checker.decisions += 1
            checker.rolls_logged(game.dice.drawn - drawn, seen)
            checker.save_load_continues()
            if checker.decisions > limit:
                checker.fail(f"more than {limit} decisions: the game does not end")
            checker.events()
            checker.state()
        checker.ended()
    finally:
        registry.pop(id(game.ctx), None)
    return checker


def small_position(position: dict[str, JSON], keep: int = 5, rounds: int = 3,
                   seed: int = 0) -> dict[str, JSON]:
    """The default table with fewer models: each unit keeps its first ``keep`` models and the
    mission lasts ``rounds`` rounds (a quicker game with the same rules exercised)."""
    pos = json.loads(json.dumps(position))
    rng = random.Random(seed)
    for u in pos["units"]:
        if len(u["models"]) > keep:
            u["models"] = u["models"][:keep]
    if rng.random() < 0.5 and len(pos["units"]) > 3:
        pos["units"] = [u for u in pos["units"] if u["id"] != pos["units"][-1]["id"]]
    pos["mission"] = {**pos["mission"], "rounds": rounds}
    return pos


# -- the tests ----------------------------------------------------------------------------
SMALL_GAMES = 98
"""Random games on a smaller copy of the default position (see ``small_position``)."""
DEFAULT_GAMES = 6
"""Random games on the full default position."""
CHUNK = 7


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict[int, Checker]:
    reg: dict[int, Checker] = {}
    watch_end_of_turn(monkeypatch, lambda g: reg.get(id(g)))
    return reg


@pytest.mark.parametrize("first", range(0, SMALL_GAMES, CHUNK))
def test_random_games_on_a_small_position_keep_every_invariant(
        first: int, registry: dict[int, Checker]) -> None:
    for seed in range(first, min(first + CHUNK, SMALL_GAMES)):
        play_checked(small_position(default_position(), seed=seed), seed, registry=registry)


@pytest.mark.parametrize("seed", range(1000, 1000 + DEFAULT_GAMES))
def test_random_games_on_the_default_position_keep_every_invariant(
        seed: int, registry: dict[int, Checker]) -> None:
    checker = play_checked(default_position(), seed, registry=registry)
    assert checker.decisions > 0


@pytest.mark.parametrize("greedy", [("red", "blue"), ("red",), ("blue",)])
@pytest.mark.parametrize("seed", (2000, 2001))
def test_games_with_greedy_players_keep_every_invariant(
        seed: int, greedy: tuple[str, ...], registry: dict[int, Checker]) -> None:
    # Random players seldom charge; the greedy baseline heads for the enemy, so these games
    # exercise the Charge and Fight phases, melee casualties and End of Turn removals.
    play_checked(default_position(), seed, registry=registry, greedy=greedy)


def test_random_players_use_stratagems_and_keep_the_limits(
        registry: dict[int, Checker]) -> None:
    # R15.01-a/b: checked after every decision; here, also that stratagems are used at all.
    used = 0
    for seed in range(3):
        checker = play_checked(small_position(default_position(), seed=seed), seed,
                               registry=registry)
        used += len(checker.game.state.stratagems)
    assert used > 0


def test_the_checker_catches_a_broken_invariant(registry: dict[int, Checker]) -> None:
    # The fuzzer's own test: a negative CP, overlapping models, a destroyed unit acting.
    game = Game.new(default_position(), 1)
    c = Checker(game, "self-test")
    game.state.players[0].cp = -1
    with pytest.raises(InvariantBroken, match="CP"):
        c.state()
    game.state.players[0].cp = 0
    use = StratagemUse("red", "Command Re-roll", ("red.x",), None, 1, 1, "red", "shooting")
    game.state.stratagems = [use, use]
    with pytest.raises(InvariantBroken, match="twice"):
        c.state()
    game.state.stratagems = [use, dataclasses.replace(use, name="Explosives")]
    with pytest.raises(InvariantBroken, match="two stratagems"):
        c.state()
    game.state.stratagems = []
    a, b = game.state.units[0].models[:2]
    b.x, b.y = a.x + 0.1, a.y
    with pytest.raises(InvariantBroken, match="overlap"):
        c.state()
    game.state.events += [{"event": "unit_destroyed", "unit": "blue.boyz"},
                          {"event": "move", "unit": "blue.boyz"}]
    with pytest.raises(InvariantBroken, match=r"destroyed unit blue\.boyz acts"):
        c.events()
    c.seen = len(game.state.events)
    boyz = game.state.unit("blue.more-boyz")
    boyz.models[0].y -= 15
    game.state.events.append({"event": "move", "unit": "blue.more-boyz"})
    with pytest.raises(InvariantBroken, match="out of coherency after its move"):
        c.events()
