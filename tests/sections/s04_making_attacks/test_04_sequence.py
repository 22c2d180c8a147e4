"""04 Making Attacks in the engine: the attacking (active) player selects weapons, then their
targets, and only then are the attacks resolved (R04-a); the unit's attacks end once every
weapon has made all of its attacks, and what waits for that moment happens once (R04.03-f)."""

from __future__ import annotations

from tests.engine.core_helpers import events
from tests.engine.shooting_helpers import BOLTGUN, DEATH_RAY, model, position, select, start, unit
from w40k.core.dice import ScriptedDice, SeededDice


def test_weapons_then_targets_then_resolution_driven_by_the_attacking_player():
    # R04-a / R04.03-f: red.a's model has a death ray and a boltgun. The declaration is red's
    # (the active player's), offered per weapon with that weapon's targets; nothing is rolled
    # before it. The death ray kills blue.x's Deadly Demise model first; its roll waits until
    # the boltgun (the last weapon) has made its attacks at blue.y, and comes once.
    demise = model("blue.x.1", 10, 20)
    demise["profile"]["abilities"] = ["Deadly Demise 1"]
    game = start(position(unit("red.a", [model("red.a.1", 10, 10, DEATH_RAY, BOLTGUN)]),
                          unit("blue.x", [demise]),
                          unit("blue.y", [model("blue.y.1", 20, 10)])))
    game.dice.inner = ScriptedDice({"deadly_demise": [1]}, fallback=SeededDice(1))
    select(game, "red.a")
    req = game.pending()
    assert req is not None and req.player == "red" == game.state.active
    assert req.context["targets"] == {"red.a.1": {"death ray": ["blue.x", "blue.y"],
                                                  "boltgun": ["blue.x", "blue.y"]}}
    assert not events(game, "roll") and not events(game, "attack")
    game.submit({"red.a.1": {"death ray": "blue.x", "boltgun": "blue.y"}})
    while (req := game.pending()) is not None and req.kind != "select_unit_to_shoot":
        game.submit(req.options[0])
    kinds = [(str(e["event"]), str(e.get("target") or e.get("model") or ""))
             for e in events(game)
             if e["event"] in ("declare_shooting", "attack", "destroyed", "deadly_demise_roll")]
    assert kinds[0][0] == "declare_shooting"
    attacks = [i for i, (k, _) in enumerate(kinds) if k == "attack"]
    assert [kinds[i][1] for i in attacks] == ["blue.x", "blue.y"]
    rolls = [i for i, (k, _) in enumerate(kinds) if k == "deadly_demise_roll"]
    assert len(rolls) == 1 and rolls[0] > attacks[-1]
