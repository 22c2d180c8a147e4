"""The engine's kept tables (core/kept.py): a new game empties them, and emptying them never
changes a game.

A process that plays battle after battle must not keep the games it finished: before, module
tables keyed by object ids held every finished game's state until they filled up (thousands
of games), about 1 MB per skirmish."""

from __future__ import annotations

import gc
import hashlib
import json
import weakref

import pytest

from w40k.agents.greedy import GreedyAgent
from w40k.agents.random_agent import RandomAgent
from w40k.core import kept
from w40k.engine.game import Game
from w40k.io.battle_scale import scaled_position


def _play(game: Game, agent: type[GreedyAgent] | type[RandomAgent], seed: int,
          forget_each: bool = False) -> str:
    """Play ``game`` to its end; the digest of its record. ``forget_each``: empty every kept
    table before each decision."""
    agents = {p.name: agent(seed * 101 + i) for i, p in enumerate(game.state.players)}
    while True:
        if forget_each:
            kept.forget()
        req = game.pending()
        if req is None:
            break
        game.submit(agents[req.player].choose(game, req))
    text = json.dumps(game.record(), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _kept_sizes() -> int:
    return sum(len(t) for t in kept._TABLES)


@pytest.mark.parametrize("how", ["new", "load"])
def test_a_new_or_loaded_game_lets_the_finished_game_go(how: str) -> None:
    """A finished game's state is freed once the next game is made (``Game.new`` or
    ``Game.load``), though the engine's tables kept answers about it."""
    game = Game.new(scaled_position(1), 3)
    saved = game.save()
    _play(game, GreedyAgent, 3)
    assert _kept_sizes() > 0  # the game filled the tables
    gone = weakref.ref(game.state)
    del game
    nxt = Game.new(scaled_position(1), 4) if how == "new" else Game.load(saved)
    gc.collect()
    assert gone() is None
    assert nxt.pending() is not None


def test_a_clone_keeps_the_tables() -> None:
    """``Game.clone`` (a search's branch of the same game) empties nothing."""
    game = Game.new(scaled_position(1), 5)
    req = game.pending()
    assert req is not None
    game.submit(req.options[0])
    game.pending()
    before = _kept_sizes()
    assert before > 0
    game.clone()
    assert _kept_sizes() == before


@pytest.mark.parametrize(("agent", "seed"), [(GreedyAgent, 0), (RandomAgent, 1)])
def test_emptying_the_tables_before_every_decision_changes_nothing(
        agent: type[GreedyAgent] | type[RandomAgent], seed: int) -> None:
    """The tables only keep answers: a game whose tables are emptied before every decision
    has the same record as one that keeps them."""
    kept_all = _play(Game.new(scaled_position(1), seed), agent, seed)
    emptied = _play(Game.new(scaled_position(1), seed), agent, seed, forget_each=True)
    assert emptied == kept_all


def test_forget_empties_every_table_and_slot() -> None:
    """Every registered table and one-entry slot is empty after :func:`kept.forget`."""
    game = Game.new(scaled_position(1), 2)
    _play(game, GreedyAgent, 2)
    assert any(len(t) for t in kept._TABLES if isinstance(t, list))
    kept.forget()
    assert _kept_sizes() == 0


@pytest.mark.stratagems
def test_a_search_s_dropped_clones_are_not_kept() -> None:
    """A lookahead that clones the game at every decision, plays one step on the clone and
    drops it leaves few clones alive: the tables that hold a state keep a few entries
    (``field._SCENES``, ``SCENES_LIMIT``) or hold it weakly (``melee_measure._CONTACTS``).
    Before, 93 of this game's 271 clones were still alive at its end, and more the longer
    it ran."""
    game = Game.new(scaled_position(1), 1)
    agents = {p.name: GreedyAgent(i) for i, p in enumerate(game.state.players)}
    clones = []
    while (req := game.pending()) is not None:
        branch = game.clone()
        branch.submit(agents[req.player].choose(branch, req))
        branch.pending()
        clones.append(weakref.ref(branch.state))
        del branch
        game.submit(agents[req.player].choose(game, req))
    gc.collect()
    alive = sum(1 for c in clones if c() is not None)
    assert len(clones) > 200
    assert alive <= 48
