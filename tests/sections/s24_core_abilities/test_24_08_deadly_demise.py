"""24.08 Deadly Demise and the Appendix 'Destroyed': a destroyed model's on-death rules resolve
before it is removed, after the attacking unit's attacks when it died to an attack
(RA-Destroyed-b, R24.08-a/b/c).

The attacks are pushed straight onto red's Shooting phase (``push_attack``, as the phase does);
the attack dice come from the frame's own seeded copy of the RNG, and every weapon here is
certain death for a T3 W1 model, while the Deadly Demise and D3 dice are scripted.
"""

from __future__ import annotations

from typing import Any, cast

from tests.engine.core_helpers import events, frame, scripted
from tests.engine.core_helpers import model as cmodel
from tests.engine.core_helpers import position as cposition
from tests.engine.core_helpers import unit as cunit
from tests.engine.shooting_helpers import DEATH_RAY, model, position, row, start, unit
from w40k.core.dice import ScriptedDice, SeededDice
from w40k.engine.attack import push_attack
from w40k.engine.game import Game
from w40k.engine.serial import weapon_from_json
from w40k.engine.state import UnitData
from w40k.rules.attack_profile import AttackContext, WeaponEntry

Json = dict[str, Any]


def demise(m: Json, x: str, W: int = 1) -> Json:
    """The model with Deadly Demise ``x`` (and ``W`` wounds)."""
    m["profile"]["abilities"] = [f"Deadly Demise {x}"]
    m["profile"]["W"] = W
    return m


def attack(game: Game, *targets: str) -> None:
    """red.gun fires its death ray at each target in turn (one attack frame per target)."""
    gun = game.state.unit("red.gun")
    ray = WeaponEntry(weapon_from_json(DEATH_RAY), 1)
    for tid in reversed(targets):  # the stack: the first target on top
        push_attack(game, gun, game.state.unit(tid), [ray], AttackContext(), melee=False)


def resolve(game: Game) -> None:
    """Run until red's Shooting phase asks for the next unit (answering mortal wound choices
    with the first option)."""
    while (req := game.pending()) is not None and req.kind != "select_unit_to_shoot":
        game.submit(req.options[0])


def demise_dice(game: Game, faces: list[int]) -> None:
    """Script the Deadly Demise dice (the D6, then each unit's X) in rolling order; the
    attack's own dice come from the seed."""
    game.dice.inner = ScriptedDice({"deadly_demise": faces}, fallback=SeededDice(1))


def names(game: Game) -> list[tuple[str, str]]:
    """(event, model or target or unit) for the events this feature orders."""
    keep = ("attack", "destroyed", "deadly_demise_roll", "deadly_demise", "mortal_wound",
            "removed")
    out = []
    for e in events(game):
        if e["event"] in keep:
            who = e.get("model") or e.get("target") or e.get("unit")
            out.append((str(e["event"]), str(who)))
    return out


def hits(game: Game, i: int) -> list[tuple[str, int]]:
    """The (unit, mortal wounds) of the ``i``-th deadly demise."""
    batch = cast(list[list[Any]], events(game, "deadly_demise")[i]["mortal_wounds"])
    return [(str(u), int(n)) for u, n in batch]


def gun() -> Json:
    return unit("red.gun", [model("red.gun.1", 5, 20, DEATH_RAY)])


def alive(u: UnitData) -> int:
    return len(u.alive)


def test_ra_destroyed_b_a_deadly_demise_model_killed_by_the_first_attack_rolls_only_after_the_units_last_attack() -> None:  # noqa: E501
    # RA-Destroyed-b: the tank dies to the first attack frame; its D6 waits until the second
    # frame (at blue.b) is resolved, then it rolls (a 1: nothing) and is removed.
    game = start(position(gun(), unit("blue.tank", [demise(model("blue.tank.1", 30, 20), "D3")]),
                          unit("blue.b", row("blue.b", 2, 30, 35))))
    demise_dice(game, [1])
    attack(game, "blue.tank", "blue.b")
    resolve(game)
    order = names(game)
    assert order.index(("attack", "blue.tank")) < order.index(("destroyed", "blue.tank.1"))
    assert order.index(("destroyed", "blue.tank.1")) < order.index(("attack", "blue.b"))
    assert order.index(("attack", "blue.b")) < order.index(("deadly_demise_roll", "blue.tank.1"))
    assert order[-1] == ("removed", "blue.tank.1")
    assert [e["roll"] for e in events(game, "deadly_demise_roll")] == [1]
    assert not events(game, "deadly_demise") and not events(game, "mortal_wound")
    assert all(f.kind != "deaths" for f in game.state.frames)


def two_units_near_the_tank() -> Game:
    """The tank at (30, 20); blue.a 4" above it, red.b 5" below it, the gun 25" away."""
    return start(position(gun(), unit("blue.tank", [demise(model("blue.tank.1", 30, 20), "D3")]),
                          unit("blue.a", row("blue.a", 5, 28, 24)),
                          unit("red.b", row("red.b", 5, 28, 15)),
                          unit("blue.far", row("blue.far", 2, 45, 20))))


