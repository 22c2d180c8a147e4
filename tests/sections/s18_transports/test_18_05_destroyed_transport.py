"""18.03 / 18.05 A TRANSPORT destroyed by an attack: the attacking unit's remaining attacks,
then each embarked unit's emergency disembark, then the Deadly Demise roll, then the removal
(R18.03-b, R18.05-b/c/d; the 24.08 example).

red.gun's death ray (certain death for T3 W1-2 models) is pushed straight onto red's Shooting
phase, one attack frame per target (as in test_24_08_deadly_demise.py); the attack dice come
from the seed, the hazard and Deadly Demise dice are scripted.
"""

from __future__ import annotations

from typing import Any

from tests.engine import movement_helpers as mh
from tests.engine.core_helpers import events
from tests.engine.shooting_helpers import DEATH_RAY, model, position, row, start, unit
from w40k.core.dice import ScriptedDice, SeededDice
from w40k.engine import geo
from w40k.engine.attack import push_attack
from w40k.engine.game import Game
from w40k.engine.phases.charge import eligible_to_charge
from w40k.engine.serial import weapon_from_json
from w40k.geometry.measure import wholly_within
from w40k.rules.attack_profile import AttackContext, WeaponEntry

Json = dict[str, Any]


def rhino(demise: str | None = "Deadly Demise 3") -> Json:
    """blue's TRANSPORT (T3 W2, so the death ray destroys it) at (20, 20)."""
    m = model("blue.rhino.1", 20, 20, keywords=("VEHICLE", "TRANSPORT"), W=2,
              base_mm=60.0)
    m["profile"]["transport"] = {"models": 12}
    m["profile"]["abilities"] = [demise] if demise else []
    return unit("blue.rhino", [m])


def passengers(*, mixed: bool = False) -> Json:
    """Two blue models embarked within the rhino (the second has W2 when ``mixed``, so a
    mortal wound needs a choice)."""
    u = unit("blue.sq", row("blue.sq", 2, 0, 0))
    if mixed:
        u["models"][1]["profile"]["W"] = 2
    return {**u, "location": "embarked", "embarked_in": "blue.rhino"}


def game_with(*units: Json, hazard: list[int], demise: list[int]) -> Game:
    pos = position(unit("red.gun", [model("red.gun.1", 5, 20, DEATH_RAY)]), *units)
    game = start(pos)
    game.dice.inner = ScriptedDice({"hazard": hazard, "deadly_demise": demise},
                                   fallback=SeededDice(1))
    return game


def attack(game: Game, *targets: str) -> None:
    """red.gun fires at each target in turn (the first target's frame on top)."""
    gun = game.state.unit("red.gun")
    ray = WeaponEntry(weapon_from_json(DEATH_RAY), 1)
    for tid in reversed(targets):
        push_attack(game, gun, game.state.unit(tid), [ray], AttackContext(), melee=False)


def order(game: Game) -> list[tuple[str, str]]:
    keep = ("attack", "destroyed", "emergency_disembark", "deadly_demise_roll",
            "deadly_demise", "removed")
    return [(str(e["event"]), str(e.get("model") or e.get("target") or e.get("unit")))
            for e in events(game) if e["event"] in keep and
            (e["event"] != "destroyed" or e["unit"] != "blue.other")]


def test_passengers_disembark_after_the_attacks_before_deadly_demise_and_the_removal():
    # R18.05-d / R18.03-b: the attacks on blue.other (the attacking unit's remaining attacks)
    # resolve first; then blue.sq's emergency disembark, then the Deadly Demise roll (6: the
    # disembarked passengers within 6" suffer its mortal wounds), then the rhino is removed.
    other = unit("blue.other", [model("blue.other.1", 20, 35)])
    game = game_with(rhino(), passengers(), other, hazard=[4, 4], demise=[6])
    attack(game, "blue.rhino", "blue.other")
    while (req := game.pending()) is not None and req.kind != "select_unit_to_shoot":
        game.submit(req.options[0])
    seen = order(game)
    steps = [kind for kind, _ in seen]
    assert steps.index("emergency_disembark") > max(
        i for i, (k, who) in enumerate(seen) if k == "attack" and who == "blue.other")
    assert steps.index("emergency_disembark") < steps.index("deadly_demise_roll") \
        < steps.index("removed")
    assert ("removed", "blue.rhino.1") in seen
    dd = events(game, "deadly_demise")[0]["mortal_wounds"]
    assert dd == [["blue.sq", 3]]  # R18.05-d: the passengers are within 6" of the hull


def test_the_emergency_disembark_happens_before_the_hull_is_removed_and_shocks_the_unit():
    # R18.03-b: set up wholly within 6" of the hull, which is still where it died; R18.05-b:
    # the unit is battle-shocked and not eligible to declare a charge this turn.
    game = game_with(rhino(demise=None), passengers(), hazard=[4, 4], demise=[])
    attack(game, "blue.rhino")
    while (req := game.pending()) is not None and req.kind != "select_unit_to_shoot":
        game.submit(req.options[0])
    sq = game.state.unit("blue.sq")
    hull = game.state.unit("blue.rhino").models[0]
    assert all(wholly_within(geo.model_shape(m), geo.model_shape(hull), 6.0) for m in sq.alive)
    assert [e["event"] for e in events(game) if e["event"] in ("emergency_disembark",
                                                             "removed")] \
        == ["emergency_disembark", "removed"]
    assert sq.flag("battle_shocked") and sq.flag("emergency_disembark")
    assert not eligible_to_charge(game.ctx, sq)  # R18.05-b


def test_the_passengers_controller_makes_the_choices_of_the_emergency_disembark():
    # R18.05-c (recommended reading) / R01.01-a: red destroyed the rhino in red's turn, but
    # blue (the passengers' controller) allocates the hazard mortal wound between its models.
    game = game_with(rhino(demise=None), passengers(mixed=True), hazard=[1, 4], demise=[])
    attack(game, "blue.rhino")
    req = game.pending()
    assert req is not None and req.kind == "select_model" and req.player == "blue"
    assert events(game, "emergency_disembark")[0]["mortal_wounds"] == 1


def test_the_no_charge_restriction_of_an_emergency_disembark_ends_with_the_turn():
    # R18.05-b: "until the end of the turn": the flag is cleared when the next turn starts.
    pos = mh.position(mh.unit("red.a", "red", [mh.model("red.a.1", 10.0, 10.0)],
                              flags={"emergency_disembark": True}),
                      mh.unit("blue.b", "blue", [mh.model("blue.b.1", 50.0, 30.0)]))
    game = Game.new(pos, seed=1)
    game.pending()
    assert not game.state.unit("red.a").flag("emergency_disembark")