def test_r24_08_a_on_a_6_every_unit_within_6_suffers_x_mortal_wounds_rolled_separately_per_unit() -> None:  # noqa: E501
    # R24.08-a / R01.02-c: D6 = 6; X = D3 per unit: 4 -> 2 for blue.a, 6 -> 3 for red.b
    # (friend and foe alike); blue.far (15" away) suffers nothing.
    game = two_units_near_the_tank()
    demise_dice(game, [6, 4, 6])
    attack(game, "blue.tank")
    resolve(game)
    assert [e["roll"] for e in events(game, "deadly_demise_roll")] == [6]
    assert hits(game, 0) == [("blue.a", 2), ("red.b", 3)]
    s = game.state
    assert (alive(s.unit("blue.a")), alive(s.unit("red.b")), alive(s.unit("blue.far"))) == (3, 2, 2)
    assert names(game)[-1] == ("removed", "blue.tank.1")  # after its mortal wounds
    assert not game.dice.inner.unused()  # type: ignore[attr-defined]


def test_r24_08_a_a_5_does_nothing() -> None:
    # R24.08-a: D6 = 5 -> no deadly demise; the model is removed.
    game = two_units_near_the_tank()
    demise_dice(game, [5])
    attack(game, "blue.tank")
    resolve(game)
    assert [e["roll"] for e in events(game, "deadly_demise_roll")] == [5]
    assert not events(game, "deadly_demise") and not events(game, "mortal_wound")
    assert (alive(game.state.unit("blue.a")), alive(game.state.unit("red.b"))) == (5, 5)
    assert names(game)[-1] == ("removed", "blue.tank.1")


def test_r24_08_b_the_dying_models_own_unit_suffers_its_deadly_demise() -> None:
    # R24.08-b (literal reading, docs/rulings.md): a 2-model unit, a Deadly Demise 1 model and
    # a W3 model 1.5" away. A mortal wound (not an attack: resolved right away) destroys the
    # first; D6 = 6 -> its own unit suffers 1 mortal wound, taken by the W3 model.
    unit_models = [demise(model("blue.pair.1", 30, 20), "1"),
                   demise(model("blue.pair.2", 31.5, 20), "1", W=3)]
    unit_models[1]["profile"]["abilities"] = []
    game = start(position(gun(), unit("blue.pair", unit_models)))
    demise_dice(game, [6])
    game.push("mortal_wounds", unit="blue.pair", amount=1, cause="test")
    req = game.pending()
    assert req is not None and req.kind == "select_model"
    game.submit("blue.pair.1")
    resolve(game)
    assert hits(game, 0) == [("blue.pair", 1)]
    second = game.state.unit("blue.pair").models[1]
    assert (second.destroyed, second.wounds_lost) == (False, 1)
    assert names(game)[-1] == ("removed", "blue.pair.1")


def test_r24_08_c_a_model_removed_for_coherency_rolls_no_deadly_demise() -> None:
    # R24.08-c / R03.03-e: End of Turn coherency removal of a Deadly Demise model: no D6, no
    # deaths frame, no 'removed' through 24.08.
    models = [cmodel("blue.t.1", 10, 20, W=10, abilities=["Deadly Demise 6"], base_mm=60.0),
              cmodel("blue.t.2", 25, 20, W=10, abilities=["Deadly Demise 6"], base_mm=60.0)]
    game = Game.new(cposition([cunit("blue.t", "blue", models, starting_strength=2),
                               cunit("red.a", "red", [cmodel("red.a.1", 26, 24)])],
                              round=1, turn_player="red", phase="end_of_turn",
                              frames=[frame("end_of_turn", step=0)]), seed=1)
    scripted(game, [])  # any die rolled fails the test
    req = game.pending()
    assert req is not None and req.kind == "remove_for_coherency"
    game.submit("blue.t.2")
    game.pending()
    assert not events(game, "deadly_demise_roll") and not events(game, "removed")
    assert not game.state.unit("red.a").models[0].wounds_lost
    assert all(f.kind != "deaths" for f in game.state.frames)


def test_deadly_demise_chains_a_model_destroyed_by_deadly_demise_mortal_wounds_rolls_in_turn() -> None:  # noqa: E501
    # R24.08-a chain: tank A (Deadly Demise 3) dies to the attack; 6 -> 3 MW on tank B (W3,
    # Deadly Demise 2) 4" away, destroying it; A is removed, then B rolls 6 -> 2 MW on blue.c
    # (4.7" from B, 8.7" from A), then B is removed.
    game = start(position(gun(), unit("blue.a", [demise(model("blue.a.1", 30, 20), "3")]),
                          unit("blue.b", [demise(model("blue.b.1", 34, 20), "2", W=3)]),
                          unit("blue.c", row("blue.c", 3, 40, 20))))
    demise_dice(game, [6, 6])
    attack(game, "blue.a")
    resolve(game)
    order = [x for x in names(game) if x[0] != "mortal_wound"]
    assert order == [("attack", "blue.a"), ("destroyed", "blue.a.1"),
                     ("deadly_demise_roll", "blue.a.1"), ("deadly_demise", "blue.a.1"),
                     ("destroyed", "blue.b.1"), ("removed", "blue.a.1"),
                     ("deadly_demise_roll", "blue.b.1"), ("deadly_demise", "blue.b.1"),
                     ("destroyed", "blue.c.1"), ("destroyed", "blue.c.2"),
                     ("removed", "blue.b.1")]
    assert hits(game, 1) == [("blue.c", 2)]
    assert alive(game.state.unit("blue.c")) == 1
